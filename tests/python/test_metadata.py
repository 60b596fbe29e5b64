"""Function metadata: typed C++ globals, reflected methods and fields record
their type schema as JSON ({"type_schema": ...}); TypeSchema reads and renders it."""
import json

import pytest

import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (loads the testing.* functions)
from tvm_ffi.core import TypeSchema
from tvm_ffi.type_schema import TypeSchema as TypeSchemaFromModule


def schema_of(name):
    meta = tvm_ffi.get_global_func_metadata(name)
    # testing.schema_id_int also carries upstream's extra attributes
    # (test_upstream_api.py::test_global_metadata_carries_extra_attributes).
    extra = {"bool_attr", "int_attr", "str_attr"} if name == "testing.schema_id_int" else set()
    assert set(meta) == {"type_schema"} | extra
    return meta["type_schema"]


def fn(ret, *params):
    """Upstream's JSON text of a typed function schema."""
    body = {"return": [{"type": ret}], "params": [{"type": p} for p in params]}
    return json.dumps({"type": "ffi.Function", "named_args": body}, separators=(",", ":"))


def test_core_attribute_is_the_module_class():
    assert TypeSchema is TypeSchemaFromModule


@pytest.mark.parametrize(
    "name, json_text, rendered",
    [
        ("testing.add_one", fn("int", "int"), "Callable[[int], int]"),
        ("testing.schema_id_int", fn("int", "int"), "Callable[[int], int]"),
        ("testing.schema_id_float", fn("float", "float"), "Callable[[float], float]"),
        ("testing.schema_id_bool", fn("bool", "bool"), "Callable[[bool], bool]"),
        ("testing.schema_id_device", fn("Device", "Device"), "Callable[[Device], Device]"),
        ("testing.schema_id_dtype", fn("DataType", "DataType"), "Callable[[dtype], dtype]"),
        ("testing.schema_id_string", fn("ffi.String", "ffi.String"), "Callable[[str], str]"),
        ("testing.schema_id_bytes", fn("ffi.Bytes", "ffi.Bytes"), "Callable[[bytes], bytes]"),
        ("testing.schema_id_any", fn("Any", "Any"), "Callable[[Any], Any]"),
        ("testing.schema_id_object", fn("ffi.Object", "ffi.Object"), "Callable[[Object], Object]"),
        ("testing.schema_id_tensor", fn("ffi.Tensor", "ffi.Tensor"), "Callable[[Tensor], Tensor]"),
        ("testing.schema_id_dltensor", fn("DLTensor*", "DLTensor*"),
         "Callable[[Tensor], Tensor]"),
        ("testing.schema_id_arr", fn("ffi.Array", "ffi.Array"),
         "Callable[[Array[Any]], Array[Any]]"),
        ("testing.schema_id_list", fn("ffi.List", "ffi.List"), "Callable[[List[Any]], List[Any]]"),
        ("testing.schema_id_map", fn("ffi.Map", "ffi.Map"),
         "Callable[[Map[Any, Any]], Map[Any, Any]]"),
        ("testing.schema_id_dict", fn("ffi.Dict", "ffi.Dict"),
         "Callable[[Dict[Any, Any]], Dict[Any, Any]]"),
        ("testing.schema_id_func", fn("ffi.Function", "ffi.Function"),
         "Callable[[Callable[..., Any]], Callable[..., Any]]"),
        ("testing.schema_no_args", fn("int"), "Callable[[], int]"),
        ("testing.schema_no_return", fn("None", "int"), "Callable[[int], None]"),
        ("testing.schema_no_args_no_return", fn("None"), "Callable[[], None]"),
        ("ffi.RecursiveEq", fn("bool", "Any", "Any"), "Callable[[Any, Any], bool]"),
        ("ffi.RecursiveHash", fn("int", "Any"), "Callable[[Any], int]"),
    ],
)
def test_global_function_schema(name, json_text, rendered):
    text = schema_of(name)
    assert text == json_text
    assert str(TypeSchema.from_json_str(text)) == rendered


def test_nested_schemas():
    text = schema_of("testing.schema_id_arr_int")
    assert text == (
        '{"type":"ffi.Function","named_args":{"return":[{"type":"ffi.Array","args":[{"type":"int"}]}],'
        '"params":[{"type":"ffi.Array","args":[{"type":"int"}]}]}}'
    )
    assert str(TypeSchema.from_json_str(text)) == "Callable[[Array[int]], Array[int]]"
    assert str(TypeSchema.from_json_str(schema_of("testing.schema_id_arr_str"))) == (
        "Callable[[Array[str]], Array[str]]")
    assert str(TypeSchema.from_json_str(schema_of("testing.schema_id_opt_int"))) == (
        "Callable[[int | None], int | None]")
    assert str(TypeSchema.from_json_str(schema_of("testing.schema_id_opt_str"))) == (
        "Callable[[str | None], str | None]")
    assert str(TypeSchema.from_json_str(schema_of("testing.schema_arr_opt"))) == (
        "Callable[[Array[int | None], str], int]")
    assert str(TypeSchema.from_json_str(schema_of("testing.schema_id_opt_obj"))) == (
        "Callable[[Object | None], Object | None]")
    assert str(TypeSchema.from_json_str(schema_of("testing.schema_id_arr_obj"))) == (
        "Callable[[Array[Object]], Array[Object]]")


