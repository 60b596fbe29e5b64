"""tvm_ffi.stub / tvm-ffi-stubgen: marker parsing, and stub blocks filled from the live registry."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tvm_ffi.libinfo
import tvm_ffi.testing  # noqa: F401  (registers testing.* functions and types)
from tvm_ffi.stub.cli import __main__ as stubgen
from tvm_ffi.stub.file_utils import CodeBlock, FileInfo

BEGIN = "# tvm-ffi-stubgen(begin):"
END = "# tvm-ffi-stubgen(end)"


def _write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _block(path: Path, spec: str) -> list[str]:
    """The lines strictly between the begin marker of ``spec`` and its end marker."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"{BEGIN} {spec}")
    stop = next(i for i in range(start, len(lines)) if lines[i].strip() == END)
    return [line.strip() for line in lines[start + 1:stop]]


def _demo(tmp_path: Path) -> Path:
    return _write(
        tmp_path / "demo_stubs.py",
        f"{BEGIN} import-section",
        END,
        "from tvm_ffi import Object",
        "",
        f"{BEGIN} global/testing",
        END,
        "",
        "",
        "class Derived(Object):",
        f"    {BEGIN} object/testing.TestCxxClassDerived",
        f"    {END}",
        "",
        "",
        "__all__ = [",
        f"    {BEGIN} __all__",
        f"    {END}",
        "]",
    )


# -- parsing ---------------------------------------------------------------


def test_parse_errors_name_the_line(tmp_path):
    cases = {
        "Nested stub not permitted at line 2": [f"{BEGIN} global/a", f"{BEGIN} global/b"],
        "Unmatched `end` marker at line 2": ["x = 1", END],
        "Unclosed stub block starting at line 1": [f"{BEGIN} global/a", "x = 1"],
        "Unknown stub type at line 1": [f"{BEGIN} bogus/a", END],
        "Unknown stub type at line 3": ["", "", "# tvm-ffi-stubgen(two words): x"],
    }
    for message, lines in cases.items():
        with pytest.raises(ValueError, match=message):
            FileInfo.from_file(_write(tmp_path / "bad.py", *lines))


def test_parse_block_params_and_round_trip(tmp_path):
    path = _write(
        tmp_path / "m.py",
        "a = 1",
        f"  {BEGIN} global/my.pkg@.registry",
        "  stale = 2",
        f"  {END}",
        "# tvm-ffi-stubgen(ty-map):  x.Y -> z.W ",
        f"{BEGIN} object/my.pkg.T",
        END,
    )
    info = FileInfo.from_file(path)
    assert [b.kind for b in info.code_blocks] == [None, "global", "directive", "object"]
    glob = info.code_blocks[1]
    assert glob.param == ("my.pkg", ".registry")
    assert (glob.lineno_start, glob.lineno_end, glob.indent) == (2, 4, 2)
    assert info.code_blocks[2].param == ("ty-map", "x.Y -> z.W")
    assert info.code_blocks[3].param == "my.pkg.T"
    # Nothing changed: nothing is written.
    assert info.update(verbose=False, dry_run=False) is False
    assert CodeBlock.from_begin_line(1, f"{BEGIN} import-section", info.syntax).kind == "import-section"


def test_files_without_markers_or_with_skip_file_are_ignored(tmp_path):
    assert FileInfo.from_file(_write(tmp_path / "plain.py", "x = 1")) is None
    skipped = _write(tmp_path / "skip.py", "# tvm-ffi-stubgen(skip-file)", f"{BEGIN} global/testing", END)
    assert FileInfo.from_file(skipped) is None
    assert stubgen([str(skipped)]) == 0
    assert skipped.read_text(encoding="utf-8").count("\n") == 3


# -- generation from the registry --------------------------------------------


