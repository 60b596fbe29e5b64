/* Layout test: every size, alignment, offset and enum value of the ABI fact
 * sheet (shared/spec/abi-v0.1.md sections 1.1-1.3, 2.1-2.14 and 3.1), checked
 * at compile time (one negative-size array for the whole table, plus
 * _Static_assert per fact under C11) and printed at run time, one line per
 * fact.  The numbers are for LP64 targets (x86-64, aarch64).
 *
 * The same file is built five ways (see tests/CMakeLists.txt): C11 and C89
 * with anonymous unions (C89 through GCC's __extension__), C89 and C11 with
 * named unions (TVM_FFI_NAMED_UNIONS), and C++ (layout_cxx.cc),
 * so both spellings of TVMFFIAny/TVMFFIObject are held to one layout. */
#include <stddef.h>
#include <stdio.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

/* Field names inside the unions, in whichever form this build uses. */
#if TVM_FFI_ANONYMOUS_UNIONS
#define ANY_PAD(m) m
#define ANY_VAL(m) m
#define OBJ_DEL(m) m
#else
#define ANY_PAD(m) pad.m
#define ANY_VAL(m) v.m
#define OBJ_DEL(m) d.m
#endif

/* The union form this build is expected to get. */
#if defined(TVM_FFI_NAMED_UNIONS)
#define EXPECT_ANONYMOUS 0
#elif defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L)
#define EXPECT_ANONYMOUS 1
#elif defined(__GNUC__) || defined(__clang__)
#define EXPECT_ANONYMOUS 1 /* C89/C99 through __extension__ */
#else
#define EXPECT_ANONYMOUS 0
#endif

#define MEMBER_SIZE(T, m) sizeof(((T*)0)->m)
/* C89 has no alignof: the offset of T after a char is its alignment. */
#define ALIGN_HELPER(T) \
  struct align_##T {    \
    char c;             \
    T t;                \
  }
#define ALIGN_OF(T) offsetof(struct align_##T, t)
ALIGN_HELPER(DLPackVersion);
ALIGN_HELPER(DLDevice);
ALIGN_HELPER(DLDataType);
ALIGN_HELPER(DLTensor);
ALIGN_HELPER(DLManagedTensor);
ALIGN_HELPER(DLManagedTensorVersioned);
ALIGN_HELPER(TVMFFIVersion);
ALIGN_HELPER(TVMFFIObject);
ALIGN_HELPER(TVMFFIAny);
ALIGN_HELPER(TVMFFIByteArray);
ALIGN_HELPER(TVMFFIFieldInfo);

