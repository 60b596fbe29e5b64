"""Modules: load_module, system_lib, Module, library lifetime, and tvm_ffi.cpp.

The kernel libraries are compiled here with tvm_ffi.cpp (so the tests run
from an installed wheel): tests/module/kernel.cc with the tvm::ffi C++ API, and
tests/module/upstream_kernel.c against apache-tvm-ffi's own C header.
"""
import gc
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tvm_ffi
import tvm_ffi.cpp

np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[2]
MODULE_DIR = ROOT / "tests" / "module"
UPSTREAM = ROOT / "third_party" / "upstream"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp("tvm_ffi_cache")
    old = os.environ.get("TVM_FFI_CACHE_DIR")
    os.environ["TVM_FFI_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["TVM_FFI_CACHE_DIR"]
    else:
        os.environ["TVM_FFI_CACHE_DIR"] = old


@pytest.fixture(scope="module")
def kernel_path(cache_dir):
    return tvm_ffi.cpp.build("module_test_kernel", sources=[str(MODULE_DIR / "kernel.cc")])


@pytest.fixture(scope="module")
def kernel(kernel_path):
    return tvm_ffi.load_module(kernel_path)


def is_mapped(path):
    real = os.path.realpath(path)
    with open("/proc/self/maps") as maps:
        return any(line.rstrip("\n").endswith(real) for line in maps)


def test_load_module_and_call(kernel, kernel_path):
    assert isinstance(kernel, tvm_ffi.Module)
    assert kernel.kind == "library"
    assert kernel.add_one(41) == 42
    assert kernel["greet"]("you") == "hello, you"
    assert kernel.get_function("mul2")(1.5) == 3.0
    assert "add_one" in kernel and "no_such_function" not in kernel and 3 not in kernel
    assert kernel.implements_function("greet")
    assert kernel.imports == []
    assert kernel.is_runnable() and kernel.is_binary_serializable()
    assert not kernel.is_compilation_exportable()
    assert repr(kernel) == f'<tvm_ffi.Module library "{kernel_path}">'
    # Attribute access caches the function on the instance.
    assert kernel.add_one is kernel.add_one


def test_tensor_argument_from_numpy(kernel):
    x = np.array([1.0, 2.0, 3.5], dtype="float32")
    kernel.add_one_tensor(x)
    np.testing.assert_array_equal(x, np.array([2.0, 3.0, 4.5], dtype="float32"))
    with pytest.raises(TypeError, match="add_one_tensor: expected a 1-D float32 tensor"):
        kernel.add_one_tensor(np.zeros(3, dtype="int32"))


def test_metadata_and_doc(kernel):
    assert kernel.get_function_metadata("add_one") == {
        "type_schema": '{"type":"ffi.Function","named_args":{"return":[{"type":"int"}],'
        '"params":[{"type":"int"}]}}'
    }
    assert kernel.get_function_doc("add_one") == "Returns x + 1.\nFor tests."
    assert kernel.get_function_doc("greet") is None
    assert kernel.get_function_metadata("no_such_function") is None


def test_missing_function_names_function_and_library(kernel, kernel_path):
    message = f"Module has no function 'nope' (library \"{kernel_path}\")"
    with pytest.raises(AttributeError) as info:
        kernel.nope
    assert str(info.value) == message
    with pytest.raises(AttributeError) as info:
        kernel["nope"]
    assert str(info.value) == message
    with pytest.raises(AttributeError) as info:
        kernel.get_function("nope", query_imports=True)
    assert str(info.value) == message
    with pytest.raises(TypeError, match="function name must be a str, got int"):
        kernel[1]
    assert not hasattr(kernel, "__array_interface__")


def test_errors_from_the_library(kernel):
    with pytest.raises(ValueError, match="^kernel failed with code 3$"):
        kernel.fail(3)
    # The message of tvm::ffi's typed-function conversion (upstream's words).
    with pytest.raises(TypeError) as info:
        kernel.add_one("x")
    assert str(info.value) == (
        "Mismatched type on argument #0 when calling: `add_one(0: int) -> int`. "
        "Expected `int` but got `ffi.SmallStr`"
    )


def test_load_errors_name_the_path(tmp_path):
    missing = str(tmp_path / "libmissing.so")
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.load_module(missing)
    assert str(info.value) == (
        f'cannot load the shared library "{missing}": {missing}: '
        "cannot open shared object file: No such file or directory"
    )

    text = tmp_path / "not_a_library.so"
    text.write_text("#" * 100 + " not an ELF file " + "#" * 100)
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.load_module(text)  # a PathLike works too
    assert str(info.value).startswith(f'cannot load the shared library "{text}": {text}: ')
    assert "invalid ELF header" in str(info.value)

    with pytest.raises(RuntimeError, match="the file name has no extension"):
        tvm_ffi.load_module(tmp_path / "kernel")


def test_load_refuses_a_path_with_a_nul_byte(kernel_path):
    # dlopen would stop at the NUL: "\0.so" used to open the main program.
    with pytest.raises(ValueError) as info:
        tvm_ffi.load_module("\x00.so")
    assert str(info.value) == 'cannot load "\\0.so": the path holds a NUL byte'
    with pytest.raises(ValueError) as info:
        tvm_ffi.load_module(str(kernel_path) + "\x00.so")
    assert str(info.value) == f'cannot load "{kernel_path}\\0.so": the path holds a NUL byte'



def test_result_of_unknown_type_index_is_refused(kernel):
    # kernel.cc's bad_value returns type index 9999; this crashed the interpreter.
    with pytest.raises(ValueError) as info:
        kernel.bad_value()
    assert str(info.value) == (
        "a function of a module returned a value that has unknown type index 9999"
    )


def test_loading_twice_keeps_one_library_context(kernel_path):
    tvm_ffi.register_global_func(
        "testing.py_module_ctx_target", lambda x: x + 5, override=True
    )
    first = tvm_ffi.load_module(kernel_path, keep_module_alive=False)
    second = tvm_ffi.load_module(kernel_path, keep_module_alive=False)
    ctx = first.library_ctx()
    assert second.library_ctx() == ctx
    call = first.call_from_imports
    del second
    gc.collect()
    # The newer module is gone; the context it used to be is not.
    assert call("testing.py_module_ctx_target", 1) == 6
    assert first.library_ctx() == ctx


def test_library_closes_when_nothing_uses_it(kernel_path, tmp_path):
    # A file of its own: the other tests pin theirs with keep_module_alive.
    path = str(tmp_path / "liblifetime_kernel.so")
    shutil.copyfile(kernel_path, path)
    assert not is_mapped(path)
    mod = tvm_ffi.load_module(path, keep_module_alive=False)
    assert is_mapped(path)
    f = mod.add_one
    del mod
    gc.collect()
    assert is_mapped(path)  # the function keeps the library loaded
    assert f(1) == 2
    del f
    gc.collect()
    assert not is_mapped(path)

    # keep_module_alive pins it for the process.
    mod = tvm_ffi.load_module(path)
    del mod
    gc.collect()
    assert is_mapped(path)


def test_system_lib_and_imports(kernel):
    sys_lib = tvm_ffi.system_lib("pytest_module.")
    assert isinstance(sys_lib, tvm_ffi.Module) and sys_lib.kind == "library"
    assert "anything" not in sys_lib
    with pytest.raises(AttributeError, match=r"\(the system library \(prefix \"pytest_module.\"\)\)"):
        sys_lib.anything
    other = tvm_ffi.system_lib("pytest_module_other.")
    sys_lib.import_module(other)
    assert [m.same_as(other) for m in sys_lib.imports] == [True]
    with pytest.raises(RuntimeError, match="it would make a cycle of imports"):
        other.import_module(sys_lib)
    sys_lib.clear_imports()
    assert sys_lib.imports == []


def test_lookup_from_imports_reaches_globals(kernel):
    tvm_ffi.register_global_func("testing.pytest_module_triple", lambda x: 3 * x, override=True)
    assert kernel.call_from_imports("testing.pytest_module_triple", 5) == 15
    with pytest.raises(RuntimeError, match="cannot find function `testing.pytest_absent`"):
        kernel.call_from_imports("testing.pytest_absent", 5)


def upstream_kernel(tmp_path):
    header = UPSTREAM / "tvm_ffi" / "tvm" / "ffi" / "c_api.h"
    if not header.exists():
        if os.environ.get("TVM_FFI_REQUIRE_UPSTREAM"):
            pytest.fail(f"{header} is missing; run bash .ci/fetch-upstream.sh")
        pytest.skip("needs the upstream headers (bash .ci/fetch-upstream.sh)")
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler {cc!r}")
    lib = tvm_ffi.libinfo.find_libtvm_ffi()
    out = tmp_path / "libupstream_kernel.so"
    # Only upstream's headers: none of ours.
    subprocess.run(
        [cc, "-std=c11", "-shared", "-fPIC", f"-I{UPSTREAM / 'tvm_ffi'}",
         f"-I{UPSTREAM / 'dlpack'}", str(MODULE_DIR / "upstream_kernel.c"), lib,
         f"-Wl,-rpath,{os.path.dirname(lib)}", "-o", str(out)],
        check=True,
    )
    return out


def test_kernel_built_against_upstream_c_header(tmp_path):
    mod = tvm_ffi.load_module(upstream_kernel(tmp_path))
    x = np.arange(4, dtype="float32")
    mod.add_one(x)
    np.testing.assert_array_equal(x, np.array([1, 2, 3, 4], dtype="float32"))
    x = tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))
    mod.add_one(x)
    np.testing.assert_array_equal(np.from_dlpack(x), np.ones(2, dtype="float32"))
    with pytest.raises(TypeError, match="^add_one: expected a tensor$"):
        mod.add_one(1)
    assert mod.get_function_metadata("add_one") == {"type_schema": "upstream-c"}
    assert mod.get_function_doc("add_one") == "Adds one in place (upstream C header)."
    tvm_ffi.register_global_func("testing.pytest_upstream_twice", lambda v: 2 * v, override=True)
    assert mod.lookup("testing.pytest_upstream_twice", 21) == 42


