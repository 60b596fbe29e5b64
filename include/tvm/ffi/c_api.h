/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/c_api.h
 * \brief The stable C ABI of tvm-ffi: tagged values, reference-counted objects,
 *        the safe-call function convention, the thread-local error slot and
 *        DLPack tensors.
 *
 * API contract
 * ------------
 * Everything declared in this file (and in tvm/ffi/extra/c_env_api.h) is API;
 * nothing else is.  The names, byte layouts, integer values and semantics are
 * those of the stable C ABI v0.1 of apache/tvm-ffi, so that a library built
 * against that project's header loads and runs on this implementation, and the
 * other way round.  Layouts are frozen: new fields are only ever appended to
 * structs that say so, and enum values are never renumbered.
 *
 * The header is C89: it compiles with `-std=c89 -pedantic-errors`, as well as
 * with any later C standard and with C++11 or newer.  C code written for
 * upstream's header (`any.v_int64`) compiles unchanged in every C mode under
 * GCC and Clang (see the union note below).
 *
 * Ownership vocabulary used in every function comment
 * ----------------------------------------------------
 * - new reference: the caller receives one strong reference and must release
 *   it with TVMFFIObjectDecRef (or, for a TVMFFIAny, when type_index >= 64).
 * - borrowed: valid while its owner keeps it alive; do not release it.
 * - steals: the callee takes over the caller's reference (the comment says
 *   whether this also happens on failure).
 * - view: a non-owning value valid until a stated event.
 *
 * Return codes
 * ------------
 * Functions returning int return 0 on success and -1 on failure; on failure
 * an Error object is stored in the calling thread's error slot and can be
 * taken with TVMFFIErrorMoveFromRaised.  Functions returning void never fail.
 * A return value of -2 is never produced by this library (historically it
 * meant "the frontend already holds the error"); callers should tolerate it.
 */
#ifndef TVM_FFI_C_API_H_
#define TVM_FFI_C_API_H_

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------- */
/* Section: version                                                          */
/* ------------------------------------------------------------------------- */

/*! \brief Major version of the ABI this header describes. */
#define TVM_FFI_VERSION_MAJOR 0
/*! \brief Minor version; additions within a major version are backward compatible. */
#define TVM_FFI_VERSION_MINOR 1
/*! \brief Patch level: the upstream v0.1 release whose header this one matches (0.1.16). */
#define TVM_FFI_VERSION_PATCH 16
/*! \brief The three numbers as one integer, e.g. 116 for 0.1.16. */
#define TVM_FFI_VERSION_NUMBER \
  (TVM_FFI_VERSION_MAJOR * 10000 + TVM_FFI_VERSION_MINOR * 100 + TVM_FFI_VERSION_PATCH)

/* ------------------------------------------------------------------------- */
/* Section: linkage                                                          */
/* ------------------------------------------------------------------------- */

#ifndef TVM_FFI_DLL
#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#define TVM_FFI_DLL EMSCRIPTEN_KEEPALIVE
#elif defined(_MSC_VER)
#ifdef TVM_FFI_EXPORTS
#define TVM_FFI_DLL __declspec(dllexport)
#else
#define TVM_FFI_DLL __declspec(dllimport)
#endif
#else
#define TVM_FFI_DLL __attribute__((visibility("default")))
#endif
#endif

/*! \brief Marks a symbol that a user library exports (e.g. `__tvm_ffi_<name>`). */
#ifndef TVM_FFI_DLL_EXPORT
#if defined(__EMSCRIPTEN__)
#define TVM_FFI_DLL_EXPORT EMSCRIPTEN_KEEPALIVE
#elif defined(_MSC_VER)
#define TVM_FFI_DLL_EXPORT __declspec(dllexport)
#else
#define TVM_FFI_DLL_EXPORT __attribute__((visibility("default")))
#endif
#endif

#ifndef TVM_FFI_WEAK
#if defined(_MSC_VER)
#define TVM_FFI_WEAK __declspec(selectany)
#else
#define TVM_FFI_WEAK __attribute__((weak))
#endif
#endif

#ifndef TVM_FFI_ATTRIBUTE_PURE
#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_ATTRIBUTE_PURE __attribute__((__pure__))
#else
#define TVM_FFI_ATTRIBUTE_PURE
#endif
#endif

/*
 * The two unions of TVMFFIAny and the one of TVMFFIObject are anonymous, so
 * `any.v_int64` and `obj->deleter` work as in upstream's header:
 * - in C11 and C++, which have anonymous unions;
 * - in C89 and C99 under GCC and Clang (and compilers claiming __GNUC__),
 *   whose anonymous-union extension is enabled per member by `__extension__`,
 *   which also keeps `-pedantic-errors` quiet.
 * Only a C89/C99 compiler without that extension gets the named form: the
 * unions are then called `pad`, `v` and `d`.  The layout is the same either
 * way.  Code that must build with such compilers too goes through the
 * accessors below, which work in every mode:
 *
 *   TVM_FFI_ANY_VALUE(any).v_int64 = 42;
 *   TVM_FFI_ANY_PADDING(any).small_str_len = 3;
 *   TVM_FFI_OBJECT_DELETER(header)(header, kTVMFFIObjectDeleterFlagBitMaskBoth);
 *
 * Define TVM_FFI_NAMED_UNIONS before the include to get the named form in any
 * mode.
 */