/* X(expression, expected value) for every fact. */
#define DLPACK_FACTS(X)                                                              \
  /* 1.1 DLDeviceType */                                                             \
  X(sizeof(DLDeviceType), 4)                                                         \
  X(kDLCPU, 1) X(kDLCUDA, 2) X(kDLCUDAHost, 3) X(kDLOpenCL, 4) X(kDLVulkan, 7)       \
  X(kDLMetal, 8) X(kDLVPI, 9) X(kDLROCM, 10) X(kDLROCMHost, 11) X(kDLExtDev, 12)     \
  X(kDLCUDAManaged, 13) X(kDLOneAPI, 14) X(kDLWebGPU, 15) X(kDLHexagon, 16)          \
  X(kDLMAIA, 17) X(kDLTrn, 18)                                                       \
  /* 1.1 DLDataTypeCode */                                                           \
  X(kDLInt, 0) X(kDLUInt, 1) X(kDLFloat, 2) X(kDLOpaqueHandle, 3) X(kDLBfloat, 4)    \
  X(kDLComplex, 5) X(kDLBool, 6) X(kDLFloat8_e3m4, 7) X(kDLFloat8_e4m3, 8)           \
  X(kDLFloat8_e4m3b11fnuz, 9) X(kDLFloat8_e4m3fn, 10) X(kDLFloat8_e4m3fnuz, 11)      \
  X(kDLFloat8_e5m2, 12) X(kDLFloat8_e5m2fnuz, 13) X(kDLFloat8_e8m0fnu, 14)           \
  X(kDLFloat6_e2m3fn, 15) X(kDLFloat6_e3m2fn, 16) X(kDLFloat4_e2m1fn, 17)            \
  /* 1.1 flags */                                                                    \
  X(DLPACK_FLAG_BITMASK_READ_ONLY, 1) X(DLPACK_FLAG_BITMASK_IS_COPIED, 2)            \
  X(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED, 4)                                   \
  /* 1.2 DLPackVersion */                                                            \
  X(sizeof(DLPackVersion), 8) X(ALIGN_OF(DLPackVersion), 4)                          \
  X(offsetof(DLPackVersion, major), 0) X(offsetof(DLPackVersion, minor), 4)          \
  /* 1.2 DLDevice */                                                                 \
  X(sizeof(DLDevice), 8) X(ALIGN_OF(DLDevice), 4)                                    \
  X(offsetof(DLDevice, device_type), 0) X(MEMBER_SIZE(DLDevice, device_type), 4)     \
  X(offsetof(DLDevice, device_id), 4)                                                \
  /* 1.2 DLDataType */                                                               \
  X(sizeof(DLDataType), 4) X(ALIGN_OF(DLDataType), 2)                                \
  X(offsetof(DLDataType, code), 0) X(MEMBER_SIZE(DLDataType, code), 1)               \
  X(offsetof(DLDataType, bits), 1) X(MEMBER_SIZE(DLDataType, bits), 1)               \
  X(offsetof(DLDataType, lanes), 2) X(MEMBER_SIZE(DLDataType, lanes), 2)             \
  /* 1.2 DLTensor */                                                                 \
  X(sizeof(DLTensor), 48) X(ALIGN_OF(DLTensor), 8)                                   \
  X(offsetof(DLTensor, data), 0) X(offsetof(DLTensor, device), 8)                    \
  X(offsetof(DLTensor, ndim), 16) X(offsetof(DLTensor, dtype), 20)                   \
  X(offsetof(DLTensor, shape), 24) X(offsetof(DLTensor, strides), 32)                \
  X(offsetof(DLTensor, byte_offset), 40) X(MEMBER_SIZE(DLTensor, byte_offset), 8)    \
  /* 1.2 DLManagedTensor */                                                          \
  X(sizeof(DLManagedTensor), 64) X(ALIGN_OF(DLManagedTensor), 8)                     \
  X(offsetof(DLManagedTensor, dl_tensor), 0)                                         \
  X(offsetof(DLManagedTensor, manager_ctx), 48)                                      \
  X(offsetof(DLManagedTensor, deleter), 56)                                          \
  /* 1.2 DLManagedTensorVersioned */                                                 \
  X(sizeof(DLManagedTensorVersioned), 80) X(ALIGN_OF(DLManagedTensorVersioned), 8)   \
  X(offsetof(DLManagedTensorVersioned, version), 0)                                  \
  X(offsetof(DLManagedTensorVersioned, manager_ctx), 8)                              \
  X(offsetof(DLManagedTensorVersioned, deleter), 16)                                 \
  X(offsetof(DLManagedTensorVersioned, flags), 24)                                   \
  X(MEMBER_SIZE(DLManagedTensorVersioned, flags), 8)                                 \
  X(offsetof(DLManagedTensorVersioned, dl_tensor), 32)                               \
  /* 1.3 exchange API */                                                             \
  X(sizeof(DLPackExchangeAPIHeader), 16)                                             \
  X(offsetof(DLPackExchangeAPIHeader, version), 0)                                   \
  X(offsetof(DLPackExchangeAPIHeader, prev_api), 8)                                  \
  X(sizeof(DLPackExchangeAPI), 56)                                                   \
  X(offsetof(DLPackExchangeAPI, header), 0)                                          \
  X(offsetof(DLPackExchangeAPI, managed_tensor_allocator), 16)                       \
  X(offsetof(DLPackExchangeAPI, managed_tensor_from_py_object_no_sync), 24)          \
  X(offsetof(DLPackExchangeAPI, managed_tensor_to_py_object_no_sync), 32)            \
  X(offsetof(DLPackExchangeAPI, dltensor_from_py_object_no_sync), 40)                \
  X(offsetof(DLPackExchangeAPI, current_work_stream), 48)