def test_load_inline_compiles_runs_and_caches(cache_dir):
    source = "int64_t add(int64_t a, int64_t b) { return a + b; }"
    mod = tvm_ffi.cpp.load_inline(
        "pytest_inline_add", cpp_sources=source, functions={"add": "Adds two ints."}
    )
    assert mod.add(1, 2) == 3
    assert mod.get_function_doc("add") == "Adds two ints."
    path = tvm_ffi.cpp.build_inline("pytest_inline_add", cpp_sources=source, functions={"add": "Adds two ints."})
    assert Path(path).parent.parent == cache_dir
    stamp = os.stat(path).st_mtime_ns
    # The same sources and flags: the cached library, not a new build.
    assert tvm_ffi.cpp.build_inline(
        "pytest_inline_add", cpp_sources=source, functions={"add": "Adds two ints."}
    ) == path
    assert os.stat(path).st_mtime_ns == stamp


UPSTREAM_STYLE_KERNEL = r"""
void add_one(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  TVM_FFI_ICHECK(x.ndim() == 1) << "x must be a 1D tensor";
  DLDataType f32{kDLFloat, 32, 1};
  TVM_FFI_ICHECK(x.dtype() == f32) << "x must be float32";
  for (int64_t i = 0; i < x.size(0); ++i) {
    static_cast<float*>(y.data_ptr())[i] = static_cast<float*>(x.data_ptr())[i] + 1;
  }
}
"""


