/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/string.h
 * \brief String and Bytes: immutable byte strings with the value's own
 *        small-string form, and their conversions to and from TVMFFIAny.
 *
 * Layout (C++ ABI): String = Bytes = { TVMFFIAny data_ }, 16 bytes, holding
 * exactly what an Any holding the value holds:
 *   - up to 7 bytes: kTVMFFISmallStr / kTVMFFISmallBytes, the bytes in the
 *     payload, small_str_len their count, a NUL after them;
 *   - longer: kTVMFFIStr / kTVMFFIBytes, a reference to an ffi.String /
 *     ffi.Bytes object whose TVMFFIByteArray cell points at NUL-terminated
 *     bytes (usually stored right after the cell, in the same allocation).
 * Passing a String to a function or storing it in an Any is a copy of the
 * 16 bytes (plus one reference for the long form).
 */
#ifndef TVM_FFI_STRING_H_
#define TVM_FFI_STRING_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace detail {

/*!
 * \brief Common base of the two string objects: the object header followed
 *        by a TVMFFIByteArray cell {data, size} describing the bytes.
 */
class BytesObjBase : public Object, public TVMFFIByteArray {};

/*! \brief The ffi.String object (text). */
class StringObj : public BytesObjBase {
 public:
  static const constexpr bool _type_final = true;
  static constexpr const uint32_t _type_index = TypeIndex::kTVMFFIStr;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIStr, StringObj, Object);
};

/*! \brief The ffi.Bytes object (raw bytes). */
class BytesObj : public BytesObjBase {
 public:
  static const constexpr bool _type_final = true;
  static constexpr const uint32_t _type_index = TypeIndex::kTVMFFIBytes;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIBytes, BytesObj, Object);
};

/*!
 * \brief A StringObj or BytesObj (Base) whose cell points into a std::string
 *        member, so that a moved-in std::string is adopted without a copy.
 */
template <typename Base>
class BytesObjStdImpl : public Base {
 public:
  explicit BytesObjStdImpl(std::string other) : data_{std::move(other)} {
    this->size = data_.size();
    this->data = data_.c_str();
  }

 private:
  std::string data_;
};

/*!
 * \brief The storage of String and Bytes: one owning TVMFFIAny holding a
 *        small string, a string object, or None (only for an Optional's
 *        "no value").
 */
class BytesBaseCell {
 public:
  /*! \brief Longest value kept in the payload; one byte is left for the NUL. */
  static constexpr size_t kMaxSmallBytesLen = sizeof(int64_t) - 1;

