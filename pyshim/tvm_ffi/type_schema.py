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

from . import core

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
    "std::vector": "Array",
    "std::optional": "Optional",
    "std::variant": "Union",
    "std::tuple": "tuple",
    "std::map": "Map",
    "std::unordered_map": "Map",
    "std::function": "Callable",
    "ObjectRValueRef": "Object",
}

# Type indices whose schema is a built-in origin (TVMFFITypeIndex).
_INDEX_ORIGIN = {
    -1: "Any",
    0: "None",
    1: "int",
    2: "bool",
    3: "float",
    4: "ctypes.c_void_p",
    5: "dtype",
    6: "Device",
    7: "Tensor",
    8: "str",
    9: "bytes",
    10: "Object",
    11: "str",
    12: "bytes",
    64: "Object",
    65: "str",
    66: "bytes",
    68: "Callable",
    70: "Tensor",
    71: "Array",
    72: "Map",
    75: "List",
    76: "Dict",
}

# Built-in origins -> the type index they name (-2: Optional/Union, -3:
# not one FFI type).  Other origins are looked up as type keys.
_ORIGIN_INDEX = {
    "Any": -1,
    "None": 0,
    "int": 1,
    "bool": 2,
    "float": 3,
    "ctypes.c_void_p": 4,
    "dtype": 5,
    "Device": 6,
    "Object": 64,
    "str": 65,
    "bytes": 66,
    "Callable": 68,
    "Tensor": 70,
    "Array": 71,
    "Map": 72,
    "List": 75,
    "Dict": 76,
    "Optional": -2,
    "Union": -2,
    "tuple": -3,
    "list": -3,
    "dict": -3,
}


def _origin_type_index(origin: str, type_key: str | None) -> int:
    """The type index ``origin`` names: a built-in origin's, a registered type
    key's, or -3 (unknown, or not a single FFI type)."""
    key = type_key or origin
    index = _ORIGIN_INDEX.get(key)
    if index is not None:
        return index
    if "." not in key or key.startswith("ctypes."):
        return -3
    try:
        return core._type_key_to_index(key)
    except Exception:
        return -3


