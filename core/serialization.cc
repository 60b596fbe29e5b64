// JSON graph serialization (see serialization.h for the format).
#include "serialization.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include "big_int_internal.h"
#include "enum.h"
#include "global_def.h"
#include "json.h"
#include "object_internal.h"
#include "reflection_visit.h"
#include "string_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace serialization {
namespace {

// ---- raw values ------------------------------------------------------------------
// The walks below read values as TVMFFIAny (type index and payload); Any,
// AnyView and TVMFFIAny share one 16-byte layout.

const TVMFFIAny* RawOf(const AnyView& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }
const TVMFFIAny* RawOf(const Any& v) { return AnyUnsafe::TVMFFIAnyPtrFromAny(v); }
AnyView ViewOf(const TVMFFIAny& v) { return AnyView::CopyFromTVMFFIAny(v); }
// Takes over the reference `raw` owns.
Any Adopt(TVMFFIAny raw) { return AnyUnsafe::MoveTVMFFIAnyRawToAny(raw); }
const Object* FromHandle(const void* handle) { return static_cast<const Object*>(handle); }
void AnyZero(TVMFFIAny* v) {
  std::memset(v, 0, sizeof(TVMFFIAny));
  v->type_index = kTVMFFINone;
}
void CheckCall(int rc) { TVM_FFI_CHECK_SAFE_CALL(rc); }

// Array and List share the sequence cell; Map and Dict the map storage.
int64_t SeqSize(const SeqBaseObj* seq) { return static_cast<int64_t>(seq->size()); }
const TVMFFIAny& SeqAt(const SeqBaseObj* seq, int64_t i) { return *RawOf(seq->at(i)); }

// A new Map (or Dict) of (key0, value0, key1, value1, ...), a repeated key
// keeping its last value: one call of the runtime's constructor, which reads
// the owned values in place as its arguments (Any and AnyView share one layout).
Any MakeMapLike(bool dict, const std::vector<Any>& flat) {
  static const Function* const make_map = new Function(Function::GetGlobalRequired("ffi.Map"));
  static const Function* const make_dict = new Function(Function::GetGlobalRequired("ffi.Dict"));
  Any out;
  (dict ? make_dict : make_map)
      ->CallPacked(reinterpret_cast<const AnyView*>(flat.data()),
                   static_cast<int32_t>(flat.size()), &out);
  return out;
}

// Whether `obj` is an instance of the type `target_index` (or a subtype).
bool IsInstanceIndex(const Object* obj, int32_t target_index) {
  int32_t self = obj->type_index();
  if (self == target_index || target_index == kTVMFFIObject) return true;
  if (self < target_index) return false;  // a subtype's index is larger
  const TVMFFITypeInfo* target = TVMFFIGetTypeInfo(target_index);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(self);
  if (target == nullptr || info == nullptr) return false;
  if (info->type_depth <= target->type_depth) return false;
  return info->type_ancestors[target->type_depth]->type_index == target_index;
}

// ---- reflection ------------------------------------------------------------------

// A new instance of `info`'s type with every field zero or empty: from the
// metadata's creator, else from the `__ffi_new__` type attribute (types
// defined at run time have no C creator).  Null when the type has neither.
ObjectPtr<Object> CreateEmptyInstance(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    CheckCall(info->metadata->creator(&handle));
    return ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle));
  }
  static const TVMFFIByteArray kName = {"__ffi_new__", 11};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kName);
  if (col == nullptr) return ObjectPtr<Object>(nullptr);
  int32_t i = info->type_index - col->begin_index;
  if (i < 0 || i >= col->size || col->data[i].type_index != kTVMFFIFunction) {
    return ObjectPtr<Object>(nullptr);
  }
  Any made = ViewOf(col->data[i]).cast<Function>()();
  if (made.type_index() != info->type_index) {
    TVM_FFI_THROW(TypeError) << "__ffi_new__ of `"
                             << std::string(info->type_key.data, info->type_key.size)
                             << "` returned " << TypeIndexToDisplayName(made.type_index())
                             << ", not an instance of the type";
  }
  return ObjectUnsafe::ObjectPtrFromObjectRef<Object>(std::move(made).cast<ObjectRef>());
}

// Sets field `f` of `obj` through its setter (a C function or a Function
// object).  A None value is not assigned when the field already reads None
// (an unset object field of a run-time-defined type, whose setter refuses
// None when the field is not nullable, stays as it is).
void CopyFieldInto(Object* obj, const TVMFFIFieldInfo* f, const TVMFFIAny& value) {
  void* address = reinterpret_cast<char*>(obj) + f->offset;
  if (value.type_index == kTVMFFINone && f->getter != nullptr) {
    TVMFFIAny current;
    AnyZero(&current);
    CheckCall(f->getter(address, &current));
    bool already_none = current.type_index == kTVMFFINone;
    Adopt(current);
    if (already_none) return;
  }
  if (f->setter == nullptr) {
    TVM_FFI_THROW(TypeError) << "field `" << std::string(f->name.data, f->name.size)
                             << "` has no setter";
  }
  CheckCall(reflection::CallFieldSetter(f, address, &value));
}

// ---- type facts ----------------------------------------------------------------

std::string FieldName(const TVMFFIFieldInfo* f) { return std::string(f->name.data, f->name.size); }

std::string TypeKeyOf(int32_t type_index) { return TypeIndexToDisplayName(type_index); }

// Whether a field of this declared type is written inline (not as a node).
bool IsInlineField(int32_t static_type_index) {
  switch (static_type_index) {
    case kTVMFFINone:
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
    case kTVMFFIDataType:
      return true;
    default:
      return false;
  }
}

// The Function in type attribute column `attr` for `type_index`, if any.
std::optional<Function> TypeAttrFunction(const char* attr, int32_t type_index) {
  TVMFFIByteArray name = {attr, std::strlen(attr)};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  if (col == nullptr) return std::nullopt;
  int32_t i = type_index - col->begin_index;
  if (i < 0 || i >= col->size || col->data[i].type_index != kTVMFFIFunction) return std::nullopt;
  return ViewOf(col->data[i]).cast<Function>();
}

