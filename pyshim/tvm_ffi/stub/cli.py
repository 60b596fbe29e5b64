"""``tvm-ffi-stubgen``: fills the stub blocks of the given files from the loaded FFI registry.

Stages: (1) read every ``ty-map`` directive; (2) with ``--init-*``, write the
missing ``_ffi_api.py``/``__init__.py`` of each prefix; (3) fill every block
of every file. Exit status: 0, 1 when ``--check`` finds a stale file, 2 when
a file could not be processed.
"""
from __future__ import annotations

import argparse
import ctypes
import importlib
import sys
import traceback
from pathlib import Path
from typing import Any

from . import consts as C
from .file_utils import CodeBlock, FileInfo, collect_files, syntax_for
from .generator import generator_names, get_generator
from .layout import classify, write_coverage_report
from .lib_state import (
    collect_global_funcs,
    collect_type_keys,
    object_info_from_type_key,
    toposort_objects,
)
from .utils import FuncInfo, InitConfig, Options


def __main__(argv: list[str] | None = None) -> int:
    opt = _parse_args(argv)
    generator = get_generator(opt.target)
    for name in opt.imports:
        importlib.import_module(name)
    dlls = [ctypes.CDLL(path) for path in opt.dlls]
    files = collect_files([Path(f) for f in opt.files], generator.source_exts)
    global_funcs = collect_global_funcs()
    init_path: Path | None = None
    if opt.files:
        init_path = Path(opt.files[0]).resolve()
        if init_path.is_file():
            init_path = init_path.parent

    ty_map = generator.default_ty_map()
    failed = 0
    stale = 0
    broken: set[Path] = set()  # a file whose directives are bad is not rewritten
    for file in files:
        try:
            _stage_1(file, ty_map)
        except Exception:
            failed += 1
            broken.add(file.path)
            _report_failure(file.path)
    if opt.init is not None:
        if init_path is None:
            print(f"{C.TERM_RED}--init-* needs a folder among the files{C.TERM_RESET}")
            return 2
        generated = _stage_2(files, ty_map, opt.init, init_path, global_funcs, generator)
        generator.finalize_init(init_path, generated)
    before = {f.path: generator.check_view(f.code_blocks) for f in files} if opt.check else {}
    failed += _roll_out_prefixes([f for f in files if f.path not in broken], generator)
    declared = {c.param: f.path for f in files for c in f.code_blocks if c.kind == "object"}
    for file in files:
        if file.path in broken:
            continue
        if opt.verbose:
            print(f"{C.TERM_CYAN}[File] {file.path}{C.TERM_RESET}")
        try:
            changed = _stage_3(file, opt, ty_map, global_funcs, generator, declared)
        except Exception:
            failed += 1
            _report_failure(file.path)
            continue
        if opt.check and changed and generator.check_view(file.code_blocks) != before[file.path]:
            stale += 1
            print(f"{C.TERM_YELLOW}[Stale] {file.path}{C.TERM_RESET}")
    if opt.coverage_out:
        infos = {
            key: object_info_from_type_key(key)
            for keys in collect_type_keys().values()
            for key in keys
        }
        write_coverage_report(Path(opt.coverage_out), classify(infos))
    del dlls
    return 2 if failed else 1 if stale else 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(__main__())


def _report_failure(path: Path) -> None:
    print(f'{C.TERM_RED}[Failed] File "{path}": {traceback.format_exc()}{C.TERM_RESET}')


def _stage_1(file: FileInfo, ty_map: dict[str, str]) -> None:
    """Adds the file's ``ty-map: A -> B`` directives to ``ty_map``."""
    for code in file.code_blocks:
        if code.kind != "directive" or code.param[0] != "ty-map":
            continue
        lhs, sep, rhs = code.param[1].partition("->")
        if not sep or not lhs.strip() or not rhs.strip() or "->" in rhs:
            raise ValueError(
                f"Invalid ty-map at line {code.lineno_start}: {code.param[1]!r} "
                "(expected `A.B -> C.D`)"
            )
        ty_map[lhs.strip()] = rhs.strip()


