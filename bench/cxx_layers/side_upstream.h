// The spelling of each measured operation in apache-tvm-ffi's C++ headers
// (tvm/ffi/*.h from the release that .ci/fetch-upstream.sh unpacks).  The
// binary built from it still links this project's libtvm_ffi.
#ifndef BENCH_CXX_LAYERS_SIDE_UPSTREAM_H_
#define BENCH_CXX_LAYERS_SIDE_UPSTREAM_H_

#include <cstddef>
#include <cstdint>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

namespace side {

constexpr const char* kName = "upstream";

using Any = tvm::ffi::Any;
using Function = tvm::ffi::Function;
using ObjectRef = tvm::ffi::ObjectRef;
using String = tvm::ffi::String;
template <typename T>
using Array = tvm::ffi::Array<T>;
using ObjectPtr = tvm::ffi::ObjectPtr<tvm::ffi::Object>;

template <typename F>
inline Function MakeTyped(F f) {
  return Function::FromTyped(f);
}
template <typename T>
inline T Cast(const Any& a) {
  return a.cast<T>();
}
inline ObjectPtr MakePlainObject() { return tvm::ffi::make_object<tvm::ffi::Object>(); }
inline ObjectRef RefOf(const ObjectPtr& p) { return ObjectRef(p); }

}  // namespace side

#endif  // BENCH_CXX_LAYERS_SIDE_UPSTREAM_H_