// Whether the type has an `__ffi_new__` attribute (the creator of types
// defined at run time, see CreateEmptyInstance).
bool HasNewAttr(int32_t type_index) {
  return TypeAttrFunction("__ffi_new__", type_index).has_value();
}

// Upstream's custom (de)serialization hooks: Function(obj) -> JSON value and
// Function(JSON value) -> obj, used instead of the field-by-field form.
constexpr const char* kDataToJsonAttr = "__data_to_json__";
constexpr const char* kDataFromJsonAttr = "__data_from_json__";

// ---- enums (core/enum.h) --------------------------------------------------------

bool IsEnum(int32_t type_index) { return IsEnumType(type_index); }

// The JSON data of an enum singleton (its index).
Any EnumJsonData(const Object* obj) { return EnumToJsonData(static_cast<const EnumObj*>(obj)); }

// The singleton of enum type `type_index` that `data` names.
Any EnumFromJson(int32_t type_index, const TVMFFIAny& data) {
  return EnumFromJsonData(type_index, AnyView::CopyFromTVMFFIAny(data));
}

// ---- base64 (standard alphabet, padded) ---------------------------------------

const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(const char* data, size_t n, std::string* out) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t(p[i]) << 16) | (uint32_t(p[i + 1]) << 8) | p[i + 2];
    out->push_back(kB64[v >> 18]);
    out->push_back(kB64[(v >> 12) & 63]);
    out->push_back(kB64[(v >> 6) & 63]);
    out->push_back(kB64[v & 63]);
  }
  if (n - i == 1) {
    uint32_t v = uint32_t(p[i]) << 16;
    out->push_back(kB64[v >> 18]);
    out->push_back(kB64[(v >> 12) & 63]);
    *out += "==";
  } else if (n - i == 2) {
    uint32_t v = (uint32_t(p[i]) << 16) | (uint32_t(p[i + 1]) << 8);
    out->push_back(kB64[v >> 18]);
    out->push_back(kB64[(v >> 12) & 63]);
    out->push_back(kB64[(v >> 6) & 63]);
    out->push_back('=');
  }
}

bool DecodeBase64(const char* s, size_t n, std::string* out) {
  if (n % 4 != 0) return false;
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  for (size_t i = 0; i < n; i += 4) {
    int pad = 0;
    uint32_t v = 0;
    for (size_t k = 0; k < 4; ++k) {
      char c = s[i + k];
      int d;
      if (c == '=' && i + 4 == n && k >= 2) {
        d = 0;
        ++pad;
      } else {
        if (pad != 0) return false;
        d = val(c);
        if (d < 0) return false;
      }
      v = (v << 6) | static_cast<uint32_t>(d);
    }
    out->push_back(static_cast<char>(v >> 16));
    if (pad < 2) out->push_back(static_cast<char>((v >> 8) & 255));
    if (pad < 1) out->push_back(static_cast<char>(v & 255));
  }
  return true;
}

// ---- decimal text of a BigInt -----------------------------------------------

// The integer written as optional '-' and decimal digits; nullopt when the
// text is not that.
std::optional<Any> ParseDecimal(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size()) return std::nullopt;
  for (size_t k = i; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return std::nullopt;
  }
  CheckBigIntStrDigits(text.size() - i, "ffi.FromJSONGraph");
  std::vector<uint64_t> mag = {0};  // little-endian magnitude
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c < '0' || c > '9') return std::nullopt;
    unsigned __int128 carry = static_cast<unsigned>(c - '0');
    for (uint64_t& w : mag) {
      unsigned __int128 cur = static_cast<unsigned __int128>(w) * 10 + carry;
      w = static_cast<uint64_t>(cur);
      carry = cur >> 64;
    }
    if (carry != 0) mag.push_back(static_cast<uint64_t>(carry));
  }
  mag.push_back(0);  // sign word: the magnitude reads as non-negative
  if (negative) {
    uint64_t carry = 1;
    for (uint64_t& w : mag) {
      w = ~w + carry;
      carry = (carry != 0 && w == 0) ? 1 : 0;
    }
  }
  TVMFFIAny out;
  MakeBigIntAny(mag.data(), mag.size() * sizeof(uint64_t), &out);
  return Adopt(out);
}

// ---- writing -------------------------------------------------------------------

