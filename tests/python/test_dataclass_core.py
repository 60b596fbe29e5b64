"""The shim primitives of Python-defined FFI types: core._alloc_type_index,
ffi.DataclassDefine, core.FFIProperty, core.MISSING / core.KWARGS, and a
defined type used from C++ through the testing library."""
import itertools
import sys

import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core

_define = tvm_ffi.get_global_func("ffi.DataclassDefine")
_serial = itertools.count()

WRITABLE, HAS_DEFAULT, FACTORY, KW_ONLY = 1, 2, 32, 1024
INT, BOOL, FLOAT, ANY, STR, ARRAY = 1, 2, 3, -1, 65, 71


def fresh_key(name):
    return f"dccore_test.{name}{next(_serial)}"


def field(name, static_index, nullable=False, flags=0, doc=None, default=None, check=None):
    return [name, static_index, nullable, flags, doc, default, check]


def define(name, fields, parent=64, kind=0):
    """A new type with `fields`, bound to a new Python class; returns the class."""
    key = fresh_key(name)
    index = core._alloc_type_index(key, parent)
    _define(index, fields, kind)
    cls = type(name, (tvm_ffi.Object,), {"__test__": False})
    return tvm_ffi.register_object(key)(cls)


@pytest.fixture
def Point():
    return define("Point", [
        field("x", INT, doc="abscissa"),
        field("y", FLOAT, flags=HAS_DEFAULT, default=0.5),
        field("name", STR, nullable=True, flags=HAS_DEFAULT | KW_ONLY, default=None),
    ])


def test_alloc_type_index_gives_new_indices_and_refuses_taken_keys():
    key = fresh_key("Alloc")
    a = core._alloc_type_index(key, 64)
    b = core._alloc_type_index(fresh_key("Alloc"), a)
    assert a >= 128 and b > a
    assert core._type_key_to_index(key) == a
    with pytest.raises(ValueError) as e:
        core._alloc_type_index(key, 64)
    assert str(e.value) == f"type key '{key}' is already registered"
    with pytest.raises(ValueError) as e:
        core._alloc_type_index("ffi.Array", 64)
    assert str(e.value) == "type key 'ffi.Array' is already registered"
    with pytest.raises(TypeError):
        core._alloc_type_index(3, 64)


def test_sentinels_are_the_ffi_objects():
    assert core.MISSING.same_as(tvm_ffi.get_global_func("ffi.GetInvalidObject")())
    assert core.KWARGS.same_as(tvm_ffi.get_global_func("ffi.GetKwargsObject")())
    assert not core.MISSING.same_as(core.KWARGS)


def test_fields_become_ffi_properties(Point):
    prop = Point.__dict__["x"]
    assert type(prop) is core.FFIProperty
    assert Point.x is prop  # __get__(None, cls) is the descriptor
    assert (prop.name, prop.field_index, prop.frozen) == ("x", 0, False)
    assert prop.type_index == Point.__tvm_ffi_type_info__.type_index
    assert prop.__doc__ == "abscissa"
    assert Point.y.__doc__ is None


def test_init_defaults_and_keywords(Point):
    p = Point(3)
    assert (p.x, p.y, p.name) == (3, 0.5, None)
    q = Point(4, 1.5, name="q")
    assert (q.x, q.y, q.name) == (4, 1.5, "q")
    with pytest.raises(TypeError) as e:
        Point()
    assert str(e.value).endswith("missing required argument: 'x'")


def test_assignment_is_checked_with_a_clear_type_error(Point):
    p = Point(1)
    key = type(p).__tvm_ffi_type_info__.type_key
    p.x = 7
    p.y = 2  # an int converts to float
    assert (p.x, p.y) == (7, 2.0) and type(p.y) is float
    with pytest.raises(TypeError) as e:
        p.x = "abc"
    assert str(e.value) == f'field `{key}.x` expects int, got str "abc"'
    with pytest.raises(TypeError) as e:
        p.x = None
    assert str(e.value) == f"field `{key}.x` expects int, got None"
    with pytest.raises(TypeError) as e:
        p.name = 3
    assert str(e.value) == f"field `{key}.name` expects str or None, got int 3"
    assert p.x == 7


def test_delete_and_frozen_raise_attribute_error(Point):
    p = Point(1)
    with pytest.raises(AttributeError) as e:
        del p.x
    assert str(e.value) == "cannot delete field 'x' of 'Point'"
    frozen = core.FFIProperty(Point.x.type_index, 0, frozen=True)
    with pytest.raises(AttributeError) as e:
        frozen.__set__(p, 2)
    assert str(e.value) == "cannot assign to field 'x' of frozen 'Point'"
    frozen.set(p, 2)  # the setter, bypassing frozen
    assert frozen.__get__(p, Point) == 2
    assert p.x == 2