#define CORE_FACTS(X)                                                                \
  /* 2.1 TVMFFIVersion */                                                            \
  X(sizeof(TVMFFIVersion), 12) X(ALIGN_OF(TVMFFIVersion), 4)                         \
  X(offsetof(TVMFFIVersion, major), 0) X(offsetof(TVMFFIVersion, minor), 4)          \
  X(offsetof(TVMFFIVersion, patch), 8)                                               \
  /* 2.2 TVMFFIObject */                                                             \
  X(sizeof(TVMFFIObject), 24) X(ALIGN_OF(TVMFFIObject), 8)                           \
  X(offsetof(TVMFFIObject, combined_ref_count), 0)                                   \
  X(MEMBER_SIZE(TVMFFIObject, combined_ref_count), 8)                                \
  X(offsetof(TVMFFIObject, type_index), 8) X(MEMBER_SIZE(TVMFFIObject, type_index), 4) \
  X(offsetof(TVMFFIObject, zero_padding), 12)                                        \
  X(MEMBER_SIZE(TVMFFIObject, zero_padding), 4)                                      \
  X(offsetof(TVMFFIObject, OBJ_DEL(deleter)), 16)                                    \
  X(MEMBER_SIZE(TVMFFIObject, OBJ_DEL(deleter)), 8)                                  \
  X(offsetof(TVMFFIObject, OBJ_DEL(ensure_align)), 16)                               \
  X(sizeof(TVMFFIObjectHandle), sizeof(void*))                                       \
  X(kTVMFFIObjectDeleterFlagBitMaskStrong, 1)                                        \
  X(kTVMFFIObjectDeleterFlagBitMaskWeak, 2)                                          \
  X(kTVMFFIObjectDeleterFlagBitMaskBoth, 3)                                          \
  /* 2.3 TVMFFIAny */                                                                \
  X(sizeof(TVMFFIAny), 16) X(ALIGN_OF(TVMFFIAny), 8)                                 \
  X(offsetof(TVMFFIAny, type_index), 0) X(MEMBER_SIZE(TVMFFIAny, type_index), 4)     \
  X(offsetof(TVMFFIAny, ANY_PAD(zero_padding)), 4)                                   \
  X(MEMBER_SIZE(TVMFFIAny, ANY_PAD(zero_padding)), 4)                                \
  X(offsetof(TVMFFIAny, ANY_PAD(small_str_len)), 4)                                  \
  X(MEMBER_SIZE(TVMFFIAny, ANY_PAD(small_str_len)), 4)                               \
  X(offsetof(TVMFFIAny, ANY_VAL(v_int64)), 8) X(MEMBER_SIZE(TVMFFIAny, ANY_VAL(v_int64)), 8) \
  X(offsetof(TVMFFIAny, ANY_VAL(v_float64)), 8)                                      \
  X(MEMBER_SIZE(TVMFFIAny, ANY_VAL(v_float64)), 8)                                   \
  X(offsetof(TVMFFIAny, ANY_VAL(v_ptr)), 8)                                          \
  X(offsetof(TVMFFIAny, ANY_VAL(v_c_str)), 8)                                        \
  X(offsetof(TVMFFIAny, ANY_VAL(v_obj)), 8)                                          \
  X(offsetof(TVMFFIAny, ANY_VAL(v_dtype)), 8) X(MEMBER_SIZE(TVMFFIAny, ANY_VAL(v_dtype)), 4) \
  X(offsetof(TVMFFIAny, ANY_VAL(v_device)), 8)                                       \
  X(MEMBER_SIZE(TVMFFIAny, ANY_VAL(v_device)), 8)                                    \
  X(offsetof(TVMFFIAny, ANY_VAL(v_bytes)), 8) X(MEMBER_SIZE(TVMFFIAny, ANY_VAL(v_bytes)), 8) \
  X(offsetof(TVMFFIAny, ANY_VAL(v_uint64)), 8)                                       \
  X(MEMBER_SIZE(TVMFFIAny, ANY_VAL(v_uint64)), 8)                                    \
  /* 2.4 TVMFFIByteArray */                                                          \
  X(sizeof(TVMFFIByteArray), 16) X(ALIGN_OF(TVMFFIByteArray), 8)                     \
  X(offsetof(TVMFFIByteArray, data), 0) X(offsetof(TVMFFIByteArray, size), 8)        \
  X(MEMBER_SIZE(TVMFFIByteArray, size), 8)                                           \
  /* 2.5 TVMFFIShapeCell */                                                          \
  X(sizeof(TVMFFIShapeCell), 16) X(offsetof(TVMFFIShapeCell, data), 0)               \
  X(offsetof(TVMFFIShapeCell, size), 8)                                              \
  /* 2.6 TVMFFISeqCell */                                                            \
  X(sizeof(TVMFFISeqCell), 32) X(offsetof(TVMFFISeqCell, data), 0)                   \
  X(offsetof(TVMFFISeqCell, size), 8) X(MEMBER_SIZE(TVMFFISeqCell, size), 8)         \
  X(offsetof(TVMFFISeqCell, capacity), 16) X(MEMBER_SIZE(TVMFFISeqCell, capacity), 8) \
  X(offsetof(TVMFFISeqCell, data_deleter), 24)                                       \
  /* 2.7 TVMFFIErrorCell */                                                          \
  X(sizeof(TVMFFIErrorCell), 72) X(offsetof(TVMFFIErrorCell, kind), 0)               \
  X(offsetof(TVMFFIErrorCell, message), 16) X(offsetof(TVMFFIErrorCell, backtrace), 32) \
  X(offsetof(TVMFFIErrorCell, update_backtrace), 48)                                 \
  X(offsetof(TVMFFIErrorCell, cause_chain), 56)                                      \
  X(offsetof(TVMFFIErrorCell, extra_context), 64)                                    \
  X(kTVMFFIBacktraceUpdateModeReplace, 0) X(kTVMFFIBacktraceUpdateModeAppend, 1)     \
  /* 2.8 TVMFFIFunctionCell */                                                       \
  X(sizeof(TVMFFIFunctionCell), 16) X(offsetof(TVMFFIFunctionCell, safe_call), 0)    \
  X(offsetof(TVMFFIFunctionCell, cpp_call), 8)                                       \
  /* 2.9 TVMFFIOpaqueObjectCell */                                                   \
  X(sizeof(TVMFFIOpaqueObjectCell), 8) X(offsetof(TVMFFIOpaqueObjectCell, handle), 0) \
  /* 2.10 TVMFFIObjectAllocHeader */                                                 \
  X(sizeof(TVMFFIObjectAllocHeader), 8)                                              \
  X(offsetof(TVMFFIObjectAllocHeader, delete_space), 0)                              \
  /* 2.11 TVMFFICustomAllocator */                                                   \
  X(sizeof(TVMFFICustomAllocator), 16) X(offsetof(TVMFFICustomAllocator, allocate), 0) \
  X(offsetof(TVMFFICustomAllocator, context), 8)