class GraphWriter {
 public:
  std::string Run(const AnyView& value, const AnyView& metadata) {
    int64_t root = IndexOf(*RawOf(value));
    std::string out = "{\"root_index\":";
    AppendInt(root, &out);
    out += ",\"nodes\":[";
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (i != 0) out.push_back(',');
      out += nodes_[i];
    }
    out.push_back(']');
    if (metadata != nullptr) {
      out += ",\"metadata\":";
      out += json::Stringify(metadata);
    }
    out.push_back('}');
    return out;
  }

 private:
  // One child slot of a container or object node being built.
  struct Slot {
    std::string name;    // field name (objects only)
    std::string inline_text;  // set for inline fields
    Any value;           // the child value otherwise
    int64_t index = -1;  // its node index once known
    bool is_inline = false;
  };
  struct Frame {
    Any value;
    const Object* obj;
    std::vector<Slot> slots;
    size_t next = 0;
  };

  static void AppendInt(int64_t v, std::string* out) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof(buf), v);
    out->append(buf, r.ptr);
  }

  static std::string Node(const char* type_key, const std::string& data) {
    std::string n = "{\"type\":";
    json::AppendQuoted(type_key, &n);
    n += ",\"data\":";
    n += data;
    n.push_back('}');
    return n;
  }

  int64_t Add(std::string node) {
    nodes_.push_back(std::move(node));
    return static_cast<int64_t>(nodes_.size()) - 1;
  }

  // The node index of a value that is a leaf (no child nodes), creating it;
  // -1 when the value is a container or object needing a frame.
  int64_t LeafIndex(const TVMFFIAny& v) {
    int32_t t = v.type_index;
    const char* data;
    size_t size;
    bool is_bytes;
    if (GetStringView(&v, &data, &size, &is_bytes)) {
      std::string key;
      key.reserve(size + 1);
      key.push_back(is_bytes ? 'b' : 's');
      key.append(data, size);
      auto it = str_index_.find(key);
      if (it != str_index_.end()) return it->second;
      std::string text;
      if (is_bytes) {
        text.push_back('"');
        AppendBase64(data, size, &text);
        text.push_back('"');
      } else {
        json::AppendQuoted(std::string_view(data, size), &text);
      }
      int64_t idx = Add(Node(is_bytes ? "ffi.Bytes" : "ffi.String", text));
      str_index_.emplace(std::move(key), idx);
      return idx;
    }
    if (t < kTVMFFIStaticObjectBegin) {
      std::pair<int32_t, int64_t> key(t, t == kTVMFFINone ? 0 : v.v_int64);
      if (t == kTVMFFIDevice) {
        key.second = static_cast<int64_t>((uint64_t(uint32_t(v.v_device.device_type)) << 32) |
                                          uint32_t(v.v_device.device_id));
      } else if (t == kTVMFFIDataType) {  // only the 4 bytes of the dtype count
        key.second = (int64_t(v.v_dtype.code) << 24) | (int64_t(v.v_dtype.bits) << 16) |
                     int64_t(v.v_dtype.lanes);
      }
      auto it = pod_index_.find(key);
      if (it != pod_index_.end()) return it->second;
      std::string text;
      const char* type_key = nullptr;
      switch (t) {
        case kTVMFFINone: {
          int64_t idx = Add("{\"type\":\"None\"}");
          pod_index_.emplace(key, idx);
          return idx;
        }
        case kTVMFFIBool:
          type_key = "bool";
          text = v.v_int64 ? "true" : "false";
          break;
        case kTVMFFIInt:
          type_key = "int";
          AppendInt(v.v_int64, &text);
          break;
        case kTVMFFIFloat:
          type_key = "float";
          json::AppendDouble(v.v_float64, &text);
          break;
        case kTVMFFIDataType:
          type_key = "DataType";
          json::AppendQuoted(DataTypeText(v.v_dtype), &text);
          break;
        case kTVMFFIDevice:
          type_key = "Device";
          text = "[";
          AppendInt(v.v_device.device_type, &text);
          text.push_back(',');
          AppendInt(v.v_device.device_id, &text);
          text.push_back(']');
          break;
        default:
          TVM_FFI_THROW(TypeError) << "ffi.ToJSONGraph: a value of type " << TypeKeyOf(t)
                                   << " cannot be serialized";
      }
      int64_t idx = Add(Node(type_key, text));
      pod_index_.emplace(key, idx);
      return idx;
    }
    const Object* obj = FromHandle(v.v_obj);
    auto it = obj_index_.find(obj);
    if (it != obj_index_.end()) return it->second;
    if (t == kTVMFFIBigInt) {
      // The bound first: converting a huge value is what the limit prevents.
      size_t bound = BigIntDecimalDigitsBound(&v);
      if (bound > 2) CheckBigIntStrDigits(bound - 2, "ffi.ToJSONGraph");
      std::ostringstream decimal_text;
      decimal_text << ViewOf(v).cast<BigInt>();
      std::string decimal = decimal_text.str();
      CheckBigIntStrDigits(decimal.size() - (decimal[0] == '-' ? 1 : 0), "ffi.ToJSONGraph");
      std::string text;
      json::AppendQuoted(decimal, &text);
      int64_t idx = Add(Node("ffi.BigInt", text));
      obj_index_.emplace(obj, idx);
      return idx;
    }
    if (IsEnum(t)) {
      // A singleton travels as its index; the reader finds it again.
      Any data = EnumJsonData(obj);
      int64_t idx = Add(Node(TypeKeyOf(t).c_str(), json::Stringify(data)));
      obj_index_.emplace(obj, idx);
      return idx;
    }
    if (t >= kTVMFFIDynObjectBegin) {
      if (std::optional<Function> hook = TypeAttrFunction(kDataToJsonAttr, t)) {
        Any data = (*hook)(ViewOf(v));
        int64_t idx = Add(Node(TypeKeyOf(t).c_str(), json::Stringify(data)));
        obj_index_.emplace(obj, idx);
        return idx;
      }
    }
    if (t == kTVMFFIShape) {
      const ShapeObj* shape = static_cast<const ShapeObj*>(obj);
      std::string text = "[";
      for (size_t i = 0; i < shape->size; ++i) {
        if (i != 0) text.push_back(',');
        AppendInt(shape->data[i], &text);
      }
      text.push_back(']');
      int64_t idx = Add(Node("ffi.Shape", text));
      obj_index_.emplace(obj, idx);
      return idx;
    }
    return -1;
  }

  static std::string DataTypeText(DLDataType dt) {
    TVMFFIAny out;
    AnyZero(&out);
    int rc = TVMFFIDataTypeToString(&dt, &out);
    CheckCall(rc);
    return std::string(Adopt(out).cast<String>());
  }

  // The frame of a container or reflected object (its children listed).
  Frame MakeFrame(const TVMFFIAny& v) {
    Frame f;
    f.value = Any(ViewOf(v));
    f.obj = FromHandle(v.v_obj);
    int32_t t = v.type_index;
    switch (t) {
      case kTVMFFIArray:
      case kTVMFFIList: {
        const SeqBaseObj* seq = static_cast<const SeqBaseObj*>(f.obj);
        f.slots.resize(static_cast<size_t>(SeqSize(seq)));
        for (int64_t i = 0; i < SeqSize(seq); ++i) {
          f.slots[static_cast<size_t>(i)].value = Any(ViewOf(SeqAt(seq, i)));
        }
        return f;
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        const MapBaseObj* map = static_cast<const MapBaseObj*>(f.obj);
        f.slots.reserve(static_cast<size_t>(map->size()) * 2);
        for (const auto& kv : *map) {
          f.slots.emplace_back();
          f.slots.back().value = kv.first;
          f.slots.emplace_back();
          f.slots.back().value = kv.second;
        }
        return f;
      }
      case kTVMFFIFunction:
      case kTVMFFITensor:
      case kTVMFFIModule:
      case kTVMFFIError:
      case kTVMFFIOpaquePyObject:
        TVM_FFI_THROW(TypeError) << "ffi.ToJSONGraph: a value of type " << TypeKeyOf(t)
                                 << " cannot be serialized";
      default:
        break;
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
    if (info == nullptr || t < kTVMFFIDynObjectBegin) {
      TVM_FFI_THROW(TypeError) << "ffi.ToJSONGraph: a value of type " << TypeKeyOf(t)
                               << " cannot be serialized";
    }
    if ((info->metadata == nullptr || info->metadata->creator == nullptr) &&
        !HasNewAttr(info->type_index)) {
      TVM_FFI_THROW(TypeError) << "ffi.ToJSONGraph: type `" << TypeKeyOf(t)
                               << "` has no creator registered, so it could not be restored";
    }
    for (const TVMFFIFieldInfo* field : AllFields(info)) {
      if (field->getter == nullptr) {
        TVM_FFI_THROW(TypeError) << "ffi.ToJSONGraph: field `" << FieldName(field) << "` of `"
                                 << TypeKeyOf(t) << "` has no getter";
      }
      TVMFFIAny raw;
      AnyZero(&raw);
      void* address = reinterpret_cast<char*>(v.v_obj) + field->offset;
      int rc = field->getter(address, &raw);
      CheckCall(rc);
      Slot s;
      s.name = FieldName(field);
      s.value = Adopt(raw);
      if (IsInlineField(field->field_static_type_index)) {
        s.is_inline = true;
        const TVMFFIAny& fv = *RawOf(s.value);
        switch (fv.type_index) {
          case kTVMFFINone: s.inline_text = "null"; break;
          case kTVMFFIBool: s.inline_text = fv.v_int64 ? "true" : "false"; break;
          case kTVMFFIInt: AppendInt(fv.v_int64, &s.inline_text); break;
          case kTVMFFIFloat: json::AppendDouble(fv.v_float64, &s.inline_text); break;
          case kTVMFFIDataType: json::AppendQuoted(DataTypeText(fv.v_dtype), &s.inline_text); break;
          default:
            TVM_FFI_THROW(TypeError) << "ffi.ToJSONGraph: field `" << s.name << "` of `"
                                     << TypeKeyOf(t) << "` is declared "
                                     << TypeKeyOf(field->field_static_type_index) << " but holds "
                                     << TypeKeyOf(fv.type_index);
        }
      }
      f.slots.push_back(std::move(s));
    }
    return f;
  }

  std::string Render(const Frame& f) {
    int32_t t = f.obj->type_index();
    std::string text;
    if (t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict) {
      text.push_back('[');
      for (size_t i = 0; i < f.slots.size(); ++i) {
        if (i != 0) text.push_back(',');
        AppendInt(f.slots[i].index, &text);
      }
      text.push_back(']');
      const char* key = t == kTVMFFIArray  ? "ffi.Array"
                        : t == kTVMFFIList ? "ffi.List"
                        : t == kTVMFFIMap  ? "ffi.Map"
                                           : "ffi.Dict";
      return Node(key, text);
    }
    text.push_back('{');
    for (size_t i = 0; i < f.slots.size(); ++i) {
      if (i != 0) text.push_back(',');
      json::AppendQuoted(f.slots[i].name, &text);
      text.push_back(':');
      if (f.slots[i].is_inline) {
        text += f.slots[i].inline_text;
      } else {
        AppendInt(f.slots[i].index, &text);
      }
    }
    text.push_back('}');
    return Node(TypeKeyOf(t).c_str(), text);
  }

  int64_t IndexOf(const TVMFFIAny& root) {
    int64_t idx = LeafIndex(root);
    if (idx >= 0) return idx;
    std::vector<Frame> stack;
    std::unordered_set<const Object*> open;
    stack.push_back(MakeFrame(root));
    open.insert(stack.back().obj);
    while (true) {
      Frame& top = stack.back();
      bool pushed = false;
      while (top.next < top.slots.size()) {
        Slot& s = top.slots[top.next];
        if (s.is_inline) {
          ++top.next;
          continue;
        }
        int64_t child = LeafIndex(*RawOf(s.value));
        if (child >= 0) {
          s.index = child;
          ++top.next;
          continue;
        }
        const Object* cobj = FromHandle(RawOf(s.value)->v_obj);
        if (open.count(cobj) != 0) {
          TVM_FFI_THROW(ValueError) << "ffi.ToJSONGraph: the value contains a reference cycle "
                                       "(a "
                                    << TypeKeyOf(cobj->type_index()) << " contains itself)";
        }
        Frame nf = MakeFrame(*RawOf(s.value));
        open.insert(nf.obj);
        stack.push_back(std::move(nf));
        pushed = true;
        break;
      }
      if (pushed) continue;
      int64_t done = Add(Render(top));
      obj_index_.emplace(top.obj, done);
      open.erase(top.obj);
      stack.pop_back();
      if (stack.empty()) return done;
      Frame& parent = stack.back();
      parent.slots[parent.next].index = done;
      ++parent.next;
    }
  }

  std::vector<std::string> nodes_;
  std::unordered_map<const Object*, int64_t> obj_index_;
  std::unordered_map<std::string, int64_t> str_index_;
  struct PairHash {
    size_t operator()(const std::pair<int32_t, int64_t>& p) const {
      return std::hash<int64_t>()(p.second) * 31 + static_cast<size_t>(p.first);
    }
  };
  std::unordered_map<std::pair<int32_t, int64_t>, int64_t, PairHash> pod_index_;
};