def test_load_inline_takes_upstream_style_sources(cache_dir):
    # tvm::ffi types and TVM_FFI_ICHECK need no #include of their own.
    mod = tvm_ffi.cpp.load_inline("pytest_inline_upstream", cpp_sources=UPSTREAM_STYLE_KERNEL,
                                  functions={"add_one": "Adds one."})
    x = np.arange(4, dtype="float32")
    y = np.zeros_like(x)
    mod.add_one(x, y)
    assert y.tolist() == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(RuntimeError, match="x must be float32"):
        mod.add_one(x.astype("int32"), y)
    # No type schema unless asked for (as upstream); the docstring is exported anyway.
    assert mod.get_function_metadata("add_one") is None
    assert mod.get_function_doc("add_one") == "Adds one."


def test_load_inline_exports_type_schemas_on_request(cache_dir):
    mod = tvm_ffi.cpp.load_inline(
        "pytest_inline_meta", cpp_sources="int64_t twice(int64_t x) { return 2 * x; }",
        functions={"twice": "Doubles."},
        extra_cflags=["-DTVM_FFI_DLL_EXPORT_INCLUDE_METADATA=1"],
    )
    assert mod.twice(21) == 42
    meta = mod.get_function_metadata("twice")
    assert str(tvm_ffi.core.TypeSchema.from_json_str(meta["type_schema"])) == (
        "Callable[[int], int]"
    )
    assert mod.get_function_doc("twice") == "Doubles."


