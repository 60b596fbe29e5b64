"""Names of upstream apache-tvm-ffi's Python API that code written for it
imports (issue 20): each is checked for its behaviour, not just presence."""
import copy
import os
import pickle
import shutil
import subprocess
import sys
import textwrap

import pytest

import tvm_ffi
import tvm_ffi._ffi_api as ffi_api
import tvm_ffi.testing as t
from tvm_ffi import core, libinfo
from tvm_ffi.container import MISSING, ItemsView, KeysView, ValuesView


# ---- tvm_ffi._ffi_api ----------------------------------------------------------


def test_ffi_api_holds_the_ffi_globals():
    assert ffi_api.ArraySize(tvm_ffi.Array([1, 2, 3])) == 3
    assert ffi_api.DeepCopy.same_as(tvm_ffi.get_global_func("ffi.DeepCopy"))
    assert ffi_api.RecursiveEq(tvm_ffi.Array([1, 2]), tvm_ffi.Array([1, 2])) is True
    assert not hasattr(ffi_api, "json.Parse")  # only names with no further dot


# ---- tvm_ffi.container ---------------------------------------------------------


def test_container_missing_is_the_sentinel_lookups_return():
    assert MISSING is core.MISSING
    m = tvm_ffi.Map({"a": 1})
    assert ffi_api.MapGetItemOrMissing(m, "b").same_as(MISSING)
    assert ffi_api.MapGetItemOrMissing(m, "a") == 1


@pytest.mark.parametrize("make", [tvm_ffi.Map, tvm_ffi.Dict])
def test_views_of_a_map(make):
    m = make({"a": 1, "b": 2})
    assert list(KeysView(m)) == ["a", "b"]
    assert list(ValuesView(m)) == [1, 2]
    assert list(ItemsView(m)) == [("a", 1), ("b", 2)]
    assert len(KeysView(m)) == 2
    assert "a" in KeysView(m) and "z" not in KeysView(m)
    assert 2 in ValuesView(m) and 3 not in ValuesView(m)
    assert ("a", 1) in ItemsView(m) and ("a", 2) not in ItemsView(m) and "a" not in ItemsView(m)
    assert KeysView(m) == {"a", "b"}  # the abstract view's set operations


def test_views_through_an_iterator_functor():
    m = tvm_ffi.Map({"x": 10, "y": 20, "z": 30})
    assert list(ItemsView(m, ffi_api.MapForwardIterFunctor)) == [("x", 10), ("y", 20), ("z", 30)]
    assert list(KeysView(m, ffi_api.MapForwardIterFunctor)) == ["x", "y", "z"]
    d = tvm_ffi.Dict({"k": 1})
    assert list(ValuesView(d, ffi_api.DictForwardIterFunctor)) == [1]


def test_views_need_an_ffi_map():
    with pytest.raises(TypeError, match="KeysView needs an ffi Map or Dict, got dict"):
        KeysView({"a": 1})


# ---- copy.deepcopy goes through ffi.DeepCopy ----------------------------------


def test_deepcopy_of_containers_copies_the_graph_and_keeps_sharing():
    inner = tvm_ffi.Array([1, 2])
    a = tvm_ffi.Array([inner, inner, "s"])
    b = copy.deepcopy(a)
    assert list(map(list, b[:2])) == [[1, 2], [1, 2]] and b[2] == "s"
    assert not b.same_as(a) and not b[0].same_as(inner)
    assert b[0].same_as(b[1])  # shared before, shared after

    d = tvm_ffi.Dict({"k": tvm_ffi.List([1])})
    e = copy.deepcopy(d)
    e["k"].append(2)
    e["new"] = 3
    assert list(d["k"]) == [1] and "new" not in d

    m = tvm_ffi.Map({"x": inner})
    n = copy.deepcopy(m)
    assert list(n["x"]) == [1, 2] and not n["x"].same_as(inner)
    lst = tvm_ffi.List([inner])
    assert not copy.deepcopy(lst)[0].same_as(inner)


