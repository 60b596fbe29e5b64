"""tvm_ffi.container.normalize_index / getitem_helper: Python index rules for
sequence-like wrappers.  Results and messages are those observed from
apache-tvm-ffi 0.1.15.post2."""
import pytest

from tvm_ffi.container import getitem_helper, normalize_index

ITEMS = [10, 11, 12, 13]


def _get(obj, i):
    return obj[i]


@pytest.mark.parametrize("idx,expected", [
    (0, 10), (3, 13), (-1, 13), (-4, 10), (True, 11),
    (slice(None), [10, 11, 12, 13]), (slice(1, 3), [11, 12]),
    (slice(None, None, -1), [13, 12, 11, 10]), (slice(-10, 10, 2), [10, 12]),
    (slice(5, 9), []),
])
def test_getitem_helper(idx, expected):
    assert getitem_helper(ITEMS, _get, 4, idx) == expected


def test_getitem_helper_asks_only_for_the_elements_it_returns():
    asked = []
    assert getitem_helper(None, lambda o, i: asked.append(i) or i * 2, 6, slice(1, None, 2)) \
        == [2, 6, 10]
    assert asked == [1, 3, 5]


@pytest.mark.parametrize("length,idx,message", [
    (4, 4, "Index out of range. size: 4, got index 4"),
    (4, -5, "Index out of range. size: 4, got index -5"),
    (0, 0, "Index out of range. size: 0, got index 0"),
    (5, -6, "Index out of range. size: 5, got index -6"),
])
def test_out_of_range(length, idx, message):
    with pytest.raises(IndexError) as err:
        normalize_index(length, idx)
    assert str(err.value) == message
    with pytest.raises(IndexError):
        getitem_helper(ITEMS, _get, length, idx)


@pytest.mark.parametrize("idx,kind", [(2.0, "float"), ("1", "str"), (None, "NoneType")])
def test_non_integer_index(idx, kind):
    with pytest.raises(TypeError) as err:
        getitem_helper(ITEMS, _get, 4, idx)
    assert str(err.value) == f"indices must be integers or slices, not {kind}"


def test_normalize_index_uses_dunder_index():
    class Two:
        def __index__(self):
            return 2

    assert normalize_index(5, Two()) == 2
    assert normalize_index(5, -1) == 4
    assert normalize_index(1, 0) == 0
