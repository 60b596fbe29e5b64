"""Python text of each stub block kind, and of generated ``_ffi_api.py``/``__init__.py`` files."""
from __future__ import annotations

from typing import Callable

from .. import consts as C
from ..file_utils import CodeBlock
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options, callable_parts
from .utils import ImportItem, TypeNamer, add_import, render_type

TyMap = Callable[[str], str]

_FMT_OFF = "# fmt: off"
_FMT_ON = "# fmt: on"


def render_func_signature(
    func: FuncInfo, ty_map: TyMap, indent: int, input_ty_map: TyMap | None = None
) -> str:
    """One ``def name(...) -> ret: ...`` line. Parameters are positional-only
    and named by position (``_0``, ...); a member's first one is ``self``."""
    in_map = input_ty_map or ty_map
    ret, params = callable_parts(func.schema)
    any_name: list[str] = []

    def any_type() -> str:
        if not any_name:
            any_name.append(ty_map("Any"))
        return any_name[0]

    name = func.short_name
    if name == "__ffi_init__":
        parts = ["self", *(f"_{i}: {render_type(p, in_map)}" for i, p in enumerate(params or ()))]
        parts.append("/")
        return f"{' ' * indent}def {name}({', '.join(parts)}) -> None: ..."
    if params is None:
        parts = ["self"] if func.is_member else []
        parts.append(f"*args: {any_type()}")
    else:
        parts = ["self"] if func.is_member else []
        first = 1 if func.is_member else 0
        parts += [f"_{i}: {render_type(p, in_map)}" for i, p in enumerate(params) if i >= first]
        if parts:
            parts.append("/")
    ret_text = render_type(ret, ty_map) if ret is not None else any_type()
    return f"{' ' * indent}def {name}({', '.join(parts)}) -> {ret_text}: ..."


def render_object_fields(info: ObjectInfo, ty_map: TyMap, indent: int) -> list[str]:
    """``name: Type`` for each field the type itself declares."""
    return [f"{' ' * indent}{f.name}: {render_type(f, ty_map)}" for f in info.fields]


def render_object_methods(
    info: ObjectInfo, ty_map: TyMap, indent: int, input_ty_map: TyMap | None = None
) -> list[str]:
    """Each method; same-named ones together under ``@overload``, where the first came."""
    groups: dict[str, list[FuncInfo]] = {}
    for method in info.methods:
        groups.setdefault(method.short_name, []).append(method)
    pad = " " * indent
    out: list[str] = []
    for name, methods in groups.items():
        for method in methods:
            if len(methods) > 1:
                out.append(f"{pad}@overload")
            if not method.is_member and name != "__ffi_init__":
                out.append(f"{pad}@staticmethod")
            out.append(render_func_signature(method, ty_map, indent, input_ty_map))
    return out


def _init_params(info: ObjectInfo, ty_map: TyMap) -> list[str]:
    # Python wants every positional parameter with a default after those
    # without one; keyword-only parameters may come in any order.
    required, defaulted, keyword = [], [], []
    for field in info.init_fields:
        text = f"{field.name}: {render_type(field.schema, ty_map)}"
        if field.kw_only:
            keyword.append(text + (" = ..." if field.has_default else ""))
        elif field.has_default:
            defaulted.append(text + " = ...")
        else:
            required.append(text)
    return ["self", *required, *defaulted, *(["*", *keyword] if keyword else [])]


def render_object_init(
    info: ObjectInfo, ty_map: TyMap, indent: int, input_ty_map: TyMap | None = None
) -> list[str]:
    """``def __init__(self, <fields>) -> None: ...`` when the type has an initializer."""
    if not info.has_init:
        return []
    params = ", ".join(_init_params(info, input_ty_map or ty_map))
    return [f"{' ' * indent}def __init__({params}) -> None: ..."]