def _stage_2(
    files: list[FileInfo],
    ty_map: dict[str, str],
    init_cfg: InitConfig,
    init_path: Path,
    global_funcs: dict[str, list[FuncInfo]],
    generator: Any,
) -> set[str]:
    """Writes, under ``init_path/<prefix as folders>``, the API file and package
    entry of each prefix (``init_cfg.prefix`` and below) whose functions or
    types no file of the run covers yet; the new files join ``files``."""
    defined_funcs = {c.param[0] for f in files for c in f.code_blocks if c.kind == "global"}
    defined_objs = {c.param for f in files for c in f.code_blocks if c.kind == "object"}
    skipped = {
        c.param[1].strip()
        for f in files
        for c in f.code_blocks
        if c.kind == "directive" and c.param[0] == "skip"
    }
    root = init_cfg.prefix.strip().rstrip(".")
    prefixes = collect_type_keys()
    for prefix in global_funcs:
        prefixes.setdefault(prefix, [])
    generated: set[str] = set()
    for prefix, keys in sorted(prefixes.items()):
        if root and not (prefix == root or prefix.startswith(root + ".")):
            continue
        funcs = [] if prefix in defined_funcs else global_funcs.get(prefix, [])
        if not getattr(generator, "emits_functions", True):
            funcs = []
        objs = sorted(
            k for k in set(keys) - defined_objs - skipped if not generator.is_builtin(k)
        )
        infos = toposort_objects(objs)
        if not funcs and not infos:
            continue
        generated.add(prefix)
        folder = init_path / prefix.replace(".", "/")
        folder.mkdir(parents=True, exist_ok=True)
        api = _find_or_add(files, folder / generator.api_filename())
        with api.path.open("a", encoding="utf-8") as out:
            out.write(generator.generate_api_file(
                api.code_blocks, ty_map, prefix, infos, init_cfg, is_root=prefix == root
            ))
        api.reload()
        entry = _find_or_add(files, folder / generator.package_entry_filename())
        text = generator.generate_package_entry(entry.code_blocks, prefix)
        if text:
            with entry.path.open("a", encoding="utf-8") as out:
                out.write(text)
            entry.reload()
    return generated


def _find_or_add(files: list[FileInfo], path: Path) -> FileInfo:
    path = path.resolve()
    for file in files:
        if file.path == path:
            return file
    if path.exists():
        info = FileInfo.from_file(path, include_empty=True)
        if info is None:
            raise ValueError(f"{path} is marked skip-file; --init cannot write to it")
    else:
        path.touch()
        info = FileInfo(path=path, lines=(), code_blocks=[], syntax=syntax_for(path))
    files.append(info)
    return info


def _stage_3(
    file: FileInfo,
    opt: Options,
    ty_map: dict[str, str],
    global_funcs: dict[str, list[FuncInfo]],
    generator: Any,
    declared: Any = None,
) -> bool:
    """Fills every block of ``file``; writes it unless ``opt.dry_run``.
    Returns whether the file's text changed."""
    imports = generator.new_imports()
    for code in file.code_blocks:
        if code.kind != "directive":
            continue
        name, payload = code.param
        if name in C.PIPELINE_DIRECTIVE_KINDS:
            continue
        if name not in generator.directive_kinds:
            raise ValueError(f"Unknown directive `{name}` at line {code.lineno_start}")
        generator.add_directive(imports, name, payload, code.lineno_start)
    deferred = generator.process(file, opt, ty_map, global_funcs, imports, declared=declared)
    changed = file.update(verbose=opt.verbose, dry_run=opt.dry_run)
    if deferred:
        raise ValueError(deferred)
    return changed


