// The spelling of each measured operation in this project's C++ layer
// (include/tvmffi/*.h).  side_upstream.h spells the same operations with
// apache-tvm-ffi's headers; bench_layers.cc includes exactly one of the two.
#ifndef BENCH_CXX_LAYERS_SIDE_OURS_H_
#define BENCH_CXX_LAYERS_SIDE_OURS_H_

#include <cstddef>
#include <cstdint>

#include <tvmffi/any.h>
#include <tvmffi/array.h>
#include <tvmffi/function.h>
#include <tvmffi/object.h>
#include <tvmffi/string.h>

namespace side {

constexpr const char* kName = "ours";

using Any = tvmffi::core::Any;
using Function = tvmffi::core::Function;
using ObjectRef = tvmffi::core::ObjectRef;
using String = tvmffi::core::String;
template <typename T>
using Array = tvmffi::core::Array<T>;
using ObjectPtr = tvmffi::core::ObjectPtr<tvmffi::core::Object>;

template <typename F>
inline Function MakeTyped(F f) {
  return Function::FromTyped(f);
}
template <typename T>
inline T Cast(const Any& a) {
  return a.As<T>();
}
// A bare ffi.Object (header only).
inline ObjectPtr MakePlainObject() {
  return ObjectPtr(tvmffi::core::MakeObject<tvmffi::core::PlainObject>());
}
inline ObjectRef RefOf(const ObjectPtr& p) { return ObjectRef(p); }

}  // namespace side

#endif  // BENCH_CXX_LAYERS_SIDE_OURS_H_
