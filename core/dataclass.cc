// Object types defined at run time: ffi.DataclassDefine and ffi.ShallowCopy.
#include "dataclass.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>

#include "big_int_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "py_class.h"
#include "reflection_visit.h"
#include "string_internal.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace dataclass {
namespace {

const TVMFFIAny* RawOf(const AnyView& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }
const TVMFFIAny* RawOf(const Any& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }

// Decimal text of an integer.
std::string DecimalString(long long value) {
  char buf[24];
  int n = std::snprintf(buf, sizeof(buf), "%lld", value);
  return std::string(buf, n > 0 ? static_cast<size_t>(n) : 0);
}

TVMFFIByteArray ToByteArray(const std::string& s) { return TVMFFIByteArray{s.data(), s.size()}; }

// Writes an empty raw value of type `type_index` (payload zero).
void SetRaw(TVMFFIAny* out, int32_t type_index) {
  std::memset(out, 0, sizeof(*out));
  out->type_index = type_index;
}

// A slot the deleter releases.
struct ReleaseSlot {
  int64_t offset;
  Storage storage;  // kObject or kAny
};

// What the deleter and __ffi_new__ need about a defined type.  Never freed.
struct Layout {
  int32_t type_index;
  int64_t total_size;
  std::vector<ReleaseSlot> release;
};

// Layouts by type index: chunks of atomic pointers, so the deleter reads
// without a lock.  Chunks are made under `g_mu` and never freed.
constexpr int32_t kChunkBits = 12;
constexpr int32_t kChunkSize = 1 << kChunkBits;
constexpr int32_t kNumChunks = 1 << 10;
std::atomic<std::atomic<const Layout*>*> g_chunks[kNumChunks];
std::mutex g_mu;

const Layout* FindLayout(int32_t type_index) noexcept {
  if (type_index < 0) return nullptr;
  int32_t c = type_index >> kChunkBits;
  if (c >= kNumChunks) return nullptr;
  std::atomic<const Layout*>* chunk = g_chunks[c].load(std::memory_order_acquire);
  if (chunk == nullptr) return nullptr;
  return chunk[type_index & (kChunkSize - 1)].load(std::memory_order_acquire);
}

// Under g_mu.
void StoreLayout(int32_t type_index, const Layout* layout) {
  int32_t c = type_index >> kChunkBits;
  if (c >= kNumChunks) {
    TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: type index " << type_index
                             << " is beyond the supported range";
  }
  std::atomic<const Layout*>* chunk = g_chunks[c].load(std::memory_order_acquire);
  if (chunk == nullptr) {
    chunk = new std::atomic<const Layout*>[kChunkSize];
    for (int32_t i = 0; i < kChunkSize; ++i) chunk[i].store(nullptr, std::memory_order_relaxed);
    g_chunks[c].store(chunk, std::memory_order_release);
  }
  chunk[type_index & (kChunkSize - 1)].store(layout, std::memory_order_release);
}

std::string KeyOf(const TVMFFITypeInfo* info) { return TypeKeyOf(info); }

std::string NameOf(const TVMFFIFieldInfo* f) { return FieldName(f); }

// ---- deleter and creation ---------------------------------------------------------

void ReleaseSlots(char* base, const Layout* layout) {
  for (const ReleaseSlot& s : layout->release) {
    char* p = base + s.offset;
    if (s.storage == Storage::kObject) {
      TVMFFIObject* obj = *reinterpret_cast<TVMFFIObject**>(p);
      *reinterpret_cast<TVMFFIObject**>(p) = nullptr;
      if (obj != nullptr) TVMFFIObjectDecRef(obj);
    } else {
      TVMFFIAny* slot = reinterpret_cast<TVMFFIAny*>(p);
      TVMFFIAny old = *slot;
      SetRaw(slot, kTVMFFINone);
      if (old.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(old.v_obj);
    }
  }
}

void DataclassDeleter(void* self, int flags) {
  TVMFFIObject* header = static_cast<TVMFFIObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    const Layout* layout = FindLayout(header->type_index);
    if (layout != nullptr) ReleaseSlots(static_cast<char*>(self), layout);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

Any NewFromLayout(const Layout* layout) {
  void* mem = std::calloc(1, static_cast<size_t>(layout->total_size));
  if (mem == nullptr) throw std::bad_alloc();
  TVMFFIObject* header = static_cast<TVMFFIObject*>(mem);
  InitObjectHeader(header, layout->type_index, DataclassDeleter);
  TVMFFIAny raw;
  SetRaw(&raw, layout->type_index);
  raw.v_obj = header;
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
}

// ---- getters (C functions: they need no context) ----------------------------------

int GetInt(void* field, TVMFFIAny* result) {
  SetRaw(result, kTVMFFIInt);
  result->v_int64 = *static_cast<const int64_t*>(field);
  return 0;
}

int GetFloat(void* field, TVMFFIAny* result) {
  SetRaw(result, kTVMFFIFloat);
  result->v_float64 = *static_cast<const double*>(field);
  return 0;
}

int GetBool(void* field, TVMFFIAny* result) {
  SetRaw(result, kTVMFFIBool);
  result->v_int64 = *static_cast<const bool*>(field) ? 1 : 0;
  return 0;
}

int GetObject(void* field, TVMFFIAny* result) {
  TVMFFIObject* obj = *static_cast<TVMFFIObject* const*>(field);
  if (obj == nullptr) {
    SetRaw(result, kTVMFFINone);
    return 0;
  }
  TVMFFIObjectIncRef(obj);
  SetRaw(result, obj->type_index);
  result->v_obj = obj;
  return 0;
}

int GetAny(void* field, TVMFFIAny* result) {
  return TVMFFIAnyViewToOwnedAny(static_cast<const TVMFFIAny*>(field), result);
}

// ---- setters --------------------------------------------------------------------

struct FieldContext {
  std::string qualified;  // "mylib.Point.x"
  Storage storage;
  int32_t static_type_index;
  bool nullable;
  Optional<Function> check;
};

// The magnitude words (least significant first) and sign of a BigInt value.
std::vector<uint64_t> BigIntMagnitude(const TVMFFIAny& v, bool* negative) {
  TVMFFIByteArray content = BigIntContent(&v);
  std::vector<uint64_t> words(content.size / 8);
  if (!words.empty()) std::memcpy(words.data(), content.data, words.size() * 8);
  *negative = !words.empty() && static_cast<int64_t>(words.back()) < 0;
  if (*negative) {  // two's complement: invert and add one
    uint64_t carry = 1;
    for (uint64_t& w : words) {
      w = ~w + carry;
      carry = (carry != 0 && w == 0) ? 1 : 0;
    }
  }
  return words;
}

std::string BigIntDecimal(const TVMFFIAny& v) {
  bool negative = false;
  std::vector<uint64_t> words = BigIntMagnitude(v, &negative);
  std::string digits;
  constexpr uint64_t kChunk = 1000000000000000000ull;  // 10^18
  while (!words.empty()) {
    unsigned __int128 rem = 0;
    for (size_t i = words.size(); i-- > 0;) {
      unsigned __int128 cur = (rem << 64) | words[i];
      words[i] = static_cast<uint64_t>(cur / kChunk);
      rem = cur % kChunk;
    }
    while (!words.empty() && words.back() == 0) words.pop_back();
    std::string part = std::to_string(static_cast<uint64_t>(rem));
    if (!words.empty()) part.insert(0, 18 - part.size(), '0');
    digits.insert(0, part);
  }
  return (negative ? "-" : "") + (digits.empty() ? std::string("0") : digits);
}

double BigIntToDouble(const TVMFFIAny& v) {
  bool negative = false;
  std::vector<uint64_t> words = BigIntMagnitude(v, &negative);
  long double d = 0;
  for (size_t i = words.size(); i-- > 0;) d = d * 18446744073709551616.0L + words[i];
  return static_cast<double>(negative ? -d : d);
}

// "None", "bool True", "int 3", "float 1.5", `str "abc"`, else the type name.
std::string DescribeValue(const TVMFFIAny& v) {
  switch (v.type_index) {
    case kTVMFFINone:
      return "None";
    case kTVMFFIBool:
      return v.v_int64 != 0 ? "bool True" : "bool False";
    case kTVMFFIInt:
      return "int " + DecimalString(v.v_int64);
    case kTVMFFIFloat:
      return "float " + ShortestFloatText(v.v_float64);
    case kTVMFFIBigInt:
      return "int " + BigIntDecimal(v) + " (out of the int64 range)";
    default:
      break;
  }
  const char* data = nullptr;
  size_t size = 0;
  bool is_bytes = false;
  if (GetStringView(&v, &data, &size, &is_bytes) && !is_bytes && size <= 40) {
    return "str \"" + std::string(data, size) + "\"";
  }
  return TypeIndexToDisplayName(v.type_index);
}

std::string ExpectedName(const FieldContext& c) {
  std::string name;
  switch (c.storage) {
    case Storage::kInt: name = "int"; break;
    case Storage::kFloat: name = "float"; break;
    case Storage::kBool: name = "bool"; break;
    default: name = TypeIndexToDisplayName(c.static_type_index); break;
  }
  return c.nullable ? name + " or None" : name;
}

[[noreturn]] void ThrowFieldType(const FieldContext& c, const TVMFFIAny& v) {
  TVM_FFI_THROW(TypeError) << "field `" << c.qualified << "` expects " << ExpectedName(c)
                          << ", got " << DescribeValue(v);
  TVM_FFI_UNREACHABLE();
}

// Replaces the object pointer at `slot` by `obj` (a new reference or NULL).
void StoreObject(void* slot, TVMFFIObject* obj) {
  TVMFFIObject** p = static_cast<TVMFFIObject**>(slot);
  TVMFFIObject* old = *p;
  *p = obj;
  if (old != nullptr) TVMFFIObjectDecRef(old);
}

// The object to store for `v` in an object slot (a new reference; nullptr for None).
TVMFFIObject* ToObject(const FieldContext& c, const TVMFFIAny& v) {
  if (v.type_index == kTVMFFINone) {
    if (!c.nullable) ThrowFieldType(c, v);
    return nullptr;
  }
  int32_t target = c.static_type_index;
  if (target == kTVMFFIStr || target == kTVMFFIBytes) {
    const char* data = nullptr;
    size_t size = 0;
    bool is_bytes = false;
    if (!GetStringView(&v, &data, &size, &is_bytes) || is_bytes != (target == kTVMFFIBytes)) {
      ThrowFieldType(c, v);
    }
    if (v.type_index == target) {
      TVMFFIObjectIncRef(v.v_obj);
      return v.v_obj;
    }
    return static_cast<TVMFFIObject*>(py_class::MakeHeapStringObject(data, size, is_bytes));
  }
  Any owned(AnyView::CopyFromTVMFFIAny(v));  // takes rvalue references, copies borrowed strings
  const TVMFFIAny* raw = RawOf(owned);
  if (raw->type_index < kTVMFFIStaticObjectBegin ||
      !RuntimeTypeIndexMatch(raw->type_index, target)) {
    ThrowFieldType(c, *raw);
  }
  return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(owned)).v_obj;
}

void Assign(const FieldContext& c, void* address, const TVMFFIAny& input) {
  Any checked;
  const TVMFFIAny* v = &input;
  if (c.check.has_value()) {
    checked = (*c.check)(AnyView::CopyFromTVMFFIAny(input));
    v = RawOf(checked);
  }
  switch (c.storage) {
    case Storage::kInt:
      if (v->type_index == kTVMFFIInt) {
        *static_cast<int64_t*>(address) = v->v_int64;
      } else if (v->type_index == kTVMFFIBool) {
        *static_cast<int64_t*>(address) = v->v_int64 != 0 ? 1 : 0;
      } else {
        ThrowFieldType(c, *v);
      }
      return;
    case Storage::kFloat:
      if (v->type_index == kTVMFFIFloat) {
        *static_cast<double*>(address) = v->v_float64;
      } else if (v->type_index == kTVMFFIInt) {
        *static_cast<double*>(address) = static_cast<double>(v->v_int64);
      } else if (v->type_index == kTVMFFIBool) {
        *static_cast<double*>(address) = v->v_int64 != 0 ? 1.0 : 0.0;
      } else if (v->type_index == kTVMFFIBigInt && std::isfinite(BigIntToDouble(*v))) {
        *static_cast<double*>(address) = BigIntToDouble(*v);
      } else {
        ThrowFieldType(c, *v);
      }
      return;
    case Storage::kBool:
      if (v->type_index != kTVMFFIBool) ThrowFieldType(c, *v);
      *static_cast<bool*>(address) = v->v_int64 != 0;
      return;
    case Storage::kObject:
      StoreObject(address, ToObject(c, *v));
      return;
    case Storage::kAny: {
      Any owned(AnyView::CopyFromTVMFFIAny(*v));
      TVMFFIAny* slot = static_cast<TVMFFIAny*>(address);
      TVMFFIAny old = *slot;
      *slot = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(owned));
      if (old.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(old.v_obj);
      return;
    }
  }
}

// The setter Function of a field: (field address as an opaque pointer, value).
Function MakeSetter(std::shared_ptr<const FieldContext> c) {
  return Function::FromPacked([c](const AnyView* args, int32_t num_args, Any* rv) {
    if (num_args != 2 || args[0].type_index() != kTVMFFIOpaquePtr ||
        RawOf(args[0])->v_ptr == nullptr) {
      TVM_FFI_THROW(TypeError) << "setter of field `" << c->qualified
                              << "` takes (field address, value)";
    }
    Assign(*c, RawOf(args[0])->v_ptr, *RawOf(args[1]));
    (void)rv;
  });
}

// ---- Define -----------------------------------------------------------------------

struct StorageInfo {
  Storage storage;
  int64_t size;
  int64_t alignment;
  TVMFFIFieldGetter getter;
};

StorageInfo StorageOf(const std::string& qualified, int32_t index) {
  switch (index) {
    case kTVMFFIAny: return {Storage::kAny, 16, 8, &GetAny};
    case kTVMFFIInt: return {Storage::kInt, 8, 8, &GetInt};
    case kTVMFFIFloat: return {Storage::kFloat, 8, 8, &GetFloat};
    case kTVMFFIBool: return {Storage::kBool, 1, 1, &GetBool};
    default: break;
  }
  if (index >= kTVMFFIStaticObjectBegin && type_registry::GetTypeInfo(index) != nullptr) {
    return {Storage::kObject, 8, 8, &GetObject};
  }
  TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: field `" << qualified
                           << "` has unsupported static type index " << index;
  TVM_FFI_UNREACHABLE();
}

// Where the data of a type ends: the end of its last reflected field (its
// ancestors' included), at least the object header.  A defined child's
// fields start there, in the parent's tail padding as a C++ derived class's
// members do (the parent's state is all in reflected fields).
int64_t DataEnd(const TVMFFITypeInfo* info) {
  int64_t end = static_cast<int64_t>(sizeof(TVMFFIObject));
  for (const TVMFFIFieldInfo* f : AllFields(info)) end = std::max(end, f->offset + f->size);
  return end;
}

// The size of a type's instances: its total_size, else its DataEnd.
int64_t TotalSize(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->total_size > 0) {
    return info->metadata->total_size;
  }
  return DataEnd(info);
}

// The slots of an ancestor the deleter releases: a defined type's own plan,
// else its reflected fields by static type index and size: an 8-byte object
// reference (an object index, or -1 for String and Bytes) or a 16-byte
// str/bytes cell (index 65/66, released as an Any); POD fields need
// nothing.  Any other field (an index of -1 at another size: an Any, a
// std::optional, ...) cannot be told apart from its metadata, so such a
// parent is refused rather than released wrongly.
std::vector<ReleaseSlot> InheritedSlots(const TVMFFITypeInfo* parent, const std::string& key) {
  if (const Layout* l = FindLayout(parent->type_index)) return l->release;
  std::vector<ReleaseSlot> out;
  for (const TVMFFIFieldInfo* f : AllFields(parent)) {
    int32_t t = f->field_static_type_index;
    if (f->size == 8 && (t >= kTVMFFIStaticObjectBegin || t == kTVMFFIAny)) {
      out.push_back({f->offset, Storage::kObject});
    } else if (f->size == 16 && (t == kTVMFFIStr || t == kTVMFFIBytes)) {
      // A str/bytes cell of upstream's String layout (a TVMFFIAny: small
      // inline or an object), e.g. ffi.Enum's _str_index.
      out.push_back({f->offset, Storage::kAny});
    } else if (t < 0 || t >= kTVMFFIStaticObjectBegin) {
      TVM_FFI_THROW(TypeError) << "ffi.DataclassDefine: `" << key << "` cannot extend `"
                              << std::string(parent->type_key.data, parent->type_key.size)
                              << "`: its field `" << NameOf(f) << "` (static type index " << t
                              << ", " << f->size
                              << " bytes) has a storage a defined type cannot release";
    }
  }
  return out;
}

int64_t AlignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

}  // namespace

