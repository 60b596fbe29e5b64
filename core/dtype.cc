// Data types: the dtype name grammar, both ways.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dtype_internal.h"
#include "error_internal.h"
#include "object_internal.h"
#include "string_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace dtype {
namespace {

// A narrow float family: spellings of its prefix and its variants.  Variants
// sharing a prefix are listed longest first so that the longest one matches.
struct Variant {
  const char* name;
  uint8_t code;
};
struct NarrowFamily {
  const char* canonical_prefix;
  const char* prefixes[3];
  uint8_t bits;
  const Variant* variants;
  size_t num_variants;
};

constexpr Variant kFloat8Variants[] = {
    {"e4m3b11fnuz", kDLFloat8_e4m3b11fnuz}, {"e4m3fnuz", kDLFloat8_e4m3fnuz},
    {"e4m3fn", kDLFloat8_e4m3fn},           {"e5m2fnuz", kDLFloat8_e5m2fnuz},
    {"e8m0fnu", kDLFloat8_e8m0fnu},         {"e3m4", kDLFloat8_e3m4},
    {"e4m3", kDLFloat8_e4m3},               {"e5m2", kDLFloat8_e5m2}};
constexpr Variant kFloat6Variants[] = {{"e2m3fn", kDLFloat6_e2m3fn},
                                       {"e3m2fn", kDLFloat6_e3m2fn}};
constexpr Variant kFloat4Variants[] = {{"e2m1fn", kDLFloat4_e2m1fn}};

constexpr NarrowFamily kNarrowFamilies[] = {
    {"float8_", {"float8_", "fp8_", "f8_"}, 8, kFloat8Variants, 8},
    {"float6_", {"float6_", "fp6_", "f6_"}, 6, kFloat6Variants, 2},
    {"float4_", {"float4_", "fp4_", "f4_"}, 4, kFloat4Variants, 1}};

// Ordinary prefixes, tried in order (a longer spelling before its prefix).
struct Prefix {
  const char* text;
  uint8_t code;
  uint8_t default_bits;
  bool needs_bits;  // the short forms i8, u16, f32, bf16
};
constexpr Prefix kPrefixes[] = {
    {"bfloat", kDLBfloat, 16, false}, {"float", kDLFloat, 32, false},
    {"handle", kDLOpaqueHandle, 64, false}, {"uint", kDLUInt, 32, false},
    {"bool", kDLBool, 8, false},      {"int", kDLInt, 32, false},
    {"bf", kDLBfloat, 16, true},      {"i", kDLInt, 32, true},
    {"u", kDLUInt, 32, true},         {"f", kDLFloat, 32, true}};

const char* CodeName(uint8_t code) {
  switch (code) {
    case kDLInt:
      return "int";
    case kDLUInt:
      return "uint";
    case kDLFloat:
      return "float";
    case kDLBfloat:
      return "bfloat";
    case kDLBool:
      return "bool";
    default:
      return nullptr;
  }
}

bool ConsumePrefix(std::string_view* s, std::string_view prefix) {
  if (s->substr(0, prefix.size()) != prefix) return false;
  s->remove_prefix(prefix.size());
  return true;
}

// Consumes leading decimal digits; nullopt when there are none.  Values past
// 10^6 saturate there (every caller rejects them, without echoing the value).
std::optional<uint32_t> ConsumeDecimal(std::string_view* s) {
  size_t n = 0;
  uint32_t value = 0;
  while (n < s->size() && (*s)[n] >= '0' && (*s)[n] <= '9') {
    value = std::min<uint32_t>(value * 10 + static_cast<uint32_t>((*s)[n] - '0'), 1000000);
    ++n;
  }
  if (n == 0) return std::nullopt;
  s->remove_prefix(n);
  return value;
}

[[noreturn]] void ThrowUnknown(std::string_view text) {
  TVM_FFI_CORE_THROW(ValueError) << "unknown dtype `" << text << "`";
}

// 65535 fixed lanes and 1 scalable lane are the same 16 bits (int16 -1),
// which no name can tell apart: both are refused.
constexpr uint16_t kAmbiguousLanes = 0xFFFF;

[[noreturn]] void ThrowAmbiguousLanes(std::string_view text) {
  TVM_FFI_CORE_THROW(ValueError) << "invalid dtype `" << text
                           << "`: 65535 lanes and 1 scalable lane share the encoding -1 and "
                              "cannot be told apart";
}

// Parses what follows the element type: "", "x<N>" or "xvscalex<N>"
// (scalable, stored as -N in int16).
uint16_t ParseLanes(std::string_view text, std::string_view rest, bool allow_underscore) {
  if (rest.empty()) return 1;
  if (allow_underscore && rest.substr(0, 2) == "_x") rest.remove_prefix(1);
  bool scalable = ConsumePrefix(&rest, "xvscalex");
  if (!scalable && !ConsumePrefix(&rest, "x")) ThrowUnknown(text);
  std::optional<uint32_t> n = ConsumeDecimal(&rest);
  if (!n.has_value() || !rest.empty()) ThrowUnknown(text);
  if (scalable) {
    if (*n < 1 || *n > 32768) {
      TVM_FFI_CORE_THROW(ValueError) << "invalid dtype `" << text
                               << "`: scalable lanes must be in [1, 32768]";
    }
  } else if (*n < 1 || *n > 65535) {
    TVM_FFI_CORE_THROW(ValueError) << "invalid dtype `" << text << "`: lanes must be in [1, 65535]";
  }
  uint16_t lanes = scalable ? static_cast<uint16_t>(static_cast<int16_t>(-static_cast<int32_t>(*n)))
                            : static_cast<uint16_t>(*n);
  if (lanes == kAmbiguousLanes) ThrowAmbiguousLanes(text);
  return lanes;
}

// Parses "[<bits>][lanes]" after a prefix.
DLDataType ParseBitsAndLanes(std::string_view text, std::string_view rest, uint8_t code,
                             uint8_t default_bits, bool needs_bits) {
  DLDataType out;
  out.code = code;
  out.bits = default_bits;
  std::optional<uint32_t> bits = ConsumeDecimal(&rest);
  if (needs_bits && !bits.has_value()) ThrowUnknown(text);
  if (bits.has_value() && *bits > 255) {
    TVM_FFI_CORE_THROW(ValueError) << "invalid dtype `" << text << "`: bits must be at most 255";
  }
  if (bits.has_value() && *bits != 0) out.bits = static_cast<uint8_t>(*bits);
  out.lanes = ParseLanes(text, rest, false);
  return out;
}

// The results of the custom type hooks: an int (or bool) and a str; any
// other value is a TypeError "expected <T>, got <actual>".
int64_t ResultAsInt(const Any& result) {
  const TVMFFIAny* raw = AnyUnsafe::TVMFFIAnyPtrFromAny(result);
  if (raw->type_index != kTVMFFIInt && raw->type_index != kTVMFFIBool) {
    TVM_FFI_CORE_THROW(TypeError) << "expected int, got "
                                  << TypeIndexToDisplayName(raw->type_index);
  }
  return raw->v_int64;
}

std::string ResultAsString(const Any& result) {
  const TVMFFIAny* raw = AnyUnsafe::TVMFFIAnyPtrFromAny(result);
  const char* data;
  size_t size;
  bool is_bytes;
  if (!GetStringView(raw, &data, &size, &is_bytes) || is_bytes) {
    TVM_FFI_CORE_THROW(TypeError) << "expected str, got "
                                  << TypeIndexToDisplayName(raw->type_index);
  }
  return std::string(data, size);
}

uint8_t CustomTypeCode(std::string_view text, const std::string& name) {
  std::optional<Function> f = Function::GetGlobal(kGetCustomTypeCode);
  if (!f.has_value()) {
    TVM_FFI_CORE_THROW(ValueError) << "invalid dtype `" << text << "`: global function `"
                             << kGetCustomTypeCode << "` is not registered";
  }
  int64_t code = ResultAsInt((*f)(name));
  if (code < kCustomBegin || code > 255) {
    TVM_FFI_CORE_THROW(ValueError) << "invalid dtype `" << text << "`: custom type code " << code
                             << " is out of range [" << kCustomBegin << ", 255]";
  }
  return static_cast<uint8_t>(code);
}

std::string CustomTypeName(DLDataType dtype) {
  std::optional<Function> f = Function::GetGlobal(kGetCustomTypeName);
  if (!f.has_value()) {
    TVM_FFI_CORE_THROW(ValueError) << "cannot format dtype with custom type code "
                                   << int(dtype.code) << ": global function `" << kGetCustomTypeName
                             << "` is not registered";
  }
  return ResultAsString((*f)(static_cast<int64_t>(dtype.code)));
}

}  // namespace

