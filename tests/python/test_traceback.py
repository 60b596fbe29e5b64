"""Tracebacks: native frames (function, file, line) in Python tracebacks, in
call order, on both sides of a callback; the frame limit; the frame cache;
the crash handler."""
import ctypes
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap
import traceback

import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import libinfo

KERNEL_SRC = pathlib.Path(__file__).parent / "kernels" / "deep_kernel.c"
LEVELS = ["kernel_entry", "kernel_level_one", "kernel_level_two", "kernel_level_three"]


def _line_of(text):
    """1-based line of the only source line of the kernel containing text."""
    hits = [i + 1 for i, line in enumerate(KERNEL_SRC.read_text().splitlines()) if text in line]
    assert len(hits) == 1, (text, hits)
    return hits[0]


# The call in each level, and the raise in the last.
CALL_LINES = {
    "kernel_entry": _line_of("rc = kernel_level_one("),
    "kernel_level_one": _line_of("int rc = kernel_level_two("),
    "kernel_level_two": _line_of("int rc = kernel_level_three("),
}
RAISE_LINE = _line_of('TVMFFIErrorSetRaisedFromCStr("ValueError"')
CALLBACK_LINE = _line_of("return TVMFFIFunctionCall(")


@pytest.fixture(scope="module")
def kernel_lib(tmp_path_factory):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler (cc or gcc) to build the -g test kernel")
    out = tmp_path_factory.mktemp("kernel") / "libdeep_kernel.so"
    subprocess.run([cc, "-g", "-O0", "-std=c11", "-shared", "-fPIC",
                    "-I", libinfo.find_include_path(), str(KERNEL_SRC), "-o", str(out),
                    "-L", libinfo.find_lib_dir(), "-l:" + os.path.basename(libinfo.find_libtvm_ffi()),
                    "-Wl,-rpath," + libinfo.find_lib_dir()],
                   check=True)
    return str(out)


@pytest.fixture(scope="module")
def kernel(kernel_lib):
    lib = ctypes.CDLL(kernel_lib)
    address = ctypes.cast(lib.kernel_entry, ctypes.c_void_p)
    f = tvm_ffi.get_global_func("ffi.FunctionFromExternC")(None, address, None)
    f._lib = lib  # keep the library loaded as long as the function
    # Earlier tests loaded and unloaded other libraries: start from a fresh
    # frame cache and library list.
    tvm_ffi.get_global_func("ffi.BacktraceCacheClear")()
    return f


def _frames(exc):
    return [(fs.name, fs.filename, fs.lineno) for fs in traceback.extract_tb(exc.__traceback__)]


def test_c_kernel_error_shows_its_three_levels_after_the_python_caller(kernel):
    with pytest.raises(ValueError, match="^raised three calls deep in C$") as info:
        kernel()
    frames = _frames(info.value)
    here = sys._getframe().f_code
    assert frames[0][0] == here.co_name and frames[0][1] == here.co_filename
    src = str(KERNEL_SRC.resolve())
    assert frames[1:] == [
        ("kernel_entry", src, CALL_LINES["kernel_entry"]),
        ("kernel_level_one", src, CALL_LINES["kernel_level_one"]),
        ("kernel_level_two", src, CALL_LINES["kernel_level_two"]),
        ("kernel_level_three", src, RAISE_LINE),
    ]
    # The same frames, most recent first, in the error object itself.
    bt = info.value.__tvm_ffi_error__.backtrace
    assert bt.splitlines() == [
        f'  File "{src}", line {RAISE_LINE}, in kernel_level_three',
        f'  File "{src}", line {CALL_LINES["kernel_level_two"]}, in kernel_level_two',
        f'  File "{src}", line {CALL_LINES["kernel_level_one"]}, in kernel_level_one',
        f'  File "{src}", line {CALL_LINES["kernel_entry"]}, in kernel_entry',
    ]


def test_inlined_function_is_a_frame_of_its_own(kernel):
    with pytest.raises(IndexError, match="^raised in an inlined function$") as info:
        kernel(22)
    src = str(KERNEL_SRC.resolve())
    assert _frames(info.value)[-2:] == [
        ("kernel_level_three", src, _line_of("return kernel_inlined_raise();")),
        ("kernel_inlined_raise", src, _line_of('TVMFFIErrorSetRaisedFromCStr("IndexError"')),
    ]


def test_printed_traceback_shows_kernel_source_lines(kernel):
    try:
        kernel()
    except ValueError:
        text = traceback.format_exc()
    src = str(KERNEL_SRC.resolve())
    order = [text.index(f'File "{src}", line {CALL_LINES[name]}, in {name}')
             for name in LEVELS[:3]]
    order.append(text.index(f'File "{src}", line {RAISE_LINE}, in kernel_level_three'))
    assert order == sorted(order)
    assert 'TVMFFIErrorSetRaisedFromCStr("ValueError", "raised three calls deep in C");' in text


