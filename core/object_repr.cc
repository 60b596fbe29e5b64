// Built on the field visitor: deep copy, readable repr, field and structural visits.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <sstream>

#include "big_int_internal.h"
#include "global_def.h"
#include "map_table.h"
#include "object_internal.h"
#include "reflection_visit.h"
#include "string_internal.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

const TVMFFIAny* RawOf(const AnyView& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }
const TVMFFIAny* RawOf(const Any& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }

const Object* ObjectOf(const TVMFFIAny& v) {
  return ObjectUnsafe::RawObjectPtrFromUnowned<Object>(v.v_obj);
}

// A new reference to `obj`.
ObjectRef RefOf(const Object* obj) {
  return ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
      ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(obj)));
}

// An owning value of an object made here.
template <typename T>
Any OwnedAny(ObjectPtr<T> obj) {
  return Any(ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(ObjectPtr<Object>(std::move(obj))));
}

// Decimal text of an integer.
std::string DecimalString(long long value) {
  char buf[24];
  int n = std::snprintf(buf, sizeof(buf), "%lld", value);
  return std::string(buf, n > 0 ? static_cast<size_t>(n) : 0);
}

// An owning copy of a container item: walks that run user code (hooks,
// creators, callbacks) hold what they visit, since that code may change
// or clear the container.
Any Held(const TVMFFIAny& v) { return Any(AnyView::CopyFromTVMFFIAny(v)); }

// A map's entries, owned, in its order.
std::vector<std::pair<Any, Any>> Entries(const MapBaseObj* m) {
  std::vector<std::pair<Any, Any>> out;
  out.reserve(m->size());
  for (const auto& kv : *m) out.emplace_back(kv.first, kv.second);
  return out;
}

// An empty ffi.Map or ffi.Dict (kTVMFFIMap / kTVMFFIDict), filled in place
// (core/map_table.h): a copy keeps its identity while its items are copied,
// so a cycle through it resolves to the copy.
Any NewMap(int32_t type_index) {
  TVMFFIAny raw;
  std::memset(&raw, 0, sizeof(raw));
  raw.type_index = type_index;
  raw.v_obj = ::tvm::ffi::detail::core::MapMake(type_index);
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
}

// Inserts or replaces key -> value in a map NewMap made.
void MapSet(const Any& map, Any key, Any value) {
  ::tvm::ffi::detail::core::MapSet(RawOf(map)->v_obj, AnyUnsafe::MoveAnyToTVMFFIAny(std::move(key)),
                                   AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value)));
}

// Keeps the objects of the current path, for the depth limit and its message.
class DepthGuard {
 public:
  DepthGuard(std::vector<const Object*>* active, const Object* obj, const char* walk)
      : active_(active) {
    if (TooDeep(active->size())) ThrowTooDeep(walk, active->data(), active->size());
    active->push_back(obj);
  }
  ~DepthGuard() { active_->pop_back(); }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  std::vector<const Object*>* active_;
};

// Deep copy --------------------------------------------------------------------------

