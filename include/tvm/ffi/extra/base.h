/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/base.h
 * \brief TVM_FFI_EXTRA_CXX_API: the mark of the C++ functions and classes of
 *        tvm/ffi/extra that live in libtvm_ffi.so rather than in the headers.
 *
 * These few C++ entry points (modules, JSON, serialization, structural and
 * recursive comparison, deep copy, repr) are exported by the shared library
 * with upstream's mangled names.  Their arguments and results are Any,
 * ObjectRef types and plain values only.  Everything they do is also
 * reachable through the C ABI as `ffi.*` global functions.
 */
#ifndef TVM_FFI_EXTRA_BASE_H_
#define TVM_FFI_EXTRA_BASE_H_

#include <tvm/ffi/c_api.h>

/* A build may define it first (e.g. empty, for a static library). */
#if !defined(TVM_FFI_EXTRA_CXX_API)
#define TVM_FFI_EXTRA_CXX_API TVM_FFI_DLL
#endif

#endif  // TVM_FFI_EXTRA_BASE_H_
