"""``gen_abi_cpp``: a C++ header that views registered object types from C++.

::

    header = gen_abi_cpp(["mylib.Point", "mylib.shapes.*"])

For each selected type (and each of its ancestors) the header declares a
struct ``<Name>Obj`` deriving from its parent's struct (or
``::tvm::ffi::Object``), with one member per reflected field, in the
namespace of the type key (``mylib.shapes.Circle`` ->
``::mylib::shapes::CircleObj``).  Member types are the C++ carriers of the
field's type schema and layout (``int64_t``, ``::tvm::ffi::String``,
``::tvm::ffi::Arc<T>`` ...), and every size, alignment and offset is a
``static_assert``: a header that compiles matches the live layout.  Object
types the fields refer to but the selection does not hold are declared
without fields.  The header needs only ``<tvm/ffi/tvm_ffi.h>``.

Selectors are type keys or ``fnmatch`` patterns (``*``); one that matches
no registered object type is a ValueError, and so is a layout the header
cannot express (no total size, a field type without a carrier).
"""
from __future__ import annotations

import fnmatch
import re
from typing import Any

from .. import core

__all__ = ["gen_abi_cpp"]

_OBJECT = "::tvm::ffi::Object"
_INDENT = "  "

# Static (and built-in) object types that the C++ headers already define:
# no struct is generated for them, and a field of that type uses this carrier.
_BUILTIN_CARRIERS = {
    "ffi.Object": f"::tvm::ffi::Arc<{_OBJECT}>",
    "ffi.String": "::tvm::ffi::String",
    "ffi.Bytes": "::tvm::ffi::Bytes",
    "ffi.Error": "::tvm::ffi::Error",
    "ffi.Function": "::tvm::ffi::Function",
    "ffi.Shape": "::tvm::ffi::Shape",
    "ffi.Tensor": "::tvm::ffi::Tensor",
    "ffi.Array": "::tvm::ffi::Array<::tvm::ffi::Any>",
    "ffi.List": "::tvm::ffi::List<::tvm::ffi::Any>",
    "ffi.Map": "::tvm::ffi::Map<::tvm::ffi::Any, ::tvm::ffi::Any>",
    "ffi.Dict": "::tvm::ffi::Dict<::tvm::ffi::Any, ::tvm::ffi::Any>",
    "ffi.Module": "::tvm::ffi::Arc<::tvm::ffi::ModuleObj>",
    "ffi.VisitInterrupt": "::tvm::ffi::Arc<::tvm::ffi::VisitInterruptObj>",
    "ffi.BigInt": "::tvm::ffi::BigInt",
}

# Type schema origins -> carriers of values that are not objects.
_POD_CARRIERS = {
    "bool": "bool",
    "float": "double",
    "void*": "void*",
    "ctypes.c_void_p": "void*",
    "DataType": "DLDataType",
    "dtype": "DLDataType",
    "Device": "DLDevice",
    "Any": "::tvm::ffi::Any",
    "str": "::tvm::ffi::String",
    "bytes": "::tvm::ffi::Bytes",
    "Callable": "::tvm::ffi::Function",
    "Object": f"::tvm::ffi::Arc<{_OBJECT}>",
}
_INT_CARRIERS = {1: "int8_t", 2: "int16_t", 4: "int32_t", 8: "int64_t"}
_FLOAT_CARRIERS = {4: "float", 8: "double"}

_SEQUENCES = {
    "Array": "Array",
    "ffi.Array": "Array",
    "tuple": "Array",
    "Tuple": "Array",
    "List": "List",
    "ffi.List": "List",
    "list": "List",
}
_MAPPINGS = {"Map": "Map", "ffi.Map": "Map", "Dict": "Dict", "ffi.Dict": "Dict", "dict": "Dict"}
_UNIONS = ("Union", "Variant")

# Static type indices of fields without a schema.
_STATIC_CARRIERS = {
    1: "int64_t", 2: "bool", 3: "double", 4: "void*", 5: "DLDataType", 6: "DLDevice"
}
_DYN_OBJECT_BEGIN = 128