def test_deepcopy_is_one_ffi_call_not_pickling(monkeypatch):
    calls = []
    real = tvm_ffi.get_global_func("ffi.DeepCopy")

    def spy(x):
        calls.append(x)
        return real(x)

    from tvm_ffi import container

    monkeypatch.setitem(container._FUNCS, "ffi.DeepCopy", spy)
    a = tvm_ffi.Array([tvm_ffi.Array([1])])
    copy.deepcopy(a)
    assert len(calls) == 1 and calls[0].same_as(a)


# ---- top-level names -----------------------------------------------------------

DTYPES = {
    "bool": (6, 8, 1), "int8": (0, 8, 1), "int16": (0, 16, 1), "int32": (0, 32, 1),
    "int64": (0, 64, 1), "uint8": (1, 8, 1), "uint16": (1, 16, 1), "uint32": (1, 32, 1),
    "uint64": (1, 64, 1), "float64": (2, 64, 1), "float32": (2, 32, 1), "float16": (2, 16, 1),
    "bfloat16": (4, 16, 1), "float8_e3m4": (7, 8, 1), "float8_e4m3": (8, 8, 1),
    "float8_e4m3b11fnuz": (9, 8, 1), "float8_e4m3fn": (10, 8, 1), "float8_e4m3fnuz": (11, 8, 1),
    "float8_e5m2": (12, 8, 1), "float8_e5m2fnuz": (13, 8, 1), "float8_e8m0fnu": (14, 8, 1),
    "float6_e2m3fn": (15, 6, 1), "float6_e3m2fn": (16, 6, 1), "float4_e2m1fn": (17, 4, 1),
    "float4_e2m1fnx2": (17, 4, 2),
}


@pytest.mark.parametrize("name", sorted(DTYPES))
def test_named_dtypes(name):
    d = getattr(tvm_ffi, name)
    assert isinstance(d, tvm_ffi.dtype) and d == name and name in tvm_ffi.__all__
    assert (d.type_code, d.bits, d.lanes) == DTYPES[name]


def test_bool_is_the_dtype_not_the_builtin():
    assert tvm_ffi.bool == "bool" and tvm_ffi.bool is not bool
    import builtins

    assert builtins.bool(1) is True  # the builtin is untouched


def test_walk_order_and_result():
    assert int(tvm_ffi.WalkOrder.PREORDER) == 0 and int(tvm_ffi.WalkOrder.POSTORDER) == 1
    assert int(tvm_ffi.WalkResult.ADVANCE) == 0 and int(tvm_ffi.WalkResult.SKIP) == 1
    assert tvm_ffi.WalkOrder(1) is tvm_ffi.WalkOrder.POSTORDER


def test_get_registered_type_keys():
    keys = tvm_ffi.get_registered_type_keys()
    assert isinstance(keys, list)
    assert {"ffi.Object", "ffi.String", "ffi.Array", "testing.TestIntPair"} <= set(keys)
    assert len(keys) == len(set(keys))


# ---- libinfo -------------------------------------------------------------------


def test_libinfo_paths():
    inc = libinfo.find_dlpack_include_path()
    assert os.path.isfile(os.path.join(inc, "dlpack", "dlpack.h")) or os.path.isfile(
        os.path.join(inc, "tvm", "ffi", "c_api.h")
    )
    src = libinfo.find_source_path()
    assert os.path.isfile(os.path.join(src, "include", "tvm", "ffi", "c_api.h"))


def test_load_lib_ctypes_and_module():
    lib = libinfo.load_lib_ctypes("tvm-ffi", "tvm_ffi_testing", "RTLD_GLOBAL")
    assert os.path.realpath(lib._name) == os.path.realpath(libinfo.find_libtvm_ffi_testing())
    with pytest.raises(ValueError, match="mode must be 'RTLD_LOCAL' or 'RTLD_GLOBAL', got 'LAZY'"):
        libinfo.load_lib_ctypes("tvm-ffi", "tvm_ffi_testing", "LAZY")
    with pytest.raises(RuntimeError, match="cannot find libno_such_target.so; looked in"):
        libinfo.load_lib_ctypes("tvm-ffi", "no_such_target", "RTLD_LOCAL")
    with pytest.raises(TypeError, match=r"extra_lib_paths\[0\] must be a pathlib.Path, got ./x."):
        libinfo.load_lib_ctypes("tvm-ffi", "tvm_ffi", "RTLD_LOCAL", extra_lib_paths=["/x"])
    mod = libinfo.load_lib_module("tvm-ffi", "tvm_ffi_testing")
    assert isinstance(mod, tvm_ffi.Module)


