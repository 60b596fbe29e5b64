// Calling tvm-ffi from Go: opens libtvm_ffi with dlopen (cgo over dlfcn.h),
// calls global functions, builds an Array, passes a Go func as a callback,
// reads errors, and checks reference counts.
//
//	TVM_FFI_LIB=build/libtvm_ffi.so TVM_FFI_TESTING_LIB=build/libtvm_ffi_testing.so go run .
package main

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

var passed, failed int

func check(ok bool, what string, args ...any) {
	if ok {
		passed++
	} else {
		failed++
		fmt.Printf("FAIL: "+what+"\n", args...)
	}
}

func global(name string) Function {
	f, ok := GetGlobal(name)
	if !ok {
		panic("no global function " + name)
	}
	return f
}

func isFFIError(err error, kind, message string) bool {
	var fe *FFIError
	return errors.As(err, &fe) && fe.Kind == kind && fe.Message == message
}

func main() {
	if err := Load(os.Getenv("TVM_FFI_LIB")); err != nil {
		panic(err)
	}
	if err := LoadExtra(os.Getenv("TVM_FFI_TESTING_LIB")); err != nil {
		panic(err)
	}

	// int, float and string arguments
	addOne := global("testing.add_one")
	r, err := addOne.Call(41)
	check(err == nil && r == int64(42), "add_one(41) = %v, %v", r, err)
	echo := global("testing.echo")
	r, err = echo.Call(2.5)
	check(err == nil && r == 2.5, "echo(2.5) = %v, %v", r, err)
	for _, s := range []string{"hi", "hello from Go, longer than seven bytes"} {
		r, err = echo.Call(s)
		check(err == nil && r == s, "echo(%q) = %v, %v", s, r, err)
	}
	_, found := GetGlobal("testing.no_such_function")
	check(!found, "a missing global is not found")

	// an Array: built by ffi.Array, read by ffi.ArraySize and ffi.ArrayGetItem
	r, err = global("ffi.Array").Call(10, 20, 30)
	arr, isObj := r.(*Object)
	check(err == nil && isObj && arr.TypeIndex() == kArray, "ffi.Array returns an Array: %v, %v", r, err)
	check(arr.StrongCount() == 1, "a new Array has one reference")
	r, err = global("ffi.ArraySize").Call(arr)
	check(err == nil && r == int64(3), "ArraySize = %v, %v", r, err)
	r, err = global("ffi.ArrayGetItem").Call(arr, 1)
	check(err == nil && r == int64(20), "ArrayGetItem(1) = %v, %v", r, err)
	r, err = global("testing.array_sum_int").Call(arr)
	check(err == nil && r == int64(60), "array_sum_int = %v, %v", r, err)
	_, err = global("ffi.ArrayGetItem").Call(arr, 7)
	check(isFFIError(err, "IndexError", "index 7 out of range for Array of size 3"), "ArrayGetItem(7): %v", err)
	r, err = global("testing.object_use_count").Call(arr)
	check(err == nil && r == int64(1), "use count seen by the library = %v, %v", r, err)
	check(arr.StrongCount() == 1, "every call only borrowed the Array")
	arr.Release()

	// a Go func the library calls back, and its error
	calls := 0
	adder := NewFunction(func(args []any) (any, error) {
		calls++
		if len(args) == 2 {
			a, okA := args[0].(int64)
			b, okB := args[1].(int64)
			if okA && okB {
				return a + b, nil
			}
		}
		return nil, &FFIError{"TypeError", "adder: expected two ints"}
	})
	apply := global("testing.apply")
	r, err = apply.Call(adder, 20, 22)
	check(err == nil && r == int64(42) && calls == 1, "apply(adder, 20, 22) = %v, %v", r, err)
	_, err = apply.Call(adder, 20, "22")
	check(isFFIError(err, "TypeError", "adder: expected two ints"), "the callback's error: %v", err)
	check(adder.StrongCount() == 1, "the library kept no reference to the callback")
	check(ReleasedCallbacks.Load() == 0, "callback alive while referenced")
	adder.Release()
	check(ReleasedCallbacks.Load() == 1, "callback released exactly once with the Function")

	// an error raised by the library
	_, err = global("testing.raise_error").Call("ValueError", "the value 7 is not allowed")
	check(isFFIError(err, "ValueError", "the value 7 is not allowed"), "raise_error: %v", err)

	// Errors from many goroutines at once.  The error slot is per OS thread
	// and goroutines migrate between threads, so each failing call must
	// take its error on the thread that raised it; a bridge that read the
	// slot in a second cgo call would see "failed without raising" here.
	const workers, rounds = 8, 300
	var wg sync.WaitGroup
	wrong := make(chan string, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			failing := NewFunction(func(args []any) (any, error) {
				return nil, &FFIError{"KeyError", fmt.Sprint("worker ", args[0])}
			})
			defer failing.Release()
			raise := global("testing.raise_error")
			defer raise.Release()
			for i := 0; i < rounds; i++ {
				msg := fmt.Sprint("worker ", w)
				if _, err := apply.Call(failing, w); !isFFIError(err, "KeyError", msg) {
					wrong <- fmt.Sprintf("callback error %v", err)
					return
				}
				if _, err := raise.Call("IndexError", msg); !isFFIError(err, "IndexError", msg) {
					wrong <- fmt.Sprintf("raise_error %v", err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(wrong)
	firstWrong := <-wrong
	check(firstWrong == "", "errors raised on many goroutines: %s", firstWrong)

	for _, f := range []Function{addOne, echo, apply} {
		f.Release()
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed != 0 {
		os.Exit(1)
	}
}