// ---- reading -------------------------------------------------------------------

class GraphReader {
 public:
  // Python code runs while a graph is decoded (default factories, creators,
  // __data_from_json__, finalizers) and may change a List or Dict of the
  // graph it was given.  So the reader decodes an immutable copy: every List
  // becomes an Array and every Dict a Map down to the node data (the
  // copies are owned here; nothing outside can reach them), and each value
  // read is checked again where it is used.
  Any Run(const AnyView& graph) {
    if (graph.type_index() != kTVMFFIMap && graph.type_index() != kTVMFFIDict) {
      TVM_FFI_THROW(ValueError) << "ffi.FromJSONGraph: expected a JSON object with `root_index` "
                                   "and `nodes`, got "
                                << TypeKeyOf(graph.type_index());
    }
    graph_ = Freeze(*RawOf(graph), 0);
    const MapBaseObj* top = static_cast<const MapBaseObj*>(FromHandle(RawOf(graph_)->v_obj));
    const TVMFFIAny* nodes = Find(top, "nodes");
    if (nodes == nullptr || !IsSeq(*nodes)) {
      TVM_FFI_THROW(ValueError) << "ffi.FromJSONGraph: expected a `nodes` array in the graph";
    }
    nodes_ = static_cast<const SeqBaseObj*>(FromHandle(nodes->v_obj));
    const TVMFFIAny* root = Find(top, "root_index");
    if (root == nullptr || root->type_index != kTVMFFIInt) {
      TVM_FFI_THROW(ValueError)
          << "ffi.FromJSONGraph: expected an integer `root_index` in the graph";
    }
    int64_t n = SeqSize(nodes_);
    if (root->v_int64 < 0 || root->v_int64 >= n) {
      TVM_FFI_THROW(ValueError) << "ffi.FromJSONGraph: root_index " << root->v_int64
                                << " is out of range for " << n << " nodes";
    }
    decoded_.resize(static_cast<size_t>(n));
    parts_.resize(static_cast<size_t>(n));
    state_.assign(static_cast<size_t>(n), 0);
    return Decode(root->v_int64);
  }