def test_global_block_lists_the_prefix_functions_and_binds_them(tmp_path, monkeypatch):
    path = _demo(tmp_path)
    assert stubgen([str(path)]) == 0
    body = _block(path, "global/testing")
    assert body[:3] == ["# fmt: off", '_FFI_INIT_FUNC("testing", __name__)', "if TYPE_CHECKING:"]
    assert "def add_one(_0: int, /) -> int: ..." in body
    assert "def as_list(_0: Sequence[Any], /) -> MutableSequence[Any]: ..." in body
    assert body[-1] == "# fmt: on"
    imports = _block(path, "import-section")
    assert "from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC" in imports
    assert "from typing import TYPE_CHECKING" in imports
    # The generated module really binds the registry's functions.
    spec = importlib.util.spec_from_file_location("demo_stubs", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "demo_stubs", module)  # init_ffi_api looks it up there
    spec.loader.exec_module(module)
    assert module.add_one(41) == 42
    assert "add_one" in module.__all__ and "TestCxxClassDerived" in module.__all__


def test_object_block_lists_own_fields_only(tmp_path):
    path = _demo(tmp_path)
    assert stubgen([str(path)]) == 0
    body = _block(path, "object/testing.TestCxxClassDerived")
    assert body[:3] == ["# fmt: off", "v_f64: float", "v_f32: float"]
    assert "v_i64: int" not in body  # the parent's field belongs to the parent's block
    assert "def __init__(self, v_i64: int, v_i32: int, v_f64: float, v_f32: float = ...) -> None: ..." in body
    # Generated lines keep the marker's indentation.
    text = path.read_text(encoding="utf-8")
    assert "\n    v_f64: float\n" in text


def test_second_run_changes_nothing_and_check_reports_stale_files(tmp_path):
    path = _demo(tmp_path)
    assert stubgen([str(path)]) == 0
    first = path.read_text(encoding="utf-8")
    assert stubgen([str(path)]) == 0
    assert path.read_text(encoding="utf-8") == first
    assert stubgen(["--check", str(path)]) == 0
    edited = first.replace("def add_one(_0: int, /) -> int: ...", "def add_one() -> str: ...")
    assert edited != first
    path.write_text(edited, encoding="utf-8")
    assert stubgen(["--check", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == edited  # --check writes nothing


def test_ty_map_directive_renames_a_type_and_imports_it(tmp_path):
    path = _write(
        tmp_path / "mapped.py",
        "# tvm-ffi-stubgen(ty-map): Object -> mypkg.base.Base",
        f"{BEGIN} import-section",
        END,
        f"{BEGIN} global/testing",
        END,
    )
    assert stubgen([str(path)]) == 0
    assert "def make_c_int_pair(_0: int, _1: int, /) -> Base: ..." in _block(path, "global/testing")
    assert "from mypkg.base import Base" in _block(path, "import-section")


def test_bad_files_exit_2_and_stay_untouched(tmp_path):
    unknown = _write(tmp_path / "unknown.py", "# tvm-ffi-stubgen(colour): red", f"{BEGIN} global/testing", END)
    bad_map = _write(tmp_path / "badmap.py", "# tvm-ffi-stubgen(ty-map): A = B", f"{BEGIN} global/testing", END)
    before = {p: p.read_text(encoding="utf-8") for p in (unknown, bad_map)}
    assert stubgen([str(unknown)]) == 2
    assert stubgen([str(bad_map)]) == 2
    for p, text in before.items():
        assert p.read_text(encoding="utf-8") == text


def test_init_writes_api_and_package_files(tmp_path):
    assert stubgen([
        "--init-pypkg", "my-pkg", "--init-lib", "my_lib", "--init-prefix", "testing", str(tmp_path),
    ]) == 0
    api = (tmp_path / "testing" / "_ffi_api.py").read_text(encoding="utf-8")
    assert 'LIB = _FFI_LOAD_LIB("my-pkg", "my_lib")' in api
    assert "def add_one(_0: int, /) -> int: ..." in api
    assert '@_FFI_REG_OBJ("testing.TestCxxClassDerived")' in api
    assert "class TestCxxClassDerived(TestCxxClassBase):" in api  # parent defined first, same file
    assert api.index("class TestCxxClassBase(") < api.index("class TestCxxClassDerived(")
    init = (tmp_path / "testing" / "__init__.py").read_text(encoding="utf-8")
    assert "from ._ffi_api import *  # noqa: F403" in init
    # A second --init adds nothing: every block now exists.
    assert stubgen([
        "--init-pypkg", "my-pkg", "--init-lib", "my_lib", "--init-prefix", "testing", str(tmp_path),
    ]) == 0
    assert (tmp_path / "testing" / "_ffi_api.py").read_text(encoding="utf-8") == api


def test_command_line_errors():
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "tvm_ffi.stub.cli", *args],
            capture_output=True, text=True, check=False,
        )

    no_files = run()
    assert no_files.returncode == 2
    assert "give at least one file or folder" in no_files.stderr
    partial = run("--init-pypkg", "p", ".")
    assert partial.returncode == 2
    assert "--init-pypkg, --init-lib and --init-prefix go together" in partial.stderr
    target = run("--target", "zig", ".")
    assert target.returncode == 2
    assert "invalid choice: 'zig'" in target.stderr