class DeepCopier {
 public:
  Any Copy(const TVMFFIAny& v) {
    if (v.type_index == kTVMFFIDLTensorPtr) {
      // A borrowed view: a copy of it could outlive the tensor it points to.
      TVM_FFI_THROW(TypeError) << "ffi.DeepCopy: a DLTensor* is borrowed and cannot be copied; "
                                  "pass an ffi.Tensor";
    }
    if (v.type_index < kTVMFFIStaticObjectBegin) return Held(v);
    const Object* obj = ObjectOf(v);
    switch (v.type_index) {
      case kTVMFFIStr:
      case kTVMFFIBytes:
      case kTVMFFIBigInt:
      case kTVMFFIShape:
      case kTVMFFITensor:
      case kTVMFFIFunction:
      case kTVMFFIError:
      case kTVMFFIModule:
      case kTVMFFIOpaquePyObject:
      case kTVMFFIObject:
        return Held(v);  // immutable, or not copyable: shared
      default:
        break;
    }
    auto memo = memo_.find(obj);
    if (memo != memo_.end()) return memo->second;
    DepthGuard guard(&active_, obj, "ffi.DeepCopy");
    Any hold = Held(v);  // creators and setters run user code
    // Each container's copy is remembered before its items are copied, so
    // an item that leads back to the container (a cycle through a List,
    // a Dict or an object field) gets the copy, not a second one.  Map
    // keys are copied like values.
    switch (v.type_index) {
      case kTVMFFIArray: {
        const SeqBaseObj* src = static_cast<const SeqBaseObj*>(obj);
        const int64_t n = static_cast<int64_t>(src->size());  // an Array does not change size
        // Made full of None and filled in place: the copy is remembered
        // (and may be reached again through a cycle) before its items are.
        ObjectPtr<ArrayObj> out = ArrayObj::CreateRepeated(n, Any());
        // A None slot holds nothing to release: each copy is written over it.
        TVMFFIAny* slots = reinterpret_cast<TVMFFIAny*>(const_cast<Any*>(out->begin()));
        Any result = Remember(obj, OwnedAny(std::move(out)));
        for (int64_t i = 0; i < n; ++i) {
          Any item = src->begin()[i];
          slots[i] = AnyUnsafe::MoveAnyToTVMFFIAny(Copy(*RawOf(item)));
        }
        return result;
      }
      case kTVMFFIList: {
        const SeqBaseObj* src = static_cast<const SeqBaseObj*>(obj);
        List<Any> out;
        out.reserve(static_cast<int64_t>(src->size()));
        Any result = Remember(obj, Any(out));
        for (int64_t i = 0; i < static_cast<int64_t>(src->size()); ++i) {
          Any item = src->begin()[i];  // held: copying it may run code that changes src
          out.push_back(Copy(*RawOf(item)));
        }
        return result;
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        const MapBaseObj* src = static_cast<const MapBaseObj*>(obj);
        Any result = Remember(obj, NewMap(v.type_index));
        for (const auto& kv : Entries(src)) {
          Any key = Copy(*RawOf(kv.first));
          MapSet(result, std::move(key), Copy(*RawOf(kv.second)));
        }
        return result;
      }
      default:
        return CopyObject(obj);
    }
  }

 private:
  // The source is held with its copy, so its address cannot be reused by
  // another object (and hit the memo) while the walk runs.
  Any Remember(const Object* src, Any copy) {
    memo_.emplace(src, copy);
    kept_.push_back(RefOf(src));
    return copy;
  }

  Any CopyObject(const Object* obj) {
    const TVMFFITypeInfo* info = TypeInfoOrThrow(obj->type_index());
    if (info->metadata != nullptr &&
        info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUniqueInstance) {
      return Any(RefOf(obj));
    }
    std::string refusal = CopyRefusal(info);
    if (!refusal.empty()) {
      TVM_FFI_THROW(RuntimeError) << "ffi.DeepCopy: type `" << TypeKeyOf(info)
                                 << "` does not support copy: " << refusal;
    }
    TVMFFIObjectHandle handle = CreateEmptyInstance(info);
    if (handle == nullptr) {
      TVM_FFI_THROW(TypeError) << "ffi.DeepCopy: type `" << TypeKeyOf(info)
                              << "` has no creator in its type metadata, so it cannot be copied";
    }
    ObjectRef copy = ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
        ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
    Any result = Remember(obj, Any(copy));
    VisitFields(obj, [&](const TVMFFIFieldInfo* f, Any value) {
      Any field_copy = Copy(*RawOf(value));
      try {
        CopyFieldInto(handle, f, *RawOf(field_copy));
      } catch (const Error& e) {
        throw Error(e.kind(),
                    "ffi.DeepCopy: field `" + FieldName(f) + "` of `" + TypeKeyOf(info) +
                        "`: " + e.message(),
                    e.backtrace());
      }
      return true;
    });
    return result;
  }

  std::unordered_map<const Object*, Any> memo_;
  std::vector<ObjectRef> kept_;
  std::vector<const Object*> active_;
};

// Repr ---------------------------------------------------------------------------------

