"""dataclasses.gen_abi_cpp: a C++ header viewing registered object types,
checked as text, for its errors, and by compiling it against the live layout."""
from __future__ import annotations

import os
import shutil
import subprocess
from types import SimpleNamespace
from typing import Optional, Union

import pytest

import tvm_ffi
import tvm_ffi.libinfo
import tvm_ffi.testing  # noqa: F401  (registers the testing.* types)
from tvm_ffi import Object
from tvm_ffi.core import TypeSchema
from tvm_ffi.dataclasses import gen_abi_cpp, py_class
from tvm_ffi.dataclasses.gen_abi_cpp import _Generator


@py_class("gtest.Leaf")
class Leaf(Object):
    value: int


@py_class("gtest.Node")
class Node(Object):
    flag: bool
    weight: float


@py_class("gtest.deep.\u0394")
class Delta(Node):
    leaf: Leaf
    maybe: Optional[Leaf]
    kids: list[Leaf]


@py_class("gtest.mixed.Mixed")
class Mixed(Object):
    ready: bool
    count: int
    anything: object
    oint: Optional[int]
    choice: Union[int, float]
    nested: dict[str, list[Optional[Leaf]]]
    either: list[Union[Leaf, Node]]


EXPECTED = r"""#pragma once

#include <tvm/ffi/tvm_ffi.h>

namespace gtest {

struct LeafObj;

struct NodeObj;

}  // namespace gtest

namespace gtest {
namespace deep {

struct __ffi_escape_ce94Obj;

}  // namespace deep
}  // namespace gtest

template <>
inline constexpr bool tvm::ffi::is_object_subclass_v<::gtest::LeafObj> = true;
template <>
inline constexpr bool tvm::ffi::is_object_subclass_v<::gtest::NodeObj> = true;
template <>
inline constexpr bool tvm::ffi::is_object_subclass_v<::gtest::deep::__ffi_escape_ce94Obj> = true;

namespace gtest {

struct LeafObj : public ::tvm::ffi::Object {
  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("gtest.Leaf", 1);
};

}  // namespace gtest

static_assert(sizeof(::tvm::ffi::Object) == 24);
static_assert(alignof(::tvm::ffi::Object) == 8);

#if defined(__clang__) || defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
#elif defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4749)
#endif

namespace gtest {

struct alignas(8) NodeObj : public ::tvm::ffi::Object {
  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("gtest.Node", 1);

  bool flag;  // offset=24, size=1, align=1
  double weight;  // offset=32, size=8, align=8
};

static_assert(sizeof(NodeObj) == 40);
static_assert(alignof(NodeObj) == 8);
static_assert(sizeof(decltype(NodeObj::flag)) == 1);
static_assert(alignof(decltype(NodeObj::flag)) == 1);
static_assert(offsetof(NodeObj, flag) == 24);
static_assert(sizeof(decltype(NodeObj::weight)) == 8);
static_assert(alignof(decltype(NodeObj::weight)) == 8);
static_assert(offsetof(NodeObj, weight) == 32);

}  // namespace gtest

namespace gtest {
namespace deep {

struct alignas(8) __ffi_escape_ce94Obj : public ::gtest::NodeObj {
  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("gtest.deep.\316\224", 2);

  ::tvm::ffi::Arc<::gtest::LeafObj> leaf;  // offset=40, size=8, align=8
  ::tvm::ffi::ObjectPtr<::gtest::LeafObj> maybe;  // offset=48, size=8, align=8
  ::tvm::ffi::List<::tvm::ffi::Arc<::gtest::LeafObj>> kids;  // offset=56, size=8, align=8
};

static_assert(sizeof(__ffi_escape_ce94Obj) == 64);
static_assert(alignof(__ffi_escape_ce94Obj) == 8);
static_assert(sizeof(decltype(__ffi_escape_ce94Obj::leaf)) == 8);
static_assert(alignof(decltype(__ffi_escape_ce94Obj::leaf)) == 8);
static_assert(offsetof(__ffi_escape_ce94Obj, leaf) == 40);
static_assert(sizeof(decltype(__ffi_escape_ce94Obj::maybe)) == 8);
static_assert(alignof(decltype(__ffi_escape_ce94Obj::maybe)) == 8);
static_assert(offsetof(__ffi_escape_ce94Obj, maybe) == 48);
static_assert(sizeof(decltype(__ffi_escape_ce94Obj::kids)) == 8);
static_assert(alignof(decltype(__ffi_escape_ce94Obj::kids)) == 8);
static_assert(offsetof(__ffi_escape_ce94Obj, kids) == 56);

}  // namespace deep
}  // namespace gtest

#if defined(__clang__) || defined(__GNUC__)
#pragma GCC diagnostic pop
#elif defined(_MSC_VER)
#pragma warning(pop)
#endif
"""


