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
#include "../string_internal.h"

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

// The objects are made by core/string.cc (same layout: the chars follow
// the cell, NUL-terminated); the helpers below forward there.
using core::kSmallStrMaxLen;

inline ObjectPtr<StringObj> StringObj::Make(const char* data, size_t size) {
  return ObjectPtr<StringObj>::AdoptHandle(core::MakeStringObject(data, size));
}
inline ObjectPtr<BytesObj> BytesObj::Make(const char* data, size_t size) {
  return ObjectPtr<BytesObj>::AdoptHandle(core::MakeBytesObject(data, size));
}

using core::ByteArrayToString;
using core::ByteArrayView;
using core::GetStringView;
using core::MakeStringAny;

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
