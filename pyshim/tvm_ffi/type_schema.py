"""TypeSchema: the type of a function parameter, result or field, as C++ records it.

Typed C++ functions, reflected methods and reflected fields carry metadata
``{"type_schema": "<json>"}``; the JSON is a tree of ``{"type": <name>,
"args": [...]}`` nodes (functions: ``"named_args": {"return": [...],
"params": [...]}``).  :meth:`TypeSchema.from_json_str` reads it, and ``str()``
renders it as a Python annotation::

    >>> meta = tvm_ffi.get_global_func_metadata("ffi.RecursiveEq")
    >>> str(TypeSchema.from_json_str(meta["type_schema"]))
    'Callable[[Any, Any], bool]'

Also available as ``tvm_ffi.core.TypeSchema``.
"""
from __future__ import annotations

# No json or typing import at module level: `import tvm_ffi` imports this
# module and must stay light (tests/python/test_startup.py).

# C++ spellings of a type -> the name a Python user reads.
_ORIGIN = {
    "ffi.String": "str",
    "std::string": "str",
    "const char*": "str",
    "ffi.Bytes": "bytes",
    "ffi.Array": "Array",
    "ffi.List": "List",
    "ffi.Map": "Map",
    "ffi.Dict": "Dict",
    "ffi.Function": "Callable",
    "ffi.Tensor": "Tensor",
    "DLTensor*": "Tensor",
    "ffi.Object": "Object",
    "ffi.BigInt": "int",
    "DataType": "dtype",
    "void*": "ctypes.c_void_p",
    "Variant": "Union",
}

# Containers: the number of arguments they take (when given) and their
# arguments when none are given.
_CONTAINER_ARITY = {"Array": 1, "List": 1, "Map": 2, "Dict": 2}

_ARITY_ERROR = {1: "{} must have 0 or 1 argument", 2: "{} must have 0 or 2 arguments"}