def _compile(tmp_path, header, extra=""):
    """Compiles ``header`` (and ``extra``) against the package's headers;
    skipped without a C++ compiler."""
    cxx = shutil.which(os.environ.get("CXX", "c++")) or shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    include = [*tvm_ffi.libinfo.include_paths()]
    try:
        include.append(tvm_ffi.libinfo.find_dlpack_include_path())
    except RuntimeError:
        pass
    if not any(os.path.exists(os.path.join(p, "tvm", "ffi", "tvm_ffi.h")) for p in include):
        # The umbrella header the generated one includes, from the headers there are.
        shim = tmp_path / "shim" / "tvm" / "ffi"
        shim.mkdir(parents=True, exist_ok=True)
        names = ["any.h", "object.h", "string.h", "function.h", "optional.h", "container/array.h",
                 "container/list.h", "container/map.h", "container/dict.h"]
        (shim / "tvm_ffi.h").write_text("".join(f"#include <tvm/ffi/{n}>\n" for n in names))
        include.append(str(tmp_path / "shim"))
    source = tmp_path / "abi_test.cc"
    source.write_text(header + extra)
    proc = subprocess.run(
        [cxx, "-std=c++17", "-fsyntax-only", *(f"-I{p}" for p in include), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    return proc


def test_header_text_for_a_hierarchy_with_a_dependency():
    # The selection (a pattern) holds Delta; its parent Node is laid out
    # too, Leaf (a field type only) is declared without fields.
    assert gen_abi_cpp("gtest.deep.*") == EXPECTED
    assert gen_abi_cpp(["gtest.deep.\u0394", "gtest.deep.\u0394"]) == EXPECTED


def test_carriers_follow_schema_and_layout():
    header = gen_abi_cpp("gtest.mixed.Mixed")
    for line in [
        "  bool ready;  // offset=24, size=1, align=1",
        "  int64_t count;  // offset=32, size=8, align=8",
        "  ::tvm::ffi::Any anything;  // offset=40, size=16, align=8",
        "  ::tvm::ffi::Any oint;  // offset=56, size=16, align=8",
        "  ::tvm::ffi::Any choice;  // offset=72, size=16, align=8",
        "  ::tvm::ffi::Dict<::tvm::ffi::String, ::tvm::ffi::List<"
        "::tvm::ffi::ObjectPtr<::gtest::LeafObj>>> nested;  // offset=88, size=8, align=8",
        "  ::tvm::ffi::List<::tvm::ffi::Arc<::tvm::ffi::Object>> either;"
        "  // offset=96, size=8, align=8",
    ]:
        assert line in header.splitlines(), line
    # Leaf is a dependency (declared without fields); a union of objects names none.
    assert "struct LeafObj : public ::tvm::ffi::Object {" in header
    assert "NodeObj" not in header
    assert "static_assert(sizeof(MixedObj) == 104);" in header


def test_cxx_types_and_their_dependencies():
    header = gen_abi_cpp("testing.TestCxxEnumHolder")
    assert "struct TestCxxIntEnumObj : public ::tvm::ffi::Object {\n" in header
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestCxxIntEnum", 3);' in header
    assert "  ::tvm::ffi::Arc<::testing::TestCxxIntEnumObj> priority;  // offset=24" in header
    derived = gen_abi_cpp("testing.TestObjectDerived")
    assert (
        "struct alignas(8) TestObjectDerivedObj : public ::testing::TestObjectBaseObj {"
        in derived
    )
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestObjectDerived", 2);' in derived


def test_builtin_types_need_no_struct():
    empty = gen_abi_cpp(["ffi.Function", "ffi.Array"])
    assert "struct" not in empty and "namespace" not in empty
    assert empty.startswith("#pragma once\n\n#include <tvm/ffi/tvm_ffi.h>\n\n\nstatic_assert(")
    unsupported = "Static TVM-FFI type 'ffi.OpaquePyObject' is not supported"
    with pytest.raises(ValueError, match=unsupported):
        gen_abi_cpp("ffi.OpaquePyObject")


def test_selector_errors():
    with pytest.raises(ValueError, match="'gtest.Nope' did not match any registered object type"):
        gen_abi_cpp("gtest.Nope")
    with pytest.raises(ValueError, match="'int' did not match any registered object type"):
        gen_abi_cpp("int")
    with pytest.raises(ValueError, match="'nowhere.\\*' did not match any registered type"):
        gen_abi_cpp(["gtest.Leaf", "nowhere.*"])
    with pytest.raises(TypeError, match="a type-key selector is a str, got int"):
        gen_abi_cpp([3])


def test_layouts_it_cannot_express():
    with pytest.raises(ValueError, match=r"Ambiguous native Optional carrier for "
                       r"testing.SchemaAllTypes.v_opt_int with layout \(16, 8\)"):
        gen_abi_cpp("testing.SchemaAllTypes")
    owner = SimpleNamespace(type_key="gtest.Raw")
    raw = SimpleNamespace(name="t", size=8, alignment=8, offset=24, field_static_type_index=7,
                          ty=TypeSchema("DLTensor*"))
    with pytest.raises(ValueError, match=r"field gtest.Raw.t is a raw DLTensor\*"):
        _Generator([])._lower_field(raw, owner)


def test_lowering_without_a_schema_and_of_native_optionals():
    owner = SimpleNamespace(type_key="gtest.Native")
    bare = SimpleNamespace(name="x", size=8, alignment=8, offset=24,
                           field_static_type_index=130, ty=None)
    carrier = _Generator([])._lower_field(bare, owner)
    assert (carrier.cpp_type, carrier.size, carrier.alignment) == (
        "::tvm::ffi::ObjectPtr<::tvm::ffi::Object>", 8, 8)

    def lower(schema, size):
        field = SimpleNamespace(name="f", size=size, alignment=8, offset=24,
                                field_static_type_index=-1, ty=None,
                                metadata={"type_schema": schema})
        return _Generator([])._lower_field(field, owner).cpp_type

    leaf = {"type": "gtest.Leaf"}
    assert lower(leaf, 8) == "::tvm::ffi::Arc<::gtest::LeafObj>"
    optional = {"type": "Optional", "args": [leaf]}
    assert lower(optional, 8) == "::tvm::ffi::ObjectPtr<::gtest::LeafObj>"
    assert lower({"type": "Optional", "args": [leaf]}, 16) == (
        "::tvm::ffi::Optional<::tvm::ffi::Arc<::gtest::LeafObj>>")
    assert lower({"type": "Variant", "args": [leaf, {"type": "gtest.Node"}]}, 8) == (
        "::tvm::ffi::Arc<::tvm::ffi::Object>")
    assert lower('{"type":"ffi.Array","args":[{"type":"int"}]}', 8) == "::tvm::ffi::Array<int64_t>"


def test_generated_header_compiles_against_the_live_layout(tmp_path):
    header = gen_abi_cpp(["gtest.deep.*", "gtest.mixed.Mixed", "testing.TestCxxEnumHolder"])
    extra = """
static_assert(std::is_base_of_v<::gtest::NodeObj, ::gtest::deep::__ffi_escape_ce94Obj>);
static_assert(tvm::ffi::is_object_subclass_v<::gtest::LeafObj>);
"""
    proc = _compile(tmp_path, header, extra)
    assert proc.returncode == 0, proc.stderr
    # A wrong layout is caught by the header's own asserts.
    wrong = header.replace(
        "static_assert(offsetof(NodeObj, weight) == 32);",
        "static_assert(offsetof(NodeObj, weight) == 40);")
    assert wrong != header
    proc = _compile(tmp_path, wrong)
    assert proc.returncode != 0 and "static assertion failed" in proc.stderr
