// Helpers shared by the C++ tests.
//
// Calling globals, reading raised errors as "Kind: message", byte arrays,
// and objects whose release is counted.
#ifndef TVM_FFI_TESTS_CPP_TEST_UTIL_H_
#define TVM_FFI_TESTS_CPP_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <dlfcn.h>
#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/tvm_ffi.h>

namespace test_util {

using tvm::ffi::Any;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::Object;
using tvm::ffi::ObjectPtr;
using tvm::ffi::ObjectRef;
using tvm::ffi::details::AnyUnsafe;
using tvm::ffi::details::ObjectUnsafe;

// The ObjectPtr that takes over the reference `h` holds.
inline ObjectPtr<Object> AdoptHandle(TVMFFIObjectHandle h) {
  return ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(h));
}

// A new ObjectPtr to the object behind `h` (a reference is taken).
inline ObjectPtr<Object> BorrowHandle(TVMFFIObjectHandle h) {
  return ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<TVMFFIObject*>(h));
}

// A nullable reference to TObj (the old layer's ObjectRefOf).
template <typename TObj>
class ObjectRefOf : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(ObjectRefOf, ObjectRef, TObj);
};

// The TRef reference holding `p` (which must point to a TRef's object).
template <typename TRef>
TRef RefOf(ObjectPtr<Object> p) {
  return ObjectUnsafe::ObjectRefFromObjectPtr<TRef>(std::move(p));
}

// The Error reference holding `p` (which must point to an ffi.Error).
inline Error ErrorOf(ObjectPtr<Object> p) {
  return ObjectUnsafe::ObjectRefFromObjectPtr<Error>(std::move(p));
}

// An error the library makes (TVMFFIErrorCreate), to throw from a callback
// where the library must treat the error as its own (it attaches a
// VisitErrorContext only to those); tvm::ffi::Error makes its cell in the
// header.
inline Error LibraryError(const std::string& kind, const std::string& message) {
  TVMFFIByteArray k = {kind.data(), kind.size()}, m = {message.data(), message.size()};
  TVMFFIByteArray b = {"", 0};
  TVMFFIObjectHandle h = nullptr;
  if (TVMFFIErrorCreate(&k, &m, &b, &h) != 0) throw std::bad_alloc();
  return ErrorOf(AdoptHandle(h));
}

// The object behind a handle (no reference taken).
inline Object* ObjectOf(TVMFFIObjectHandle h) { return static_cast<Object*>(h); }

// The TVMFFIAny an Any holds (the Any keeps owning it).
inline const TVMFFIAny* RawOf(const Any& v) { return AnyUnsafe::TVMFFIAnyPtrFromAny(v); }
// The TVMFFIAny an AnyView is (an AnyView is exactly one TVMFFIAny).
inline const TVMFFIAny* RawOf(const tvm::ffi::AnyView& v) {
  static_assert(sizeof(tvm::ffi::AnyView) == sizeof(TVMFFIAny), "AnyView is one TVMFFIAny");
  return reinterpret_cast<const TVMFFIAny*>(&v);
}

// Calls the global function `name` (through TVMFFIFunctionCall).
template <typename... Args>
Any Call(const std::string& name, Args&&... args) {
  return Function::GetGlobalRequired(name)(std::forward<Args>(args)...);
}

// Calls `f` with `n` packed arguments.
inline Any CallPacked(const Function& f, const tvm::ffi::AnyView* args, int32_t n) {
  Any out;
  f.CallPacked(args, n, &out);
  return out;
}

// The library's JSON-graph text of `value` (ffi.ToJSONGraphString; `metadata`
// None to omit), and the value of such a text (ffi.FromJSONGraphString).
inline std::string ToJSONGraphString(const tvm::ffi::AnyView& value,
                                     const tvm::ffi::AnyView& metadata = tvm::ffi::AnyView()) {
  return Call("ffi.ToJSONGraphString", value, metadata).cast<std::string>();
}
inline Any FromJSONGraphString(const std::string& text) {
  return Call("ffi.FromJSONGraphString", tvm::ffi::String(text));
}

// A testing.* global.  The linker may drop libtvm_ffi_testing from the
// executable's dependencies (nothing references its symbols), so it is
// loaded explicitly (found through the executable's RUNPATH); loading
// registers its globals.
inline Function TestingGlobal(const std::string& name) {
  static void* lib = dlopen("libtvm_ffi_testing.so", RTLD_NOW | RTLD_GLOBAL);
  REQUIRE(lib != nullptr);
  return Function::GetGlobalRequired(name);
}