#define REFLECTION_FACTS(X)                                                          \
  /* 2.12 TVMFFIFieldInfo */                                                         \
  X(sizeof(TVMFFIFieldInfo), 120) X(ALIGN_OF(TVMFFIFieldInfo), 8)                    \
  X(offsetof(TVMFFIFieldInfo, name), 0) X(offsetof(TVMFFIFieldInfo, doc), 16)        \
  X(offsetof(TVMFFIFieldInfo, metadata), 32) X(offsetof(TVMFFIFieldInfo, flags), 48) \
  X(MEMBER_SIZE(TVMFFIFieldInfo, flags), 8)                                          \
  X(offsetof(TVMFFIFieldInfo, size), 56) X(offsetof(TVMFFIFieldInfo, alignment), 64) \
  X(offsetof(TVMFFIFieldInfo, offset), 72) X(offsetof(TVMFFIFieldInfo, getter), 80)  \
  X(offsetof(TVMFFIFieldInfo, setter), 88)                                           \
  X(offsetof(TVMFFIFieldInfo, default_value_or_factory), 96)                         \
  X(MEMBER_SIZE(TVMFFIFieldInfo, default_value_or_factory), 16)                      \
  X(offsetof(TVMFFIFieldInfo, field_static_type_index), 112)                         \
  X(MEMBER_SIZE(TVMFFIFieldInfo, field_static_type_index), 4)                        \
  /* 2.12 TVMFFIMethodInfo */                                                        \
  X(sizeof(TVMFFIMethodInfo), 72) X(offsetof(TVMFFIMethodInfo, name), 0)             \
  X(offsetof(TVMFFIMethodInfo, doc), 16) X(offsetof(TVMFFIMethodInfo, metadata), 32) \
  X(offsetof(TVMFFIMethodInfo, flags), 48) X(offsetof(TVMFFIMethodInfo, method), 56) \
  /* 2.12 TVMFFITypeMetadata */                                                      \
  X(sizeof(TVMFFITypeMetadata), 32) X(offsetof(TVMFFITypeMetadata, doc), 0)          \
  X(offsetof(TVMFFITypeMetadata, creator), 16)                                       \
  X(offsetof(TVMFFITypeMetadata, total_size), 24)                                    \
  X(MEMBER_SIZE(TVMFFITypeMetadata, total_size), 4)                                  \
  X(offsetof(TVMFFITypeMetadata, structural_eq_hash_kind), 28)                       \
  X(MEMBER_SIZE(TVMFFITypeMetadata, structural_eq_hash_kind), 4)                     \
  /* 2.12 TVMFFITypeAttrColumn */                                                    \
  X(sizeof(TVMFFITypeAttrColumn), 16) X(offsetof(TVMFFITypeAttrColumn, data), 0)     \
  X(offsetof(TVMFFITypeAttrColumn, size), 8)                                         \
  X(MEMBER_SIZE(TVMFFITypeAttrColumn, size), 4)                                      \
  X(offsetof(TVMFFITypeAttrColumn, begin_index), 12)                                 \
  /* 2.12 TVMFFITypeInfo */                                                          \
  X(sizeof(TVMFFITypeInfo), 72) X(offsetof(TVMFFITypeInfo, type_index), 0)           \
  X(offsetof(TVMFFITypeInfo, type_depth), 4) X(offsetof(TVMFFITypeInfo, type_key), 8) \
  X(offsetof(TVMFFITypeInfo, type_ancestors), 24)                                    \
  X(offsetof(TVMFFITypeInfo, type_key_hash), 32)                                     \
  X(MEMBER_SIZE(TVMFFITypeInfo, type_key_hash), 8)                                   \
  X(offsetof(TVMFFITypeInfo, num_fields), 40)                                        \
  X(offsetof(TVMFFITypeInfo, num_methods), 44) X(offsetof(TVMFFITypeInfo, fields), 48) \
  X(offsetof(TVMFFITypeInfo, methods), 56) X(offsetof(TVMFFITypeInfo, metadata), 64) \
  /* 2.13 function-pointer typedefs (prototypes are checked below) */                \
  X(sizeof(TVMFFISafeCallType), 8) X(sizeof(TVMFFIFieldGetter), 8)                   \
  X(sizeof(TVMFFIFieldSetter), 8) X(sizeof(TVMFFIObjectCreator), 8)                  \
  /* 2.14 TVMFFIFieldFlagBitMask */                                                  \
  X(kTVMFFIFieldFlagBitMaskWritable, 1) X(kTVMFFIFieldFlagBitMaskHasDefault, 2)      \
  X(kTVMFFIFieldFlagBitMaskIsStaticMethod, 4) X(kTVMFFIFieldFlagBitMaskSEqHashIgnore, 8) \
  X(kTVMFFIFieldFlagBitMaskSEqHashDefRecursive, 16)                                  \
  X(kTVMFFIFieldFlagBitMaskSEqHashDef, 16)                                           \
  X(kTVMFFIFieldFlagBitMaskDefaultFromFactory, 32) X(kTVMFFIFieldFlagBitMaskReprOff, 64) \
  X(kTVMFFIFieldFlagBitMaskCompareOff, 128) X(kTVMFFIFieldFlagBitMaskHashOff, 256)   \
  X(kTVMFFIFieldFlagBitMaskInitOff, 512) X(kTVMFFIFieldFlagBitMaskKwOnly, 1024)      \
  X(kTVMFFIFieldFlagBitSetterIsFunctionObj, 2048)                                    \
  X(kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive, 4096)                             \
  X(kTVMFFIFieldFlagBitMaskSEqHashDefPattern, 16)                                    \
  X(kTVMFFIFieldFlagBitMaskSEqHashDefSimple, 4096)                                   \
  /* 2.14 TVMFFISEqHashKind, TVMFFIDefRegionKind */                                  \
  X(kTVMFFISEqHashKindUnsupported, 0) X(kTVMFFISEqHashKindTreeNode, 1)               \
  X(kTVMFFISEqHashKindFreeVar, 2) X(kTVMFFISEqHashKindDAGNode, 3)                    \
  X(kTVMFFISEqHashKindConstTreeNode, 4) X(kTVMFFISEqHashKindUniqueInstance, 5)       \
  X(kTVMFFIDefRegionKindNone, 0) X(kTVMFFIDefRegionKindRecursive, 1)                 \
  X(kTVMFFIDefRegionKindNonRecursive, 2)                                             \
  X(kTVMFFIDefRegionKindPattern, 1) X(kTVMFFIDefRegionKindSimple, 2)

