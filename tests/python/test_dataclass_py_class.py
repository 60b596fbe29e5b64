"""@py_class: FFI types defined in Python (fields, defaults, options, typed
fields, inheritance, forward references, errors)."""
from __future__ import annotations

import copy
import inspect
import itertools
from typing import Any, Optional, Union

import pytest

import tvm_ffi
from tvm_ffi import core
from tvm_ffi.dataclasses import KW_ONLY, MISSING, field, fields, py_class

_ids = itertools.count()


def key(name):
    """A type key not used before in this process."""
    return f"testing.pyc.{name}{next(_ids)}"


@py_class("testing.pyc.Point")
class Point(tvm_ffi.Object):
    x: int
    y: float = 0.0
    name: str = "p"


@py_class("testing.pyc.Node", eq=True)
class Node(tvm_ffi.Object):
    value: int
    children: list[Node] = field(default_factory=list)
    parent: Optional[Node] = None
    extra: Any = None


# A forward reference to a class defined below.
@py_class("testing.pyc.Holder")
class Holder(tvm_ffi.Object):
    item: Later | None = None


@py_class("testing.pyc.Later")
class Later(tvm_ffi.Object):
    v: int = 1


def test_construct_and_read():
    p = Point(1, 2.5, "a")
    assert (p.x, p.y, p.name) == (1, 2.5, "a")
    assert type(p) is Point
    q = Point(3)
    assert (q.x, q.y, q.name) == (3, 0.0, "p")
    r = Point(x=4, name="n")
    assert (r.x, r.y, r.name) == (4, 0.0, "n")


def test_signature_is_real():
    sig = inspect.signature(Point.__init__)
    assert list(sig.parameters) == ["self", "x", "y", "name"]
    assert sig.parameters["x"].default is inspect.Parameter.empty
    assert sig.parameters["y"].default is MISSING
    # The type's __ffi_init__ reports a missing argument, for Python and C++ alike.
    with pytest.raises(TypeError) as e:
        Point()
    assert str(e.value) == "testing.pyc.Point.__ffi_init__() missing required argument: 'x'"
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        Point(1, z=3)


def test_assignment_checks_types():
    p = Point(1)
    p.x = 5
    p.y = 2  # an int is accepted by a float field and stored as float
    assert p.x == 5 and p.y == 2.0 and isinstance(p.y, float)
    p.name = "q"
    assert p.name == "q"
    with pytest.raises(TypeError, match='field `testing.pyc.Point.x` expects int, got str "abc"'):
        p.x = "abc"
    with pytest.raises(TypeError, match="testing.pyc.Point.name"):
        p.name = 3
    assert (p.x, p.name) == (5, "q")
    with pytest.raises(TypeError, match="testing.pyc.Point.x"):
        Point("bad")
    with pytest.raises(AttributeError):
        p.not_a_field = 1
    with pytest.raises(AttributeError):
        del p.x


def test_default_factory_gives_fresh_values():
    a, b = Node(1), Node(2)
    assert len(a.children) == 0
    assert not a.children.same_as(b.children)
    assert a.parent is None and a.extra is None


def test_nested_and_typed_containers():
    leaf = Node(2)
    root = Node(1, [leaf, Node(3)])
    assert [c.value for c in root.children] == [2, 3]
    assert root.children[0].same_as(leaf)
    assert type(root.children[0]) is Node
    with pytest.raises(TypeError, match=r"field `testing.pyc.Node.children` expects list\[Node\]"):
        root.children = [1, 2]
    with pytest.raises(TypeError, match="testing.pyc.Node.children"):
        Node(1, [Point(1)])
    root.children = []
    assert len(root.children) == 0


def test_optional_object_field():
    a = Node(1)
    b = Node(2, parent=a)
    assert b.parent.same_as(a)
    b.parent = None
    assert b.parent is None
    with pytest.raises(TypeError, match="testing.pyc.Node.parent"):
        b.parent = Point(1)


def test_any_field_takes_anything():
    n = Node(1)
    for v in (1, 2.5, "s", None, [1, 2], {"a": 1}, Point(1)):
        n.extra = v
    n.extra = "x"
    assert n.extra == "x"