#if defined(TVM_FFI_NAMED_UNIONS)
#define TVM_FFI_ANONYMOUS_UNIONS 0
#elif defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L)
#define TVM_FFI_ANONYMOUS_UNIONS 1
#define TVM_FFI_UNION_EXTENSION
#elif defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_ANONYMOUS_UNIONS 1
#define TVM_FFI_UNION_EXTENSION __extension__
#else
#define TVM_FFI_ANONYMOUS_UNIONS 0
#endif
#if TVM_FFI_ANONYMOUS_UNIONS
#define TVM_FFI_ANY_VALUE(any) (any)
#define TVM_FFI_ANY_PADDING(any) (any)
#define TVM_FFI_OBJECT_DELETER(obj) ((obj)->deleter)
#else
#define TVM_FFI_ANY_VALUE(any) ((any).v)
#define TVM_FFI_ANY_PADDING(any) ((any).pad)
#define TVM_FFI_OBJECT_DELETER(obj) ((obj)->d.deleter)
#endif

/* ------------------------------------------------------------------------- */
/* Section: DLPack                                                           */
/* ------------------------------------------------------------------------- */
/*
 * When the official <dlpack/dlpack.h> (1.x) was included first, its types
 * are used.  Otherwise this section defines the same types with the same
 * layout and values (DLPack 1.3), in C89, and defines the official include
 * guard, so that including the official header afterwards is harmless.
 */
#ifdef DLPACK_DLPACK_H_
#ifndef DLPACK_MAJOR_VERSION
#error "tvm/ffi/c_api.h needs DLPack 1.x; the dlpack.h included before it is older (0.x)"
#endif
#if DLPACK_MAJOR_VERSION == 1 && DLPACK_MINOR_VERSION < 3
/* Pieces added by DLPack 1.3.  Repeating an identical typedef is legal in C11
 * and C++, which covers headers that already have some of them. */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L)
typedef struct DLManagedTensorVersioned DLManagedTensorVersioned;
typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                            void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));
#else
#error "with a dlpack.h older than 1.3 included first, compile as C11 or C++ (or include tvm/ffi/c_api.h first)"
#endif
#endif
#else /* !DLPACK_DLPACK_H_ */
#define DLPACK_DLPACK_H_

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
#else
#define DLPACK_EXTERN_C
#endif
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 3
#ifndef DLPACK_DLL
#define DLPACK_DLL
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief DLPack ABI version; layout = { u32 major, u32 minor }. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/*! \brief Device kinds.  5 and 6 are unused.  Stored as 32 bits. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18
} DLDeviceType;

/*! \brief A device: layout = { i32 device_type, i32 device_id }. */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/*! \brief Type codes stored in DLDataType.code (one byte). */
typedef enum {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
  kDLFloat8_e3m4 = 7,
  kDLFloat8_e4m3 = 8,
  kDLFloat8_e4m3b11fnuz = 9,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e4m3fnuz = 11,
  kDLFloat8_e5m2 = 12,
  kDLFloat8_e5m2fnuz = 13,
  kDLFloat8_e8m0fnu = 14,
  kDLFloat6_e2m3fn = 15,
  kDLFloat6_e3m2fn = 16,
  kDLFloat4_e2m1fn = 17
} DLDataTypeCode;

/*! \brief Element type: layout = { u8 code, u8 bits, u16 lanes }. */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/*! \brief A strided view of memory; layout is 48 bytes on LP64. */
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/*! \brief Legacy (unversioned) managed tensor, 64 bytes. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

/*! \brief The consumer must not write to the data. */
#define DLPACK_FLAG_BITMASK_READ_ONLY 1
/*! \brief The producer made a private copy of the data. */
#define DLPACK_FLAG_BITMASK_IS_COPIED 2
/*! \brief Sub-byte elements are padded to a byte each (refused by tvm-ffi). */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED 4

/*!
 * \brief Versioned managed tensor, 80 bytes.  The prefix up to and including
 *        `flags` is frozen: a consumer that sees an unknown major version may
 *        only call `deleter`.
 */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

/*! \brief Allocates a tensor like `prototype` (dtype, ndim, shape, device are read). */
typedef int (*DLPackManagedTensorAllocator)(DLTensor* prototype, DLManagedTensorVersioned** out,
                                            void* error_ctx,
                                            void (*SetError)(void* error_ctx, const char* kind,
                                                             const char* message));
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void* py_object,
                                                     DLManagedTensorVersioned** out);
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void* py_object, DLTensor* out);
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id,
                                       void** out_current_stream);
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned* tensor,
                                                   void** out_py_object);

/*! \brief Header of the DLPack C exchange table, 16 bytes. */
typedef struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  struct DLPackExchangeAPIHeader* prev_api;
} DLPackExchangeAPIHeader;

/*! \brief The DLPack C exchange table, 56 bytes. */
typedef struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  DLPackManagedTensorAllocator managed_tensor_allocator;
  DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
  DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
  DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
  DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* DLPACK_DLPACK_H_ */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Section: enumerations                                                     */
/* ------------------------------------------------------------------------- */

/*!
 * \brief Type index: the tag of a TVMFFIAny and the type of an object.
 *
 * Ranges: [0, 64) values stored inline in a TVMFFIAny (no reference count);
 * [64, 128) object types with fixed indices; >= 128 object types numbered at
 * run time in registration order (never persist those numbers; persist type
 * keys).  "Holds an object" is exactly `type_index >= 64`.
 *
 * An owning Any never holds kTVMFFIRawStr, kTVMFFIByteArrayPtr or
 * kTVMFFIObjectRValueRef; those appear only in views (call arguments).
 */
