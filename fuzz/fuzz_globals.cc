// Sequences of calls to the library's global functions with values of every
// kind, wrong types and extreme values included: each call returns 0 (its
// result is kept and fed to later calls) or -1 with an Error raised, and
// nothing crashes, leaks (LeakSanitizer) or corrupts memory (ASan).
//
// Globals that take raw pointers by contract (ffi.FunctionFromExternC),
// load files, or change the global table for later inputs are left out:
// calling them with junk is undefined or makes runs depend on each other.
#include "fuzz_common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

constexpr int kPoolSize = 8;
constexpr int kMaxOps = 48;
constexpr int kMaxArgs = 6;
constexpr int64_t kMaxSeqSize = 1024;  // larger sequences are not passed on (memory)

bool Denied(const std::string& name) {
  static const char* const kDenied[] = {"ExternC", "Remove", "SetGlobal", "Load", "Unsafe",
                                        "System"};
  for (const char* d : kDenied) {
    if (name.find(d) != std::string::npos) return true;
  }
  return name.rfind("testing.", 0) == 0;
}

// The names of the callable globals, sorted, looked up once.
const std::vector<TVMFFIObjectHandle>& Globals() {
  static std::vector<TVMFFIObjectHandle> funcs = [] {
    std::vector<TVMFFIObjectHandle> out;
    TVMFFIObjectHandle lister = nullptr;
    TVMFFIByteArray lname{"ffi.FunctionListGlobalNamesFunctor", 34};
    if (TVMFFIFunctionGetGlobal(&lname, &lister) != 0 || lister == nullptr) fuzz::Fail("no lister");
    TVMFFIAny functor;
    std::memset(&functor, 0, sizeof(functor));
    if (TVMFFIFunctionCall(lister, nullptr, 0, &functor) != 0) fuzz::Fail("lister failed");
    TVMFFIAny arg;
    std::memset(&arg, 0, sizeof(arg));
    arg.type_index = kTVMFFIInt;
    arg.v_int64 = -1;
    TVMFFIAny count;
    std::memset(&count, 0, sizeof(count));
    if (TVMFFIFunctionCall(functor.v_obj, &arg, 1, &count) != 0) fuzz::Fail("count failed");
    std::vector<std::string> names;
    for (int64_t i = 0; i < count.v_int64; ++i) {
      arg.v_int64 = i;
      TVMFFIAny name;
      std::memset(&name, 0, sizeof(name));
      if (TVMFFIFunctionCall(functor.v_obj, &arg, 1, &name) != 0) fuzz::Fail("name failed");
      std::string text = name.type_index == kTVMFFISmallStr
                             ? std::string(name.v_bytes, name.small_str_len)
                             : std::string(TVMFFIBytesGetByteArrayPtr(name.v_obj)->data,
                                           TVMFFIBytesGetByteArrayPtr(name.v_obj)->size);
      fuzz::ReleaseAny(&name);
      if (!Denied(text)) names.push_back(text);
    }
    fuzz::ReleaseAny(&functor);
    TVMFFIObjectDecRef(lister);
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      TVMFFIByteArray b{n.data(), n.size()};
      TVMFFIObjectHandle f = nullptr;
      if (TVMFFIFunctionGetGlobal(&b, &f) == 0 && f != nullptr) out.push_back(f);
    }
    return out;
  }();
  return funcs;
}

TVMFFIAny Int(int64_t v) {
  TVMFFIAny a;
  std::memset(&a, 0, sizeof(a));
  a.type_index = kTVMFFIInt;
  a.v_int64 = v;
  return a;
}

// An owned literal value chosen by the input.
TVMFFIAny Literal(fuzz::Reader& in) {
  static const int64_t kInts[] = {0, 1, -1, 2, 7, 8, 64, 65535, INT32_MAX, INT32_MIN,
                                  std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min()};
  static const double kFloats[] = {0.0, -0.0, 1.5, std::numeric_limits<double>::quiet_NaN(),
                                   std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity(), 1e308, 5e-324};
  TVMFFIAny a;
  std::memset(&a, 0, sizeof(a));
  uint8_t kind = in.Byte();
  switch (kind % 10) {
    case 0:
      return a;  // None
    case 1:
      return Int(kInts[in.Byte() % (sizeof(kInts) / sizeof(kInts[0]))]);
    case 2:
      return Int(in.Take<int64_t>());
    case 3:
      a.type_index = kTVMFFIFloat;
      a.v_float64 = kFloats[in.Byte() % (sizeof(kFloats) / sizeof(kFloats[0]))];
      return a;
    case 4:
      a.type_index = kTVMFFIBool;
      a.v_int64 = in.Byte() & 1;
      return a;
    case 5:
    case 6: {  // a string or bytes (small or heap) from the input
      size_t n = 0;
      const uint8_t* p = in.Bytes(in.Byte() % 24, &n);
      TVMFFIByteArray b{reinterpret_cast<const char*>(p), n};
      int rc = kind % 10 == 5 ? TVMFFIStringFromByteArray(&b, &a) : TVMFFIBytesFromByteArray(&b, &a);
      fuzz::CheckReturn(rc);
      return a;
    }
    case 7:
      a.type_index = kTVMFFIDataType;
      a.v_dtype.code = in.Byte();
      a.v_dtype.bits = in.Byte();
      a.v_dtype.lanes = in.Take<uint16_t>();
      return a;
    case 8:
      a.type_index = kTVMFFIDevice;
      a.v_device.device_type = static_cast<DLDeviceType>(in.Take<int32_t>());
      a.v_device.device_id = in.Take<int32_t>();
      return a;
    default:
      a.type_index = kTVMFFIOpaquePtr;
      a.v_ptr = nullptr;
      return a;
  }
}