# -- native layout classification (tvm_ffi.stub.layout) ----------------------


def _layout_infos():
    from tvm_ffi.core import TypeSchema
    from tvm_ffi.stub.utils import NamedTypeSchema, ObjectInfo

    def field(name, offset, size, alignment=None):
        return NamedTypeSchema(name, TypeSchema("int"), size=size, alignment=alignment or size, offset=offset)

    def info(key, parent, total, *fields):
        return ObjectInfo(fields=list(fields), methods=[], type_key=key, parent_type_key=parent,
                          ancestors=[] if parent is None else ["ffi.Object"], total_size=total)

    return {
        "ffi.Object": info("ffi.Object", None, 24),
        # int64 @24, int32 @32, 4 bytes of tail padding to the 8-byte alignment.
        "t.Base": info("t.Base", "ffi.Object", 40, field("a", 24, 8), field("b", 32, 4)),
        # int64 @24, then 8 bytes no field explains, then int32 @40.
        "t.Hidden": info("t.Hidden", "ffi.Object", 48, field("a", 24, 8), field("b", 40, 4)),
        "t.Overlap": info("t.Overlap", "t.Base", 48, field("c", 36, 4)),
        "t.NoMeta": info("t.NoMeta", "ffi.Object", None),
        "t.UnderNoMeta": info("t.UnderNoMeta", "t.NoMeta", 48, field("x", 40, 8)),
    }


def test_layout_verdicts_explain_every_byte():
    from tvm_ffi.stub.layout import ByteRange, FieldBytes, classify

    verdicts = classify(_layout_infos(), forced_opaque={"t.NoMeta"})
    base = verdicts["t.Base"]
    assert (base.verdict, base.reason, base.own_bytes, base.alignment) == ("complete", None, ByteRange(24, 40), 8)
    assert base.padding == [ByteRange(36, 40)] and base.uncovered == []
    hidden = verdicts["t.Hidden"]
    assert (hidden.reason, hidden.uncovered, hidden.padding) == (
        "uncovered-bytes", [ByteRange(32, 40)], [ByteRange(44, 48)])
    assert hidden.fields == [FieldBytes("a", 24, 8, 8), FieldBytes("b", 40, 4, 4)]
    assert verdicts["t.Overlap"].reason == "field-overlap"
    assert verdicts["t.Overlap"].detail == "field 'c' at [36, 40) starts before byte 40"
    # A missing size beats the directive; the child names the parent and its reason.
    assert verdicts["t.NoMeta"].reason == "layout-unknown"
    assert verdicts["t.UnderNoMeta"].detail == "parent 't.NoMeta' is opaque (layout-unknown)"
    with pytest.raises(KeyError, match="'t.Base'"):
        classify({"t.Overlap": _layout_infos()["t.Overlap"]})