Any New(int32_t type_index) {
  const Layout* layout = FindLayout(type_index);
  if (layout == nullptr) {
    TVM_FFI_THROW(ValueError) << "type index " << type_index << " is not a defined dataclass";
  }
  return NewFromLayout(layout);
}

void Define(int32_t type_index, const std::vector<FieldSpec>& fields,
            int32_t structural_eq_kind) {
  const TVMFFITypeInfo* info = type_registry::GetTypeInfo(type_index);
  if (info == nullptr || type_index < kTVMFFIDynObjectBegin) {
    TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: type index " << type_index
                             << " is not a type allocated at run time";
  }
  std::string key = KeyOf(info);
  std::lock_guard<std::mutex> lock(g_mu);
  if (FindLayout(type_index) != nullptr) {
    TVM_FFI_THROW(RuntimeError) << "ffi.DataclassDefine: type `" << key << "` is already defined";
  }
  if (info->num_fields != 0 || info->num_methods != 0 || info->metadata != nullptr) {
    TVM_FFI_THROW(RuntimeError) << "ffi.DataclassDefine: type `" << key
                               << "` already has fields, methods or metadata registered";
  }
  if (info->type_depth < 1) {
    TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: type `" << key
                             << "` has no parent type (it must derive from ffi.Object)";
  }
  const TVMFFITypeInfo* parent = info->type_ancestors[info->type_depth - 1];
  std::vector<std::string> taken;
  for (const TVMFFIFieldInfo* f : AllFields(parent)) taken.push_back(NameOf(f));

  // Check everything and lay out before registering anything.
  auto layout = std::make_unique<Layout>();
  layout->type_index = type_index;
  layout->release = InheritedSlots(parent, key);
  int64_t end = DataEnd(parent);
  std::vector<TVMFFIFieldInfo> infos;
  std::vector<Function> setters;
  for (const FieldSpec& spec : fields) {
    std::string qualified = key + "." + spec.name;
    if (spec.name.empty()) {
      TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: a field of `" << key << "` has no name";
    }
    if (std::find(taken.begin(), taken.end(), spec.name) != taken.end()) {
      TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: field `" << qualified
                               << "` is defined twice (here or by a parent type)";
    }
    taken.push_back(spec.name);
    StorageInfo st = StorageOf(qualified, spec.static_type_index);
    if ((spec.flags & kTVMFFIFieldFlagBitMaskHasDefault) &&
        (spec.flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) &&
        spec.default_value.type_index() != kTVMFFIFunction) {
      TVM_FFI_THROW(TypeError) << "ffi.DataclassDefine: the default factory of field `"
                              << qualified << "` must be a Function, got "
                              << TypeIndexToDisplayName(spec.default_value.type_index());
    }
    int64_t offset = AlignUp(end, st.alignment);
    end = offset + st.size;
    if (st.storage == Storage::kObject || st.storage == Storage::kAny) {
      layout->release.push_back({offset, st.storage});
    }
    auto context = std::make_shared<FieldContext>();
    context->qualified = qualified;
    context->storage = st.storage;
    context->static_type_index = spec.static_type_index;
    context->nullable = spec.nullable;
    context->check = spec.check;
    setters.push_back(MakeSetter(std::move(context)));

    TVMFFIFieldInfo fi;
    std::memset(&fi, 0, sizeof(fi));
    fi.name = ToByteArray(spec.name);
    fi.doc = ToByteArray(spec.doc);
    fi.flags =
        spec.flags | kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitSetterIsFunctionObj;
    fi.size = st.size;
    fi.alignment = st.alignment;
    fi.offset = offset;
    fi.getter = st.getter;
    fi.setter = ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(setters.back());
    if (spec.flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      fi.default_value_or_factory = *RawOf(spec.default_value);
    }
    fi.field_static_type_index = spec.static_type_index;
    infos.push_back(fi);
  }
  // Never smaller than the parent: C++ code may copy a parent-sized object.
  layout->total_size = AlignUp(std::max<int64_t>(end, TotalSize(parent)), 8);
  if (layout->total_size > INT32_MAX) {
    TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: type `" << key << "` is too large";
  }

  const Layout* published = layout.release();
  StoreLayout(type_index, published);
  for (const TVMFFIFieldInfo& fi : infos) type_registry::RegisterField(type_index, fi);
  Function make = Function::FromPacked([published](const AnyView*, int32_t num_args, Any* rv) {
    if (num_args != 0) TVM_FFI_THROW(TypeError) << "__ffi_new__ takes no arguments";
    *rv = NewFromLayout(published);
  });
  Any make_any(make);
  type_registry::RegisterAttr(type_index, "__ffi_new__", *RawOf(make_any));

  Function init = py_class::MakeAutoInit(type_index);
  TVMFFIMethodInfo mi;
  std::memset(&mi, 0, sizeof(mi));
  static const char kInit[] = "__ffi_init__";
  mi.name.data = kInit;
  mi.name.size = sizeof(kInit) - 1;
  mi.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  mi.method.type_index = kTVMFFIFunction;
  mi.method.v_obj = ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(init);
  type_registry::RegisterMethod(type_index, mi);

  TVMFFITypeMetadata meta;
  std::memset(&meta, 0, sizeof(meta));
  meta.creator = nullptr;
  meta.total_size = static_cast<int32_t>(published->total_size);
  meta.structural_eq_hash_kind = structural_eq_kind;
  type_registry::RegisterMetadata(type_index, meta);
}