def test_load_lib_ctypes_looks_in_extra_paths_first(tmp_path):
    import pathlib

    copy_path = tmp_path / "libtvm_ffi_testing.so"
    shutil.copy(libinfo.find_libtvm_ffi_testing(), copy_path)
    lib = libinfo.load_lib_ctypes("tvm-ffi", "tvm_ffi_testing", "RTLD_LOCAL",
                                  extra_lib_paths=[pathlib.Path(tmp_path)])
    assert lib._name == str(copy_path.resolve())


# ---- error.TracebackManager ----------------------------------------------------


def test_traceback_manager_prepends_native_frames():
    from tvm_ffi.error import TracebackManager

    mgr = TracebackManager()
    tb = mgr.append_traceback(None, "kernel.cc", 12, "Inner")
    tb = mgr.append_traceback(tb, "kernel.cc", 30, "Outer")
    assert (tb.tb_frame.f_code.co_name, tb.tb_lineno) == ("Outer", 30)
    assert (tb.tb_next.tb_frame.f_code.co_name, tb.tb_next.tb_lineno) == ("Inner", 12)
    assert tb.tb_next.tb_frame.f_code.co_filename == "kernel.cc" and tb.tb_next.tb_next is None
    try:
        raise ValueError("x").with_traceback(tb)
    except ValueError as e:
        import traceback

        names = [fs.name for fs in traceback.extract_tb(e.__traceback__)]
    assert names[-2:] == ["Outer", "Inner"]
    with pytest.raises(ValueError, match="lineno must be a non-negative int, got -1"):
        mgr.append_traceback(None, "f", -1, "g")


# ---- core names ----------------------------------------------------------------


def test_type_lookups():
    index = core._object_type_key_to_index("testing.TestIntPair")
    assert index == core._type_key_to_index("testing.TestIntPair")
    assert core._object_type_key_to_index("testing.NoSuchType") is None
    info = core._lookup_or_register_type_info_from_type_key("testing.TestIntPair")
    assert info.type_key == "testing.TestIntPair" and info.type_index == index
    assert [f.name for f in info.fields] == ["a", "b"]
    with pytest.raises(ValueError, match="Cannot find type index for type key 'testing.Nope'"):
        core._lookup_or_register_type_info_from_type_key("testing.Nope")
    assert core._type_index_to_type_info(index) is info
    assert core._type_cls_to_type_info(t.TestIntPair) is info
    assert core._type_cls_to_type_info(int) is None


def test_lookup_type_attr():
    hash_index = core._type_key_to_index("testing.TestCustomHash")
    hook = core._lookup_type_attr(hash_index, "__ffi_hash__")
    assert isinstance(hook, tvm_ffi.Function)
    assert core._lookup_type_attr(hash_index, "__ffi_eq__") is None
    assert core._lookup_type_attr(hash_index, "testing.no_such_attr") is None
    # An attribute set on TestCxxClassBase only: its subclasses see it with ancestor=True.
    base = core._type_key_to_index("testing.TestCxxClassBase")
    derived = core._type_key_to_index("testing.TestCxxClassDerivedDerived")
    assert core._lookup_type_attr(base, "testing.where") == "TestCxxClassBase"
    assert core._lookup_type_attr(derived, "testing.where") is None
    assert core._lookup_type_attr(derived, "testing.where", True) == "TestCxxClassBase"
    with pytest.raises(TypeError, match=r"takes 2 or 3 arguments \(1 given\)"):
        core._lookup_type_attr(base)


