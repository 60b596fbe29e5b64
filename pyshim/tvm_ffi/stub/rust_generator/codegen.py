"""Rust text of one object block, the import section, a new API file and the module tree.

An object is rendered in one of two forms (``tvm_ffi.stub.layout`` decides which):

- *complete*: the byte facts prove that every byte the type adds is a reflected
  field or padding, so ``<Name>Obj`` mirrors the C++ object by value
  (``#[repr(C)]`` with a size/alignment assertion) and gets allocators;
- *opaque*: ``<Name>Obj`` is the header (or its parent) alone, and each field
  is read through the C ABI field getter.

Either way ``<Name>`` is the reference-counted handle, and the typed views
upward (``impl_object_upcast!``) follow the ancestor chain.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from ...core import TypeSchema
from .. import consts as C
from ..file_utils import CodeBlock
from ..layout import Verdict, classify
from ..lib_state import object_info_from_type_key
from ..utils import InitConfig, NamedTypeSchema, ObjectInfo, Options
from . import consts as RC
from .directives import EnumSpec
from .utils import RustImports, RustUse, render_rust_type, rust_ident

_ROOT = "ffi.Object"
_FIELDS_VIA_GETTERS = "Fields are read through the C ABI getters."


def _leaf(type_key: str) -> str:
    return type_key.rsplit(".", 1)[-1]


def _mirror_name(type_key: str) -> str:
    """``ffi.IntEnum`` -> ``FfiIntEnumObj``: the header-only stand-in of a builtin."""
    return "".join(p[:1].upper() + p[1:] for p in type_key.split(".")) + "Obj"


def _is_snake(name: str) -> bool:
    return name == name.lower()


_HANDLE_ORIGINS = frozenset({"Array", "List", "Map", "Dict", "Object", "Callable", "Tensor"})


def _is_handle(origin: str) -> bool:
    """Whether a field of this origin is an object handle (one pointer) in C++."""
    return origin in _HANDLE_ORIGINS or ("." in origin and not origin.startswith("ctypes."))


class _Object:
    """Renders one object block; names it needs are recorded in ``imports``."""

    def __init__(
        self,
        ty_map: Mapping[str, str],
        imports: RustImports,
        info: ObjectInfo,
        declared: Mapping[str, tuple[str, ...]],
    ) -> None:
        assert info.type_key is not None
        self.ty_map = ty_map
        self.imports = imports
        self.directives = imports.directives
        self.info = info
        self.key = info.type_key
        self.name = _leaf(self.key)
        self.declared = declared
        self.module = tuple(declared[self.key]) if self.key in declared else ("crate",)
        self.missing: set[str] = set()

    # -- names -------------------------------------------------------------

    def _use(self, path: str, record: bool = True) -> str:
        """Spell a ``::`` path: bare when it lives in this file's module, else imported."""
        item = RustUse(path)
        if "::" not in item.path:
            return item.path
        module, _, leaf = item.path.rpartition("::")
        if tuple(module.split("::")) == self.module:
            return leaf
        if leaf in (self.name, self.name + "Obj"):
            return item.path  # would collide with what this block defines
        return self.imports.record(item.path) if record else leaf

    def object_name(self, type_key: str, suffix: str = "", record: bool = True) -> str:
        """The Rust name of a generated (or ``ty-map``-ped) object type, plus ``suffix``."""
        if type_key in self.ty_map:
            return self._use(RustUse(self.ty_map[type_key]).path + suffix, record)
        if type_key in self.declared:
            module = tuple(self.declared[type_key])
            leaf = _leaf(type_key) + suffix
            if module == self.module:
                return leaf
            return self._use("::".join((*module, leaf)), record)
        self.missing.add(type_key)
        return _leaf(type_key) + suffix

    def _leaf_type(self, origin: str, type_key: str | None, record: bool) -> str | None:
        key = type_key if type_key in self.ty_map else origin
        if key in self.ty_map:
            return self._use(self.ty_map[key], record)
        if "." in origin and not origin.startswith(("ffi.", "ctypes.")):
            return self.object_name(origin, record=record)
        return None

    def spell(self, schema: TypeSchema, record: bool = True) -> str | None:
        return render_rust_type(schema, lambda o, k: self._leaf_type(o, k, record))

    # -- field types -------------------------------------------------------

    def _check_width(self, kind: str, key: str, field: NamedTypeSchema, ty: str) -> None:
        width = RC.SCALAR_SIZES.get(ty)
        if width is not None and field.size is not None and field.size != width:
            raise ValueError(
                f"`{kind}` directive for `{key}` maps a {field.size}-byte field to `{ty}` "
                f"({width} bytes)"
            )

    def _directed(self, owner: str, field: NamedTypeSchema, record: bool) -> str | None:
        """The type a ``field``/``enum`` directive gives the field, if any."""
        key = f"{owner}.{field.name}"
        spec = self.directives.enums.get(key)
        if spec is not None:
            self._check_width("enum", key, field, spec.repr)
            return spec.name
        target = self.directives.field_types.get(key)
        if target is not None:
            self._check_width("field", key, field, target)
            return self._use(target, record)
        return None

    def _nullable(self, owner: str, field: NamedTypeSchema, ty: str | None) -> str | None:
        key = f"{owner}.{field.name}"
        if ty is None or key not in self.directives.nullable:
            return ty
        if field.size is not None and field.size != RC.POINTER_SIZE:
            raise ValueError(
                f"`nullable` directive for `{key}`: the field is {field.size} bytes, "
                f"not a pointer-sized object handle"
            )
        return ty if ty.startswith(("Option<", "Optional<")) else f"Option<{ty}>"

    def mirror_type(self, owner: str, field: NamedTypeSchema, record: bool = True) -> str | None:
        """The by-value Rust type of a field in a complete mirror, or None if it has none."""
        spelled = self.spell(field, record)  # resolved first: it names what the field holds
        directed = self._directed(owner, field, record)
        if directed is not None:
            return self._nullable(owner, field, directed)
        origin, size = field.origin, field.size
        if origin == "int" and field.type_key != "ffi.BigInt":
            ty: str | None = RC.INT_BY_SIZE.get(size or 8)
        elif origin == "float":
            ty = RC.FLOAT_BY_SIZE.get(size or 8)
        elif origin == "Optional":
            ty = self._optional_mirror(field, record)
        elif origin == "Any" and size not in (None, RC.ANY_CELL_SIZE):
            ty = None  # a field whose bytes are not a `TVMFFIAny` cell is not an `Any`
        elif _is_handle(origin) and size not in (None, RC.POINTER_SIZE):
            ty = None  # an object handle is one pointer
        else:
            ty = spelled
        return self._nullable(owner, field, ty)

    def _optional_mirror(self, field: NamedTypeSchema, record: bool) -> str | None:
        """``Optional<T>`` as C++ lays it out: a 16-byte cell of a value, or a nullable handle."""
        if not field.args:
            return None
        inner = field.args[0]
        if inner.origin in ("Any", "Optional", "Union", "None"):
            return None
        by_value = inner.origin in ("int", "float", "bool", "dtype", "DataType", "Device")
        if field.size == RC.ANY_CELL_SIZE:
            spelled = self.spell(inner, record)
            if spelled is None:
                return None
            optional = self._use("tvm_ffi::Optional", record)
            return f"{optional}<{spelled}>"
        if field.size == RC.POINTER_SIZE and not by_value:
            spelled = self.spell(inner, record)
            return None if spelled is None else f"Option<{spelled}>"
        return None

    def getter_type(self, field: NamedTypeSchema) -> str | None:
        """The type an opaque getter returns (None: read it as ``Any``)."""
        spelled = self.spell(field)
        directed = self._directed(self.key, field, True)
        return self._nullable(self.key, field, directed if directed is not None else spelled)

    # -- layout ------------------------------------------------------------

    def chain(self) -> dict[str, ObjectInfo]:
        """This type and every ancestor, by type key (each ancestor looked up)."""
        infos: dict[str, ObjectInfo] = {self.key: self.info}
        parent = self.info.parent_type_key
        while parent is not None and parent not in infos:
            try:
                infos[parent] = object_info_from_type_key(parent)
            except ValueError:  # not registered: nothing is known of its bytes
                infos[parent] = ObjectInfo(
                    fields=[], methods=[], type_key=parent,
                    parent_type_key=None if parent == _ROOT else _ROOT,
                )
            parent = infos[parent].parent_type_key
        return infos

    def classify(self, infos: dict[str, ObjectInfo]) -> dict[str, Verdict]:
        owner = {id(f): key for key, info in infos.items() for f in info.fields}
        builtins = {k for k in infos if k.startswith("ffi.") and k != _ROOT}

        def renderable(f: NamedTypeSchema) -> bool:
            return self.mirror_type(owner[id(f)], f, record=False) is not None

        return classify(infos, self.directives.opaque, builtins, renderable)

    def why_opaque(self, verdict: Verdict) -> str:
        reason = verdict.reason
        if verdict.total_size is None:  # said first: nothing of this type can be checked
            return "no metadata of its own: total_size is unknown."
        if reason == "parent-opaque":
            return f"parent '{verdict.parent}' is opaque ({self._verdicts[verdict.parent].reason})."
        if reason == "layout-unknown" and verdict.total_size is None:
            return "no metadata of its own: total_size is unknown."
        if reason == "uncovered-bytes":
            ranges = ", ".join(str(r) for r in verdict.uncovered)
            return (
                f"bytes {ranges} of {verdict.own_bytes} are not accounted for by reflected fields."
            )
        if reason == "unrenderable-field":
            for f in sorted(self.info.fields, key=lambda f: f.offset or 0):
                if self.mirror_type(self.key, f, record=False) is None:
                    return f"field '{f.name}' ({f.repr()}) has no native mirror."
        if reason == "by-directive":
            return "vetoed by directive although the layout is reproducible."
        return verdict.detail[:1].upper() + verdict.detail[1:] + "."

    # -- the block ---------------------------------------------------------

    def render(self) -> list[str]:
        infos = self.chain()
        self._verdicts = self.classify(infos)
        verdict = self._verdicts[self.key]
        complete = verdict.is_complete
        ancestors = [k for k in self.info.ancestors if k != _ROOT]
        parent = self.info.parent_type_key or _ROOT
        # The `base` slot: the header, a builtin stand-in, or the parent's mirror.
        if parent == _ROOT:
            base = self._use("tvm_ffi::Object")
            parent_obj = None
        elif parent.startswith("ffi."):
            base = self._builtin_chain(ancestors)
            parent_obj = None
        else:
            base = parent_obj = self.object_name(parent, "Obj")
        views = [self.object_name(k) for k in ancestors if not k.startswith("ffi.")]
        views += [self._use(t) for t in self.directives.upcasts.get(self.key, [])]

        fields = sorted(self.info.fields, key=lambda f: f.offset or 0)
        obj = f"{self.name}Obj"
        out: list[str] = []
        for f in fields:
            spec = self.directives.enums.get(f"{self.key}.{f.name}")
            if spec is not None:
                out += self._enum(spec)
        if complete:
            own_bytes = verdict.own_bytes
            doc = f"/// Complete: reflected fields fill {own_bytes} exactly"
            if verdict.padding:
                doc += f" (alignment padding {', '.join(str(r) for r in verdict.padding)})"
            out.append(doc + ".")
            members = [(rust_ident(f.name), self.mirror_type(self.key, f)) for f in fields]
        else:
            out.append(f"/// Opaque: {self.why_opaque(verdict)} {_FIELDS_VIA_GETTERS}")
            members = []
        if any(not _is_snake(n) for n, _ in members):
            out.append("#[allow(non_snake_case)]")
        out += ["#[repr(C)]", "#[derive(tvm_ffi::derive::Object)]", f'#[type_key = "{self.key}"]']
        if self.info.is_final:
            out.append("#[type_final]")
        out += [f"pub struct {obj} {{", f"    base: {base},"]
        out += [f"    pub {n}: {t}," for n, t in members]
        out.append("}")
        if complete:
            out += [
                "",
                "const _: () = {",
                f"    assert!(::core::mem::size_of::<{obj}>() == {self.info.total_size});",
                f"    assert!(::core::mem::align_of::<{obj}>() == {verdict.alignment});",
                "};",
            ]
        arc = self._use("tvm_ffi::ObjectArc")
        deref = self._use("std::ops::Deref")
        out += [
            "",
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::ObjectRef, Clone)]",
            f"pub struct {self.name} {{",
            f"    base: {arc}<{obj}>,",
            "}",
            "",
            *self._deref(deref, self.name, obj),
        ]
        if parent_obj is not None:
            out += ["", *self._deref(deref, obj, parent_obj)]
        if complete:
            out += self._allocators(infos, base, parent_obj)
            if not self.info.is_final and self._generated_chain(ancestors):
                out += self._copy_and_drop(base, members)
        elif fields:
            out += ["", f"impl {obj} {{"]
            for i, f in enumerate(fields):
                if i:
                    out.append("")
                out += self._getter(f)
            out.append("}")
        if views:
            pairs = ", ".join(f"{self.name} => {v}" for v in views)
            out += ["", f"tvm_ffi::impl_object_upcast!({pairs});"]
        return out

    def _generated_chain(self, ancestors: list[str]) -> bool:
        """Every ancestor is a block of this run: a hand-written one may lack `ShallowCopy`."""
        return not any(k.startswith("ffi.") or k in self.ty_map for k in ancestors)

    def _builtin_chain(self, ancestors: list[str]) -> str:
        below = self._use("tvm_ffi::Object")
        for key in ancestors:
            if not key.startswith("ffi."):
                break
            self.imports.builtin_mirrors.setdefault(key, below)
            below = _mirror_name(key)
        return below

    @staticmethod
    def _deref(deref: str, outer: str, target: str) -> list[str]:
        return [
            f"impl {deref} for {outer} {{",
            f"    type Target = {target};",
            f"    fn deref(&self) -> &{target} {{",
            "        &self.base",
            "    }",
            "}",
        ]

    def _enum(self, spec: EnumSpec) -> list[str]:
        error = self._use("tvm_ffi::Error")
        value_error = self._use("tvm_ffi::VALUE_ERROR")
        result = self._use("tvm_ffi::Result")
        name, raw = spec.name, spec.repr
        out = [
            "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]",
            "#[repr(transparent)]",
            f"pub struct {name}({raw});",
            "",
            "#[allow(non_upper_case_globals)]",
            f"impl {name} {{",
        ]
        out += [f"    pub const {v}: Self = Self({n});" for v, n in spec.variants]
        out += [
            f"    pub const fn from_raw(value: {raw}) -> Self {{",
            "        Self(value)",
            "    }",
            f"    pub const fn as_raw(self) -> {raw} {{",
            "        self.0",
            "    }",
            "}",
            "",
            f"impl TryFrom<i64> for {name} {{",
            f"    type Error = {error};",
            f"    fn try_from(value: i64) -> {result}<Self> {{",
            f"        {raw}::try_from(value).map(Self).map_err(|_| {{",
            f'            {error}::new({value_error}, &format!("{name} value {{value}} does not '
            f'fit {raw}"), "")',
            "        })",
            "    }",
            "}",
            "",
        ]
        return out

    def _getter(self, f: NamedTypeSchema) -> list[str]:
        name = rust_ident(f.name)
        result = self._use("tvm_ffi::Result")
        getter = self._use("tvm_ffi::FieldGetter")
        self._use("tvm_ffi::ObjectCore")  # `Self::type_index()`
        read = f'{getter}::new(Self::type_index(), "{f.name}")?'
        lint = [] if _is_snake(name) else ["    #[allow(non_snake_case)]"]
        spec = self.directives.enums.get(f"{self.key}.{f.name}")
        if spec is not None:
            self.getter_type(f)
            return [
                *lint,
                f"    pub fn {name}(&self) -> {result}<{spec.name}> {{",
                f"        let raw: i64 = {read}.get(self)?;",
                f"        {spec.name}::try_from(raw)",
                "    }",
            ]
        ty = self.getter_type(f)
        if ty is None or ty in ("Any", "tvm_ffi::Any") or f.origin == "Any":
            ty = self._use("tvm_ffi::Any")
            call = f"{read}.get_any(self)"
        else:
            call = f"{read}.get(self)"
        return [
            *lint,
            f"    pub fn {name}(&self) -> {result}<{ty}> {{",
            f"        {call}",
            "    }",
        ]

    # -- complete-form members -------------------------------------------

    def _params(self, infos: dict[str, ObjectInfo], key: str) -> list[tuple[str, str]]:
        """``(name, type)`` of ``<key>Obj::new``: inherited fields first, then its own;
        ``key``'s ``field`` directives narrow the inherited ones too."""
        info = infos[key]
        parent = info.parent_type_key
        params = [] if parent in (None, _ROOT) else self._params(infos, parent)
        narrowed = []
        for name, ty in params:
            field = next(
                (f for i in infos.values() for f in i.fields if rust_ident(f.name) == name), None
            )
            directed = self._directed(key, field, True) if field is not None else None
            narrowed.append((name, directed if directed is not None else ty))
        own = sorted(info.fields, key=lambda f: f.offset or 0)
        return narrowed + [(rust_ident(f.name), self.mirror_type(key, f) or "Any") for f in own]

    def _allocators(
        self, infos: dict[str, ObjectInfo], base: str, parent_obj: str | None
    ) -> list[str]:
        params = self._params(infos, self.key)
        parent = self.info.parent_type_key
        inherited = [] if parent_obj is None else self._params(infos, parent)
        own = params[len(inherited):]
        lint = [] if all(_is_snake(n) for n, _ in params) else ["    #[allow(non_snake_case)]"]
        obj = f"{self.name}Obj"
        vis = "pub(crate) fn" if self.info.is_final else "pub fn"
        out = ["", f"impl {obj} {{", *lint]
        out += _signature("    ", f"{vis} new(", [f"{n}: {t}" for n, t in params], ") -> Self {")
        if parent_obj is None:
            out.append(f"        let base = {base}::new();")
        else:
            args = [
                n if t == pt else f"{n}.into()" for (n, t), (_, pt) in zip(params, inherited)
            ]
            out += _call("        ", "let base = ", f"{parent_obj}::new(", args, ";")
        out += _struct("        ", "Self", ["base", *(n for n, _ in own)])
        out += ["    }", "}"]

        arc = self._use("tvm_ffi::ObjectArc")
        scalar = set(RC.SCALAR_SIZES)
        wrapper_params = [f"{n}: {t}" if t in scalar else f"{n}: impl Into<{t}>" for n, t in params]
        args = [n if t in scalar else f"{n}.into()" for n, t in params]
        name = "from_fields" if self.key in self.directives.custom_new else "new"
        out += ["", f"impl {self.name} {{", "    /// Lossless complete-field allocation.", *lint]
        out += _signature("    ", f"pub fn {name}(", wrapper_params, ") -> Self {")
        out += _call("        ", "let obj = ", f"{obj}::new(", args, ";")
        out += [f"        Self {{ base: {arc}::new(obj) }}", "    }", "}"]
        return out

    def _copy_and_drop(self, base: str, members: list[tuple[str, str | None]]) -> list[str]:
        copy = self._use("tvm_ffi::ShallowCopy")
        init = self._use("tvm_ffi::UnsafeInit")
        addr = self._use("std::ptr::addr_of_mut")
        items = [f"base: {copy}::shallow_copy(&self.base)"]
        items += [f"{n}: Clone::clone(&self.{n})" for n, _ in members]
        out = ["", f"impl {copy} for {self.name}Obj {{", "    fn shallow_copy(&self) -> Self {"]
        out += _struct("        ", "Self", items)
        out += ["    }", "}"]
        out += [
            "",
            f"unsafe impl {init} for {self.name}Obj {{",
            "    unsafe fn drop_defined_fields(this: *mut Self) {",
            "        unsafe {",
            f"            {init}::drop_defined_fields({addr}!((*this).base));",
        ]
        enums = {
            rust_ident(f.name)
            for f in self.info.fields
            if f"{self.key}.{f.name}" in self.directives.enums
        }
        for n, t in members:
            if n in enums:
                continue  # a plain integer: nothing to drop
            if t is not None and (t.startswith("Optional<") or t in ("Any", "tvm_ffi::Any")):
                drop = self._use("std::ptr::drop_in_place")  # a `TVMFFIAny` cell drops as is
            else:
                drop = self._use("tvm_ffi::reflection::drop_if_defined")
            out.append(f"            {drop}({addr}!((*this).{n}));")
        out += ["        }", "    }", "}"]
        return out


