"""FFI containers with the Python protocols: Array (Sequence), Map (Mapping),
Shape (a tuple), plus the wrappers of ffi.Error and ffi.OpaquePyObject."""
import collections.abc
import numbers
import operator
from typing import Any, Iterator

from . import core
from .registry import register_object

_FUNCS = {}


def _ffi(name: str) -> core.Function:
    f = _FUNCS.get(name)
    if f is None:
        f = core._get_global_func(name)
        if f is None:
            raise RuntimeError(f"global function `{name}` is not registered")
        _FUNCS[name] = f
    return f


def _seq_repr(items, open_, close) -> str:
    return open_ + ", ".join(repr(x) for x in items) + close


@register_object("ffi.Array")
class Array(core.ArrayBase, collections.abc.Sequence):
    """An immutable FFI array: ``Array([1, 2, 3])``.  Python lists and tuples
    passed to FFI functions become Arrays."""

    __slots__ = ()

    # Array(input_list=()): core.ArrayBase's __init__, written in C, builds
    # the array from the items without a Python frame.  Named here so that
    # register_object sees an __init__ and adds none of its own.
    __init__ = core.ArrayBase.__init__

    def __len__(self) -> int:
        return core._seq_size(self)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return [core._seq_getitem(self, i) for i in range(*idx.indices(len(self)))]
        if not isinstance(idx, numbers.Integral):
            raise TypeError(f"Array indices must be integers or slices, not {type(idx).__name__}")
        return core._seq_getitem(self, idx)

    def __iter__(self) -> Iterator[Any]:
        for i in range(core._seq_size(self)):
            yield core._seq_getitem(self, i)

    def __bool__(self) -> bool:
        return core._seq_size(self) != 0

    def __eq__(self, other):
        if isinstance(other, (str, bytes)) or not isinstance(other, collections.abc.Sequence):
            return NotImplemented
        if self.same_as(other):
            return True
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(tuple(self))

    def __add__(self, other):
        return Array(list(self) + list(other))

    def __radd__(self, other):
        return Array(list(other) + list(self))

    def __repr__(self) -> str:
        if self.__chandle__() == 0:
            return "Array(chandle=None)"
        return _seq_repr(self, "[", "]")


def _flat_items(input_dict):
    """k0, v0, k1, v1, ...: the argument order of the ffi.Map / ffi.Dict constructors."""
    items = []
    if input_dict is not None:
        for k, v in input_dict.items():
            items.append(k)
            items.append(v)
    return items


class _MapBase(core.Object):
    """What Map and Dict share.  `_kind` names their ffi.<kind>* globals."""

    __slots__ = ()
    _kind = ""

    def __init__(self, input_dict=None):
        self.__init_handle_by_constructor__(_ffi("ffi." + self._kind), *_flat_items(input_dict))

    def __getitem__(self, key):
        return _ffi("ffi." + self._kind + "GetItem")(self, key)

    def __contains__(self, key) -> bool:
        return _ffi("ffi." + self._kind + "Count")(self, key) != 0

    def __len__(self) -> int:
        return _ffi("ffi." + self._kind + "Size")(self)

    def _iter_pairs(self):
        """A snapshot of the (key, value) pairs, in insertion order."""
        n = len(self)
        if n == 0:
            return []
        it = _ffi("ffi." + self._kind + "ForwardIterFunctor")(self)
        out = []
        for i in range(n):
            out.append((it(0), it(1)))
            if i + 1 < n:
                it(2)
        return out

    def __iter__(self):
        return iter([k for k, _ in self._iter_pairs()])

    def __eq__(self, other):
        if not isinstance(other, collections.abc.Mapping):
            return NotImplemented
        if isinstance(other, core.Object) and self.same_as(other):
            return True
        if len(self) != len(other):
            return False
        return all(k in other and other[k] == v for k, v in self._iter_pairs())

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def _items_repr(self) -> str:
        return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in self._iter_pairs()) + "}"


@register_object("ffi.Map")
class Map(_MapBase, collections.abc.Mapping):
    """An immutable FFI map: ``Map({"a": 1})``, in insertion order.  Python
    dicts passed to FFI functions become Maps."""

    __slots__ = ()
    _kind = "Map"
    __init__ = _MapBase.__init__  # named here: register_object keeps a class's own __init__

    def items(self):
        return self._iter_pairs()

    def values(self):
        return [v for _, v in self._iter_pairs()]

    def keys(self):
        return [k for k, _ in self._iter_pairs()]

    def get(self, key, default=None):
        if key in self:
            return self[key]
        return default

    def __repr__(self) -> str:
        if self.__chandle__() == 0:
            return "Map(chandle=None)"
        return self._items_repr()


