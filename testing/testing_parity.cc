// testing.* global functions that upstream's testing library has and the rest
// of ours lacked: containers holding a tensor, a C symbol for
// Function.__from_extern_c__ and its MLIR packed twin, and a signal-checking
// loop.  Written on the tvm::ffi C++ API (include/tvm/ffi);
// names, type schemas and results match apache-tvm-ffi 0.1.15.post2's.
#include <chrono>
#include <cstdint>
#include <iostream>
#include <thread>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {
namespace testing {
namespace {

// The C symbol testing.get_add_one_c_symbol hands out: a TVMFFISafeCallType
// that returns its one int argument plus one.
extern "C" int TVMFFITestingParityAddOne(void*, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (num_args != 1) {
    TVM_FFI_THROW(TypeError) << "add_one takes 1 argument, got " << num_args;
  }
  int64_t x = reinterpret_cast<const AnyView*>(args)[0].cast<int64_t>();
  *reinterpret_cast<Any*>(result) = x + 1;
  TVM_FFI_SAFE_CALL_END();
}

// The same function in MLIR's packed calling convention: one array of
// pointers to (handle, args, num_args, result, return code).
extern "C" void TVMFFITestingParityMLIRAddOne(void** packed) {
  void* handle = *static_cast<void**>(packed[0]);
  const TVMFFIAny* args = *static_cast<const TVMFFIAny**>(packed[1]);
  int32_t num_args = *static_cast<int32_t*>(packed[2]);
  TVMFFIAny* result = *static_cast<TVMFFIAny**>(packed[3]);
  *static_cast<int*>(packed[4]) = TVMFFITestingParityAddOne(handle, args, num_args, result);
}

int64_t SymbolAddress(void* symbol) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(symbol)); }

// Sleeps `seconds` times one second, asking the host for pending signals
// (Ctrl-C in Python) before each; an interrupt surfaces as the host's error.
void RunCheckSignal(int seconds) {
  for (int i = 0; i < seconds; ++i) {
    if (TVMFFIEnvCheckSignals() != 0) throw EnvErrorAlreadySet();
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  std::cout << "Function finished without catching signal" << std::endl;
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef()
      .def("testing.get_add_one_c_symbol",
           []() { return SymbolAddress(reinterpret_cast<void*>(&TVMFFITestingParityAddOne)); })
      .def("testing.get_mlir_add_one_c_symbol",
           []() { return SymbolAddress(reinterpret_cast<void*>(&TVMFFITestingParityMLIRAddOne)); })
      .def("testing.run_check_signal", RunCheckSignal)
      .def("testing.make_array_with_tensor", [](Tensor t) { return Array<Any>{Any(t)}; })
      .def("testing.make_array_with_mixed",
           [](Tensor t, int64_t n) { return Array<Any>{Any(t), Any(n), Any(String("hello"))}; })
      .def("testing.make_nested_array_with_tensor",
           [](Tensor t) {
             Array<Any> inner{Any(t), Any(int64_t(42))};
             return Array<Any>{Any(inner), Any(t)};
           })
      .def("testing.make_empty_array_with_tensor_input", [](Tensor) { return Array<Any>(); })
      .def("testing.make_list_with_tensor",
           [](Tensor t, int64_t n) {
             List<Any> out;
             out.push_back(t);
             out.push_back(n);
             return out;
           })
      .def("testing.make_map_with_tensor",
           [](Tensor t) {
             Map<String, Any> out;
             out.Set("tensor", t);
             out.Set("value", int64_t(42));
             out.Set("name", String("test"));
             return out;
           })
      .def("testing.make_dict_with_tensor",
           [](Tensor t) {
             Dict<String, Any> out;
             out.Set("tensor", t);
             out.Set("value", int64_t(42));
             return out;
           })
      .def("testing.make_nested_map_with_tensor",
           [](Tensor a, Tensor b) {
             Map<String, Any> inner;
             inner.Set("t", a);
             Map<String, Any> out;
             out.Set("array", Array<Any>{Any(a), Any(b)});
             out.Set("map", inner);
             out.Set("scalar", int64_t(99));
             return out;
           });
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