typedef enum {
  /*! \brief Pseudo index meaning "any type"; never stored in a value. */
  kTVMFFIAny = -1,
  kTVMFFINone = 0,
  kTVMFFIInt = 1,
  kTVMFFIBool = 2,
  kTVMFFIFloat = 3,
  /*! \brief v_ptr, not owned. */
  kTVMFFIOpaquePtr = 4,
  kTVMFFIDataType = 5,
  kTVMFFIDevice = 6,
  /*! \brief v_ptr is a borrowed DLTensor*. */
  kTVMFFIDLTensorPtr = 7,
  /*! \brief v_c_str: borrowed NUL-terminated string; views only. */
  kTVMFFIRawStr = 8,
  /*! \brief v_ptr: borrowed TVMFFIByteArray*; views only. */
  kTVMFFIByteArrayPtr = 9,
  /*! \brief v_ptr: address of a slot holding an object handle the callee may take; views only. */
  kTVMFFIObjectRValueRef = 10,
  /*! \brief A string of at most 7 bytes stored inline (small_str_len, v_bytes). */
  kTVMFFISmallStr = 11,
  /*! \brief Bytes of at most 7 bytes stored inline (small_str_len, v_bytes). */
  kTVMFFISmallBytes = 12,
  /*! \brief Marker result of a structural mutation that produced no new value; no payload. */
  kTVMFFIUnchanged = 13,
  kTVMFFIStaticObjectBegin = 64,
  /*! \brief The root object type; layout = { TVMFFIObject }. */
  kTVMFFIObject = 64,
  /*! \brief layout = { TVMFFIObject, TVMFFIByteArray } */
  kTVMFFIStr = 65,
  /*! \brief layout = { TVMFFIObject, TVMFFIByteArray } */
  kTVMFFIBytes = 66,
  /*! \brief layout = { TVMFFIObject, TVMFFIErrorCell } */
  kTVMFFIError = 67,
  /*! \brief layout = { TVMFFIObject, TVMFFIFunctionCell } */
  kTVMFFIFunction = 68,
  /*! \brief layout = { TVMFFIObject, TVMFFIShapeCell } */
  kTVMFFIShape = 69,
  /*! \brief layout = { TVMFFIObject, DLTensor } */
  kTVMFFITensor = 70,
  /*! \brief layout = { TVMFFIObject, TVMFFISeqCell, TVMFFIAny[capacity] } */
  kTVMFFIArray = 71,
  /*! \brief Opaque layout; use the ffi.Map* global functions. */
  kTVMFFIMap = 72,
  kTVMFFIModule = 73,
  /*! \brief layout = { TVMFFIObject, TVMFFIOpaqueObjectCell } */
  kTVMFFIOpaquePyObject = 74,
  /*! \brief layout = { TVMFFIObject, TVMFFISeqCell } with a separate buffer. */
  kTVMFFIList = 75,
  /*! \brief Opaque layout; use the ffi.Dict* global functions. */
  kTVMFFIDict = 76,
  /*! \brief Marker object of a structural visit that stopped early. */
  kTVMFFIVisitInterrupt = 77,
  /*!
   * \brief An integer outside the int64 range (since v0.1.16).
   *
   * layout = { TVMFFIObject, size_t num_words, int64_t words[num_words] }
   *
   * The words are a two's-complement integer, least significant word first,
   * each word in native byte order.  They are minimal: no word at the top
   * merely repeats the sign of the word below it, but a top word of 0 or -1
   * stays when it is what carries the sign (so num_words >= 2 always).
   * IMPORTANT: a value that fits in int64_t is always kTVMFFIInt, never a
   * BigInt; so Int and BigInt never hold the same value.  Build and read
   * BigInts with TVMFFIBigIntFromByteArray / TVMFFIBigIntGetContentByteArray.
   */
  kTVMFFIBigInt = 78,
  kTVMFFIStaticObjectEnd = 79,
  kTVMFFIDynObjectBegin = 128
} TVMFFITypeIndex;

/*! \brief Flags passed to an object's deleter. */
typedef enum {
  /*! \brief The strong count reached zero: destroy the contents, keep the storage. */
  kTVMFFIObjectDeleterFlagBitMaskStrong = 1,
  /*! \brief The weak count reached zero: free the storage. */
  kTVMFFIObjectDeleterFlagBitMaskWeak = 2,
  /*! \brief Both at once: destroy and free. */
  kTVMFFIObjectDeleterFlagBitMaskBoth = 3
} TVMFFIObjectDeleterFlagBitMask;

/*! \brief How TVMFFIErrorCell.update_backtrace treats the new text. */
typedef enum {
  kTVMFFIBacktraceUpdateModeReplace = 0,
  kTVMFFIBacktraceUpdateModeAppend = 1
} TVMFFIBacktraceUpdateMode;

