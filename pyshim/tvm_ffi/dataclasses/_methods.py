"""Methods the decorators install: comparison, hashing, copy, replace, repr."""
from __future__ import annotations

from ..registry import get_global_func

_FUNCS = {}


def ffi_func(name):
    """A global function, looked up once."""
    f = _FUNCS.get(name)
    if f is None:
        f = get_global_func(name)
        _FUNCS[name] = f
    return f


def _same_class(self, other):
    return other.__class__ is self.__class__


def make_eq():
    def __eq__(self, other):
        if not _same_class(self, other):
            return NotImplemented
        return bool(ffi_func("ffi.RecursiveEq")(self, other))

    def __ne__(self, other):
        if not _same_class(self, other):
            return NotImplemented
        return not ffi_func("ffi.RecursiveEq")(self, other)

    return __eq__, __ne__


def make_order():
    out = []
    for op, name in (("__lt__", "Lt"), ("__le__", "Le"), ("__gt__", "Gt"), ("__ge__", "Ge")):
        fname = "ffi.Recursive" + name

        def cmp(self, other, _fname=fname):
            if not _same_class(self, other):
                return NotImplemented
            return bool(ffi_func(_fname)(self, other))

        cmp.__name__ = op
        out.append((op, cmp))
    return out


def __hash__(self):
    return ffi_func("ffi.RecursiveHash")(self)


def __repr__(self):
    """``TypeName(field=value, ...)``, skipping fields declared repr=False."""
    if not self.__chandle__():  # made by __new__ alone: nothing to print
        return f"<{type(self).__name__} (uninitialised)>"
    return ffi_func("ffi.ReprPrint")(self)


def __copy__(self):
    return ffi_func("ffi.ShallowCopy")(self)


def __deepcopy__(self, memo=None):
    return ffi_func("ffi.DeepCopy")(self)


def make_replace(cls):
    def __replace__(self, /, **changes):
        names = cls.__ffi_field_names__
        for name in changes:
            if name not in names:
                raise TypeError(
                    f"{cls.__name__}.__replace__() got an unexpected keyword argument {name!r}"
                )
            if not names[name]:
                raise ValueError(
                    f"field {name!r} is declared with init=False, it cannot be "
                    "specified with replace()"
                )
        out = ffi_func("ffi.ShallowCopy")(self)
        for name, value in changes.items():
            getattr(type(out), name).set(out, value)
        return out

    return __replace__