def test_lookup_type_attr_ffi_init_is_the_constructor():
    index = core._type_key_to_index("testing.TestIntPair")
    init = core._lookup_type_attr(index, "__ffi_init__")
    obj = t.TestIntPair.__new__(t.TestIntPair)
    obj.__init_handle_by_constructor__(init, 4, 5)
    assert (obj.a, obj.b) == (4, 5)
    # TestUnregisteredObject has no constructor of its own or inherited.
    none_index = core._type_key_to_index("testing.TestUnregisteredObject")
    assert core._lookup_type_attr(none_index, "__ffi_init__", True) is None


def test_register_type_by_index_and_object_repr():
    pair = t.TestIntPair(1, 2)
    assert core.object_repr(pair) == "testing.TestIntPair(a=1, b=2)"
    with pytest.raises(TypeError, match="object_repr needs an FFI object, got int"):
        core.object_repr(3)
    assert core.Error is tvm_ffi.container.Error
    assert core.OpaquePyObject is tvm_ffi.container.OpaquePyObject
    assert isinstance(pair, core.CObject)


def test_string_and_bytes():
    s = core.String("hello")
    assert isinstance(s, str) and isinstance(s, core.PyNativeObject)
    assert t.echo(s) == "hello" and s._tvm_ffi_cached_object is None
    assert type(pickle.loads(pickle.dumps(s))) is str
    assert s.__tvm_ffi_type_info__.type_key == "ffi.String"
    b = core.Bytes(bytearray(b"ab"))
    assert b == b"ab" and isinstance(b, bytes) and t.echo(b) == b"ab"
    assert type(pickle.loads(pickle.dumps(b))) is bytes
    with pytest.raises(TypeError, match="String needs a str, got int"):
        core.String(3)
    with pytest.raises(TypeError, match="Bytes needs a bytes-like object, got str"):
        core.Bytes("x")


# ---- tvm_ffi.testing -----------------------------------------------------------


def test_testing_object_types():
    p = t.TestIntPair(3, 4)
    assert (p.a, p.b, p.sum()) == (3, 4, 7)
    assert t.TestIntPairSum(p) == 7
    with pytest.raises(TypeError) as info:
        t.TestIntPair(1)
    assert str(info.value) == (
        "Mismatched number of arguments when calling: `testing.TestIntPair.__ffi_init__"
        "(0: int, 1: int) -> testing.TestIntPair`. Expected 2 but got 1 arguments"
    )
    frozen = t.TestFrozenCxx(1, "x")
    with pytest.raises(AttributeError):
        frozen.value = 2
    holder = t.TestObjectPtrHolder(p)
    assert holder.value.same_as(p) and holder.optional_value is None
    assert t.TestNonCopyable(5).value == 5
    assert t.create_object("testing.TestObjectBase", v_i64=3).v_i64 == 3
    assert t.create_object("testing.TestObjectBase").v_str == "hello"
    with pytest.raises(KeyError, match="type key `testing.Nope` is not registered"):
        t.create_object("testing.Nope")


def test_make_object_from_packed_args():
    # Fields are set directly: also those that are no __ffi_init__ parameter,
    # and on a type with no __ffi_init__ at all.
    o = t.create_object("testing.TestCxxNoAutoInit", x=1, y=2)
    assert (type(o), o.x, o.y) == (t._TestCxxNoAutoInit, 1, 2)
    a = t.create_object("testing.TestCxxAutoInit", a=1, b=5, c=3)
    assert (a.a, a.b, a.c, a.d) == (1, 5, 3, 99)
    p = t.create_object("testing.TestIntPair", a=3, b=4)  # positional-only __ffi_init__
    assert p.sum() == 7
    make = ffi_api.MakeObjectFromPackedArgs
    assert make(t._TestCxxNoAutoInit.__tvm_ffi_type_info__.type_index, "x", 1, "y", 2).y == 2
    with pytest.raises(TypeError, match="^Required field `y` not set in type `testing.TestCxxNoAutoInit`$"):
        make("testing.TestCxxNoAutoInit", "x", 1)
    with pytest.raises(TypeError, match="^Type `testing.TestCxxNoAutoInit` does not have field `z`$"):
        make("testing.TestCxxNoAutoInit", "x", 1, "y", 2, "z", 1)
    with pytest.raises(TypeError, match="expected a type and name/value pairs, got 2 arguments$"):
        make("testing.TestCxxNoAutoInit", "x")
    with pytest.raises(TypeError, match="^Cannot convert from type `ffi.SmallStr` to `int`$"):
        make("testing.TestCxxNoAutoInit", "x", "one", "y", 2)
    with pytest.raises(TypeError, match="^ffi.MakeObjectFromPackedArgs: type `int` has no creator$"):
        make("int")


