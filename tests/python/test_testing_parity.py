"""The testing.* global functions of testing/testing_parity.cc: results and
type schemas as observed from apache-tvm-ffi 0.1.15.post2's testing library
for the same calls."""
import ctypes
import json

import numpy as np
import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi.testing import _ffi_api


@pytest.fixture
def x():
    return tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))


def _schema(name):
    return json.loads(tvm_ffi.get_global_func_metadata("testing." + name)["type_schema"])


def _ty(s):
    return {"type": s}


def test_ffi_api_module_holds_the_testing_functions():
    assert _ffi_api.make_array_with_tensor.same_as(t.make_array_with_tensor)
    assert _ffi_api.echo(5) == 5


def test_array_with_tensor(x):
    out = t.make_array_with_tensor(x)
    assert isinstance(out, tvm_ffi.Array) and len(out) == 1 and out[0].same_as(x)
    assert _schema("make_array_with_tensor") == {
        "type": "ffi.Function",
        "named_args": {"return": [{"type": "ffi.Array", "args": [_ty("Any")]}],
                       "params": [_ty("ffi.Tensor")]}}


def test_array_with_mixed(x):
    out = t.make_array_with_mixed(x, -2)
    assert len(out) == 3 and out[0].same_as(x) and list(out)[1:] == [-2, "hello"]
    with pytest.raises(TypeError):
        t.make_array_with_mixed(x, "no")


def test_nested_and_empty_arrays(x):
    out = t.make_nested_array_with_tensor(x)
    assert len(out) == 2 and isinstance(out[0], tvm_ffi.Array)
    assert out[0][0].same_as(x) and out[0][1] == 42 and out[1].same_as(x)
    assert len(t.make_empty_array_with_tensor_input(x)) == 0
    # A Tensor parameter is a nullable object reference (upstream's accepts
    # None here too, and puts it in the array).
    assert len(t.make_empty_array_with_tensor_input(None)) == 0
    assert list(t.make_array_with_tensor(None)) == [None]
    with pytest.raises(TypeError):
        t.make_array_with_tensor(1)


def test_list_with_tensor(x):
    out = t.make_list_with_tensor(x, 3)
    assert isinstance(out, tvm_ffi.List) and len(out) == 2
    assert out[0].same_as(x) and out[1] == 3
    assert _schema("make_list_with_tensor")["named_args"]["return"] == [
        {"type": "ffi.List", "args": [_ty("Any")]}]


def test_map_and_dict_with_tensor(x):
    m = t.make_map_with_tensor(x)
    assert isinstance(m, tvm_ffi.Map)
    assert list(m.keys()) == ["tensor", "value", "name"]  # upstream's order
    assert m["tensor"].same_as(x) and m["value"] == 42 and m["name"] == "test"
    d = t.make_dict_with_tensor(x)
    assert isinstance(d, tvm_ffi.Dict)
    assert list(d.keys()) == ["tensor", "value"] and d["tensor"].same_as(x) and d["value"] == 42
    assert _schema("make_dict_with_tensor")["named_args"]["return"] == [
        {"type": "ffi.Dict", "args": [_ty("ffi.String"), _ty("Any")]}]


def test_nested_map_with_tensor(x):
    y = tvm_ffi.from_dlpack(np.arange(2, dtype="int32"))
    m = t.make_nested_map_with_tensor(x, y)
    assert list(m.keys()) == ["array", "map", "scalar"]
    assert m["array"][0].same_as(x) and m["array"][1].same_as(y)
    assert list(m["map"].keys()) == ["t"] and m["map"]["t"].same_as(x)
    assert m["scalar"] == 99


def test_schema_arr_map_opt():
    f = t.schema_arr_map_opt
    assert dict(f([1, None, 3], {"a": [1, 2]}, None)) == {"a": (1, 2)}
    out = f([1, None, 3], {"a": [1, 2]}, "zz")
    assert list(out.keys()) == ["a", "zz"] and tuple(out["zz"]) == (1, 3)
    assert tuple(f([], {}, "zz")["zz"]) == ()
    assert tuple(f([5], {"k": [1]}, "k")["k"]) == (5,)  # replaces the key's value
    with pytest.raises(TypeError):
        f(["s"], {}, None)
    assert _schema("schema_arr_map_opt")["named_args"]["params"] == [
        {"type": "ffi.Array", "args": [{"type": "Optional", "args": [_ty("int")]}]},
        {"type": "ffi.Map", "args": [_ty("ffi.String"), {"type": "ffi.Array", "args": [_ty("int")]}]},
        {"type": "Optional", "args": [_ty("ffi.String")]},
    ]


def test_schema_variant_mix():
    f = t.schema_variant_mix
    assert f(1) == 1 and f("s") == "s" and tuple(f([1, 2])) == (1, 2)
    expected = ("Mismatched type on argument #0 when calling: `testing.schema_variant_mix(0: "
                "Variant<int, str, Array<int>>) -> Variant<int, str, Array<int>>`. Expected "
                "`Variant<int, str, Array<int>>` but got `float`")
    with pytest.raises(TypeError) as err:
        f(1.5)
    assert str(err.value) == expected
    with pytest.raises(TypeError, match="but got `None`$"):
        f(None)
    assert tvm_ffi.get_global_func_metadata("testing.schema_variant_mix").get("doc") \
        in (None, "variant passthrough")