/*! \brief Bits of TVMFFIFieldInfo.flags and TVMFFIMethodInfo.flags. */
typedef enum {
  kTVMFFIFieldFlagBitMaskWritable = 1,
  kTVMFFIFieldFlagBitMaskHasDefault = 2,
  kTVMFFIFieldFlagBitMaskIsStaticMethod = 4,
  kTVMFFIFieldFlagBitMaskSEqHashIgnore = 8,
  kTVMFFIFieldFlagBitMaskSEqHashDefRecursive = 16,
  kTVMFFIFieldFlagBitMaskDefaultFromFactory = 32,
  kTVMFFIFieldFlagBitMaskReprOff = 64,
  kTVMFFIFieldFlagBitMaskCompareOff = 128,
  kTVMFFIFieldFlagBitMaskHashOff = 256,
  kTVMFFIFieldFlagBitMaskInitOff = 512,
  kTVMFFIFieldFlagBitMaskKwOnly = 1024,
  /*! \brief TVMFFIFieldInfo.setter is a Function handle, not a C function pointer. */
  kTVMFFIFieldFlagBitSetterIsFunctionObj = 2048,
  kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive = 4096,
  /*! \brief Upstream v0.1.16's name for kTVMFFIFieldFlagBitMaskSEqHashDefRecursive. */
  kTVMFFIFieldFlagBitMaskSEqHashDefPattern = 16,
  /*! \brief Upstream v0.1.16's name for kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive. */
  kTVMFFIFieldFlagBitMaskSEqHashDefSimple = 4096
} TVMFFIFieldFlagBitMask;

/*! \brief Name used before v0.1.12 for kTVMFFIFieldFlagBitMaskSEqHashDefRecursive. */
#define kTVMFFIFieldFlagBitMaskSEqHashDef kTVMFFIFieldFlagBitMaskSEqHashDefRecursive

/*! \brief Structural equality / hashing kind of a type. */
typedef enum {
  kTVMFFISEqHashKindUnsupported = 0,
  kTVMFFISEqHashKindTreeNode = 1,
  kTVMFFISEqHashKindFreeVar = 2,
  kTVMFFISEqHashKindDAGNode = 3,
  kTVMFFISEqHashKindConstTreeNode = 4,
  kTVMFFISEqHashKindUniqueInstance = 5
} TVMFFISEqHashKind;

/*!
 * \brief Kind of definition region a field opens (since v0.1.12).  Each kind
 *        has two names: ours and upstream v0.1.16's (Pattern, Simple).
 */
typedef enum {
  kTVMFFIDefRegionKindNone = 0,
  kTVMFFIDefRegionKindRecursive = 1,
  kTVMFFIDefRegionKindNonRecursive = 2,
  kTVMFFIDefRegionKindPattern = 1,
  kTVMFFIDefRegionKindSimple = 2
} TVMFFIDefRegionKind;

/* ------------------------------------------------------------------------- */
/* Section: POD types                                                        */
/* ------------------------------------------------------------------------- */

/*! \brief Library version; layout = { u32 major, u32 minor, u32 patch }. */
typedef struct {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
} TVMFFIVersion;

/*! \brief Untyped handle; always the address of a TVMFFIObject header. */
typedef void* TVMFFIObjectHandle;

/*!
 * \brief The header every object starts with (24 bytes, frozen).
 *
 * layout = { u64 combined_ref_count, i32 type_index, u32 zero_padding,
 *            void (*deleter)(void*, int) }
 *
 * combined_ref_count keeps the strong count in bits 0-31 and the weak count in
 * bits 32-63.  A new object starts at strong 1, weak 1; the weak count
 * includes one reference held by all strong references together.  The
 * counting protocol (TVMFFIObjectIncRef/DecRef) is part of the ABI: C++ code
 * in other libraries performs the same atomics inline.
 *
 * Rationale: one 64-bit word lets "last strong and last weak reference" be
 * detected with a single atomic operation in the common case.
 */
typedef struct TVMFFIObject {
  uint64_t combined_ref_count;
  int32_t type_index;
  uint32_t zero_padding;
#if TVM_FFI_ANONYMOUS_UNIONS
  TVM_FFI_UNION_EXTENSION union {
    /*! \brief Called with the header address and TVMFFIObjectDeleterFlagBitMask flags; may be NULL. */
    void (*deleter)(void* self, int flags);
    /*! \brief Keeps the union 8 bytes on 32-bit targets. */
    int64_t ensure_align;
  };
#else
  union {
    void (*deleter)(void* self, int flags);
    int64_t ensure_align;
  } d;
#endif
} TVMFFIObject;

/*!
 * \brief The 16-byte tagged value.
 *
 * layout = { i32 type_index, u32 zero_padding | small_str_len, 8-byte payload }
 *
 * IMPORTANT: every byte that is not meaningful for the stored type is zero
 * (the padding word, unused payload bytes, bytes after a small string).  The
 * runtime compares and hashes values as raw bytes in fast paths.
 *
 * As an "Any" it owns one strong reference when type_index >= 64; as an
 * "AnyView" (call arguments) it owns nothing.
 */
typedef struct TVMFFIAny {
  int32_t type_index;
#if TVM_FFI_ANONYMOUS_UNIONS
  TVM_FFI_UNION_EXTENSION union {
    uint32_t zero_padding;
    /*! \brief Byte length for kTVMFFISmallStr and kTVMFFISmallBytes. */
    uint32_t small_str_len;
  };
  TVM_FFI_UNION_EXTENSION union {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    const char* v_c_str;
    TVMFFIObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
    char v_bytes[8];
    uint64_t v_uint64;
  };
#else
  union {
    uint32_t zero_padding;
    uint32_t small_str_len;
  } pad;
  union {
    int64_t v_int64;
    double v_float64;
    void* v_ptr;
    const char* v_c_str;
    TVMFFIObject* v_obj;
    DLDataType v_dtype;
    DLDevice v_device;
    char v_bytes[8];
    uint64_t v_uint64;
  } v;
#endif
} TVMFFIAny;

/*!
 * \brief A borrowed run of bytes; layout = { const char* data, size_t size }.
 *        Not necessarily NUL-terminated (this library's own strings are).
 */