def _fits(line: str) -> bool:
    return len(line) <= RC.MAX_WIDTH


def _signature(indent: str, head: str, params: list[str], tail: str) -> list[str]:
    """``fn`` head, parameters and tail on one line, or one parameter a line (as rustfmt)."""
    line = f"{indent}{head}{', '.join(params)}{tail}"
    if _fits(line) or not params:
        return [line]
    return [f"{indent}{head}", *(f"{indent}    {p}," for p in params), f"{indent}{tail}"]


def _call(indent: str, lead: str, head: str, args: list[str], end: str) -> list[str]:
    """``let x = f(args);`` wrapped as rustfmt does: the call moves to the next line first,
    then its arguments go one a line."""
    call = f"{head}{', '.join(args)}){end}"
    if _fits(indent + lead + call):
        return [indent + lead + call]
    if _fits(indent + "    " + call):
        return [indent + lead.rstrip(), indent + "    " + call]
    return [
        indent + lead + head,
        *(f"{indent}    {a}," for a in args),
        f"{indent}){end}",
    ]


def _struct(indent: str, name: str, items: list[str]) -> list[str]:
    line = f"{indent}{name} {{ {', '.join(items)} }}"
    if _fits(line):
        return [line]
    return [f"{indent}{name} {{", *(f"{indent}    {i}," for i in items), f"{indent}}}"]