  BytesBaseCell() { Clear(&data_); }
  explicit BytesBaseCell(std::nullopt_t) { Clear(&data_); }
  BytesBaseCell(const BytesBaseCell& other) : data_(other.data_) { Retain(); }  // NOLINT(*)
  BytesBaseCell(BytesBaseCell&& other) : data_(other.data_) { Clear(&other.data_); }  // NOLINT(*)
  BytesBaseCell& operator=(const BytesBaseCell& other) {
    BytesBaseCell copy(other);
    swap(copy);
    return *this;
  }
  BytesBaseCell& operator=(BytesBaseCell&& other) noexcept {
    BytesBaseCell taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~BytesBaseCell() {
    if (IsObject()) ObjectUnsafe::DecRefObjectHandle(data_.v_obj);
  }

  /*! \brief None means "no value" (an empty Optional<String>). */
  bool operator==(std::nullopt_t) const { return data_.type_index == TypeIndex::kTVMFFINone; }
  bool operator!=(std::nullopt_t) const { return data_.type_index != TypeIndex::kTVMFFINone; }
  void swap(BytesBaseCell& other) { std::swap(data_, other.data_); }  // NOLINT(*)

  /*! \brief The bytes (NUL-terminated). */
  const char* data() const noexcept {
    return IsObject() ? TVMFFIBytesGetByteArrayPtr(data_.v_obj)->data : data_.v_bytes;
  }
  /*! \brief Their count, without the NUL. */
  size_t size() const noexcept {
    return IsObject() ? TVMFFIBytesGetByteArrayPtr(data_.v_obj)->size : data_.small_str_len;
  }

  /*! \brief Adopts a std::string's buffer in a new LargeObj (no copy of the bytes). */
  template <typename LargeObj>
  void InitFromStd(std::string&& other, int32_t large_type_index) {
    ObjectPtr<LargeObj> obj = make_object<BytesObjStdImpl<LargeObj>>(std::move(other));
    SetObject(ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj)), large_type_index);
  }

  /*!
   * \brief Makes room for `size` bytes plus a NUL: in the payload when it
   *        fits, else in a new LargeObj with the bytes after its cell.
   * \return Where the caller writes the bytes and the NUL.
   */
  template <typename LargeObj>
  char* InitSpaceForSize(size_t size, int32_t small_type_index, int32_t large_type_index) {
    if (size <= kMaxSmallBytesLen) {
      Clear(&data_);
      data_.type_index = small_type_index;
      data_.small_str_len = static_cast<uint32_t>(size);
      return data_.v_bytes;
    }
    ObjectPtr<LargeObj> obj = make_inplace_array_object<LargeObj, char>(size + 1);
    char* bytes = reinterpret_cast<char*>(obj.get()) + sizeof(LargeObj);
    obj->data = bytes;
    obj->size = size;
    SetObject(ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj)), large_type_index);
    return bytes;
  }

  /*! \brief Sets the type index of an empty value (the empty small forms). */
  void InitTypeIndex(int32_t type_index) { data_.type_index = type_index; }

  /*! \brief Moves the value into `result` (an owning Any); this cell becomes None. */
  void MoveToAny(TVMFFIAny* result) {
    *result = data_;
    Clear(&data_);
  }
  /*! \brief The value as a view (no reference taken). */
  TVMFFIAny CopyToTVMFFIAny() const { return data_; }
  /*! \brief A new cell holding the value of the view `src` (a reference is taken). */
  static BytesBaseCell CopyFromAnyView(const TVMFFIAny* src) {
    BytesBaseCell cell(*src);
    cell.Retain();
    return cell;
  }
  /*! \brief A new cell taking the value of the owning `src`, which becomes None. */
  static BytesBaseCell MoveFromAny(TVMFFIAny* src) {
    BytesBaseCell cell(*src);
    Clear(src);
    return cell;
  }

 private:
  explicit BytesBaseCell(TVMFFIAny data) : data_(data) {}

  static void Clear(TVMFFIAny* value) {
    value->type_index = TypeIndex::kTVMFFINone;
    value->zero_padding = 0;
    value->v_int64 = 0;
  }
  bool IsObject() const { return data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin; }
  void Retain() {
    if (IsObject()) ObjectUnsafe::IncRefObjectHandle(data_.v_obj);
  }
  void SetObject(TVMFFIObject* obj, int32_t type_index) {
    if (IsObject()) ObjectUnsafe::DecRefObjectHandle(data_.v_obj);
    Clear(&data_);
    data_.v_obj = obj;
    data_.type_index = type_index;
  }

  TVMFFIAny data_;
};

template <typename T, int32_t kSmallIndex, int32_t kObjectIndex>
struct StringLikeTraitsBase;

/*! \brief Writes `size` bytes and a NUL at `dest`. */
inline void CopyBytesWithNul(char* dest, const char* src, size_t size) {
  if (size != 0) std::memcpy(dest, src, size);
  dest[size] = '\0';
}

}  // namespace detail

/*! \brief An immutable byte string (Python `bytes`); may contain NUL bytes. */
class Bytes {
 public:
  /*! \brief Empty bytes. */
  Bytes() { data_.InitTypeIndex(TypeIndex::kTVMFFISmallBytes); }
  /*! \brief A copy of `size` bytes at `data`. */
  Bytes(const char* data, size_t size) { InitData(data, size); }
  Bytes(TVMFFIByteArray bytes) { InitData(bytes.data, bytes.size); }      // NOLINT(*)
  Bytes(const std::string& other) { InitData(other.data(), other.size()); }  // NOLINT(*)
  /*! \brief Takes over the std::string's buffer (no copy for long values). */
  Bytes(std::string&& other) {  // NOLINT(*)
    data_.InitFromStd<detail::BytesObj>(std::move(other), TypeIndex::kTVMFFIBytes);
  }

  void swap(Bytes& other) { std::swap(data_, other.data_); }  // NOLINT(*)
  template <typename T>
  Bytes& operator=(T&& other) {
    Bytes replacement(std::forward<T>(other));
    swap(replacement);
    return *this;
  }

  size_t size() const { return data_.size(); }
  /*! \brief The bytes, followed by a NUL. */
  const char* data() const { return data_.data(); }
  operator std::string() const { return std::string(data(), size()); }  // NOLINT(*)