template <typename... Args>
Any CallTesting(const std::string& name, Args&&... args) {
  return TestingGlobal(name)(std::forward<Args>(args)...);
}

// "Kind: message" of the Error `f` throws, or "<nothing thrown>".
template <typename F>
std::string ThrownBy(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind() + ": " + e.message();
  }
  return "<nothing thrown>";
}

// Takes the raised error out of the slot; nullopt when the slot is empty.
inline std::optional<Error> TakeRaisedError() {
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  if (h == nullptr) return std::nullopt;
  return ObjectUnsafe::ObjectRefFromObjectPtr<Error>(AdoptHandle(h));
}

// The raised error as (kind, message); ("<none>", "") when there is none.
inline std::pair<std::string, std::string> TakeError() {
  std::optional<Error> e = TakeRaisedError();
  if (!e.has_value()) return {"<none>", ""};
  return {e->kind(), e->message()};
}

// The raised error as "Kind: message"; "" when there is none.
inline std::string TakeRaised() {
  std::optional<Error> e = TakeRaisedError();
  return e.has_value() ? e->kind() + ": " + e->message() : "";
}

// "Kind: message" of the error a C function raised with return code `rc`.
inline std::string Raised(int rc) {
  REQUIRE(rc == -1);
  std::string text = TakeRaised();
  REQUIRE(!text.empty());
  return text;
}

// A DLDataType from plain ints (codes as in DLDataTypeCode).
inline DLDataType DType(int code, int bits, int lanes = 1) {
  DLDataType t;
  t.code = static_cast<uint8_t>(code);
  t.bits = static_cast<uint8_t>(bits);
  t.lanes = static_cast<uint16_t>(lanes);
  return t;
}

inline TVMFFIByteArray ByteArrayOf(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }
inline std::string TextOf(const TVMFFIByteArray& b) {
  return b.size == 0 ? std::string() : std::string(b.data, b.size);
}

// An ffi.OpaquePyObject whose deleter counts into *counter; the returned
// reference is the only one.
inline void CountingDeleter(void* counter) { ++*static_cast<int*>(counter); }
inline ObjectRef MakeCounted(int* counter) {
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIObjectCreateOpaque(counter, kTVMFFIOpaquePyObject, &CountingDeleter, &h) == 0);
  return ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(AdoptHandle(h));
}

// An ffi.Tensor the library makes (TVMFFITensorFromDLPack) over a DLTensor
// owned by someone else: shape and strides are copied, the data is
// borrowed and must outlive the tensor.
inline tvm::ffi::Tensor BorrowedTensor(const DLTensor& t) {
  if (t.ndim < 0) throw std::invalid_argument("negative ndim");
  size_t n = static_cast<size_t>(t.ndim);
  void* mem = std::malloc(sizeof(DLManagedTensor) + 2 * n * sizeof(int64_t));
  if (mem == nullptr) throw std::bad_alloc();
  DLManagedTensor* mt = static_cast<DLManagedTensor*>(mem);
  int64_t* dims = reinterpret_cast<int64_t*>(mt + 1);
  mt->dl_tensor = t;
  if (n != 0) {
    std::memcpy(dims, t.shape, n * sizeof(int64_t));
    mt->dl_tensor.shape = dims;
    if (t.strides != nullptr) {
      std::memcpy(dims + n, t.strides, n * sizeof(int64_t));
      mt->dl_tensor.strides = dims + n;
    }
  }
  mt->manager_ctx = nullptr;
  mt->deleter = [](DLManagedTensor* self) { std::free(self); };
  TVMFFIObjectHandle h = nullptr;
  if (TVMFFITensorFromDLPack(mt, 0, 0, &h) != 0) {
    std::free(mt);
    throw tvm::ffi::details::MoveFromSafeCallRaised();
  }
  return ObjectUnsafe::ObjectRefFromObjectPtr<tvm::ffi::Tensor>(AdoptHandle(h));
}

// The elements of an ffi.Array or ffi.List object, as stored.
inline const TVMFFIAny* SeqItems(TVMFFIObjectHandle h) {
  return static_cast<const TVMFFIAny*>(TVMFFISeqGetCellPtr(h)->data);
}

