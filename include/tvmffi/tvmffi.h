// The whole header-only C++17 API over the tvm-ffi C ABI, in one include.
//
// Everything under include/tvmffi/ is inline and calls only the functions that
// libtvm_ffi exports, so a kernel library needs nothing but `-ltvm_ffi`.  The
// directory name keeps it clear of apache-tvm-ffi's own tvm/ffi/*.h when both
// are installed in one prefix.
#ifndef TVMFFI_TVMFFI_H_
#define TVMFFI_TVMFFI_H_

#include "object.h"
#include "error.h"
#include "string.h"
#include "any.h"
#include "any_equal.h"
#include "function.h"
#include "array.h"
#include "list.h"
#include "map.h"
#include "dict.h"
#include "shape.h"
#include "dtype.h"
#include "tensor.h"
#include "env.h"
#include "sentinel.h"
#include "reflection.h"
#include "structural.h"
#include "module.h"
#include "export.h"
#include "big_int.h"

#endif  // TVMFFI_TVMFFI_H_
