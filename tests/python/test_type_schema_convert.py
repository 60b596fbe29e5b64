"""TypeSchema.convert / check_value (tvm_ffi/_type_converter.py), core.CAny
(pyshim/cany.c), core._to_py_class_value, TypeSchema.from_annotation
(tvm_ffi/_annotation.py), from_type_index and is_subtype_of."""
from __future__ import annotations

import ctypes
import gc
import sys
import typing
from typing import Callable, Optional, Union

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.core import CAny, ObjectConvertible, TypeSchema, _to_py_class_value

A = TypeSchema.from_annotation


def S(origin, *args):
    return TypeSchema(origin, tuple(args))


def convert(schema, value):
    return _to_py_class_value(schema.convert(value))


def error_of(fn, *args) -> str:
    with pytest.raises(TypeError) as e:
        fn(*args)
    return str(e.value)


# ---- CAny -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, type_index, text",
    [
        (None, 0, "CAny(None)"),
        (42, 1, "CAny(int=42)"),
        (True, 2, "CAny(bool=True)"),
        (2.5, 3, "CAny(float=2.5)"),
        ("abcdefg", 11, "CAny(type_index=11)"),  # 7 bytes: inline SmallStr
        ("abcdefgh", 65, "CAny(object, type_index=65)"),  # 8 bytes: an ffi.String
        (b"abcdefg", 12, "CAny(type_index=12)"),
        (b"abcdefgh", 66, "CAny(object, type_index=66)"),
        ([1, 2], 71, "CAny(object, type_index=71)"),
    ],
)
def test_cany_holds_the_ffi_value(value, type_index, text):
    cany = CAny(value)
    assert cany.type_index == type_index
    assert repr(cany) == text


def test_cany_default_is_none_and_type_is_final():
    assert CAny().type_index == 0
    with pytest.raises(TypeError):

        class Sub(CAny):  # noqa: F841  (CAny is not subclassable)
            pass


def test_cany_bad_value_is_the_conversion_error():
    class Unconvertible:
        def __tvm_ffi_int__(self):
            raise ValueError("no int here")

    with pytest.raises(ValueError, match="no int here"):
        CAny(Unconvertible())


def test_cany_owns_one_reference_and_releases_it():
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    base = core._object_use_count(pair)
    cany = CAny(pair)
    assert core._object_use_count(pair) == base + 1
    out = _to_py_class_value(cany)
    assert out.same_as(pair)
    del out
    gc.collect()
    assert core._object_use_count(pair) == base + 1
    del cany
    gc.collect()
    assert core._object_use_count(pair) == base


def test_to_py_class_value_unwraps_and_passes_others():
    assert type(_to_py_class_value(CAny("hi"))) is core.String
    assert type(_to_py_class_value(CAny("x" * 40))) is core.String
    assert type(_to_py_class_value(CAny(b"hi"))) is core.Bytes
    assert _to_py_class_value(CAny(7)) == 7
    marker = object()
    assert _to_py_class_value(marker) is marker
    ptr = _to_py_class_value(CAny(ctypes.c_void_p(None)))
    assert isinstance(ptr, ctypes.c_void_p) and ptr.value is None


# ---- scalars --------------------------------------------------------------------------


def test_convert_returns_cany_and_check_value_none():
    cany = A(int).convert(True)
    assert isinstance(cany, CAny) and repr(cany) == "CAny(int=1)"
    assert A(int).check_value(3) is None


@pytest.mark.parametrize(
    "annotation, value, expected, expected_type",
    [
        (int, True, 1, int),
        (float, 2, 2.0, float),
        (float, True, 1.0, float),
        (bool, 0, False, bool),
        (bytes, bytearray(b"ab"), b"ab", core.Bytes),
        (str, "ab", "ab", core.String),
        (Optional[float], 3, 3.0, float),
        (Union[int, str], False, 0, int),
    ],
)
def test_scalar_conversions(annotation, value, expected, expected_type):
    out = convert(A(annotation), value)
    assert out == expected
    assert type(out) is expected_type


