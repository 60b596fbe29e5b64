/* A kernel that raises an error object laid out as apache-tvm-ffi 0.1.0's
 * C++ headers make it (abi-v0.1.md §2.7): the header, then a 56-byte
 * TVMFFIErrorCell without cause_chain and extra_context, then the C++
 * object's own members -- here, as in those headers, a std::string of the
 * kind (libstdc++ layout: data pointer, length, 16-byte inline buffer).  Read
 * as a v0.1.8 cell, cause_chain is that data pointer (into the object) and
 * extra_context the length (a small integer): neither is an object.
 *
 *   raise_v010_error() -> raises ValueError("raised by a 0.1.0 kernel")
 *   live_errors() -> int   errors of this kernel not yet deleted
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

typedef struct {
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  TVMFFIByteArray backtrace;
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
} ErrorCellV010;

typedef struct {
  char* data;
  size_t size;
  char inline_buf[16];
} StdStringLayout;

typedef struct {
  TVMFFIObject header;
  ErrorCellV010 cell;
  StdStringLayout kind_text;
  char message_text[64];
  char backtrace_text[256];
} ErrorV010;

static int64_t g_live = 0;

static void delete_error(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
    free(self);
    --g_live;
  }
}

static void update_backtrace(TVMFFIObjectHandle self, const TVMFFIByteArray* bt, int32_t mode) {
  ErrorV010* e = (ErrorV010*)self;
  size_t used = mode == kTVMFFIBacktraceUpdateModeAppend ? e->cell.backtrace.size : 0;
  size_t n = bt->size;
  if (used + n > sizeof(e->backtrace_text)) n = sizeof(e->backtrace_text) - used;
  memcpy(e->backtrace_text + used, bt->data, n);
  e->cell.backtrace.data = e->backtrace_text;
  e->cell.backtrace.size = used + n;
}

TVM_FFI_DLL_EXPORT int raise_v010_error(void* handle, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  static const char kMessage[] = "raised by a 0.1.0 kernel";
  ErrorV010* e = (ErrorV010*)calloc(1, sizeof(ErrorV010));
  (void)handle;
  (void)args;
  (void)num_args;
  (void)result;
  if (e == NULL) return -1;
  ++g_live;
  e->header.combined_ref_count = 1 | ((uint64_t)1 << 32); /* one strong, one weak */
  e->header.type_index = kTVMFFIError;
  e->header.deleter = delete_error;
  e->kind_text.data = e->kind_text.inline_buf;
  e->kind_text.size = strlen("ValueError");
  memcpy(e->kind_text.inline_buf, "ValueError", e->kind_text.size);
  memcpy(e->message_text, kMessage, sizeof(kMessage) - 1);
  e->cell.kind.data = e->kind_text.data;
  e->cell.kind.size = e->kind_text.size;
  e->cell.message.data = e->message_text;
  e->cell.message.size = sizeof(kMessage) - 1;
  e->cell.backtrace.data = e->backtrace_text;
  e->cell.backtrace.size = 0;
  e->cell.update_backtrace = update_backtrace;
  TVMFFIErrorSetRaised(e);
  TVMFFIObjectDecRef(e); /* the slot holds its own reference */
  return -1;
}

TVM_FFI_DLL_EXPORT int live_errors(void* handle, const TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = g_live;
  return 0;
}
