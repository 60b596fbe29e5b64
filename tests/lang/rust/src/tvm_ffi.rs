//! A small safe wrapper over the C ABI of libtvm_ffi, loaded at run time.
//!
//! - [`load`] opens the library (no link-time dependency) and keeps it loaded.
//! - [`Any`] is an owned value; objects are [`Object`]s, which hold one strong
//!   reference and release it on `Drop` (`Clone` adds one).
//! - [`Function::call`] returns `Result<Any, Error>`; an [`Error`] is the kind
//!   and message of the error the callee raised.
//! - [`Function::from_closure`] turns a Rust closure into a Function the
//!   library can call back.
use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::OnceLock;

// ---- the C layouts (tvm/ffi/c_api.h) --------------------------------------

const K_NONE: i32 = 0;
const K_INT: i32 = 1;
const K_BOOL: i32 = 2;
const K_FLOAT: i32 = 3;
const K_RAW_STR: i32 = 8;
const K_BYTE_ARRAY_PTR: i32 = 9;
const K_SMALL_STR: i32 = 11;
const K_OBJECT_BEGIN: i32 = 64;
const K_STR: i32 = 65;
const K_ERROR: i32 = 67;
/// Type index of ffi.Array.
pub const K_ARRAY: i32 = 71;

/// TVMFFIAny: { i32 type_index, u32 zero_padding | small_str_len, 8-byte payload }.
#[repr(C)]
#[derive(Clone, Copy)]
struct RawAny {
    type_index: i32,
    small_str_len: u32,
    payload: u64,
}

impl RawAny {
    const NONE: RawAny = RawAny {
        type_index: K_NONE,
        small_str_len: 0,
        payload: 0,
    };
}

/// TVMFFIByteArray: { const char* data, size_t size }.
#[repr(C)]
struct ByteArray {
    data: *const u8,
    size: usize,
}

/// The object header: { u64 combined_ref_count, i32 type_index, u32 pad, deleter }.
#[repr(C)]
struct ObjectHeader {
    combined_ref_count: u64,
    type_index: i32,
    zero_padding: u32,
    deleter: *const c_void,
}

/// Cell of ffi.Error right after the 24-byte header (first fields only).
#[repr(C)]
struct ErrorCell {
    kind: ByteArray,
    message: ByteArray,
}

type Handle = *mut c_void;
type SafeCall = unsafe extern "C" fn(*mut c_void, *const RawAny, i32, *mut RawAny) -> c_int;

struct Api {
    _lib: libloading::Library,
    inc_ref: unsafe extern "C" fn(Handle) -> c_int,
    dec_ref: unsafe extern "C" fn(Handle) -> c_int,
    get_global: unsafe extern "C" fn(*const ByteArray, *mut Handle) -> c_int,
    function_create: unsafe extern "C" fn(
        *mut c_void,
        SafeCall,
        Option<unsafe extern "C" fn(*mut c_void)>,
        *mut Handle,
    ) -> c_int,
    function_call: unsafe extern "C" fn(Handle, *mut RawAny, i32, *mut RawAny) -> c_int,
    error_move_from_raised: unsafe extern "C" fn(*mut Handle),
    error_set_raised_from_cstr: unsafe extern "C" fn(*const c_char, *const c_char),
}

static API: OnceLock<Api> = OnceLock::new();
static EXTRA_LIBS: OnceLock<std::sync::Mutex<Vec<libloading::Library>>> = OnceLock::new();

fn api() -> &'static Api {
    API.get().expect("tvm_ffi::load was not called")
}