@pytest.mark.parametrize(
    "annotation, value, message",
    [
        (int, "hello", "type check failed for int: expected int, got str"),
        (int, None, "type check failed for int: expected int, got None"),
        (int, 1.5, "type check failed for int: expected int, got float"),
        (str, b"x", "type check failed for str: expected str, got bytes"),
        (bytes, "x", "type check failed for bytes: expected bytes, got str"),
        (type(None), 1, "type check failed for None: expected None, got int"),
        (
            int,
            2**63,
            "type check failed for int: integer 9223372036854775808 out of int64 range "
            "[-9223372036854775808, 9223372036854775807]",
        ),
        (Optional[int], "a", "type check failed for int | None: expected int, got str"),
        (Union[int, str], 1.5, "type check failed for int | str: expected int | str, got float"),
        (Callable, 3, "type check failed for Callable[..., Any]: expected Callable, got int"),
        (ctypes.c_void_p, 3, "type check failed for ctypes.c_void_p: expected ctypes.c_void_p, got int"),
        (
            tvm_ffi.Device,
            "llvm",
            "type check failed for Device: expected Device, got invalid device string 'llvm'",
        ),
        (
            tvm_ffi.dtype,
            "float3x",
            "type check failed for dtype: expected dtype, got invalid dtype string 'float3x'",
        ),
        (core.Object, None, "type check failed for Object: expected Object, got None"),
        (core.Object, 3, "type check failed for Object: expected Object, got int"),
    ],
)
def test_scalar_rejections(annotation, value, message):
    assert error_of(A(annotation).check_value, value) == message
    assert error_of(A(annotation).convert, value) == message.replace(
        "type check failed", "type conversion failed"
    )


def test_int_hook_errors_become_type_errors():
    import numbers

    class BadInt:
        def __int__(self):
            raise RuntimeError("boom")

    numbers.Integral.register(BadInt)
    assert error_of(A(int).convert, BadInt()) == (
        "type conversion failed for int: int() failed for BadInt: boom"
    )


def test_float_rejects_an_int_too_large():
    assert error_of(A(float).check_value, 2**1100).startswith(
        "type check failed for float: integer 1"
    )


def test_str_and_bytes_are_repacked_inline_when_short():
    assert A(str).convert(core.String("hi")).type_index == 11
    assert A(str).convert("x" * 8).type_index == 65
    assert A(bytes).convert(core.Bytes(b"hi")).type_index == 12


def test_device_dtype_and_pointer_conversions():
    assert convert(A(tvm_ffi.Device), "cuda:1") == tvm_ffi.device("cuda", 1)

    class DevOnly:
        def __dlpack_device__(self):
            return (2, 3)

    assert convert(A(tvm_ffi.Device), DevOnly()) == tvm_ffi.device("cuda", 3)
    dt = convert(A(tvm_ffi.dtype), "int8")
    assert isinstance(dt, tvm_ffi.dtype) and str(dt) == "int8"

    class Stream:
        def __cuda_stream__(self):
            return (0, 1234)

    assert convert(A(ctypes.c_void_p), Stream()).value == 1234


# ---- protocols ------------------------------------------------------------------------


def test_value_protocol_is_followed_and_cycles_reported():
    class Step:
        def __init__(self, n):
            self.n = n

        def __tvm_ffi_value__(self):
            return Step(self.n - 1) if self.n else 7

    assert convert(A(int), Step(3)) == 7

    class Loop:
        def __tvm_ffi_value__(self):
            return self.other

    a, b = Loop(), Loop()
    a.other, b.other = b, a
    assert error_of(A(int).check_value, a) == (
        "type check failed for int: infinite __tvm_ffi_value__ cycle detected"
    )

    class Stuck:
        def __tvm_ffi_value__(self):
            return self

    assert error_of(A(typing.Any).convert, Stuck()) == (
        "type conversion failed for Any: failed to convert Any from Stuck"
    )