def test_read_only_cxx_field_raises():
    vd = tvm_ffi.VirtualDevice()
    assert type(type(vd).virtual_device_id) is core.FFIProperty
    with pytest.raises(AttributeError) as e:
        vd.virtual_device_id = 1
    assert str(e.value) == "field 'virtual_device_id' of 'VirtualDevice' is read-only"


def test_property_refuses_objects_of_another_type(Point):
    other = define("Other", [field("v", INT)])
    o = other(1)
    with pytest.raises(TypeError) as e:
        Point.x.__get__(o, Point)
    assert "does not apply to" in str(e.value)
    with pytest.raises(TypeError):
        Point.x.__get__(5, Point)


def test_ffi_property_arguments_are_checked(Point):
    index = Point.x.type_index
    with pytest.raises(IndexError) as e:
        core.FFIProperty(index, 3)
    assert "has 3 fields; field index 3 is out of range" in str(e.value)
    with pytest.raises(ValueError):
        core.FFIProperty(1 << 20, 0)


def test_any_and_object_fields_keep_identity():
    Holder = define("Holder", [field("a", ANY), field("arr", ARRAY, nullable=True)])
    arr = tvm_ffi.Array([1, 2])
    h = Holder([3], arr)
    assert list(h.a) == [3]
    assert h.arr.same_as(arr)
    h.arr = None
    assert h.arr is None
    h.a = "any value"
    assert h.a == "any value"


def test_check_function_converts_before_storing():
    twice = tvm_ffi.convert(lambda v: v * 2)
    Checked = define("Checked", [field("x", INT, check=twice)])
    c = Checked(4)
    assert c.x == 8
    c.x = 5
    assert c.x == 10


def test_cpp_creates_reads_mutates_and_returns_a_python_defined_type(Point):
    key = Point.__tvm_ffi_type_info__.type_key
    p = t.dataclass_create(key, 1, 2.0, core.KWARGS, "name", "from c++")
    assert type(p) is Point
    assert (p.x, p.y, p.name) == (1, 2.0, "from c++")
    assert t.dataclass_get(p, "x") == 1
    back = t.dataclass_set(p, "x", 42)
    assert back.same_as(p) and p.x == 42
    with pytest.raises(TypeError) as e:
        t.dataclass_set(p, "x", "no")
    assert str(e.value) == f'field `{key}.x` expects int, got str "no"'
    assert list(t.dataclass_field_names(p)) == ["x", "y", "name"]
    empty = t.dataclass_new(key)
    assert (empty.x, empty.y, empty.name) == (0, 0.0, None)


def test_shallow_copy_and_deep_copy():
    Holder = define("Pair", [field("n", INT), field("arr", ARRAY)])
    arr = tvm_ffi.Array([1, 2])
    h = Holder(1, arr)
    s = tvm_ffi.get_global_func("ffi.ShallowCopy")(h)
    assert type(s) is Holder and not s.same_as(h)
    assert s.n == 1 and s.arr.same_as(arr)
    d = tvm_ffi.get_global_func("ffi.DeepCopy")(h)
    assert d.n == 1 and not d.arr.same_as(arr) and list(d.arr) == [1, 2]


def test_fields_release_their_values():
    Holder = define("Keep", [field("a", ANY)])
    arr = tvm_ffi.Array([1])
    before = core._object_use_count(arr)
    h = Holder(arr)
    assert core._object_use_count(arr) == before + 1
    del h
    assert core._object_use_count(arr) == before


def test_property_get_refcounts_are_balanced(Point):
    p = Point(1, name="a long name, heap allocated")
    name = p.name
    before = sys.getrefcount(name)
    for _ in range(100):
        assert p.name == name
    assert sys.getrefcount(name) == before


def test_a_defined_type_extends_a_cpp_type_and_its_methods_work():
    parent = core._type_key_to_index("testing.TestObjectBase")
    Child = define("Child", [field("extra", ANY, flags=HAS_DEFAULT, default="d")], parent=parent)
    c = Child(3, 1.5, "a str longer than seven")
    assert (c.v_i64, c.v_f64, c.v_str, c.extra) == (3, 1.5, "a str longer than seven", "d")
    assert c.add_i64(4) == 7  # the C++ method reads the parent's fields of the same memory
    c.v_i64 = 10
    assert c.add_i64(1) == 11
    assert list(t.dataclass_field_names(c)) == ["v_i64", "v_f64", "v_str", "extra"]
    arr = tvm_ffi.Array([1])
    before = core._object_use_count(arr)
    c.extra = arr
    assert core._object_use_count(arr) == before + 1
    del c
    assert core._object_use_count(arr) == before