 private:
  // `v` with every List turned into an Array and every Dict into a Map,
  // through the levels the reader looks into (graph, nodes, node, data,
  // and the items of a data array or object); deeper values (the JSON a
  // __data_from_json__ hook receives) are passed on as they are.
  static Any Freeze(const TVMFFIAny& v, int level) {
    if (level > 4) return Any(ViewOf(v));
    if (v.type_index == kTVMFFIList || v.type_index == kTVMFFIArray) {
      const SeqBaseObj* seq = static_cast<const SeqBaseObj*>(FromHandle(v.v_obj));
      // Hold the source while copying: freezing an item runs no user code,
      // but the copy must not read a sequence that could be released.
      Any keep(ViewOf(v));
      std::vector<Any> items;
      items.reserve(static_cast<size_t>(SeqSize(seq)));
      bool changed = v.type_index == kTVMFFIList;
      for (int64_t i = 0; i < SeqSize(seq); ++i) {
        items.push_back(Freeze(SeqAt(seq, i), level + 1));
        changed = changed || RawOf(items.back())->v_obj != SeqAt(seq, i).v_obj ||
                  items.back().type_index() != SeqAt(seq, i).type_index;
      }
      if (!changed) return keep;
      return Any(Array<Any>(items.begin(), items.end()));
    }
    if (v.type_index == kTVMFFIDict || v.type_index == kTVMFFIMap) {
      const MapBaseObj* map = static_cast<const MapBaseObj*>(FromHandle(v.v_obj));
      Any keep(ViewOf(v));
      bool changed = v.type_index == kTVMFFIDict;
      std::vector<Any> flat;  // key0, value0, key1, ...
      flat.reserve(2 * map->size());
      for (const auto& kv : *map) {
        const TVMFFIAny& value = *RawOf(kv.second);
        flat.push_back(kv.first);
        flat.push_back(Freeze(value, level + 1));
        changed = changed || RawOf(flat.back())->v_obj != value.v_obj ||
                  flat.back().type_index() != value.type_index;
      }
      if (!changed) return keep;
      return MakeMapLike(false, flat);
    }
    return Any(ViewOf(v));
  }

  struct Frame {
    int64_t index;
    std::vector<int64_t> children;
    size_t next = 0;
  };

  // The value under str key `key`, or nullptr (a linear scan: node maps are small).
  static const TVMFFIAny* Find(const MapBaseObj* map, std::string_view key) {
    for (const auto& kv : *map) {
      const char* d;
      size_t n;
      bool b;
      if (GetStringView(RawOf(kv.first), &d, &n, &b) && !b && n == key.size() &&
          std::memcmp(d, key.data(), n) == 0) {
        return RawOf(kv.second);
      }
    }
    return nullptr;
  }

  [[noreturn]] void Fail(int64_t index, const std::string& what) const {
    TVM_FFI_THROW(ValueError) << "ffi.FromJSONGraph: node " << index << ": " << what;
    TVM_FFI_UNREACHABLE();
  }

  // JSON arrays and objects may come as Array or List, Map or Dict.
  static bool IsSeq(const TVMFFIAny& v) {
    return v.type_index == kTVMFFIArray || v.type_index == kTVMFFIList;
  }
  static bool IsMapLike(const TVMFFIAny& v) {
    return v.type_index == kTVMFFIMap || v.type_index == kTVMFFIDict;
  }

  static std::string Str(const TVMFFIAny& v) {
    const char* d = nullptr;
    size_t n = 0;
    bool b = false;
    GetStringView(&v, &d, &n, &b);
    return std::string(d, n);
  }
  static bool IsStr(const TVMFFIAny& v) {
    const char* d;
    size_t n;
    bool b;
    return GetStringView(&v, &d, &n, &b) && !b;
  }

