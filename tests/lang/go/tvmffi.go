// A small Go wrapper over the C ABI of libtvm_ffi, loaded with dlopen.
//
// Values are Go values (nil, int64, bool, float64, string, *Object); an
// *Object holds one strong reference until Release.  Calls return (value,
// error), and a failed call's error is an *FFIError with the kind and message
// the callee raised.  NewFunction turns a Go func into a Function the library
// can call back.
package main

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "bridge.h"
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"
)

// Type indices of tvm/ffi/c_api.h.
const (
	kNone       = 0
	kInt        = 1
	kBool       = 2
	kFloat      = 3
	kRawStr     = 8
	kSmallStr   = 11
	kObjectBase = 64
	kStr        = 65
	kArray      = 71
)

// The object header is 24 bytes; a type's cell follows it.
const headerSize = 24

// Load opens libtvm_ffi at path.
func Load(path string) error {
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	if msg := C.bridge_load(p); msg != nil {
		return fmt.Errorf("loading %s: %s", path, C.GoString(msg))
	}
	return nil
}

// LoadExtra opens another library, e.g. one that registers global functions.
func LoadExtra(path string) error {
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	if msg := C.bridge_load_extra(p); msg != nil {
		return fmt.Errorf("loading %s: %s", path, C.GoString(msg))
	}
	return nil
}

// Object is one strong reference to an FFI object.
type Object struct{ h unsafe.Pointer }

// Release drops the reference; the Object must not be used afterwards.
func (o *Object) Release() { C.bridge_dec_ref(o.h); o.h = nil }

// Retain returns a second reference to the same object.
func (o *Object) Retain() *Object { C.bridge_inc_ref(o.h); return &Object{o.h} }

// TypeIndex is the type_index field of the object header.
func (o *Object) TypeIndex() int32 { return *(*int32)(unsafe.Add(o.h, 8)) }

// StrongCount is the low 32 bits of the header's reference-count word.
func (o *Object) StrongCount() uint32 { return uint32(*(*uint64)(o.h)) }

// FFIError is an error raised across the ABI.
type FFIError struct{ Kind, Message string }

func (e *FFIError) Error() string { return e.Kind + ": " + e.Message }

func byteArrayString(p unsafe.Pointer) string {
	b := (*C.ByteArray)(p)
	return C.GoStringN(b.data, C.int(b.size))
}

// takeRaised converts (and releases) an error the bridge took from the slot.
func takeRaised(h unsafe.Pointer) *FFIError {
	if h == nil {
		return &FFIError{"InternalError", "a call failed without raising an error"}
	}
	defer C.bridge_dec_ref(h)
	cell := unsafe.Add(h, headerSize) // {kind, message, ...}
	return &FFIError{byteArrayString(cell), byteArrayString(unsafe.Add(cell, 16))}
}

// fromOwned converts an owned raw value; strings become Go strings.
func fromOwned(a C.Any) any {
	switch {
	case a.type_index == kNone:
		return nil
	case a.type_index == kInt:
		return int64(a.payload)
	case a.type_index == kBool:
		return a.payload != 0
	case a.type_index == kFloat:
		return *(*float64)(unsafe.Pointer(&a.payload))
	case a.type_index == kSmallStr:
		b := (*[8]byte)(unsafe.Pointer(&a.payload))
		return string(b[:a.small_str_len])
	case a.type_index == kStr:
		h := unsafe.Pointer(uintptr(a.payload))
		defer C.bridge_dec_ref(h)
		return byteArrayString(unsafe.Add(h, headerSize))
	case a.type_index >= kObjectBase:
		return &Object{unsafe.Pointer(uintptr(a.payload))}
	}
	return fmt.Sprintf("<value of type index %d>", a.type_index)
}

// Function is an ffi.Function.
type Function struct{ *Object }

// GetGlobal looks up a global function; ok is false when there is none.
func GetGlobal(name string) (f Function, ok bool) {
	n := C.CString(name)
	defer C.free(unsafe.Pointer(n))
	var h unsafe.Pointer
	if C.bridge_get_global(n, C.size_t(len(name)), &h) != 0 || h == nil {
		return Function{}, false
	}
	return Function{&Object{h}}, true
}