  /*!
   * \brief Three-way comparison of two byte runs, byte by byte as `char`,
   *        a proper prefix ordering first: -1, 0 or 1.
   */
  static int memncmp(const char* lhs, const char* rhs, size_t lhs_count, size_t rhs_count) {
    if (lhs != rhs) {
      size_t common = std::min(lhs_count, rhs_count);
      for (size_t i = 0; i < common; ++i) {
        if (lhs[i] != rhs[i]) return lhs[i] < rhs[i] ? -1 : 1;
      }
    }
    if (lhs_count == rhs_count) return 0;
    return lhs_count < rhs_count ? -1 : 1;
  }
  /*! \brief True when the two byte runs are equal. */
  static bool memequal(const void* lhs, const void* rhs, size_t lhs_count, size_t rhs_count) {
    if (lhs_count != rhs_count) return false;
    return lhs == rhs || lhs_count == 0 || std::memcmp(lhs, rhs, lhs_count) == 0;
  }

 private:
  template <typename, typename>
  friend struct TypeTraits;
  template <typename, typename>
  friend class Optional;
  template <typename, int32_t, int32_t>
  friend struct detail::StringLikeTraitsBase;

  detail::BytesBaseCell data_;

  explicit Bytes(detail::BytesBaseCell data) : data_(std::move(data)) {}
  char* InitSpaceForSize(size_t size) {
    return data_.InitSpaceForSize<detail::BytesObj>(size, TypeIndex::kTVMFFISmallBytes,
                                                    TypeIndex::kTVMFFIBytes);
  }
  void InitData(const char* data, size_t size) {
    detail::CopyBytesWithNul(InitSpaceForSize(size), data, size);
  }
};

/*!
 * \brief An immutable string (Python `str`, UTF-8 by convention, not checked).
 *
 * Compares by value with String, std::string and const char*.  c_str() is
 * always NUL-terminated.  Never null: Optional<String> is the nullable form.
 */
class String {
 public:
  String(std::nullptr_t) = delete;  // NOLINT(*)
  /*! \brief The empty string. */
  String() { data_.InitTypeIndex(TypeIndex::kTVMFFISmallStr); }
  String(const String& other) = default;             // NOLINT(*)
  String(String&& other) = default;                  // NOLINT(*)
  String& operator=(const String& other) = default;  // NOLINT(*)
  String& operator=(String&& other) = default;       // NOLINT(*)
  void swap(String& other) noexcept { std::swap(data_, other.data_); }  // NOLINT(*)

  String& operator=(const std::string& other) { return Assign(String(other)); }
  String& operator=(std::string&& other) { return Assign(String(std::move(other))); }
  String& operator=(const char* other) { return Assign(String(other)); }

  /*! \brief A copy of `size` bytes at `data`. */
  String(const char* data, size_t size) { InitData(data, size); }
  /*! \brief A copy of the NUL-terminated `other`. */
  String(const char* other) { InitData(other, std::char_traits<char>::length(other)); }  // NOLINT
  String(const std::string& other) { InitData(other.data(), other.size()); }  // NOLINT(*)
  /*! \brief Takes over the std::string's buffer (no copy for long values). */
  String(std::string&& other) {  // NOLINT(*)
    data_.InitFromStd<detail::StringObj>(std::move(other), TypeIndex::kTVMFFIStr);
  }
  explicit String(TVMFFIByteArray other) { InitData(other.data, other.size); }

  const char* data() const noexcept { return data_.data(); }
  const char* c_str() const noexcept { return data(); }
  size_t size() const noexcept { return data_.size(); }
  size_t length() const { return size(); }
  bool empty() const { return size() == 0; }

  /*! \brief Three-way comparison (-1, 0, 1), byte by byte. */
  int compare(const String& other) const {
    return Bytes::memncmp(data(), other.data(), size(), other.size());
  }
  int compare(const std::string& other) const {
    return Bytes::memncmp(data(), other.data(), size(), other.size());
  }
  /*! \brief Against a NUL-terminated string (read only as far as needed). */
  int compare(const char* other) const {
    const char* mine = data();
    size_t n = size();
    for (size_t i = 0; i < n; ++i) {
      if (other[i] == '\0') return 1;
      if (mine[i] != other[i]) return mine[i] < other[i] ? -1 : 1;
    }
    return other[n] == '\0' ? 0 : -1;
  }
  int compare(const TVMFFIByteArray& other) const {
    return Bytes::memncmp(data(), other.data, size(), other.size);
  }

