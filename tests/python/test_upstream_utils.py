"""tvm_ffi.utils (upstream's names): FileLock, kwargs_wrapper, unpack_dataclass."""
import dataclasses
import inspect
import subprocess
import sys
import textwrap
from typing import Any, NamedTuple

import pytest

import tvm_ffi
from tvm_ffi.utils import FileLock
from tvm_ffi.utils.kwargs_wrapper import make_kwargs_wrapper, make_kwargs_wrapper_from_signature
from tvm_ffi.utils.unpack_dataclass import (
    _extract_dataclass_to_tuple_schema,
    _validate_dataclass_to_tuple_schema,
    unpack_dataclass_to_tuple,
)

HOLDER = textwrap.dedent("""
    import sys
    from tvm_ffi.utils import FileLock
    lock = FileLock(sys.argv[1])
    print(lock.acquire())
""")


def _other_process_can_lock(path):
    out = subprocess.run([sys.executable, "-c", HOLDER, str(path)], capture_output=True,
                         text=True, check=True)
    return out.stdout.strip() == "True"


def test_file_lock_excludes_other_processes(tmp_path):
    path = tmp_path / "x.lock"
    lock = FileLock(str(path))
    assert lock.acquire() is True and lock._file_descriptor is not None
    assert lock.acquire() is False  # not re-entrant
    assert not _other_process_can_lock(path)
    with pytest.raises(RuntimeError, match="is already held by this instance"):
        lock.blocking_acquire()
    lock.release()
    assert lock._file_descriptor is None
    lock.release()  # a second release does nothing
    assert _other_process_can_lock(path)


def test_file_lock_context_and_timeout(tmp_path):
    path = tmp_path / "y.lock"
    with pytest.raises(ValueError, match="inside"):
        with FileLock(path) as held:
            assert held._file_descriptor is not None
            other = FileLock(str(path))
            with pytest.raises(TimeoutError, match=r"Failed to acquire lock on '.*y.lock' after 0.05"):
                other.blocking_acquire(timeout=0.05, poll_interval=0.01)
            raise ValueError("inside")
    assert held._file_descriptor is None  # released by the exception
    assert FileLock(path).blocking_acquire(timeout=0) is True


def test_file_lock_serialises_processes(tmp_path):
    counter = tmp_path / "n"
    counter.write_text("0")
    worker = textwrap.dedent("""
        import sys, time
        from tvm_ffi.utils import FileLock
        with FileLock(sys.argv[1]):
            n = int(open(sys.argv[2]).read())
            time.sleep(0.01)
            open(sys.argv[2], "w").write(str(n + 1))
    """)
    procs = [subprocess.Popen([sys.executable, "-c", worker, str(tmp_path / "c.lock"),
                               str(counter)]) for _ in range(6)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 6
    assert counter.read_text() == "6"


def _total(*args):
    return sum(args)


def test_kwargs_wrapper_defaults_and_keywords():
    w = make_kwargs_wrapper(_total, ["a", "b", "c"], arg_defaults=(20, 30))
    assert (w(1), w(1, 2), w(1, 2, 3), w(a=1, c=5)) == (51, 33, 6, 26)
    assert str(inspect.signature(w)) == "(a, b=20, c=30)"
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        w()
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        w(1, z=2)
    k = make_kwargs_wrapper(_total, ["a"], kwonly_names=["c", "d"], kwonly_defaults={"d": 100})
    assert k(1, c=10) == 111
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'c'"):
        k(1)
    default = [1]
    same = make_kwargs_wrapper(lambda a, b: b, ["a", "b"], arg_defaults=(default,))
    assert same(0) is default


def test_kwargs_wrapper_over_an_ffi_function():
    f = tvm_ffi.get_global_func("testing.add_one")
    w = make_kwargs_wrapper(f, ["x"], arg_defaults=(41,))
    assert w() == 42 and w(x=1) == 2


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"arg_names": ["a", "b", "a"]}, ValueError, "Duplicate argument names found"),
        ({"arg_names": ["a"], "kwonly_names": ["b", "b"]}, ValueError,
         "Duplicate keyword-only argument names found"),
        ({"arg_names": ["a", 1]}, TypeError, "Argument name must be a string, got int: 1"),
        ({"arg_names": ["b-c"]}, ValueError, "'b-c' is not a valid Python identifier"),
        ({"arg_names": ["if"]}, ValueError,
         "'if' is a Python keyword and cannot be used as a parameter name"),
        ({"arg_names": ["a"], "arg_defaults": [1]}, TypeError, "arg_defaults must be a tuple, got list"),
        ({"arg_names": ["a"], "arg_defaults": (1, 2)}, ValueError,
         "arg_defaults has 2 values but only 1 positional arguments"),
        ({"arg_names": ["a"], "kwonly_names": ["a"]}, ValueError,
         r"Arguments cannot be both positional and keyword-only: \['a'\]"),
        ({"arg_names": ["a"], "kwonly_names": ["c"], "kwonly_defaults": {"d": 1}}, ValueError,
         "Default provided for 'd' which is not in kwonly_names"),
        ({"arg_names": ["__i_target_func"]}, ValueError, "conflict with internal names"),
    ],
)
def test_kwargs_wrapper_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        make_kwargs_wrapper(_total, **kwargs)