def generate_rust_object(
    code: CodeBlock,
    ty_map: Mapping[str, str],
    imports: RustImports,
    opt: Options,
    info: ObjectInfo,
    declared: Mapping[str, tuple[str, ...]],
) -> None:
    """Fills ``code`` (an ``object/<type_key>`` block) with the bindings of ``info``.
    ValueError when it names a type this run neither declares nor maps."""
    del opt
    renderer = _Object(ty_map, imports, info, declared)
    body = renderer.render()
    if renderer.missing:
        names = ", ".join(f"`{k}`" for k in sorted(renderer.missing))
        raise ValueError(
            f"`{info.type_key}` (line {code.lineno_start}) depends on {names}, which this run "
            "does not ask for: add an `object/<type_key>` block for each, or a `ty-map` "
            "directive to a hand-written binding"
        )
    code.lines = [code.lines[0], *body, code.lines[-1]]


def generate_rust_import_section(
    code: CodeBlock, imports: RustImports, opt: Options, defined_types: Iterable[str]
) -> None:
    """The file's ``use`` items (sorted, without what the file defines itself), then the
    header-only stand-ins of the builtin ancestors its objects derive from."""
    del opt
    defined = set(defined_types)
    uses = sorted({item.as_use_line() for item in imports.items if item.path not in defined})
    body = [line for line in uses if line]
    for key, below in imports.builtin_mirrors.items():
        if body:
            body.append("")
        body += [
            f"/// Header-only stand-in for the builtin `{key}`; "
            "it only carries the ancestor depth.",
            "#[allow(dead_code)]",
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::Object)]",
            f'#[type_key = "{key}"]',
            f"struct {_mirror_name(key)} {{",
            f"    base: {below},",
            "}",
        ]
    code.lines = [code.lines[0], *body, code.lines[-1]]