def test_testing_hooks_compare_by_key_only():
    a, b = t.TestCustomCompare(1, "a"), t.TestCustomCompare(1, "b")
    assert ffi_api.RecursiveEq(a, b) and not ffi_api.RecursiveEq(a, t.TestCustomCompare(2, "a"))
    assert ffi_api.RecursiveLt(t.TestCustomCompare(1, "z"), t.TestCustomCompare(2, "a"))
    assert ffi_api.RecursiveHash(t.TestCustomHash(7, "x")) == ffi_api.RecursiveHash(
        t.TestCustomHash(7, "y"))
    assert ffi_api.RecursiveEq(t.TestEqWithoutHash(1, "a"), t.TestEqWithoutHash(1, "b"))
    # TestCustomCompare hashes by key too, so equal values hash alike.
    assert ffi_api.RecursiveHash(a) == ffi_api.RecursiveHash(b)
    assert ffi_api.RecursiveHash(tvm_ffi.Map({"k": a})) == ffi_api.RecursiveHash(tvm_ffi.Map({"k": b}))
    # An __ffi_eq__ without __ffi_hash__ cannot be hashed consistently: refused.
    msg = ("^ffi.RecursiveHash: type 'testing.TestEqWithoutHash' defines __ffi_eq__ or "
           "__ffi_compare__ but not __ffi_hash__; ")
    with pytest.raises(ValueError, match=msg):
        ffi_api.RecursiveHash(t.TestEqWithoutHash(1, "a"))
    with pytest.raises(ValueError, match=msg):
        ffi_api.RecursiveHash(tvm_ffi.List([0, t.TestEqWithoutHash(1, "a")]))


def test_testing_auto_init_flags():
    o = t._TestCxxAutoInit(1, c=3)
    assert (o.a, o.b, o.c, o.d) == (1, 42, 3, 99)
    assert (t._TestCxxKwOnly(x=1, y=2, z=3).w) == 100
    with pytest.raises(TypeError, match="takes 0 positional arguments but 4 were given"):
        t._TestCxxKwOnly(1, 2, 3, 4)
    s = t._TestCxxInitSubset(7)
    assert (s.required_field, s.optional_field, s.note) == (7, -1, "default")
    off = t._TestCxxAutoInitAllInitOff()
    assert (off.x, off.y, off.z) == (7, 9, 1234)
    base = t._TestCxxClassBase(v_i64=10, v_i32=20)  # the class's own __init__ adds 1 and 2
    assert (base.v_i64, base.v_i32) == (11, 22)
    d = t._TestCxxClassDerived(v_i64=1, v_i32=2, v_f64=3.0)
    assert d.v_f32 == 8.0 and d == t._TestCxxClassDerived(1, 2, 3.0, 8.0)


def test_register_object_installs_ffi_init():
    obj = t.TestIntPair.__new__(t.TestIntPair)
    obj.__ffi_init__(6, 7)
    assert obj.sum() == 13
    kw = t.TestObjectBase.__new__(t.TestObjectBase)
    kw.__ffi_init__(v_str="k")
    assert (kw.v_i64, kw.v_str) == (10, "k")