def test_forward_reference_resolves_later():
    h = Holder()
    assert h.item is None
    later = Later(5)
    h.item = later
    assert h.item.same_as(later) and h.item.v == 5
    with pytest.raises(TypeError, match="testing.pyc.Holder.item"):
        h.item = Point(1)
    assert Holder(Later(2)).item.v == 2


def test_forward_reference_that_never_resolves():
    @py_class(key("Dangling"))
    class Dangling(tvm_ffi.Object):
        ref: NeverDefined = None  # noqa: F821
        bad: len(1) = None  # evaluating it fails, not with a NameError

    # The first construction resolves every forward reference, and names
    # each one that does not resolve.
    with pytest.raises(TypeError) as e:
        Dangling()
    assert str(e.value) == (
        "Cannot instantiate Dangling: field annotations that do not resolve: "
        "ref: NeverDefined (cannot resolve the forward reference 'NeverDefined': "
        "name 'NeverDefined' is not defined); "
        "bad: len(1) (cannot resolve the forward reference 'len(1)': "
        "object of type 'int' has no len())"
    )


def test_pod_and_union_fields():
    @py_class(key("Pods"))
    class Pods(tvm_ffi.Object):
        i: int = 0
        f: float = 0.0
        b: bool = False
        s: str = ""
        by: bytes = b""
        oi: Optional[int] = None
        u: Union[int, str] = 0
        ob: int | None = 3
        d: dict[str, int] = field(default_factory=dict)
        arr: tvm_ffi.Array[float] = field(default_factory=lambda: [1.0])

    p = Pods()
    assert (p.i, p.f, p.b, p.s, p.by, p.oi, p.u, p.ob) == (0, 0.0, False, "", b"", None, 0, 3)
    p.b = True
    assert p.b is True
    p.by = b"xyz"
    assert p.by == b"xyz"
    p.oi = 4
    assert p.oi == 4
    p.oi = None
    assert p.oi is None
    with pytest.raises(TypeError, match=r"expects Optional\[int\], got float 1.5"):
        p.oi = 1.5
    p.u = "s"
    assert p.u == "s"
    p.u = 7
    assert p.u == 7
    with pytest.raises(TypeError, match=r"expects int \| str, got float 2.0"):
        p.u = 2.0
    p.d = {"a": 1}
    assert dict(p.d) == {"a": 1}
    with pytest.raises(TypeError, match="testing.pyc.Pods.*.d"):
        p.d = {"a": "b"}
    p.arr = [1, 2]
    assert list(p.arr) == [1.0, 2.0] and all(isinstance(v, float) for v in p.arr)
    with pytest.raises(TypeError, match="testing.pyc.Pods.*.b"):
        p.b = "yes"
    with pytest.raises(TypeError):
        p.i = None


def test_kw_only_and_init_false():
    @py_class(key("Kw"))
    class Kw(tvm_ffi.Object):
        a: int
        _: KW_ONLY
        b: int = 2
        c: int = field(default=5, init=False)
        d: str = field(kw_only=True, default="d")

    k = Kw(1, b=3)
    assert (k.a, k.b, k.c, k.d) == (1, 3, 5, "d")
    assert list(inspect.signature(Kw.__init__).parameters) == ["self", "a", "b", "d"]
    with pytest.raises(TypeError):
        Kw(1, 3)
    with pytest.raises(TypeError):
        Kw(1, c=3)
    assert Kw.__match_args__ == ("a",)


def test_class_level_kw_only():
    @py_class(key("AllKw"), kw_only=True)
    class AllKw(tvm_ffi.Object):
        a: int
        b: int = 0

    assert AllKw(a=1).a == 1
    with pytest.raises(TypeError):
        AllKw(1)


def test_post_init():
    @py_class(key("Post"))
    class Post(tvm_ffi.Object):
        a: int
        doubled: int = field(default=0, init=False)

        def __post_init__(self):
            self.doubled = 2 * self.a

    assert Post(4).doubled == 8