// TVM_FFI_REPR_WITH_ADDR=1 (exactly "1", read on each call) adds "@0x..." to
// every object the text names, so shared and cyclic references can be told apart.
bool ReprWithAddr() {
  const char* flag = std::getenv("TVM_FFI_REPR_WITH_ADDR");
  return flag != nullptr && std::strcmp(flag, "1") == 0;
}

// DLPack's device type names, as "cuda:1" prints them.
const char* DeviceTypeName(int32_t type) {
  switch (type) {
    case kDLCPU: return "cpu";
    case kDLCUDA: return "cuda";
    case kDLCUDAHost: return "cuda_host";
    case kDLOpenCL: return "opencl";
    case kDLVulkan: return "vulkan";
    case kDLMetal: return "metal";
    case kDLVPI: return "vpi";
    case kDLROCM: return "rocm";
    case kDLROCMHost: return "rocm_host";
    case kDLExtDev: return "ext_dev";
    case kDLCUDAManaged: return "cuda_managed";
    case kDLOneAPI: return "oneapi";
    case kDLWebGPU: return "webgpu";
    case kDLHexagon: return "hexagon";
    case kDLMAIA: return "maia";
    case kDLTrn: return "trn";
    default: return "unknown";
  }
}

std::string DeviceText(const DLDevice& d) {
  return std::string(DeviceTypeName(d.device_type)) + ":" + DecimalString(d.device_id);
}

std::string DTypeText(const DLDataType& dtype) {
  TVMFFIAny s;
  std::memset(&s, 0, sizeof(s));
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeToString(&dtype, &s));
  Any owned = AnyUnsafe::MoveTVMFFIAnyRawToAny(s);
  const char* data = "";
  size_t size = 0;
  bool is_bytes = false;
  GetStringView(RawOf(owned), &data, &size, &is_bytes);
  return std::string(data, size);
}

// Six significant digits, as a C++ stream prints a double: 3.14, 0, 1e+10.
std::string FloatText(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", x);
  return buf;
}

void AppendHexEscape(const char* prefix, int width, uint32_t code, std::string* out) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%s%0*x", prefix, width, static_cast<unsigned>(code));
  *out += buf;
}