def render_object_ffi_init(
    info: ObjectInfo, ty_map: TyMap, indent: int, input_ty_map: TyMap | None = None
) -> list[str]:
    """Like :func:`render_object_init`, for ``__ffi_init__``."""
    if not info.has_init:
        return []
    params = ", ".join(_init_params(info, input_ty_map or ty_map))
    return [f"{' ' * indent}def __ffi_init__({params}) -> None: ..."]


def _wrap(code: CodeBlock, body: list[str]) -> None:
    pad = " " * code.indent
    code.lines = [code.lines[0], *(pad + line for line in body), code.lines[-1]]


def generate_python_global_funcs(
    code: CodeBlock,
    funcs: list[FuncInfo],
    ty_map: dict[str, str],
    imports: list[ImportItem],
    opt: Options,
) -> None:
    """Fills a ``global/<prefix>[@<module>]`` block: the ``init_ffi_api`` call
    that binds the functions, and their signatures for type checkers."""
    if not funcs:
        return
    prefix, module = code.param
    add_import(imports, ImportItem(f"{module or 'tvm_ffi'}.init_ffi_api", alias="_FFI_INIT_FUNC"))
    add_import(imports, ImportItem("typing.TYPE_CHECKING"))
    reserved = {f.short_name for f in funcs}
    out_map = TypeNamer(ty_map, imports, reserved)
    in_map = TypeNamer(ty_map, imports, reserved, for_input=True)
    body = [_FMT_OFF, f'_FFI_INIT_FUNC("{prefix}", __name__)', "if TYPE_CHECKING:"]
    body += [render_func_signature(f, out_map, opt.indent, in_map) for f in funcs]
    body.append(_FMT_ON)
    _wrap(code, body)


def generate_python_object(
    code: CodeBlock,
    ty_map: dict[str, str],
    imports: list[ImportItem],
    opt: Options,
    info: ObjectInfo,
) -> None:
    """Fills an ``object/<type key>`` block inside a class body: field
    annotations, then the initializer and methods for type checkers."""
    out_map = TypeNamer(ty_map, imports)
    in_map = TypeNamer(ty_map, imports, for_input=True)
    body = [_FMT_OFF, *render_object_fields(info, out_map, 0)]
    methods = render_object_init(info, out_map, opt.indent, in_map)
    methods += render_object_methods(info, out_map, opt.indent, in_map)
    if methods:
        add_import(imports, ImportItem("typing.TYPE_CHECKING"))
        if any(line.strip() == "@overload" for line in methods):
            add_import(imports, ImportItem("typing.overload", type_checking_only=True))
        body += ["if TYPE_CHECKING:", *methods]
    body.append(_FMT_ON)
    _wrap(code, body)


def generate_python_import_section(
    code: CodeBlock, imports: list[ImportItem], opt: Options
) -> None:
    """Fills an ``import-section`` block with every import the other blocks recorded."""
    if not imports:
        return
    runtime: dict[str, list[str]] = {}
    checking: dict[str, list[str]] = {}
    for item in imports:
        if item.name == "typing.TYPE_CHECKING":
            continue
        group = checking if item.type_checking_only else runtime
        names = group.setdefault(item.mod, [])
        if item.spelling() not in names:
            names.append(item.spelling())
    body = [_FMT_OFF, "# isort: off", "from __future__ import annotations",
            "from typing import TYPE_CHECKING"]
    body += [
        f"from {mod} import {', '.join(sorted(names))}" for mod, names in sorted(runtime.items())
    ]
    if checking:
        body.append("if TYPE_CHECKING:")
        body += [
            f"{' ' * opt.indent}from {mod} import {', '.join(sorted(names))}"
            for mod, names in sorted(checking.items())
        ]
    body += ["# isort: on", _FMT_ON]
    _wrap(code, body)


def _isort_key(name: str) -> tuple[int, str]:
    if name.isupper():
        return 0, name
    return (1 if name[:1].isupper() else 2), name


