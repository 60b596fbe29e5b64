"""The crashes of issue 15, now clean errors or correct results.

Each runs in a subprocess where a regression would kill the interpreter
(a stack overflow), so a failure is reported instead of ending the suite.
"""
import subprocess
import sys
import textwrap

import pytest

import tvm_ffi
from tvm_ffi import core


def run_isolated(code, timeout=120):
    """Runs `code` in a fresh interpreter; returns its stdout (asserting exit 0)."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr[-3000:])
    return proc.stdout


def test_releasing_200000_nested_arrays_does_not_overflow_the_stack():
    out = run_isolated("""
        import tvm_ffi
        a = tvm_ffi.Array([])
        for _ in range(200000):
            a = tvm_ffi.Array([a])
        inner = a
        for _ in range(5):
            inner = inner[0]
        print(len(a), len(inner))
        del a, inner
        print("released")
    """)
    assert out.split() == ["1", "1", "released"]


def test_releasing_a_deep_list_chain_does_not_overflow_the_stack():
    out = run_isolated("""
        import tvm_ffi
        l = tvm_ffi.List()
        for _ in range(100000):
            l = tvm_ffi.List([l])
        del l
        print("released")
    """)
    assert out.strip() == "released"


def test_self_referential_list_is_a_value_error():
    x = [1]
    x.append(x)
    with pytest.raises(ValueError, match=r"cannot convert a list that contains itself"):
        tvm_ffi.convert(x)
    with pytest.raises(ValueError, match=r"cannot convert a list that contains itself"):
        tvm_ffi.Array(x)


def test_self_referential_dict_is_a_value_error():
    d = {}
    d["self"] = d
    with pytest.raises(ValueError, match=r"cannot convert a dict that contains itself"):
        tvm_ffi.convert(d)


def test_indirect_cycle_through_tuple_and_dict_is_a_value_error():
    inner = []
    outer = ({"k": inner},)
    inner.append(outer)
    with pytest.raises(ValueError, match=r"contains itself"):
        tvm_ffi.convert(outer)


def test_shared_but_acyclic_containers_convert():
    leaf = [1, 2]
    value = [leaf, leaf, {"a": leaf}]
    out = tvm_ffi.convert(value)
    assert list(out[0]) == [1, 2] and list(out[1]) == [1, 2] and list(out[2]["a"]) == [1, 2]
    # The guard is unwound after an error: the next conversion works.
    x = [1]
    x.append(x)
    with pytest.raises(ValueError):
        tvm_ffi.convert(x)
    assert list(tvm_ffi.convert([[3]])[0]) == [3]


@pytest.mark.parametrize("wrap", ["[v]", "{'k': v}", "(v,)"])
def test_100000_deep_nesting_is_a_recursion_error(wrap):
    out = run_isolated(f"""
        import tvm_ffi
        v = 0
        for _ in range(100000):
            v = {wrap}
        try:
            tvm_ffi.convert(v)
        except RecursionError as e:
            print("RecursionError", "converting nested containers" in str(e))
        # Still usable afterwards.
        print(len(tvm_ffi.convert([[1]])))
    """)
    assert out.split() == ["RecursionError", "True", "1"]


def test_moderate_nesting_still_converts():
    v = 7
    for _ in range(200):
        v = [v]
    out = tvm_ffi.convert(v)
    for _ in range(200):
        out = out[0]
    assert out == 7


def test_type_info_refuses_out_of_range_index():
    with pytest.raises(OverflowError, match=r"type index -9223372036854775808 does not fit"):
        core._type_info(-(2**63))
    with pytest.raises(OverflowError, match=r"type index 4294967296 does not fit"):
        core._type_info(2**32)
    with pytest.raises(OverflowError):
        core._type_info(2**100)


@pytest.mark.parametrize("args", [(1, 2**32, 0), (2**40, 0, 0), (1, -(2**31) - 1, 0)])
def test_stream_functions_refuse_out_of_range_device(args):
    with pytest.raises(OverflowError, match=r"does not fit in a 32-bit signed integer"):
        core._env_set_current_stream(*args)
    with pytest.raises(OverflowError, match=r"does not fit in a 32-bit signed integer"):
        core._env_get_current_stream(*args[:2])


def test_list_insert_refuses_non_integer_index_like_list():
    lst = tvm_ffi.List([1, 2])
    for bad in (float("nan"), 1.0, "0", None):
        with pytest.raises(TypeError, match=r"cannot be interpreted as an integer"):
            lst.insert(bad, 9)
        with pytest.raises(TypeError):
            [1, 2].insert(bad, 9)
    assert list(lst) == [1, 2]
    lst.insert(True, 5)  # bool is an int, as for list
    lst.insert(-100, 0)
    lst.insert(2**70, 3)
    assert list(lst) == [0, 1, 5, 2, 3]


@pytest.mark.parametrize("text", ["handle3", "handle32", "handlex4", "int0", "int8x40000"])
def test_dtype_names_round_trip(text):
    d = tvm_ffi.dtype(text)
    assert tvm_ffi.dtype(str(d)) == d


@pytest.mark.parametrize("text", ["int32xvscalex1", "int8x65535"])
def test_ambiguous_lanes_are_refused(text):
    with pytest.raises(ValueError, match=r"cannot be told apart"):
        tvm_ffi.dtype(text)