typedef struct {
  const char* data;
  size_t size;
} TVMFFIByteArray;

/*! \brief Cell of ffi.Shape (69) at header + 24; layout = { const i64* data, size_t size }. */
typedef struct {
  const int64_t* data;
  size_t size;
} TVMFFIShapeCell;

/*!
 * \brief Cell of ffi.Array (71) and ffi.List (75) at header + 24.
 *
 * Elements are owning TVMFFIAny values.  data_deleter is NULL when the
 * elements live inline after the cell (Array) and non-NULL when they live in
 * a separate buffer it frees (List).
 */
typedef struct {
  void* data;
  int64_t size;
  int64_t capacity;
  void (*data_deleter)(void* data);
} TVMFFISeqCell;

/*!
 * \brief Cell of ffi.Error (67) at header + 24, 72 bytes.
 *
 * The first 56 bytes are as old as v0.1.0; cause_chain and extra_context were
 * appended in v0.1.8 and can only be trusted on errors made by >= v0.1.8 code.
 */
typedef struct {
  /*! \brief Error kind, e.g. "ValueError". */
  TVMFFIByteArray kind;
  TVMFFIByteArray message;
  /*! \brief Frames, most recent call first, each `  File "f", line n, in fn\n`. */
  TVMFFIByteArray backtrace;
  /*! \brief Replaces (mode 0) or appends to (mode 1) the backtrace text. */
  void (*update_backtrace)(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                           int32_t update_mode);
  /*! \brief Owned Error that caused this one, or NULL. */
  TVMFFIObjectHandle cause_chain;
  /*! \brief Owned object of any type with more context, or NULL. */
  TVMFFIObjectHandle extra_context;
} TVMFFIErrorCell;

/*!
 * \brief The safe-call convention every function follows.
 *
 * \param handle   The function's closure (for a Function object, see
 *                 TVMFFIFunctionCreate).
 * \param args     num_args views, owned by the caller for the duration of the
 *                 call.  A callee may take the object out of a
 *                 kTVMFFIObjectRValueRef argument by setting its slot to NULL.
 * \param result   IMPORTANT: the caller initialises it to kTVMFFINone with a
 *                 zero payload.  On success the callee has written an owning
 *                 value the caller must release; on failure it is untouched.
 * \return 0 on success, -1 with the error in the thread's error slot.
 *         No C++ exception or longjmp may cross this boundary.
 */
typedef int (*TVMFFISafeCallType)(void* handle, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result);

/*! \brief Cell of ffi.Function (68) at header + 24. */
typedef struct {
  TVMFFISafeCallType safe_call;
  /*!
   * \brief Optional C++ entry (throws instead of returning -1).  NULL for every
   *        function made through the C API; only C++ code sharing the exception
   *        ABI may use it.
   */
  void* cpp_call;
} TVMFFIFunctionCell;

/*! \brief Cell of ffi.OpaquePyObject (74) at header + 24. */
typedef struct {
  void* handle;
} TVMFFIOpaqueObjectCell;

/*! \brief Placed in the 8 bytes before an object body by a custom allocator (v0.1.13, dormant). */
typedef struct {
  void (*delete_space)(void* ptr);
} TVMFFIObjectAllocHeader;

/*! \brief A process-wide object allocator (v0.1.13, dormant: see TVMFFIGetCustomAllocator). */
typedef struct {
  void* (*allocate)(size_t size, size_t alignment, int32_t type_index, void* context);
  void* context;
} TVMFFICustomAllocator;

/* ------------------------------------------------------------------------- */
/* Section: reflection types                                                 */
/* ------------------------------------------------------------------------- */

/*! \brief Reads the field at `field` (header + offset) into an owning Any (plain overwrite). */
typedef int (*TVMFFIFieldGetter)(void* field, TVMFFIAny* result);
/*! \brief Converts the view `value` and assigns it to the field at `field`. */
typedef int (*TVMFFIFieldSetter)(void* field, const TVMFFIAny* value);
/*! \brief Makes a default instance; *result is a new reference. */
typedef int (*TVMFFIObjectCreator)(TVMFFIObjectHandle* result);

/*! \brief One reflected field of a type, 120 bytes. */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  /*! \brief JSON object text. */
  TVMFFIByteArray metadata;
  /*! \brief TVMFFIFieldFlagBitMask bits. */
  int64_t flags;
  int64_t size;
  int64_t alignment;
  /*! \brief Byte offset of the field from the object header. */
  int64_t offset;
  TVMFFIFieldGetter getter;
  /*! \brief A TVMFFIFieldSetter, or a Function handle when kTVMFFIFieldFlagBitSetterIsFunctionObj is set. */
  void* setter;
  /*! \brief View: the default, or a 0-argument Function when DefaultFromFactory is set. */
  TVMFFIAny default_value_or_factory;
  /*! \brief Declared type index of the field (-1 for Any, String and Bytes). */
  int32_t field_static_type_index;
} TVMFFIFieldInfo;

/*! \brief One reflected method of a type, 72 bytes. */
typedef struct {
  TVMFFIByteArray name;
  TVMFFIByteArray doc;
  TVMFFIByteArray metadata;
  /*! \brief kTVMFFIFieldFlagBitMaskIsStaticMethod for static methods. */
  int64_t flags;
  /*! \brief View holding a Function; instance methods take self first. */
  TVMFFIAny method;
} TVMFFIMethodInfo;

