"""Structural equality, hashing, first mismatch, deep copy, repr, keys,
walks, visits, maps and mutations.

Every function here is a thin call of an ``ffi.*`` global of the core
library, so C and C++ callers get the same results (docs/reflection.md).
The callback forms of walks, visits, maps and mutations are upstream's
(apache-tvm-ffi 0.1.15): a callable, a ``(type, fn)`` entry, a
``((type1, type2), fn)`` entry, or a sequence of entries, tried in order.
"""
from __future__ import annotations

import inspect
import typing
from collections.abc import Sequence
from enum import IntEnum

from . import access_path as _access_path  # registers AccessPath for the results
from . import core
from .registry import get_global_func, register_object

__all__ = [
    "DefRegionKind",
    "InplaceMode",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "deep_copy",
    "get_first_structural_mismatch",
    "repr_print",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
    "visit_fields",
]


class WalkOrder(IntEnum):
    """Whether a structural walk or map calls back on a node before
    (PREORDER) or after (POSTORDER, the default) its children."""

    PREORDER = 0
    POSTORDER = 1


class WalkResult(IntEnum):
    """What a pre-order walk does after a callback: ADVANCE into the node's
    children, or SKIP them (and go on with the rest)."""

    ADVANCE = 0
    SKIP = 1


class InplaceMode(IntEnum):
    """What a structural_mutate callback may do with its value: DISALLOW
    (the value is shared: copy on write) or ALLOW (it is owned by this path
    alone and may be changed in place)."""

    DISALLOW = 0
    ALLOW = 1


class DefRegionKind(IntEnum):
    """The definition region a visit is in (the C ABI's TVMFFIDefRegionKind):
    NONE (a use), DEF_PATTERN or DEF_SIMPLE (under a field flagged
    SEqHashDefPattern / SEqHashDefSimple)."""

    NONE = 0
    DEF_PATTERN = 1
    DEF_SIMPLE = 2


_FUNCS = {}


def _f(name):
    fn = _FUNCS.get(name)
    if fn is None:
        fn = _FUNCS[name] = get_global_func(name)
    return fn


def structural_equal(lhs, rhs, map_free_vars: bool = False, skip_tensor_content: bool = False) -> bool:
    """Whether ``lhs`` and ``rhs`` have the same structure and content.

    Containers compare item by item, reflected objects field by field
    (fields flagged SEqHashIgnore are skipped).  Free variables match only
    themselves unless bound by a definition field or ``map_free_vars`` is
    True.  ``skip_tensor_content`` compares tensors by shape, dtype and
    device only.
    """
    return _f("ffi.StructuralEqual")(lhs, rhs, bool(map_free_vars), bool(skip_tensor_content))


def structural_hash(value, map_free_vars: bool = False, skip_tensor_content: bool = False) -> int:
    """A hash consistent with :func:`structural_equal` (an unsigned 64-bit int)."""
    h = _f("ffi.StructuralHash")(value, bool(map_free_vars), bool(skip_tensor_content))
    return h & 0xFFFFFFFFFFFFFFFF


def get_first_structural_mismatch(
    lhs, rhs, map_free_vars: bool = False, skip_tensor_content: bool = False
):
    """None when equal, else a pair ``(lhs_path, rhs_path)`` of
    :class:`~tvm_ffi.access_path.AccessPath` to the first difference."""
    res = _f("ffi.GetFirstStructuralMismatch")(
        lhs, rhs, bool(map_free_vars), bool(skip_tensor_content)
    )
    return None if res is None else (res[0], res[1])


def visit_fields(obj, callback) -> None:
    """Calls ``callback(name, value, flags)`` for each reflected field of
    ``obj``, in declaration order (the fields of ancestors first)."""
    _f("ffi.VisitFields")(obj, callback)


def deep_copy(value):
    """A copy of ``value`` in which containers and reflected objects are new
    (sharing and cycles preserved); strings, shapes, tensors and functions are
    shared."""
    return _f("ffi.DeepCopy")(value)


def repr_print(value) -> str:
    """The readable text of any FFI value, e.g. ``testing.SNode(value=1, children=[2])``."""
    return _f("ffi.ReprPrint")(value)


# Keys, interrupts, visitors and mutators ----------------------------------------------