DLDataType Parse(std::string_view text) {
  if (text.empty() || text == "void") {
    DLDataType out;
    out.code = kDLOpaqueHandle;
    out.bits = 0;
    out.lanes = 0;
    return out;
  }
  for (const NarrowFamily& family : kNarrowFamilies) {
    for (const char* prefix : family.prefixes) {
      std::string_view rest = text;
      if (!ConsumePrefix(&rest, prefix)) continue;
      for (size_t i = 0; i < family.num_variants; ++i) {
        const Variant& v = family.variants[i];
        if (!ConsumePrefix(&rest, v.name)) continue;
        DLDataType out;
        out.code = v.code;
        out.bits = family.bits;
        out.lanes = ParseLanes(text, rest, family.bits == 4);
        return out;
      }
      ThrowUnknown(text);
    }
  }
  std::string_view rest = text;
  if (ConsumePrefix(&rest, "custom[")) {
    size_t close = rest.find(']');
    if (close == std::string_view::npos || close == 0) ThrowUnknown(text);
    uint8_t code = CustomTypeCode(text, std::string(rest.substr(0, close)));
    return ParseBitsAndLanes(text, rest.substr(close + 1), code, 32, false);
  }
  for (const Prefix& p : kPrefixes) {
    rest = text;
    if (ConsumePrefix(&rest, p.text)) {
      return ParseBitsAndLanes(text, rest, p.code, p.default_bits, p.needs_bits);
    }
  }
  ThrowUnknown(text);
}