def test_python_callback_raising_inside_c_keeps_both_sides_in_order(kernel):
    err = ZeroDivisionError("from the callback")

    def callback():
        raise err

    with pytest.raises(ZeroDivisionError) as info:
        kernel(callback)
    assert info.value is err
    names = [f[0] for f in _frames(err)]
    here = sys._getframe().f_code.co_name
    assert names == [here] + LEVELS + ["callback"]
    src = str(KERNEL_SRC.resolve())
    assert _frames(err)[4] == ("kernel_level_three", src, CALLBACK_LINE)
    # The native frames it crossed are in its ffi.Error, after the Python ones.
    ffi_err = err.__tvm_ffi_error__
    assert ffi_err.kind == "ZeroDivisionError"
    assert ffi_err.message == "from the callback"
    lines = ffi_err.backtrace.splitlines()
    assert lines[0].endswith(", in callback")
    assert [ln.rsplit(", in ", 1)[1] for ln in lines[1:]] == LEVELS[::-1]


def test_error_crossing_python_and_cpp_layers_keeps_every_frame_in_order(kernel):
    # test -> testing.apply (C++) -> outer (Python) -> kernel (C) -> inner (Python)
    err = KeyError("deepest")

    def inner():
        raise err

    def outer():
        kernel(inner)

    with pytest.raises(KeyError) as info:
        t.apply(outer)
    assert info.value is err
    names = [f[0] for f in _frames(err)]
    here = sys._getframe().f_code.co_name
    assert names[0] == here
    assert names[-6:] == ["outer"] + LEVELS + ["inner"]
    # Between the test and `outer`: the frames of testing.apply (the testing
    # library's Apply, and the tvm::ffi function wrappers that call it).
    assert len(names) >= 8
    for name in names[1:-6]:
        assert name.startswith("tvm::ffi::"), names
    assert any(name.endswith("::Apply(...)") for name in names[1:-6]), names
    # The ffi.Error keeps the cause from the first crossing.
    assert err.__tvm_ffi_error__.kind == "KeyError"


def test_ffi_error_through_a_python_callback_keeps_kind_and_gains_python_frames(kernel):
    def callback():
        kernel()

    with pytest.raises(ValueError) as info:
        t.apply(callback)
    names = [f[0] for f in _frames(info.value)]
    assert names[-5:] == ["callback"] + LEVELS
    bt = info.value.__tvm_ffi_error__.backtrace
    assert bt.index("in kernel_level_three") < bt.index("in callback")


def _run(code, **env):
    full_env = dict(os.environ, **env)
    # Under the sanitizer build, leave SIGSEGV to the process (ASan would
    # report it and abort instead).
    full_env["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":handle_segv=0").lstrip(":")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full_env,
                          capture_output=True, text=True, timeout=120)


KERNEL_SETUP = """
import ctypes, sys, traceback, tvm_ffi
lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else {lib!r})
f = tvm_ffi.get_global_func("ffi.FunctionFromExternC")(
    None, ctypes.cast(lib.kernel_entry, ctypes.c_void_p), None)
"""


@pytest.mark.parametrize("limit, expected", [("2", ["kernel_level_three", "kernel_level_two"]),
                                             ("0", [])])
def test_frame_limit_from_tvm_traceback_limit(kernel_lib, limit, expected):
    code = KERNEL_SETUP.format(lib=kernel_lib) + textwrap.dedent("""
        try:
            f()
        except ValueError as e:
            bt = e.__tvm_ffi_error__.backtrace
            print(repr([ln.rsplit(", in ", 1)[1] for ln in bt.splitlines()]))
    """)
    res = _run(code, TVM_TRACEBACK_LIMIT=limit)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == repr(expected)


def test_second_raise_from_the_same_place_hits_the_cache(kernel):
    stats = tvm_ffi.get_global_func("ffi.BacktraceCacheStats")
    clear = tvm_ffi.get_global_func("ffi.BacktraceCacheClear")
    clear()
    assert list(stats()) == [0, 0, 0]
    with pytest.raises(ValueError):
        kernel()
    hits, misses, size = stats()
    # The four kernel frames, the raise machinery and the boundary: each named once.
    assert hits == 0
    assert misses >= 5
    assert size == misses
    with pytest.raises(ValueError):
        kernel()
    assert list(stats()) == [misses, misses, size]