@register_object("ffi.StructuralKey")
class StructuralKey(core.Object):
    """A value wrapped to be a dict or Map key by structure: two keys are
    equal when their values are structurally equal, and hash alike.
    ``key`` is the value; ``hash_i64`` its cached structural hash."""

    def __init__(self, key) -> None:
        self.__init_handle_by_constructor__(_f("ffi.StructuralKey"), key)

    def __hash__(self) -> int:
        return self.hash_i64 & 0xFFFFFFFFFFFFFFFF  # = structural_hash(self.key)

    def __eq__(self, other) -> bool:
        if not isinstance(other, StructuralKey):
            return NotImplemented
        return bool(_f("ffi.StructuralKeyEqual")(self, other))

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq


@register_object("ffi.VisitInterrupt")
class VisitInterrupt(core.Object):
    """Returned by a walk or visit callback to stop the whole traversal; the
    traversal returns it, with its ``value`` (any payload, None by default)."""

    def __init__(self, value=None) -> None:
        self.__init_handle_by_constructor__(_f("ffi.VisitInterrupt"), value)


def _check_region_kind(kind) -> int:
    return int(DefRegionKind(kind))


@register_object("ffi.StructuralVisitor")
class StructuralVisitor(core.Object):
    """The traversal a structural_visit callback receives."""

    def visit(self, value):
        """Visits ``value`` as the traversal would (its callback, if one
        matches): None, or the VisitInterrupt that stopped it."""
        return _f("ffi.StructuralVisitorVisit")(self, value)

    def default_visit(self, value):
        """Visits what is inside ``value`` (items, map values, reflected
        fields), not ``value``'s own callback."""
        return _f("ffi.StructuralVisitorDefaultVisit")(self, value)

    def def_region_kind(self) -> DefRegionKind:
        """The definition region the traversal is in."""
        return DefRegionKind(_f("ffi.StructuralVisitorDefRegionKind")(self))

    def with_def_region_kind(self, kind, callback):
        """``callback()`` with the definition region set to ``kind`` (a
        DEF_PATTERN region stays in force); returns what it returns."""
        return _f("ffi.StructuralVisitorWithDefRegionKind")(
            self, _check_region_kind(kind), callback)


@register_object("ffi.StructuralMutator")
class StructuralMutator(core.Object):
    """The mutation a structural_mutate callback receives."""

    def mutate(self, value):
        """``value`` mutated as the mutation would (its callback, if one matches)."""
        return _f("ffi.StructuralMutatorMutate")(self, value)

    def default_mutate(self, value):
        """``value`` with what is inside it mutated, not ``value``'s own callback."""
        return _f("ffi.StructuralMutatorDefaultMutate")(self, value)

    def var_remap_get(self, var):
        """What ``var`` (a variable object) was mapped to in this mutation, or None."""
        return _f("ffi.StructuralMutatorVarRemapGet")(self, var)

    def var_remap_set(self, var, mapped_value) -> None:
        """Records that ``var`` maps to ``mapped_value`` in this mutation."""
        _f("ffi.StructuralMutatorVarRemapSet")(self, var, mapped_value)

    def def_region_kind(self) -> DefRegionKind:
        """The definition region the mutation is in."""
        return DefRegionKind(_f("ffi.StructuralMutatorDefRegionKind")(self))

    def with_def_region_kind(self, kind, callback):
        """``callback()`` with the definition region set to ``kind``."""
        return _f("ffi.StructuralMutatorWithDefRegionKind")(
            self, _check_region_kind(kind), callback)


# Walks, visits, maps and mutations ---------------------------------------------------

# Type indices of the C ABI for builtin Python types (kTVMFFIAny = -1 matches all).
_BUILTIN_TYPE_INDEX = {
    type(None): 0,
    int: 1,
    bool: 2,
    float: 3,
    str: 65,
    bytes: 66,
}


def _type_index_of(tp, api_name: str) -> int:
    if tp is typing.Any or tp is object:
        return -1
    if tp is None:
        return 0
    if isinstance(tp, type):
        if tp in _BUILTIN_TYPE_INDEX:
            return _BUILTIN_TYPE_INDEX[tp]
        info = core._type_cls_to_type_info(tp)
        if info is not None and info.type_index >= 0:
            return info.type_index
    raise TypeError(
        f"{api_name}: a callback type must be int, float, bool, str, bytes, None, "
        f"typing.Any/object or a registered FFI class, got {tp!r}"
    )


