"""Python ints of any size: int64 values travel as kTVMFFIInt, all others as
an ffi.BigInt (type index 78) of minimal two's-complement 64-bit words."""
import pytest

import tvm_ffi
import tvm_ffi.testing as t

MASK = (1 << 64) - 1


def words_of(value):
    """The minimal signed 64-bit words of value, least significant first."""
    n = value.bit_length() // 64 + 1
    words = [(value >> (64 * i)) & MASK for i in range(n)]
    signed = [w - (1 << 64) if w >> 63 else w for w in words]
    while len(signed) > 1 and signed[-1] == (-1 if signed[-2] < 0 else 0):
        signed.pop()
    return signed


EDGES = [2**63, -(2**63) - 1, 2**64 - 1, 2**64, -(2**64), 2**127, -(2**127), 2**128 - 1,
         2**200, -(2**200), 3**300, -(7**90) + 1]


@pytest.mark.parametrize("value", EDGES)
def test_round_trip_through_ffi(value):
    out = t.echo(value)
    assert type(out) is int
    assert out == value


@pytest.mark.parametrize("value", EDGES)
def test_words_seen_by_cxx_are_minimal(value):
    assert list(t.big_int_words(value)) == words_of(value)
    assert t.big_int_to_string(value) == str(value)


def test_int64_edges_stay_int64():
    for value in (0, 1, -1, 2**63 - 1, -(2**63)):
        assert list(t.big_int_words(value)) == [value]
        assert t.echo(value) == value


def test_function_returning_big_int():
    assert t.big_int_pow2(62) == 2**62
    assert t.big_int_pow2(63) == 2**63
    assert t.big_int_pow2(200) == 2**200
    assert t.big_int_pow2(4095) == 2**4095
    # Words with redundant sign words come back normalised to a plain int.
    assert t.big_int_from_words(5, 0, 0) == 5
    assert t.big_int_from_words(-1, -1) == -1
    assert t.big_int_from_words(0, 1) == 2**64
    assert t.big_int_from_words(2**63 - 1, -1) == -(2**63) - 1
    assert t.big_int_from_words() == 0


def test_int64_parameter_refuses_big_int_naming_types():
    with pytest.raises(TypeError) as info:
        t.add_one(2**64)
    assert "Expected `int` but got `ffi.BigInt`" in str(info.value)


def test_big_int_in_containers_and_callbacks():
    values = [2**70, -(2**90), 5]
    assert list(tvm_ffi.Array(values)) == values
    m = tvm_ffi.Map({"big": 2**100})
    assert m["big"] == 2**100
    seen = []
    assert t.apply(lambda x: seen.append(x) or x * 2, 2**65) == 2**66
    assert seen == [2**65] and type(seen[0]) is int


def test_int_subclasses_and_index_objects_of_any_size():
    class MyInt(int):
        pass

    class Index:
        def __index__(self):
            return 2**80

    assert t.echo(MyInt(2**70)) == 2**70
    assert t.echo(Index()) == 2**80
