// A small Node.js wrapper over the C ABI of libtvm_ffi, loaded at run time
// with koffi (no native addon to build).
//
// Values are JS values (null, numbers as floats, BigInt as ints, booleans,
// strings, Obj); an Obj holds one strong reference until release().  A call
// that fails throws an FFIError with the kind and message the callee raised.
// makeFunction turns a JS function into a Function the library can call back.
'use strict';
const koffi = require('koffi');

// Type indices and sizes of tvm/ffi/c_api.h.
const kNone = 0, kInt = 1, kBool = 2, kFloat = 3, kRawStr = 8, kSmallStr = 11;
const kObjectBase = 64, kStr = 65, kArray = 71;
const ANY_SIZE = 16; // TVMFFIAny: { i32 type_index, u32 small_str_len, 8-byte payload }
const HEADER_SIZE = 24; // a type's cell follows the object header

let api = null;
const keepLoaded = [];

// The safe-call convention and a closure deleter, as koffi prototypes.
// `self` is declared as an integer: it carries the id of a JS function.
const SafeCall = koffi.proto('int TVMFFISafeCall(uintptr_t self, void *args, int32_t n, void *result)');
const Deleter = koffi.proto('void TVMFFIDeleter(uintptr_t self)');

function load(path) {
  const lib = koffi.load(path);
  api = {
    incRef: lib.func('int TVMFFIObjectIncRef(void *obj)'),
    decRef: lib.func('int TVMFFIObjectDecRef(void *obj)'),
    getGlobal: lib.func('int TVMFFIFunctionGetGlobal(void *name, _Out_ void **out)'),
    functionCreate: lib.func(
        'int TVMFFIFunctionCreate(uintptr_t self, TVMFFISafeCall *call, TVMFFIDeleter *deleter, _Out_ void **out)'),
    functionCall: lib.func('int TVMFFIFunctionCall(void *func, void *args, int32_t n, void *result)'),
    errorMoveFromRaised: lib.func('void TVMFFIErrorMoveFromRaised(_Out_ void **out)'),
    errorSetRaised: lib.func('void TVMFFIErrorSetRaisedFromCStr(const char *kind, const char *message)'),
  };
  keepLoaded.push(lib);
}

// Another library, e.g. one that registers global functions; stays loaded.
function loadExtra(path) {
  keepLoaded.push(koffi.load(path));
}

class FFIError extends Error {
  constructor(kind, message) {
    super(`${kind}: ${message}`);
    this.kind = kind;
    this.ffiMessage = message;
  }
}

// One strong reference to an object; `handle` is a koffi pointer.
class Obj {
  constructor(handle) {
    this.handle = handle;
  }
  get typeIndex() {
    return koffi.decode(this.handle, 8, 'int32');
  }
  // The low 32 bits of the header's reference-count word.
  get strongCount() {
    return koffi.decode(this.handle, 0, 'uint32');
  }
  retain() {
    api.incRef(this.handle);
    return new Obj(this.handle);
  }
  release() {
    api.decRef(this.handle);
    this.handle = null;
  }
}

// Reads a TVMFFIByteArray { const char *data; size_t size } at ptr + offset.
function byteArrayString(ptr, offset) {
  const data = koffi.decode(ptr, offset, 'void *');
  const size = Number(koffi.decode(ptr, offset + 8, 'size_t'));
  return size === 0 ? '' : Buffer.from(koffi.decode(data, 'uint8_t', size)).toString('utf8');
}

// Reads the value at `mem` (a Buffer or a pointer) + offset.  owned: the
// value's reference becomes ours (strings are copied and released).
function readAny(mem, offset, owned) {
  const type = koffi.decode(mem, offset, 'int32');
  switch (type) {
    case kNone: return null;
    case kInt: return BigInt(koffi.decode(mem, offset + 8, 'int64')); // always a BigInt
    case kBool: return BigInt(koffi.decode(mem, offset + 8, 'int64')) !== 0n;
    case kFloat: return koffi.decode(mem, offset + 8, 'double');
    case kRawStr: return koffi.decode(mem, offset + 8, 'const char *');
    case kSmallStr: {
      const len = koffi.decode(mem, offset + 4, 'uint32');
      return Buffer.from(koffi.decode(mem, offset + 8, 'uint8_t', 8)).subarray(0, len).toString('utf8');
    }
  }
  if (type < kObjectBase) return `<value of type index ${type}>`;
  const handle = koffi.decode(mem, offset + 8, 'void *');
  if (type === kStr) {
    const text = byteArrayString(handle, HEADER_SIZE);
    if (owned) api.decRef(handle);
    return text;
  }
  if (!owned) api.incRef(handle);
  return new Obj(handle);
}

