/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/base64.h
 * \brief Base64Encode / Base64Decode: the standard alphabet of RFC 4648
 *        (`A-Z a-z 0-9 + /`) with `=` padding, header-only.
 *
 * Encoding always pads to a multiple of four characters.  Decoding takes
 * exactly that form: an empty input gives empty bytes; a length that is not
 * a multiple of four is an InternalError ("invalid base64 encoding", as a
 * failed check); a character outside the alphabet, or `=` anywhere but at
 * the end, is a ValueError naming the character and its position.
 */
#ifndef TVM_FFI_EXTRA_BASE64_H_
#define TVM_FFI_EXTRA_BASE64_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace tvm {
namespace ffi {
namespace detail {

/*! \brief The character of a 6-bit value. */
TVM_FFI_INLINE char Base64Digit(uint32_t six_bits) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  return kAlphabet[six_bits & 63u];
}

/*! \brief The 6-bit value of a character, or -1 when it is not in the alphabet. */
TVM_FFI_INLINE int Base64Value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/*! \brief "'c' (0x63)" for a printable byte, "0x0a" otherwise: for error messages. */
inline std::string Base64DescribeByte(unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex = {'0', 'x', kHex[c >> 4], kHex[c & 15]};
  if (c < 0x20 || c > 0x7e) return hex;
  return std::string("'") + static_cast<char>(c) + "' (" + hex + ")";
}

}  // namespace detail

/*!
 * \brief Encodes bytes as base64 text.
 * \param bytes The bytes (any content, may be empty).
 * \return The text, `4 * ceil(size / 3)` characters.
 */
inline String Base64Encode(TVMFFIByteArray bytes) {
  const unsigned char* in = reinterpret_cast<const unsigned char*>(bytes.data);
  std::string out;
  out.reserve((bytes.size + 2) / 3 * 4);
  size_t i = 0;
  // Whole groups of three bytes: 24 bits, four digits.
  for (; i + 3 <= bytes.size; i += 3) {
    uint32_t group = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | uint32_t{in[i + 2]};
    out.push_back(detail::Base64Digit(group >> 18));
    out.push_back(detail::Base64Digit(group >> 12));
    out.push_back(detail::Base64Digit(group >> 6));
    out.push_back(detail::Base64Digit(group));
  }
  // One or two bytes left: two or three digits, then padding.
  size_t rest = bytes.size - i;
  if (rest != 0) {
    uint32_t group = uint32_t{in[i]} << 16;
    if (rest == 2) group |= uint32_t{in[i + 1]} << 8;
    out.push_back(detail::Base64Digit(group >> 18));
    out.push_back(detail::Base64Digit(group >> 12));
    out.push_back(rest == 2 ? detail::Base64Digit(group >> 6) : '=');
    out.push_back('=');
  }
  return String(std::move(out));
}

/*! \brief Base64Encode of the content of `data`. */
inline String Base64Encode(const Bytes& data) {
  return Base64Encode(TVMFFIByteArray{data.data(), data.size()});
}

/*!
 * \brief Decodes base64 text (with its padding) back to bytes.
 * \param bytes The text.
 * \return The decoded bytes.
 * \throws Error InternalError when the length is not a multiple of four,
 *         ValueError for a character that is not base64.
 */
inline Bytes Base64Decode(TVMFFIByteArray bytes) {
  if (bytes.size == 0) return Bytes();
  TVM_FFI_ICHECK_EQ(bytes.size % 4, 0) << "invalid base64 encoding";
  const unsigned char* in = reinterpret_cast<const unsigned char*>(bytes.data);
  std::string out;
  out.reserve(bytes.size / 4 * 3);
  for (size_t i = 0; i < bytes.size; i += 4) {
    bool last = i + 4 == bytes.size;
    // Padding: at most the last two characters of the last group.
    int pad = 0;
    if (last && in[i + 3] == '=') pad = in[i + 2] == '=' ? 2 : 1;
    uint32_t group = 0;
    for (int k = 0; k < 4; ++k) {
      int v = k < 4 - pad ? detail::Base64Value(in[i + k]) : 0;
      if (v < 0) {
        TVM_FFI_THROW(ValueError) << "invalid base64 character "
                                  << detail::Base64DescribeByte(in[i + k]) << " at position "
                                  << (i + k);
      }
      group = (group << 6) | static_cast<uint32_t>(v);
    }
    out.push_back(static_cast<char>((group >> 16) & 0xFF));
    if (pad < 2) out.push_back(static_cast<char>((group >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(group & 0xFF));
  }
  return Bytes(std::move(out));
}

/*! \brief Base64Decode of the characters of `data`. */
inline Bytes Base64Decode(const String& data) {
  return Base64Decode(TVMFFIByteArray{data.data(), data.size()});
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_BASE64_H_