// Call calls f with Go values as arguments (borrowed for the call).
func (f Function) Call(args ...any) (any, error) {
	// Allocated by C: the library keeps no pointer into Go memory.
	raw := unsafe.Slice((*C.Any)(C.calloc(C.size_t(len(args)+1), C.sizeof_Any)), len(args)+1)
	defer C.free(unsafe.Pointer(&raw[0]))
	for i, a := range args {
		switch v := a.(type) {
		case nil:
		case int:
			raw[i] = C.Any{type_index: kInt, payload: C.uint64_t(int64(v))}
		case int64:
			raw[i] = C.Any{type_index: kInt, payload: C.uint64_t(v)}
		case bool:
			raw[i].type_index = kBool
			if v {
				raw[i].payload = 1
			}
		case float64:
			raw[i] = C.Any{type_index: kFloat, payload: C.uint64_t(*(*uint64)(unsafe.Pointer(&v)))}
		case string:
			s := C.CString(v)
			defer C.free(unsafe.Pointer(s))
			raw[i] = C.Any{type_index: kRawStr, payload: C.uint64_t(uintptr(unsafe.Pointer(s)))}
		case *Object:
			raw[i] = C.Any{type_index: C.int32_t(v.TypeIndex()), payload: C.uint64_t(uintptr(v.h))}
		case Function:
			raw[i] = C.Any{type_index: C.int32_t(v.TypeIndex()), payload: C.uint64_t(uintptr(v.h))}
		default:
			return nil, fmt.Errorf("cannot pass a %T", a)
		}
	}
	result := &raw[len(args)] // starts as None
	var e unsafe.Pointer
	if C.bridge_call(f.h, &raw[0], C.int32_t(len(args)), result, &e) != 0 {
		return nil, takeRaised(e)
	}
	return fromOwned(*result), nil
}

// GoFunc is a callback: it gets the arguments (objects are borrowed) and
// returns a value or an error, which the caller receives as an FFIError.
type GoFunc func(args []any) (any, error)

// NewFunction wraps fn as a Function; fn is released with the Function.
func NewFunction(fn GoFunc) Function {
	handle := cgo.NewHandle(fn)
	var h, e unsafe.Pointer
	if C.bridge_function_from_go(C.uintptr_t(handle), &h, &e) != 0 {
		handle.Delete()
		panic(takeRaised(e))
	}
	return Function{&Object{h}}
}

//export goCallback
func goCallback(handle C.uintptr_t, args *C.Any, n C.int32_t, result *C.Any) (rc C.int) {
	raise := func(kind, message string) C.int {
		k, m := C.CString(kind), C.CString(message)
		defer C.free(unsafe.Pointer(k))
		defer C.free(unsafe.Pointer(m))
		C.bridge_error_set_raised(k, m)
		return -1
	}
	// A panic must not unwind into C: it becomes an error like any other.
	defer func() {
		if p := recover(); p != nil {
			rc = raise("RuntimeError", fmt.Sprint("Go callback panicked: ", p))
		}
	}()
	fn := cgo.Handle(handle).Value().(GoFunc)
	values := make([]any, int(n))
	for i, a := range unsafe.Slice(args, int(n)) {
		switch {
		case a.type_index == kRawStr:
			values[i] = C.GoString((*C.char)(unsafe.Pointer(uintptr(a.payload))))
		case a.type_index >= kObjectBase && a.type_index != kStr:
			values[i] = &Object{unsafe.Pointer(uintptr(a.payload))} // borrowed
		case a.type_index == kStr:
			values[i] = byteArrayString(unsafe.Add(unsafe.Pointer(uintptr(a.payload)), headerSize))
		default:
			values[i] = fromOwned(a)
		}
	}
	out, err := fn(values)
	if err != nil {
		if fe, ok := err.(*FFIError); ok {
			return raise(fe.Kind, fe.Message)
		}
		return raise("RuntimeError", err.Error())
	}
	switch v := out.(type) {
	case int64:
		*result = C.Any{type_index: kInt, payload: C.uint64_t(v)}
	case float64:
		*result = C.Any{type_index: kFloat, payload: C.uint64_t(*(*uint64)(unsafe.Pointer(&v)))}
	case nil:
	default:
		return raise("TypeError", fmt.Sprintf("a Go callback cannot return a %T in this sample", out))
	}
	return 0
}

// ReleasedCallbacks counts the Go funcs the library has let go of.
var ReleasedCallbacks atomic.Int64

//export goRelease
func goRelease(handle C.uintptr_t) {
	cgo.Handle(handle).Delete()
	ReleasedCallbacks.Add(1)
}