_CXX_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast
    continue co_await co_return co_yield decltype default delete do double dynamic_cast else
    enum explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires return short signed sizeof static static_assert
    static_cast struct switch template this thread_local throw true try typedef typeid
    typename union unsigned using virtual void volatile wchar_t while xor xor_eq""".split()
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _cxx_name(text: str) -> str:
    """``text`` as a C++ identifier: itself when it is one (not a keyword),
    else ``__ffi_escape_`` and the hex of its UTF-8 bytes."""
    if _IDENT.match(text) and text not in _CXX_KEYWORDS:
        return text
    return "__ffi_escape_" + text.encode("utf-8").hex()


def _c_string(text: str) -> str:
    """``text`` as a C string literal body (UTF-8; other bytes in octal)."""
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return "".join(out)


class _Carrier:
    """The C++ type of one field, with the size and alignment it occupies."""

    __slots__ = ("alignment", "cpp_type", "size")

    def __init__(self, cpp_type: str, size: int, alignment: int) -> None:
        self.cpp_type = cpp_type
        self.size = size
        self.alignment = alignment

    def __repr__(self) -> str:
        return f"_Carrier({self.cpp_type!r}, size={self.size}, alignment={self.alignment})"


class _Struct:
    """What the header says about one type."""

    __slots__ = ("depth", "info", "key", "name", "namespace", "type_index")

    def __init__(self, key: str, type_index: int, depth: int, info: Any) -> None:
        self.key = key
        self.type_index = type_index
        self.depth = depth
        self.info = info
        *ns, last = key.split(".")
        self.namespace = tuple(_cxx_name(part) for part in ns)
        self.name = _cxx_name(last) + "Obj"

    @property
    def qualified(self) -> str:
        return "::" + "::".join((*self.namespace, self.name))


def _registered_object_keys() -> list[str]:
    from ..registry import get_global_func

    keys = []
    for key in get_global_func("ffi.GetRegisteredTypeKeys")():
        index = core._object_type_key_to_index(key)
        if index is not None and index >= 64:
            keys.append(str(key))
    return keys


def _type_info_of(index: int) -> Any:
    from .._type_info import type_info

    return type_info(index)


def _is_py_class(type_index: int) -> bool:
    """Whether the type was defined at run time (py_class): such types keep
    their ``Optional``/``Union`` fields as an Any, never a native carrier."""
    return core._lookup_type_attr(type_index, "__ffi_new__") is not None


def _field_schema(field: Any) -> Any:
    """The field's TypeSchema: ``ty``, else its metadata's ``type_schema``."""
    from ..type_schema import TypeSchema

    ty = getattr(field, "ty", None)
    if isinstance(ty, TypeSchema):
        return ty
    metadata = getattr(field, "metadata", None) or {}
    raw = metadata.get("type_schema") if isinstance(metadata, dict) else None
    if isinstance(raw, str):
        return TypeSchema.from_json_str(raw)
    if isinstance(raw, dict):
        return TypeSchema.from_json_obj(raw)
    return None


class _Generator:
    """Builds the header for ``selected`` (type keys of object types)."""

    def __init__(self, selected: list[str]) -> None:
        self._selected = list(selected)
        self._structs: dict[str, _Struct] = {}  # generated with their fields
        self._deps: dict[str, _Struct] = {}  # referenced, declared without fields

    # -- types ---------------------------------------------------------------

    def _struct_of(self, key: str) -> _Struct:
        index = core._object_type_key_to_index(key)
        info = _type_info_of(index)
        return _Struct(key, index, len(info.type_ancestors), info)

    def _object_carrier(self, key: str, nullable: bool) -> str:
        """The carrier of a reference to an object of type ``key``."""
        if key in ("ffi.Object", "Object"):
            return f"::tvm::ffi::{'ObjectPtr' if nullable else 'Arc'}<{_OBJECT}>"
        if key in _BUILTIN_CARRIERS:
            return _BUILTIN_CARRIERS[key]
        index = core._object_type_key_to_index(key)
        if index is None or index < 64:
            raise ValueError(f"type schema {key!r} names no registered object type")
        if index < _DYN_OBJECT_BEGIN:
            raise ValueError(f"Static TVM-FFI type {key!r} is not supported")
        if key not in self._structs and key not in self._deps:
            self._deps[key] = self._struct_of(key)
        struct = self._structs.get(key) or self._deps[key]
        return f"::tvm::ffi::{'ObjectPtr' if nullable else 'Arc'}<{struct.qualified}>"

    @staticmethod
    def _is_object_schema(schema: Any) -> bool:
        origin = schema.origin
        if origin in ("Object", "ffi.Object"):
            return True
        if origin in _POD_CARRIERS or origin in ("int", "None") or origin in _UNIONS:
            return False
        if origin in ("Optional",) or origin in _SEQUENCES or origin in _MAPPINGS:
            return False
        index = core._object_type_key_to_index(origin)
        return index is not None and index >= 64 and origin not in _BUILTIN_CARRIERS

    def _element(self, schema: Any) -> str:
        """The carrier of a value inside a container (always an Any-sized
        slot there: objects are non-null references, optional objects
        nullable ones, other optionals and mixed unions an Any)."""
        origin = schema.origin
        if origin == "int":
            return "int64_t"
        if origin == "float":
            return "double"
        if origin in _POD_CARRIERS:
            return _POD_CARRIERS[origin]
        if origin == "ffi.String":
            return "::tvm::ffi::String"
        if origin == "ffi.Bytes":
            return "::tvm::ffi::Bytes"
        if origin == "Optional":
            inner = schema.args[0] if schema.args else None
            if inner is not None and self._is_object_schema(inner):
                return self._object_carrier(inner.origin, nullable=True)
            return "::tvm::ffi::Any"
        if origin in _UNIONS:
            if schema.args and all(self._is_object_schema(a) for a in schema.args):
                return f"::tvm::ffi::Arc<{_OBJECT}>"
            return "::tvm::ffi::Any"
        if origin in _SEQUENCES:
            inner = self._element(schema.args[0]) if schema.args else "::tvm::ffi::Any"
            return f"::tvm::ffi::{_SEQUENCES[origin]}<{inner}>"
        if origin in _MAPPINGS:
            k = self._element(schema.args[0]) if schema.args else "::tvm::ffi::Any"
            v = self._element(schema.args[1]) if len(schema.args) > 1 else "::tvm::ffi::Any"
            return f"::tvm::ffi::{_MAPPINGS[origin]}<{k}, {v}>"
        if origin == "DLTensor*":
            raise ValueError("DLTensor* has no ABI carrier inside a container")
        return self._object_carrier(origin, nullable=False)

    # -- fields --------------------------------------------------------------

    def _lower_field(self, field: Any, owner: Any) -> _Carrier:
        """The carrier of ``field`` of type ``owner`` (a TypeInfo, or any
        object with ``type_key``)."""
        size, alignment = int(field.size), int(field.alignment)
        where = f"{owner.type_key}.{field.name}"
        schema = _field_schema(field)
        if schema is None:
            return _Carrier(self._schema_less(field, where), size, alignment)
        origin = schema.origin
        if origin == "DLTensor*":
            raise ValueError(
                f"field {where} is a raw DLTensor* (a native-only schema alias); "
                "it has no ABI-safe carrier"
            )
        if origin == "int":
            if size not in _INT_CARRIERS:
                raise ValueError(f"field {where}: no integer carrier of {size} bytes")
            return _Carrier(_INT_CARRIERS[size], size, alignment)
        if origin == "float":
            if size not in _FLOAT_CARRIERS:
                raise ValueError(f"field {where}: no floating-point carrier of {size} bytes")
            return _Carrier(_FLOAT_CARRIERS[size], size, alignment)
        if origin in ("str", "ffi.String", "bytes", "ffi.Bytes"):
            text = origin.endswith(("str", "String"))
            if size == 16:
                return _Carrier(f"::tvm::ffi::{'String' if text else 'Bytes'}", size, alignment)
            # A reference to a heap string object (this library's own layout).
            return _Carrier(f"::tvm::ffi::ObjectPtr<{_OBJECT}>", size, alignment)
        if origin == "Optional" or origin in _UNIONS:
            return _Carrier(self._optional_or_union(schema, field, owner, where), size, alignment)
        if size == 16 and origin not in ("Any", "Callable"):
            # An Any-sized slot holding something else: stored as an Any.
            return _Carrier("::tvm::ffi::Any", size, alignment)
        return _Carrier(self._element(schema), size, alignment)

    def _schema_less(self, field: Any, where: str) -> str:
        index = int(field.field_static_type_index)
        if index in _STATIC_CARRIERS:
            return _STATIC_CARRIERS[index]
        if index >= 64 and int(field.size) == 8:
            return f"::tvm::ffi::ObjectPtr<{_OBJECT}>"
        if int(field.size) == 16:
            return "::tvm::ffi::Any"
        raise ValueError(f"field {where} has no type schema and an unknown layout")

    def _optional_or_union(self, schema: Any, field: Any, owner: Any, where: str) -> str:
        size = int(field.size)
        index = core._object_type_key_to_index(owner.type_key)
        if size == 16 and index is not None and _is_py_class(index):
            return "::tvm::ffi::Any"
        args = list(schema.args)
        if schema.origin == "Optional":
            inner = args[0] if args else None
            if inner is not None and self._is_object_schema(inner):
                if size == 8:
                    return self._object_carrier(inner.origin, nullable=True)
                if size == 16:
                    return f"::tvm::ffi::Optional<{self._object_carrier(inner.origin, False)}>"
            if inner is not None and size == 8 and (
                inner.origin in _SEQUENCES or inner.origin in _MAPPINGS
            ):
                return f"::tvm::ffi::Optional<{self._element(inner)}>"
            raise ValueError(
                f"Ambiguous native Optional carrier for {where} with layout "
                f"({size}, {int(field.alignment)})"
            )
        if args and all(self._is_object_schema(a) for a in args) and size == 8:
            return f"::tvm::ffi::Arc<{_OBJECT}>"
        if size == 16:
            return "::tvm::ffi::Any"
        raise ValueError(f"field {where}: no carrier for {schema} in {size} bytes")

    # -- selection -----------------------------------------------------------

    def _collect(self) -> None:
        for key in self._selected:
            index = core._object_type_key_to_index(key)
            if index < _DYN_OBJECT_BEGIN or key in _BUILTIN_CARRIERS:
                if key in _BUILTIN_CARRIERS:
                    continue  # the headers define it
                raise ValueError(f"Static TVM-FFI type {key!r} is not supported")
            info = _type_info_of(index)
            chain = [key]
            for ancestor in info.type_ancestors[1:]:
                chain.append(_type_info_of(ancestor).type_key)
            for each in chain:
                if each in _BUILTIN_CARRIERS or each in self._structs:
                    continue
                self._deps.pop(each, None)
                self._structs[each] = self._struct_of(each)

    def _layout(self, struct: _Struct) -> tuple[int, list[tuple[Any, _Carrier]]]:
        total, _ = core._type_layout(struct.type_index)
        if total is None:
            raise ValueError(
                f"type {struct.key!r} does not expose fixed total-size metadata, "
                "so its layout cannot be checked"
            )
        info = struct.info
        fields = [(f, self._lower_field(f, info)) for f in info.fields]
        return int(total), fields

    # -- text ----------------------------------------------------------------

    @staticmethod
    def _blocks(structs: list[_Struct], render) -> str:
        """``render(struct)`` of each struct, consecutive ones of one
        namespace in one namespace block; each block ends with a blank line."""
        out = []
        i = 0
        while i < len(structs):
            ns = structs[i].namespace
            j = i
            while j < len(structs) and structs[j].namespace == ns:
                j += 1
            body = "\n".join(render(s) for s in structs[i:j])
            if ns:
                opens = "".join(f"namespace {part} {{\n" for part in ns)
                closes = "".join(f"}}  // namespace {part}\n" for part in reversed(ns))
                out.append(f"{opens}\n{body}\n{closes}\n")
            else:
                out.append(f"{body}\n")
            i = j
        return "".join(out)

    @staticmethod
    def _by_namespace(structs) -> list[_Struct]:
        return sorted(structs, key=lambda s: (s.namespace, s.name))

    def _parent_of(self, struct: _Struct) -> str:
        ancestors = struct.info.type_ancestors
        if len(ancestors) <= 1:
            return _OBJECT
        parent_key = _type_info_of(ancestors[-1]).type_key
        if parent_key in self._structs:
            return self._structs[parent_key].qualified
        return _OBJECT

    def _full(self, struct: _Struct, total: int, fields) -> str:
        name = struct.name
        align = max([8] + [c.alignment for _, c in fields])
        lines = [
            f"struct alignas({align}) {name} : public {self._parent_of(struct)} {{",
            f'{_INDENT}TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("{_c_string(struct.key)}", '
            f"{struct.depth});",
        ]
        if fields:
            lines.append("")
            for f, c in fields:
                lines.append(
                    f"{_INDENT}{c.cpp_type} {_cxx_name(f.name)};  // offset={int(f.offset)}, "
                    f"size={c.size}, align={c.alignment}"
                )
        lines += [
            "};",
            "",
            f"static_assert(sizeof({name}) == {total});",
            f"static_assert(alignof({name}) == {align});",
        ]
        for f, c in fields:
            member = f"{name}::{_cxx_name(f.name)}"
            lines += [
                f"static_assert(sizeof(decltype({member})) == {c.size});",
                f"static_assert(alignof(decltype({member})) == {c.alignment});",
                f"static_assert(offsetof({name}, {_cxx_name(f.name)}) == {int(f.offset)});",
            ]
        return "\n".join(lines) + "\n"

    def run(self) -> str:
        self._collect()
        order = sorted(self._structs.values(), key=lambda s: (s.depth, s.key))
        # Lowering the fields finds the dependencies, so it comes first.
        layouts = {s.key: self._layout(s) for s in order}
        declared = self._by_namespace([*self._structs.values(), *self._deps.values()])
        deps = self._by_namespace(self._deps.values())

        def opaque(s: _Struct) -> str:
            return (
                f"struct {s.name} : public {_OBJECT} {{\n"
                f'{_INDENT}TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("{_c_string(s.key)}", {s.depth});\n'
                "};\n"
            )

        text = ["#pragma once\n\n#include <tvm/ffi/tvm_ffi.h>\n\n"]
        text.append(self._blocks(declared, lambda s: f"struct {s.name};\n"))
        text.extend(
            "template <>\ninline constexpr bool tvm::ffi::is_object_subclass_v<"
            f"{s.qualified}> = true;\n"
            for s in declared
        )
        text.append("\n")
        text.append(self._blocks(deps, opaque))
        text.append(
            f"static_assert(sizeof({_OBJECT}) == 24);\n"
            f"static_assert(alignof({_OBJECT}) == 8);\n\n"
            "#if defined(__clang__) || defined(__GNUC__)\n"
            "#pragma GCC diagnostic push\n"
            '#pragma GCC diagnostic ignored "-Winvalid-offsetof"\n'
            "#elif defined(_MSC_VER)\n"
            "#pragma warning(push)\n"
            "#pragma warning(disable : 4749)\n"
            "#endif\n\n"
        )
        text.append(self._blocks(order, lambda s: self._full(s, *layouts[s.key])))
        text.append(
            "#if defined(__clang__) || defined(__GNUC__)\n"
            "#pragma GCC diagnostic pop\n"
            "#elif defined(_MSC_VER)\n"
            "#pragma warning(pop)\n"
            "#endif\n"
        )
        return "".join(text)


def _select(selectors: Any) -> list[str]:
    if isinstance(selectors, str):
        selectors = [selectors]
    keys: dict[str, None] = {}
    every = None
    for selector in selectors:
        if not isinstance(selector, str):
            raise TypeError(f"a type-key selector is a str, got {type(selector).__name__}")
        if any(ch in selector for ch in "*?["):
            if every is None:
                every = _registered_object_keys()
            matched = [k for k in every if fnmatch.fnmatchcase(k, selector)]
            if not matched:
                raise ValueError(
                    f"Type-key selector {selector!r} did not match any registered type"
                )
            keys.update(dict.fromkeys(sorted(matched)))
            continue
        index = core._object_type_key_to_index(selector)
        if index is None or index < 64:
            raise ValueError(
                f"Type-key selector {selector!r} did not match any registered object type"
            )
        keys[selector] = None
    return list(keys)


def gen_abi_cpp(selectors: str | list[str]) -> str:
    """A self-contained C++ header declaring the selected object types (type
    keys or ``*`` patterns), their ancestors, and the object types their
    fields refer to, with ``static_assert``s of the live layout."""
    return _Generator(_select(selectors)).run()