@register_object("ffi.List")
class List(core.Object, collections.abc.MutableSequence):
    """A mutable, shared FFI list: ``List([1, 2])``.  (Python lists passed to
    FFI functions become Arrays, not Lists.)"""

    __slots__ = ()

    def __init__(self, input_list=()):
        core._init_handle_from_iterable(self, _ffi("ffi.List"), input_list)

    def __len__(self) -> int:
        return core._seq_size(self)

    def _index(self, i) -> int:
        if not isinstance(i, numbers.Integral):
            raise TypeError(f"List indices must be integers or slices, not {type(i).__name__}")
        n = len(self)
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError(f"index {i} out of range for List of size {n}")
        return j

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return [core._seq_getitem(self, i) for i in range(*idx.indices(len(self)))]
        return core._seq_getitem(self, self._index(idx))

    def __setitem__(self, idx, value):
        if isinstance(idx, slice):
            start, stop, step = idx.indices(len(self))
            values = list(value)
            if step == 1:
                _ffi("ffi.ListReplaceSlice")(self, start, max(start, stop), values)
                return
            targets = list(range(start, stop, step))
            if len(targets) != len(values):
                raise ValueError(
                    f"attempt to assign sequence of size {len(values)} "
                    f"to extended slice of size {len(targets)}"
                )
            for i, v in zip(targets, values):
                _ffi("ffi.ListSetItem")(self, i, v)
            return
        _ffi("ffi.ListSetItem")(self, self._index(idx), value)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            start, stop, step = idx.indices(len(self))
            if step == 1:
                if start < stop:
                    _ffi("ffi.ListEraseRange")(self, start, stop)
                return
            for i in sorted(range(start, stop, step), reverse=True):
                _ffi("ffi.ListErase")(self, i)
            return
        _ffi("ffi.ListErase")(self, self._index(idx))

    def insert(self, index, value):
        # As list.insert: an integer (or __index__) only, clamped to [0, n].
        index = operator.index(index)
        n = len(self)
        index = max(0, min(n, index + n if index < 0 else index))
        _ffi("ffi.ListInsert")(self, index, value)

    def append(self, value):
        _ffi("ffi.ListAppend")(self, value)

    def pop(self, index=-1):
        if len(self) == 0:
            raise IndexError("pop from empty List")
        return _ffi("ffi.ListPop")(self, self._index(index))

    def clear(self):
        _ffi("ffi.ListClear")(self)

    def reverse(self):
        _ffi("ffi.ListReverse")(self)

    def __iter__(self):
        for i in range(core._seq_size(self)):
            yield core._seq_getitem(self, i)

    def __eq__(self, other):
        if isinstance(other, (str, bytes)) or not isinstance(other, collections.abc.Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __repr__(self) -> str:
        if self.__chandle__() == 0:
            return "List(chandle=None)"
        return "List(" + _seq_repr(self, "[", "]") + ")"


@register_object("ffi.Dict")
class Dict(_MapBase, collections.abc.MutableMapping):
    """A mutable, shared FFI dict: ``Dict({"a": 1})``, in insertion order."""

    __slots__ = ()
    _kind = "Dict"
    __init__ = _MapBase.__init__  # named here: register_object keeps a class's own __init__

    def __setitem__(self, key, value):
        _ffi("ffi.DictSetItem")(self, key, value)

    def __delitem__(self, key):
        _ffi("ffi.DictErase")(self, key)

    def clear(self):
        _ffi("ffi.DictClear")(self)

    __hash__ = None

    def __repr__(self) -> str:
        if self.__chandle__() == 0:
            return "Dict(chandle=None)"
        return "Dict(" + self._items_repr() + ")"


class Shape(tuple):
    """A tuple of ints backed by an ``ffi.Shape`` object (kept in
    ``_tvm_ffi_cached_object`` and passed to FFI functions as is)."""

    def __new__(cls, content, _cached=None):
        val = tuple.__new__(cls, content)
        if _cached is None:
            for x in val:
                if not isinstance(x, numbers.Integral) or isinstance(x, bool):
                    raise ValueError(f"Shape entries must be integers, got {x!r}")
            _cached = _ffi("ffi.Shape")(*val)._tvm_ffi_cached_object
        val._tvm_ffi_cached_object = _cached
        return val

    def __tvm_ffi_object__(self):
        return self._tvm_ffi_cached_object

    def __reduce__(self):
        return (Shape, (tuple(self),))

    def __repr__(self) -> str:
        return f"Shape({tuple.__repr__(self)})"


core._set_class("shape", Shape)


@register_object("ffi.Error")
class Error(core.Object):
    """An ``ffi.Error`` object.  Exceptions raised from FFI errors carry it as
    ``exc.__tvm_ffi_error__``."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return core._error_info(self)[0]

    @property
    def message(self) -> str:
        return core._error_info(self)[1]

    @property
    def backtrace(self) -> str:
        """Frames, most recent call first, as ``  File "f", line n, in fn`` lines."""
        return core._error_info(self)[2]

    def __repr__(self) -> str:
        kind, msg, _ = core._error_info(self)
        return f"ffi.Error({kind}: {msg})"


@register_object("ffi.OpaquePyObject")
class OpaquePyObject(core.Object):
    """An FFI object holding a strong reference to a Python object; passed back
    to Python it becomes that object again."""

    __slots__ = ()

    def pyobject(self):
        return core._opaque_pyobject(self)