  // The node's type key and data (nullptr when absent), read once per node.
  void NodeParts(int64_t index, std::string* type_key, const TVMFFIAny** data) {
    Parts& cached = parts_[static_cast<size_t>(index)];
    if (!cached.ready) {
      const TVMFFIAny& node = SeqAt(nodes_, index);
      if (!IsMapLike(node)) {
        Fail(index, "expected a JSON object with `type`, got " + TypeKeyOf(node.type_index));
      }
      const MapBaseObj* m = static_cast<const MapBaseObj*>(FromHandle(node.v_obj));
      const TVMFFIAny* type = Find(m, "type");
      if (type == nullptr || !IsStr(*type)) Fail(index, "expected a string `type`");
      cached.key = Str(*type);
      cached.data = Find(m, "data");
      cached.ready = true;
    }
    *type_key = cached.key;
    *data = cached.data;
  }

  const SeqBaseObj* DataArray(int64_t index, const TVMFFIAny* data, const std::string& key) const {
    if (data == nullptr || !IsSeq(*data)) {
      Fail(index, "expected the data of a `" + key + "` node to be an array, got " +
                      (data == nullptr ? std::string("nothing") : TypeKeyOf(data->type_index)));
    }
    return static_cast<const SeqBaseObj*>(FromHandle(data->v_obj));
  }

  int64_t NodeRef(int64_t index, const TVMFFIAny& v, const std::string& what) const {
    if (v.type_index != kTVMFFIInt) {
      Fail(index, what + ": expected a node index, got " + TypeKeyOf(v.type_index));
    }
    if (v.v_int64 < 0 || v.v_int64 >= SeqSize(nodes_)) {
      Fail(index, what + ": node index " + std::to_string(v.v_int64) + " is out of range for " +
                      std::to_string(SeqSize(nodes_)) + " nodes");
    }
    return v.v_int64;
  }

  // The decoded value of the child that `v` names.  Children() checked the
  // same (immutable) data before, but the fields of a type can grow while a
  // graph is decoded (Python code defining them), so this checks again.
  const Any& Child(int64_t index, const TVMFFIAny& v, const std::string& what) const {
    int64_t c = NodeRef(index, v, what);
    if (state_[static_cast<size_t>(c)] != 2) {
      Fail(index, what + ": node " + std::to_string(c) + " was not decoded before it");
    }
    return decoded_[static_cast<size_t>(c)];
  }