def test_repr_eq_order_hash_options():
    @py_class(key("Opt"), eq=True, order=True, unsafe_hash=True)
    class Opt(tvm_ffi.Object):
        a: int
        note: str = field(default="", compare=False, repr=False)

    x, y = Opt(1, note="x"), Opt(1, note="y")
    assert x == y and hash(x) == hash(y)
    assert Opt(1) < Opt(2) and Opt(2) >= Opt(1)
    assert "note" not in repr(x) and "a=1" in repr(x)
    # Defaults: identity equality and address hash.
    p, q = Point(1), Point(1)
    assert p != q and p == p
    assert hash(p) == hash(p)


def test_user_methods_are_kept():
    @py_class(key("Own"), eq=True)
    class Own(tvm_ffi.Object):
        a: int

        def __eq__(self, other):
            return "mine"

        def __repr__(self):
            return "Own!"

        def twice(self):
            return 2 * self.a

    assert (Own(1) == Own(2)) == "mine"
    assert repr(Own(1)) == "Own!"
    assert Own(3).twice() == 6


def test_copy_deepcopy_replace():
    n = Node(1, [Node(2)])
    s = copy.copy(n)
    assert not s.same_as(n) and s.children.same_as(n.children)
    d = copy.deepcopy(n)
    assert not d.same_as(n) and not d.children.same_as(n.children)
    assert d.children[0].value == 2
    r = tvm_ffi.dataclasses.replace(Point(1, 2.0), y=3.0)
    assert (r.x, r.y, r.name) == (1, 3.0, "p")
    with pytest.raises(TypeError, match="unexpected keyword argument 'q'"):
        tvm_ffi.dataclasses.replace(Point(1), q=1)


def test_inheritance_between_py_classes():
    @py_class(key("Base"))
    class Base(tvm_ffi.Object):
        a: int
        b: str = "b"

    @py_class(key("Derived"))
    class Derived(Base):
        c: float = 1.0

    d = Derived(1, "x", 2.5)
    assert (d.a, d.b, d.c) == (1, "x", 2.5)
    assert isinstance(d, Base)
    assert [f.name for f in fields(Derived)] == ["a", "b", "c"]
    info = Derived.__tvm_ffi_type_info__
    assert info.parent_type_info is Base.__tvm_ffi_type_info__
    assert [f.name for f in info.fields] == ["c"]
    d.a = 9
    assert d.a == 9
    with pytest.raises(TypeError, match=r"Base\d+.a"):
        d.a = "no"

    # A required field after one with a default: required parameters come
    # first (parents' first), then those with a default.
    @py_class(key("Later"))
    class LaterRequired(Base):
        z: int

    assert list(inspect.signature(LaterRequired.__init__).parameters) == ["self", "a", "z", "b"]
    o = LaterRequired(1, 2)
    assert (o.a, o.z, o.b) == (1, 2, "b")
    o = LaterRequired(1, 2, "three")
    assert (o.a, o.z, o.b) == (1, 2, "three")


def test_inheritance_from_cxx_type():
    import tvm_ffi.testing

    before = type(tvm_ffi.testing.make_test_object_base(1, 2.0, "s"))
    from tvm_ffi._type_info import type_info

    base_info = type_info(core._type_key_to_index("testing.TestObjectBase"))
    before_cls = base_info.type_cls

    @tvm_ffi.register_object("testing.TestObjectBase")
    class CBase(tvm_ffi.Object):
        pass

    @py_class(key("FromCxx"))
    class FromCxx(CBase):
        extra: str = "e"

    try:
        obj = FromCxx(v_i64=3, extra="z")
        assert (obj.v_i64, obj.v_f64, obj.v_str, obj.extra) == (3, 10.0, "hello", "z")
        assert obj.add_i64(2) == 5  # the C++ method works on the Python-defined type
        obj.v_str = "w"
        assert obj.v_str == "w"
        with pytest.raises(TypeError, match="__ffi_init__ of `testing.pyc.FromCxx"):
            FromCxx(v_i64="no")
    finally:
        # Objects of testing.TestObjectBase come back as the class test_object.py bound.
        core._register_object(base_info.type_index, before)
        base_info.type_cls = before_cls