# Containers: the number of arguments they take (when given) and their
# arguments when none are given.
_CONTAINER_ARITY = {"Array": 1, "List": 1, "Map": 2, "Dict": 2, "list": 1, "dict": 2}

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

    __slots__ = (
        "origin",
        "args",
        "named_args",
        "type_key",
        "origin_type_index",
        "fallback",
        "_conv",
    )

    def __init__(
        self,
        origin: str,
        args: tuple[TypeSchema, ...] | None = None,
        origin_type_index: int | None = None,
        fallback: TypeSchema | None = None,
        named_args: dict[str, tuple[TypeSchema, ...]] | None = None,
        type_key: str | None = None,
    ) -> None:
        # Parameters in upstream's order.  ``args=None`` means "not given":
        # a container then takes Any arguments and a ``tuple`` stays untyped
        # (``TypeSchema("tuple", ())`` is the empty tuple).
        if args is not None:
            args = tuple(args)
        if origin == "Callable" and args and named_args is None:
            # The older spelling: args = (return, param0, param1, ...).
            named_args = {"return": args[:1]}
            if len(args) > 1:
                named_args["params"] = args[1:]
            args = ()
        arity = _CONTAINER_ARITY.get(origin)
        if arity is not None:
            if not args:
                args = tuple(TypeSchema("Any") for _ in range(arity))
            elif len(args) != arity:
                raise ValueError(_ARITY_ERROR[arity].format(origin))
        elif origin == "Optional" and (args is None or len(args) != 1):
            raise ValueError("Optional must have exactly one argument")
        elif origin == "Union" and (args is None or len(args) < 2):
            raise ValueError("Union must have at least two arguments")
        elif args is None and origin != "tuple":
            args = ()
        self.origin = origin
        self.args = args
        self.fallback = fallback
        self.named_args = named_args
        self.type_key = type_key
        if origin_type_index is None:
            origin_type_index = _origin_type_index(origin, type_key)
        self.origin_type_index = origin_type_index
        self._conv = None

    # Reading -----------------------------------------------------------------

    @staticmethod
    def from_json_str(s: str) -> TypeSchema:
        """Parses a schema from its JSON text."""
        import json

        return TypeSchema.from_json_obj(json.loads(s))

    @staticmethod
    def from_json_obj(obj: dict[str, Any]) -> TypeSchema:
        """Builds a schema from parsed JSON (a dict with a ``"type"`` key).
        Entries of ``args`` that are not schema dicts are skipped, and an
        ``args`` that is not a list counts as none (C++ writes a
        ``std::function``'s parameters as a nested list)."""
        if not isinstance(obj, dict) or "type" not in obj:
            raise TypeError(f"expected schema dict with 'type' key, got {type(obj).__name__}")
        name = obj["type"]
        if not isinstance(name, str):
            raise TypeError("schema type must be a string")
        raw_args = obj.get("args")
        if not isinstance(raw_args, list):
            raw_args = []
        args = tuple(TypeSchema.from_json_obj(a) for a in raw_args if isinstance(a, dict))
        origin = _ORIGIN.get(name, name)
        type_key = name if name == "ffi.BigInt" else None
        fallback = obj.get("fallback")
        if fallback is not None:
            fallback = TypeSchema.from_json_obj(fallback)
        named = TypeSchema._named_args_from_json(obj.get("named_args"))
        if origin == "Callable":
            if named is None:
                named = TypeSchema._callable_named_args(raw_args, args)
            return TypeSchema(origin, (), fallback=fallback, named_args=named)
        if origin == "tuple" and "args" not in obj:
            args = None
        return TypeSchema(origin, args, fallback=fallback, named_args=named, type_key=type_key)

    @staticmethod
    def _named_args_from_json(named):
        if named is None:
            return None
        if not isinstance(named, dict):
            raise TypeError(f"schema named_args must be a dict, got {type(named).__name__}")
        out = {}
        for key, value in named.items():
            if not isinstance(value, list):
                raise TypeError(
                    f"schema named_args[{key!r}] must be a list of schemas, "
                    f"got {type(value).__name__}"
                )
            out[key] = tuple(TypeSchema.from_json_obj(a) for a in value)
        return out

    @staticmethod
    def _callable_named_args(raw_args: list, args: tuple[TypeSchema, ...]):
        # The older form: args = [return, param0, param1, ...], or (as
        # std::function writes it) [return, [param0, param1, ...]].
        if not raw_args:
            return None
        ret = args[:1] if isinstance(raw_args[0], dict) else (TypeSchema("Any"),)
        if len(raw_args) == 2 and isinstance(raw_args[1], list):
            params = tuple(TypeSchema.from_json_obj(a) for a in raw_args[1])
            return {"return": ret, "params": params}
        if len(args) <= 1:
            return {"return": ret}
        return {"return": ret, "params": args[1:]}

    # Rendering ---------------------------------------------------------------

    def repr(self, ty_map: Callable[[str], str] | None = None) -> str:
        """The schema as a Python annotation; ``ty_map`` renames origins.  A
        schema with a ``fallback`` renders as its fallback."""
        return self._render(ty_map, False)

    def _render(self, ty_map, as_input: bool) -> str:
        if self.fallback is not None:
            return self.fallback._render(ty_map, as_input)
        if as_input:
            widened = self._convert_schema()
            if widened is not None:
                return widened._render(ty_map, False)
        name = ty_map(self.origin) if ty_map is not None else self.origin
        if self.origin == "tuple" and self.args == ():
            return f"{name}[()]"
        if self.origin == "Optional":
            return f"{self.args[0]._render(ty_map, as_input)} | None"
        if self.origin == "Union":
            return " | ".join(a._render(ty_map, as_input) for a in self.args)
        if self.origin == "Callable":
            named = self.named_args or {}
            ret = named.get("return")
            ret_text = ret[0]._render(ty_map, as_input) if ret else "Any"
            params = named.get("params")
            if params is None:
                return f"{name}[..., {ret_text}]"
            return f"{name}[[{', '.join(p._render(ty_map, as_input) for p in params)}], {ret_text}]"
        if self.args:
            return f"{name}[{', '.join(a._render(ty_map, as_input) for a in self.args)}]"
        return name

    def input_repr(self, ty_map: Callable[[str], str] | None = None) -> str:
        """The rendering for a parameter position: as :meth:`repr`, except
        that an object type with a ``__ffi_convert_type_schema__`` type
        attribute (the values it converts from) renders as that schema."""
        return self._render(ty_map, True)

    def _convert_schema(self):
        index = self.origin_type_index
        if index is None or index < 128:
            return None
        try:
            text = core._lookup_type_attr(index, "__ffi_convert_type_schema__")
        except Exception:
            text = None
        if text is None:
            # A py_class may declare it in its class body only.
            from ._type_info import type_info

            cls = type_info(index).type_cls
            text = cls.__dict__.get("__ffi_convert_type_schema__") if cls is not None else None
        if not isinstance(text, str):
            return None
        return TypeSchema.from_json_str(text)

    def output_repr(self, ty_map: Callable[[str], str] | None = None) -> str:
        """The rendering for a result position (same as :meth:`repr`)."""
        return self.repr(ty_map)

    # Python values ------------------------------------------------------------

    @staticmethod
    def from_annotation(annotation: Any) -> TypeSchema:
        """The schema of a Python annotation: ``int``/``float``/``bool``/
        ``str``/``bytes``/``None``/``Any``; ``list[T]`` -> ``List[T]``,
        ``dict[K, V]`` -> ``Dict[K, V]``, ``tuple[T, ...]`` -> ``Array[T]``,
        ``tuple[A, B]`` -> ``tuple[A, B]``; ``tvm_ffi.Array``/``List``/
        ``Map``/``Dict`` as themselves; ``Optional``/``Union`` (``X | None``
        too, unions flattened); ``Callable[[P...], R]``; ``Device``,
        ``dtype``, ``Tensor``, ``ctypes.c_void_p``, ``Object``, ``Function``;
        a registered Object class -> its type key.  TypeError for anything
        else."""
        from ._annotation import schema_from_annotation

        return schema_from_annotation(annotation)

    @staticmethod
    def from_type_index(type_index: int, args: tuple[TypeSchema, ...] = ()) -> TypeSchema:
        """The schema of values of FFI type ``type_index`` (a
        ``TVMFFITypeIndex`` or a registered object type's index), with type
        arguments ``args`` for a container."""
        name = _INDEX_ORIGIN.get(type_index)
        type_key = None
        if name is None:
            from ._type_info import type_info

            type_key = type_info(type_index).type_key
            name = _ORIGIN.get(type_key, type_key)
            if type_key != "ffi.BigInt":
                type_key = None
        return TypeSchema(name, tuple(args) or None, type_index, type_key=type_key)

    def is_subtype_of(self, other: Any) -> bool:
        """Whether every value of this schema is one of ``other`` (a schema,
        or an annotation such as a registered Object class): true for the
        same type and for an object type derived from ``other``'s."""
        from ._type_converter import is_subtype_index

        if not isinstance(other, TypeSchema):
            try:
                other = TypeSchema.from_annotation(other)
            except TypeError:
                return False
        if self == other:
            return True
        mine, theirs = self.origin_type_index, other.origin_type_index
        if mine is None or theirs is None or mine < 64 or theirs < 64:
            return False
        return is_subtype_index(mine, theirs)

    def _converter(self):
        """The converter of this schema (built on first use, then kept);
        TypeError when the origin names no type."""
        conv = self._conv
        if conv is None:
            from ._type_converter import build

            conv = self._conv = build(self)
        return conv

    def _run(self, value: Any, what: str) -> Any:
        from ._type_converter import _Mismatch

        conv = self._converter()
        try:
            return conv(value)
        except _Mismatch as err:
            raise TypeError(f"{what} failed for {self.repr()}: {err}") from None
        except RecursionError:
            raise TypeError(
                f"{what} failed for {self.repr()}: infinite __tvm_ffi_value__ cycle detected"
            ) from None

    def convert(self, value: Any) -> Any:
        """``value`` converted to this schema, as a :class:`tvm_ffi.core.CAny`
        holding the FFI value (``int`` takes ``True`` as ``1``, ``float``
        takes ints, ``Array[...]`` takes a list or tuple and converts each
        element, ``str`` gives a SmallStr when short, ...).
        ``core._to_py_class_value`` reads the result back.  TypeError
        ``type conversion failed for <schema>: <reason>`` when it does not fit,
        the reason naming where (``element [1]: expected int, got str``)."""
        return core.CAny(self._run(value, "type conversion"))

    def check_value(self, value: Any) -> None:
        """None when ``value`` fits this schema (as :meth:`convert` would
        accept it), else TypeError ``type check failed for <schema>: ...``."""
        self._run(value, "type check")

    def to_json(self) -> dict[str, Any]:
        """The schema as a JSON object (origins in their Python spelling)."""
        out: dict[str, Any] = {"type": self.type_key or self.origin}
        if self.args or (self.origin == "tuple" and self.args == ()):
            out["args"] = [a.to_json() for a in self.args]
        if self.fallback is not None:
            out["fallback"] = self.fallback.to_json()
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
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as upstream's
