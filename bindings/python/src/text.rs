//! Text arguments (bodies, URLs, tokens, hosts): `bytes`, `str`,
//! `bytearray` or `memoryview`, read as bytes.
//!
//! `bytes` and `str` are borrowed, never copied: both are immutable, and
//! the caller keeps the object alive, so the bytes stay put even while the
//! GIL is released. A `str` is read as its UTF-8 form, which CPython keeps
//! in the object (an ASCII `str` is its own UTF-8). `bytearray` and
//! `memoryview` are copied once: they can change under a reader, and the
//! stable ABI has no way to lock their buffers.

use std::fmt::Display;
use std::os::raw::c_char;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

use crate::errors::{self, Kind};

/// The bytes of a text argument.
pub enum Text<'a, 'py> {
    /// The bytes of a `bytes`, or the UTF-8 form of a `str`, in place.
    Borrowed(&'a [u8]),
    /// A copy of a `bytearray` or `memoryview`, as `bytes`.
    Copied(Bound<'py, PyBytes>),
}

impl Text<'_, '_> {
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Text::Borrowed(bytes) => bytes,
            Text::Copied(bytes) => bytes.as_bytes(),
        }
    }
}

/// What a text argument may be, for messages.
pub const EXPECTED: &str = "str, bytes, bytearray or memoryview";

/// The UTF-8 form of `s`, in place.
pub fn str_bytes<'a>(s: &'a Bound<'_, PyString>, what: &dyn Display) -> PyResult<&'a [u8]> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str` (a strong reference the caller holds for
    // 'a). CPython returns its UTF-8 form, cached in the object and freed
    // with it, so the slice is valid for 'a; `str` is immutable, so it
    // never changes. NULL means an exception is set (a lone surrogate).
    // (In the stable ABI from 3.10, the baseline: no `bytes` copy per `str`.)
    let data: *const c_char = unsafe { ffi::PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        let cause = PyErr::fetch(s.py());
        let err = errors::new(
            s.py(),
            Kind::InvalidText,
            format!(
                "{what} holds a lone surrogate, which has no UTF-8 form ({cause}): \
                 pass bytes, or a str that encodes"
            ),
        );
        err.set_cause(s.py(), Some(cause));
        return Err(err);
    }
    let len = usize::try_from(size).expect("a str's size is not negative");
    // SAFETY: CPython wrote `size` bytes at `data` (see above).
    Ok(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) })
}

/// Reads `value` as text: `what` names it in an error.
pub fn read<'a, 'py>(value: &'a Bound<'py, PyAny>, what: &dyn Display) -> PyResult<Text<'a, 'py>> {
    // The exact types first: one pointer compare each, where a subclass
    // check calls into CPython.
    if let Ok(s) = value.cast_exact::<PyString>() {
        return str_bytes(s, what).map(Text::Borrowed);
    }
    if let Ok(b) = value.cast_exact::<PyBytes>() {
        return Ok(Text::Borrowed(b.as_bytes()));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return str_bytes(s, what).map(Text::Borrowed);
    }
    if let Ok(b) = value.cast::<PyBytes>() {
        return Ok(Text::Borrowed(b.as_bytes()));
    }
    if value.is_instance_of::<PyByteArray>() || value.is_instance_of::<PyMemoryView>() {
        // bytes(value): one copy (a released view raises ValueError).
        let copy = value.py().get_type::<PyBytes>().call1((value,))?;
        return Ok(Text::Copied(copy.cast_into::<PyBytes>()?));
    }
    Err(errors::wrong_type(value, what, EXPECTED))
}

/// Reads `value` as text and hands its bytes to `f`.
pub fn with<T>(
    value: &Bound<'_, PyAny>,
    what: &dyn Display,
    f: impl FnOnce(&[u8]) -> T,
) -> PyResult<T> {
    read(value, what).map(|t| f(t.as_bytes()))
}

/// The bytes as a Python `str`, invalid UTF-8 read as U+FFFD.
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `s` quoted as Python's repr() quotes a str (for __repr__ methods).
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