def test_frozen_class_and_field():
    @py_class(key("Fz"), frozen=True)
    class Fz(tvm_ffi.Object):
        a: int

    f = Fz(1)
    with pytest.raises(AttributeError, match="cannot assign to field 'a' of frozen"):
        f.a = 2
    Fz.a.set(f, 3)
    assert f.a == 3


def test_type_info_of_py_class():
    info = Point.__tvm_ffi_type_info__
    assert isinstance(info, core.TypeInfo)
    assert info.type_key == "testing.pyc.Point" and info.type_cls is Point
    assert [f.name for f in info.fields] == ["x", "y", "name"]
    x, y, name = info.fields
    assert x.field_static_type_index == 1 and y.field_static_type_index == 3
    assert name.field_static_type_index == core._type_key_to_index("ffi.String")
    assert y.c_has_default and y.c_default == 0.0 and x.c_default is MISSING
    assert x.dataclass_field is fields(Point)[0]
    assert any(m.name == "__ffi_init__" for m in info.methods)


def test_decorator_forms():
    @py_class
    class Bare(tvm_ffi.Object):
        a: int = 1

    assert Bare.__tvm_ffi_type_info__.type_key == f"{__name__}.{Bare.__qualname__}"

    @py_class(type_key=key("Kwd"))
    class Kwd(tvm_ffi.Object):
        a: int = 1

    assert Kwd().a == 1


def test_definition_errors():
    with pytest.raises(ValueError, match="order=True requires eq=True"):
        py_class(order=True)
    with pytest.raises(ValueError, match="structural_eq must be one of"):
        py_class(structural_eq="nope")
    with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
        field(default=1, default_factory=list)
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field a"):

        @py_class(key("Mut"))
        class Mut(tvm_ffi.Object):
            a: list = []  # noqa: RUF012

    with pytest.raises(TypeError, match="unsupported field type"):

        @py_class("testing.pyc.Retry")
        class Unsup(tvm_ffi.Object):
            a: complex = 0j

    # The failed definition did not take the key.
    @py_class("testing.pyc.Retry")
    class Retry(tvm_ffi.Object):
        a: int = 0

    assert Retry().a == 0

    # A default that does not convert is accepted (as upstream) and refused
    # when it is used; a value passed in its place is fine.
    @py_class(key("BadDefault"))
    class BadDefault(tvm_ffi.Object):
        a: int = "x"

    with pytest.raises(
        TypeError, match=r"^default for field 'a' of testing\.pyc\.BadDefault\d+ must be int, "
        r'got str "x"$'
    ):
        BadDefault()
    assert BadDefault(a=3).a == 3
    assert BadDefault(4).a == 4

    with pytest.raises(ValueError, match="type key 'testing.pyc.Point' is already registered"):

        @py_class("testing.pyc.Point")
        class Again(tvm_ffi.Object):
            a: int

    with pytest.raises(TypeError, match=r"^py_class <class .int.> must inherit from tvm_ffi.Object$"):
        py_class(key("NotObj"))(int)


def test_slots_and_zero_argument_super():
    @py_class(key("SBase"))
    class SBase(tvm_ffi.Object):
        a: int = 1

        def who(self):
            return "base"

    @py_class(key("SChild"))
    class SChild(SBase):
        def who(self):
            return "child of " + super().who()

    c = SChild()
    assert c.who() == "child of base"
    assert SChild.__slots__ == () and not hasattr(c, "__dict__")
    with pytest.raises(AttributeError):
        c.b = 2


def test_fields_hold_references_and_release_them_once():
    @py_class(key("RcIn"))
    class RcIn(tvm_ffi.Object):
        v: int = 0

    @py_class(key("RcOut"))
    class RcOut(tvm_ffi.Object):
        a: RcIn
        b: list[RcIn] = field(default_factory=list)
        c: Any = None

    inner = RcIn(3)
    assert core._object_use_count(inner) == 1
    outer = RcOut(inner, [inner], inner)
    assert core._object_use_count(inner) == 4  # a, the list's item, c
    outer.c = None
    assert core._object_use_count(inner) == 3
    outer.a = RcIn()
    assert core._object_use_count(inner) == 2
    del outer
    assert core._object_use_count(inner) == 1


