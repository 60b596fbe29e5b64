"""FFI enums: Enum, IntEnum, StrEnum, entry, auto, EnumState, EnumAttrMap,
and the enums the testing library registers in C++."""
import copy
import json
import pickle
from typing import ClassVar

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.dataclasses import (
    Enum,
    EnumAttrMap,
    EnumState,
    IntEnum,
    StrEnum,
    auto,
    entry,
    fields,
    is_dataclass,
    py_class,
)
from tvm_ffi.dataclasses.enum import ENUM_STATE_ATTR
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
from tvm_ffi.testing import _TestCxxEnumHolder, _TestCxxIntEnum, _TestCxxStrEnum

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


class Color(Enum, type_key="testing.dce.Color"):
    RED = auto()
    GREEN = auto()
    BLUE = auto()


class Op(Enum, type_key="testing.dce.Op"):
    arity: int
    symbol: str = "?"

    ADD = entry(arity=2, symbol="+")
    NEG = entry(1, "-")
    NOP = entry(arity=0)


class Level(IntEnum, type_key="testing.dce.Level"):
    LOW = 10
    MID = entry(value=11)
    HIGH = 100
    BOTTOM = INT64_MIN


class Mode(StrEnum, type_key="testing.dce.Mode"):
    READ = "r"
    WRITE = entry(value="w")
    ALSO_READ = "r"  # an alias of READ


def _state(cls):
    return core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, ENUM_STATE_ATTR)


def test_plain_variants_are_singletons_with_indices():
    assert isinstance(Color.RED, Color) and isinstance(Color.RED, tvm_ffi.Object)
    assert [(c._int_index, c._str_index) for c in Color] == [(0, "RED"), (1, "GREEN"), (2, "BLUE")]
    assert len(Color) == 3
    assert Color.get(1).same_as(Color.GREEN)
    assert Color.get("BLUE").same_as(Color.BLUE)
    assert Color("RED").same_as(Color.RED) and Color(2).same_as(Color.BLUE)
    assert Color(Color.RED) is Color.RED
    assert list(Color.all_entries()) == [Color.RED, Color.GREEN, Color.BLUE]
    assert is_dataclass(Color)
    assert repr(Color.GREEN) == "testing.dce.Color.GREEN"
    assert not hasattr(Color.RED, "name")  # only payload enums have name/value
    parent = Color.__tvm_ffi_type_info__.parent_type_info
    assert parent.type_key == "ffi.Enum"


def test_lookup_errors():
    with pytest.raises(KeyError, match="^7$"):
        Color.get(7)
    with pytest.raises(ValueError, match="'PURPLE' is not a valid Color"):
        Color("PURPLE")
    with pytest.raises(ValueError, match="7 is not a valid Color"):
        Color(7)
    with pytest.raises(TypeError, match="an enum index is an int or a str, got float"):
        Color.get(1.5)
    with pytest.raises(OverflowError, match="outside the int64 range"):
        Color.get(1 << 63)


def test_variants_are_frozen():
    with pytest.raises(AttributeError):
        Color.RED._int_index = 5
    with pytest.raises(AttributeError):
        Op.ADD.arity = 3
    assert Op.ADD.arity == 2


def test_declared_fields_by_keyword_position_and_default():
    assert (Op.ADD.arity, Op.ADD.symbol) == (2, "+")
    assert (Op.NEG.arity, Op.NEG.symbol) == (1, "-")
    assert (Op.NOP.arity, Op.NOP.symbol) == (0, "?")
    assert [v._int_index for v in Op] == [0, 1, 2]


def test_int_enum_payloads():
    assert [v.value for v in Level] == [10, 11, 100, INT64_MIN]
    assert [v.name for v in Level] == ["LOW", "MID", "HIGH", "BOTTOM"]
    assert Level.BOTTOM._int_index == INT64_MIN
    assert Level(11).same_as(Level.MID) and Level("HIGH").same_as(Level.HIGH)
    with pytest.raises(KeyError, match="^1$"):  # a bool is the int index 0 or 1
        Level.get(True)
    with pytest.raises(OverflowError):
        Level(INT64_MAX + 1)
    assert Level.LOW == 10 and Level.LOW != 11 and Level.LOW == Level.LOW
    assert hash(Level.HIGH) == hash(100)
    assert str(Level.HIGH) == "100" and repr(Level.HIGH) == "Level.HIGH"


def test_str_enum_payloads_and_aliases():
    assert list(Mode) == [Mode.READ, Mode.WRITE]
    assert Mode.ALSO_READ.same_as(Mode.READ)
    assert Mode.READ.name == Mode.READ.value == Mode.READ._str_index == "r"
    assert Mode.WRITE._int_index == 1
    assert Mode("w").same_as(Mode.WRITE) and Mode.get(0).same_as(Mode.READ)
    assert Mode.READ == "r" and str(Mode.WRITE) == "w" and repr(Mode.WRITE) == "Mode.w"
    with pytest.raises(ValueError, match="'WRITE' is not a valid Mode"):
        Mode("WRITE")


