"""JSON graph serialization of FFI values (apache-tvm-ffi's format).

``to_json_graph_str(obj)`` writes any FFI value (None, bool, int, float,
str, bytes, DataType, Device, Array, List, Map, Dict, Shape and reflected
objects) as a JSON graph; ``from_json_graph_str(s)`` reads it back.  An
object referenced several times is one node, so shared sub-objects stay
shared.  Pickling FFI objects is built on these two functions.
"""
from __future__ import annotations

from .registry import get_global_func

_to_json_graph_string = get_global_func("ffi.ToJSONGraphString")
_from_json_graph_string = get_global_func("ffi.FromJSONGraphString")


def to_json_graph_str(obj: Any, metadata: dict | None = None) -> str:
    """The JSON graph text of ``obj``; ``metadata`` (a JSON-compatible dict)
    is stored under the graph's "metadata" key.

    Raises ValueError for a reference cycle and TypeError for a value with no
    JSON form (a Function, a Tensor, a Module, ...).
    """
    return str(_to_json_graph_string(obj, metadata))


def from_json_graph_str(json_str: str) -> Any:
    """The value stored in a JSON graph written by :func:`to_json_graph_str`
    (or by apache-tvm-ffi).  Malformed text or graphs raise ValueError naming
    the problem (position, or node index)."""
    return _from_json_graph_string(json_str)


def _restore(json_str: str) -> Any:
    # The reconstructor pickle records for FFI objects (Object.__reduce__).
    return _from_json_graph_string(json_str)


def _reduce(obj: Any) -> tuple:
    # Object.__reduce__: rebuilt from the object's JSON graph.
    return (_restore, (to_json_graph_str(obj),))