def test_crash_handler_is_off_by_default(kernel_lib):
    res = _run(KERNEL_SETUP.format(lib=kernel_lib) + "f(11)\n")
    assert res.returncode == -11
    assert "native backtrace" not in res.stderr


def test_crash_handler_prints_the_native_stack_on_sigsegv(kernel_lib):
    res = _run(KERNEL_SETUP.format(lib=kernel_lib) + "f(11)\n", TVM_FFI_CRASH_BACKTRACE="1")
    assert res.returncode == -11, res.stderr
    err = res.stderr
    assert "tvm_ffi: fatal signal 11 (SIGSEGV); native backtrace, most recent call first:" in err
    order = [err.index(f" in {name}+0x") for name in reversed(LEVELS)]
    assert order == sorted(order), err
    assert "libdeep_kernel.so" in err


def _native(frames):
    return [f for f in frames if not f[1].endswith(".py")]


def _check_readable_names(frames):
    for name, _, _ in _native(frames):
        assert len(name) <= 128, name
        # Template arguments are elided: every '<' opens "<...>" (or an operator).
        assert "<" not in re.sub(r"<\.\.\.>|operator<+=?", "", name), name


def test_library_frames_show_source_file_and_line():
    # A bad dtype string is refused three calls deep in core/dtype.cc.
    with pytest.raises(ValueError, match="^unknown dtype `float33x`") as info:
        tvm_ffi.dtype("float33x")
    frames = _frames(info.value)
    lib = [f for f in frames if re.search(r"(^|/)core/[a-z_]+\.cc$", f[1])]
    assert lib, frames
    assert all(line > 0 for _, _, line in lib), lib
    innermost = frames[-1]
    assert re.search(r"(^|/)core/dtype\.cc$", innermost[1]), frames
    assert innermost[0].startswith("tvm::ffi::detail::core::dtype::"), frames
    # The line is the one that raises: it names the unknown dtype.
    src = libinfo.find_source_dir()
    if src is not None:
        text = (pathlib.Path(src) / "core" / "dtype.cc").read_text().splitlines()
        assert "unknown dtype" in text[innermost[2] - 1], (innermost, text[innermost[2] - 1])
    # Nothing of CPython's own (type_call in Objects/typeobject.c) between
    # the Python caller and the extension.
    assert not any(f[1].startswith("Objects/") or f[0] == "type_call" for f in frames), frames
    _check_readable_names(frames)


def test_library_frame_names_are_short():
    def inner():
        raise KeyError("deepest")

    with pytest.raises(KeyError) as info:
        t.apply(inner)
    frames = _frames(info.value)
    native = _native(frames)
    assert native, frames
    # testing.apply's lambda, in testing/testing_core.cc, with its line.
    assert any(re.search(r"(^|/)testing/[a-z_]+\.cc$", f[1]) and f[2] > 0 for f in native), native
    _check_readable_names(frames)


def test_without_libdw_frames_are_named_from_the_symbol_tables(kernel_lib, tmp_path):
    # A libdw.so.1 first on the search path that has none of libdw's
    # functions: the library falls back to the ELF symbol tables, which name
    # hidden functions too (ThrowUnknown is in no dynamic symbol table).
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    (tmp_path / "not_libdw.c").write_text("int tvmffi_test_not_libdw;\n")
    subprocess.run([cc, "-shared", "-fPIC", str(tmp_path / "not_libdw.c"),
                    "-o", str(tmp_path / "libdw.so.1")], check=True)
    code = KERNEL_SETUP.format(lib=kernel_lib) + textwrap.dedent("""
        def show(frames):
            for fs in frames:
                print(fs.name, fs.filename, fs.lineno, sep="|")
        try:
            f()
        except ValueError as e:
            show(traceback.extract_tb(e.__traceback__)[1:])
        print("--")
        try:
            tvm_ffi.dtype("float33x")
        except ValueError as e:
            show(traceback.extract_tb(e.__traceback__)[-1:])
    """)
    search = os.pathsep.join(p for p in [str(tmp_path), os.environ.get("LD_LIBRARY_PATH")] if p)
    res = _run(code, LD_LIBRARY_PATH=search)
    assert res.returncode == 0, res.stderr
    kernel_rows, dtype_rows = [[ln.split("|") for ln in part.strip().splitlines()]
                               for part in res.stdout.split("--\n")]
    assert kernel_rows == [[name, kernel_lib, "0"] for name in LEVELS]
    [[name, filename, line]] = dtype_rows
    assert name == "tvm::ffi::detail::core::dtype::(anonymous namespace)::ThrowUnknown(...)"
    assert os.path.basename(filename) == "libtvm_ffi.so" and line == "0"
