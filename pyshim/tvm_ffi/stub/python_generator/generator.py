"""PythonGenerator: fills the blocks of ``.py``/``.pyi`` files."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import consts as C
from ..file_utils import CodeBlock, FileInfo
from ..lib_state import object_info_from_type_key
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from . import codegen
from .consts import TY_MAP_DEFAULTS
from .utils import ImportItem, add_import


class PythonGenerator:
    name = "python"
    source_exts = frozenset({".py", ".pyi"})
    directive_kinds = frozenset({"import-object"})
    emits_functions = True

    def default_ty_map(self) -> dict[str, str]:
        return dict(TY_MAP_DEFAULTS)

    def new_imports(self) -> list[ImportItem]:
        return []

    def is_builtin(self, type_key: str) -> bool:
        return type_key in C.BUILTIN_TYPE_KEYS

    def api_filename(self) -> str:
        return "_ffi_api.py"

    def add_directive(self, imports: Any, name: str, payload: str, lineno: int) -> None:
        """``import-object: <name>;<type_checking_only>;<alias>``."""
        parts = [p.strip() for p in payload.split(";")]
        if not parts[0] or len(parts) > 3:
            raise ValueError(
                f"Invalid import-object at line {lineno}: {payload!r} "
                "(expected `name;type_checking_only;alias`)"
            )
        checking = len(parts) > 1 and parts[1].lower() == "true"
        alias = parts[2] if len(parts) > 2 and parts[2] else None
        add_import(imports, ImportItem(parts[0], type_checking_only=checking, alias=alias))

    def generate_api_file(
        self,
        code_blocks: list[CodeBlock],
        ty_map: dict[str, str],
        prefix: str,
        object_infos: list[ObjectInfo],
        init_cfg: InitConfig,
        is_root: bool,
    ) -> str:
        return codegen.generate_python_ffi_api(
            code_blocks, ty_map, prefix, object_infos, init_cfg, is_root, C.PYTHON_SYNTAX
        )

    def generate_package_entry(self, code_blocks: list[CodeBlock], prefix: str) -> str:
        return codegen.generate_python_init(code_blocks, prefix, "_ffi_api", C.PYTHON_SYNTAX)

    def package_entry_filename(self) -> str:
        return "__init__.py"

    def finalize_init(self, init_path: Path, prefixes: set[str]) -> None:
        """Nothing to stitch: each package's ``__init__.py`` is already written."""

    def check_view(self, code_blocks: list[CodeBlock]) -> list[list[str]]:
        return [list(c.lines) for c in code_blocks if c.kind not in (None, "directive")]

    def process(
        self,
        file: FileInfo,
        opt: Options,
        ty_map: dict[str, str],
        global_funcs: dict[str, list[FuncInfo]],
        imports: list[ImportItem],
        declared: Any = None,
    ) -> None:
        """Fills every block of ``file`` (the directives are already in ``imports``)."""
        names: set[str] = set()
        if any(i.name.endswith(".load_lib_module") for i in imports):
            names.add("LIB")
        for code in file.code_blocks:
            if code.kind == "global":
                funcs = sorted(global_funcs.get(code.param[0], []), key=lambda f: f.schema.name)
                codegen.generate_python_global_funcs(code, funcs, ty_map, imports, opt)
                names.update(f.short_name for f in funcs)
            elif code.kind == "object":
                info = object_info_from_type_key(code.param)
                codegen.generate_python_object(code, ty_map, imports, opt, info)
                names.add(code.param.rpartition(".")[2])
        for code in file.code_blocks:
            if code.kind == "export":
                codegen.generate_python_export(code)
            elif code.kind == "__all__":
                codegen.generate_python_all(code, names, opt)
        for code in file.code_blocks:
            if code.kind == "import-section":
                codegen.generate_python_import_section(code, imports, opt)
