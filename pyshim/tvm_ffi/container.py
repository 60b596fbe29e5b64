"""FFI containers with the Python protocols: Array (Sequence), Map (Mapping),
Shape (a tuple), plus the wrappers of ffi.Error and ffi.OpaquePyObject."""
# The abstract base classes come from _collections_abc, which the interpreter
# has already imported at start-up: `collections.abc` is that module under its
# public name, and importing it would import all of `collections` too.
import _collections_abc as _abc
import operator as _operator

from . import core
from .core import MISSING  # the sentinel ffi.MapGetItemOrMissing returns
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


@register_object("ffi.Array")
class Array(core.ArrayBase, _abc.Sequence):
    """An immutable FFI array: ``Array([1, 2, 3])``.  Python lists and tuples
    passed to FFI functions become Arrays.

    Every read (``len``, indexing with negative indices and slices,
    iteration, ``in``, ``==``, ``hash``, ``repr``) is a type slot of the C
    base ``core.SeqBase``, which reads the elements in place.  A slice is a
    plain ``list``.
    """

    __slots__ = ()

    # Array(input_list=()): core.ArrayBase's __init__, written in C, builds
    # the array from the items without a Python frame.  Named here so that
    # register_object sees an __init__ and adds none of its own.
    __init__ = core.ArrayBase.__init__

    def __deepcopy__(self, memo):
        # One call of ffi.DeepCopy copies the whole graph in C++ (shared
        # sub-objects stay shared, as with copy.deepcopy's memo).
        return _ffi("ffi.DeepCopy")(self)

    def __add__(self, other):
        return Array(list(self) + list(other))

    def __radd__(self, other):
        return Array(list(other) + list(self))


@register_object("ffi.List")
class List(core.ListBase, _abc.MutableSequence):
    """A mutable, shared FFI list: ``List([1, 2])``.  (Python lists passed to
    FFI functions become Arrays, not Lists.)

    Reads are those of :class:`Array`; ``append``, ``extend``, ``insert``,
    ``pop``, ``clear``, ``reverse``, ``lst[i] = v``, ``lst[a:b] = values``
    and ``del lst[i]`` change the one shared ffi.List in place.
    """

    __slots__ = ()
    __init__ = core.ListBase.__init__  # named here: register_object keeps a class's own __init__

    def __deepcopy__(self, memo):
        # One call of ffi.DeepCopy copies the whole graph in C++ (shared
        # sub-objects stay shared, as with copy.deepcopy's memo).
        return _ffi("ffi.DeepCopy")(self)

    def __add__(self, other):
        return List(list(self) + list(other))

    def __radd__(self, other):
        return List(list(other) + list(self))


@register_object("ffi.Map")
class Map(core.MapBase, _abc.Mapping):
    """An immutable FFI map: ``Map({"a": 1})``, in insertion order.  Python
    dicts passed to FFI functions become Maps.

    Lookups, ``len``, ``in``, iteration, ``get`` and the ``keys()`` /
    ``values()`` / ``items()`` views are type slots of the C base
    ``core.MapBase``, which calls the ffi.Map* global functions.
    """

    __slots__ = ()
    __init__ = core.MapBase.__init__  # named here: register_object keeps a class's own __init__

    def __deepcopy__(self, memo):
        # One call of ffi.DeepCopy copies the whole graph in C++ (shared
        # sub-objects stay shared, as with copy.deepcopy's memo).
        return _ffi("ffi.DeepCopy")(self)


@register_object("ffi.Dict")
class Dict(core.DictBase, _abc.MutableMapping):
    """A mutable, shared FFI dict: ``Dict({"a": 1})``, in insertion order,
    except that once it has switched to its hashed form (when it grows past
    4 pairs), setting a present key moves it to the end (apache-tvm-ffi's
    order; docs/abi.md section 11).

    Reads are those of :class:`Map`; ``d[k] = v``, ``del d[k]``, ``pop``,
    ``setdefault``, ``update`` and ``clear`` change the one shared ffi.Dict.
    """

    __slots__ = ()
    __init__ = core.DictBase.__init__  # named here: register_object keeps a class's own __init__

    def __deepcopy__(self, memo):
        # One call of ffi.DeepCopy copies the whole graph in C++ (shared
        # sub-objects stay shared, as with copy.deepcopy's memo).
        return _ffi("ffi.DeepCopy")(self)


# The views of keys(), values() and items() are one C type; isinstance checks
# against the abstract views work through registration.
_abc.KeysView.register(core.MapView)
_abc.ValuesView.register(core.MapView)
_abc.ItemsView.register(core.MapView)


class _MapViewOf:
    """The views upstream's container module names (``KeysView(m)`` ...):
    live views of a Map or Dict, made from the map and, optionally,
    ``iter_functor_getter(m)``, which returns an ffi iterator functor
    (``f(0)`` the key, ``f(1)`` the value, ``f(2)`` advance, false at
    the end), e.g. ``ffi.MapForwardIterFunctor``."""

    __slots__ = ()

    def __init__(self, backend_map, iter_functor_getter=None):
        if not isinstance(backend_map, (Map, Dict)):
            raise TypeError(
                f"{type(self).__name__} needs an ffi Map or Dict, got {type(backend_map).__name__}"
            )
        self._mapping = backend_map  # the slot of the abstract MappingView
        self._iter_functor_getter = iter_functor_getter

    @property
    def _backend_map(self):
        return self._mapping

    def __len__(self):
        return len(self._backend_map)

    def _pairs(self):
        m = self._backend_map
        if self._iter_functor_getter is None:
            yield from m.items()
            return
        functor = self._iter_functor_getter(m)
        for _ in range(len(m)):
            yield functor(0), functor(1)
            if not functor(2):
                break

    def __repr__(self):
        return f"{type(self).__name__}({list(self)!r})"