def test_pickle_and_structural_equality():
    import pickle

    n = Node(1, [Node(2)], extra="e")
    m = pickle.loads(pickle.dumps(n))
    assert type(m) is Node and not m.same_as(n)
    assert m.value == 1 and m.children[0].value == 2 and m.extra == "e"
    assert tvm_ffi.structural_equal(n, m)
    assert tvm_ffi.structural_hash(n) == tvm_ffi.structural_hash(m)
    assert not tvm_ffi.structural_equal(n, Node(1))


def test_structural_eq_ignore_field():
    @py_class(key("SIgn"))
    class SIgn(tvm_ffi.Object):
        a: int
        span: str = field(default="", structural_eq="ignore")

    assert tvm_ffi.structural_equal(SIgn(1, "x"), SIgn(1, "y"))
    assert not tvm_ffi.structural_equal(SIgn(1), SIgn(2))
    assert SIgn.__tvm_ffi_type_info__.fields[1].c_structural_eq == "ignore"

    @py_class(key("NoSeq"), structural_eq=None)
    class NoSeq(tvm_ffi.Object):
        a: int = 0

    with pytest.raises(Exception):  # noqa: B017 - the kind is "unsupported"
        tvm_ffi.structural_equal(NoSeq(), NoSeq())


def test_callable_object_and_bare_container_fields():
    from typing import Callable

    @py_class(key("Fns"))
    class Fns(tvm_ffi.Object):
        fn: Optional[Callable[[int], int]] = None
        obj: Optional[tvm_ffi.Object] = None
        arr: tvm_ffi.Array = field(default_factory=lambda: [])
        seq: tuple[int, ...] = ()

    f = Fns(lambda x: x + 1)
    assert f.fn(2) == 3
    f.obj = Point(1)
    assert type(f.obj) is Point
    with pytest.raises(TypeError, match=r"testing.pyc.Fns\d+.obj"):
        f.obj = 3
    f.arr = [1, "a"]
    assert list(f.arr) == [1, "a"]
    f.seq = (1, 2)
    assert list(f.seq) == [1, 2]
    with pytest.raises(TypeError, match=r"testing.pyc.Fns\d+.seq"):
        f.seq = ("x",)


def test_type_field_ty_is_a_type_schema():
    info = Node.__tvm_ffi_type_info__
    tys = {f.name: f.ty for f in info.fields}
    assert all(isinstance(t, core.TypeSchema) for t in tys.values())
    assert tys["value"].origin == "int"
    assert tys["children"].origin == "List"  # a Python list is mutable: ffi.List
    assert tys["children"].args[0].origin == "testing.pyc.Node"
    assert tys["parent"].origin == "Optional"
    assert tys["extra"].origin == "Any"
    assert str(Point.__tvm_ffi_type_info__.fields[1].ty) == "float"


def test_keyword_only_parameters_put_required_first():
    @py_class(key("KwOrder"))
    class KwOrder(tvm_ffi.Object):
        a: int = 0
        b: int
        _: KW_ONLY
        c: int = 10
        d: int

    sig = inspect.signature(KwOrder.__init__)
    assert list(sig.parameters) == ["self", "b", "a", "d", "c"]
    assert sig.parameters["d"].kind is inspect.Parameter.KEYWORD_ONLY
    o = KwOrder(2, d=4)
    assert (o.a, o.b, o.c, o.d) == (0, 2, 10, 4)
    with pytest.raises(TypeError) as e:
        KwOrder(2)
    assert str(e.value) == (
        f"{KwOrder.__tvm_ffi_type_info__.type_key}.__ffi_init__() "
        "missing required keyword-only argument: 'd'"
    )