// The length and code point of the UTF-8 sequence at data[i], or 0 when the
// bytes there are not one (truncated, overlong, a surrogate, past U+10FFFF).
size_t DecodeUtf8(const unsigned char* data, size_t size, size_t i, uint32_t* code) {
  unsigned char c = data[i];
  size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
  if (n == 0 || c >= 0xf8 || i + n > size) return 0;
  uint32_t cp = c & (0x7f >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((data[i + k] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (data[i + k] & 0x3f);
  }
  static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  *code = cp;
  return n;
}

// A str as a double-quoted literal that Python's ast.literal_eval reads back:
// printable ASCII as is (with \" and \\), \n \r \t, other control bytes as
// \xHH, other code points as \uXXXX or \UXXXXXXXX.  A byte that is not
// valid UTF-8 prints as \xHH.
std::string QuoteStr(const char* data, size_t size) {
  const unsigned char* u = reinterpret_cast<const unsigned char*>(data);
  std::string out = "\"";
  for (size_t i = 0; i < size;) {
    unsigned char c = u[i];
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20 || c == 0x7f) {
            AppendHexEscape("\\x", 2, c, &out);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    uint32_t code = 0;
    size_t n = DecodeUtf8(u, size, i, &code);
    if (n == 0) {
      AppendHexEscape("\\x", 2, c, &out);
      ++i;
    } else {
      if (code < 0x10000) {
        AppendHexEscape("\\u", 4, code, &out);
      } else {
        AppendHexEscape("\\U", 8, code, &out);
      }
      i += n;
    }
  }
  return out + "\"";
}

// Bytes as b"...": printable ASCII other than " and \ as is, every other
// byte as \xHH.
std::string QuoteBytes(const char* data, size_t size) {
  std::string out = "b\"";
  for (size_t i = 0; i < size; ++i) {
    unsigned char c = static_cast<unsigned char>(data[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      AppendHexEscape("\\x", 2, c, &out);
    }
  }
  return out + "\"";
}

// The text of ffi.ReprPrint (docs/reflection.md, "Repr"): Python-like
// literals for plain values, (a, b) for an Array, [a, b] for a List, {k: v}
// for maps, float32[2, 3]@cpu:0 for a tensor, type_key(field=value, ...) for
// reflected objects, a type's own __ffi_repr__ hook when it has one.  Shared
// values print in full at each reference; a reference back into the path
// being printed (a cycle) prints as "...".
class Printer {
 public:
  Printer() : with_addr_(ReprWithAddr()) {}

  std::string Print(const TVMFFIAny& v) {
    switch (v.type_index) {
      case kTVMFFINone:
        return "None";
      case kTVMFFIBool:
        return v.v_int64 != 0 ? "True" : "False";
      case kTVMFFIInt:
        return DecimalString(v.v_int64);
      case kTVMFFIFloat:
        return FloatText(v.v_float64);
      case kTVMFFIDataType:
        return DTypeText(v.v_dtype);
      case kTVMFFIDevice:
        return DeviceText(v.v_device);
      case kTVMFFIOpaquePtr:
        return "void*";
      case kTVMFFIDLTensorPtr:
        return v.v_ptr == nullptr ? "None" : TensorText(*static_cast<const DLTensor*>(v.v_ptr));
      default:
        break;
    }
    {
      const char* data = "";
      size_t size = 0;
      bool is_bytes = false;
      if (GetStringView(&v, &data, &size, &is_bytes)) {
        return is_bytes ? QuoteBytes(data, size) : QuoteStr(data, size);
      }
    }
    if (v.type_index < kTVMFFIStaticObjectBegin) {
      return "<" + TypeIndexToDisplayName(v.type_index) + ">";
    }
    if (v.type_index == kTVMFFIBigInt) {
      // Decimal conversion is quadratic: the digit limit applies (big_int_internal.h).
      size_t bound = BigIntDecimalDigitsBound(&v);
      if (bound > 2) CheckBigIntStrDigits(bound - 2, "ffi.ReprPrint");
      std::ostringstream os;
      os << AnyView::CopyFromTVMFFIAny(v).cast<BigInt>();
      return os.str();
    }
    const Object* obj = ObjectOf(v);
    for (const Object* a : active_) {
      if (a == obj) return "..." + Addr(obj);  // a cycle
    }
    // A value sharing sub-values (a DAG) prints each at every reference, so a
    // few nodes can stand for an exponential text: past kMaxObjects printed
    // objects, the rest print as "..." and the walk ends quickly.
    if (++printed_ > kMaxObjects) return "...";
    DepthGuard guard(&active_, obj, "ffi.ReprPrint");
    // Held while printing: a type's __ffi_repr__ may drop the last other
    // reference (e.g. clear the container this value came from).
    Any hold = Held(v);
    switch (v.type_index) {
      case kTVMFFIArray:
      case kTVMFFIList: {
        bool is_array = v.type_index == kTVMFFIArray;
        const SeqBaseObj* s = static_cast<const SeqBaseObj*>(obj);
        std::string out = is_array ? "(" : "[";
        int64_t n = 0;
        for (int64_t i = 0; i < static_cast<int64_t>(s->size()); ++i, ++n) {
          Any item = Held(*RawOf(s->at(i)));
          out += (i ? ", " : "") + Print(*RawOf(item));
        }
        if (is_array && n == 1) out += ",";
        return out + (is_array ? ")" : "]") + Addr(obj);
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        const MapBaseObj* m = static_cast<const MapBaseObj*>(obj);
        std::vector<std::pair<Any, Any>> entries = Entries(m);
        std::string out = "{";
        bool first = true;
        for (const auto& kv : entries) {
          out += (first ? "" : ", ") + Print(*RawOf(kv.first)) + ": " + Print(*RawOf(kv.second));
          first = false;
        }
        return out + "}" + Addr(obj);
      }
      case kTVMFFIShape: {
        const TVMFFIShapeCell* c = TVMFFIShapeGetCellPtr(v.v_obj);
        std::string out = "Shape(";
        for (size_t i = 0; i < c->size; ++i) out += (i ? ", " : "") + DecimalString(c->data[i]);
        return out + ")";
      }
      case kTVMFFITensor:
        return TensorText(*TVMFFITensorGetDLTensorPtr(v.v_obj)) + Addr(obj);
      default:
        return PrintObject(obj, v);
    }
  }

 private:
  std::string Addr(const Object* obj) const {
    if (!with_addr_) return "";
    char buf[40];
    std::snprintf(buf, sizeof(buf), "@%p", static_cast<const void*>(obj));
    return buf;
  }

  // dtype[shape]@device: float32[3, 4]@cpu:0.
  static std::string TensorText(const DLTensor& t) {
    std::string out = DTypeText(t.dtype) + "[";
    for (int32_t i = 0; i < t.ndim; ++i) out += (i ? ", " : "") + DecimalString(t.shape[i]);
    return out + "]@" + DeviceText(t.device);
  }

  std::string PrintObject(const Object* obj, const TVMFFIAny& v) {
    const TVMFFITypeInfo* info = TypeInfoOrThrow(obj->type_index());
    // The column appears when the first type registers a repr; until then
    // each call looks again.
    static std::atomic<const TVMFFITypeAttrColumn*> cached{nullptr};
    const TVMFFITypeAttrColumn* column = cached.load(std::memory_order_acquire);
    if (column == nullptr) {
      static const char kName[] = "__ffi_repr__";
      TVMFFIByteArray name{kName, sizeof(kName) - 1};
      column = TVMFFIGetTypeAttrColumn(&name);
      if (column != nullptr) cached.store(column, std::memory_order_release);
    }
    if (column != nullptr) {
      int32_t row = obj->type_index() - column->begin_index;
      if (row >= 0 && row < column->size && column->data[row].type_index == kTVMFFIFunction) {
        // A type's own repr: hook(self, fn_repr) -> str.
        Function hook = AnyView::CopyFromTVMFFIAny(column->data[row]).cast<Function>();
        // The hook may keep fn_repr past its own return; the printer lives on
        // this call's stack, so the link is cut when the hook is done.
        auto self = std::make_shared<std::atomic<Printer*>>(this);
        Function recurse = Function::FromPacked([self](const AnyView* args, int32_t n, Any* rv) {
          if (n != 1) TVM_FFI_THROW(TypeError) << "fn_repr takes one argument";
          Printer* printer = self->load(std::memory_order_acquire);
          if (printer == nullptr) {
            TVM_FFI_THROW(RuntimeError) << "fn_repr was called after the __ffi_repr__ call "
                                           "that received it had returned";
          }
          *rv = String(printer->Print(*RawOf(Any(args[0]))));
        });
        struct Unlink {
          std::atomic<Printer*>* link;
          ~Unlink() { link->store(nullptr, std::memory_order_release); }
        } unlink{self.get()};
        Any text = hook(AnyView::CopyFromTVMFFIAny(v), recurse);
        const char* data = "";
        size_t size = 0;
        bool is_bytes = false;
        if (!GetStringView(RawOf(text), &data, &size, &is_bytes) || is_bytes) {
          TVM_FFI_THROW(TypeError) << "expected str, got "
                                   << TypeIndexToDisplayName(text.type_index());
        }
        return std::string(data, size);
      }
    }
    // type_key(field=value, ...) over the fields not marked ReprOff; a type
    // with none of those prints as its key alone (ffi.Function, ffi.Error).
    std::string fields;
    bool first = true;
    VisitFields(obj, [&](const TVMFFIFieldInfo* f, Any value) {
      if (f->flags & kTVMFFIFieldFlagBitMaskReprOff) return true;
      fields += (first ? "" : ", ") + FieldName(f) + "=" + Print(*RawOf(value));
      first = false;
      return true;
    });
    std::string out = TypeKeyOf(info) + Addr(obj);
    return first ? out : out + "(" + fields + ")";
  }

  static constexpr uint64_t kMaxObjects = uint64_t(1) << 18;
  const bool with_addr_;
  uint64_t printed_ = 0;
  std::vector<const Object*> active_;
};

// Structural visit -----------------------------------------------------------------------

// Pre-order over a value graph: fn(value) for every value, each object once;
// a result of False prunes that value's children.
class Visitor {
 public:
  explicit Visitor(Function fn) : fn_(std::move(fn)) {}

  void Visit(const TVMFFIAny& v) {
    bool is_obj = v.type_index >= kTVMFFIStaticObjectBegin;
    const Object* obj = is_obj ? ObjectOf(v) : nullptr;
    if (is_obj && !seen_.insert(obj).second) return;
    // `fn` may change the containers being visited: each visited object is
    // held (also so that its address stays out of `seen_` for others), and
    // items are read again after each call.
    if (is_obj) kept_.push_back(Held(v));
    Any r = fn_(AnyView::CopyFromTVMFFIAny(v));
    if (r.type_index() == kTVMFFIBool && RawOf(r)->v_int64 == 0) return;
    if (!is_obj) return;
    DepthGuard guard(&active_, obj, "ffi.VisitEachValue");
    switch (v.type_index) {
      case kTVMFFIArray:
      case kTVMFFIList: {
        const SeqBaseObj* s = static_cast<const SeqBaseObj*>(obj);
        for (int64_t i = 0; i < static_cast<int64_t>(s->size()); ++i) {
          Any item = Held(*RawOf(s->at(i)));
          Visit(*RawOf(item));
        }
        return;
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        for (const auto& kv : Entries(static_cast<const MapBaseObj*>(obj))) {
          Visit(*RawOf(kv.first));
          Visit(*RawOf(kv.second));
        }
        return;
      }
      default:
        break;
    }
    if (v.type_index < kTVMFFIDynObjectBegin) return;
    VisitFields(obj, [this](const TVMFFIFieldInfo*, Any value) {
      Visit(*RawOf(value));
      return true;
    });
  }

 private:
  Function fn_;
  std::unordered_set<const Object*> seen_;
  std::vector<Any> kept_;
  std::vector<const Object*> active_;
};

const Object* ReflectedObjectArg(const AnyView& v, const char* func) {
  if (v.type_index() < kTVMFFIStaticObjectBegin) {
    TVM_FFI_THROW(TypeError) << func << ": expected an object, got "
                             << TypeIndexToDisplayName(v.type_index());
  }
  return ObjectOf(*RawOf(v));
}

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.DeepCopy", [](AnyView value) {
  DeepCopier copier;
  return copier.Copy(*RawOf(Any(value)));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ReprPrint", [](AnyView value) {
  Printer printer;
  return String(printer.Print(*RawOf(Any(value))));
});

// tvm::ffi's Function parameters take None too (a null Function); these
// globals need a function and refuse None in the typed wrapper's words.
void RequireFunction(const Function& fn, const char* signature) {
  if (!fn.defined()) {
    TVM_FFI_THROW(TypeError) << "Mismatched type on argument #1 when calling: `" << signature
                             << "`. Expected `ffi.Function` but got `None`";
  }
}

// fn(name, value, flags) for each reflected field, ancestors' fields first.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VisitFields", [](AnyView obj, Function fn) {
  RequireFunction(fn, "ffi.VisitFields(0: AnyView, 1: ffi.Function) -> void");
  VisitFields(ReflectedObjectArg(obj, "ffi.VisitFields"),
              [&fn](const TVMFFIFieldInfo* f, Any value) {
                fn(String(f->name.data, f->name.size), value, f->flags);
                return true;
              });
});

// fn(value) on root and everything inside it, each object once (the
// library's own walk); upstream's ffi.StructuralVisit,
// with typed callbacks and a visitor, is in structural_walk.cc.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VisitEachValue", [](AnyView root, Function fn) {
  RequireFunction(fn, "ffi.VisitEachValue(0: AnyView, 1: ffi.Function) -> void");
  Visitor visitor(std::move(fn));
  visitor.Visit(*RawOf(Any(root)));
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