def test_user_methods_are_kept():
    class Prio(IntEnum, type_key="testing.dce.Prio"):
        A = 1

        def __repr__(self):
            return f"Prio<{self.value}>"

        def twice(self):
            return 2 * self.value

    assert repr(Prio.A) == "Prio<1>" and Prio.A.twice() == 2


def test_state_is_one_type_attribute():
    state = _state(Level)
    assert isinstance(state, EnumState)
    assert [f.name for f in fields(state)] == ["entries", "indexes", "attrs"]
    assert list(state.entries) == list(Level)
    assert state.indexes[100].same_as(Level.HIGH) and state.indexes["HIGH"].same_as(Level.HIGH)
    assert len(state.indexes) == 8


def test_singletons_cross_the_abi_unchanged():
    echo = tvm_ffi.get_global_func("testing.echo")
    assert echo(Color.RED).same_as(Color.RED)
    arr = tvm_ffi.Array([Color.GREEN, Level.LOW])
    assert arr[0].same_as(Color.GREEN) and type(arr[0]) is Color and type(arr[1]) is Level


def test_json_graph_carries_the_index():
    for variant, data in [(Color.BLUE, "BLUE"), (Level.BOTTOM, INT64_MIN), (Mode.WRITE, "w")]:
        text = to_json_graph_str(variant)
        graph = json.loads(text)
        assert graph["nodes"][graph["root_index"]] == {
            "type": variant.__tvm_ffi_type_info__.type_key,
            "data": data,
        }
        assert from_json_graph_str(text).same_as(variant)
    assert pickle.loads(pickle.dumps(Level.HIGH)).same_as(Level.HIGH)


def test_json_graph_bad_index():
    bad = json.dumps({"root_index": 0, "nodes": [{"type": "testing.dce.Level", "data": 12}]})
    with pytest.raises(ValueError, match="enum `testing.dce.Level` has no instance at index 12"):
        from_json_graph_str(bad)
    bad = json.dumps({"root_index": 0, "nodes": [{"type": "testing.dce.Level", "data": "LOW"}]})
    with pytest.raises(TypeError, match="must be an int, got str"):
        from_json_graph_str(bad)
    bad = json.dumps({"root_index": 0, "nodes": [{"type": "testing.dce.Color", "data": 0}]})
    with pytest.raises(TypeError, match="must be a str, got int"):
        from_json_graph_str(bad)


def test_py_class_fields_take_payloads():
    @py_class("testing.dce.Holder")
    class Holder(tvm_ffi.Object):
        level: Level
        mode: Mode

    h = Holder(level=100, mode="w")
    assert h.level.same_as(Level.HIGH) and h.mode.same_as(Mode.WRITE)
    h.level = Level.LOW
    assert h.level.same_as(Level.LOW)
    with pytest.raises(TypeError, match="expects Level, got int 12"):
        h.level = 12
    with pytest.raises(TypeError, match=r"int64 range"):
        Holder(level=INT64_MAX + 1, mode="r")
    with pytest.raises(TypeError, match='expects Mode, got str "x"'):
        Holder(level=10, mode="x")
    assert h.level.same_as(Level.LOW)
    back = from_json_graph_str(to_json_graph_str(h))
    assert back.level.same_as(Level.LOW) and back.mode.same_as(Mode.WRITE)
    assert tvm_ffi.structural_equal(h, back)


def test_structural_equality_is_identity():
    duplicate = copy.copy(Color.RED)
    assert not duplicate.same_as(Color.RED)
    assert tvm_ffi.structural_equal(Color.RED, Color.RED)
    assert not tvm_ffi.structural_equal(Color.RED, duplicate)
    assert not tvm_ffi.structural_equal(Color.RED, Color.GREEN)


def test_attr_maps_live_in_the_state():
    class Fn(IntEnum, type_key="testing.dce.Fn"):
        ADD = 0
        MUL = 1

    cost = Fn.def_attr("cost", default=0)
    assert isinstance(cost, EnumAttrMap) and cost.name == "cost"
    assert cost[Fn.MUL] == 0 and Fn.MUL not in cost
    cost[Fn.ADD] = 3
    assert cost[Fn.ADD] == 3 and Fn.ADD in cost
    assert EnumAttrMap(Fn, "cost")[Fn.ADD] == 3
    assert _state(Fn).attrs["cost"][Fn.ADD] == 3
    assert Fn.attr_dict["cost"][Fn.ADD] == 3
    label = Fn.def_attr("label")
    assert label.get(Fn.ADD) is None and label.get(Fn.ADD, "x") == "x"
    with pytest.raises(KeyError, match="has no value for attribute 'label'"):
        label[Fn.ADD]
    with pytest.raises(TypeError, match="expected a variant of Fn, got Color"):
        cost[Color.RED] = 1
    assert Color.RED not in cost
    with pytest.raises(TypeError, match="EnumAttrMap needs an Enum class, got <class 'int'>"):
        EnumAttrMap(int, "x")