def test_repeated_reads_follow_changes_made_from_cpp():
    # Reads after the first take FFIProperty's direct path; each must see
    # the object's memory as it is now, for every storage kind.
    Node = define("RereadNode", [
        field("i", INT), field("f", FLOAT), field("b", BOOL),
        field("s", STR, nullable=True), field("arr", ARRAY, nullable=True), field("a", ANY),
    ])
    n = Node(1, 1.5, True, None, None, None)
    for _ in range(3):
        assert (n.i, n.f, n.b, n.s, n.arr, n.a) == (1, 1.5, True, None, None, None)
    t.dataclass_set(n, "i", -(2**63))
    t.dataclass_set(n, "f", -0.25)
    t.dataclass_set(n, "b", False)
    t.dataclass_set(n, "s", "x" * 50)
    t.dataclass_set(n, "arr", tvm_ffi.Array([1, 2]))
    t.dataclass_set(n, "a", "short")
    for _ in range(2):
        assert n.i == -(2**63) and n.f == -0.25 and n.b is False
        assert n.s == "x" * 50 and list(n.arr) == [1, 2] and n.a == "short"
    t.dataclass_set(n, "s", None)
    assert n.s is None


def test_a_parent_field_read_on_a_child_instance():
    Base = define("ReadBase", [field("x", INT)])
    base_index = core._type_key_to_index(Base.__tvm_ffi_type_info__.type_key)
    Child = define("ReadChild", [field("y", INT)], parent=base_index)
    b, c = Base(1), Child(2, 3)
    for _ in range(2):
        assert (b.x, c.x, c.y) == (1, 2, 3)
        assert Base.x.__get__(c) == 2  # the parent's descriptor on a child object
    with pytest.raises(TypeError, match="does not apply to"):
        Child.y.__get__(b)


def test_the_memo_of_the_last_float_and_str_read_follows_the_value():
    import math

    Node = define("MemoNode", [field("f", FLOAT), field("s", STR)])
    n = Node(0.0, "a" * 45)
    assert math.copysign(1.0, n.f) == 1.0 and n.s == "a" * 45
    t.dataclass_set(n, "f", -0.0)  # equal to 0.0, but other bits
    t.dataclass_set(n, "s", "b" * 45)
    assert math.copysign(1.0, n.f) == -1.0 and n.s == "b" * 45
    t.dataclass_set(n, "f", float("nan"))
    assert math.isnan(n.f) and math.isnan(n.f)
    m = Node(2.5, "b" * 45)  # an equal str in another String object
    assert (m.f, m.s, n.s) == (2.5, "b" * 45, "b" * 45)


def test_a_parent_whose_fields_cannot_be_released_is_refused():
    # testing.SNode has an Any field (16 bytes, static index -1), which the
    # metadata cannot tell from a std::optional or other C++ member.
    key = fresh_key("OnSNode")
    index = core._alloc_type_index(key, core._type_key_to_index("testing.SNode"))
    with pytest.raises(TypeError) as e:
        _define(index, [field("x", INT)], 0)
    assert str(e.value) == (
        f"ffi.DataclassDefine: `{key}` cannot extend `testing.SNode`: its field `children` "
        "(static type index -1, 16 bytes) has a storage a defined type cannot release")


def test_define_argument_ranges():
    with pytest.raises(ValueError, match=r"type index 4294967424 is out of the int32 range"):
        _define(2**32 + 128, [], 0)
    index = core._alloc_type_index(fresh_key("Range"), 64)
    with pytest.raises(ValueError, match=r"structural_eq_kind 4294967297 is out of the int32"):
        _define(index, [], 2**32 + 1)
    with pytest.raises(ValueError, match=r"field 0 has static_type_index 4294967297, out of"):
        _define(index, [field("x", 2**32 + 1)], 0)


def test_big_ints_are_named_in_errors_and_fit_float_fields():
    Num = define("BigNum", [field("i", INT), field("f", FLOAT)])
    n = Num(1, 0.0)
    with pytest.raises(TypeError) as e:
        n.i = 2**70
    assert str(e.value).endswith(
        "expects int, got int 1180591620717411303424 (out of the int64 range)")
    with pytest.raises(TypeError) as e:
        n.i = -(2**63) - 1
    assert str(e.value).endswith(
        "expects int, got int -9223372036854775809 (out of the int64 range)")
    n.f = 2**70
    assert n.f == float(2**70)
    n.f = -(2**64)
    assert n.f == -float(2**64)
    with pytest.raises(TypeError, match=r"expects float, got int 1000000000"):
        n.f = 10**400


def test_a_cxx_class_that_is_not_copy_constructible_is_not_copied():
    import copy

    obj = t.TestNonCopyable(42)
    reason = "does not support copy: its C\\+\\+ class is not copy-constructible"
    with pytest.raises(TypeError, match=f"^ffi.ShallowCopy: type `testing.TestNonCopyable` {reason}$"):
        copy.copy(obj)
    with pytest.raises(RuntimeError, match=f"^ffi.DeepCopy: type `testing.TestNonCopyable` {reason}$"):
        copy.deepcopy(tvm_ffi.Array([obj]))
    assert obj.value == 42