#define TYPE_INDEX_FACTS(X)                                                          \
  /* 3.1 TVMFFITypeIndex */                                                          \
  X(sizeof(TVMFFITypeIndex), 4)                                                      \
  X(kTVMFFIAny, -1) X(kTVMFFINone, 0) X(kTVMFFIInt, 1) X(kTVMFFIBool, 2)             \
  X(kTVMFFIFloat, 3) X(kTVMFFIOpaquePtr, 4) X(kTVMFFIDataType, 5) X(kTVMFFIDevice, 6) \
  X(kTVMFFIDLTensorPtr, 7) X(kTVMFFIRawStr, 8) X(kTVMFFIByteArrayPtr, 9)             \
  X(kTVMFFIObjectRValueRef, 10) X(kTVMFFISmallStr, 11) X(kTVMFFISmallBytes, 12)      \
  X(kTVMFFIUnchanged, 13)                                                            \
  X(kTVMFFIStaticObjectBegin, 64) X(kTVMFFIObject, 64) X(kTVMFFIStr, 65)             \
  X(kTVMFFIBytes, 66) X(kTVMFFIError, 67) X(kTVMFFIFunction, 68) X(kTVMFFIShape, 69) \
  X(kTVMFFITensor, 70) X(kTVMFFIArray, 71) X(kTVMFFIMap, 72) X(kTVMFFIModule, 73)    \
  X(kTVMFFIOpaquePyObject, 74) X(kTVMFFIList, 75) X(kTVMFFIDict, 76)                 \
  X(kTVMFFIVisitInterrupt, 77) X(kTVMFFIBigInt, 78) X(kTVMFFIStaticObjectEnd, 79)    \
  X(kTVMFFIDynObjectBegin, 128)                                                      \
  /* version macros */                                                               \
  X(TVM_FFI_VERSION_MAJOR, 0) X(TVM_FFI_VERSION_MINOR, 1) X(TVM_FFI_VERSION_PATCH, 16) \
  /* the union form of this build */                                                 \
  X(TVM_FFI_ANONYMOUS_UNIONS, EXPECT_ANONYMOUS)

