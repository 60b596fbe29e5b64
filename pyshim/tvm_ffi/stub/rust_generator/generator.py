"""RustGenerator: fills the blocks of ``.rs`` files."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import consts as C
from ..file_utils import CodeBlock, FileInfo
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from . import codegen
from .consts import RUST_TY_MAP_DEFAULTS
from .utils import RustImports, RustUse, check_tokens, rust_module_path


def _is_registered(type_key: str) -> bool:
    from ...core import _object_type_key_to_index

    try:
        return _object_type_key_to_index(type_key) is not None
    except Exception:  # noqa: BLE001 - an unknown key is simply not registered
        return False


class RustGenerator:
    name = "rust"
    source_exts = frozenset({".rs"})
    directive_kinds = frozenset(
        {"import-object", "field", "nullable", "enum", "opaque", "upcast", "custom-new"}
    )
    # Rust bindings are of object types only: a prefix with functions alone gets no module.
    emits_functions = False

    def default_ty_map(self) -> dict[str, str]:
        return dict(RUST_TY_MAP_DEFAULTS)

    def new_imports(self) -> RustImports:
        return RustImports()

    def is_builtin(self, type_key: str) -> bool:
        """Every ``ffi.*`` type lives in the `tvm_ffi` crate: never generated."""
        return type_key.startswith("ffi.")

    def api_filename(self) -> str:
        return "mod.rs"

    def init_filename(self) -> str:
        return "mod.rs"

    package_entry_filename = init_filename

    def add_directive(self, imports: RustImports, name: str, payload: str, lineno: int) -> None:
        if name == "import-object":  # `<dotted name>;<type_checking_only>;<alias>`: the name
            target = payload.split(";")[0].strip()
            if not target:
                raise ValueError(f"Invalid import-object at line {lineno}: {payload!r}")
            imports.record(RustUse(target).path)
            return
        imports.directives.add(name, payload, lineno)

    def generate_api_file(
        self,
        code_blocks: list[CodeBlock],
        ty_map: dict[str, str],
        prefix: str,
        object_infos: list[ObjectInfo],
        init_cfg: InitConfig,
        is_root: bool,
    ) -> str:
        return codegen.generate_rust_api_file(
            code_blocks, ty_map, prefix, object_infos, init_cfg, is_root, C.RUST_SYNTAX
        )

    def generate_init_file(self, code_blocks: list[CodeBlock], prefix: str, api_module: str) -> str:
        """Nothing: the API file is the module's ``mod.rs`` itself."""
        return ""

    def generate_package_entry(self, code_blocks: list[CodeBlock], prefix: str) -> str:
        return ""

    def finalize_init(self, init_path: Path, prefixes: set[str]) -> None:
        codegen.finalize_rust_module_tree(init_path, prefixes)

    def check_view(self, code_blocks: list[CodeBlock]) -> list[str]:
        """The tokens of the generated blocks: a respelled but equivalent binding is fresh."""
        lines = [
            line
            for c in code_blocks
            if c.kind not in (None, "directive")
            for line in c.lines
            if not line.lstrip().startswith(("///", "//!"))
        ]
        return check_tokens(lines)

    def process(
        self,
        file: FileInfo,
        opt: Options,
        ty_map: dict[str, str],
        global_funcs: dict[str, list[FuncInfo]],
        imports: RustImports,
        declared: dict[str, Any] | None = None,
    ) -> str | None:
        """Fills every block of ``file``. Returns the error to raise once the file is written
        (blocks of types no longer registered are left as they are), or None."""
        del global_funcs
        module = rust_module_path(file.path)
        modules: dict[str, tuple[str, ...]] = {}
        for key, where in (declared or {}).items():
            modules[key] = where if isinstance(where, tuple) else rust_module_path(Path(where))
        for code in file.code_blocks:
            if code.kind == "object":
                modules[code.param] = module
        gone = []
        defined: set[str] = set()
        for code in file.code_blocks:
            if code.kind != "object":
                continue
            if not _is_registered(code.param):
                gone.append(code)
                continue
            info = codegen.object_info_from_type_key(code.param)
            codegen.generate_rust_object(code, ty_map, imports, opt, info, modules)
            leaf = code.param.rsplit(".", 1)[-1]
            defined.update("::".join((*module, n)) for n in (leaf, leaf + "Obj"))
        for code in file.code_blocks:
            if code.kind == "import-section":
                codegen.generate_rust_import_section(code, imports, opt, defined)
        if gone:
            names = ", ".join(f"`object/{c.param}` (line {c.lineno_start})" for c in gone)
            return f"{names}: the type is no longer registered; remove the blocks"
        return None
