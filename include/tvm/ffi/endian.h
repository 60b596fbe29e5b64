/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/endian.h
 * \brief Byte order of the target and the in-place byte swap used by the
 *        serializers (data on disk and in hashes is little-endian).
 */
#ifndef TVM_FFI_ENDIAN_H_
#define TVM_FFI_ENDIAN_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

/*!
 * \brief 1 when the target is little-endian.  A build system may decide it
 *        (TVM_FFI_CMAKE_LITTLE_ENDIAN); otherwise the compiler's predefined
 *        byte-order macros decide, and targets that name neither are assumed
 *        little-endian.
 */
#ifndef TVM_FFI_LITTLE_ENDIAN
#if defined(TVM_FFI_CMAKE_LITTLE_ENDIAN)
#define TVM_FFI_LITTLE_ENDIAN TVM_FFI_CMAKE_LITTLE_ENDIAN
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#define TVM_FFI_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#else
#define TVM_FFI_LITTLE_ENDIAN 1
#endif
#endif

/*! \brief Byte order of serialized data: 1 means little-endian (the only order written). */
#ifndef TVM_FFI_IO_USE_LITTLE_ENDIAN
#define TVM_FFI_IO_USE_LITTLE_ENDIAN 1
#endif

/*! \brief 1 when data in the serialized byte order can be used as it is. */
#define TVM_FFI_IO_NO_ENDIAN_SWAP (TVM_FFI_LITTLE_ENDIAN == TVM_FFI_IO_USE_LITTLE_ENDIAN)

namespace tvm {
namespace ffi {

/*!
 * \brief Reverses the bytes of each of `num_elems` consecutive elements.
 * \param data        The first element; swapped in place.
 * \param elem_bytes  Size of one element (1 leaves the data as it is).
 * \param num_elems   Number of elements.
 */
inline void ByteSwap(void* data, size_t elem_bytes, size_t num_elems) {
  if (elem_bytes < 2) return;
  unsigned char* const first = static_cast<unsigned char*>(data);
  unsigned char* const last = first + elem_bytes * num_elems;
  for (unsigned char* elem = first; elem != last; elem += elem_bytes) {
    std::reverse(elem, elem + elem_bytes);
  }
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ENDIAN_H_
