// dtype names: parse, format, parse again.  Whatever parses must format,
// and the formatted name must parse to the same dtype; a dtype given as raw
// bits either formats to a name that parses back to it or is refused.
#include "fuzz_common.h"

namespace {

bool SameDType(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

// Formats `t`; true and *out (a name that parses back) on success.
bool FormatChecked(DLDataType t, DLDataType* reparsed) {
  TVMFFIAny name;
  std::memset(&name, 0, sizeof(name));
  int rc = TVMFFIDataTypeToString(&t, &name);
  fuzz::CheckReturn(rc);
  if (rc != 0) {
    fuzz::Require(name.type_index == kTVMFFINone, "a failed format wrote its output");
    return false;
  }
  TVMFFIByteArray text;
  if (name.type_index == kTVMFFISmallStr) {
    text.data = name.v_bytes;
    text.size = name.small_str_len;
  } else {
    fuzz::Require(name.type_index == kTVMFFIStr, "a formatted dtype is not a string");
    text = *TVMFFIBytesGetByteArrayPtr(name.v_obj);
  }
  int prc = TVMFFIDataTypeFromString(&text, reparsed);
  fuzz::CheckReturn(prc);
  fuzz::Require(prc == 0, "a formatted dtype name does not parse");
  fuzz::ReleaseAny(&name);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The input as a name.
  TVMFFIByteArray text{reinterpret_cast<const char*>(data), size};
  DLDataType parsed;
  int rc = TVMFFIDataTypeFromString(&text, &parsed);
  fuzz::CheckReturn(rc);
  if (rc == 0) {
    DLDataType again;
    fuzz::Require(FormatChecked(parsed, &again), "a parsed dtype cannot be formatted");
    fuzz::Require(SameDType(parsed, again), "parse(format(parse(s))) != parse(s)");
  }
  // The first four bytes as a dtype.
  if (size >= 4) {
    DLDataType raw;
    raw.code = data[0];
    raw.bits = data[1];
    std::memcpy(&raw.lanes, data + 2, 2);
    DLDataType again;
    if (FormatChecked(raw, &again)) {
      fuzz::Require(SameDType(raw, again), "parse(format(t)) != t");
    }
  }
  return 0;
}