def test_schema_tensor_view_input(x):
    assert t.schema_tensor_view_input(x) is None
    with pytest.raises(TypeError) as err:
        t.schema_tensor_view_input(None)
    assert str(err.value) == (
        "Mismatched type on argument #0 when calling: `testing.schema_tensor_view_input(0: "
        "DLTensor*) -> void`. Expected `DLTensor*` but got `None`")


@pytest.mark.parametrize("name,value,bad", [
    ("schema_id_list_int", [1, 2], ["a"]),
    ("schema_id_list_str", ["a"], [1]),
    ("schema_id_map_str_int", {"a": 1}, {"a": "b"}),
    ("schema_id_map_str_str", {"a": "b"}, {1: "b"}),
    ("schema_id_dict_str_int", {"a": 1}, {"a": 1.5}),
    ("schema_id_dict_str_str", {"a": "b"}, {"a": 2}),
    ("schema_id_variant_int_str", "q", 2.5),
])
def test_identities_check_their_types(name, value, bad):
    f = getattr(t, name)
    out = f(value)
    if isinstance(value, dict):
        assert dict(out) == value
    elif isinstance(value, list):
        assert list(out) == value
    else:
        assert out == value
    with pytest.raises(TypeError):
        f(bad)


def test_identity_schemas():
    def ident(name, schema):
        assert _schema(name) == {"type": "ffi.Function",
                                 "named_args": {"return": [schema], "params": [schema]}}

    ident("schema_id_list_obj", {"type": "ffi.List", "args": [_ty("ffi.Object")]})
    ident("schema_id_map_str_obj", {"type": "ffi.Map", "args": [_ty("ffi.String"), _ty("ffi.Object")]})
    ident("schema_id_dict_str_int", {"type": "ffi.Dict", "args": [_ty("ffi.String"), _ty("int")]})
    ident("schema_id_variant_int_str", {"type": "Variant", "args": [_ty("int"), _ty("ffi.String")]})
    ident("schema_id_func_typed", {"type": "ffi.Function", "named_args": {
        "return": [_ty("None")], "params": [_ty("int"), _ty("float"), _ty("ffi.Function")]}})


def test_schema_id_func_typed_returns_the_function():
    seen = []
    g = t.schema_id_func_typed(lambda a, b, c: seen.append((a, b)))
    g(1, 2.5, tvm_ffi.get_global_func("testing.nop"))
    assert seen == [(1, 2.5)]


class _Any(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("pad", ctypes.c_uint32), ("v", ctypes.c_int64)]


def test_add_one_c_symbol_is_a_safe_call():
    safe_call = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_Any),
                                 ctypes.c_int32, ctypes.POINTER(_Any))
    f = safe_call(t.get_add_one_c_symbol())
    arg, out = _Any(1, 0, 41), _Any(0, 0, 0)  # kTVMFFIInt 41
    assert f(None, ctypes.byref(arg), 1, ctypes.byref(out)) == 0
    assert (out.type_index, out.v) == (1, 42)
    none, out = _Any(0, 0, 0), _Any(0, 0, 0)
    assert f(None, ctypes.byref(none), 1, ctypes.byref(out)) == -1  # TypeError is set
    assert f(None, ctypes.byref(arg), 0, ctypes.byref(out)) == -1


def test_mlir_add_one_symbol_packs_the_safe_call():
    mlir = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p))(t.get_mlir_add_one_c_symbol())
    arg, out = _Any(1, 0, 9), _Any(0, 0, 0)
    handle = ctypes.c_void_p(None)
    args_ptr = ctypes.pointer(arg)
    num = ctypes.c_int32(1)
    out_ptr = ctypes.pointer(out)
    code = ctypes.c_int(7)
    packed = (ctypes.c_void_p * 5)(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p)
                                     for v in (handle, args_ptr, num, out_ptr, code)])
    mlir(packed)
    assert code.value == 0 and (out.type_index, out.v) == (1, 10)


def test_run_check_signal_without_a_signal(capfd):
    assert t.run_check_signal(0) is None
    assert capfd.readouterr().out == "Function finished without catching signal\n"
    assert _schema("run_check_signal")["named_args"] == {"return": [_ty("None")],
                                                         "params": [_ty("int")]}


def test_import_tvm_ffi_alone_registers_the_testing_library():
    # As with apache-tvm-ffi (whose extension links libtvm_ffi_testing): the
    # testing.* functions and types exist without importing tvm_ffi.testing.
    import subprocess
    import sys

    code = (
        "import sys, tvm_ffi\n"
        "assert 'tvm_ffi.testing' not in sys.modules\n"
        "print(tvm_ffi.get_global_func('testing.echo')(5))\n"
        "print('testing.TestIntPair' in tvm_ffi.registry.get_registered_type_keys())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["5", "True"]
