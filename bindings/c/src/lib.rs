//! The C ABI: every `unsafe` block and every C name of the crate.
//!
//! Each export converts its arguments, calls the core once and converts
//! back. Two helpers carry the conventions of `include/robotstxt.h`:
//! [`guard`] turns a panic into `ROBOTSTXT_STATUS_PANIC` and a failure into
//! its status and per-thread message, and [`bytes`] reads `(ptr, len)` text,
//! with `(NULL, 0)` as the empty string.
//!
//! Enumerations cross the boundary as `uint32_t` typedefs with `#define`d
//! values, never as Rust enums: a C caller can pass any number, and an
//! out-of-range value must be an error, not undefined behaviour.

#![allow(non_camel_case_types)]
#![warn(missing_docs)]

// In header order: conventions, parsing, asking, linting, fetching, caching,
// sharing with a fleet, pacing, a fleet's protocol.
mod status;

mod options;
mod robots;

mod agent;

mod rules;

mod preferences;

mod diagnostics;

mod access;
mod http;

mod entry;

mod stored;

mod cache;

mod pacer;

mod host_pace;

mod fleet;
mod fleet_cache;
mod fleet_pacer;

// What a wasm host needs beyond the header, kept out of it: the allocator
// is for wasm hosts only (its unit tests also run natively).
/// cbindgen:ignore
#[cfg(any(target_family = "wasm", test))]
mod wasm;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

pub use status::robotstxt_status;
use status::Failure;

/// What a fallible export's body returns: `Ok` becomes
/// `ROBOTSTXT_STATUS_OK`.
type Outcome<T = ()> = Result<T, Failure>;

/// Text as `(ptr, len)`: bytes, not NUL-terminated. `(NULL, 0)` is the
/// empty string. Strings the library hands out in this form borrow from a
/// handle and stay valid as long as it lives.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct robotstxt_str {
    /// The first byte; may be NULL when `len` is 0.
    pub ptr: *const u8,
    /// The number of bytes.
    pub len: usize,
}

impl robotstxt_str {
    const EMPTY: robotstxt_str = robotstxt_str {
        ptr: std::ptr::null(),
        len: 0,
    };

    /// Borrows `bytes`; empty text is always `(NULL, 0)`, never a dangling
    /// pointer.
    fn borrow(bytes: &[u8]) -> robotstxt_str {
        if bytes.is_empty() {
            return robotstxt_str::EMPTY;
        }
        robotstxt_str {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
        }
    }
}

/// Runs one export's body: a failure sets the thread's last error and
/// returns its status; a panic never unwinds into C.
fn guard(export: &'static str, body: impl FnOnce() -> Outcome) -> robotstxt_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => status::ROBOTSTXT_STATUS_OK,
        Ok(Err(failure)) => failure.record(export),
        Err(payload) => Failure::panic(payload.as_ref()).record(export),
    }
}

/// `guard` for exports that return a value instead of a status: a panic
/// gives `fallback`.
fn guard_value<T>(export: &'static str, fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        Failure::panic(payload.as_ref()).record(export);
        fallback
    })
}

/// Reads `(ptr, len)` text.
///
/// # Safety
/// Unless NULL, `ptr` must be readable for `len` bytes for `'a`.
unsafe fn bytes<'a>(ptr: *const u8, len: usize, name: &'static str) -> Outcome<&'a [u8]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::null_with_len(name, len));
    }
    if len > isize::MAX as usize {
        return Err(Failure::too_long(name, len));
    }
    // SAFETY: non-NULL, at most isize::MAX bytes, readable per the caller.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Reads a `robotstxt_str`.
///
/// # Safety
/// As for [`bytes`].
unsafe fn text<'a>(s: robotstxt_str, name: &'static str) -> Outcome<&'a [u8]> {
    // SAFETY: forwarded to the caller.
    unsafe { bytes(s.ptr, s.len, name) }
}

/// Borrows a handle passed by pointer.
///
/// # Safety
/// Unless NULL, `ptr` must point to a live `T` for `'a`.
unsafe fn handle<'a, T>(ptr: *const T, name: &'static str) -> Outcome<&'a T> {
    // SAFETY: forwarded to the caller.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(name))
}

/// Borrows a handle passed by pointer, for a call that changes it.
///
/// # Safety
/// Unless NULL, `ptr` must point to a live `T` that nothing else uses
/// during `'a`.
unsafe fn handle_mut<'a, T>(ptr: *mut T, name: &'static str) -> Outcome<&'a mut T> {
    // SAFETY: forwarded to the caller.
    unsafe { ptr.as_mut() }.ok_or_else(|| Failure::null(name))
}

/// An out-pointer checked for NULL. Checking every output before writing
/// any keeps the rule that outputs are written only on success.
struct Out<T>(NonNull<T>);

impl<T> Out<T> {
    fn new(ptr: *mut T, name: &'static str) -> Outcome<Out<T>> {
        NonNull::new(ptr)
            .map(Out)
            .ok_or_else(|| Failure::null(name))
    }

    /// An optional output: NULL means the caller does not want it.
    fn optional(ptr: *mut T) -> Option<Out<T>> {
        NonNull::new(ptr).map(Out)
    }

    /// Writes without reading or dropping what was there (C memory may be
    /// uninitialised).
    ///
    /// # Safety
    /// The pointer must be writable and aligned for `T`.
    unsafe fn put(self, value: T) {
        // SAFETY: non-NULL; writable and aligned per the caller.
        unsafe { self.0.as_ptr().write(value) }
    }
}

/// Moves a value into a new handle for C to own.
fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Frees a handle made by [`into_handle`]; NULL does nothing.
///
/// # Safety
/// Unless NULL, `ptr` must come from [`into_handle`] and not be used again.
unsafe fn free_handle<T>(export: &'static str, ptr: *mut T) {
    if ptr.is_null() {
        return;
    }
    guard_value(export, (), || {
        // SAFETY: per the caller, `ptr` is a live box from `into_handle`.
        drop(unsafe { Box::from_raw(ptr) });
    });
}

/// The library's version, such as `"0.1.0"`: a static, NUL-terminated
/// string. Never NULL; never free it.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_version() -> *const std::ffi::c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_the_crate_version() {
        // SAFETY: a static NUL-terminated string.
        let v = unsafe { std::ffi::CStr::from_ptr(robotstxt_version()) };
        assert_eq!(v.to_str().unwrap(), engine::VERSION);
    }

    #[test]
    fn a_panic_becomes_a_status_and_a_message() {
        let got = guard("robotstxt_test", || panic!("boom"));
        assert_eq!(got, status::ROBOTSTXT_STATUS_PANIC);
        let message = status::last_error_string();
        assert!(message.contains("robotstxt_test") && message.contains("boom"));
        assert_eq!(guard_value("robotstxt_test", 7, || panic!("again")), 7);
    }

    #[test]
    fn null_with_a_length_is_refused() {
        // SAFETY: NULL is never read.
        let got = unsafe { bytes(std::ptr::null(), 3, "url") };
        assert!(got.is_err());
        // SAFETY: (NULL, 0) is the empty string.
        assert_eq!(
            unsafe { bytes(std::ptr::null(), 0, "url") }.ok(),
            Some(&[][..])
        );
    }
}