def test_definition_errors():
    with pytest.raises(TypeError, match="IntEnum reserves `value`"):

        class V1(IntEnum, type_key="testing.dce.V1"):
            value: int
            A = 1

    with pytest.raises(TypeError, match="BadInt.X: the value must be a int, got str"):

        class BadInt(IntEnum, type_key="testing.dce.BadInt"):
            X = "a"

    with pytest.raises(TypeError, match="BadStr.X: the value must be a str, got int"):

        class BadStr(StrEnum, type_key="testing.dce.BadStr"):
            X = 1

    with pytest.raises(TypeError, match="NoValue.X needs a int value"):

        class NoValue(IntEnum, type_key="testing.dce.NoValue"):
            X = auto()

    # The name `low` is taken (at 10) in the C++-registered type's state.
    info = _TestCxxIntEnum.__tvm_ffi_type_info__
    try:
        with pytest.raises(ValueError, match="Clash.low: the enum index is taken"):

            class Clash(IntEnum, type_key="testing.TestCxxIntEnum"):
                low = 30

        assert len(_TestCxxIntEnum) == 2
    finally:  # binding the key rebound the type to Clash: undo that
        core._register_object(info.type_index, _TestCxxIntEnum)
        info.type_cls = _TestCxxIntEnum

    with pytest.raises(TypeError, match="the enum indices are not field values"):

        class Idx(Enum, type_key="testing.dce.Idx"):
            A = entry(_int_index=3)

    with pytest.raises(TypeError, match="Unknown.A: invalid enum variant: .*no.* field `nope`"):

        class Unknown(Enum, type_key="testing.dce.Unknown"):
            A = entry(nope=1)


def test_cxx_registered_variants_bind_by_string_index():
    class Variant(Enum, type_key="testing.TestEnumVariant"):
        Alpha: ClassVar["Variant"]
        Beta: ClassVar["Variant"]

    get = tvm_ffi.get_global_func("testing.enum_variant_get")
    assert get("Alpha").same_as(Variant.Alpha) and get("Beta").same_as(Variant.Beta)
    assert (Variant.Alpha._int_index, Variant.Beta._int_index) == (0, 1)
    assert Variant.attr_dict["code"][Variant.Beta] == 20
    assert Variant.def_attr("code")[Variant.Alpha] == 10
    missing = 'enum `testing.TestEnumVariant` has no instance at index "Gamma"'
    with pytest.raises(ValueError, match=missing):
        get("Gamma")
    with pytest.raises(RuntimeError, match="has no variant at string index 'Gamma'"):

        class Typo(Enum, type_key="testing.TestEnumVariant"):
            Gamma: ClassVar["Typo"]


def test_cxx_payload_enums_and_enum_ref_fields():
    assert [(v.value, v.name) for v in _TestCxxIntEnum] == [(10, "low"), (20, "high")]
    assert [v.value for v in _TestCxxStrEnum] == ["+", "*"]
    assert _TestCxxIntEnum.__tvm_ffi_type_info__.parent_type_info.type_key == "ffi.IntEnum"
    h = _TestCxxEnumHolder(priority=20, opcode="*")
    assert h.priority.same_as(_TestCxxIntEnum.high) and h.opcode.same_as(_TestCxxStrEnum.mul)
    h.priority = 10
    h.opcode = _TestCxxStrEnum.add
    assert h.priority.same_as(_TestCxxIntEnum.low) and h.opcode.same_as(_TestCxxStrEnum.add)
    with pytest.raises(TypeError, match="expected testing.TestCxxIntEnum, got int"):
        h.priority = 99
    with pytest.raises(TypeError, match="expected testing.TestCxxStrEnum, got str"):
        h.opcode = "/"
    wrong = "expected testing.TestCxxIntEnum, got testing.TestCxxStrEnum"
    with pytest.raises(TypeError, match=wrong):
        h.priority = _TestCxxStrEnum.add
    assert h.priority.same_as(_TestCxxIntEnum.low) and h.opcode.same_as(_TestCxxStrEnum.add)
    back = from_json_graph_str(to_json_graph_str(h))
    assert back.priority.same_as(_TestCxxIntEnum.low) and back.opcode.same_as(_TestCxxStrEnum.add)