#define ALL_FACTS(X) DLPACK_FACTS(X) CORE_FACTS(X) REFLECTION_FACTS(X) TYPE_INDEX_FACTS(X)

/* Compile time: all facts at once (the run-time table says which one broke). */
#define FACT_AND(expr, expected) ((long)(expr) == (long)(expected)) &&
typedef char layout_facts_hold[(ALL_FACTS(FACT_AND) 1) ? 1 : -1];

/* Compile time, one by one, where the language has static assertions. */
#if defined(__cplusplus)
#define FACT_STATIC(expr, expected) static_assert((long)(expr) == (long)(expected), #expr);
ALL_FACTS(FACT_STATIC)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define FACT_STATIC(expr, expected) _Static_assert((long)(expr) == (long)(expected), #expr);
ALL_FACTS(FACT_STATIC)
#endif

/* 2.13: the typedefs accept functions with exactly the spec's prototypes (a
 * mismatch is an error in C++ and a warning in C). */
static int safe_call_impl(void* handle, const TVMFFIAny* args, int32_t num_args,
                          TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  (void)result;
  return 0;
}
static int getter_impl(void* field, TVMFFIAny* result) {
  (void)field;
  (void)result;
  return 0;
}
static int setter_impl(void* field, const TVMFFIAny* value) {
  (void)field;
  (void)value;
  return 0;
}
static int creator_impl(TVMFFIObjectHandle* result) {
  (void)result;
  return 0;
}
static void object_deleter_impl(void* self, int flags) {
  (void)self;
  (void)flags;
}
static void update_backtrace_impl(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                                  int32_t update_mode) {
  (void)self;
  (void)backtrace;
  (void)update_mode;
}

typedef struct {
  const char* what;
  long actual;
  long expected;
} Fact;

#define FACT_ROW(expr, expected) {#expr, (long)(expr), (long)(expected)},
static const Fact kFacts[] = {ALL_FACTS(FACT_ROW){NULL, 0, 0}};

int main(void) {
  int passed = 0;
  int failed = 0;
  size_t i;
  TVMFFISafeCallType safe_call = safe_call_impl;
  TVMFFIFieldGetter getter = getter_impl;
  TVMFFIFieldSetter setter = setter_impl;
  TVMFFIObjectCreator creator = creator_impl;
  TVMFFIObject header;
  TVMFFIErrorCell cell;

  TVM_FFI_OBJECT_DELETER(&header) = object_deleter_impl;
  cell.update_backtrace = update_backtrace_impl;
  printf("layout test: %s unions, %s\n", TVM_FFI_ANONYMOUS_UNIONS ? "anonymous" : "named",
#if defined(__cplusplus)
         "C++"
#elif defined(__STDC_VERSION__)
         "C99 or later"
#else
         "C89"
#endif
  );
  for (i = 0; kFacts[i].what != NULL; ++i) {
    int ok = kFacts[i].actual == kFacts[i].expected;
    printf("%s %-62s = %4ld (spec %ld)\n", ok ? "ok  " : "FAIL", kFacts[i].what, kFacts[i].actual,
           kFacts[i].expected);
    if (ok) {
      ++passed;
    } else {
      ++failed;
    }
  }
  /* The prototypes were accepted above; make sure they are callable. */
  if (safe_call(NULL, NULL, 0, NULL) != 0 || getter(NULL, NULL) != 0 ||
      setter(NULL, NULL) != 0 || creator(NULL) != 0) {
    ++failed;
  }
  TVM_FFI_OBJECT_DELETER(&header)(&header, kTVMFFIObjectDeleterFlagBitMaskBoth);
  cell.update_backtrace(NULL, NULL, kTVMFFIBacktraceUpdateModeAppend);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