def test_reflected_type_without_a_class_gets_one_with_its_fields():
    x = t.make_unregistered_object()
    cls = type(x)
    assert cls.__name__ == "TestUnregisteredObject" and cls.__module__ == "testing"
    assert cls.__qualname__ == "testing.TestUnregisteredObject"
    assert "Auto-generated fallback class" in cls.__doc__
    assert cls.__tvm_ffi_type_info__.type_key == "testing.TestUnregisteredObject"
    assert (x.v1, x.v2, x.get_v1_plus_one(), x.get_v2_plus_two()) == (41, 42, 42, 44)
    assert "Get (v1 + 1) from TestUnregisteredBaseObject" in cls.get_v1_plus_one.__doc__
    parent = cls.__mro__[1]
    assert parent.__qualname__ == "testing.TestUnregisteredBaseObject"
    assert issubclass(parent, tvm_ffi.Object)
    assert type(t.make_unregistered_object()) is cls  # made once
    assert repr(x) == "testing.TestUnregisteredObject(v1=41, v2=42)"


def test_run_with_gpu_lock(tmp_path, monkeypatch):
    monkeypatch.setenv("TVM_FFI_TEST_LOCK_DIR", str(tmp_path))
    probe = textwrap.dedent("""
        import fcntl, os, sys
        fd = os.open(sys.argv[1], os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            print("free")
        except BlockingIOError:
            print("held")
    """)
    lock = str(tmp_path / "gpu.lock")

    def other_process_sees():
        return subprocess.run([sys.executable, "-c", probe, lock], capture_output=True,
                              text=True, check=True).stdout.strip()

    assert t.run_with_gpu_lock(other_process_sees) == "held"
    assert t.run_with_gpu_lock(lambda: t.run_with_gpu_lock(lambda x: x + 1, 1)) == 2  # re-entrant
    assert other_process_sees() == "free"
    with pytest.raises(ZeroDivisionError):
        t.run_with_gpu_lock(lambda: 1 / 0)
    assert other_process_sees() == "free"  # released after the exception
    with pytest.raises(TypeError, match="run_with_gpu_lock needs a callable, got 3"):
        t.run_with_gpu_lock(3)


# ---- libtvm_ffi is global: a kernel not linked with -ltvm_ffi works -------------

KERNEL = r"""
#include <tvm/ffi/c_api.h>
int unlinked_kernel(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self; (void)args; (void)result;
  if (num_args != 1) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "unlinked_kernel wants one argument");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 * 3;
  return 0;
}
"""