class TypeSchema:
    """One node of a type schema: ``origin`` (a type name such as ``"int"``,
    ``"Array"``, ``"Optional"``, ``"Union"``, ``"Callable"`` or a type key) and
    its type arguments ``args``.  A ``Callable`` keeps its signature in
    ``named_args``: ``{"return": (ret,), "params": (p0, p1, ...)}`` (either key
    may be absent when unknown).  ``type_key`` is the original spelling when
    it differs in a way the origin does not show (``"ffi.BigInt"``).
    ``origin_type_index`` and ``fallback`` (upstream's third and fourth
    parameters) are kept as given (None when not).
    """

    __slots__ = ("origin", "args", "named_args", "type_key", "origin_type_index", "fallback")

    def __init__(
        self,
        origin: str,
        args: tuple[TypeSchema, ...] = (),
        origin_type_index: int | None = None,
        fallback: TypeSchema | None = None,
        named_args: dict[str, tuple[TypeSchema, ...]] | None = None,
        type_key: str | None = None,
    ) -> None:
        # Parameters in upstream's order; origin_type_index (the type index
        # the origin names) and fallback are kept as given, not derived.
        self.origin = origin
        self.args = tuple(args)
        self.origin_type_index = origin_type_index
        self.fallback = fallback
        self.named_args = named_args
        self.type_key = type_key

    # Reading -----------------------------------------------------------------

    @staticmethod
    def from_json_str(s: str) -> TypeSchema:
        """Parses a schema from its JSON text."""
        import json

        return TypeSchema.from_json_obj(json.loads(s))

    @staticmethod
    def from_json_obj(obj: dict[str, Any]) -> TypeSchema:
        """Builds a schema from parsed JSON (a dict with a ``"type"`` key)."""
        if not isinstance(obj, dict) or "type" not in obj:
            raise TypeError(f"expected schema dict with 'type' key, got {type(obj).__name__}")
        name = obj["type"]
        if not isinstance(name, str):
            raise TypeError("schema type must be a string")
        raw_args = obj.get("args", [])
        if not isinstance(raw_args, list):
            raise TypeError(f"schema args must be a list, got {type(raw_args).__name__}")
        args = tuple(TypeSchema.from_json_obj(a) for a in raw_args)
        origin = _ORIGIN.get(name, name)
        type_key = name if name == "ffi.BigInt" else None
        if origin == "Callable":
            return TypeSchema(origin, (), named_args=TypeSchema._callable_named_args(obj, args))
        if origin == "Optional" and len(args) != 1:
            raise ValueError("Optional must have exactly one argument")
        if origin == "Union" and len(args) < 2:
            raise ValueError("Union must have at least two arguments")
        arity = _CONTAINER_ARITY.get(origin)
        if arity is not None and name.startswith("ffi."):
            if not args:
                args = tuple(TypeSchema("Any") for _ in range(arity))
            elif len(args) != arity:
                raise ValueError(_ARITY_ERROR[arity].format(origin))
        return TypeSchema(origin, args, type_key=type_key)

    @staticmethod
    def _callable_named_args(obj: dict[str, Any], args: tuple[TypeSchema, ...]):
        named = obj.get("named_args")
        if named is not None:
            if not isinstance(named, dict):
                raise TypeError(f"schema named_args must be a dict, got {type(named).__name__}")
            return {
                key: tuple(TypeSchema.from_json_obj(a) for a in value)
                for key, value in named.items()
            }
        # The older form: args = [return, param0, param1, ...].
        if not args:
            return None
        if len(args) == 1:
            return {"return": args[:1]}
        return {"return": args[:1], "params": args[1:]}

    # Rendering ---------------------------------------------------------------

    def repr(self, ty_map: Callable[[str], str] | None = None) -> str:
        """The schema as a Python annotation; ``ty_map`` renames origins."""
        name = ty_map(self.origin) if ty_map is not None else self.origin
        if self.origin == "Optional":
            return f"{self.args[0].repr(ty_map)} | None"
        if self.origin == "Union":
            return " | ".join(a.repr(ty_map) for a in self.args)
        if self.origin == "Callable":
            named = self.named_args or {}
            ret = named.get("return")
            ret_text = ret[0].repr(ty_map) if ret else "Any"
            params = named.get("params")
            if params is None:
                return f"{name}[..., {ret_text}]"
            return f"{name}[[{', '.join(p.repr(ty_map) for p in params)}], {ret_text}]"
        if self.args:
            return f"{name}[{', '.join(a.repr(ty_map) for a in self.args)}]"
        return name

    def input_repr(self, ty_map: Callable[[str], str] | None = None) -> str:
        """The rendering for a parameter position (same as :meth:`repr`)."""
        return self.repr(ty_map)

    def output_repr(self, ty_map: Callable[[str], str] | None = None) -> str:
        """The rendering for a result position (same as :meth:`repr`)."""
        return self.repr(ty_map)

    # Python values ------------------------------------------------------------

    @staticmethod
    def from_annotation(annotation: Any) -> TypeSchema:
        """The schema of a Python annotation, as a ``py_class`` field of that
        annotation gets it: ``int`` -> ``int``, ``Optional[X]``,
        ``list[int]`` / ``Array[int]`` -> ``Array[int]``, ``tvm_ffi.List[int]``
        -> ``List[int]``, a registered Object class -> its type key.
        TypeError for an annotation a field cannot have."""
        from .dataclasses._types import schema_of

        return schema_of(annotation).type_schema()

    def _checker(self):
        from .dataclasses._types import annotation_of, schema_of

        return schema_of(annotation_of(self))

    def convert(self, value: Any) -> Any:
        """``value`` converted as a field of this schema converts it (an int
        for ``float`` becomes a float, a list for ``Array[...]`` an Array
        ...); TypeError naming the expected and the given value when it does
        not fit."""
        from .dataclasses._types import _Mismatch, describe_value

        checker = self._checker()
        try:
            return checker.convert(value)
        except _Mismatch:
            raise TypeError(
                f"expected {checker.describe()}, got {describe_value(value)}"
            ) from None

    def check_value(self, value: Any) -> None:
        """None when ``value`` fits this schema, else the TypeError of
        :meth:`convert`."""
        self.convert(value)

    def to_json(self) -> dict[str, Any]:
        """The schema as a JSON object (origins in their Python spelling)."""
        out: dict[str, Any] = {"type": self.type_key or self.origin}
        if self.args:
            out["args"] = [a.to_json() for a in self.args]
        if self.named_args is not None:
            out["named_args"] = {
                key: [a.to_json() for a in value] for key, value in self.named_args.items()
            }
        return out

    def __str__(self) -> str:
        return self.repr()

    def __repr__(self) -> str:
        return self.repr()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TypeSchema):
            return NotImplemented
        return (
            self.origin == other.origin
            and self.args == other.args
            and self.named_args == other.named_args
            and self.type_key == other.type_key
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as upstream's