/// Opens libtvm_ffi at `path` and keeps it loaded for the life of the process.
pub fn load(path: &str) -> Result<(), libloading::Error> {
    // SAFETY: loading a library runs its initialisers; libtvm_ffi's only set up its registries.
    unsafe {
        let lib = libloading::Library::new(path)?;
        let api = Api {
            inc_ref: *lib.get(b"TVMFFIObjectIncRef\0")?,
            dec_ref: *lib.get(b"TVMFFIObjectDecRef\0")?,
            get_global: *lib.get(b"TVMFFIFunctionGetGlobal\0")?,
            function_create: *lib.get(b"TVMFFIFunctionCreate\0")?,
            function_call: *lib.get(b"TVMFFIFunctionCall\0")?,
            error_move_from_raised: *lib.get(b"TVMFFIErrorMoveFromRaised\0")?,
            error_set_raised_from_cstr: *lib.get(b"TVMFFIErrorSetRaisedFromCStr\0")?,
            _lib: lib,
        };
        let _ = API.set(api);
    }
    Ok(())
}

/// Opens another library (e.g. one that registers global functions) and keeps it loaded.
pub fn load_extra(path: &str) -> Result<(), libloading::Error> {
    // SAFETY: as in `load`; its initialisers register functions with the loaded libtvm_ffi.
    let lib = unsafe { libloading::Library::new(path)? };
    EXTRA_LIBS.get_or_init(Default::default).lock().unwrap().push(lib);
    Ok(())
}

// ---- values ---------------------------------------------------------------

/// An owned reference to an object; released on drop.
pub struct Object(Handle);

impl Object {
    /// Takes over one reference the caller owns.
    unsafe fn from_owned(h: Handle) -> Object {
        Object(h)
    }
    /// Adds a reference to a borrowed handle.
    unsafe fn from_borrowed(h: Handle) -> Object {
        (api().inc_ref)(h);
        Object(h)
    }
    pub fn type_index(&self) -> i32 {
        // SAFETY: a live object starts with the header.
        unsafe { (*(self.0 as *const ObjectHeader)).type_index }
    }
    /// The strong reference count (low 32 bits of the header's first word).
    pub fn strong_count(&self) -> u32 {
        // SAFETY: as above; the count is read once, without synchronisation, for tests.
        unsafe { (*(self.0 as *const ObjectHeader)).combined_ref_count as u32 }
    }
    fn cell<T>(&self) -> *const T {
        (self.0 as usize + std::mem::size_of::<ObjectHeader>()) as *const T
    }
}

impl Clone for Object {
    fn clone(&self) -> Object {
        // SAFETY: self holds a reference, so the handle is live.
        unsafe { Object::from_borrowed(self.0) }
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        // SAFETY: we own exactly one reference.
        unsafe { (api().dec_ref)(self.0) };
    }
}

/// An owned value.
#[derive(Clone)]
pub enum Any {
    None,
    Int(i64),
    Bool(bool),
    Float(f64),
    Str(String),
    Object(Object),
}

impl std::fmt::Debug for Any {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Any::None => write!(f, "None"),
            Any::Int(v) => write!(f, "Int({v})"),
            Any::Bool(v) => write!(f, "Bool({v})"),
            Any::Float(v) => write!(f, "Float({v})"),
            Any::Str(v) => write!(f, "Str({v:?})"),
            Any::Object(o) => write!(f, "Object(type_index {})", o.type_index()),
        }
    }
}

unsafe fn bytes_to_string(b: &ByteArray) -> String {
    String::from_utf8_lossy(std::slice::from_raw_parts(b.data, b.size)).into_owned()
}

impl Any {
    /// Takes over an owned raw value (strings become Rust Strings).
    unsafe fn from_owned_raw(raw: RawAny) -> Any {
        match raw.type_index {
            K_NONE => Any::None,
            K_INT => Any::Int(raw.payload as i64),
            K_BOOL => Any::Bool(raw.payload != 0),
            K_FLOAT => Any::Float(f64::from_bits(raw.payload)),
            K_SMALL_STR => {
                let bytes = raw.payload.to_ne_bytes();
                Any::Str(String::from_utf8_lossy(&bytes[..raw.small_str_len as usize]).into_owned())
            }
            K_STR => {
                let obj = Object::from_owned(raw.payload as Handle);
                Any::Str(bytes_to_string(&*obj.cell::<ByteArray>()))
            }
            t if t >= K_OBJECT_BEGIN => Any::Object(Object::from_owned(raw.payload as Handle)),
            // Other inline values (pointers, dtypes, devices) are not needed here.
            t => Any::Str(format!("<value of type index {t}>")),
        }
    }