  const TVMFFITypeInfo* ObjectType(int64_t index, const std::string& key) const {
    TVMFFIByteArray k = {key.data(), key.size()};
    int32_t tindex = -1;
    if (TVMFFITypeKeyToIndex(&k, &tindex) != 0) {
      TVMFFIObjectHandle err = nullptr;
      TVMFFIErrorMoveFromRaised(&err);
      if (err != nullptr) TVMFFIObjectDecRef(err);
      Fail(index, "unknown type `" + key + "`");
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(tindex);
    if (info == nullptr || tindex < kTVMFFIDynObjectBegin) {
      Fail(index, "type `" + key + "` cannot be restored from JSON");
    }
    return info;
  }

  // The node indices a node refers to.
  std::vector<int64_t> Children(int64_t index) {
    std::string key;
    const TVMFFIAny* data;
    NodeParts(index, &key, &data);
    std::vector<int64_t> out;
    if (key == "ffi.Array" || key == "ffi.List" || key == "ffi.Map" || key == "ffi.Dict") {
      const SeqBaseObj* items = DataArray(index, data, key);
      if ((key == "ffi.Map" || key == "ffi.Dict") && SeqSize(items) % 2 != 0) {
        Fail(index, "the data of a `" + key + "` node must have an even length, got " +
                        std::to_string(SeqSize(items)));
      }
      for (int64_t i = 0; i < SeqSize(items); ++i) {
        out.push_back(NodeRef(index, SeqAt(items, i), "item " + std::to_string(i)));
      }
      return out;
    }
    if (IsLeafKey(key)) return out;
    const TVMFFITypeInfo* info = ObjectType(index, key);
    if (TypeAttrFunction(kDataFromJsonAttr, info->type_index).has_value()) return out;
    if (IsEnum(info->type_index)) return out;  // data is the singleton's index
    if (data == nullptr || !IsMapLike(*data)) {
      Fail(index, "expected the data of a `" + key + "` node to be an object of fields");
    }
    const MapBaseObj* fields = static_cast<const MapBaseObj*>(FromHandle(data->v_obj));
    for (const TVMFFIFieldInfo* f : AllFields(info)) {
      if (IsInlineField(f->field_static_type_index)) continue;
      std::string name = FieldName(f);
      const TVMFFIAny* v = Find(fields, name);
      if (v != nullptr) out.push_back(NodeRef(index, *v, "field `" + name + "`"));
    }
    return out;
  }

  static bool IsLeafKey(const std::string& key) {
    return key == "None" || key == "bool" || key == "int" || key == "float" ||
           key == "ffi.String" || key == "ffi.Bytes" || key == "ffi.BigInt" ||
           key == "DataType" || key == "Device" || key == "ffi.Shape";
  }

  static DLDataType ParseDataType(const std::string& text) {
    TVMFFIByteArray b = {text.data(), text.size()};
    DLDataType dt;
    int rc = TVMFFIDataTypeFromString(&b, &dt);
    CheckCall(rc);
    return dt;
  }

  Any Build(int64_t index) {
    std::string key;
    const TVMFFIAny* data;
    NodeParts(index, &key, &data);
    auto need = [&](bool ok, const char* what) {
      if (!ok) {
        Fail(index, std::string("expected the data of a `") + key + "` node to be " + what +
                        ", got " +
                        (data == nullptr ? std::string("nothing") : TypeKeyOf(data->type_index)));
      }
    };
    if (key == "None") return Any();
    if (key == "bool") {
      need(data != nullptr && data->type_index == kTVMFFIBool, "true or false");
      return Any(data->v_int64 != 0);
    }
    if (key == "int") {
      need(data != nullptr && data->type_index == kTVMFFIInt, "an integer");
      return Any(data->v_int64);
    }
    if (key == "float") {
      need(data != nullptr && (data->type_index == kTVMFFIFloat || data->type_index == kTVMFFIInt),
           "a number");
      return Any(data->type_index == kTVMFFIInt ? static_cast<double>(data->v_int64)
                                                : data->v_float64);
    }
    if (key == "ffi.String") {
      need(data != nullptr && IsStr(*data), "a string");
      return Any(ViewOf(*data));
    }
    if (key == "ffi.Bytes") {
      need(data != nullptr && IsStr(*data), "a base64 string");
      std::string text = Str(*data), bytes;
      if (!DecodeBase64(text.data(), text.size(), &bytes)) Fail(index, "invalid base64 data");
      TVMFFIAny raw;
      MakeStringAny(bytes.data(), bytes.size(), true, &raw);
      return Adopt(raw);
    }
    if (key == "ffi.BigInt") {
      need(data != nullptr && IsStr(*data), "a decimal string");
      std::optional<Any> v = ParseDecimal(Str(*data));
      if (!v.has_value()) Fail(index, "invalid integer text \"" + Str(*data) + "\"");
      return *v;
    }
    if (key == "DataType") {
      need(data != nullptr && IsStr(*data), "a string");
      return Any(ParseDataType(Str(*data)));
    }
    if (key == "Device") {
      const SeqBaseObj* d = DataArray(index, data, key);
      if (SeqSize(d) != 2 || SeqAt(d, 0).type_index != kTVMFFIInt ||
          SeqAt(d, 1).type_index != kTVMFFIInt) {
        Fail(index, "expected the data of a `Device` node to be [device_type, device_id]");
      }
      for (int k = 0; k < 2; ++k) {
        int64_t x = SeqAt(d, k).v_int64;
        if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max()) {
          Fail(index, std::string(k == 0 ? "device_type " : "device_id ") + std::to_string(x) +
                          " is out of the int32 range");
        }
      }
      DLDevice dev;
      dev.device_type = static_cast<DLDeviceType>(SeqAt(d, 0).v_int64);
      dev.device_id = static_cast<int32_t>(SeqAt(d, 1).v_int64);
      return Any(dev);
    }
    if (key == "ffi.Shape") {
      const SeqBaseObj* d = DataArray(index, data, key);
      std::vector<int64_t> dims;
      for (int64_t i = 0; i < SeqSize(d); ++i) {
        if (SeqAt(d, i).type_index != kTVMFFIInt) Fail(index, "shape dims must be integers");
        dims.push_back(SeqAt(d, i).v_int64);
      }
      return Any(Shape(dims));
    }
    if (key == "ffi.Array" || key == "ffi.List") {
      const SeqBaseObj* d = DataArray(index, data, key);
      if (key == "ffi.Array") {
        std::vector<Any> items;
        items.reserve(static_cast<size_t>(SeqSize(d)));
        for (int64_t i = 0; i < SeqSize(d); ++i) {
          items.push_back(Child(index, SeqAt(d, i), "item " + std::to_string(i)));
        }
        return Any(Array<Any>(items.begin(), items.end()));
      }
      List<Any> out;
      for (int64_t i = 0; i < SeqSize(d); ++i) {
        out.push_back(Child(index, SeqAt(d, i), "item " + std::to_string(i)));
      }
      return Any(std::move(out));
    }
    if (key == "ffi.Map" || key == "ffi.Dict") {
      const SeqBaseObj* d = DataArray(index, data, key);
      if (SeqSize(d) % 2 != 0) {
        Fail(index, "the data of a `" + key + "` node must have an even length");
      }
      std::vector<Any> flat;  // key0, value0, key1, ...
      flat.reserve(static_cast<size_t>(SeqSize(d)));
      for (int64_t i = 0; i < SeqSize(d); ++i) {
        flat.push_back(Child(index, SeqAt(d, i), "item " + std::to_string(i)));
      }
      return MakeMapLike(key == "ffi.Dict", flat);
    }
    return BuildObject(index, key, data);
  }

  // A decoded object must have its field's declared type before any setter
  // sees it: None or an instance of the declared type (or a subtype).
  // Setters of C++ fields check again when converting; this also covers
  // setters that would not (Function setters, fields registered through
  // the C API).  Strings and containers are left to the setters, which may
  // convert between their forms (str and its small form, List to Array).
  void CheckFieldType(int64_t index, const std::string& key, const TVMFFIFieldInfo* f,
                      const TVMFFIAny& value) const {
    int32_t want = f->field_static_type_index;
    if (want < kTVMFFIStaticObjectBegin || value.type_index == want) return;
    switch (want) {
      case kTVMFFIStr:
      case kTVMFFIBytes:
      case kTVMFFIArray:
      case kTVMFFIList:
      case kTVMFFIMap:
      case kTVMFFIDict:
      case kTVMFFIShape:
      case kTVMFFIBigInt:
        return;
      default:
        break;
    }
    bool ok = value.type_index == kTVMFFINone ||
              (value.type_index >= kTVMFFIStaticObjectBegin &&
               IsInstanceIndex(FromHandle(value.v_obj), want));
    if (!ok) {
      Fail(index, "field `" + FieldName(f) + "` of `" + key + "` is declared " + TypeKeyOf(want) +
                      " but the graph gives " + TypeKeyOf(value.type_index));
    }
  }