class KeysView(_MapViewOf, _abc.KeysView):

    def __iter__(self):
        for k, _ in self._pairs():
            yield k

    def __contains__(self, key):
        return key in self._backend_map


class ValuesView(_MapViewOf, _abc.ValuesView):

    def __iter__(self):
        for _, v in self._pairs():
            yield v

    def __contains__(self, value):
        return any(v is value or v == value for _, v in self._pairs())


class ItemsView(_MapViewOf, _abc.ItemsView):

    def __iter__(self):
        return self._pairs()

    def __contains__(self, item):
        try:
            key, value = item
        except (TypeError, ValueError):
            return False
        got = self._backend_map.get(key, MISSING)
        return got is not MISSING and (got is value or got == value)


class Shape(tuple):
    """A tuple of ints backed by an ``ffi.Shape`` object (kept in
    ``_tvm_ffi_cached_object`` and passed to FFI functions as is)."""

    def __new__(cls, content, _cached=None):
        val = tuple.__new__(cls, content)
        if _cached is None:
            for x in val:
                # numbers.Integral, without importing numbers: ints and
                # anything with __index__ (numpy integers), but not bool.
                if isinstance(x, bool) or not hasattr(type(x), "__index__"):
                    raise ValueError(f"Shape entries must be integers, got {x!r}")
            _cached = _ffi("ffi.Shape")(*val)._tvm_ffi_cached_object
        val._tvm_ffi_cached_object = _cached
        return val

    def __tvm_ffi_object__(self):
        return self._tvm_ffi_cached_object

    def __reduce__(self):
        return (Shape, (tuple(self),))

    # A tuple's text, (2, 3), as upstream prints it (ffi.ReprPrint writes Shape(2, 3)).
    __repr__ = tuple.__repr__


core._set_class("shape", Shape)


@register_object("ffi.Error")
class Error(core.Object):
    """An ``ffi.Error`` object.  Exceptions raised from FFI errors carry it as
    ``exc.__tvm_ffi_error__``."""

    __slots__ = ()

    def __init__(self, kind: str, message: str, backtrace: str = "") -> None:
        """A new ffi.Error: ``Error("ValueError", "bad x", 'File "f.py", line 3, in g\n')``."""
        self.__move_handle_from__(core._error_create(kind, message, backtrace))

    def __reduce__(self):
        # By value: kind, message and backtrace (an error's cause and extra
        # context are not kept).  An Error holding nothing stays empty.
        if not self.__chandle__():
            return (_empty_error, ())
        return (Error, core._error_info(self))

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

    @property
    def extra_context(self):
        """What the error carries besides its text (None when nothing): for an
        error made from a Python exception, that exception."""
        return core._error_extra_context(self)

    def __repr__(self) -> str:
        kind, msg, _ = core._error_info(self)
        return f"ffi.Error({kind}: {msg})"


class _ContainerBaseMeta(type):
    """``isinstance(x, CContainerBase)``: x is an Array, List, Map or Dict."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, (Array, List, Map, Dict))

    def __subclasscheck__(cls, sub):
        return isinstance(sub, type) and issubclass(sub, (Array, List, Map, Dict))


class CContainerBase(core.Object, metaclass=_ContainerBaseMeta):
    """What the FFI containers have in common: ``isinstance(x,
    CContainerBase)`` holds for every :class:`Array`, :class:`List`,
    :class:`Map` and :class:`Dict` (and their subclasses)."""

    __slots__ = ()


core.CContainerBase = CContainerBase


def _empty_error():
    return Error.__new__(Error)


@register_object("ffi.OpaquePyObject")
class OpaquePyObject(core.Object):
    """An FFI object holding a strong reference to a Python object; passed back
    to Python it becomes that object again."""

    __slots__ = ()

    def pyobject(self):
        return core._opaque_pyobject(self)


def normalize_index(length, idx):
    """``idx`` (anything with ``__index__``) as an index into a sequence of
    ``length`` elements: negative counts from the end; outside
    ``[-length, length)`` raises IndexError, a non-integer TypeError."""
    try:
        index = _operator.index(idx)
    except TypeError:
        raise TypeError(f"indices must be integers or slices, not {type(idx).__name__}") from None
    if not -length <= index < length:
        raise IndexError(f"Index out of range. size: {length}, got index {index}")
    return index + length if index < 0 else index


def getitem_helper(obj, elem_getter, length, idx):
    """``__getitem__`` over ``elem_getter(obj, i)`` for a sequence of
    ``length`` elements: an element for an integer ``idx`` (checked by
    :func:`normalize_index`), a list of elements for a slice."""
    if isinstance(idx, slice):
        return [elem_getter(obj, i) for i in range(*idx.indices(length))]
    return elem_getter(obj, normalize_index(length, idx))