def test_packed_functions_have_an_untyped_schema():
    assert schema_of("testing.schema_packed") == '{"type":"ffi.Function"}'
    assert str(TypeSchema.from_json_str(schema_of("testing.schema_packed"))) == (
        "Callable[..., Any]")


def test_python_functions_have_no_metadata():
    tvm_ffi.register_global_func("test_metadata.py_func", lambda x: x, override=True)
    try:
        assert tvm_ffi.get_global_func_metadata("test_metadata.py_func") == {}
    finally:
        tvm_ffi.remove_global_func("test_metadata.py_func")


def test_reflected_fields_and_methods():
    meta = tvm_ffi.get_global_func("testing.reflected_member_metadata")
    fields = json.loads(meta("testing.TestObjectBase", "v_i64"))
    assert fields == {"type_schema": '{"type":"int"}'}
    assert json.loads(meta("testing.TestObjectBase", "v_f64")) == {"type_schema": '{"type":"float"}'}
    assert json.loads(meta("testing.TestObjectBase", "v_str")) == {
        "type_schema": '{"type":"ffi.String"}'}
    assert json.loads(meta("testing.TestObjectDerived", "v_array")) == {
        "type_schema": '{"type":"Any"}'}
    method = json.loads(meta("testing.TestObjectBase", "add_i64"))["type_schema"]
    assert method == fn("int", "testing.TestObjectBase", "int")
    assert str(TypeSchema.from_json_str(method)) == "Callable[[testing.TestObjectBase, int], int]"


def test_type_schema_reading():
    s = TypeSchema.from_json_str
    assert str(s('{"type":"int"}')) == "int"
    assert str(s('{"type":"None"}')) == "None"
    assert str(s('{"type":"std::string"}')) == "str"
    assert str(s('{"type":"const char*"}')) == "str"
    assert str(s('{"type":"void*"}')) == "ctypes.c_void_p"
    assert str(s('{"type":"ffi.Shape"}')) == "ffi.Shape"
    assert str(s('{"type":"mylib.Point"}')) == "mylib.Point"
    assert str(s('{"type":"Variant","args":[{"type":"int"},{"type":"ffi.String"}]}')) == "int | str"
    assert str(s('{"type":"ffi.Dict","args":[{"type":"int"},{"type":"float"}]}')) == (
        "Dict[int, float]")
    assert str(s('{"type":"Optional","args":[{"type":"ffi.Array","args":[{"type":"int"}]}]}')) == (
        "Array[int] | None")
    big = s('{"type":"ffi.BigInt"}')
    assert str(big) == "int" and big.type_key == "ffi.BigInt"
    assert big.to_json() == {"type": "ffi.BigInt"}
    # The older function form: args = [return, params...].
    old = s('{"type":"ffi.Function","args":[{"type":"None"},{"type":"ffi.Tensor"},{"type":"ffi.Tensor"}]}')
    assert str(old) == "Callable[[Tensor, Tensor], None]"
    assert str(s('{"type":"ffi.Function","args":[{"type":"int"}]}')) == "Callable[..., int]"
    arr = s('{"type":"ffi.Array","args":[{"type":"int"}]}')
    assert arr.origin == "Array" and arr.args == (TypeSchema("int"),)
    assert arr.to_json() == {"type": "Array", "args": [{"type": "int"}]}
    assert arr == TypeSchema.from_json_obj({"type": "ffi.Array", "args": [{"type": "int"}]})
    assert arr.repr(lambda name: "list" if name == "Array" else name) == "list[int]"
    assert arr.input_repr() == arr.output_repr() == "Array[int]"
    assert repr(arr) == "Array[int]"
    callable_ = s(fn("int", "int"))
    assert callable_.origin == "Callable" and callable_.args == ()
    assert callable_.named_args == {"return": (TypeSchema("int"),), "params": (TypeSchema("int"),)}
    assert str(TypeSchema("list", (TypeSchema("int"),))) == "list[int]"
    assert str(TypeSchema("Optional", (TypeSchema("int"),))) == "int | None"


@pytest.mark.parametrize(
    "obj, error, message",
    [
        ({"args": []}, TypeError, "expected schema dict with 'type' key, got dict"),
        ([1], TypeError, "expected schema dict with 'type' key, got list"),
        ({"type": 3}, TypeError, "schema type must be a string"),
        ({"type": "Optional"}, ValueError, "Optional must have exactly one argument"),
        ({"type": "Variant", "args": [{"type": "int"}]}, ValueError,
         "Union must have at least two arguments"),
        ({"type": "ffi.Array", "args": [{"type": "int"}, {"type": "int"}]}, ValueError,
         "Array must have 0 or 1 argument"),
        ({"type": "ffi.Map", "args": [{"type": "int"}]}, ValueError,
         "Map must have 0 or 2 arguments"),
    ],
)
def test_type_schema_errors(obj, error, message):
    with pytest.raises(error) as e:
        TypeSchema.from_json_obj(obj)
    assert str(e.value) == message
