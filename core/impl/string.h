// Strings and bytes: ffi.String, ffi.Bytes and the small inline form.
//
// The small form holds at most 7 bytes directly in a TVMFFIAny.
#ifndef TVM_FFI_CORE_IMPL_STRING_H_
#define TVM_FFI_CORE_IMPL_STRING_H_

#include <cstring>
#include <string>
#include <string_view>

#include "any_raw.h"
#include "error.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// layout = { TVMFFIObject, TVMFFIByteArray, char[size + 1] } — the chars are
// inline after the cell and NUL-terminated.
class BytesObjBase : public Object {
 public:
  TVMFFIByteArray cell;

  const char* data() const { return cell.data; }
  size_t size() const { return cell.size; }
  std::string str() const { return std::string(cell.data, cell.size); }

 protected:
  BytesObjBase() = default;
  template <typename T>
  static ObjectPtr<T> MakeInline(const char* data, size_t size);
};

class StringObj : public BytesObjBase {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(StringObj, kTVMFFIStr, "ffi.String")
  static ObjectPtr<StringObj> Make(const char* data, size_t size);
};

class BytesObj : public BytesObjBase {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(BytesObj, kTVMFFIBytes, "ffi.Bytes")
  static ObjectPtr<BytesObj> Make(const char* data, size_t size);
};

template <typename T>
ObjectPtr<T> BytesObjBase::MakeInline(const char* data, size_t size) {
  ObjectPtr<T> obj = MakeObjectWithExtra<T>(size + 1);
  char* chars = reinterpret_cast<char*>(obj.get()) + sizeof(T);
  if (size != 0) std::memcpy(chars, data, size);
  chars[size] = '\0';
  obj->cell.data = chars;
  obj->cell.size = size;
  return obj;
}

// Strings shorter than this live inline in a TVMFFIAny.
constexpr size_t kSmallStrMaxLen = 7;

inline ObjectPtr<StringObj> StringObj::Make(const char* data, size_t size) {
  return MakeInline<StringObj>(data, size);
}
inline ObjectPtr<BytesObj> BytesObj::Make(const char* data, size_t size) {
  return MakeInline<BytesObj>(data, size);
}

// The one decoder of a TVMFFIByteArray handed in through the C ABI: its
// bytes as a view.  ValueError "<what> must not be NULL" for a NULL array and
// "<what> has data NULL but size <n>": NULL data is valid only for size 0.
inline std::string_view ByteArrayView(const TVMFFIByteArray* b, const char* what) {
  if (b == nullptr) TVM_FFI_IMPL_THROW(ValueError) << what << " must not be NULL";
  if (b->data == nullptr) {
    if (b->size != 0) TVM_FFI_IMPL_THROW(ValueError) << what << " has data NULL but size " << b->size;
    return std::string_view();
  }
  return std::string_view(b->data, b->size);
}

// ByteArrayView for its checks only.
inline void CheckByteArray(const TVMFFIByteArray& b, const char* what) {
  (void)ByteArrayView(&b, what);
}

// The text of a byte array, decoded by ByteArrayView.
inline std::string ByteArrayToString(const TVMFFIByteArray& b, const char* what) {
  return std::string(ByteArrayView(&b, what));
}

// Writes an owning value for the bytes: the small form up to 7 bytes, else a
// new heap object.  `out` is overwritten without being released.
inline void MakeStringAny(const char* data, size_t size, bool is_bytes, TVMFFIAny* out) {
  if (size <= kSmallStrMaxLen) {
    uint64_t payload = 0;  // the bytes after the string stay zero
    if (size != 0) std::memcpy(&payload, data, size);
    detail::SetRaw(out, is_bytes ? kTVMFFISmallBytes : kTVMFFISmallStr, payload,
                   static_cast<uint32_t>(size));
    return;
  }
  Object* obj = is_bytes ? static_cast<Object*>(BytesObj::Make(data, size).release())
                         : static_cast<Object*>(StringObj::Make(data, size).release());
  detail::SetRawPtr(out, is_bytes ? kTVMFFIBytes : kTVMFFIStr, &obj->header_);
}