def test_object_protocols_and_their_failures():
    pair = tvm_ffi.testing.TestIntPair(3, 4)

    class Holder(ObjectConvertible):
        def asobject(self):
            return pair

    assert convert(A(tvm_ffi.testing.TestIntPair), Holder()).same_as(pair)

    class Broken(ObjectConvertible):
        def asobject(self):
            raise RuntimeError("x")

    assert error_of(A(core.Object).check_value, Broken()) == (
        "type check failed for Object: asobject() failed for Broken"
    )

    class BadProto:
        def __tvm_ffi_object__(self):
            raise RuntimeError("x")

    assert error_of(A(typing.Any).check_value, BadProto()) == (
        "type check failed for Any: __tvm_ffi_object__() failed for BadProto"
    )


# ---- containers -----------------------------------------------------------------------


def test_sequence_conversion_and_paths():
    out = convert(A(tuple[float, ...]), [1, True])
    assert isinstance(out, tvm_ffi.Array) and list(out) == [1.0, 1.0]
    assert all(type(x) is float for x in out)
    out = convert(A(list[int]), (True,))
    assert isinstance(out, tvm_ffi.List) and list(out) == [1]
    assert error_of(A(tuple[tuple[int, ...], ...]).check_value, [[1], [2, "x"]]) == (
        "type check failed for Array[Array[int]]: element [1]: element [1]: "
        "expected int, got str"
    )
    assert error_of(A(tuple[int, ...]).check_value, "abc") == (
        "type check failed for Array[int]: expected Array, got str"
    )
    assert error_of(A(tuple[int, ...]).check_value, tvm_ffi.Map({"a": 1})) == (
        "type check failed for Array[int]: expected Array, got ffi.Map"
    )


def test_ffi_containers_pass_through_when_nothing_changes():
    arr = tvm_ffi.Array([1, 2])
    assert convert(A(tuple[int, ...]), arr).same_as(arr)
    changed = convert(A(tuple[float, ...]), arr)
    assert not changed.same_as(arr) and list(changed) == [1.0, 2.0]
    # Array <-> List: accepted, but made into the schema's kind.
    lst = convert(A(list[int]), arr)
    assert isinstance(lst, tvm_ffi.List) and list(lst) == [1, 2]
    m = tvm_ffi.Map({"a": 1})
    assert convert(A(tvm_ffi.Map[str, int]), m).same_as(m)
    d = convert(A(dict[str, int]), m)
    assert isinstance(d, tvm_ffi.Dict) and dict(d) == {"a": 1}


def test_mapping_conversion_and_paths():
    out = convert(A(tvm_ffi.Map[str, float]), {"a": 1})
    assert isinstance(out, tvm_ffi.Map) and type(out["a"]) is float
    assert error_of(A(tvm_ffi.Map[str, int]).check_value, {1: 2}) == (
        "type check failed for Map[str, int]: key 1: expected str, got int"
    )
    assert error_of(A(dict[str, int]).check_value, {"k": "v"}) == (
        "type check failed for Dict[str, int]: value for key 'k': expected int, got str"
    )
    assert error_of(A(tvm_ffi.Map[str, int]).check_value, [("a", 1)]) == (
        "type check failed for Map[str, int]: expected Map, got list"
    )


def test_tuple_schemas():
    out = convert(A(tuple[int, float]), [True, 2])
    assert isinstance(out, tvm_ffi.Array) and list(out) == [1, 2.0]
    assert error_of(A(tuple[int, str]).check_value, (1,)) == (
        "type check failed for tuple[int, str]: expected tuple of length 2, "
        "got tuple of length 1"
    )
    assert error_of(TypeSchema("tuple", ()).check_value, [1]) == (
        "type check failed for tuple[()]: expected tuple of length 0, got list of length 1"
    )
    A(tuple).check_value([1, "a", None])  # untyped: any items