    /// Makes an owned value from a borrowed view (a callback's arguments).
    unsafe fn from_view(raw: &RawAny) -> Any {
        if raw.type_index >= K_OBJECT_BEGIN {
            Any::from_owned_raw(RawAny {
                payload: Object::from_borrowed(raw.payload as Handle).into_raw(),
                ..*raw
            })
        } else if raw.type_index == K_RAW_STR {
            let s = std::ffi::CStr::from_ptr(raw.payload as *const c_char);
            Any::Str(s.to_string_lossy().into_owned())
        } else if raw.type_index == K_BYTE_ARRAY_PTR {
            Any::Str(bytes_to_string(&*(raw.payload as *const ByteArray)))
        } else {
            Any::from_owned_raw(*raw)
        }
    }

    /// Gives up ownership as a raw value (the reference goes with it).
    fn into_raw(self) -> Result<RawAny, Error> {
        Ok(match self {
            Any::None => RawAny::NONE,
            Any::Int(v) => RawAny {
                type_index: K_INT,
                small_str_len: 0,
                payload: v as u64,
            },
            Any::Bool(v) => RawAny {
                type_index: K_BOOL,
                small_str_len: 0,
                payload: v as u64,
            },
            Any::Float(v) => RawAny {
                type_index: K_FLOAT,
                small_str_len: 0,
                payload: v.to_bits(),
            },
            Any::Object(o) => RawAny {
                type_index: o.type_index(),
                small_str_len: 0,
                payload: o.into_raw(),
            },
            Any::Str(_) => {
                return Err(Error::new(
                    "TypeError",
                    "a Rust callback cannot return a string in this sample",
                ))
            }
        })
    }

    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Any::Object(o) => Some(o),
            _ => None,
        }
    }
}

impl Object {
    fn into_raw(self) -> u64 {
        let h = self.0 as u64;
        std::mem::forget(self);
        h
    }
}

// ---- errors ---------------------------------------------------------------

/// An error raised on the other side of the ABI.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub kind: String,
    pub message: String,
}

impl Error {
    pub fn new(kind: &str, message: &str) -> Error {
        Error {
            kind: kind.to_string(),
            message: message.to_string(),
        }
    }

    /// Takes the error out of this thread's error slot.
    fn take_raised() -> Error {
        let mut h: Handle = std::ptr::null_mut();
        // SAFETY: writes a new reference or NULL into h.
        unsafe { (api().error_move_from_raised)(&mut h) };
        if h.is_null() {
            return Error::new("InternalError", "a call failed without raising an error");
        }
        // SAFETY: h is an owned ffi.Error; its cell starts with kind and message.
        unsafe {
            let obj = Object::from_owned(h);
            debug_assert_eq!(obj.type_index(), K_ERROR);
            let cell = &*obj.cell::<ErrorCell>();
            Error {
                kind: bytes_to_string(&cell.kind),
                message: bytes_to_string(&cell.message),
            }
        }
    }

    /// Stores this error in the thread's error slot, for a callback returning -1.
    fn raise(&self) {
        let kind = CString::new(self.kind.replace('\0', "")).unwrap();
        let message = CString::new(self.message.replace('\0', "")).unwrap();
        // SAFETY: both strings are NUL-terminated and copied by the callee.
        unsafe { (api().error_set_raised_from_cstr)(kind.as_ptr(), message.as_ptr()) };
    }
}

// ---- functions ------------------------------------------------------------

/// An ffi.Function.
#[derive(Clone)]
pub struct Function(pub Object);

type Closure = Box<dyn Fn(&[Any]) -> Result<Any, Error> + Send + Sync>;

