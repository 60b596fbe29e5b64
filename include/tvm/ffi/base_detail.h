/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/base_detail.h
 * \brief Compiler macros every other C++ header uses, and the small helpers
 *        of namespace tvm::ffi::detail (stable hashes, pack iteration).
 *
 * Only GCC and Clang are supported by these headers (the C header alone
 * also builds with MSVC).  Names in tvm::ffi::detail are not API: they may
 * change in any release.
 */
#ifndef TVM_FFI_BASE_DETAIL_H_
#define TVM_FFI_BASE_DETAIL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/endian.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <type_traits>
#include <utility>

#if !defined(__GNUC__) && !defined(__clang__)
#error "tvm/ffi C++ headers need GCC or Clang (the C header tvm/ffi/c_api.h has no such limit)"
#endif

/*! \brief Marks a function inline and asks the compiler to always inline it. */
#define TVM_FFI_INLINE [[gnu::always_inline]] inline
/*! \brief Keeps a function out of line (slow paths that should not bloat callers). */
#define TVM_FFI_NO_INLINE [[gnu::noinline]]
/*! \brief Tells the optimizer a point cannot be reached. */
#define TVM_FFI_UNREACHABLE() __builtin_unreachable()
/*! \brief Marks a function as rarely run, so it is laid out away from hot code. */
#define TVM_FFI_COLD_CODE [[gnu::cold]]
/*! \brief Branch hints: the condition is expected to be false / true. */
#define TVM_FFI_PREDICT_FALSE(cond) (__builtin_expect(static_cast<bool>(cond), 0))
#define TVM_FFI_PREDICT_TRUE(cond) (__builtin_expect(static_cast<bool>(cond), 1))

/*!
 * \brief Lets the optimizer assume `cond` holds; it is not evaluated for side
 *        effects and a false condition is undefined behaviour.
 */
#if defined(__clang__)
#define TVM_FFI_UNSAFE_ASSUME(cond) __builtin_assume(cond)
#else
#define TVM_FFI_UNSAFE_ASSUME(cond)       \
  do {                                    \
    if (!(cond)) __builtin_unreachable(); \
  } while (0)
#endif

/*! \brief Pastes two tokens after expanding them. */
#define TVM_FFI_STR_CONCAT_(__x, __y) __x##__y
#define TVM_FFI_STR_CONCAT(__x, __y) TVM_FFI_STR_CONCAT_(__x, __y)

/*! \brief The enclosing function's full signature, for backtraces and messages. */
#define TVM_FFI_FUNC_SIG __PRETTY_FUNCTION__

/*!
 * \brief Opens a block of code run once when the shared library (or program)
 *        is loaded, before main.  Use it for global registrations:
 *
 *     TVM_FFI_STATIC_INIT_BLOCK() { RegisterSomething(); }
 */
#define TVM_FFI_STATIC_INIT_BLOCK_DEF_(FnName) __attribute__((constructor)) static void FnName()
#define TVM_FFI_STATIC_INIT_BLOCK() \
  TVM_FFI_STATIC_INIT_BLOCK_DEF_(TVM_FFI_STR_CONCAT(__TVMFFIStaticInitFunc, __COUNTER__))

/*! \brief Declares the four default copy and move members of a reference class. */
#define TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName) \
  TypeName(const TypeName& other) = default;                  \
  TypeName(TypeName&& other) noexcept = default;              \
  TypeName& operator=(const TypeName& other) = default;       \
  TypeName& operator=(TypeName&& other) noexcept = default;

/*!
 * \brief Brackets code that must not let an exception escape (a destructor,
 *        a callback from C): an exception is printed with `Name` and the
 *        process exits with status -1.
 */
#define TVM_FFI_LOG_EXCEPTION_CALL_BEGIN() \
  try {                                    \
  (void)0
#define TVM_FFI_LOG_EXCEPTION_CALL_END(Name)                                                \
  }                                                                                         \
  catch (const std::exception& tvm_ffi_log_err) {                                           \
    std::cerr << "Exception caught during " << #Name << ":\n"                               \
              << tvm_ffi_log_err.what() << std::endl;                                       \
    std::exit(-1);                                                                          \
  }