def test_coverage_out_needs_no_files(tmp_path):
    import json

    out = tmp_path / "coverage.json"
    assert stubgen(["--coverage-out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert list(report) == sorted(report)
    assert report["ffi.Object"]["verdict"] == "complete"
    # Only object types: values held in the Any cell (None, bool, Device,
    # small strings) have no header and were once reported as roots.
    assert "bool" not in report and "Device" not in report and "ffi.SmallStr" not in report
    assert [key for key, entry in report.items() if entry["parent"] is None] == ["ffi.Object"]
    assert report["testing.TestCxxClassDerived"]["parent"] == "testing.TestCxxClassBase"
    assert report["testing.TestCxxClassDerived"]["ancestors"] == ["ffi.Object", "testing.TestCxxClassBase"]


def test_init_package_imports_and_binds_in_a_fresh_process(tmp_path):
    """--init over the testing library, then the generated package is imported
    (in a new process, so its classes do not replace this session's)."""
    lib = tvm_ffi.libinfo.find_libtvm_ffi_testing()
    gen = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.stub.cli", "--dlls", lib, "--init-pypkg", "tvm_ffi",
         "--init-lib", "tvm_ffi_testing", "--init-prefix", "testing", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )
    assert gen.returncode == 0, gen.stdout + gen.stderr
    api = (tmp_path / "testing" / "_ffi_api.py").read_text(encoding="utf-8")
    # Positional parameters with defaults come after the required ones (else: SyntaxError).
    assert ("def __init__(self, parent_required: int, child_required: int, "
            "parent_default: int = ..., *, child_kw_only: int) -> None: ...") in api
    run = subprocess.run(
        [sys.executable, "-c",
         "import testing; assert testing.add_one(1) == 2; "
         "assert testing.TestCxxClassBase.__module__ == 'testing._ffi_api'; "
         "assert 'TestCxxClassDerived' in testing.__all__; print('ok')"],
        capture_output=True, text=True, check=False, cwd=tmp_path,
        # tvm_ffi from wherever this session has it (a build tree's relative path too).
        env={**os.environ, "PYTHONPATH": os.pathsep.join(
            [os.path.dirname(os.path.dirname(os.path.abspath(tvm_ffi.__file__))), os.environ.get("PYTHONPATH", "")])},
    )
    assert run.stdout.strip() == "ok", run.stderr
    check = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.stub.cli", "--check", "--dlls", lib, str(tmp_path)],
        capture_output=True, text=True, check=False,
    )
    assert check.returncode == 0, check.stdout


def test_registry_bytes_no_field_explains():
    """A member the registry never saw, and a vptr, show as exact byte ranges."""
    import gc

    from tvm_ffi.core import _lookup_or_register_type_info_from_type_key as type_info
    from tvm_ffi.stub.layout import ByteRange, FieldBytes, classify
    from tvm_ffi.stub.lib_state import object_info_from_type_key

    keys = ["ffi.Object", "testing.TestCxxClassHiddenField", "testing.TestCxxClassPolymorphic"]
    verdicts = classify({k: object_info_from_type_key(k) for k in keys})
    hidden = verdicts["testing.TestCxxClassHiddenField"]
    assert (hidden.reason, hidden.total_size) == ("uncovered-bytes", 48)
    assert hidden.fields == [FieldBytes("v_i64", 24, 8, 8), FieldBytes("v_i32", 40, 4, 4)]
    assert hidden.uncovered == [ByteRange(32, 40)] and hidden.padding == [ByteRange(44, 48)]
    poly = verdicts["testing.TestCxxClassPolymorphic"]
    assert (poly.reason, poly.total_size) == ("uncovered-bytes", 40)  # vptr + header + int64
    assert poly.fields == [FieldBytes("v_i64", 24, 8, 8)] and poly.uncovered == [ByteRange(32, 40)]
    # Both are ordinary objects otherwise: made, read and called through the registry.
    init = {m.name: m for m in type_info("testing.TestCxxClassPolymorphic").methods}["__ffi_init__"]
    obj = init.func(21)
    assert obj.v_i64 == 21 and obj.twice() == 42  # a virtual call on the object
    init = {m.name: m for m in type_info("testing.TestCxxClassHiddenField").methods}["__ffi_init__"]
    obj = init.func(1, 2)
    assert (obj.v_i64, obj.v_i32) == (1, 2)
    del obj
    gc.collect()