impl Function {
    /// Looks up a global function; `None` when no function has that name.
    pub fn get_global(name: &str) -> Option<Function> {
        let n = ByteArray {
            data: name.as_ptr(),
            size: name.len(),
        };
        let mut h: Handle = std::ptr::null_mut();
        // SAFETY: n borrows name for the call; h receives a new reference or NULL.
        let rc = unsafe { (api().get_global)(&n, &mut h) };
        if rc != 0 || h.is_null() {
            return None;
        }
        // SAFETY: h is a new reference.
        Some(Function(unsafe { Object::from_owned(h) }))
    }

    /// Calls the function.  Strings are passed as borrowed C strings (views).
    pub fn call(&self, args: &[Any]) -> Result<Any, Error> {
        let mut strings: Vec<CString> = Vec::new();
        for a in args {
            strings.push(match a {
                Any::Str(s) => CString::new(s.as_str()).map_err(|_| {
                    Error::new(
                        "ValueError",
                        &format!("string argument {s:?} contains a NUL byte"),
                    )
                })?,
                _ => CString::default(),
            });
        }
        let mut views: Vec<RawAny> = args
            .iter()
            .zip(&strings)
            .map(|(a, s)| match a {
                Any::None => RawAny::NONE,
                Any::Int(v) => RawAny {
                    type_index: K_INT,
                    small_str_len: 0,
                    payload: *v as u64,
                },
                Any::Bool(v) => RawAny {
                    type_index: K_BOOL,
                    small_str_len: 0,
                    payload: *v as u64,
                },
                Any::Float(v) => RawAny {
                    type_index: K_FLOAT,
                    small_str_len: 0,
                    payload: v.to_bits(),
                },
                Any::Str(_) => RawAny {
                    type_index: K_RAW_STR,
                    small_str_len: 0,
                    payload: s.as_ptr() as u64,
                },
                Any::Object(o) => RawAny {
                    type_index: o.type_index(),
                    small_str_len: 0,
                    payload: o.0 as u64,
                },
            })
            .collect();
        let mut result = RawAny::NONE;
        // SAFETY: views borrow args and strings, which outlive the call; result starts as None.
        let rc =
            unsafe { (api().function_call)(self.0 .0, views.as_mut_ptr(), views.len() as i32, &mut result) };
        if rc != 0 {
            return Err(Error::take_raised());
        }
        // SAFETY: on success result is an owned value.
        Ok(unsafe { Any::from_owned_raw(result) })
    }

    /// Wraps a Rust closure as a Function; the closure is dropped with the Function.
    pub fn from_closure<F>(f: F) -> Function
    where
        F: Fn(&[Any]) -> Result<Any, Error> + Send + Sync + 'static,
    {
        let boxed: Box<Closure> = Box::new(Box::new(f));
        let self_ptr = Box::into_raw(boxed) as *mut c_void;
        let mut h: Handle = std::ptr::null_mut();
        // SAFETY: self_ptr stays valid until closure_deleter frees it.
        let rc = unsafe { (api().function_create)(self_ptr, closure_call, Some(closure_deleter), &mut h) };
        assert_eq!(rc, 0, "TVMFFIFunctionCreate failed");
        // SAFETY: h is a new reference.
        Function(unsafe { Object::from_owned(h) })
    }
}

unsafe extern "C" fn closure_call(
    self_ptr: *mut c_void,
    args: *const RawAny,
    n: i32,
    result: *mut RawAny,
) -> c_int {
    let f = &*(self_ptr as *const Closure);
    let views = std::slice::from_raw_parts(args, n as usize);
    // A panic must not unwind into C: it becomes an error like any other.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let owned: Vec<Any> = views.iter().map(|v| Any::from_view(v)).collect();
        f(&owned).and_then(Any::into_raw)
    }))
    .unwrap_or_else(|_| Err(Error::new("RuntimeError", "a Rust callback panicked")));
    match outcome {
        Ok(raw) => {
            *result = raw;
            0
        }
        Err(e) => {
            e.raise();
            -1
        }
    }
}

unsafe extern "C" fn closure_deleter(self_ptr: *mut c_void) {
    drop(Box::from_raw(self_ptr as *mut Closure));
}
