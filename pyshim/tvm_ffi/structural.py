"""Structural equality, hashing, first mismatch, deep copy, repr and visits.

Every function here is a thin call of an ``ffi.*`` global of the core
library, so C and C++ callers get the same results (docs/reflection.md).
"""
from __future__ import annotations

from enum import IntEnum

from . import access_path as _access_path  # registers AccessPath for the results
from .registry import get_global_func

__all__ = [
    "deep_copy",
    "get_first_structural_mismatch",
    "repr_print",
    "structural_equal",
    "structural_hash",
    "structural_visit",
    "visit_fields",
    "WalkOrder",
    "WalkResult",
]


class WalkOrder(IntEnum):
    """Whether a structural walk calls back on a node before (PREORDER) or
    after (POSTORDER) its children."""

    PREORDER = 0
    POSTORDER = 1


class WalkResult(IntEnum):
    """What a structural walk does after a callback: ADVANCE into the node's
    children, or SKIP them (and go on with the rest)."""

    ADVANCE = 0
    SKIP = 1

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


def structural_visit(root, callback) -> None:
    """Calls ``callback(value)`` on ``root`` and, depth first, on everything
    inside it: items of arrays and lists, keys and values of maps, fields of
    reflected objects.  Each object is visited once; a callback returning
    ``False`` skips the children of that value."""
    if not callable(callback):
        raise TypeError(f"structural_visit: callback must be callable, got {callback!r}")
    _f("ffi.StructuralVisit")(root, callback)


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