  /*! \brief The byte at `pos`. \throws std::out_of_range past the end. */
  char at(size_t pos) const {
    if (pos >= size()) throw std::out_of_range("tvm::String index out of bounds");
    return data()[pos];
  }

  static constexpr size_t npos = static_cast<size_t>(-1);
  /*! \brief Position of the first occurrence at or after `pos`, or npos. */
  size_t find(const String& str, size_t pos = 0) const { return find(str.data(), pos, str.size()); }
  size_t find(const char* str, size_t pos = 0) const { return find(str, pos, std::strlen(str)); }
  size_t find(const char* str, size_t pos, size_t count) const {
    return view().find(std::string_view(str, count), pos);
  }
  /*! \brief Up to `count` bytes from `pos`. \throws std::out_of_range if pos > size(). */
  String substr(size_t pos = 0, size_t count = npos) const {
    if (pos > size()) throw std::out_of_range("tvm::String substr index out of bounds");
    return String(data() + pos, std::min(count, size() - pos));
  }

  bool starts_with(const String& prefix) const { return starts_with(prefix.data(), prefix.size()); }
  bool starts_with(std::string_view prefix) const {
    return starts_with(prefix.data(), prefix.size());
  }
  bool starts_with(const char* prefix) const { return starts_with(prefix, std::strlen(prefix)); }
  bool starts_with(const char* prefix, size_t count) const {
    return count <= size() && view().substr(0, count) == std::string_view(prefix, count);
  }
  bool ends_with(const String& suffix) const { return ends_with(suffix.data(), suffix.size()); }
  bool ends_with(std::string_view suffix) const { return ends_with(suffix.data(), suffix.size()); }
  bool ends_with(const char* suffix) const { return ends_with(suffix, std::strlen(suffix)); }
  bool ends_with(const char* suffix, size_t count) const {
    return count <= size() && view().substr(size() - count) == std::string_view(suffix, count);
  }

  operator std::string() const { return std::string(data(), size()); }  // NOLINT(*)

  /*!
   * \brief The pieces between occurrences of `delim`: "a,,b" gives
   *        {"a", "", "b"}, "" gives {""}.
   * \note The pieces are views into this String object (a short string keeps
   *       its bytes inside the object): valid while it lives, unmoved.
   */
  std::vector<std::string_view> Split(char delim) const {
    std::vector<std::string_view> pieces;
    std::string_view rest = view();
    for (size_t cut = rest.find(delim); cut != std::string_view::npos; cut = rest.find(delim)) {
      pieces.push_back(rest.substr(0, cut));
      rest.remove_prefix(cut + 1);
    }
    pieces.push_back(rest);
    return pieces;
  }

 private:
  template <typename, typename>
  friend struct TypeTraits;
  template <typename, typename>
  friend class Optional;
  template <typename, int32_t, int32_t>
  friend struct detail::StringLikeTraitsBase;

  detail::BytesBaseCell data_;

  explicit String(detail::BytesBaseCell data) : data_(std::move(data)) {}
  std::string_view view() const { return std::string_view(data(), size()); }
  String& Assign(String&& other) {
    swap(other);
    return *this;
  }
  char* InitSpaceForSize(size_t size) {
    return data_.InitSpaceForSize<detail::StringObj>(size, TypeIndex::kTVMFFISmallStr,
                                                     TypeIndex::kTVMFFIStr);
  }
  void InitData(const char* data, size_t size) {
    detail::CopyBytesWithNul(InitSpaceForSize(size), data, size);
  }
  /*! \brief lhs followed by rhs, in one allocation. */
  static String Concat(const char* lhs, size_t lhs_size, const char* rhs, size_t rhs_size) {
    String joined;
    char* dest = joined.InitSpaceForSize(lhs_size + rhs_size);
    if (lhs_size != 0) std::memcpy(dest, lhs, lhs_size);
    detail::CopyBytesWithNul(dest + lhs_size, rhs, rhs_size);
    return joined;
  }

  friend String operator+(const String& lhs, const String& rhs);
  friend String operator+(const String& lhs, const std::string& rhs);
  friend String operator+(const std::string& lhs, const String& rhs);
  friend String operator+(const String& lhs, const char* rhs);
  friend String operator+(const char* lhs, const String& rhs);
};