def _entries(callbacks, api_name: str) -> list:
    """The (type, fn) entries of upstream's callback forms, in order."""
    out = []

    def add(entry) -> None:
        types, fn = entry
        for tp in types if isinstance(types, tuple) else (types,):
            out.append((_type_index_of(tp, api_name), fn))

    if callable(callbacks):
        out.append((-1, callbacks))
    elif isinstance(callbacks, tuple) and len(callbacks) == 2 and callable(callbacks[1]):
        add(callbacks)
    elif isinstance(callbacks, Sequence) and not isinstance(callbacks, (str, bytes)):
        for entry in callbacks:
            if not (isinstance(entry, tuple) and len(entry) == 2 and callable(entry[1])):
                raise TypeError(
                    f"{api_name}: callbacks in a sequence must be (type, callback) tuples, "
                    f"got {entry!r}"
                )
            add(entry)
    else:
        raise TypeError(
            f"{api_name}: callbacks must be a callable, a (type, callback) entry, a "
            f"((type1, type2, ...), callback) entry or a sequence of entries, got {callbacks!r}"
        )
    return out


def _order(order, api_name: str) -> int:
    if isinstance(order, WalkOrder):
        return int(order)
    if order == "pre":
        return int(WalkOrder.PREORDER)
    if order == "post":
        return int(WalkOrder.POSTORDER)
    raise ValueError(f"{api_name}: order must be 'pre', 'post' or a WalkOrder, got {order!r}")


def _with_kind(entries: list) -> list:
    # The core passes the region kind as an int; callbacks get the enum.
    return [(t, (lambda fn: lambda value, kind: fn(value, DefRegionKind(kind)))(fn))
            for t, fn in entries]


def structural_walk(root, callbacks=(), with_def_region_kind=(), order="post"):
    """Walks ``root``'s structure (items, map values, reflected fields not
    flagged SEqHashIgnore; map keys are not visited) and calls, on each value,
    the first callback whose type matches: ``fn(value)`` from ``callbacks``,
    else ``fn(value, DefRegionKind)`` from ``with_def_region_kind``.  A callback
    returns None (go on), WalkResult.SKIP (pre-order: skip the children) or a
    VisitInterrupt, which stops the walk and is returned; else None."""
    return _f("ffi.StructuralWalk")(
        root,
        _entries(callbacks, "structural_walk"),
        _with_kind(_entries(with_def_region_kind, "structural_walk")),
        _order(order, "structural_walk"),
    )


def structural_visit(root, callbacks=()):
    """Visits ``root``: the first callback whose type matches a value owns
    it, as ``fn(value, visitor)``, and descends only through
    ``visitor.visit(child)`` or ``visitor.default_visit(value)``; values no
    callback matches are descended into.  Returns None, or the VisitInterrupt
    a callback returned."""
    return _f("ffi.StructuralVisit")(root, _entries(callbacks, "structural_visit"))


def _accepts_inplace_mode(fn) -> bool:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    try:
        sig.bind(None, None, 0)
        return True
    except TypeError:
        pass
    try:
        sig.bind(None, None)
    except TypeError:
        raise TypeError(
            "structural_mutate: a callback must take (value, mutator) or "
            f"(value, mutator, inplace_mode), got {fn!r}"
        ) from None
    return False


def structural_mutate(root, callbacks=()):
    """Mutates ``root``: the first callback whose type matches a value owns
    it, as ``fn(value, mutator)`` (or ``fn(value, mutator, inplace_mode)``)
    and returns its replacement, descending only through
    ``mutator.mutate(child)`` or ``mutator.default_mutate(value)``; values no
    callback matches have their insides mutated.  Changed containers and
    objects are copies unless owned by this path alone (pass
    ``root._move()`` to give the root away)."""
    entries = [(t, fn, _accepts_inplace_mode(fn))
               for t, fn in _entries(callbacks, "structural_mutate")]
    return _f("ffi.StructuralMutate")(root, entries)


def structural_map(root, callbacks=(), with_def_region_kind=(), order="post"):
    """Maps ``root``: every value's insides are mapped, and the first callback
    whose type matches the value replaces it (``fn(value)``, or
    ``fn(value, DefRegionKind)``), before (pre-order) or after (post-order,
    the default) its insides.  Returns the mapped value: ``root`` itself when
    nothing changed; changed containers and objects are copies unless owned by
    this path alone (pass ``root._move()`` to give the root away)."""
    return _f("ffi.StructuralMap")(
        root,
        _entries(callbacks, "structural_map"),
        _with_kind(_entries(with_def_region_kind, "structural_map")),
        _order(order, "structural_map"),
    )
