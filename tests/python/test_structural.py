"""Structural equality and hashing, access paths, deep copy, repr, visits and
keyword construction of reflected objects (testing.S* types of libtvm_ffi_testing)."""
import ast
import subprocess
import sys

import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi.access_path import AccessKind, AccessPath, AccessStep


@tvm_ffi.register_object("testing.SNode")
class SNode(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.SVar")
class SVar(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.SFunc")
class SFunc(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.SLet")
class SLet(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.SDag")
class SDag(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.SUnique")
class SUnique(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.SNoEq")
class SNoEq(tvm_ffi.Object):
    pass


@tvm_ffi.register_object("testing.SKw")
class SKw(tvm_ffi.Object):
    pass


seq = tvm_ffi.structural_equal
shash = tvm_ffi.structural_hash


def mismatch(a, b, **kw):
    m = tvm_ffi.get_first_structural_mismatch(a, b, **kw)
    return None if m is None else (repr(m[0]), repr(m[1]))


def test_exports_are_lazy():
    code = (
        "import sys, tvm_ffi; assert 'tvm_ffi.structural' not in sys.modules; "
        "f = tvm_ffi.structural_equal; assert 'tvm_ffi.structural' in sys.modules; "
        "assert tvm_ffi.access_path.AccessPath.__name__ == 'AccessPath'; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
    for name in ("structural_equal", "structural_hash", "get_first_structural_mismatch",
                 "structural_visit", "access_path", "deep_copy"):
        assert name in tvm_ffi.__all__


def test_values_and_containers():
    assert seq(1, 1) and not seq(1, 2)
    assert not seq(1, 1.0)
    assert not seq(True, 1)
    assert seq(float("nan"), float("nan"))
    assert seq(0.0, -0.0) and shash(0.0) == shash(-0.0)
    assert seq("a" * 20, "a" * 20) and seq("ab", "ab")
    assert not seq("ab", b"ab")
    assert seq(None, None)
    a = tvm_ffi.convert([1, "x", {"k": [1.5, None]}])
    b = tvm_ffi.convert([1, "x", {"k": [1.5, None]}])
    assert not a.same_as(b)
    assert seq(a, b) and shash(a) == shash(b)
    c = tvm_ffi.convert([1, "x", {"k": [1.5, 2]}])
    assert not seq(a, c) and shash(a) != shash(c)
    assert mismatch(a, c) == ('<root>[2]["k"][1]', '<root>[2]["k"][1]')
    assert mismatch(a, b) is None
    assert tvm_ffi.get_first_structural_mismatch(a, b) is None
    # Array and List differ; so do Map and Dict.
    assert not seq(tvm_ffi.Array([1]), tvm_ffi.List([1]))
    assert not seq(tvm_ffi.Map({"a": 1}), tvm_ffi.Dict({"a": 1}))
    assert seq(tvm_ffi.Dict({"a": 1, "b": 2}), tvm_ffi.Dict({"b": 2, "a": 1}))
    assert shash(tvm_ffi.Dict({"a": 1, "b": 2})) == shash(tvm_ffi.Dict({"b": 2, "a": 1}))
    assert seq(tvm_ffi.Shape([1, 2]), tvm_ffi.Shape([1, 2]))
    assert mismatch(tvm_ffi.Shape([1, 2]), tvm_ffi.Shape([1, 2, 3])) == (
        "<root>[<missing:2>]", "<root>[2]")
    assert mismatch(tvm_ffi.Map({"a": 1}), tvm_ffi.Map({"b": 1})) == (
        '<root>["a"]', '<root>[<missing:"a">]')
    assert mismatch(tvm_ffi.Array([1, 2]), tvm_ffi.Array([1])) == (
        "<root>[1]", "<root>[<missing:1>]")
    assert 0 <= shash(a) < 2**64


def test_tensor_metadata_and_content():
    np = pytest.importorskip("numpy")
    x = tvm_ffi.from_dlpack(np.array([1.0, 2.0], dtype="float32"))
    y = tvm_ffi.from_dlpack(np.array([1.0, 3.0], dtype="float32"))
    z = tvm_ffi.from_dlpack(np.array([1.0, 2.0], dtype="float32"))
    assert seq(x, z) and shash(x) == shash(z)
    assert not seq(x, y)
    assert seq(x, y, skip_tensor_content=True)
    assert shash(x, skip_tensor_content=True) == shash(y, skip_tensor_content=True)
    w = tvm_ffi.from_dlpack(np.array([1.0, 2.0], dtype="float64"))
    assert not seq(x, w, skip_tensor_content=True)


def test_ignored_field_and_objects():
    a = SNode(value=1, children=[SNode(value=2)], tag="left")
    b = SNode(value=1, children=[SNode(value=2)], tag="right")
    assert seq(a, b) and shash(a) == shash(b)
    c = SNode(value=1, children=[SNode(value=3)])
    assert mismatch(a, c) == ("<root>.children[0].value", "<root>.children[0].value")
    lhs, rhs = tvm_ffi.get_first_structural_mismatch(a, c)
    assert isinstance(lhs, AccessPath)
    assert lhs == AccessPath.root().attr("children").array_item(0).attr("value")
    assert lhs.to_steps()[0].kind == AccessKind.ATTR and lhs.to_steps()[0].key == "children"
    with pytest.raises(TypeError) as e:
        seq(SNoEq(value=1), SNoEq(value=1))
    assert str(e.value) == (
        "ffi.StructuralEqual: type `testing.SNoEq` does not support structural equality or "
        "hash (its structural_eq_hash_kind is Unsupported)")
    with pytest.raises(TypeError, match="ffi.StructuralHash: type `testing.SNoEq`"):
        shash(SNoEq(value=1))
    u = SUnique(value=1)
    assert seq(u, u) and not seq(u, SUnique(value=1))


def test_free_vars_and_definitions():
    x, y = SVar("x"), SVar("y")
    assert seq(x, x) and not seq(x, y)
    assert seq(x, y, map_free_vars=True)
    assert shash(x, map_free_vars=True) == shash(y, map_free_vars=True)
    assert shash(x) != shash(y)
    f = SFunc([x], SNode(children=x))
    g = SFunc([y], SNode(children=y))
    assert seq(f, g) and shash(f) == shash(g)
    h = SFunc([y], SNode(children=x))
    assert mismatch(f, h) == ("<root>.body.children", "<root>.body.children")
    assert not seq(SNode(children=x), SNode(children=y))
    assert seq(SNode(children=x), SNode(children=y), map_free_vars=True)
    # A non-recursive definition: let x = x_outer ... binds only the var itself.
    o1, o2 = SVar("o"), SVar("p")
    l1 = SLet(var=x, value=o1, body=x)
    l2 = SLet(var=y, value=o2, body=y)
    assert not seq(l1, l2)  # the free value differs
    assert mismatch(l1, l2) == ("<root>.value", "<root>.value")
    l3 = SLet(var=y, value=o1, body=y)
    assert seq(l1, l3) and shash(l1) == shash(l3)


def test_dag_sharing():
    s = SDag(1)
    assert not seq([s, s], [SDag(1), SDag(1)])
    t2 = SDag(1)
    assert seq(tvm_ffi.Array([s, s]), tvm_ffi.Array([t2, t2]))
    assert shash(tvm_ffi.Array([s, s])) == shash(tvm_ffi.Array([t2, t2]))
    assert shash(tvm_ffi.Array([s, s])) != shash(tvm_ffi.Array([SDag(1), SDag(1)]))
    # A container shared by both sides still binds the nodes inside it.
    d, d2 = SDag(1), SDag(1)
    arr = tvm_ffi.Array([d])
    assert not seq(tvm_ffi.Array([arr, d]), tvm_ffi.Array([arr, d2]))
    assert shash(tvm_ffi.Array([arr, d])) != shash(tvm_ffi.Array([arr, d2]))
    assert seq(tvm_ffi.Array([arr, d]), tvm_ffi.Array([arr, d]))
    m = tvm_ffi.Map({"k": d})
    assert not seq(tvm_ffi.Array([m, d]), tvm_ffi.Array([m, d2]))


def test_cycles_and_depth_give_errors():
    n = SNode()
    t.snode_set_children(n, tvm_ffi.List([n]))
    m = SNode()
    t.snode_set_children(m, tvm_ffi.List([m]))
    msg = ("the value contains a reference cycle (an object of type `testing.SNode` "
           "contains itself)")
    with pytest.raises(ValueError) as e:
        seq(n, m)
    assert str(e.value) == "ffi.StructuralEqual: " + msg
    with pytest.raises(ValueError) as e:
        shash(n)
    assert str(e.value) == "ffi.StructuralHash: " + msg
    assert repr(n) == "testing.SNode(value=0, children=[...], tag=\"\")"
    c = tvm_ffi.deep_copy(n)
    assert c.children[0].same_as(c) and not c.same_as(n)
    for obj in (n, m, c):
        t.snode_set_children(obj, None)  # free the cycles

    chain = t.make_snode_chain(2048)
    assert seq(chain, t.make_snode_chain(2048))
    deep = t.make_snode_chain(2049)
    with pytest.raises(RecursionError) as e:
        shash(deep)
    assert str(e.value) == "ffi.StructuralHash: the value is nested deeper than 2048 levels"
    with pytest.raises(RecursionError):
        seq(deep, t.make_snode_chain(2049))
    with pytest.raises(RecursionError):
        tvm_ffi.deep_copy(deep)
    with pytest.raises(RecursionError):
        repr(deep)


def test_access_path_api():
    root = AccessPath.root()
    assert repr(root) == "<root>"
    p = root.attr("a").array_item(2).map_item("k").attr_missing("z")
    assert repr(p) == '<root>.a[2]["k"][<missing:"z">]'
    assert repr(root.array_item_missing(3).map_item_missing(1)) == "<root>[<missing:3>][<missing:1>]"
    assert p.depth == 4 and p.parent.depth == 3
    assert root.attr("a").is_prefix_of(p) and not p.is_prefix_of(root.attr("a"))
    assert p == root.attr("a").array_item(2).map_item("k").attr_missing("z")
    assert p != root.attr("a") and hash(p) == hash(root.attr("a").array_item(2).map_item("k").attr_missing("z"))
    steps = p.to_steps()
    assert [s.kind for s in steps] == [0, 1, 2, 3]
    assert isinstance(steps[0], AccessStep)
    assert repr(steps[1]) == "AccessStep(ARRAY_ITEM, 2)"
    with pytest.raises(ValueError, match="AccessPath can't be initialized directly"):
        AccessPath()


def test_repr_print_text_of_each_kind():
    rp = tvm_ffi.repr_print
    assert [rp(v) for v in (None, True, -3, 3.14, 0.0, 1e10, 1 / 3, 2**70)] == [
        "None", "True", "-3", "3.14", "0", "1e+10", "0.333333", str(2**70)]
    # str and bytes literals that Python reads back.
    for text in ['a"b', "a\\b", "\n\r\t\x00\x1b\x7f", "\u00e9\u2028\U0001f600", "'"]:
        assert ast.literal_eval(rp(text)) == text
    assert rp("\u00e9") == '"\\u00e9"'
    assert rp(b'a"\\\n\xff') == 'b"a\\x22\\x5c\\x0a\\xff"'
    assert ast.literal_eval(rp(b'a"\\\n\xff')) == b'a"\\\n\xff'
    assert rp(tvm_ffi.Device("cuda", 1)) == "cuda:1" and rp(tvm_ffi.dtype("int8")) == "int8"
    assert rp(tvm_ffi.Array([])) == "()" and rp(tvm_ffi.Array([1])) == "(1,)"
    assert rp(tvm_ffi.List([1])) == "[1]" and rp(tvm_ffi.Dict({1: (2,)})) == "{1: (2,)}"
    assert rp(tvm_ffi.get_global_func("testing.echo")) == "ffi.Function"
    np = pytest.importorskip("numpy")
    x = tvm_ffi.from_dlpack(np.zeros((3, 4), dtype="float32"))
    assert rp(x) == repr(x) == "float32[3, 4]@cpu:0"


def test_python_repr_is_repr_print():
    a = tvm_ffi.Array([1, "x", tvm_ffi.List([2])])
    assert repr(a) == str(a) == tvm_ffi.repr_print(a) == '(1, "x", [2])'
    assert repr(tvm_ffi.Map({"k": a})) == '{"k": (1, "x", [2])}'
    assert repr(tvm_ffi.get_global_func("testing.echo")) == "ffi.Function"
    # Shape is a tuple and prints as one (repr_print names it Shape(2, 3)).
    assert repr(tvm_ffi.Shape((2, 3))) == "(2, 3)"


def test_repr_with_addr(monkeypatch):
    inner = tvm_ffi.Array([1])
    outer = tvm_ffi.List([inner, inner, "s"])
    outer.append(outer)
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")
    ai, ao = hex(inner.__chandle__()), hex(outer.__chandle__())
    assert repr(outer) == f'[(1,)@{ai}, (1,)@{ai}, "s", ...@{ao}]@{ao}'
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "yes")  # only "1" turns it on
    assert repr(outer) == '[(1,), (1,), "s", ...]'
    outer.clear()


def test_repr_and_deep_copy():
    a = SNode(value=7, children=[1.5, "s", None, {"k": True}], tag="t", note="hidden")
    assert repr(a) == 'testing.SNode(value=7, children=(1.5, "s", None, {"k": True}), tag="t")'
    assert tvm_ffi.repr_print(tvm_ffi.Shape([2, 3])) == "Shape(2, 3)"
    assert tvm_ffi.repr_print(t.make_c_int_pair(1, 2)) == "testing.CIntPair(x=1, y=2)"
    c = tvm_ffi.deep_copy(a)
    assert not c.same_as(a) and not c.children.same_as(a.children)
    assert seq(a, c) and c.note == "hidden"
    leaf = SNode(value=1)
    pair = tvm_ffi.deep_copy(tvm_ffi.Array([leaf, leaf]))
    assert pair[0].same_as(pair[1]) and not pair[0].same_as(leaf)
    with pytest.raises(TypeError, match=r"ffi.DeepCopy: type `testing.SPinned` has no creator"):
        tvm_ffi.deep_copy(t.make_spinned(1))
    p = tvm_ffi.deep_copy(t.make_c_int_pair(3, 4))
    assert tvm_ffi.repr_print(p) == "testing.CIntPair(x=3, y=4)"


def test_visits():
    a = SNode(value=1, children=[2, {"k": 3}], tag="x")
    fields = []
    tvm_ffi.visit_fields(a, lambda name, value, flags: fields.append((name, flags)))
    assert fields == [("value", 3), ("children", 3), ("tag", 11), ("note", 67)]
    # ffi.VisitEachValue: fn(value) on everything inside, keys too, each object once.
    each = tvm_ffi.get_global_func("ffi.VisitEachValue")
    seen = []
    each(a, lambda v: seen.append(v))
    assert seen[0].same_as(a)
    assert seen[1:3] == [1, [2, {"k": 3}]]
    assert seen[3:5] == [2, {"k": 3}]
    assert seen[5:] == ["k", 3, "x", ""]
    pruned = []
    each(a, lambda v: (pruned.append(v), not isinstance(v, tvm_ffi.Array))[1])
    assert len(pruned) == 5  # the node, value, children (not entered), tag, note


def test_structural_visit_typed_callbacks_and_visitor():
    # Upstream's form: the first matching callback owns a value and descends
    # through the visitor; map keys and SEqHashIgnore fields (tag) are not visited.
    a = SNode(value=1, children=[2, {"k": 3}], tag="x")
    seen = []

    def on_node(v, visitor):
        assert isinstance(visitor, tvm_ffi.StructuralVisitor)
        seen.append("node")
        return visitor.default_visit(v)

    assert tvm_ffi.structural_visit(a, [(SNode, on_node), ((int, str), lambda v, _: seen.append(v))]) is None
    assert seen == ["node", 1, 2, 3, ""]
    # A callback that does not descend prunes; a VisitInterrupt stops and is returned.
    seen.clear()
    assert tvm_ffi.structural_visit(a, (tvm_ffi.Array, lambda v, _: seen.append(len(v)))) is None
    assert seen == [2]
    r = tvm_ffi.structural_visit(a, (int, lambda v, _: tvm_ffi.VisitInterrupt(v * 10) if v == 2 else None))
    assert isinstance(r, tvm_ffi.VisitInterrupt) and r.value == 20
    with pytest.raises(TypeError, match="^ffi.StructuralVisit: a callback must return None or ffi.VisitInterrupt, got int$"):
        tvm_ffi.structural_visit(a, (int, lambda v, _: 5))
    with pytest.raises(TypeError, match="^structural_visit: callbacks must be a callable"):
        tvm_ffi.structural_visit(a, 3)
    with pytest.raises(TypeError, match=r"^structural_visit: callbacks in a sequence must be \(type, callback\) tuples"):
        tvm_ffi.structural_visit(a, [3])
    with pytest.raises(TypeError, match="^structural_visit: a callback type must be"):
        tvm_ffi.structural_visit(a, (list, lambda v, _: None))


def test_structural_walk_and_keys():
    root = tvm_ffi.Array([tvm_ffi.Array([1]), "s", 2.5])
    trace = []
    assert tvm_ffi.structural_walk(root, [(tvm_ffi.Array, lambda v: trace.append(len(v))),
                                          ((int, float), trace.append)], order="pre") is None
    assert trace == [3, 1, 1, 2.5]
    trace.clear()
    tvm_ffi.structural_walk(root, lambda v: trace.append(repr(v)))  # post-order, catch-all
    assert trace == ["1", "(1,)", "'s'", "2.5", '((1,), "s", 2.5)']
    with pytest.raises(ValueError, match="^structural_walk: order must be"):
        tvm_ffi.structural_walk(root, trace.append, order="sideways")
    # StructuralKey: equal and hashed by structure.
    k1 = tvm_ffi.StructuralKey({"a": [1, 2]})
    k2 = tvm_ffi.StructuralKey({"a": [1, 2]})
    k3 = tvm_ffi.StructuralKey({"a": [1, 3]})
    assert k1 == k2 and k1 != k3 and hash(k1) == hash(k2)
    assert k1.__hash__() == tvm_ffi.structural_hash(k1.key)
    assert {k1: "x", k3: "y"}[k2] == "x" and len(tvm_ffi.Map({k1: 1, k2: 2, k3: 3})) == 2
    assert tvm_ffi.VisitInterrupt().value is None


def test_keyword_construction():
    k = SKw(1)
    assert (k.a, k.b, k.c, k.d) == (1, 2, "c", 0.5)
    k = SKw(1, 5, c="z")
    assert (k.a, k.b, k.c) == (1, 5, "z")
    k = SKw(b=3, a=4)
    assert (k.a, k.b) == (4, 3)
    with pytest.raises(TypeError) as e:
        SKw(b=3)
    assert str(e.value) == "testing.SKw.__ffi_init__() missing required argument: 'a'"
    with pytest.raises(TypeError) as e:
        SKw(1, nope=2)
    assert str(e.value) == "__ffi_init__ of `testing.SKw`: unexpected keyword argument `nope`"
    with pytest.raises(TypeError) as e:
        SKw(1, a=2)
    assert str(e.value) == "__ffi_init__ of `testing.SKw`: multiple values for argument `a`"
    with pytest.raises(TypeError) as e:
        SKw(1, 2, "c")  # c is keyword-only
    assert str(e.value) == "__ffi_init__ of `testing.SKw`: takes 2 positional arguments but 3 were given"
    with pytest.raises(TypeError) as e:
        SKw(1, d=1.0)  # d is no init parameter
    assert str(e.value) == "__ffi_init__ of `testing.SKw`: unexpected keyword argument `d`"
    assert seq(SKw(1, c="q"), SKw(a=1, b=2, c="q"))


def test_structural_map_copy_on_write_and_moved_roots():
    inc = (int, lambda v: v + 1)
    child = tvm_ffi.List([1])
    root = tvm_ffi.Map({"k": child, "s": "text"})
    out = tvm_ffi.structural_map(root, inc)
    assert repr(out) == '{"k": [2], "s": "text"}' and repr(root) == '{"k": [1], "s": "text"}'
    assert not out.same_as(root) and not out["k"].same_as(child)
    # Nothing changed (a rebuilt string counts as the same): the root itself.
    assert tvm_ffi.structural_map(root, (str, lambda s: s + "")).same_as(root)
    # A moved root nobody else holds changes in place, with the children it alone holds.
    moved = tvm_ffi.List([tvm_ffi.List([5]), child])
    handle = moved.__chandle__()
    out = tvm_ffi.structural_map(moved._move(), inc)
    assert out.__chandle__() == handle and repr(out) == "[[6], [2]]" and list(child) == [1]
    # Pre-order: a replacement is descended into.
    out = tvm_ffi.structural_map(tvm_ffi.Array([1]), [
        (tvm_ffi.Array, lambda v: tvm_ffi.Array([7, 8]) if len(v) == 1 else v),
        (int, lambda v: v * 10)], order="pre")
    assert list(out) == [70, 80]


def test_structural_map_variables_follow_their_definitions():
    from tvm_ffi.dataclasses import Object, field, py_class

    @py_class("testing.structural.MapVar", structural_eq="var")
    class Var(Object):
        value: int

    @py_class("testing.structural.MapLet", structural_eq="tree")
    class Let(Object):
        var: Var = field(structural_eq="def-simple")
        pats: tvm_ffi.Array = field(structural_eq="def-pattern")
        body: tvm_ffi.Array

    x, y = Var(1), Var(5)
    calls = []
    out = tvm_ffi.structural_map(Let(x, tvm_ffi.Array([y, y]), tvm_ffi.Array([x, y, Var(9)])),
                                 (int, lambda v: (calls.append(v), v + 1)[1]))
    # A definition is mapped once; its uses take the result; a free use stays.
    assert calls == [1, 5]
    assert out.var.value == 2 and out.body[0].same_as(out.var)
    assert out.pats[0].same_as(out.pats[1]) and out.body[1].same_as(out.pats[0])
    assert out.body[2].value == 9


def test_structural_mutate_callbacks_and_inplace_mode():
    modes = []

    def on_array(v, mutator, mode):
        assert isinstance(mutator, tvm_ffi.StructuralMutator)
        modes.append(mode)
        return mutator.default_mutate(v)

    cbs = [(tvm_ffi.Array, on_array), (int, lambda v, m: v * 2)]
    root = tvm_ffi.Array([1, tvm_ffi.Array([2])])
    assert repr(tvm_ffi.structural_mutate(root, cbs)) == "(2, (4,))" and list(root)[0] == 1
    assert modes == [tvm_ffi.InplaceMode.DISALLOW] * 2
    modes.clear()
    assert repr(tvm_ffi.structural_mutate(tvm_ffi.Array([tvm_ffi.Array([3])])._move(), cbs)) == "((6,),)"
    # The moved root is ALLOW; what default_mutate (called from Python, which
    # holds the value) reaches is not.
    assert modes == [tvm_ffi.InplaceMode.ALLOW, tvm_ffi.InplaceMode.DISALLOW]
    modes.clear()
    out = tvm_ffi.structural_mutate(tvm_ffi.Map({"a": tvm_ffi.Array([3])})._move(), cbs)
    assert repr(out) == '{"a": (6,)}' and modes == [tvm_ffi.InplaceMode.ALLOW]
    # A callback's result is final: mutate() on a child is the only descent.
    assert tvm_ffi.structural_mutate(tvm_ffi.Array(["x"]), (tvm_ffi.Array, lambda v, m: m.mutate(v[0]))) == "x"
    with pytest.raises(TypeError, match=r"^structural_mutate: a callback must take \(value, mutator\)"):
        tvm_ffi.structural_mutate(root, (int, lambda v: v))
    lst = tvm_ffi.List([1])
    lst.append(lst)
    with pytest.raises(ValueError, match="^ffi.StructuralMutate: "):
        tvm_ffi.structural_mutate(lst, (int, lambda v, m: v))
    lst.clear()


def test_structural_map_keeps_a_value_a_pre_order_callback_kept():
    seen = []
    moved = tvm_ffi.List([tvm_ffi.List([1])])
    out = tvm_ffi.structural_map(moved._move(), [(tvm_ffi.List, lambda v: (seen.append(v), v)[1]),
                                                 (int, lambda v: v + 1)], order="pre")
    # The callback kept both lists: they are shared now, so they are copied.
    assert repr(out) == "[[2]]" and repr(seen[0]) == "[[1]]" and repr(seen[1]) == "[1]"
