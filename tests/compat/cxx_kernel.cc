// A kernel library as almost every tvm-ffi kernel is written: C++ against
// UPSTREAM apache-tvm-ffi's C++ headers (third_party/upstream/tvm_ffi, fetched
// by .ci/fetch-upstream.sh), nothing of ours on the include path, linked with
// OUR libtvm_ffi.  Those headers do container work inline -- Map and Dict
// lookups, inserts, growth and iteration included -- so every function here
// runs upstream's inline code on objects our library made, or hands objects
// upstream's code made to our library.
//
// Loading the library registers the compat_cxx.* global functions (a static
// initializer).  cxx_driver.c and tests/python/test_compat_cxx_kernel.py
// drive them.
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

namespace {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;
using ffi::Any;

// A reflected object type: fields readable through the type registry.
class PointObj : public ffi::Object {
 public:
  int64_t x;
  int64_t y;
  PointObj(int64_t x, int64_t y) : x(x), y(y) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("compat_cxx.Point", PointObj, ffi::Object);
};

class Point : public ffi::ObjectRef {
 public:
  Point(int64_t x, int64_t y) : ffi::ObjectRef(ffi::make_object<PointObj>(x, y)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Point, ffi::ObjectRef, PointObj);
};

// (key0, value0, key1, value1, ...) in iteration order.
template <typename MapLike>
ffi::Array<Any> FlatItems(const MapLike& m) {
  ffi::Array<Any> out;
  for (auto kv : m) {
    out.push_back(kv.first);
    out.push_back(kv.second);
  }
  return out;
}

// The map fields after the 24-byte object header, read as upstream lays them
// out (docs/abi.md, "Map and Dict").
struct RawMap {
  const char* base;
  uint64_t Field(size_t offset) const {
    uint64_t v;
    std::memcpy(&v, base + offset, sizeof(v));
    return v;
  }
  const void* data() const { return reinterpret_cast<const void*>(Field(24)); }
  uint64_t size() const { return Field(32); }
  uint64_t slots() const { return Field(40); }
  bool small() const { return (slots() >> 63) != 0; }
  uint32_t fib_shift() const { return static_cast<uint32_t>(Field(56)); }
  uint64_t head() const { return Field(64); }
  uint64_t tail() const { return Field(72); }
  // Dense entry i: metadata byte, key, value, prev, next.
  const char* Block(uint64_t i) const {
    return static_cast<const char*>(data()) + (i / 16) * (16 + 16 * 48);
  }
  uint8_t Meta(uint64_t i) const { return static_cast<uint8_t>(Block(i)[i % 16]); }
  const char* Item(uint64_t i) const { return Block(i) + 16 + (i % 16) * 48; }
  const char* SmallPair(uint64_t i) const { return static_cast<const char*>(data()) + i * 32; }
};

const Any& AnyAt(const char* p) { return *reinterpret_cast<const Any*>(p); }

// Builds a Map with upstream's own code from the same (key, value) sequence
// and compares the two tables field by field, entry by entry: the same hash,
// probing and growth give the same table.  "" when they agree, else the
// first difference.
ffi::String SameTableAsUpstream(ffi::Map<Any, Any> ours, ffi::Array<Any> flat) {
  ffi::Map<Any, Any> theirs;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) theirs.Set(flat[i], flat[i + 1]);
  RawMap a{reinterpret_cast<const char*>(ours.get())};
  RawMap b{reinterpret_cast<const char*>(theirs.get())};
  std::ostringstream os;
  if (a.size() != b.size() || a.slots() != b.slots()) {
    os << "size/slots: ours " << a.size() << "/" << std::hex << a.slots() << ", upstream "
       << std::dec << b.size() << "/" << std::hex << b.slots();
    return os.str();
  }
  ffi::AnyEqual eq;
  if (a.small()) {
    for (uint64_t i = 0; i < a.size(); ++i) {
      if (!eq(AnyAt(a.SmallPair(i)), AnyAt(b.SmallPair(i))) ||
          !eq(AnyAt(a.SmallPair(i) + 16), AnyAt(b.SmallPair(i) + 16))) {
        os << "small pair " << i << " differs";
        return os.str();
      }
    }
    return "";
  }
  if (a.fib_shift() != b.fib_shift() || a.head() != b.head() || a.tail() != b.tail()) {
    os << "fib_shift/head/tail: ours " << a.fib_shift() << "/" << a.head() << "/" << a.tail()
       << ", upstream " << b.fib_shift() << "/" << b.head() << "/" << b.tail();
    return os.str();
  }
  for (uint64_t i = 0; i < a.slots(); ++i) {
    if (a.Meta(i) != b.Meta(i)) {
      os << "entry " << i << ": metadata ours " << int(a.Meta(i)) << ", upstream "
         << int(b.Meta(i));
      return os.str();
    }
    if (a.Meta(i) == 0xFF) continue;
    const char* x = a.Item(i);
    const char* y = b.Item(i);
    if (!eq(AnyAt(x), AnyAt(y)) || !eq(AnyAt(x + 16), AnyAt(y + 16)) ||
        std::memcmp(x + 32, y + 32, 16) != 0) {
      os << "entry " << i << ": pair or links differ";
      return os.str();
    }
  }
  return "";
}