/*!
 * \brief `value` as a JSON string literal, quotes included: ", \ and / are
 *        escaped with a backslash, \b \f \n \r \t by name, other bytes below
 *        0x20 and 0x7f as \u00XX; all other bytes (UTF-8 included) unchanged.
 */
inline String EscapeStringJSON(const String& value) {
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value.data()[i];
    const unsigned char byte = static_cast<unsigned char>(c);
    const char* named = nullptr;
    switch (c) {
      case '"': named = "\\\""; break;
      case '\\': named = "\\\\"; break;
      case '/': named = "\\/"; break;
      case '\b': named = "\\b"; break;
      case '\f': named = "\\f"; break;
      case '\n': named = "\\n"; break;
      case '\r': named = "\\r"; break;
      case '\t': named = "\\t"; break;
      default: break;
    }
    if (named != nullptr) {
      out += named;
    } else if (byte < 0x20 || byte == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof(code), "\\u%04x", static_cast<unsigned>(byte));
      out += code;
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return String(std::move(out));
}

/*! \brief Older name of EscapeStringJSON. */
[[deprecated("Use EscapeStringJSON instead")]] inline String EscapeString(const String& value) {
  return EscapeStringJSON(value);
}

namespace detail {
/*! \brief Appends `prefix` and `value` in lowercase hex, zero-padded to `digits`. */
inline void AppendHexEscape(std::string* out, const char* prefix, uint32_t value, int digits) {
  char code[16];
  std::snprintf(code, sizeof(code), "%s%0*x", prefix, digits, value);
  *out += code;
}
/*! \brief True when `byte` is a UTF-8 continuation byte (10xxxxxx). */
inline bool IsUtf8Continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }
}  // namespace detail

/*!
 * \brief `value` as a double-quoted Python string literal (for printing):
 *   - \n \t \r \\ \" are escaped by name;
 *   - a terminal colour sequence ESC [ <digits and ;> m (or K) is kept
 *     readable as \x1b[...m;
 *   - other ASCII control bytes and 0x7f become \xHH;
 *   - a well-formed 2- or 3-byte UTF-8 sequence becomes \uXXXX, a 4-byte
 *     one \UXXXXXXXX; a byte that starts no well-formed sequence becomes \xHH.
 */
inline String EscapedStringPy(const String& value) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(value.data());
  const size_t n = value.size();
  std::string out;
  out.reserve(n + 2);
  out.push_back('"');
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c == 0x1b && i + 1 < n && s[i + 1] == '[') {
      size_t end = i + 2;
      while (end < n && ((s[end] >= '0' && s[end] <= '9') || s[end] == ';')) ++end;
      if (end < n && (s[end] == 'm' || s[end] == 'K')) {
        out += "\\x1b";
        out.append(reinterpret_cast<const char*>(s + i + 1), end - i);
        i = end + 1;
        continue;
      }
    }
    const char* named = nullptr;
    switch (c) {
      case '\n': named = "\\n"; break;
      case '\t': named = "\\t"; break;
      case '\r': named = "\\r"; break;
      case '\\': named = "\\\\"; break;
      case '"': named = "\\\""; break;
      default: break;
    }
    if (named != nullptr) {
      out += named;
      ++i;
      continue;
    }
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) {
        detail::AppendHexEscape(&out, "\\x", c, 2);
      } else {
        out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    // The length a lead byte announces (0: not a lead byte), then the check
    // that the sequence is complete and well formed.
    size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    bool whole = len != 0 && i + len <= n;
    for (size_t k = 1; whole && k < len; ++k) whole = detail::IsUtf8Continuation(s[i + k]);
    if (!whole) {
      detail::AppendHexEscape(&out, "\\x", c, 2);
      ++i;
      continue;
    }
    uint32_t code = c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) code = (code << 6) | (s[i + k] & 0x3F);
    if (len == 4) {
      detail::AppendHexEscape(&out, "\\U", code, 8);
    } else {
      detail::AppendHexEscape(&out, "\\u", code, 4);
    }
    i += len;
  }
  out.push_back('"');
  return String(std::move(out));
}

/*! \brief A byte array as a std::string_view. */
TVM_FFI_INLINE std::string_view ToStringView(TVMFFIByteArray str) {
  return std::string_view(str.data, str.size);
}