  Any BuildObject(int64_t index, const std::string& key, const TVMFFIAny* data) {
    const TVMFFITypeInfo* info = ObjectType(index, key);
    if (IsEnum(info->type_index)) {
      if (data == nullptr) Fail(index, "an enum `" + key + "` node needs its index as data");
      return EnumFromJson(info->type_index, *data);
    }
    if (std::optional<Function> hook = TypeAttrFunction(kDataFromJsonAttr, info->type_index)) {
      return (*hook)(data == nullptr ? AnyView() : ViewOf(*data));
    }
    if ((info->metadata == nullptr || info->metadata->creator == nullptr) &&
        !HasNewAttr(info->type_index)) {
      Fail(index, "type `" + key + "` has no creator registered");
    }
    if (data == nullptr || !IsMapLike(*data)) {
      Fail(index, "expected the data of a `" + key + "` node to be an object of fields");
    }
    const MapBaseObj* fields = static_cast<const MapBaseObj*>(FromHandle(data->v_obj));
    std::vector<const TVMFFIFieldInfo*> all = AllFields(info);
    // Unknown names first: a typo should not pass silently.
    for (const auto& kv : *fields) {
      std::string name = Str(*RawOf(kv.first));
      bool known = false;
      for (const TVMFFIFieldInfo* f : all) known = known || FieldName(f) == name;
      if (!known) Fail(index, "type `" + key + "` has no field `" + name + "`");
    }
    ObjectPtr<Object> made = CreateEmptyInstance(info);
    if (made == nullptr) Fail(index, "type `" + key + "` has no creator registered");
    Object* target = made.get();
    ObjectRef obj(std::move(made));
    for (const TVMFFIFieldInfo* f : all) {
      std::string name = FieldName(f);
      const TVMFFIAny* v = Find(fields, name);
      Any value;
      if (v == nullptr) {
        if (!(f->flags & kTVMFFIFieldFlagBitMaskHasDefault)) {
          Fail(index, "missing field `" + name + "` of `" + key + "` (it has no default)");
        }
        if (f->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) {
          value = ViewOf(f->default_value_or_factory).cast<Function>()();
        } else {
          value = Any(ViewOf(f->default_value_or_factory));
        }
      } else if (IsInlineField(f->field_static_type_index)) {
        if (f->field_static_type_index == kTVMFFIDataType) {
          if (!IsStr(*v)) Fail(index, "field `" + name + "`: expected a data type string");
          value = Any(ParseDataType(Str(*v)));
        } else {
          value = Any(ViewOf(*v));
        }
      } else {
        value = Child(index, *v, "field `" + name + "`");
      }
      CheckFieldType(index, key, f, *RawOf(value));
      try {
        CopyFieldInto(target, f, *RawOf(value));
      } catch (const Error& e) {
        Fail(index, "field `" + name + "` of `" + key + "`: " + e.message());
      }
    }
    Any result(std::move(obj));
    if (std::optional<Function> fin = TypeAttrFunction(kJsonGraphFinalizeAttr, info->type_index)) {
      result = (*fin)(result);
    }
    return result;
  }

  Any Decode(int64_t root) {
    std::vector<Frame> stack;
    stack.push_back(Frame{root, Children(root)});
    state_[static_cast<size_t>(root)] = 1;
    while (!stack.empty()) {
      Frame& top = stack.back();
      bool pushed = false;
      while (top.next < top.children.size()) {
        int64_t c = top.children[top.next];
        uint8_t st = state_[static_cast<size_t>(c)];
        if (st == 2) {
          ++top.next;
          continue;
        }
        if (st == 1) {
          Fail(top.index, "the graph has a reference cycle through node " + std::to_string(c));
        }
        state_[static_cast<size_t>(c)] = 1;
        Frame nf{c, Children(c)};
        stack.push_back(std::move(nf));
        pushed = true;
        break;
      }
      if (pushed) continue;
      int64_t idx = top.index;
      decoded_[static_cast<size_t>(idx)] = Build(idx);
      state_[static_cast<size_t>(idx)] = 2;
      stack.pop_back();
    }
    return decoded_[static_cast<size_t>(root)];
  }

  struct Parts {
    std::string key;
    const TVMFFIAny* data = nullptr;
    bool ready = false;
  };

  Any graph_;  // the immutable copy being decoded (Freeze)
  const SeqBaseObj* nodes_ = nullptr;
  std::vector<Parts> parts_;
  std::vector<Any> decoded_;
  std::vector<uint8_t> state_;
};

}  // namespace

std::string ToJSONGraphString(const AnyView& value, const AnyView& metadata) {
  return GraphWriter().Run(value, metadata);
}

Any ToJSONGraph(const AnyView& value, const AnyView& metadata) {
  std::string text = ToJSONGraphString(value, metadata);
  return json::Parse(text);
}

Any FromJSONGraph(const AnyView& graph) { return GraphReader().Run(graph); }

Any FromJSONGraphString(const std::string& text, const json::ParseOptions& options) {
  Any graph = json::Parse(text, options);
  return FromJSONGraph(graph);
}

namespace {

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ToJSONGraph", [](AnyView value, AnyView metadata) {
  return ToJSONGraph(value, metadata);
});
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ToJSONGraphString", [](AnyView value, AnyView metadata) {
  return String(ToJSONGraphString(value, metadata));
});
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.FromJSONGraph", [](AnyView graph) {
  return FromJSONGraph(graph);
});
// ffi.FromJSONGraphString(text[, max_object_keys]): see json::ParseOptions.
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.FromJSONGraphString", [](PackedArgs args, Any* rv) {
  if (args.size() < 1 || args.size() > 2) {
    TVM_FFI_THROW(TypeError) << "ffi.FromJSONGraphString takes 1 or 2 arguments (text, "
                                "max_object_keys), got "
                             << args.size();
  }
  json::ParseOptions options;
  if (args.size() == 2 && args[1] != nullptr) options.max_object_keys = args[1].cast<int64_t>();
  std::string text = args[0].cast<String>();
  *rv = FromJSONGraphString(text, options);
});

}  // namespace
}  // namespace serialization
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
