//! Calling tvm-ffi from Rust: opens libtvm_ffi with dlopen (libloading), calls
//! global functions, builds an Array, passes a Rust closure as a callback,
//! reads errors as `Result`, and checks reference counts.
//!
//!   TVM_FFI_LIB=build/libtvm_ffi.so TVM_FFI_TESTING_LIB=build/libtvm_ffi_testing.so cargo run
mod tvm_ffi;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tvm_ffi::{Any, Error, Function};

struct Checks {
    passed: usize,
    failed: usize,
}

impl Checks {
    fn check(&mut self, ok: bool, what: &str) {
        if ok {
            self.passed += 1;
        } else {
            self.failed += 1;
            println!("FAIL: {what}");
        }
    }
}

fn global(name: &str) -> Function {
    Function::get_global(name).unwrap_or_else(|| panic!("no global function {name}"))
}

/// Counts how often it is dropped: shows when the library releases the callback.
struct DropCounter(Arc<AtomicUsize>);
impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn main() {
    let lib = std::env::var("TVM_FFI_LIB").expect("set TVM_FFI_LIB to the path of libtvm_ffi.so");
    let testing = std::env::var("TVM_FFI_TESTING_LIB").expect("set TVM_FFI_TESTING_LIB");
    tvm_ffi::load(&lib).expect("loading libtvm_ffi");
    tvm_ffi::load_extra(&testing).expect("loading libtvm_ffi_testing");
    let mut t = Checks { passed: 0, failed: 0 };

    // int, float and string arguments
    let r = global("testing.add_one").call(&[Any::Int(41)]);
    t.check(matches!(r, Ok(Any::Int(42))), "add_one(41) == 42");
    let echo = global("testing.echo");
    t.check(
        matches!(echo.call(&[Any::Float(2.5)]), Ok(Any::Float(v)) if v == 2.5),
        "echo(2.5)",
    );
    let long = "hello from Rust, longer than seven bytes".to_string();
    for s in ["hi".to_string(), long] {
        let r = echo.call(&[Any::Str(s.clone())]);
        t.check(
            matches!(&r, Ok(Any::Str(back)) if *back == s),
            &format!("echo({s:?}) -> {r:?}"),
        );
    }
    t.check(
        Function::get_global("testing.no_such_function").is_none(),
        "missing global is None",
    );

    // an Array: built by ffi.Array, read by ffi.ArraySize and ffi.ArrayGetItem
    let arr = global("ffi.Array")
        .call(&[Any::Int(10), Any::Int(20), Any::Int(30)])
        .unwrap();
    let arr_obj = arr.as_object().expect("an object").clone();
    t.check(
        arr_obj.type_index() == tvm_ffi::K_ARRAY,
        "ffi.Array returns an Array",
    );
    t.check(arr_obj.strong_count() == 2, "two references: `arr` and its clone");
    drop(arr_obj);
    let arr_obj = arr.as_object().unwrap();
    t.check(arr_obj.strong_count() == 1, "clone dropped");
    let size = global("ffi.ArraySize").call(&[arr.clone()]);
    t.check(matches!(size, Ok(Any::Int(3))), "ArraySize == 3");
    let item = global("ffi.ArrayGetItem").call(&[arr.clone(), Any::Int(1)]);
    t.check(matches!(item, Ok(Any::Int(20))), "ArrayGetItem(1) == 20");
    let sum = global("testing.array_sum_int").call(&[arr.clone()]);
    t.check(matches!(sum, Ok(Any::Int(60))), "array_sum_int == 60");
    let out_of_range = global("ffi.ArrayGetItem").call(&[arr.clone(), Any::Int(7)]);
    t.check(
        out_of_range.as_ref().err()
            == Some(&Error::new(
                "IndexError",
                "index 7 out of range for Array of size 3",
            )),
        &format!("ArrayGetItem(7) -> {:?}", out_of_range.as_ref().err()),
    );
    let uses = global("testing.object_use_count").call(&[arr.clone()]);
    t.check(
        matches!(uses, Ok(Any::Int(2))),
        "use count 2 while a clone is an argument",
    );
    t.check(arr_obj.strong_count() == 1, "every call only borrowed the Array");

    // a Rust closure the library calls back, and its error
    let calls = Arc::new(AtomicUsize::new(0));
    let drops = Arc::new(AtomicUsize::new(0));
    let adder = {
        let calls = calls.clone();
        let guard = DropCounter(drops.clone());
        Function::from_closure(move |args: &[Any]| {
            let _keep = &guard;
            calls.fetch_add(1, Ordering::SeqCst);
            match args {
                [Any::Int(a), Any::Int(b)] => Ok(Any::Int(a + b)),
                _ => Err(Error::new("TypeError", "adder: expected two ints")),
            }
        })
    };
    let apply = global("testing.apply");
    let r = apply.call(&[Any::Object(adder.0.clone()), Any::Int(20), Any::Int(22)]);
    t.check(matches!(r, Ok(Any::Int(42))), "apply(adder, 20, 22) == 42");
    t.check(calls.load(Ordering::SeqCst) == 1, "the closure ran once");
    let r = apply.call(&[Any::Object(adder.0.clone()), Any::Int(20), Any::Str("22".into())]);
    t.check(
        r.as_ref().err() == Some(&Error::new("TypeError", "adder: expected two ints")),
        &format!("the closure's error comes back: {:?}", r.as_ref().err()),
    );
    t.check(
        adder.0.strong_count() == 1,
        "the library kept no reference to the callback",
    );
    t.check(
        drops.load(Ordering::SeqCst) == 0,
        "closure alive while referenced",
    );
    drop(adder);
    t.check(
        drops.load(Ordering::SeqCst) == 1,
        "closure dropped exactly once with the Function",
    );

    // an error raised by the library
    let r = global("testing.raise_error").call(&[
        Any::Str("ValueError".into()),
        Any::Str("the value 7 is not allowed".into()),
    ]);
    t.check(
        r.as_ref().err() == Some(&Error::new("ValueError", "the value 7 is not allowed")),
        &format!("raise_error -> {:?}", r.as_ref().err()),
    );

    println!("{} passed, {} failed", t.passed, t.failed);
    std::process::exit(if t.failed == 0 { 0 } else { 1 });
}