namespace detail {
/*!
 * \brief Traits shared by String and Bytes: stored as the small or the
 *        object form; `kBorrowedIndex` (raw C string / byte array pointer)
 *        also converts, by copy.
 */
template <typename T, int32_t kSmallIndex, int32_t kObjectIndex>
struct StringLikeTraitsBase : public TypeTraitsBase {
  /*! \brief kTVMFFIAny: a field of this type may hold the small or the object form. */
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  TVM_FFI_INLINE static void CopyToAnyView(const T& src, TVMFFIAny* result) {
    *result = src.data_.CopyToTVMFFIAny();
  }
  TVM_FFI_INLINE static void MoveToAny(T src, TVMFFIAny* result) { src.data_.MoveToAny(result); }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kSmallIndex || src->type_index == kObjectIndex;
  }
  TVM_FFI_INLINE static T CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return T(BytesBaseCell::CopyFromAnyView(src));
  }
  TVM_FFI_INLINE static T MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return T(BytesBaseCell::MoveFromAny(src));
  }
};
}  // namespace detail

template <>
inline constexpr bool use_default_type_traits_v<Bytes> = false;

/*! \brief Bytes: ffi.SmallBytes / ffi.Bytes; a TVMFFIByteArray* argument converts by copy. */
template <>
struct TypeTraits<Bytes> : public detail::StringLikeTraitsBase<Bytes, TypeIndex::kTVMFFISmallBytes,
                                                               TypeIndex::kTVMFFIBytes> {
  TVM_FFI_INLINE static std::optional<Bytes> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIByteArrayPtr) {
      return Bytes(*static_cast<const TVMFFIByteArray*>(src->v_ptr));
    }
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return "bytes"; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(StaticTypeKey::kTVMFFIBytes);
  }
};

template <>
inline constexpr bool use_default_type_traits_v<String> = false;

/*! \brief String: ffi.SmallStr / ffi.String; a raw C string argument converts by copy. */
template <>
struct TypeTraits<String> : public detail::StringLikeTraitsBase<String, TypeIndex::kTVMFFISmallStr,
                                                                TypeIndex::kTVMFFIStr> {
  TVM_FFI_INLINE static std::optional<String> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIRawStr) return String(src->v_c_str);
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return "str"; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(StaticTypeKey::kTVMFFIStr);
  }
};

/*!
 * \brief A string literal: passed as a view (kTVMFFIRawStr, no copy); stored
 *        as a String.
 */
template <int N>
struct TypeTraits<char[N]> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  TVM_FFI_INLINE static void CopyToAnyView(const char src[N], TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIRawStr);
    result->v_c_str = src;
  }
  TVM_FFI_INLINE static void MoveToAny(const char src[N], TVMFFIAny* result) {
    TypeTraits<String>::MoveToAny(String(src), result);
  }
};

/*! \brief const char*: a view (must not be null); stored as a String. */
template <>
struct TypeTraits<const char*> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  TVM_FFI_INLINE static void CopyToAnyView(const char* src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIRawStr);
    result->v_c_str = TVM_FFI_ICHECK_NOTNULL(src);
  }
  TVM_FFI_INLINE static void MoveToAny(const char* src, TVMFFIAny* result) {
    TypeTraits<String>::MoveToAny(String(src), result);
  }
  TVM_FFI_INLINE static std::optional<const char*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIRawStr) return std::nullopt;
    return src->v_c_str;
  }
  TVM_FFI_INLINE static std::string TypeStr() { return StaticTypeKey::kTVMFFIRawStr; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(StaticTypeKey::kTVMFFIRawStr);
  }
};

/*! \brief TVMFFIByteArray*: a view (must not be null); stored as Bytes. */
template <>
struct TypeTraits<TVMFFIByteArray*> : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIByteArrayPtr;
  static constexpr bool storage_enabled = false;
  TVM_FFI_INLINE static void CopyToAnyView(TVMFFIByteArray* src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIByteArrayPtr);
    result->v_ptr = TVM_FFI_ICHECK_NOTNULL(src);
  }
  TVM_FFI_INLINE static void MoveToAny(TVMFFIByteArray* src, TVMFFIAny* result) {
    TypeTraits<Bytes>::MoveToAny(Bytes(*src), result);
  }
  TVM_FFI_INLINE static std::optional<TVMFFIByteArray*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIByteArrayPtr) return std::nullopt;
    return static_cast<TVMFFIByteArray*>(src->v_ptr);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return StaticTypeKey::kTVMFFIByteArrayPtr; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(StaticTypeKey::kTVMFFIByteArrayPtr);
  }
};