def test_user_init_runs_on_a_zeroed_instance():
    calls = []

    @py_class(key("UserInitBase"))
    class UBase(tvm_ffi.Object):
        x: int

    @py_class(key("UserInit"), init=False)
    class UChild(UBase):
        n: int
        f: float
        flag: bool
        s: str = "not applied"
        anything: Any = 5

        def __init__(self, n):
            """Doc of the user's __init__."""
            calls.append((self.x, self.n, self.f, self.flag, self.s, self.anything))
            super().__init__(99)  # the object exists: the parent's __init__ leaves it
            self.n = n

    o = UChild(7)
    assert calls == [(0, 0, 0.0, False, None, None)]
    assert (o.x, o.n) == (0, 7)
    assert UChild.__init__.__doc__ == "Doc of the user's __init__."
    assert UChild.__init__.__wrapped__.__name__ == "__init__"
    handle = o.__chandle__()
    o.__init__(8)  # called again: the same FFI object, assigned again
    assert o.__chandle__() == handle and o.n == 8
    c = copy.copy(o)
    assert c.n == 8 and not c.same_as(o)
    assert "__new__" not in UChild.__dict__


def test_field_named_self():
    @py_class(key("SelfField"))
    class SelfField(tvm_ffi.Object):
        self: int

    assert SelfField(3).self == 3
    assert SelfField(self=4).self == 4
    raw = tvm_ffi.Object.__new__(SelfField)
    SelfField.__ffi_init__(raw, self=5)
    assert raw.self == 5


def test_dtype_and_device_fields():
    @py_class(key("DtDev"))
    class DtDev(tvm_ffi.Object):
        dt: tvm_ffi.dtype
        dev: Optional[tvm_ffi.Device] = None

    o = DtDev("float16")
    assert type(o.dt) is tvm_ffi.dtype and o.dt == "float16" and o.dev is None
    o.dev = "cuda:1"
    assert o.dev == tvm_ffi.device("cuda", 1)
    o.dt = tvm_ffi.dtype("int8")
    assert o.dt == "int8"
    k = DtDev.__tvm_ffi_type_info__.type_key
    with pytest.raises(TypeError, match=f"field `{k}.dt` expects dtype, got int 3"):
        o.dt = 3
    with pytest.raises(TypeError, match=f'field `{k}.dt` expects dtype, got str "nope"'):
        o.dt = "nope"
    with pytest.raises(TypeError, match=rf"field `{k}.dev` expects Optional\[Device\], got int 3"):
        o.dev = 3
    assert (o.dt, o.dev) == ("int8", tvm_ffi.device("cuda", 1))
    assert [str(f.ty) for f in DtDev.__tvm_ffi_type_info__.fields] == ["dtype", "Device | None"]


def test_list_and_dict_fields_are_mutable_containers():
    @py_class(key("Mutables"))
    class Mutables(tvm_ffi.Object):
        items: list[int]
        table: dict[str, int]
        fixed: tuple[int, ...] = ()
        arr: tvm_ffi.Array[int] = field(default_factory=tvm_ffi.Array)
        frozen_map: tvm_ffi.Map[str, int] = field(default_factory=tvm_ffi.Map)

    m = Mutables([1, 2], {"a": 1}, (3,))
    assert type(m.items) is tvm_ffi.List and type(m.table) is tvm_ffi.Dict
    assert type(m.fixed) is tvm_ffi.Array and type(m.arr) is tvm_ffi.Array
    assert type(m.frozen_map) is tvm_ffi.Map
    m.items[0] = 10
    m.table["b"] = 2
    assert list(m.items) == [10, 2] and dict(m.table) == {"a": 1, "b": 2}
    d = copy.deepcopy(m)
    d.items[0] = 99
    assert m.items[0] == 10
    assert [str(f.ty) for f in Mutables.__tvm_ffi_type_info__.fields] == [
        "List[int]", "Dict[str, int]", "Array[int]", "Array[int]", "Map[str, int]"]