def test_kwargs_wrapper_from_signature():
    def proto(a, b, c: int = 10, *, d: int = 20):
        """Proto doc."""

    w = make_kwargs_wrapper_from_signature(_total, inspect.signature(proto), proto)
    assert (w(1, 2), w(1, 2, 3, d=4)) == (33, 10)
    assert w.__name__ == "proto" and w.__doc__ == "Proto doc."
    skip = make_kwargs_wrapper_from_signature(_total, inspect.signature(proto),
                                              exclude_arg_names=["b", "nope"])
    assert skip(1) == 31

    def star(a, *rest):
        pass

    with pytest.raises(ValueError, match=r"\*args not supported"):
        make_kwargs_wrapper_from_signature(_total, inspect.signature(star))

    def kw(a, **rest):
        pass

    with pytest.raises(ValueError, match=r"\*\*kwargs not supported"):
        make_kwargs_wrapper_from_signature(_total, inspect.signature(kw))


@dataclasses.dataclass
class Cfg:
    x: int
    y: int


@dataclasses.dataclass
class Outer:
    v: Any
    cfg: Cfg


class Pair(NamedTuple):
    cfg: Cfg
    n: int


def test_unpack_dataclass_to_tuple():
    leaf = object()
    assert unpack_dataclass_to_tuple(Cfg(1, 2)) == (1, 2)
    assert unpack_dataclass_to_tuple(Outer(Cfg(3, 4), Cfg(5, 6))) == ((3, 4), (5, 6))
    assert unpack_dataclass_to_tuple([Cfg(1, 2), {"k": Cfg(3, 4)}, (Cfg(5, 6), 7)]) == [
        (1, 2), {"k": (3, 4)}, ((5, 6), 7)]
    assert unpack_dataclass_to_tuple(Pair(Cfg(1, 2), 3)) == ((1, 2), 3)
    assert unpack_dataclass_to_tuple(Outer(leaf, Cfg(0, 0)))[0] is leaf
    assert unpack_dataclass_to_tuple(Cfg) is Cfg  # the class itself is a leaf
    loop = Outer(None, Cfg(0, 0))
    loop.v = loop
    with pytest.raises(ValueError, match="Outer instance contains itself"):
        unpack_dataclass_to_tuple(loop)



@dataclasses.dataclass
class Shapes:
    n: int
    opt: "int | None"
    pairs: "dict[str, tuple[int, float]]"
    nums: "list[int]"
    cfgs: "dict[str, Cfg]"
    cfg: Cfg
    me: "Shapes | None"
    anything: Any


def test_unpack_dataclass_schema():
    assert _extract_dataclass_to_tuple_schema(Shapes) == {
        "n": None,
        "opt": None,
        "pairs": None,
        "nums": "unpack",  # lists are rebuilt
        "cfgs": "unpack",
        "cfg": {"x": None, "y": None},
        "me": "unpack",  # the class itself: decided per value
        "anything": "unpack",
    }
    with pytest.raises(TypeError, match="Expected a dataclass class, got <class 'int'>"):
        _extract_dataclass_to_tuple_schema(int)
    with pytest.raises(TypeError, match="Expected a dataclass class"):
        _extract_dataclass_to_tuple_schema(Cfg(1, 2))  # an instance, not the class

    @dataclasses.dataclass
    class Local:
        c: "LocalMissing"  # noqa: F821 - never defined: every field is decided per value
        n: int

    assert _extract_dataclass_to_tuple_schema(Local) == {"c": "unpack", "n": "unpack"}

    s = Shapes(1, None, {"a": (1, 2.0)}, [1], {"k": Cfg(3, 4)}, Cfg(5, 6), None, Cfg(7, 8))
    s.me = Shapes(2, 3, {}, [], {}, Cfg(0, 0), None, "leaf")
    out = unpack_dataclass_to_tuple(s)
    assert out == (1, None, {"a": (1, 2.0)}, [1], {"k": (3, 4)}, (5, 6),
                   (2, 3, {}, [], {}, (0, 0), None, "leaf"), (7, 8))
    assert out[2] is s.pairs  # a leaf field is the same object