def generate_python_all(code: CodeBlock, names: set[str], opt: Options) -> None:
    """Fills an ``__all__`` block: the short names, constants, classes, then the rest."""
    if not names:
        return
    short = sorted({name.rpartition(".")[2] for name in names}, key=_isort_key)
    _wrap(code, [f'"{name}",' for name in short])


def generate_python_export(code: CodeBlock) -> None:
    """Fills an ``export/<module>`` block: re-exports everything in ``<module>.__all__``."""
    mod = code.param
    _wrap(code, [
        _FMT_OFF,
        "# isort: off",
        f"from .{mod} import *  # noqa: F403",
        f"from .{mod} import __all__ as {mod}__all__",
        'if "__all__" not in globals():',
        "    __all__ = []",
        f"__all__.extend({mod}__all__)",
        "# isort: on",
        _FMT_ON,
    ])


def generate_python_init(
    code_blocks: list[CodeBlock], module_name: str, submodule: str, syntax: C.MarkerSyntax
) -> str:
    """Text to append to a package's ``__init__.py`` so it re-exports
    ``submodule``; empty when the file already has that export block."""
    if any(c.kind == "export" and c.param == submodule for c in code_blocks):
        return ""
    return "\n".join([
        f'"""Package {module_name}."""',
        f"{syntax.begin} export/{submodule}",
        syntax.end,
        "",
    ])


def generate_python_ffi_api(
    code_blocks: list[CodeBlock],
    ty_map: dict[str, str],
    module_name: str,
    object_infos: list[ObjectInfo],
    init_cfg: InitConfig,
    is_root: bool,
    syntax: C.MarkerSyntax,
) -> str:
    """Text to append to an ``_ffi_api.py``: the blocks a later pass fills
    (imports, the global functions of ``module_name``, one class per object,
    ``__all__``); a block the file already has is not repeated."""
    have = {(c.kind, c.param if isinstance(c.param, str) else c.param[0]) for c in code_blocks}
    out: list[str] = []
    if not code_blocks:
        out.append(f'"""FFI API bindings for {module_name}."""')
    if ("import-section", "") not in have:
        out += [f"{syntax.begin} import-section", syntax.end]
    if is_root:
        out += [
            f"{syntax.import_object} tvm_ffi.libinfo.load_lib_module;False;_FFI_LOAD_LIB",
            f'LIB = _FFI_LOAD_LIB("{init_cfg.pkg}", "{init_cfg.shared_target}")',
        ]
    new_objects = [i for i in object_infos if ("object", i.type_key) not in have]
    local = {i.type_key for i in new_objects}
    if new_objects:
        out.append(f"{syntax.import_object} tvm_ffi.register_object;False;_FFI_REG_OBJ")
        for parent in dict.fromkeys(i.parent_type_key or "ffi.Object" for i in new_objects):
            if parent not in local:
                source = ty_map.get(parent, parent)  # ffi.Enum lives in tvm_ffi.dataclasses
                out.append(f"{syntax.import_object} {source};False;_{parent.replace('.', '_')}")
    if ("global", module_name) not in have:
        out += [f"{syntax.begin} global/{module_name}", syntax.end]
    for info in new_objects:
        parent = info.parent_type_key or "ffi.Object"
        base = parent.rpartition(".")[2] if parent in local else f"_{parent.replace('.', '_')}"
        out += [
            "",
            "",
            f'@_FFI_REG_OBJ("{info.type_key}")',
            f"class {info.type_key.rpartition('.')[2]}({base}):",
            f'    """FFI binding for `{info.type_key}`."""',
            "",
            f"    {syntax.begin} object/{info.type_key}",
            f"    {syntax.end}",
        ]
    if ("__all__", "") not in have:
        out += ["", "__all__ = [", f"    {syntax.begin} __all__", f"    {syntax.end}", "]"]
    out.append("")
    return "\n".join(out)