def generate_rust_api_file(
    code_blocks: list[CodeBlock],
    ty_map: Mapping[str, str],
    prefix: str,
    object_infos: list[ObjectInfo],
    init_cfg: InitConfig,
    is_root: bool,
    syntax: C.MarkerSyntax,
) -> str:
    """The text ``--init`` appends to a prefix's ``mod.rs``: a file header when the file is
    new, an import section when it has none, and an empty block for each type it lacks."""
    del ty_map, init_cfg, is_root
    have = {c.param for c in code_blocks if c.kind == "object"}
    parts: list[str] = []
    if not code_blocks:
        parts += [
            "#![allow(dead_code, unused_imports)]\n",
            f"//! FFI bindings for `{prefix}` (generated by tvm-ffi-stubgen).\n",
        ]
    if not any(c.kind == "import-section" for c in code_blocks):
        parts.append(f"{syntax.begin} import-section\n{syntax.end}\n")
    for info in object_infos:
        if info.type_key not in have:
            parts.append(f"{syntax.begin} object/{info.type_key}\n{syntax.end}\n")
    return "\n".join(parts)


def finalize_rust_module_tree(root: Path, prefixes: Iterable[str]) -> None:
    """Declares each generated module in its parent's ``mod.rs`` (``pub mod x;``), from
    ``root`` down; lines already there are kept, nothing is written twice."""
    children: dict[Path, set[str]] = {}
    for prefix in prefixes:
        parts = [p for p in prefix.split(".") if p]
        for depth, part in enumerate(parts):
            children.setdefault(Path(root, *parts[:depth]), set()).add(rust_ident(part))
    for folder, names in sorted(children.items()):
        folder.mkdir(parents=True, exist_ok=True)
        mod_rs = folder / "mod.rs"
        text = mod_rs.read_text(encoding="utf-8") if mod_rs.exists() else ""
        have = {line.strip() for line in text.splitlines()}
        missing = [f"pub mod {n};" for n in sorted(names) if f"pub mod {n};" not in have]
        if not missing:
            continue
        if text and not text.endswith("\n"):
            text += "\n"
        mod_rs.write_text(text + "".join(f"{line}\n" for line in missing), encoding="utf-8")