/*! \brief Extra information about a type, 32 bytes. */
typedef struct {
  TVMFFIByteArray doc;
  /*! \brief Optional default-instance factory; may be NULL. */
  TVMFFIObjectCreator creator;
  /*! \brief Fixed object size in bytes if known, else 0. */
  int32_t total_size;
  /*! \brief A TVMFFISEqHashKind value. */
  int32_t structural_eq_hash_kind;
} TVMFFITypeMetadata;

/*!
 * \brief A type-attribute column: entry i is for type index begin_index + i.
 *        Entries outside the range, or holding None, mean "absent".  data and
 *        size change as entries are added: re-read them on each use.
 */
typedef struct {
  const TVMFFIAny* data;
  int32_t size;
  int32_t begin_index;
} TVMFFITypeAttrColumn;

/*! \brief Registry entry of a type, 72 bytes; stable for the life of the process. */
typedef struct TVMFFITypeInfo {
  int32_t type_index;
  /*! \brief Number of ancestors; ffi.Object and the value types have depth 0. */
  int32_t type_depth;
  TVMFFIByteArray type_key;
  /*! \brief type_depth pointers; entry d is the ancestor at depth d. */
  const struct TVMFFITypeInfo** type_ancestors;
  /*! \brief Hash of type_key; process-local, do not persist. */
  uint64_t type_key_hash;
  int32_t num_fields;
  int32_t num_methods;
  /*! \brief Fields of this exact type (not inherited); the array may move. */
  const TVMFFIFieldInfo* fields;
  const TVMFFIMethodInfo* methods;
  /*! \brief NULL until TVMFFITypeRegisterMetadata. */
  const TVMFFITypeMetadata* metadata;
} TVMFFITypeInfo;

/* ------------------------------------------------------------------------- */
/* Section: version and objects                                              */
/* ------------------------------------------------------------------------- */

/*!
 * \brief Writes the library's version.  Never fails.
 *
 * To check that the library loaded at run time matches the header a program
 * was compiled with, compare out_version->major with TVM_FFI_VERSION_MAJOR and
 * require out_version->minor >= TVM_FFI_VERSION_MINOR.
 */
TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version);

/*!
 * \brief Adds one strong reference.
 * IMPORTANT: obj must not be NULL.
 * \return 0.  Thread-safe.
 */
TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj);

/*!
 * \brief Releases one strong reference; the last one runs the deleter.
 *        NULL is a no-op.
 * \return 0.  Thread-safe.
 */
TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj);

/*!
 * \brief Wraps a foreign handle (e.g. a PyObject*) in an object.
 * \param handle      Stored in the TVMFFIOpaqueObjectCell.
 * \param type_index  Must be kTVMFFIOpaquePyObject; anything else fails.
 * \param deleter     Called with handle when the last strong reference goes; may be NULL.
 * \param[out] out    New reference.
 */
TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out);

/*!
 * \brief The process-wide custom object allocator (never NULL).
 *
 * Present for ABI compatibility with v0.1.13.  Like upstream since
 * v0.1.13-post0 the runtime never calls it: objects carry no allocation
 * prefix, and nothing may be read before a header address.
 */
TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void);

/*!
 * \brief Installs a custom allocator (borrowed: it must outlive the process's
 *        use of it); NULL restores the default.  Call once at start-up.
 * \return 0.
 */
TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator);

/* ------------------------------------------------------------------------- */
/* Section: functions and the global registry                                */
/* ------------------------------------------------------------------------- */

/*!
 * \brief Makes a Function object from a C safe-call.
 *
 * If self and deleter are both NULL, safe_call is stored directly and is
 * called with the Function's own handle as first argument.  Otherwise it is
 * called with self, and deleter(self) (if non-NULL) runs when the Function is
 * destroyed.  The new Function's cpp_call is NULL.
 * \param[out] out  New reference.  On failure deleter is not called.
 */
TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out);

/*!
 * \brief Looks up a global function.
 * \param name      Borrowed.
 * \param[out] out  New reference, or NULL when no function has that name (not an error).
 * \return 0 (found or not), -1 on bad arguments.  Thread-safe.
 */
TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out);

/*!
 * \brief Registers f under a copy of name.  The registry takes its own
 *        reference (f is borrowed).  A taken name fails with kind
 *        "RuntimeError" unless allow_override is non-zero.  Thread-safe.
 */
TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override);

/*!
 * \brief Registers a global from a method description (name, doc, metadata
 *        and flags are copied; method must hold a Function, borrowed).
 */
TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override);

/*!
 * \brief Calls func.  args are views (not modified); see TVMFFISafeCallType.
 * IMPORTANT: initialise result to kTVMFFINone with a zero payload first.
 * \return the callee's return code, unchanged.
 */
TVM_FFI_DLL int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result);

/*!
 * \brief Converts a view into an owning value: objects gain a reference,
 *        kTVMFFIRawStr becomes a String, kTVMFFIByteArrayPtr becomes Bytes,
 *        kTVMFFIObjectRValueRef gives up its object (its slot becomes NULL).
 * \param[out] out  Overwritten without being released; the caller owns it.
 */
TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out);

/* ------------------------------------------------------------------------- */
/* Section: errors                                                           */
/* ------------------------------------------------------------------------- */

/*!
 * \brief Takes the error stored in this thread's slot and clears the slot.
 * \param[out] result  New reference, or NULL if no error was stored.
 */
TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result);

/*!
 * \brief Stores error in this thread's slot (adding a reference: error is
 *        borrowed) and releases what was there before.
 */
TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error);

/*! \brief Stores a new Error(kind, message) with a backtrace of the call site. */
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message);

/*!
 * \brief As TVMFFIErrorSetRaisedFromCStr, with the message the concatenation
 *        of the non-NULL entries of message_parts.
 */
TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts);

/*!
 * \brief Makes an Error; the three strings are copied (use size 0 for empty).
 * \param[out] out  New reference.
 * \return -1 (with *out NULL) when out of memory or when a string has data
 *         NULL and a non-zero size; this function never touches the error
 *         slot, since it is used while handling errors.
 */
TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out);

/*!
 * \brief As TVMFFIErrorCreate, with an optional cause (an Error) and extra
 *        context (any object); both borrowed, may be NULL.  Since v0.1.8.
 */
TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out);

/* ------------------------------------------------------------------------- */
/* Section: tensors and DLPack                                               */
/* ------------------------------------------------------------------------- */

/*!
 * \brief Wraps a legacy managed tensor in a Tensor object without copying.
 *
 * require_alignment (if non-zero) is checked against data + byte_offset on
 * directly addressable devices and against byte_offset elsewhere;
 * require_contiguous asks for row-major contiguity.  NULL strides are
 * replaced by compact row-major strides.
 * \param from  Steals on success (its deleter runs once, when the Tensor
 *              dies); on failure from still belongs to the caller.
 * \param[out] out  New reference.
 */
TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out);

/*!
 * \brief As TVMFFITensorFromDLPack for a versioned tensor.  Refuses the
 *        IS_SUBBYTE_TYPE_PADDED flag and unknown major versions.
 */
TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out);

/*!
 * \brief Exports a Tensor as a new legacy managed tensor holding a reference
 *        to it.  from is borrowed.  The caller must call (*out)->deleter(*out).
 */
TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out);

/*! \brief As TVMFFITensorToDLPack, versioned (version 1.3, flags 0). */
TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out);

/*!
 * \brief A new Tensor viewing source's memory with prototype's data, device,
 *        dtype, ndim and byte_offset; shape and strides (which must be
 *        non-NULL) are copied.  Keeps source alive.  No bounds checks.
 *        Since v0.1.6.
 * \param[out] out  New reference.
 */
TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out);

/* ------------------------------------------------------------------------- */
/* Section: strings, bytes, dtypes                                           */
/* ------------------------------------------------------------------------- */

/*!
 * \brief Copies bytes into an owned String: kTVMFFISmallStr up to 7 bytes,
 *        else a kTVMFFIStr object.
 * \param[out] out  Overwritten; release it when type_index >= 64.
 */
TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);

/*! \brief As TVMFFIStringFromByteArray, for Bytes (kTVMFFISmallBytes / kTVMFFIBytes). */
TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);

/*!
 * \brief Makes an integer of any size from its words (since v0.1.16).
 *
 * \param input  Borrowed.  input->size bytes, a multiple of 8: 64-bit words,
 *               least significant first, native byte order within a word,
 *               two's complement.  Redundant sign words are allowed (they are
 *               dropped); size 0 means zero.  data may be unaligned.
 * \param[out] out  Overwritten (not released first): a kTVMFFIInt when the
 *               value fits in int64_t, else a new reference to a kTVMFFIBigInt.
 * \return 0; -1 with "ValueError" when input->size is not a multiple of 8 or
 *         a pointer is NULL, "MemoryError" when out of memory.
 */
TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out);

/*!
 * \brief The words of a kTVMFFIInt or kTVMFFIBigInt value (since v0.1.16).
 *
 * \param value  Borrowed; must hold kTVMFFIInt or kTVMFFIBigInt.
 * \return a view, in the format TVMFFIBigIntFromByteArray takes, valid while
 *         value (for kTVMFFIInt: the TVMFFIAny itself, whose v_int64 is the one
 *         word) and the object it holds are alive.  Never fails; any other
 *         type index gives {NULL, 0}.
 */
TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value);

/*!
 * \brief Parses a dtype name such as "float32", "int8x4", "bfloat16",
 *        "float8_e4m3fn" or "" (void).  Unknown text fails with "ValueError".
 */
TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out);

/*!
 * \brief Formats a dtype.
 * \param[out] out  An owned String (overwritten); release it when type_index >= 64.
 */
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out);

/* ------------------------------------------------------------------------- */
/* Section: type registry and reflection                                     */
/* ------------------------------------------------------------------------- */

/*! \brief Looks up a type key.  Unknown keys fail with kind "KeyError". */
TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex);

/*!
 * \brief Registers a type, or returns the index of an already registered key.
 *
 * \param static_type_index  >= 0 to ask for that exact index, -1 to allocate.
 * \param type_depth         Parent's depth + 1 (0 for a root).
 * \param num_child_slots    Indices reserved right after this one for children.
 * \param child_slots_can_overflow  Whether further children may go elsewhere.
 * \param parent_type_index  -1 for a root; -2 to only query (returns -2 if unknown).
 * \return the type index, or -1 with the error set when the request is
 *         invalid (upstream exits the process instead).
 */
TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index);

/*!
 * \brief The registry entry of a type (borrowed, valid for the process).
 * \return NULL with the error set for an unknown index (upstream exits the
 *         process instead).
 */
TVM_FFI_DLL const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) TVM_FFI_ATTRIBUTE_PURE;

/*! \brief Appends a field to a type; strings and the default are copied. */
TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info);

/*! \brief Appends a method to a type; strings are copied and the method retained. */
TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info);

