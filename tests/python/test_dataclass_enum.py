"""FFI enums: Enum, IntEnum, StrEnum, entry, auto."""
import pickle

import pytest

import tvm_ffi
from tvm_ffi.dataclasses import Enum, IntEnum, StrEnum, auto, entry, is_dataclass


class Color(Enum, type_key="testing.dce.Color"):
    RED = auto()
    GREEN = auto()
    BLUE = auto()


class Op(Enum, type_key="testing.dce.Op"):
    arity: int
    symbol: str = "?"

    ADD = entry(arity=2, symbol="+")
    NEG = entry(arity=1, symbol="-")
    NOP = entry(arity=0)


class Level(IntEnum, type_key="testing.dce.Level"):
    LOW = entry(10)
    MID = auto()
    HIGH = entry(100)


class Mode(StrEnum, type_key="testing.dce.Mode"):
    READ = entry("r")
    WRITE = entry("w")
    APPEND = auto()


def test_variants_are_singletons_with_indices():
    assert isinstance(Color.RED, Color) and isinstance(Color.RED, tvm_ffi.Object)
    assert [c.name for c in Color] == ["RED", "GREEN", "BLUE"]
    assert [c._int_index for c in Color] == [0, 1, 2]
    assert len(Color) == 3
    assert Color.get(1) is Color.GREEN
    assert Color.get("BLUE") is Color.BLUE
    assert Color("RED") is Color.RED and Color(2) is Color.BLUE
    assert Color(Color.RED) is Color.RED
    assert list(Color.all_entries()) == [Color.RED, Color.GREEN, Color.BLUE]
    assert is_dataclass(Color)
    assert repr(Color.GREEN) == "<Color.GREEN: 1>"


def test_lookup_errors():
    with pytest.raises(KeyError):
        Color.get(7)
    with pytest.raises(KeyError):
        Color("PURPLE")
    with pytest.raises(TypeError, match="enum index must be an int or a str, got 1.5"):
        Color.get(1.5)


def test_variants_are_frozen():
    with pytest.raises(AttributeError):
        Color.RED._int_index = 5
    with pytest.raises(AttributeError):
        Op.ADD.arity = 3


def test_payload_fields():
    assert (Op.ADD.arity, Op.ADD.symbol) == (2, "+")
    assert (Op.NOP.arity, Op.NOP.symbol) == (0, "?")


def test_int_enum():
    assert [v.value for v in Level] == [10, 11, 100]
    assert Level.get(11) is Level.MID
    assert Level.MID.name == "MID"


def test_str_enum():
    assert [v.value for v in Mode] == ["r", "w", "APPEND"]
    assert Mode("w") is Mode.WRITE
    assert Mode.READ.name == "r"


def test_singletons_cross_the_abi_unchanged():
    echo = tvm_ffi.get_global_func("testing.echo")
    assert echo(Color.RED) is not None
    assert echo(Color.RED).same_as(Color.RED)
    arr = tvm_ffi.Array([Color.GREEN, Color.BLUE])
    assert arr[0].same_as(Color.GREEN) and type(arr[0]) is Color


def test_pickle_returns_the_singleton():
    assert pickle.loads(pickle.dumps(Level.HIGH)) is Level.HIGH


def test_definition_errors():
    with pytest.raises(TypeError, match="IntEnum entry .*X needs an int index, got 'a'"):

        class BadInt(IntEnum, type_key="testing.dce.BadInt"):
            X = entry("a")

    with pytest.raises(ValueError, match="duplicate enum index for Dup.B"):

        class Dup(IntEnum, type_key="testing.dce.Dup"):
            A = entry(1)
            B = entry(1)

    with pytest.raises(TypeError, match="may not declare a field named '_int_index'"):

        class Reserved(Enum, type_key="testing.dce.Reserved"):
            _int_index: int


def test_enum_attr_map():
    from tvm_ffi.dataclasses import EnumAttrMap

    class Op(IntEnum, type_key="testing.enumattr.Op"):
        ADD = auto()
        MUL = auto()

    class Other(StrEnum, type_key="testing.enumattr.Other"):
        A = auto()

    cost = Op.def_attr("cost", default=0)
    assert isinstance(cost, EnumAttrMap) and cost.name == "cost"
    assert cost[Op.MUL] == 0 and Op.MUL not in cost
    cost[Op.ADD] = 3
    assert cost[Op.ADD] == 3 and Op.ADD in cost
    # Another map of the same name sees the same values; other names do not.
    assert EnumAttrMap(Op, "cost")[Op.ADD] == 3
    label = Op.def_attr("label")
    assert label.get(Op.ADD) is None and label.get(Op.ADD, "x") == "x"
    with pytest.raises(KeyError, match="has no value for attribute 'label'"):
        label[Op.ADD]
    with pytest.raises(TypeError, match="expected a variant of Op, got <Other.A"):
        cost[Other.A] = 1
    assert Other.A not in cost
    with pytest.raises(TypeError, match="EnumAttrMap needs an Enum class, got <class 'int'>"):
        EnumAttrMap(int, "x")