// Writes a view of `value` at buf + offset; strings are kept alive in `keep`.
function writeAny(buf, offset, value, keep) {
  buf.fill(0, offset, offset + ANY_SIZE);
  if (value === null || value === undefined) return;
  if (typeof value === 'bigint') {
    buf.writeInt32LE(kInt, offset);
    buf.writeBigInt64LE(value, offset + 8);
  } else if (typeof value === 'number') {
    buf.writeInt32LE(kFloat, offset);
    buf.writeDoubleLE(value, offset + 8);
  } else if (typeof value === 'boolean') {
    buf.writeInt32LE(kBool, offset);
    buf.writeBigInt64LE(value ? 1n : 0n, offset + 8);
  } else if (typeof value === 'string') {
    const s = Buffer.from(value + '\0', 'utf8');
    keep.push(s);
    buf.writeInt32LE(kRawStr, offset);
    buf.writeBigUInt64LE(koffi.address(s), offset + 8);
  } else if (value instanceof Obj) {
    buf.writeInt32LE(value.typeIndex, offset);
    buf.writeBigUInt64LE(koffi.address(value.handle), offset + 8);
  } else {
    throw new TypeError(`cannot pass ${typeof value} ${value}`);
  }
}

function takeRaised() {
  const out = [null];
  api.errorMoveFromRaised(out);
  if (out[0] === null) return new FFIError('InternalError', 'a call failed without raising an error');
  const err = new FFIError(byteArrayString(out[0], HEADER_SIZE), byteArrayString(out[0], HEADER_SIZE + 16));
  api.decRef(out[0]);
  return err;
}

class Function extends Obj {
  // Looks up a global function; null when no function has that name.
  static getGlobal(name) {
    const bytes = Buffer.from(name, 'utf8');
    const nameArray = Buffer.alloc(16); // TVMFFIByteArray
    nameArray.writeBigUInt64LE(koffi.address(bytes), 0);
    nameArray.writeBigUInt64LE(BigInt(bytes.length), 8);
    const out = [null];
    if (api.getGlobal(nameArray, out) !== 0) throw takeRaised();
    return out[0] === null ? null : new Function(out[0]);
  }

  // Calls with JS values as arguments (views, borrowed for the call).
  call(...args) {
    const keep = [];
    const buf = Buffer.alloc(ANY_SIZE * (args.length + 1)); // the last slot is the result
    args.forEach((a, i) => writeAny(buf, i * ANY_SIZE, a, keep));
    const result = buf.subarray(args.length * ANY_SIZE);
    if (api.functionCall(this.handle, buf, args.length, result) !== 0) throw takeRaised();
    return readAny(result, 0, true);
  }
}

// JS functions made into Functions, by closure id, until the library lets go.
const closures = new Map();
let nextClosureId = 1;
let releasedClosures = 0;

function raise(kind, message) {
  api.errorSetRaised(kind, message);
  return -1;
}

// The library calls this for every call of every JS Function.
const safeCall = koffi.register((self, args, n, result) => {
  const fn = closures.get(Number(self)).fn;
  try {
    const values = [];
    for (let i = 0; i < n; i++) values.push(readAny(args, i * ANY_SIZE, false));
    const out = fn(...values);
    for (const v of values) if (v instanceof Obj) v.release();
    if (typeof out === 'bigint') {
      koffi.encode(result, 0, 'int32', kInt);
      koffi.encode(result, 8, 'int64', out);
    } else if (typeof out === 'number') {
      koffi.encode(result, 0, 'int32', kFloat);
      koffi.encode(result, 8, 'double', out);
    } else if (out !== null && out !== undefined) {
      return raise('TypeError', `a JS callback cannot return ${typeof out} in this sample`);
    }
    return 0;
  } catch (e) {
    // No JS exception may cross into C: it becomes the raised error.
    return e instanceof FFIError ? raise(e.kind, e.ffiMessage) : raise('RuntimeError', String(e));
  }
}, koffi.pointer(SafeCall));

const deleter = koffi.register((self) => {
  closures.delete(Number(self));
  releasedClosures++;
}, koffi.pointer(Deleter));

// Wraps a JS function (called with JS values; throw FFIError to raise).
function makeFunction(fn) {
  const id = nextClosureId++;
  closures.set(id, { fn });
  const out = [null];
  // The closure pointer is just the id: the JS side keeps the function.
  if (api.functionCreate(id, safeCall, deleter, out) !== 0) {
    closures.delete(id);
    throw takeRaised();
  }
  return new Function(out[0]);
}

module.exports = {
  load, loadExtra, Obj, Function, FFIError, makeFunction, kArray,
  releasedClosures: () => releasedClosures,
};