def _roll_out_prefixes(files: list[FileInfo], generator: Any) -> int:
    """Each ``prefix: <namespace>`` directive makes its file hold every registered type of
    that namespace (less ``skip``-ped ones and builtins): blocks of types no longer
    registered are removed, missing ones added after the last block, parents first.
    Returns how many files failed (a namespace claimed by two files fails both)."""
    owners: dict[str, list[FileInfo]] = {}
    failed: set[Path] = set()
    for file in files:
        for code in file.code_blocks:
            if code.kind == "directive" and code.param[0] == "prefix":
                namespace = code.param[1].strip().rstrip(".")
                if not namespace or any(c.isspace() for c in namespace):
                    print(f"{C.TERM_RED}[Failed] File \"{file.path}\": invalid prefix at line "
                          f"{code.lineno_start}: {code.param[1]!r} (expected `<namespace>`)"
                          f"{C.TERM_RESET}")
                    failed.add(file.path)
                    continue
                owners.setdefault(namespace, []).append(file)
    for namespace, claimants in owners.items():
        if len(claimants) > 1:
            where = ", ".join(str(f.path) for f in claimants)
            print(f"{C.TERM_RED}[Failed] prefix `{namespace}` is declared by {where}{C.TERM_RESET}")
            failed.update(f.path for f in claimants)
    if not owners:
        return len(failed)
    registered = collect_type_keys()
    have = {c.param for f in files for c in f.code_blocks if c.kind == "object"}
    skipped = {
        c.param[1].strip()
        for f in files
        for c in f.code_blocks
        if c.kind == "directive" and c.param[0] == "skip"
    }
    for namespace, (file, *others) in owners.items():
        if others or file.path in failed:
            continue
        keys = set(registered.get(namespace, []))
        kept = []
        for code in file.code_blocks:
            gone = (
                code.kind == "object"
                and code.param.rpartition(".")[0] == namespace
                and code.param not in keys
            )
            if gone:
                print(f"{C.TERM_YELLOW}[Removed] {file.path}: `object/{code.param}` "
                      f"(line {code.lineno_start}): the type is no longer registered"
                      f"{C.TERM_RESET}")
                have.discard(code.param)
                continue
            kept.append(code)
        file.code_blocks = kept
        new = sorted(k for k in keys - have - skipped if not generator.is_builtin(k))
        syntax = file.syntax
        if not any(c.kind == "import-section" for c in kept):
            at = next(
                i + 1 for i, c in enumerate(kept)
                if c.kind == "directive" and c.param[0] == "prefix"
            )
            kept.insert(at, CodeBlock(
                "import-section", "", 0, 0, [f"{syntax.begin} import-section", syntax.end]
            ))
        last = max(i for i, c in enumerate(kept) if c.kind not in (None, "directive"))
        added: list[CodeBlock] = []
        for info in toposort_objects(new):
            added.append(CodeBlock(None, "", 0, 0, [""]))
            added.append(CodeBlock(
                "object", info.type_key, 0, 0,
                [f"{syntax.begin} object/{info.type_key}", syntax.end],
            ))
            have.add(info.type_key)
        kept[last + 1:last + 1] = added
    return len(failed)


def _split(text: str) -> list[str]:
    return [part for part in (p.strip() for p in text.split(";")) if part]


def _parse_args(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen",
        description="Fill `tvm-ffi-stubgen(begin): ...` blocks of the given files or folders "
        "with type stubs of the FFI functions and types the loaded libraries register; "
        "with --init-*, first write the missing _ffi_api.py/__init__.py of each prefix.",
    )
    parser.add_argument("--imports", type=str, default="",
                        help="Python modules to import first, separated by `;`")
    parser.add_argument("--dlls", type=str, default="",
                        help="shared libraries to load first, separated by `;`")
    parser.add_argument("--init-pypkg", type=str, default="",
                        help="with --init-*: the Python package that loads the library")
    parser.add_argument("--init-lib", type=str, default="",
                        help="with --init-*: the library's build target name")
    parser.add_argument("--init-prefix", type=str, default="",
                        help="with --init-*: the registry prefix to generate files for")
    parser.add_argument("--indent", type=int, default=4, help="spaces per indent level")
    parser.add_argument("files", nargs="*", help="files or folders to process")
    parser.add_argument("--target", type=str, default="python", choices=generator_names(),
                        help="the language to generate")
    parser.add_argument("--verbose", action="store_true", help="print each file")
    parser.add_argument("--dry-run", action="store_true", help="write nothing")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a file's blocks are out of date")
    parser.add_argument("--coverage-out", type=str, default=None,
                        help="write a JSON report of which registered types have a fully "
                        "known native layout (tvm_ffi.stub.layout); no file needed then")
    args = parser.parse_args(argv)
    init = None
    if args.init_pypkg or args.init_lib or args.init_prefix:
        if not (args.init_pypkg and args.init_lib and args.init_prefix):
            parser.error("--init-pypkg, --init-lib and --init-prefix go together")
        init = InitConfig(pkg=args.init_pypkg, shared_target=args.init_lib, prefix=args.init_prefix)
    if not args.files and not args.coverage_out:
        parser.error("give at least one file or folder")
    if args.check and init is not None:
        parser.error("--check does not go with --init-*")
    return Options(
        imports=_split(args.imports),
        dlls=_split(args.dlls),
        init=init,
        indent=args.indent,
        files=list(args.files),
        verbose=args.verbose,
        dry_run=args.dry_run or args.check,
        check=args.check,
        target=args.target,
        coverage_out=args.coverage_out,
    )


if __name__ == "__main__":
    main()