def test_unpack_dataclass_schema_validation():
    _validate_dataclass_to_tuple_schema({"a": None, "b": "unpack", "c": {"d": None}})
    with pytest.raises(TypeError, match="must be a dict, got list"):
        _validate_dataclass_to_tuple_schema([1])
    with pytest.raises(TypeError, match="field name must be a string, got 1"):
        _validate_dataclass_to_tuple_schema({1: None})
    with pytest.raises(ValueError, match="'a-b' is not a valid Python identifier"):
        _validate_dataclass_to_tuple_schema({"ok": {"a-b": None}})
    with pytest.raises(ValueError, match="'import' is a Python keyword"):
        _validate_dataclass_to_tuple_schema({"import": None})


def test_unpack_dataclass_keeps_named_tuple_types():
    out = unpack_dataclass_to_tuple([Pair(Cfg(1, 2), 3)])
    assert type(out[0]) is Pair and out[0] == Pair((1, 2), 3)
    empty = NamedTuple("Empty", [])()
    assert type(unpack_dataclass_to_tuple(empty)) is type(empty)

def test_kwargs_wrapper_maps_dataclasses():
    w = make_kwargs_wrapper(lambda *a: a, ["a", "cfg"], arg_defaults=(Cfg(0, 0),),
                            map_dataclass_to_tuple=["cfg"])
    assert w(1) == (1, (0, 0)) and w(Cfg(1, 1), cfg=Cfg(2, 3)) == (Cfg(1, 1), (2, 3))


USE_BLOB = r"""
extern "C" {
extern const unsigned char __tvm_ffi__cubin_NAME[];
extern const unsigned char __tvm_ffi__cubin_NAME_end[];
const unsigned char* FN_start() { return __tvm_ffi__cubin_NAME; }
long FN_size() { return __tvm_ffi__cubin_NAME_end - __tvm_ffi__cubin_NAME; }
}
"""


@pytest.mark.skipif(sys.platform != "linux", reason="embed_cubin writes ELF objects")
def test_embed_cubin_puts_the_bytes_between_the_symbols(tmp_path):
    import ctypes
    import shutil

    from tvm_ffi.utils.embed_cubin import embed_cubin

    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        pytest.fail("no C++ compiler to build the test objects")
    objs = []
    blobs = {"a": b"CUBIN\x00one", "b": bytes(range(256)) * 3}
    # Two objects embed data under the same name: the symbols are local to each.
    for fn, data in blobs.items():
        src = tmp_path / f"{fn}.cc"
        src.write_text(USE_BLOB.replace("NAME", "kernel").replace("FN", fn))
        obj, cubin, out = tmp_path / f"{fn}.o", tmp_path / f"{fn}.cubin", tmp_path / f"{fn}_all.o"
        subprocess.run([cxx, "-c", "-fPIC", str(src), "-o", str(obj)], check=True)
        cubin.write_bytes(data)
        embed_cubin(cubin_path=cubin, input_obj_path=obj, output_obj_path=out, name="kernel")
        objs.append(str(out))
    lib = tmp_path / "libblobs.so"
    subprocess.run([cxx, "-shared", *objs, "-o", str(lib)], check=True)
    dll = ctypes.CDLL(str(lib))
    for fn, data in blobs.items():
        start = getattr(dll, f"{fn}_start")
        start.restype = ctypes.c_void_p
        size = getattr(dll, f"{fn}_size")()
        assert ctypes.string_at(start(), size) == data


def test_embed_cubin_bad_input(tmp_path):
    from tvm_ffi.utils.embed_cubin import embed_cubin

    with pytest.raises(FileNotFoundError, match="CUBIN file not found: .*nope.cubin"):
        embed_cubin(tmp_path / "nope.cubin", tmp_path / "x.o", tmp_path / "y.o", "k")
    (tmp_path / "k.cubin").write_bytes(b"x")
    (tmp_path / "x.o").write_bytes(b"not an object")
    with pytest.raises(ValueError, match="name must be a C identifier, got 'a-b'"):
        embed_cubin(tmp_path / "k.cubin", tmp_path / "x.o", tmp_path / "y.o", "a-b")
    with pytest.raises(RuntimeError, match=r"`.*ld -r .*x\.o.*` failed \(exit code"):
        embed_cubin(tmp_path / "k.cubin", tmp_path / "x.o", tmp_path / "y.o", "k")