/*!
 * \brief After a pointer is stored in `result->v_ptr` on a target whose
 *        pointers are narrower than 8 bytes, zeroes the payload's high bytes
 *        (the ABI requires unused payload bytes to be zero).  Expands to
 *        nothing useful on 64-bit targets; call it before storing the pointer.
 */
#define TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result) \
  if constexpr (sizeof(void*) != sizeof(int64_t)) {  \
    (result)->v_int64 = 0;                           \
  }

namespace tvm {
namespace ffi {
namespace detail {

/*! \brief Calls f(index, arg) for each argument in order, index counting from 0. */
struct for_each_dispatcher {
  template <typename F, typename... Args, size_t... I>
  static void run(std::index_sequence<I...>, const F& f, Args&&... args) {
    (f(I, std::forward<Args>(args)), ...);
  }
};

/*! \brief Calls f(index, arg) for each of `args` in order. */
template <typename F, typename... Args>
void for_each(const F& f, Args&&... args) {
  for_each_dispatcher::run(std::index_sequence_for<Args...>{}, f, std::forward<Args>(args)...);
}

/*!
 * \brief Mixes `value` into the running hash `key` (boost's combine step).
 *
 * The result is the same on every platform and in every library built from
 * these headers: hashes computed inline and in the runtime must agree.
 */
template <typename T, std::enable_if_t<std::is_convertible_v<T, uint64_t>, bool> = true>
TVM_FFI_INLINE uint64_t StableHashCombine(uint64_t key, const T& value) {
  return key ^ (static_cast<uint64_t>(value) + 0x9e3779b9 + (key << 6) + (key >> 2));
}

/*! \brief Reads up to 8 bytes as a little-endian integer; missing high bytes are zero. */
TVM_FFI_INLINE uint64_t LoadLittleEndianWord(const unsigned char* bytes, size_t count) {
  // Byte by byte, so the result does not depend on the host's byte order;
  // compilers turn the 8-byte case into one load on little-endian targets.
  uint64_t word = 0;
  for (size_t i = 0; i < count; ++i) word |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  return word;
}

/*!
 * \brief The runtime's hash of a byte string (ffi.String, ffi.Bytes).
 *
 * The bytes are read as little-endian 64-bit words, the last one padded with
 * zero bytes, and folded as h = (h * 1099511628211 + word) mod (2^31 - 1),
 * starting from h = 0.  An empty string hashes to 0.  Part of the contract:
 * maps built inline and maps built by the library hash keys the same way.
 */
TVM_FFI_INLINE uint64_t StableHashBytes(const void* data_ptr, size_t size) {
  constexpr uint64_t kMultiplier = 1099511628211ULL;
  constexpr uint64_t kMod = 2147483647ULL;
  const unsigned char* bytes = static_cast<const unsigned char*>(data_ptr);
  uint64_t result = 0;
  size_t pos = 0;
  for (; pos + 8 <= size; pos += 8) {
    result = (result * kMultiplier + LoadLittleEndianWord(bytes + pos, 8)) % kMod;
  }
  if (pos < size) {
    result = (result * kMultiplier + LoadLittleEndianWord(bytes + pos, size - pos)) % kMod;
  }
  return result;
}

/*!
 * \brief StableHashBytes of a small string or small bytes value held in an
 *        Any: the 8 payload bytes, whose unused tail is zero by the ABI.
 */
TVM_FFI_INLINE uint64_t StableHashSmallStrBytes(const TVMFFIAny* data) {
  constexpr uint64_t kMod = 2147483647ULL;
  if constexpr (TVM_FFI_LITTLE_ENDIAN) {
    return data->v_uint64 % kMod;
  } else {
    return StableHashBytes(data->v_bytes, sizeof(data->v_uint64));
  }
}

/*! \brief The type schema (JSON text describing a C++ type); specialised where types are defined. */
template <typename T>
struct TypeSchemaImpl;
template <typename T>
using TypeSchema = TypeSchemaImpl<std::remove_const_t<std::remove_reference_t<T>>>;

}  // namespace detail

/*! \brief Older spelling of the detail namespace, kept for code written against it. */
namespace details = detail;

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_BASE_DETAIL_H_