# ---- objects --------------------------------------------------------------------------


def test_object_schemas_follow_the_type_hierarchy():
    derived = tvm_ffi.testing.TestObjectDerived(
        v_map={"a": 1}, v_array=[1], v_i64=0, v_f64=0.0, v_str=""
    )
    A(tvm_ffi.testing.TestObjectBase).check_value(derived)
    base = tvm_ffi.testing.TestObjectBase(v_i64=1, v_f64=1.0, v_str="a")
    assert error_of(A(tvm_ffi.testing.TestObjectDerived).check_value, base) == (
        "type check failed for testing.TestObjectDerived: expected testing.TestObjectDerived, "
        "got testing.TestObjectBase"
    )
    assert A(tvm_ffi.testing.TestObjectDerived).is_subtype_of(tvm_ffi.testing.TestObjectBase)
    assert not A(tvm_ffi.testing.TestObjectBase).is_subtype_of(tvm_ffi.testing.TestObjectDerived)
    assert not A(int).is_subtype_of(tvm_ffi.testing.TestObjectBase)


def test_generic_object_takes_what_a_call_makes_an_object():
    err = convert(A(tvm_ffi.core.Error), ValueError("oops"))
    assert isinstance(err, core.Object) and err.__tvm_ffi_type_key__ == "ffi.Error"
    arr = convert(A(core.Object), [1, 2])
    assert isinstance(arr, tvm_ffi.Array)


def test_shape_from_a_sequence_of_ints():
    for value in ([1, 2], tvm_ffi.List([1, 2]), tvm_ffi.Array([1, 2])):
        out = convert(S("ffi.Shape"), value)
        assert isinstance(out, tvm_ffi.Shape) and tuple(out) == (1, 2)
    assert error_of(S("ffi.Shape").convert, [1, "x"]) == (
        "type conversion failed for ffi.Shape: expected ffi.Shape, got list "
        "(element [1] is str, not int)"
    )


def test_unknown_origin_fails_on_first_use():
    schema = S("no_such_type")
    assert schema.origin_type_index == -3
    assert error_of(schema.check_value, 1) == "unknown TypeSchema origin: 'no_such_type'"


# ---- construction ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin, args, message",
    [
        ("Optional", (), "Optional must have exactly one argument"),
        ("Union", (S("int"),), "Union must have at least two arguments"),
        ("Array", (S("int"), S("int")), "Array must have 0 or 1 argument"),
        ("dict", (S("int"),), "dict must have 0 or 2 arguments"),
    ],
)
def test_constructor_checks_arity(origin, args, message):
    with pytest.raises(ValueError) as e:
        TypeSchema(origin, args)
    assert str(e.value) == message


def test_constructor_fills_defaults():
    assert TypeSchema("Map").args == (S("Any"), S("Any"))
    assert TypeSchema("tuple").args is None and TypeSchema("tuple", ()).args == ()
    assert TypeSchema("Callable", (S("bool"), S("int"))).named_args == {
        "return": (S("bool"),),
        "params": (S("int"),),
    }
    assert [S(o).origin_type_index for o in ("int", "str", "Array", "list", "Any")] == [
        1,
        65,
        71,
        -3,
        -1,
    ]
    assert S("Optional", S("int")).origin_type_index == -2


@pytest.mark.parametrize(
    "annotation, expected",
    [
        (list[int], "List[int]"),
        (dict[str, float], "Dict[str, float]"),
        (tuple[int, ...], "Array[int]"),
        (tuple[int, str], "tuple[int, str]"),
        (tuple[()], "tuple[()]"),
        (Optional[Union[int, str]], "int | str | None"),
        (Callable[[int], str], "Callable[[int], str]"),
        (tvm_ffi.Map[str, int], "Map[str, int]"),
        (core.Function, "Callable[..., Any]"),
        (tvm_ffi.testing.TestIntPair, "testing.TestIntPair"),
    ],
)
def test_from_annotation(annotation, expected):
    assert repr(A(annotation)) == expected