// A CPU allocator for Tensor::FromNDAlloc.
struct CPUAlloc {
  void AllocData(DLTensor* t) {
    size_t n = 1;
    for (int i = 0; i < t->ndim; ++i) n *= static_cast<size_t>(t->shape[i]);
    t->data = std::calloc(n, (t->dtype.bits * t->dtype.lanes + 7) / 8);
  }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PointObj>().def_ro("x", &PointObj::x).def_ro("y", &PointObj::y);
  refl::GlobalDef()
      // Array and List
      .def("compat_cxx.array_sum",
           [](ffi::Array<int64_t> a) {
             int64_t s = 0;
             for (int64_t v : a) s += v;
             return s;
           })
      .def("compat_cxx.array_append",
           [](ffi::Array<Any> a, Any v) {
             a.push_back(v);
             return a;
           })
      .def("compat_cxx.make_array",
           [](int64_t n) {
             ffi::Array<int64_t> a;
             for (int64_t i = 0; i < n; ++i) a.push_back(i * i);
             return a;
           })
      .def("compat_cxx.list_push", [](ffi::List<Any> l, Any v) { l.push_back(v); })
      .def("compat_cxx.make_list",
           [](int64_t n) {
             ffi::List<Any> l;
             for (int64_t i = 0; i < n; ++i) l.push_back(i);
             return l;
           })
      // Map: lookups, typed iteration, copy on write, and maps made here
      .def("compat_cxx.map_get", [](ffi::Map<Any, Any> m, Any key) -> Any { return m.at(key); })
      .def("compat_cxx.map_count",
           [](ffi::Map<Any, Any> m, Any key) { return static_cast<int64_t>(m.count(key)); })
      .def("compat_cxx.map_size",
           [](ffi::Map<Any, Any> m) { return static_cast<int64_t>(m.size()); })
      .def("compat_cxx.map_items", [](ffi::Map<Any, Any> m) { return FlatItems(m); })
      .def("compat_cxx.map_sum_values",
           [](ffi::Map<ffi::String, int64_t> m) {
             int64_t s = 0;
             for (auto kv : m) s += kv.second;
             return s;
           })
      .def("compat_cxx.map_set",
           [](ffi::Map<Any, Any> m, Any k, Any v) {
             m.Set(k, v);
             return m;
           })
      .def("compat_cxx.map_erase",
           [](ffi::Map<Any, Any> m, Any k) {
             m.erase(k);
             return m;
           })
      .def("compat_cxx.make_map",
           [](int64_t n) {
             ffi::Map<ffi::String, int64_t> m;
             for (int64_t i = 0; i < n; ++i) m.Set("k" + std::to_string(i), i);
             return m;
           })
      .def("compat_cxx.map_same_table_as_upstream", SameTableAsUpstream)
      // Dict: in-place mutation both ways
      .def("compat_cxx.dict_get", [](ffi::Dict<Any, Any> d, Any key) -> Any { return d.at(key); })
      .def("compat_cxx.dict_items", [](ffi::Dict<Any, Any> d) { return FlatItems(d); })
      .def("compat_cxx.dict_set", [](ffi::Dict<Any, Any> d, Any k, Any v) { d.Set(k, v); })
      .def("compat_cxx.dict_erase", [](ffi::Dict<Any, Any> d, Any k) { d.erase(k); })
      .def("compat_cxx.dict_clear", [](ffi::Dict<Any, Any> d) { d.clear(); })
      .def("compat_cxx.make_dict",
           [](int64_t n) {
             ffi::Dict<ffi::String, int64_t> d;
             for (int64_t i = 0; i < n; ++i) d.Set("k" + std::to_string(i), i);
             return d;
           })
      // String, Shape, Tensor
      .def("compat_cxx.concat", [](ffi::String a, ffi::String b) { return a + b; })
      .def("compat_cxx.shape_prod",
           [](ffi::Shape s) {
             int64_t p = 1;
             for (int64_t d : s) p *= d;
             return p;
           })
      .def("compat_cxx.make_shape",
           [](int64_t a, int64_t b, int64_t c) { return ffi::Shape({a, b, c}); })
      .def("compat_cxx.tensor_sum_f32",
           [](ffi::Tensor t) {
             if (t.dtype().code != kDLFloat || t.dtype().bits != 32 || !t.IsContiguous()) {
               TVM_FFI_THROW(TypeError) << "tensor_sum_f32 expects a contiguous float32 tensor";
             }
             const float* p = static_cast<const float*>(t.data_ptr());
             double s = 0;
             for (int64_t i = 0; i < t.numel(); ++i) s += p[i];
             return s;
           })
      .def("compat_cxx.make_tensor_f32",
           [](int64_t rows, int64_t cols) {
             ffi::Tensor t = ffi::Tensor::FromNDAlloc(CPUAlloc(), ffi::Shape({rows, cols}),
                                                      DLDataType{kDLFloat, 32, 1},
                                                      DLDevice{kDLCPU, 0});
             float* p = static_cast<float*>(t.data_ptr());
             for (int64_t i = 0; i < rows * cols; ++i) p[i] = static_cast<float>(i) * 0.5f;
             return t;
           })
      // Errors both ways
      .def("compat_cxx.raise_value_error",
           [](ffi::String msg) { TVM_FFI_THROW(ValueError) << "kernel says: " << msg; })
      .def("compat_cxx.call_and_catch",
           [](ffi::Function f, Any arg) -> ffi::String {
             try {
               f(arg);
             } catch (const ffi::Error& e) {
               return e.kind() + ": " + e.message();
             }
             return "no error";
           })
      // A reflected object
      .def("compat_cxx.make_point", [](int64_t x, int64_t y) { return Point(x, y); })
      .def("compat_cxx.point_sum", [](Point p) { return p->x + p->y; });
}

}  // namespace
