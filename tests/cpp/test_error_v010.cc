// An error object made by code built against apache-tvm-ffi 0.1.0's headers:
// a 56-byte TVMFFIErrorCell (no cause_chain, no extra_context) followed by
// that code's own members.  Error reads only the 0.1.0 fields of it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

struct CellV010 {
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace;
  void (*update_backtrace)(TVMFFIObjectHandle, const TVMFFIByteArray*, int32_t);
};

// After the cell, a libstdc++ std::string's layout: where a v0.1.8 cell has
// cause_chain and extra_context, a pointer into the object and a length.
struct ErrorV010 {
  TVMFFIObject header;
  CellV010 cell;
  const char* text_data;
  size_t text_size;
  char text_buf[16];
};

int g_deleted = 0;

void DeleteV010(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
    std::free(self);
    ++g_deleted;
  }
}

void NoUpdate(TVMFFIObjectHandle, const TVMFFIByteArray*, int32_t) {}

TVMFFIObjectHandle MakeV010Error() {
  auto* e = static_cast<ErrorV010*>(std::calloc(1, sizeof(ErrorV010)));
  REQUIRE(e != nullptr);
  e->header.combined_ref_count = 1 | (uint64_t{1} << 32);
  e->header.type_index = kTVMFFIError;
  TVM_FFI_OBJECT_DELETER(&e->header) = &DeleteV010;
  std::memcpy(e->text_buf, "TypeError", 9);
  e->text_data = e->text_buf;
  e->text_size = 9;
  e->cell.kind = {e->text_buf, 9};
  e->cell.message = {"old kernel", 10};
  e->cell.backtrace = {"", 0};
  e->cell.update_backtrace = &NoUpdate;
  return &e->header;
}

}  // namespace

TEST_CASE("Error v0.1.0: a foreign 56-byte cell has no cause, and is freed once", "[error]") {
  g_deleted = 0;
  {
    Error e = ErrorOf(AdoptHandle(MakeV010Error()));
    CHECK(e.kind() == "TypeError");
    CHECK(e.message() == "old kernel");
    // The bytes after the 56-byte cell are not an object.  tvm::ffi::Error's
    // cause_chain() and extra_context() read them unconditionally (as
    // upstream's do), so they are not called here; the old layer's check
    // that the cause was absent has no tvm::ffi counterpart.
    // Through the slot and back.
    TVMFFIErrorSetRaised(HandleOf(e));
    CHECK(TakeRaised() == "TypeError: old kernel");
  }
  CHECK(g_deleted == 1);
}

TEST_CASE("Error v0.1.0: errors this library makes keep their cause", "[error]") {
  Error inner("ValueError", "inner", "");
  Error outer("RuntimeError", "outer", "", inner, std::nullopt);
  REQUIRE(outer.cause_chain().has_value());
  CHECK(outer.cause_chain()->message() == "inner");
  CHECK_FALSE(inner.cause_chain().has_value());
}