def test_forward_references_to_classes_defined_later_in_a_function():
    @py_class(key("FwdFoo"))
    class FwdFoo(tvm_ffi.Object):
        value: int
        bar: FwdBar | None  # defined below, in this function

    @py_class(key("FwdBar"))
    class FwdBar(tvm_ffi.Object):
        value: int
        foo: FwdFoo | None

    foo = FwdFoo(1, FwdBar(2, None))
    assert foo.bar.value == 2
    k = FwdFoo.__tvm_ffi_type_info__.type_key
    with pytest.raises(TypeError, match=rf"field `{k}.bar` expects"):
        foo.bar = FwdFoo(3, None)


def test_forward_reference_to_a_py_class_of_another_module():
    # Code run by exec: its module is not in sys.modules, and the class it
    # names is not among its globals; the one py_class of that name is used.
    child_ns = {"__name__": "testing_pyc_other_b", "py_class": py_class, "Object": tvm_ffi.Object}
    exec(
        f"@py_class({key('CrossChildOnly')!r})\n"
        "class CrossChildOnly(Object):\n"
        "    x: int\n",
        child_ns,
    )
    holder_ns = {"__name__": "testing_pyc_other_a", "py_class": py_class, "Object": tvm_ffi.Object}
    exec(
        "from __future__ import annotations\n"
        f"@py_class({key('CrossHolder')!r})\n"
        "class CrossHolder(Object):\n"
        "    child: CrossChildOnly | None = None\n",
        holder_ns,
    )
    h = holder_ns["CrossHolder"](child_ns["CrossChildOnly"](7))
    assert h.child.x == 7


def test_low_level_field_defaults_and_converter():
    from tvm_ffi.dataclasses import Field, field

    f = Field(name="x")
    assert (f.compare, f.hash, f.kw_only) == (False, True, False)
    g = field()
    assert (g.compare, g.hash, g.kw_only) == (True, None, None)
    assert g.converter(5) == 5  # recorded, the identity unless given

    def conv(v):
        return v

    assert field(converter=conv).converter is conv
    transform = py_class.__dataclass_transform__
    assert transform["kwargs"]["converter"] is field().converter
    assert transform["field_specifiers"] == (Field, field)


def test_register_py_class_binds_the_class():
    parent = tvm_ffi.Object.__tvm_ffi_type_info__ if hasattr(
        tvm_ffi.Object, "__tvm_ffi_type_info__") else core._type_cls_to_type_info(tvm_ffi.Object)
    cls = type("Bare", (tvm_ffi.Object,), {"__slots__": ()})
    info = core._register_py_class(parent, key("Bare"), cls)
    assert cls.__tvm_ffi_type_info__ is info


def test_annotations_of_plain_bases_are_fields():
    @py_class(key("PlainRoot"))
    class Root(tvm_ffi.Object):
        x: int

    class Between(Root):  # a plain subclass of the FFI parent
        a: int
        b: int
        hidden: int = field(default=9, init=False)

    class Mixin:  # a plain mixin
        m: int = 5

    @py_class(key("PlainLeaf"))
    class Leaf(Mixin, Between):
        b: str  # redeclared: keeps its position, takes the new type
        c: int

    info = Leaf.__tvm_ffi_type_info__
    assert [f.name for f in fields(Leaf)] == ["x", "a", "b", "hidden", "m", "c"]
    assert [f.name for f in info.fields] == ["a", "b", "hidden", "m", "c"]
    o = Leaf(0, 1, "two", 3)
    assert (o.x, o.a, o.b, o.hidden, o.m, o.c) == (0, 1, "two", 9, 5, 3)
    with pytest.raises(TypeError, match=rf"field `{info.type_key}.b` expects str"):
        o.b = 2
    # The base's Field object is not shared with the new class.
    assert Between.__dict__["hidden"] is not fields(Leaf)[3]
    assert Between.__dict__["hidden"].name is None