// Reads the bytes of any string-like value (RawStr, ByteArrayPtr, SmallStr,
// SmallBytes, Str, Bytes).  Returns false for other types.  The view is valid
// while `value` is.  A view that came through the C ABI is checked: a NULL
// RawStr or ByteArrayPtr, a byte array with data NULL and a size, or a small
// string claiming more than 7 bytes is a ValueError.
inline bool GetStringView(const TVMFFIAny* value, const char** data, size_t* size,
                          bool* is_bytes) {
  switch (value->type_index) {
    case kTVMFFIRawStr:
      if (value->v_c_str == nullptr) {
        TVM_FFI_IMPL_THROW(ValueError) << "a kTVMFFIRawStr value has a NULL v_c_str";
      }
      *data = value->v_c_str;
      *size = std::strlen(value->v_c_str);
      *is_bytes = false;
      return true;
    case kTVMFFIByteArrayPtr: {
      if (value->v_ptr == nullptr) {
        TVM_FFI_IMPL_THROW(ValueError) << "a kTVMFFIByteArrayPtr value has a NULL v_ptr";
      }
      std::string_view view = ByteArrayView(static_cast<const TVMFFIByteArray*>(value->v_ptr),
                                            "the byte array of a kTVMFFIByteArrayPtr value");
      *data = view.data();
      *size = view.size();
      *is_bytes = true;
      return true;
    }
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      if (value->small_str_len > kSmallStrMaxLen) {
        TVM_FFI_IMPL_THROW(ValueError) << "a "
                                 << (value->type_index == kTVMFFISmallStr ? "kTVMFFISmallStr"
                                                                          : "kTVMFFISmallBytes")
                                 << " value claims " << value->small_str_len
                                 << " bytes (at most " << kSmallStrMaxLen << " fit)";
      }
      *data = value->v_bytes;
      *size = value->small_str_len;
      *is_bytes = value->type_index == kTVMFFISmallBytes;
      return true;
    case kTVMFFIStr:
    case kTVMFFIBytes: {
      if (value->v_obj == nullptr) {
        TVM_FFI_IMPL_THROW(ValueError) << "a " << (value->type_index == kTVMFFIStr ? "str" : "bytes")
                                 << " value has a NULL object pointer";
      }
      const TVMFFIByteArray* b = TVMFFIBytesGetByteArrayPtr(value->v_obj);
      *data = b->data;
      *size = b->size;
      *is_bytes = value->type_index == kTVMFFIBytes;
      return true;
    }
    default:
      return false;
  }
}

// A C++ reference to a String object (never null once constructed from text).
class String : public ObjectRef {
 public:
  using ContainerType = StringObj;
  String() : String("", 0) {}
  String(const char* data, size_t size) : ObjectRef(StringObj::Make(data, size)) {}
  String(const std::string& s) : String(s.data(), s.size()) {}  // NOLINT
  String(const char* s) : String(s, std::strlen(s)) {}          // NOLINT
  explicit String(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  const char* data() const { return obj()->data(); }
  size_t size() const { return obj()->size(); }
  std::string str() const { return obj()->str(); }
  operator std::string() const { return str(); }  // NOLINT
  bool operator==(const String& o) const {
    return size() == o.size() && std::memcmp(data(), o.data(), size()) == 0;
  }

 private:
  const StringObj* obj() const { return static_cast<const StringObj*>(get()); }
};

// A C++ reference to a Bytes object.
class Bytes : public ObjectRef {
 public:
  using ContainerType = BytesObj;
  Bytes() : Bytes("", 0) {}
  Bytes(const char* data, size_t size) : ObjectRef(BytesObj::Make(data, size)) {}
  explicit Bytes(const std::string& s) : Bytes(s.data(), s.size()) {}
  explicit Bytes(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  const char* data() const { return obj()->data(); }
  size_t size() const { return obj()->size(); }
  std::string str() const { return obj()->str(); }

 private:
  const BytesObj* obj() const { return static_cast<const BytesObj*>(get()); }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_STRING_H_
