"""ffi.StructuralWalk from Python: callbacks, interrupts, and a Python
exception raised in a callback coming back as the same object even though
the walk wraps the error's context in an ffi.VisitErrorContext."""
import pytest

import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.SNode)

walk = tvm_ffi.get_global_func("ffi.StructuralWalk")
make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
INT = 1


def node(value, children=None):
    return make("testing.SNode", "value", value, "children", children)


def test_walk_visits_ints_in_pre_and_post_order():
    tree = node(1, [node(2, [node(3)]), 4])
    seen = []
    assert walk(tree, [(INT, seen.append)], [], 0) is None
    assert seen == [1, 2, 3, 4]


def test_interrupt_is_returned():
    tree = node(1, [node(2, [node(3)]), 4])
    stop = tvm_ffi.get_global_func("ffi.VisitInterrupt")("found")
    result = walk(tree, [(INT, lambda v: stop if v == 3 else None)], [], 0)
    assert result.same_as(stop)


def test_python_exception_comes_back_as_itself():
    leaf = node(3)
    tree = node(1, [node(2, [leaf])])

    class Boom(Exception):
        pass

    exc = Boom("no")

    def fail(v):
        if v == 3:
            raise exc

    with pytest.raises(Boom) as info:
        walk(tree, [(INT, fail)], [], 1)
    assert info.value is exc