// Registers `f` as global `name` with a doc string and metadata (JSON text),
// through TVMFFIFunctionSetGlobalFromMethodInfo.
inline void SetGlobalWithInfo(const std::string& name, const Function& f, bool allow_override,
                              const std::string& doc, const std::string& metadata) {
  TVMFFIMethodInfo info{};
  info.name = {name.data(), name.size()};
  info.doc = {doc.data(), doc.size()};
  info.metadata = {metadata.data(), metadata.size()};
  info.method.type_index = kTVMFFIFunction;
  info.method.v_obj = ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(f);
  if (TVMFFIFunctionSetGlobalFromMethodInfo(&info, allow_override ? 1 : 0) != 0) {
    throw tvm::ffi::details::MoveFromSafeCallRaised();
  }
}

// The handle of a heap String's object (taking no reference).
inline TVMFFIObjectHandle HandleOf(const tvm::ffi::String& s) {
  TVMFFIAny view{};
  tvm::ffi::TypeTraits<tvm::ffi::String>::CopyToAnyView(s, &view);
  REQUIRE(view.type_index == kTVMFFIStr);
  return view.v_obj;
}

// The strong count of a heap String (taking no reference).
inline uint64_t UseCountOf(const tvm::ffi::String& s) {
  TVMFFIAny view{};
  tvm::ffi::TypeTraits<tvm::ffi::String>::CopyToAnyView(s, &view);
  REQUIRE(view.type_index == kTVMFFIStr);
  return ObjectOf(view.v_obj)->use_count();
}

// The value of the reflected field `name` of the object `obj` holds, read
// through the field's getter (not the C++ layout).
inline Any ReflectedField(const Any& obj, const std::string& name) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj.type_index());
  if (info == nullptr) throw std::invalid_argument("no type info");
  for (int32_t i = 0; i < info->num_fields; ++i) {
    const TVMFFIFieldInfo& f = info->fields[i];
    if (std::string(f.name.data, f.name.size) != name) continue;
    TVMFFIAny out{};
    void* field = reinterpret_cast<char*>(AnyUnsafe::TVMFFIAnyPtrFromAny(obj)->v_obj) + f.offset;
    if (f.getter(field, &out) != 0) throw tvm::ffi::details::MoveFromSafeCallRaised();
    return AnyUnsafe::MoveTVMFFIAnyRawToAny(out);
  }
  throw std::invalid_argument("no field " + name);
}

// The integer of `n` 64-bit words (least significant first, two's
// complement) as the library makes it: kTVMFFIInt when it fits, else a new
// ffi.BigInt (TVMFFIBigIntFromByteArray).
inline Any BigIntFromWords(const int64_t* words, size_t n) {
  TVMFFIByteArray bytes = {reinterpret_cast<const char*>(words), n * sizeof(int64_t)};
  TVMFFIAny raw{};
  if (TVMFFIBigIntFromByteArray(&bytes, &raw) != 0) {
    throw tvm::ffi::details::MoveFromSafeCallRaised();
  }
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
}

// The raw handle an Any holds (must be an object).
inline TVMFFIObjectHandle HandleOf(const Any& v) {
  REQUIRE(v.type_index() >= kTVMFFIStaticObjectBegin);
  return RawOf(v)->v_obj;
}

// The handle of the object a reference holds (nullptr when it holds none).
inline TVMFFIObjectHandle HandleOf(const ObjectRef& r) {
  return ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(r);
}

inline std::string StrOf(const Any& v) { return v.cast<std::string>(); }

// Runs `body` on a new thread with a `stack_bytes` stack (a small one as macOS
// gives secondary threads, or a large one for deep walks under sanitizers); an exception is returned as its text.
inline std::string OnThreadStack(size_t stack_bytes, std::function<void()> body) {
  struct Job {
    std::function<void()> body;
    std::string error;
  } job{std::move(body), ""};
  pthread_attr_t attr;
  REQUIRE(pthread_attr_init(&attr) == 0);
  REQUIRE(pthread_attr_setstacksize(&attr, stack_bytes) == 0);
  pthread_t thread;
  auto run = [](void* arg) -> void* {
    Job* j = static_cast<Job*>(arg);
    try {
      j->body();
    } catch (const Error& e) {
      j->error = e.kind() + ": " + e.what();
    } catch (const std::exception& e) {
      j->error = e.what();
    }
    return nullptr;
  };
  REQUIRE(pthread_create(&thread, &attr, run, &job) == 0);
  pthread_attr_destroy(&attr);
  pthread_join(thread, nullptr);
  return job.error;
}

}  // namespace test_util

#endif  // TVM_FFI_TESTS_CPP_TEST_UTIL_H_