def test_kernel_without_ltvm_ffi_resolves_the_c_functions(tmp_path):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler to build the test kernel")
    src = tmp_path / "unlinked.c"
    src.write_text(KERNEL)
    lib = tmp_path / "libunlinked.so"
    subprocess.run([cc, "-shared", "-fPIC", "-I", libinfo.find_include_path(), str(src), "-o",
                    str(lib)], check=True)
    needed = subprocess.run(["readelf", "-d", str(lib)], capture_output=True, text=True).stdout
    assert "libtvm_ffi" not in needed  # really not linked with it
    code = textwrap.dedent(f"""
        import ctypes, tvm_ffi
        lib = ctypes.CDLL({str(lib)!r})
        f = tvm_ffi.get_global_func("ffi.FunctionFromExternC")(
            None, ctypes.cast(lib.unlinked_kernel, ctypes.c_void_p), None)
        print(f(14))
        try:
            f()
        except ValueError as e:
            print("ValueError:", e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["42", "ValueError: unlinked_kernel wants one argument"]


def test_schema_all_types():
    S = t._SchemaAllTypes
    o = S.make_with(3, 2.5, "x")
    assert (o.v_int, o.v_float, o.v_string, o.v_opt_int) == (3, 2.5, "x", None)
    assert o.add_int(4) == 7
    assert list(o.append_int([1, 2], 3)) == [1, 2, 3]
    assert o.maybe_concat("a", "b") == "ab" and o.maybe_concat(None, "b") == "b"
    assert o.maybe_concat(None, None) is None
    assert dict(o.merge_map({"a": [1]}, {"b": [2], "a": [3]})) == {"a": [3], "b": [2]}
    with pytest.raises(TypeError):
        o.add_int("four")


def test_install_dataclass_dunders():
    # In a child process: it binds a class of its own to a testing type.
    code = textwrap.dedent("""
        import copy, tvm_ffi, tvm_ffi.testing
        from tvm_ffi._dunder import _install_dataclass_dunders

        @tvm_ffi.register_object("testing.TestCxxAutoInitSimple")
        class P(tvm_ffi.Object):
            def __repr__(self):
                return "mine"

        _install_dataclass_dunders(P, init=True, repr=True, eq=True, order=True,
                                   unsafe_hash=True)
        a, b = P(1, 2), P(1, 2)
        print(a == b, a is not b, P(1, 2) < P(1, 3), hash(a) == hash(b), repr(a),
              P.__match_args__, copy.copy(a) == a)
        class Unbound(tvm_ffi.Object):
            pass
        try:
            _install_dataclass_dunders(Unbound, init=True, repr=True, eq=False, order=False,
                                       unsafe_hash=False)
        except TypeError as e:
            print(e)
        try:
            _install_dataclass_dunders(P, init=True, repr=True, eq=False, order=True,
                                       unsafe_hash=False)
        except ValueError as e:
            print(e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "True True True True mine ('x', 'y') True",
        "Unbound is bound to no FFI type: register it (register_object, c_class or py_class) "
        "before installing its dataclass methods",
        "order=True requires eq=True",
    ]


def test_member_metadata_is_parsed_on_use():
    info = t._SchemaAllTypes.__tvm_ffi_type_info__
    by_name = {f.name: f for f in info.fields}
    assert by_name["v_int"].metadata == {"type_schema": '{"type":"int"}'}
    assert by_name["v_opt_int"].metadata == {
        "type_schema": '{"type":"Optional","args":[{"type":"int"}]}'}
    add_int = next(m for m in info.methods if m.name == "add_int")
    schema = core.TypeSchema.from_json_str(add_int.metadata["type_schema"])
    assert str(schema) == "Callable[[testing.SchemaAllTypes, int], int]"
    # Importing tvm_ffi reads type infos but parses no metadata (no json import).
    out = subprocess.run([sys.executable, "-c", "import sys, tvm_ffi; print('json' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("cls", "key", "parent"),
    [
        (tvm_ffi.Object, "ffi.Object", None),
        (tvm_ffi.Function, "ffi.Function", tvm_ffi.Object),
        (core.DataType, "DataType", None),
        (tvm_ffi.Device, "Device", None),
        (tvm_ffi.Tensor, "ffi.Tensor", tvm_ffi.Object),
        (tvm_ffi.Shape, "ffi.Shape", tvm_ffi.Object),
        (core.String, "ffi.String", tvm_ffi.Object),
        (core.Bytes, "ffi.Bytes", tvm_ffi.Object),
        (tvm_ffi.Array, "ffi.Array", tvm_ffi.Object),
        (t._TestCxxClassDerived, "testing.TestCxxClassDerived", t._TestCxxClassBase),
    ],
)
def test_package_classes_are_bound_to_their_types(cls, key, parent):
    info = core._type_cls_to_type_info(cls)
    assert info.type_key == key and info.type_cls is cls
    assert (info.parent_type_info.type_cls if info.parent_type_info else None) is parent


def test_subclass_does_not_inherit_the_binding():
    class Mine(tvm_ffi.Array):
        pass

    assert core._type_cls_to_type_info(Mine) is None


def test_test_object_derived_takes_v_map():
    m = tvm_ffi.Map({"k": 1})
    d = t.create_object("testing.TestObjectDerived", v_map=m, v_array=tvm_ffi.Array([1]))
    assert d.v_map.same_as(m) and list(d.v_array) == [1] and d.v_i64 == 10
    assert dict(t.TestObjectDerived([3], 1, 2.0, "s").v_map) == {}  # the default


def test_test_raise_error_names_its_function_in_the_backtrace():
    with pytest.raises(ValueError, match="^error XYZ$") as info:
        t.test_raise_error("ValueError", "error XYZ")
    err = info.value.__tvm_ffi_error__
    assert (err.kind, err.message) == ("ValueError", "error XYZ")
    assert "TestRaiseError" in err.backtrace


def test_deep_copy_of_an_object_keeps_shared_fields_shared():
    inner = tvm_ffi.Array([1, 2])
    obj = t.create_object("testing.TestDeepCopyEdges", v_any=inner, v_obj=inner)
    dup = copy.deepcopy(obj)
    assert not dup.same_as(obj) and list(dup.v_any) == [1, 2]
    assert dup.v_any.same_as(dup.v_obj) and not dup.v_any.same_as(inner)
    assert t.create_object("testing.TestDeepCopyEdges").v_obj is None


@pytest.mark.parametrize("cls", [t.TestObjectBase, t.TestIntPair, t.TestObjectDerived,
                                 t._TestCxxClassDerived])
def test_testing_classes_have_no_instance_dict(cls):
    assert cls.__dict__.get("__slots__") == () and "__dict__" not in cls.__dict__
    obj = cls.__new__(cls)  # (other tests may bind other classes to these types)
    with pytest.raises(AttributeError):
        obj.some_new_attribute = 1


def test_error_made_in_python_and_pickled_by_value():
    e = core.Error("TypeError", "boom", 'File "a.py", line 1, in f\n')
    assert (e.kind, e.message, e.backtrace) == ("TypeError", "boom", 'File "a.py", line 1, in f\n')
    back = pickle.loads(pickle.dumps(e))
    assert isinstance(back, core.Error) and not back.same_as(e)
    assert (back.kind, back.message, back.backtrace) == (e.kind, e.message, e.backtrace)
    empty = pickle.loads(pickle.dumps(core.Error.__new__(core.Error)))
    assert isinstance(empty, core.Error) and empty.__chandle__() == 0
    with pytest.raises(TypeError, match="expected a str, got 3"):
        core.Error(3, "m")


def test_parse_backtrace():
    from tvm_ffi.error import _parse_backtrace

    text = '  File "test.py", line 1, in <module>\n  noise\n  File "b.cc", line 30, in Foo\n'
    assert _parse_backtrace(text) == [("test.py", 1, "<module>"), ("b.cc", 30, "Foo")]
    assert _parse_backtrace("") == []


def test_move_handle_from():
    a = tvm_ffi.Array([1, 2])
    b = tvm_ffi.Array.__new__(tvm_ffi.Array)
    b.__move_handle_from__(a)
    assert list(b) == [1, 2] and a.__chandle__() == 0
    b.__move_handle_from__(b)  # onto itself: nothing changes
    assert list(b) == [1, 2]
    with pytest.raises(TypeError, match="__move_handle_from__ needs an FFI object, got <class 'int'>"):
        b.__move_handle_from__(3)


def test_move_handle_from_keeps_reference_counts():
    x = t.TestIntPair(1, 2)
    held = tvm_ffi.Array([x])  # a second reference, to observe the count
    before = t.object_use_count(x)
    y = t.TestIntPair(5, 6)
    z = tvm_ffi.Array([y])[0]  # another wrapper of y's object, kept
    y_before = t.object_use_count(z)
    y.__move_handle_from__(x)  # y's old object loses the reference y held
    assert t.object_use_count(y) == before and x.__chandle__() == 0
    assert t.object_use_count(z) == y_before - 1
    assert y.sum() == 3 and held[0].same_as(y)


def test_global_metadata_carries_extra_attributes():
    meta = tvm_ffi.get_global_func_metadata("testing.schema_id_int")
    assert meta["bool_attr"] is True and meta["int_attr"] == 1 and meta["str_attr"] == "hello"
    assert str(core.TypeSchema.from_json_str(meta["type_schema"])) == "Callable[[int], int]"
    assert len(meta) == 4 and t.schema_id_int(7) == 7