/*! \brief Sets a type's metadata, once; a second call fails with "RuntimeError". */
TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index,
                                           const TVMFFITypeMetadata* metadata);

/*!
 * \brief Stores an owned copy of attr_value in column attr_name for
 *        type_index.  type_index 0 only makes sure the column exists.  Setting
 *        a non-None value twice fails with "RuntimeError".
 */
TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value);

/*! \brief A column (borrowed, stable address) or NULL if never registered. */
TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name);

/* ------------------------------------------------------------------------- */
/* Section: backtraces and one-time initialisation                           */
/* ------------------------------------------------------------------------- */

/*!
 * \brief The current backtrace as text, most recent call first.
 *
 * If filename and func are both non-NULL their line comes first.  With
 * cross_ffi_boundary == 0 the walk stops at TVMFFIFunctionCall frames.
 * \return a view of a thread-local buffer, valid until the next call on this
 *         thread.  Never fails.
 */
TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary);

/*!
 * \brief Runs init_func once to fill *handle_addr, thread-safely.
 * \return 0 if already set or init succeeded; init_func's non-zero code; -1
 *         ("RuntimeError") if init_func produced NULL.  Since v0.1.5.
 */
TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result));

/*!
 * \brief Atomically takes *handle_addr (leaving NULL) and, if it was set,
 *        returns deinit_func(old); returns 0 otherwise.  Since v0.1.5.
 */
TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle));

/* ------------------------------------------------------------------------- */
/* Section: cell accessors                                                   */
/* ------------------------------------------------------------------------- */
/*
 * Every built-in cell starts right after the 24-byte header.  C++ gets inline
 * functions with upstream's names and signatures; C gets macros of the same
 * names (C89 has no inline functions).
 */
#define TVM_FFI_OBJECT_CELL(obj) ((void*)((char*)(obj) + sizeof(TVMFFIObject)))

#ifdef __cplusplus
inline int32_t TVMFFIObjectGetTypeIndex(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIObject*>(obj)->type_index;
}
inline TVMFFIByteArray* TVMFFIBytesGetByteArrayPtr(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIByteArray*>(TVM_FFI_OBJECT_CELL(obj));
}
inline TVMFFIErrorCell* TVMFFIErrorGetCellPtr(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIErrorCell*>(TVM_FFI_OBJECT_CELL(obj));
}
inline TVMFFIFunctionCell* TVMFFIFunctionGetCellPtr(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIFunctionCell*>(TVM_FFI_OBJECT_CELL(obj));
}
inline TVMFFIOpaqueObjectCell* TVMFFIOpaqueObjectGetCellPtr(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIOpaqueObjectCell*>(TVM_FFI_OBJECT_CELL(obj));
}
inline TVMFFIShapeCell* TVMFFIShapeGetCellPtr(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFIShapeCell*>(TVM_FFI_OBJECT_CELL(obj));
}
inline TVMFFISeqCell* TVMFFISeqGetCellPtr(TVMFFIObjectHandle obj) {
  return static_cast<TVMFFISeqCell*>(TVM_FFI_OBJECT_CELL(obj));
}
inline DLTensor* TVMFFITensorGetDLTensorPtr(TVMFFIObjectHandle obj) {
  return static_cast<DLTensor*>(TVM_FFI_OBJECT_CELL(obj));
}
inline TVMFFIByteArray TVMFFISmallBytesGetContentByteArray(const TVMFFIAny* value) {
  TVMFFIByteArray out = {TVM_FFI_ANY_VALUE(*value).v_bytes,
                         TVM_FFI_ANY_PADDING(*value).small_str_len};
  return out;
}
inline DLDevice TVMFFIDLDeviceFromIntPair(int32_t device_type, int32_t device_id) {
  DLDevice out = {static_cast<DLDeviceType>(device_type), device_id};
  return out;
}
#else
#define TVMFFIObjectGetTypeIndex(obj) (((const TVMFFIObject*)(obj))->type_index)
#define TVMFFIBytesGetByteArrayPtr(obj) ((TVMFFIByteArray*)TVM_FFI_OBJECT_CELL(obj))
#define TVMFFIErrorGetCellPtr(obj) ((TVMFFIErrorCell*)TVM_FFI_OBJECT_CELL(obj))
#define TVMFFIFunctionGetCellPtr(obj) ((TVMFFIFunctionCell*)TVM_FFI_OBJECT_CELL(obj))
#define TVMFFIOpaqueObjectGetCellPtr(obj) ((TVMFFIOpaqueObjectCell*)TVM_FFI_OBJECT_CELL(obj))
#define TVMFFIShapeGetCellPtr(obj) ((TVMFFIShapeCell*)TVM_FFI_OBJECT_CELL(obj))
#define TVMFFISeqGetCellPtr(obj) ((TVMFFISeqCell*)TVM_FFI_OBJECT_CELL(obj))
#define TVMFFITensorGetDLTensorPtr(obj) ((DLTensor*)TVM_FFI_OBJECT_CELL(obj))
/*! \brief Fills *(out) with the {v_bytes, small_str_len} view of the small string *(value). */
#define TVMFFISmallBytesGetContentByteArray(value, out)                     \
  do {                                                                      \
    (out)->data = TVM_FFI_ANY_VALUE(*(value)).v_bytes;                      \
    (out)->size = TVM_FFI_ANY_PADDING(*(value)).small_str_len;              \
  } while (0)
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* TVM_FFI_C_API_H_ */
