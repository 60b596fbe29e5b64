// Calling tvm-ffi from Node.js: opens libtvm_ffi at run time with koffi,
// calls global functions, builds an Array, passes a JS function as a
// callback, reads errors, and checks reference counts.
//
//   TVM_FFI_LIB=build/libtvm_ffi.so TVM_FFI_TESTING_LIB=build/libtvm_ffi_testing.so node lang_test.js
'use strict';
const ffi = require('./tvm_ffi');

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAIL: ${what}`);
  }
}
function global(name) {
  const f = ffi.Function.getGlobal(name);
  if (f === null) throw new Error(`no global function ${name}`);
  return f;
}
// The FFIError a call throws, or null.
function errorOf(thunk) {
  try {
    thunk();
    return null;
  } catch (e) {
    if (e instanceof ffi.FFIError) return e;
    throw e;
  }
}

ffi.load(process.env.TVM_FFI_LIB);
ffi.loadExtra(process.env.TVM_FFI_TESTING_LIB);

// int (BigInt), float (number) and string arguments
check(global('testing.add_one').call(41n) === 42n, 'add_one(41n) === 42n');
const echo = global('testing.echo');
check(echo.call(2.5) === 2.5, 'echo(2.5)');
for (const s of ['hi', 'hello from Node.js, longer than seven bytes']) {
  const r = echo.call(s);
  check(r === s, `echo(${JSON.stringify(s)}) -> ${JSON.stringify(r)}`);
}
check(ffi.Function.getGlobal('testing.no_such_function') === null, 'a missing global is null');

// an Array: built by ffi.Array, read by ffi.ArraySize and ffi.ArrayGetItem
const arr = global('ffi.Array').call(10n, 20n, 30n);
check(arr instanceof ffi.Obj && arr.typeIndex === ffi.kArray, 'ffi.Array returns an Array');
check(arr.strongCount === 1, 'a new Array has one reference');
check(global('ffi.ArraySize').call(arr) === 3n, 'ArraySize === 3n');
check(global('ffi.ArrayGetItem').call(arr, 1n) === 20n, 'ArrayGetItem(1n) === 20n');
check(global('testing.array_sum_int').call(arr) === 60n, 'array_sum_int === 60n');
let e = errorOf(() => global('ffi.ArrayGetItem').call(arr, 7n));
check(e && e.kind === 'IndexError' && e.ffiMessage === 'index 7 out of range for Array of size 3',
      `ArrayGetItem(7n): ${e}`);
check(global('testing.object_use_count').call(arr) === 1n, 'use count seen by the library');
check(arr.strongCount === 1, 'every call only borrowed the Array');
arr.release();

// a JS function the library calls back, and its error
let calls = 0;
const adder = ffi.makeFunction((a, b) => {
  calls++;
  if (typeof a !== 'bigint' || typeof b !== 'bigint') {
    throw new ffi.FFIError('TypeError', 'adder: expected two ints');
  }
  return a + b;
});
const apply = global('testing.apply');
check(apply.call(adder, 20n, 22n) === 42n && calls === 1, 'apply(adder, 20n, 22n) === 42n');
e = errorOf(() => apply.call(adder, 20n, '22'));
check(e && e.kind === 'TypeError' && e.ffiMessage === 'adder: expected two ints', `the callback's error: ${e}`);
check(adder.strongCount === 1, 'the library kept no reference to the callback');
check(ffi.releasedClosures() === 0, 'callback alive while referenced');
adder.release();
check(ffi.releasedClosures() === 1, 'callback released exactly once with the Function');

// an error raised by the library
e = errorOf(() => global('testing.raise_error').call('ValueError', 'the value 7 is not allowed'));
check(e && e.kind === 'ValueError' && e.ffiMessage === 'the value 7 is not allowed', `raise_error: ${e}`);

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