template <>
inline constexpr bool use_default_type_traits_v<std::string> = false;

/*!
 * \brief std::string: passed as a view of its c_str() (no copy), stored as a
 *        String; read back from a raw C string, a byte array, Bytes or String.
 */
template <>
struct TypeTraits<std::string>
    : public FallbackOnlyTraitsBase<std::string, const char*, TVMFFIByteArray*, Bytes, String> {
  TVM_FFI_INLINE static void CopyToAnyView(const std::string& src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIRawStr);
    result->v_c_str = src.c_str();
  }
  TVM_FFI_INLINE static void MoveToAny(std::string src, TVMFFIAny* result) {
    TypeTraits<String>::MoveToAny(String(std::move(src)), result);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return "std::string"; }
  TVM_FFI_INLINE static std::string TypeSchema() { return detail::PlainTypeSchema("std::string"); }
  TVM_FFI_INLINE static std::string ConvertFallbackValue(const char* src) { return src; }
  TVM_FFI_INLINE static std::string ConvertFallbackValue(TVMFFIByteArray* src) {
    return std::string(src->data, src->size);
  }
  TVM_FFI_INLINE static std::string ConvertFallbackValue(Bytes src) { return src; }
  TVM_FFI_INLINE static std::string ConvertFallbackValue(String src) { return src; }
};

inline String operator+(const String& lhs, const String& rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs.data(), rhs.size());
}
inline String operator+(const String& lhs, const std::string& rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs.data(), rhs.size());
}
inline String operator+(const std::string& lhs, const String& rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs.data(), rhs.size());
}
inline String operator+(const char* lhs, const String& rhs) {
  return String::Concat(lhs, std::strlen(lhs), rhs.data(), rhs.size());
}
inline String operator+(const String& lhs, const char* rhs) {
  return String::Concat(lhs.data(), lhs.size(), rhs, std::strlen(rhs));
}

/*
 * Comparisons of String with String, std::string and const char*, in both
 * orders, by compare(); comparing with nullptr does not compile.
 */
#define TVM_FFI_STRING_COMPARE_OP_(op)                                                     \
  inline bool operator op(std::nullptr_t, const String&) = delete;                         \
  inline bool operator op(const String&, std::nullptr_t) = delete;                         \
  inline bool operator op(const String& lhs, const String& rhs) {                          \
    return lhs.compare(rhs) op 0;                                                          \
  }                                                                                        \
  inline bool operator op(const String& lhs, const std::string& rhs) {                     \
    return lhs.compare(rhs) op 0;                                                          \
  }                                                                                        \
  inline bool operator op(const std::string& lhs, const String& rhs) {                     \
    return 0 op rhs.compare(lhs);                                                          \
  }                                                                                        \
  inline bool operator op(const String& lhs, const char* rhs) { return lhs.compare(rhs) op 0; } \
  inline bool operator op(const char* lhs, const String& rhs) { return 0 op rhs.compare(lhs); }
TVM_FFI_STRING_COMPARE_OP_(<)
TVM_FFI_STRING_COMPARE_OP_(>)
TVM_FFI_STRING_COMPARE_OP_(<=)
TVM_FFI_STRING_COMPARE_OP_(>=)
TVM_FFI_STRING_COMPARE_OP_(==)
TVM_FFI_STRING_COMPARE_OP_(!=)
#undef TVM_FFI_STRING_COMPARE_OP_

inline std::ostream& operator<<(std::ostream& out, const String& input) {
  return out.write(input.data(), static_cast<std::streamsize>(input.size()));
}

}  // namespace ffi
}  // namespace tvm

namespace std {
/*! \brief String and Bytes hash their bytes, as std::string_view does. */
template <>
struct hash<::tvm::ffi::String> {
  std::size_t operator()(const ::tvm::ffi::String& value) const {
    return std::hash<std::string_view>{}(std::string_view(value.data(), value.size()));
  }
};
template <>
struct hash<::tvm::ffi::Bytes> {
  std::size_t operator()(const ::tvm::ffi::Bytes& value) const {
    return std::hash<std::string_view>{}(std::string_view(value.data(), value.size()));
  }
};
}  // namespace std

#endif  // TVM_FFI_STRING_H_