def test_build_object_files_and_c_sources(cache_dir, tmp_path):
    obj = tvm_ffi.cpp.build_inline("pytest_inline_obj", cpp_sources=UPSTREAM_STYLE_KERNEL,
                                   functions=["add_one"], output="kernel.o")
    assert obj.endswith("/kernel.o") and os.path.isfile(obj)
    c_src = tmp_path / "c_add.c"
    c_src.write_text(
        "#include <tvm/ffi/c_api.h>\n"
        "TVM_FFI_DLL_EXPORT int __tvm_ffi_c_add(void* self, const TVMFFIAny* args,\n"
        "                                      int32_t num_args, TVMFFIAny* result) {\n"
        "  result->type_index = kTVMFFIInt;\n"
        "  result->zero_padding = 0;\n"
        "  result->v_int64 = args[0].v_int64 + args[1].v_int64;\n"
        "  return 0;\n"
        "}\n"
    )
    c_obj = tvm_ffi.cpp.build("pytest_c_obj", sources=[str(c_src)], output="c_add.o")
    assert c_obj.endswith("/c_add.o")
    mod = tvm_ffi.cpp.load("pytest_from_objects", sources=[obj, c_obj])
    assert mod.c_add(10, 20) == 30
    x = np.ones(2, dtype="float32")
    y = np.zeros_like(x)
    mod.add_one(x, y)
    assert y.tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="output 'a/b.o' must be a plain file name"):
        tvm_ffi.cpp.build("pytest_c_obj", sources=[str(c_src)], output="a/b.o")


def test_load_inline_honours_cxxflags(cache_dir, monkeypatch):
    monkeypatch.setenv("CXXFLAGS", "-DPYTEST_INLINE_VALUE=7")
    mod = tvm_ffi.cpp.load_inline(
        "pytest_inline_flags", cpp_sources="int64_t value() { return PYTEST_INLINE_VALUE; }",
        functions="value",
    )
    assert mod.value() == 7


def test_load_inline_reports_compile_errors(cache_dir):
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.cpp.load_inline(
            "pytest_inline_broken", cpp_sources="int64_t broken(int64_t x) { return x + ; }",
            functions=["broken"],
        )
    message = str(info.value)
    assert message.startswith("tvm_ffi.cpp: building 'pytest_inline_broken' failed")
    assert "error:" in message and "return x + ;" in message


def test_cpp_load_of_source_files(kernel_path):
    # The same name and sources as the `kernel` fixture's build: the cached library.
    stamp = os.stat(kernel_path).st_mtime_ns
    mod = tvm_ffi.cpp.load("module_test_kernel", sources=[str(MODULE_DIR / "kernel.cc")])
    assert mod.add_one(1) == 2
    assert os.stat(kernel_path).st_mtime_ns == stamp
    with pytest.raises(FileNotFoundError, match="source file '/nonexistent/k.cc' does not exist"):
        tvm_ffi.cpp.build("pytest_missing_source", sources=["/nonexistent/k.cc"])


def test_get_started_example_from_python(cache_dir):
    example = ROOT / "examples" / "get_started"
    path = tvm_ffi.cpp.build("get_started_add_one", sources=[str(example / "add_one.cc")])
    proc = subprocess.run(
        [sys.executable, str(example / "run.py"), path], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "run.py: ok"
    assert "run.py: y = [2. 3. 4. 5.]" in proc.stdout
