"""Access paths: where in a value graph a nested value sits.

``get_first_structural_mismatch`` returns them; they print as
``<root>.body[2]["key"]``.
"""
from __future__ import annotations

from enum import IntEnum

from .core import Object
from .registry import register_object

__all__ = ["AccessKind", "AccessPath", "AccessStep"]


class AccessKind(IntEnum):
    """The kind of one access step (the values of the C++ AccessKind)."""

    ATTR = 0
    ARRAY_ITEM = 1
    MAP_ITEM = 2
    ATTR_MISSING = 3
    ARRAY_ITEM_MISSING = 4
    MAP_ITEM_MISSING = 5


@register_object("ffi.reflection.AccessStep")
class AccessStep(Object):
    """One step: ``kind`` (an :class:`AccessKind` value) and ``key`` (a field
    name, an index or a map key)."""

    def __repr__(self) -> str:
        return f"AccessStep({AccessKind(self.kind).name}, {self.key!r})"


@register_object("ffi.reflection.AccessPath")
class AccessPath(Object):
    """A path from the root of a value graph: a chain of steps.

    Build one from :meth:`root`::

        p = AccessPath.root().attr("body").array_item(2)
        repr(p)   # '<root>.body[2]'
    """

    def __init__(self) -> None:
        raise ValueError(
            "AccessPath can't be initialized directly. "
            "Use AccessPath.root() to create a path to the root object"
        )

    @staticmethod
    def root() -> AccessPath:
        """The empty path (the root itself)."""
        return AccessPath._root()

    def attr(self, attr_key: str) -> AccessPath:
        """This path extended by the field ``attr_key``."""
        return self._attr(attr_key)

    def attr_missing(self, attr_key: str) -> AccessPath:
        """This path extended by a field ``attr_key`` that is absent."""
        return self._attr_missing(attr_key)

    def array_item(self, index: int) -> AccessPath:
        """This path extended by item ``index`` of a sequence."""
        return self._array_item(index)

    def array_item_missing(self, index: int) -> AccessPath:
        """This path extended by an item ``index`` past the end of a sequence."""
        return self._array_item_missing(index)

    def map_item(self, key) -> AccessPath:
        """This path extended by the entry ``key`` of a map."""
        return self._map_item(key)

    def map_item_missing(self, key) -> AccessPath:
        """This path extended by an entry ``key`` that the map lacks."""
        return self._map_item_missing(key)

    def is_prefix_of(self, other: AccessPath) -> bool:
        """Whether ``other`` starts with every step of this path."""
        return self._is_prefix_of(other)

    def to_steps(self) -> list:
        """The steps from the root, as a list of :class:`AccessStep`."""
        return list(self._to_steps())

    def __eq__(self, other) -> bool:
        if not isinstance(other, AccessPath):
            return NotImplemented
        return self._path_equal(other)

    def __ne__(self, other) -> bool:
        if not isinstance(other, AccessPath):
            return NotImplemented
        return not self._path_equal(other)

    def __hash__(self) -> int:
        return hash(self._repr())

    def __repr__(self) -> str:
        return self._repr()