@pytest.mark.parametrize(
    "annotation, message",
    [
        (complex, "Cannot convert <class 'complex'> to TypeSchema"),
        (tvm_ffi.Array[int, str], "Array requires 1 type argument, got 2"),
        (dict[str], "dict requires 0 or 2 type arguments, got 1"),
    ],
)
def test_from_annotation_errors(annotation, message):
    assert error_of(A, annotation) == message


def test_from_type_index_and_json_extensions():
    assert repr(TypeSchema.from_type_index(71, (S("int"),))) == "Array[int]"
    s = TypeSchema.from_type_index(core._type_key_to_index("ffi.BigInt"))
    assert (s.origin, s.type_key) == ("int", "ffi.BigInt")
    assert s == S("int")  # the key takes no part in equality
    s = TypeSchema.from_json_str('{"type":"std::function","args":[{"type":"int"},[{"type":"str"}]]}')
    assert repr(s) == "Callable[[str], int]"
    s = TypeSchema.from_json_obj({"type": "mylib.Positive", "fallback": {"type": "int"}})
    assert repr(s) == "int"
    assert TypeSchema.from_json_obj({"type": "int", "args": "bad"}).args == ()
    with pytest.raises(TypeError, match=r"schema named_args\['m'\] must be a list"):
        TypeSchema.from_json_obj({"type": "int", "named_args": {"m": {"type": "str"}}})


def test_converter_is_built_once():
    schema = A(tuple[int, ...])
    schema.check_value([1])
    conv = schema._converter()
    schema.check_value([2])
    assert schema._converter() is conv


def test_import_tvm_ffi_does_not_load_the_converter():
    import subprocess

    code = (
        "import sys, tvm_ffi; "
        "print('tvm_ffi._type_converter' in sys.modules, 'tvm_ffi._annotation' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_enum_schema_takes_a_variant_or_its_payload():
    from tvm_ffi.dataclasses import IntEnum, StrEnum

    class Level(IntEnum, type_key="testing.type_schema_convert.Level"):
        low = 0
        high = 1

    class Op(StrEnum, type_key="testing.type_schema_convert.Op"):
        add = "add"

    assert convert(A(Level), 1).same_as(Level.high)
    assert convert(A(Level), Level.low).same_as(Level.low)
    assert convert(A(Op), "add").same_as(Op.add)
    assert error_of(A(Level).check_value, 5) == (
        "type check failed for testing.type_schema_convert.Level: "
        "expected testing.type_schema_convert.Level, got int"
    )
    assert error_of(A(Level).check_value, True) == (
        "type check failed for testing.type_schema_convert.Level: "
        "expected testing.type_schema_convert.Level, got bool"
    )


def test_to_json_round_trips_tuples_and_fallbacks():
    for schema in (
        TypeSchema("tuple", ()),
        TypeSchema("tuple"),
        A(tuple[int, str]),
        TypeSchema("mylib.Positive", fallback=S("int")),
    ):
        back = TypeSchema.from_json_obj(schema.to_json())
        assert back == schema and back.args == schema.args
        assert repr(back) == repr(schema)


def test_input_repr_widens_by_the_convert_type_schema():
    from tvm_ffi.dataclasses import py_class

    key = "testing.type_schema_convert.ExprLike"

    @py_class(key)
    class ExprLike(core.Object):
        __ffi_convert_type_schema__ = (
            '{"type":"Union","args":[{"type":"int"},{"type":"%s"}]}' % key
        )

    schema = TypeSchema.from_annotation(ExprLike)
    assert schema.output_repr() == key
    assert schema.input_repr() == f"int | {key}"
    assert A(tuple[ExprLike, ...]).input_repr() == f"Array[int | {key}]"
    assert A(tuple[ExprLike, ...]).repr() == f"Array[{key}]"