Any ShallowCopy(const TVMFFIAny& value) {
  if (value.type_index < kTVMFFIStaticObjectBegin) {
    TVM_FFI_THROW(TypeError) << "ffi.ShallowCopy expects an object, got "
                            << TypeIndexToDisplayName(value.type_index);
  }
  const TVMFFITypeInfo* info = type_registry::GetTypeInfo(value.type_index);
  if (info == nullptr) {
    TVM_FFI_THROW(TypeError) << "ffi.ShallowCopy: unknown type index " << value.type_index;
  }
  std::string refusal = CopyRefusal(info);
  if (!refusal.empty()) {
    TVM_FFI_THROW(TypeError) << "ffi.ShallowCopy: type `" << KeyOf(info)
                            << "` does not support copy: " << refusal;
  }
  TVMFFIObjectHandle handle = CreateEmptyInstance(info);
  if (handle == nullptr) {
    TVM_FFI_THROW(TypeError) << "ffi.ShallowCopy: type `" << KeyOf(info)
                            << "` has no creator, so it cannot be copied";
  }
  ObjectRef copy = ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
      ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
  for (const TVMFFIFieldInfo* f : AllFields(info)) {
    if (f->getter == nullptr) {
      TVM_FFI_THROW(TypeError) << "ffi.ShallowCopy: field `" << NameOf(f) << "` of `"
                               << KeyOf(info) << "` has no getter";
    }
    Any field_value = ReadField(value.v_obj, f);
    try {
      CopyFieldInto(handle, f, *RawOf(field_value));
    } catch (const Error& e) {
      throw Error(e.kind(),
                  "ffi.ShallowCopy: field `" + NameOf(f) + "` of `" + KeyOf(info) +
                      "`: " + e.message(),
                  e.backtrace());
    }
  }
  return Any(std::move(copy));
}

