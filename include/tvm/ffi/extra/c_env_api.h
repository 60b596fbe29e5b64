/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/c_env_api.h
 * \brief The environment part of the stable C ABI: per-thread streams, the
 *        DLPack tensor allocator, host callbacks (signal checks) and the
 *        symbols generated kernel libraries use to find their module.
 *
 * Same conventions as tvm/ffi/c_api.h: C89, 0 / -1 return codes with the
 * error in the thread's slot, and the ownership vocabulary stated there.
 */
#ifndef TVM_FFI_EXTRA_C_ENV_API_H_
#define TVM_FFI_EXTRA_C_ENV_API_H_

#include "../c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Section: modules                                                          */
/* ------------------------------------------------------------------------- */

/*! \brief Adds name -> symbol to the system-library symbol table.  Returns 0. */
TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);

/*!
 * \brief Every library loaded afterwards that exports a pointer variable named
 *        name gets it set to symbol.
 */
TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol);

/*!
 * \brief For generated code: finds func_name among the imports of the module
 *        whose context library_ctx is, then among the global functions.
 * \param[out] out  Borrowed: owned by the module's cache; do not release.
 * \return -1 ("RuntimeError") when not found.
 */
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx,
                                              const char* func_name, TVMFFIObjectHandle* out);

/* ------------------------------------------------------------------------- */
/* Section: host callbacks                                                   */
/* ------------------------------------------------------------------------- */

/*!
 * \brief Registers a host callback: "PyErr_CheckSignals", "PyGILState_Ensure"
 *        or "PyGILState_Release".  Other names fail with "ValueError".
 */
TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol);

/*!
 * \brief Lets long-running C code notice Ctrl-C in a host such as Python.
 * \return 0, or -1 when the host has an error pending (then the error lives in
 *         the host; C++ code reports kind "EnvErrorAlreadySet").
 */
TVM_FFI_DLL int TVMFFIEnvCheckSignals(void);

/* ------------------------------------------------------------------------- */
/* Section: tensor allocation                                                */
/* ------------------------------------------------------------------------- */

/*! \brief The current allocator: the thread's if set, else the global one; may be NULL. */
TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void);

/*!
 * \brief Sets the calling thread's DLPack tensor allocator, and also the
 *        process-wide fallback when write_to_global_context is non-zero.
 * \param opt_out_original_allocator  If non-NULL, receives the previous
 *                                    thread-local allocator.
 * Thread: the global fallback is not synchronised; set it at start-up.
 */
TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator);

/*!
 * \brief Allocates a Tensor like prototype (dtype, ndim, shape, device) with
 *        the current allocator.  No allocator: -1 ("RuntimeError").
 * \param[out] out  New reference.
 */
TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out);

/* ------------------------------------------------------------------------- */
/* Section: streams                                                          */
/* ------------------------------------------------------------------------- */

/*! \brief An opaque device stream (e.g. a cudaStream_t). */
typedef void* TVMFFIStreamHandle;

/*! \brief The calling thread's current stream for the device, NULL if never set. */
TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id);

/*!
 * \brief Sets the calling thread's current stream for (device_type, device_id).
 * \param opt_out_original_stream  If non-NULL, receives the previous stream
 *                                 (NULL if none was set).
 * \return 0; -1 ("ValueError") if device_type or device_id is negative.
 * Thread: the table is per thread.
 */
TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream);

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* TVM_FFI_EXTRA_C_ENV_API_H_ */