std::string Format(DLDataType dtype) {
  if (dtype.code == kDLOpaqueHandle && dtype.bits == 0 && dtype.lanes == 0) return "";
  if (dtype.code == kDLBool && dtype.bits == 8 && dtype.lanes == 1) return "bool";
  // Every name printed parses back to the same dtype; the few dtypes that no
  // name spells are refused rather than printed as a different one.
  auto refuse = [&dtype](const char* why) {
    TVM_FFI_CORE_THROW(ValueError) << "cannot format dtype {code " << int(dtype.code) << ", bits "
                             << int(dtype.bits) << ", lanes " << dtype.lanes << "}: " << why;
  };
  if (dtype.bits == 0) refuse("0 bits has no name (a bits suffix of 0 means the default)");
  if (dtype.lanes == 0) refuse("0 lanes has no name");
  if (dtype.lanes == kAmbiguousLanes) {
    refuse("65535 lanes and 1 scalable lane share the encoding -1 and cannot be told apart");
  }
  std::string out;
  if (dtype.code == kDLOpaqueHandle) {
    // "handle" alone is 64 bits; other widths keep their bits.
    out = dtype.bits == 64 ? "handle" : "handle" + std::to_string(dtype.bits);
  } else if (dtype.code >= kCustomBegin) {
    out = "custom[" + CustomTypeName(dtype) + "]" + std::to_string(dtype.bits);
  } else if (const char* name = CodeName(dtype.code)) {
    out = name + std::to_string(dtype.bits);
  } else {
    for (const NarrowFamily& family : kNarrowFamilies) {
      for (size_t i = 0; i < family.num_variants; ++i) {
        if (family.variants[i].code == dtype.code) {
          if (dtype.bits != family.bits) refuse("a narrow float name implies its bits");
          out = std::string(family.canonical_prefix) + family.variants[i].name;
        }
      }
    }
    if (out.empty()) {
      TVM_FFI_CORE_THROW(ValueError) << "cannot format dtype {code " << int(dtype.code) << ", bits "
                               << int(dtype.bits) << ", lanes " << dtype.lanes
                               << "}: unknown type code " << int(dtype.code);
    }
  }
  int16_t lanes = static_cast<int16_t>(dtype.lanes);
  if (lanes > 1) {
    out += "x" + std::to_string(lanes);
  } else if (lanes < -1) {
    out += "xvscalex" + std::to_string(-int32_t(lanes));
  }
  return out;
}

}  // namespace dtype
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