namespace {

// TypeError "<context>: expected <expected>, got <actual>".
[[noreturn]] void ThrowEntryMismatch(const char* expected, const AnyView& actual,
                                     const std::string& context) {
  TVM_FFI_THROW(TypeError) << context << ": expected " << expected << ", got "
                           << TypeIndexToDisplayName(actual.type_index());
  TVM_FFI_UNREACHABLE();
}

std::string EntryContext(int64_t i, const char* what) {
  return "ffi.DataclassDefine: field entry " + DecimalString(i) + " `" + what + "`";
}

// Item `k` of field entry `i`, with a TypeError naming both when it has
// another type.
std::string ItemStr(const Array<Any>& entry, int64_t i, int64_t k, const char* what) {
  const Any& item = entry[k];
  const char* data;
  size_t size;
  bool is_bytes;
  if (!GetStringView(RawOf(item), &data, &size, &is_bytes) || is_bytes) {
    ThrowEntryMismatch("str", item, EntryContext(i, what));
  }
  return std::string(data, size);
}

int64_t ItemInt(const Array<Any>& entry, int64_t i, int64_t k, const char* what) {
  const Any& item = entry[k];
  if (item.type_index() != kTVMFFIInt && item.type_index() != kTVMFFIBool) {
    ThrowEntryMismatch("int", item, EntryContext(i, what));
  }
  return RawOf(item)->v_int64;
}

bool ItemBool(const Array<Any>& entry, int64_t i, int64_t k, const char* what) {
  const Any& item = entry[k];
  if (item.type_index() != kTVMFFIBool && item.type_index() != kTVMFFIInt) {
    ThrowEntryMismatch("bool", item, EntryContext(i, what));
  }
  return RawOf(item)->v_int64 != 0;
}

Function ItemFunction(const Array<Any>& entry, int64_t i, int64_t k, const char* what) {
  const Any& item = entry[k];
  if (item.type_index() != kTVMFFIFunction) {
    ThrowEntryMismatch("ffi.Function", item, EntryContext(i, what));
  }
  return item.cast<Function>();
}

// ffi.DataclassDefine: the entries checked and turned into FieldSpecs, then Define.
void DefineFromEntries(int64_t type_index, const Array<Any>& fields, int64_t structural_eq_kind) {
  std::vector<FieldSpec> specs;
  for (int64_t i = 0; i < static_cast<int64_t>(fields.size()); ++i) {
    const Any& item = fields[i];
    if (item.type_index() != kTVMFFIArray) {
      ThrowEntryMismatch("Array", item,
                         "ffi.DataclassDefine: field entry " + DecimalString(i));
    }
    Array<Any> entry = item.cast<Array<Any>>();
    if (entry.size() != 7) {
      TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: field entry " << i << " has "
                                << entry.size()
                                << " items, expected 7 (name, static_type_index, nullable, "
                                   "flags, doc, default, check)";
    }
    FieldSpec spec;
    spec.name = ItemStr(entry, i, 0, "name");
    int64_t static_index = ItemInt(entry, i, 1, "static_type_index");
    if (static_index < INT32_MIN || static_index > INT32_MAX) {
      TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: field " << i
                                << " has static_type_index " << static_index
                                << ", out of the int32 range";
    }
    spec.static_type_index = static_cast<int32_t>(static_index);
    spec.nullable = ItemBool(entry, i, 2, "nullable");
    spec.flags = ItemInt(entry, i, 3, "flags");
    if (entry[4].type_index() != kTVMFFINone) spec.doc = ItemStr(entry, i, 4, "doc");
    spec.default_value = entry[5];
    if (entry[6].type_index() != kTVMFFINone) spec.check = ItemFunction(entry, i, 6, "check");
    specs.push_back(std::move(spec));
  }
  auto check_int32 = [](int64_t v, const char* what) {
    if (v < INT32_MIN || v > INT32_MAX) {
      TVM_FFI_THROW(ValueError) << "ffi.DataclassDefine: " << what << " " << v
                                << " is out of the int32 range";
    }
    return static_cast<int32_t>(v);
  };
  Define(check_int32(type_index, "type index"), specs,
         check_int32(structural_eq_kind, "structural_eq_kind"));
}

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.DataclassDefine", [](int64_t type_index, Array<Any> fields,
                                                       int64_t structural_eq_kind) {
  DefineFromEntries(type_index, fields, structural_eq_kind);
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ShallowCopy",
                             [](AnyView obj) { return ShallowCopy(*RawOf(obj)); });

}  // namespace
}  // namespace dataclass
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