// A sequence too large to pass on (keeps memory bounded).
bool TooLarge(const TVMFFIAny& v) {
  if (v.type_index != kTVMFFIArray && v.type_index != kTVMFFIList) return false;
  return TVMFFISeqGetCellPtr(v.v_obj)->size > kMaxSeqSize;
}

struct Call {
  TVMFFIAny args[kMaxArgs];
  int32_t n = 0;
  // Borrowed views point here.
  std::string text;
  TVMFFIByteArray bytes;
  DLTensor tensor;
  int64_t shape[2] = {2, 3};
  float storage[6] = {0};
  TVMFFIObjectHandle rvalue_slot = nullptr;
};

// Fills the arguments: values from the pool (borrowed views of owned
// values) or views that exist only during a call.
void MakeArgs(fuzz::Reader& in, TVMFFIAny* pool, Call* c) {
  c->n = in.Byte() % (kMaxArgs + 1);
  for (int32_t i = 0; i < c->n; ++i) {
    uint8_t pick = in.Byte();
    TVMFFIAny& a = c->args[i];
    std::memset(&a, 0, sizeof(a));
    if (pick < 192) {
      const TVMFFIAny& v = pool[pick % kPoolSize];
      if (!TooLarge(v)) a = v;
      continue;
    }
    switch (pick % 4) {
      case 0:  // a borrowed C string
        c->text.assign("fuzz text longer than seven bytes");
        a.type_index = kTVMFFIRawStr;
        a.v_c_str = c->text.c_str();
        break;
      case 1:  // a borrowed byte array
        c->bytes = TVMFFIByteArray{"\0\1\2", 3};
        a.type_index = kTVMFFIByteArrayPtr;
        a.v_ptr = &c->bytes;
        break;
      case 2:  // a borrowed DLTensor
        std::memset(&c->tensor, 0, sizeof(c->tensor));
        c->tensor.data = c->storage;
        c->tensor.device.device_type = kDLCPU;
        c->tensor.ndim = 2;
        c->tensor.dtype.code = kDLFloat;
        c->tensor.dtype.bits = 32;
        c->tensor.dtype.lanes = 1;
        c->tensor.shape = c->shape;
        a.type_index = kTVMFFIDLTensorPtr;
        a.v_ptr = &c->tensor;
        break;
      default: {  // an rvalue reference to a new reference of a pooled object
        const TVMFFIAny& v = pool[in.Byte() % kPoolSize];
        if (v.type_index < kTVMFFIStaticObjectBegin || c->rvalue_slot != nullptr || TooLarge(v)) {
          break;  // None
        }
        TVMFFIObjectIncRef(v.v_obj);
        c->rvalue_slot = v.v_obj;
        a.type_index = kTVMFFIObjectRValueRef;
        a.v_ptr = &c->rvalue_slot;
        break;
      }
    }
  }
}

void Invoke(TVMFFIObjectHandle f, fuzz::Reader& in, TVMFFIAny* pool) {
  Call c;
  MakeArgs(in, pool, &c);
  TVMFFIAny result;
  std::memset(&result, 0, sizeof(result));
  int rc = TVMFFIFunctionCall(f, c.args, c.n, &result);
  fuzz::CheckReturn(rc);
  if (c.rvalue_slot != nullptr) TVMFFIObjectDecRef(c.rvalue_slot);  // not taken
  int dst = in.Byte() % kPoolSize;
  if (rc != 0) {
    fuzz::Require(result.type_index == kTVMFFINone, "a failed call wrote its result");
    return;
  }
  fuzz::Require(result.type_index != kTVMFFIRawStr && result.type_index != kTVMFFIByteArrayPtr &&
                    result.type_index != kTVMFFIObjectRValueRef &&
                    result.type_index != kTVMFFIDLTensorPtr,
                "a call returned a borrowed view");
  fuzz::ReleaseAny(&pool[dst]);
  pool[dst] = result;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<TVMFFIObjectHandle>& globals = Globals();
  fuzz::Reader in(data, size);
  TVMFFIAny pool[kPoolSize];
  std::memset(pool, 0, sizeof(pool));
  for (int op = 0; op < kMaxOps && !in.empty(); ++op) {
    uint8_t kind = in.Byte();
    switch (kind % 4) {
      case 0: {
        int dst = in.Byte() % kPoolSize;
        TVMFFIAny v = Literal(in);
        fuzz::ReleaseAny(&pool[dst]);
        pool[dst] = v;
        break;
      }
      case 1:
        if (!globals.empty()) Invoke(globals[in.Byte() % globals.size()], in, pool);
        break;
      case 2: {  // call a Function held in the pool (e.g. an iterator functor)
        const TVMFFIAny& f = pool[in.Byte() % kPoolSize];
        if (f.type_index == kTVMFFIFunction) {
          TVMFFIObjectHandle h = f.v_obj;
          TVMFFIObjectIncRef(h);  // the call may replace the pool slot
          Invoke(h, in, pool);
          TVMFFIObjectDecRef(h);
        }
        break;
      }
      default:
        fuzz::ReleaseAny(&pool[in.Byte() % kPoolSize]);
        break;
    }
  }
  for (TVMFFIAny& v : pool) fuzz::ReleaseAny(&v);
  return 0;
}