def test_child_fields_start_in_the_parent_tail_padding():
    @py_class(key("TailParent"))
    class TailParent(tvm_ffi.Object):
        parent_flag: bool = False

    @py_class(key("TailEmpty"))
    class TailEmpty(TailParent):
        pass

    @py_class(key("TailChild"))
    class TailChild(TailEmpty):
        child_flag: bool = False
        n: int = 0

    header = 24  # sizeof(TVMFFIObject)
    p, e, c = (k.__tvm_ffi_type_info__ for k in (TailParent, TailEmpty, TailChild))
    assert (p.fields[0].offset, p.total_size, e.total_size) == (header, 32, 32)
    # As a C++ derived class: the bool after the parent's bool, then the int aligned.
    assert [f.offset for f in c.fields] == [header + 1, header + 8]
    assert c.total_size == header + 16
    o = TailChild(True, True, 7)
    o.child_flag = False
    assert (o.parent_flag, o.child_flag, o.n) == (True, False, 7)


def test_fields_resolved_hooks_and_extra_field_options():
    import copy as _copy

    from tvm_ffi.dataclasses import Field

    seen = []

    @py_class(key("HookBase"))
    class HookBase(tvm_ffi.Object):
        def __take_option__(info, own_fields):
            assert info.type_cls is not None and not info.fields  # before definition
            seen.append((info.type_cls.__name__, [str(f._ty_schema) for f in own_fields]))
            for f in own_fields:
                if "unit" in f.extra_kwargs:
                    f.metadata["unit"] = f.extra_kwargs.pop("unit")

        __take_option__.__ffi_on_fields_resolved__ = True

    @py_class(key("HookChild"))
    class HookChild(HookBase):
        length: float = field(default=0.0, unit="m")
        names: list[str] = field(default_factory=list)

    assert seen == [("HookBase", []), ("HookChild", ["float", "List[str]"])]
    assert fields(HookChild)[0].metadata == {"unit": "m"}
    assert fields(HookChild)[0].extra_kwargs == {}
    assert HookChild(2.5).length == 2.5
    with pytest.raises(TypeError, match=r"^Typo.length: unrecognized field options: uint$"):

        @py_class(key("Typo"))
        class Typo(HookBase):
            length: float = field(default=0.0, uint="m")

    f = Field(name="x", metadata={"a": 1}, extra=2)
    g = _copy.copy(f)
    g.metadata["a"] = 3
    g.extra_kwargs.pop("extra")
    assert f.metadata == {"a": 1} and f.extra_kwargs == {"extra": 2}


def test_container_mismatch_names_the_item():
    @py_class(key("Nest"))
    class Nest(tvm_ffi.Object):
        items: list[int] = field(default_factory=list)
        table: dict[str, list[float]] = field(default_factory=dict)

    k = Nest.__tvm_ffi_type_info__.type_key
    o = Nest()
    with pytest.raises(TypeError) as e:
        o.items = [1, None]
    assert str(e.value) == (
        f"field `{k}.items` expects list[int], got ffi.Array (element [1]: expected int, got None)"
    )
    with pytest.raises(TypeError) as e:
        o.table = {"a": [1.0, "x"]}
    assert str(e.value).endswith(
        "(value for key 'a': element [1]: expected float, got str \"x\")"
    )
    assert list(o.items) == [] and dict(o.table) == {}


class _Boundary:
    """A field marker for test_field_markers (module level: annotations of
    this file are strings, resolved in its globals)."""


def test_field_markers():
    @py_class(key("MarkBase"))
    class MarkBase(tvm_ffi.Object):
        __ffi_field_markers__ = (_Boundary,)
        first: int
        cut: _Boundary = "kept as a class attribute"
        second: int

    @py_class(key("MarkChild"))
    class MarkChild(MarkBase):
        cut2: _Boundary
        third: int

    assert [f.name for f in fields(MarkChild)] == ["first", "second", "third"]
    assert MarkBase.cut == "kept as a class attribute"
    base_markers = ((_Boundary, MarkBase, "cut", 1),)
    assert MarkBase.__tvm_ffi_type_info__._decorator_args["field_markers"] == base_markers
    assert MarkChild.__tvm_ffi_type_info__._decorator_args["field_markers"] == (
        *base_markers, (_Boundary, MarkChild, "cut2", 2))
    assert MarkChild(1, 2, 3).third == 3
