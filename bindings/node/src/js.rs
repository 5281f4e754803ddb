//! The conversions every export shares: bytes from a string or a
//! `Uint8Array`, arrays, option objects, numbers, and the errors the API
//! throws. All of the crate's `unsafe` is here, each block a single N-API
//! call on values that napi-rs handed to the export.

use std::cell::Cell;
use std::fmt::Display;
use std::mem::MaybeUninit;
use std::ptr;
use std::sync::Arc;

#[cfg(not(target_family = "wasm"))]
use napi::bindgen_prelude::validate_type_tag;
use napi::bindgen_prelude::{
    ClassInstance, FromNapiValue, JavaScriptClassExt, MaybeTypeTag, ObjectFinalize, Reference,
    ToNapiValue, TypeName, TypeTag, Unknown,
};
use napi::{sys, Env, Error, JsValue, Result, Status};

/// Node's code for an argument of the wrong type (`TypeError`).
pub const ERR_INVALID_ARG_TYPE: &str = "ERR_INVALID_ARG_TYPE";
/// Node's code for a number out of its range (`RangeError`).
pub const ERR_OUT_OF_RANGE: &str = "ERR_OUT_OF_RANGE";
/// `RangeError` code: not a product token (RFC profile).
pub const ERR_INVALID_TOKEN: &str = "ERR_ROBOTSTXT_INVALID_TOKEN";
/// `RangeError` code: a selection by several tokens was given none.
pub const ERR_NO_TOKENS: &str = "ERR_ROBOTSTXT_NO_TOKENS";
/// `RangeError` code: a parse limit out of range.
pub const ERR_PARSE_LIMIT: &str = "ERR_ROBOTSTXT_PARSE_LIMIT";
/// `RangeError` code: an unknown option or an option value out of its set.
pub const ERR_INVALID_OPTION: &str = "ERR_ROBOTSTXT_INVALID_OPTION";
/// `RangeError` code: not an absolute `http`/`https` URL (cache).
pub const ERR_INVALID_URL: &str = "ERR_ROBOTSTXT_INVALID_URL";
/// `RangeError` code: an empty or over-long host name (pacer).
pub const ERR_INVALID_HOST: &str = "ERR_ROBOTSTXT_INVALID_HOST";
/// `Error` code: a lease stored or abandoned twice, with another cache, or
/// run out with a newer copy stored since.
pub const ERR_INVALID_LEASE: &str = "ERR_ROBOTSTXT_INVALID_LEASE";
/// `Error` code: a ticket confirmed after it was spent, or with another
/// pacer.
pub const ERR_INVALID_TICKET: &str = "ERR_ROBOTSTXT_INVALID_TICKET";
/// `Error` code: the pacer is full and no host can be forgotten safely.
pub const ERR_PACER_FULL: &str = "ERR_ROBOTSTXT_PACER_FULL";
/// `Error` code: a method called after `close()`.
pub const ERR_CLOSED: &str = "ERR_ROBOTSTXT_CLOSED";
/// `RangeError` code: an HTTP `Content-Usage` field that states nothing.
pub const ERR_INVALID_FIELD: &str = "ERR_ROBOTSTXT_INVALID_FIELD";
/// `Error` code: bytes that are no whole, intact stored copy.
pub const ERR_INVALID_COPY: &str = "ERR_ROBOTSTXT_INVALID_COPY";
/// `Error` code: a stored copy in a newer format than this library reads.
pub const ERR_COPY_VERSION: &str = "ERR_ROBOTSTXT_COPY_VERSION";
/// `RangeError` code: `entry.encode` given another body than its copy's.
pub const ERR_BODY_MISMATCH: &str = "ERR_ROBOTSTXT_BODY_MISMATCH";

/// Throws a `TypeError` (code `ERR_INVALID_ARG_TYPE`) and returns the error
/// that tells napi-rs an exception is already pending.
pub fn type_error(env: &Env, message: &str) -> Error {
    let _ = env.throw_type_error(message, Some(ERR_INVALID_ARG_TYPE));
    Error::from_status(Status::PendingException)
}

/// Throws a `RangeError` with `code`; see [`type_error`].
pub fn range_error(env: &Env, code: &str, message: &str) -> Error {
    let _ = env.throw_range_error(message, Some(code));
    Error::from_status(Status::PendingException)
}

/// Throws a plain `Error` with `code`; see [`type_error`].
pub fn plain_error(env: &Env, code: &str, message: &str) -> Error {
    let _ = env.throw_error(message, Some(code));
    Error::from_status(Status::PendingException)
}

/// Throws the `Error` (code `ERR_ROBOTSTXT_CLOSED`) of a `class` used after
/// its `close()`.
pub fn closed(env: &Env, class: &str) -> Error {
    plain_error(env, ERR_CLOSED, &format!("{class} used after close()"))
}

/// What a handle holds until `close()` takes it, or the closed error.
pub fn open<'a, T>(env: &Env, inner: &'a Option<T>, class: &str) -> Result<&'a T> {
    inner.as_ref().ok_or_else(|| closed(env, class))
}

/// Throws the core's error carrying its message: a `RangeError` for a value
/// out of its set, a plain `Error` for a lease, ticket or pacer in the
/// wrong state.
pub fn core_error(env: &Env, err: &robotstxt::Error) -> Error {
    let message = err.to_string();
    let code = match err {
        robotstxt::Error::InvalidLease { .. } => {
            return plain_error(env, ERR_INVALID_LEASE, &message)
        }
        robotstxt::Error::InvalidTicket { .. } => {
            return plain_error(env, ERR_INVALID_TICKET, &message)
        }
        robotstxt::Error::PacerFull { .. } => return plain_error(env, ERR_PACER_FULL, &message),
        robotstxt::Error::InvalidCopy { .. } => {
            return plain_error(env, ERR_INVALID_COPY, &message)
        }
        robotstxt::Error::CopyVersion { .. } => {
            return plain_error(env, ERR_COPY_VERSION, &message)
        }
        robotstxt::Error::BodyMismatch { .. } => ERR_BODY_MISMATCH,
        robotstxt::Error::InvalidToken { .. } | robotstxt::Error::InvalidUserAgent { .. } => {
            ERR_INVALID_TOKEN
        }
        robotstxt::Error::NoTokens => ERR_NO_TOKENS,
        robotstxt::Error::ParseLimit { .. } => ERR_PARSE_LIMIT,
        robotstxt::Error::InvalidUrl { .. } => ERR_INVALID_URL,
        robotstxt::Error::InvalidHost { .. } => ERR_INVALID_HOST,
        _ => ERR_INVALID_OPTION,
    };
    range_error(env, code, &message)
}

/// Throws the `RangeError` (code `ERR_ROBOTSTXT_INVALID_FIELD`) of an HTTP
/// `Content-Usage` field that states nothing, with the core's message and
/// `reason` `'syntax'` or `'empty'`: the one code covers both, since a
/// caller treats them alike, and `reason` tells them apart.
pub fn field_error(env: &Env, err: robotstxt::StatementError) -> Error {
    let reason = match err {
        robotstxt::StatementError::Syntax => "syntax",
        robotstxt::StatementError::Empty => "empty",
    };
    let thrown = (|| -> Result<()> {
        let raw = env.raw();
        let (code, message) = (
            string(env, ERR_INVALID_FIELD)?,
            string(env, &err.to_string())?,
        );
        let mut error = ptr::null_mut();
        // SAFETY: creates an error in the current scope from two live strings.
        check(unsafe { sys::napi_create_range_error(raw, code, message, &mut error) })?;
        let reason = string(env, reason)?;
        // SAFETY: `error` is the object created above; the name is
        // NUL-terminated and `reason` a live string.
        check(unsafe { sys::napi_set_named_property(raw, error, c"reason".as_ptr(), reason) })?;
        // SAFETY: throws the live error created above.
        check(unsafe { sys::napi_throw(raw, error) })
    })();
    match thrown {
        Ok(()) => Error::from_status(Status::PendingException),
        Err(failed) => failed,
    }
}

/// Frees the `T` that `object` wraps at once, and unwraps it: what the
/// package entry's `close()` does when no native call is under way (one
/// may hold a pointer to the object while a getter it reads runs
/// JavaScript; `close()` then empties the object instead). `false` when
/// `object` is not a `T`.
///
/// Node runs the finalizer of a collected object only once the event loop
/// turns, and until then keeps what tracks it (some 400 bytes per object,
/// with napi-rs's): a loop that never yields would grow by that much per
/// object, closed or not. An unwrapped object has no finalizer to wait
/// for.
pub fn detach<T>(env: &Env, object: &Unknown<'_>) -> Result<bool>
where
    T: MaybeTypeTag + TypeTag + ObjectFinalize + 'static,
{
    let raw = object.raw();
    if !Js::from_raw(env, raw).is_object()? {
        return Ok(false);
    }
    // SAFETY: `raw` is a live object; the conversion checks that it is
    // wrapped with `T`'s type tag, and runs no JavaScript (an `instanceof`
    // could, through `Symbol.hasInstance`).
    if unsafe { ClassInstance::<T>::from_napi_value(env.raw(), raw) }.is_err() {
        return Ok(false);
    }
    let mut wrapped = ptr::null_mut();
    // SAFETY: `raw` is an object wrapped as a `T` (checked above); its
    // finalizer will not run after this.
    check(unsafe { sys::napi_remove_wrap(env.raw(), raw, &mut wrapped) })?;
    // napi-rs keeps, per wrapped address, the reference `napi_wrap` made and
    // deletes it in the finalizer that no longer runs. Replacing the entry
    // makes it delete that reference now; the stand-in is freed when the
    // address is wrapped again.
    let stand_in: Box<dyn FnOnce()> = Box::new(|| {});
    #[allow(clippy::arc_with_non_send_sync)] // napi-rs's own type: used on this thread only
    let callbacks = Arc::into_raw(Arc::new(Cell::new(Box::into_raw(stand_in))));
    Reference::<T>::add_ref(env.raw(), wrapped, (wrapped, ptr::null_mut(), callbacks));
    // SAFETY: napi-rs wraps a `T` as `Box::into_raw(Box::new(value))` (none
    // of the classes is zero-sized) and frees it only in the finalizer that
    // `napi_remove_wrap` cancelled: this is now the only owner.
    let value = unsafe { Box::from_raw(wrapped.cast::<T>()) };
    value.finalize(*env)?;
    mark_detached::<T>(env, raw);
    Ok(true)
}

/// Native objects carry their class's type tag from birth, so a tagged
/// object that wraps nothing was detached. napi-rs tags nothing on wasm:
/// there the tag is put on at detach time instead, and means the same.
#[cfg(target_family = "wasm")]
fn mark_detached<T: TypeTag>(env: &Env, raw: sys::napi_value) {
    // SAFETY: `raw` is a live object, just unwrapped; a second tag fails
    // harmlessly (it cannot be detached twice).
    let _ = unsafe { sys::napi_type_tag_object(env.raw(), raw, &T::type_tag()) };
}

#[cfg(not(target_family = "wasm"))]
fn mark_detached<T>(_env: &Env, _raw: sys::napi_value) {}

/// Whether `object` is a `T` that [`detach`] freed: it keeps the class's
/// type tag, but no longer wraps anything.
pub fn is_detached<T: TypeTag>(env: &Env, object: &Unknown<'_>) -> bool {
    let raw = object.raw();
    // Node converts the value to an object to read its tag: `null` would
    // throw.
    if !Js::from_raw(env, raw).is_object().unwrap_or(false) {
        return false;
    }
    if !has_type_tag::<T>(env, raw) {
        return false;
    }
    let mut wrapped = ptr::null_mut();
    // SAFETY: as above; the pointer read is only compared.
    let status = unsafe { sys::napi_unwrap(env.raw(), raw, &mut wrapped) };
    status != sys::Status::napi_ok
}

/// Whether `raw`, a live object, carries `T`'s type tag.
#[cfg(not(target_family = "wasm"))]
fn has_type_tag<T: TypeTag>(env: &Env, raw: sys::napi_value) -> bool {
    // SAFETY: `raw` is a live object; the check reads its type tag.
    unsafe { validate_type_tag(env.raw(), raw, &T::type_tag(), "") }.is_ok()
}

/// Whether `raw`, a live object, carries `T`'s type tag (napi-rs's own
/// check passes everything on wasm).
#[cfg(target_family = "wasm")]
fn has_type_tag<T: TypeTag>(env: &Env, raw: sys::napi_value) -> bool {
    let mut tagged = false;
    // SAFETY: `raw` is a live object; the check reads its type tag.
    let status =
        unsafe { sys::napi_check_object_type_tag(env.raw(), raw, &T::type_tag(), &mut tagged) };
    status == sys::Status::napi_ok && tagged
}

/// Converts a napi status into a `Result` (a failing call means a broken
/// environment, not a caller mistake).
fn check(status: sys::napi_status) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::from(status), "N-API call failed"))
    }
}

/// A number as JavaScript writes it in a message (`Infinity`, not `inf`).
pub fn shown(value: f64) -> String {
    match value {
        f64::INFINITY => "Infinity".to_owned(),
        f64::NEG_INFINITY => "-Infinity".to_owned(),
        value => value.to_string(),
    }
}

/// Strings of up to about this many bytes of UTF-8 are converted on the stack.
const STACK_BYTES: usize = 3072;

/// One JavaScript value handed to an export.
#[derive(Clone, Copy)]
pub struct Js<'e> {
    pub env: &'e Env,
    pub raw: sys::napi_value,
}

impl<'e> Js<'e> {
    pub fn new(env: &'e Env, value: &Unknown<'_>) -> Self {
        Js {
            env,
            raw: value.raw(),
        }
    }

    pub fn from_raw(env: &'e Env, raw: sys::napi_value) -> Self {
        Js { env, raw }
    }

    /// `typeof value`, as napi numbers it.
    fn type_of(self) -> Result<sys::napi_valuetype> {
        let mut kind = 0;
        // SAFETY: `raw` is a live value of this call's scope.
        check(unsafe { sys::napi_typeof(self.env.raw(), self.raw, &mut kind) })?;
        Ok(kind)
    }

    pub fn is_nullish(self) -> Result<bool> {
        let kind = self.type_of()?;
        Ok(kind == sys::ValueType::napi_undefined || kind == sys::ValueType::napi_null)
    }

    /// An object (or a function, which may be one too).
    pub fn is_object(self) -> Result<bool> {
        let kind = self.type_of()?;
        Ok(kind == sys::ValueType::napi_object || kind == sys::ValueType::napi_function)
    }

    pub fn is_undefined(self) -> Result<bool> {
        Ok(self.type_of()? == sys::ValueType::napi_undefined)
    }

    fn is_array(self) -> Result<bool> {
        let mut yes = false;
        // SAFETY: as in `type_of`.
        check(unsafe { sys::napi_is_array(self.env.raw(), self.raw, &mut yes) })?;
        Ok(yes)
    }

    /// The bytes of a `Uint8Array` (a `Buffer` is one); anything else,
    /// strings too, throws a `TypeError` (binary data read as text would be
    /// damaged).
    pub fn binary(self, what: &str) -> Result<&'e [u8]> {
        match self.uint8_array()? {
            Some(bytes) => Ok(bytes),
            None => Err(self.wrong_type(what, "a Buffer or a Uint8Array")),
        }
    }

    /// The bytes of a `Uint8Array` (a `Buffer` is one), or `None`.
    fn uint8_array(&self) -> Result<Option<&'e [u8]>> {
        let env = self.env.raw();
        let mut yes = false;
        // SAFETY: as in `type_of`.
        check(unsafe { sys::napi_is_typedarray(env, self.raw, &mut yes) })?;
        if !yes {
            return Ok(None);
        }
        let (mut kind, mut len, mut data) = (0, 0, ptr::null_mut());
        // SAFETY: `raw` is a typed array; null out-pointers are allowed for
        // the array buffer and offset.
        check(unsafe {
            sys::napi_get_typedarray_info(
                env,
                self.raw,
                &mut kind,
                &mut len,
                &mut data,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        })?;
        if kind != sys::TypedarrayType::uint8_array {
            return Ok(None);
        }
        if len == 0 || data.is_null() {
            return Ok(Some(&[]));
        }
        // SAFETY: N-API returns the view's data (offset applied) and length;
        // the memory stays valid while the value is alive, which is the
        // whole call, and no JavaScript runs while the slice is used.
        Ok(Some(unsafe {
            std::slice::from_raw_parts(data.cast(), len)
        }))
    }

    /// What `typeof` would say, for error messages (`null` and arrays apart).
    pub fn describe(self) -> String {
        let kind = self.type_of().unwrap_or(-1);
        let name = match kind {
            sys::ValueType::napi_undefined => "undefined",
            sys::ValueType::napi_null => "null",
            sys::ValueType::napi_boolean => "a boolean",
            sys::ValueType::napi_number => "a number",
            sys::ValueType::napi_string => "a string",
            sys::ValueType::napi_symbol => "a symbol",
            sys::ValueType::napi_function => "a function",
            sys::ValueType::napi_object if self.is_array().unwrap_or(false) => "an array",
            sys::ValueType::napi_object => "an object",
            _ => "a value of another type",
        };
        name.to_owned()
    }

    /// Calls `f` with the bytes of a string (UTF-8) or a `Uint8Array`/`Buffer`
    /// (as they are). Anything else throws a `TypeError` naming `what`.
    ///
    /// The hot path of every check: a string of up to about 3 KiB of UTF-8
    /// costs one N-API call and no allocation.
    pub fn with_bytes<R>(self, what: impl Display, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let env = self.env.raw();
        let mut buf = [MaybeUninit::<u8>::uninit(); STACK_BYTES];
        let mut len = 0;
        // SAFETY: `buf` is writable for `STACK_BYTES` bytes; N-API writes at
        // most `STACK_BYTES - 1` bytes and a NUL, or fails for a non-string.
        let status = unsafe {
            sys::napi_get_value_string_utf8(
                env,
                self.raw,
                buf.as_mut_ptr().cast(),
                STACK_BYTES,
                &mut len,
            )
        };
        if status == sys::Status::napi_ok {
            // N-API writes whole characters only (at most 4 bytes each): with
            // room for another one left, the string was not cut short.
            if len + 4 < STACK_BYTES - 1 {
                // SAFETY: N-API initialised the first `len` bytes.
                let bytes = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), len) };
                return Ok(f(bytes));
            }
            let owned = self.string_bytes()?;
            return Ok(f(&owned));
        }
        if status != sys::Status::napi_string_expected {
            check(status)?;
        }
        match self.uint8_array()? {
            Some(bytes) => Ok(f(bytes)),
            None => Err(type_error(
                self.env,
                &format!(
                    "{what} must be a string, a Buffer or a Uint8Array, not {}",
                    self.describe()
                ),
            )),
        }
    }

    /// The UTF-8 bytes of a string value, on the heap.
    fn string_bytes(self) -> Result<Vec<u8>> {
        let env = self.env.raw();
        let mut len = 0;
        // SAFETY: `raw` is a string; a null buffer asks for its length only.
        check(unsafe {
            sys::napi_get_value_string_utf8(env, self.raw, ptr::null_mut(), 0, &mut len)
        })?;
        let mut buf = vec![0u8; len + 1];
        let mut written = 0;
        // SAFETY: `buf` is writable for `len + 1` bytes.
        check(unsafe {
            sys::napi_get_value_string_utf8(
                env,
                self.raw,
                buf.as_mut_ptr().cast(),
                len + 1,
                &mut written,
            )
        })?;
        buf.truncate(written);
        Ok(buf)
    }

    /// A string value; anything else throws a `TypeError` naming `what`.
    pub fn string(self, what: &str) -> Result<String> {
        if self.type_of()? != sys::ValueType::napi_string {
            return Err(self.wrong_type(what, "a string"));
        }
        let bytes = self.string_bytes()?;
        // N-API writes UTF-8, replacing lone surrogates.
        Ok(String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// A boolean value; anything else throws a `TypeError`.
    pub fn bool(self, what: &str) -> Result<bool> {
        if self.type_of()? != sys::ValueType::napi_boolean {
            return Err(self.wrong_type(what, "a boolean"));
        }
        let mut value = false;
        // SAFETY: `raw` is a boolean.
        check(unsafe { sys::napi_get_value_bool(self.env.raw(), self.raw, &mut value) })?;
        Ok(value)
    }

    /// A number value; anything else throws a `TypeError`.
    pub fn number(self, what: &str) -> Result<f64> {
        if self.type_of()? != sys::ValueType::napi_number {
            return Err(self.wrong_type(what, "a number"));
        }
        let mut value = 0.0;
        // SAFETY: `raw` is a number.
        check(unsafe { sys::napi_get_value_double(self.env.raw(), self.raw, &mut value) })?;
        Ok(value)
    }

    /// A whole number in `min..=max`: a `TypeError` for a non-number, a
    /// `RangeError` (`ERR_OUT_OF_RANGE`) for anything else outside.
    pub fn integer(self, what: &str, min: u64, max: u64) -> Result<u64> {
        let value = self.number(what)?;
        if value.fract() == 0.0 && value >= min as f64 && value <= max as f64 {
            Ok(value as u64)
        } else {
            Err(range_error(
                self.env,
                ERR_OUT_OF_RANGE,
                &format!(
                    "{what} must be a whole number from {min} to {max}, not {}",
                    shown(value)
                ),
            ))
        }
    }

    /// A time or a duration in milliseconds: a finite number ≥ 0, rounded
    /// down to a whole millisecond.
    pub fn millis(self, what: &str) -> Result<u64> {
        let value = self.number(what)?;
        if value.is_finite() && value >= 0.0 {
            Ok(value.floor().min(u64::MAX as f64) as u64)
        } else {
            Err(range_error(
                self.env,
                ERR_OUT_OF_RANGE,
                &format!(
                    "{what} must be a finite number of milliseconds ≥ 0, not {}",
                    shown(value)
                ),
            ))
        }
    }

    /// One of `names`, as a string; a `RangeError` (`ERR_ROBOTSTXT_INVALID_OPTION`)
    /// for any other string.
    pub fn one_of<T: Copy>(self, what: &str, names: &[(&str, T)]) -> Result<T> {
        let text = self.string(what)?;
        if let Some((_, value)) = names.iter().find(|(name, _)| *name == text) {
            return Ok(*value);
        }
        let expected: Vec<String> = names.iter().map(|(n, _)| format!("{n:?}")).collect();
        Err(range_error(
            self.env,
            ERR_INVALID_OPTION,
            &format!(
                "{what} must be one of {}, not {text:?}",
                expected.join(", ")
            ),
        ))
    }

    pub fn wrong_type(self, what: &str, expected: &str) -> Error {
        type_error(
            self.env,
            &format!("{what} must be {expected}, not {}", self.describe()),
        )
    }

    /// An instance of the class `T` (named `class` in messages); anything
    /// else throws a `TypeError`, and a closed one the closed error.
    ///
    /// Read every argument that may run JavaScript (an options object's
    /// getters) before this: napi-rs tracks the borrow of a method's `this`
    /// but not of an instance taken so, and JavaScript run meanwhile could
    /// close it (and the package entry's `close()` frees at once).
    pub fn instance<T>(self, what: &str, class: &str) -> Result<ClassInstance<'e, T>>
    where
        T: JavaScriptClassExt + MaybeTypeTag + TypeTag + TypeName + 'e,
    {
        let value = unknown(self.env, self.raw);
        if !T::instance_of(self.env, &value)? {
            return Err(self.wrong_type(what, class));
        }
        // SAFETY: `raw` is a live object; the conversion checks its type
        // tag before it casts, and refuses an object that only inherits
        // from the class (`Object.create(T.prototype)`).
        unsafe { ClassInstance::<T>::from_napi_value(self.env.raw(), self.raw) }.map_err(|_| {
            if is_detached::<T>(self.env, &value) {
                closed(self.env, T::type_name())
            } else {
                self.wrong_type(what, class)
            }
        })
    }

    /// The length of an array; anything else throws a `TypeError`.
    pub fn array_len(self, what: &str) -> Result<u32> {
        if !self.is_array()? {
            return Err(self.wrong_type(what, "an array"));
        }
        let mut len = 0;
        // SAFETY: `raw` is an array.
        check(unsafe { sys::napi_get_array_length(self.env.raw(), self.raw, &mut len) })?;
        Ok(len)
    }

    /// `array[index]`.
    pub fn element(self, index: u32) -> Result<Js<'e>> {
        let mut value = ptr::null_mut();
        // SAFETY: `raw` is an object; a missing index reads `undefined`.
        check(unsafe { sys::napi_get_element(self.env.raw(), self.raw, index, &mut value) })?;
        Ok(Js::from_raw(self.env, value))
    }

    /// An options object: `undefined`/`null` read as `{}`; other
    /// non-objects throw a `TypeError`; an own key not in `known` throws a
    /// `RangeError`, so a misspelt option cannot pass unnoticed.
    pub fn options(self, what: &str, known: &[&str]) -> Result<Option<Object<'e>>> {
        if self.is_nullish()? {
            return Ok(None);
        }
        if self.type_of()? != sys::ValueType::napi_object || self.is_array()? {
            return Err(self.wrong_type(what, "an object"));
        }
        let object = Object(self);
        object.check_keys(what, known)?;
        Ok(Some(object))
    }
}

/// A plain object whose properties are read by name.
#[derive(Clone, Copy)]
pub struct Object<'e>(Js<'e>);

impl<'e> Object<'e> {
    /// The property `name`, or `None` when it is `undefined`.
    pub fn get(self, name: &str) -> Result<Option<Js<'e>>> {
        let key =
            std::ffi::CString::new(name).map_err(|_| Error::from_status(Status::InvalidArg))?;
        let mut value = ptr::null_mut();
        // SAFETY: `raw` is an object and `key` a NUL-terminated name; a
        // getter may run JavaScript, which cannot invalidate `raw`.
        check(unsafe {
            sys::napi_get_named_property(self.0.env.raw(), self.0.raw, key.as_ptr(), &mut value)
        })?;
        let value = Js::from_raw(self.0.env, value);
        Ok(if value.is_undefined()? {
            None
        } else {
            Some(value)
        })
    }

    fn check_keys(self, what: &str, known: &[&str]) -> Result<()> {
        let mut names = ptr::null_mut();
        // SAFETY: `raw` is an object.
        check(unsafe { sys::napi_get_property_names(self.0.env.raw(), self.0.raw, &mut names) })?;
        let names = Js::from_raw(self.0.env, names);
        for i in 0..names.array_len("property names")? {
            // Keys come back as strings (numbers converted).
            let name = names.element(i)?.string("an option name")?;
            if !known.contains(&name.as_str()) {
                return Err(range_error(
                    self.0.env,
                    ERR_INVALID_OPTION,
                    &format!(
                        "unknown option {name:?} in {what}: the options are {}",
                        known.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Builds a JavaScript array from raw values.
pub struct ArrayBuilder<'e> {
    env: &'e Env,
    raw: sys::napi_value,
    len: u32,
}

impl<'e> ArrayBuilder<'e> {
    pub fn new(env: &'e Env) -> Result<Self> {
        let mut raw = ptr::null_mut();
        // SAFETY: creates a new array in the current scope.
        check(unsafe { sys::napi_create_array(env.raw(), &mut raw) })?;
        Ok(ArrayBuilder { env, raw, len: 0 })
    }

    pub fn push_raw(&mut self, value: sys::napi_value) -> Result<()> {
        // SAFETY: `raw` is the array created above, `value` a live value.
        check(unsafe { sys::napi_set_element(self.env.raw(), self.raw, self.len, value) })?;
        self.len += 1;
        Ok(())
    }

    pub fn finish(self) -> Unknown<'e> {
        unknown(self.env, self.raw)
    }
}

/// A value of a property of an object built by [`Shape`].
pub enum Value<'a> {
    Bool(bool),
    U32(u32),
    Str(&'a str),
    Raw(sys::napi_value),
}

/// Builds many objects with the same keys, each in one N-API call: the
/// keys are made once, not once per object.
pub struct Shape<'e, const N: usize> {
    env: &'e Env,
    keys: [sys::napi_value; N],
}

impl<'e, const N: usize> Shape<'e, N> {
    pub fn new(env: &'e Env, names: [&str; N]) -> Result<Self> {
        let mut keys = [ptr::null_mut(); N];
        for (key, name) in keys.iter_mut().zip(names) {
            *key = string(env, name)?;
        }
        Ok(Shape { env, keys })
    }

    pub fn build(&self, values: [Value<'_>; N]) -> Result<sys::napi_value> {
        let env = self.env.raw();
        let mut properties: [sys::napi_property_descriptor; N] =
            std::array::from_fn(|i| sys::napi_property_descriptor {
                utf8name: ptr::null(),
                name: self.keys[i],
                method: None,
                getter: None,
                setter: None,
                value: ptr::null_mut(),
                attributes: sys::PropertyAttributes::writable
                    | sys::PropertyAttributes::enumerable
                    | sys::PropertyAttributes::configurable,
                data: ptr::null_mut(),
            });
        for (property, value) in properties.iter_mut().zip(values) {
            property.value = match value {
                Value::Bool(b) => {
                    let mut raw = ptr::null_mut();
                    // SAFETY: reads a singleton of this environment.
                    check(unsafe { sys::napi_get_boolean(env, b, &mut raw) })?;
                    raw
                }
                Value::U32(n) => {
                    let mut raw = ptr::null_mut();
                    // SAFETY: creates a number in the current scope.
                    check(unsafe { sys::napi_create_uint32(env, n, &mut raw) })?;
                    raw
                }
                Value::Str(s) => string(self.env, s)?,
                Value::Raw(raw) => raw,
            };
        }
        let mut object = ptr::null_mut();
        // SAFETY: creates an object in the current scope, then defines the
        // `N` data properties described above (names and values are live).
        check(unsafe { sys::napi_create_object(env, &mut object) })?;
        // SAFETY: as above.
        check(unsafe { sys::napi_define_properties(env, object, N, properties.as_ptr()) })?;
        Ok(object)
    }
}

/// An object with one own property per pair, in order: `{ [key]: value }`.
/// Each is defined, not assigned, so any key stays a plain key (a
/// `content-signal` member may be named `__proto__`).
pub struct Keyed<V>(pub Vec<(String, V)>);

impl<V: ToNapiValue> ToNapiValue for Keyed<V> {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        let mut properties = Vec::with_capacity(val.0.len());
        for (key, value) in val.0 {
            let mut name = ptr::null_mut();
            // SAFETY: `key` is valid UTF-8 for `key.len()` bytes.
            check(unsafe {
                sys::napi_create_string_utf8(
                    env,
                    key.as_ptr().cast(),
                    key.len() as isize,
                    &mut name,
                )
            })?;
            properties.push(sys::napi_property_descriptor {
                utf8name: ptr::null(),
                name,
                method: None,
                getter: None,
                setter: None,
                // SAFETY: `env` is the environment napi-rs converts in.
                value: unsafe { V::to_napi_value(env, value) }?,
                attributes: sys::PropertyAttributes::writable
                    | sys::PropertyAttributes::enumerable
                    | sys::PropertyAttributes::configurable,
                data: ptr::null_mut(),
            });
        }
        let mut object = ptr::null_mut();
        // SAFETY: creates an object in the current scope, then defines the
        // properties described above (names and values are live).
        check(unsafe { sys::napi_create_object(env, &mut object) })?;
        // SAFETY: as above.
        check(unsafe {
            sys::napi_define_properties(env, object, properties.len(), properties.as_ptr())
        })?;
        Ok(object)
    }
}

/// A new JavaScript string.
pub fn string(env: &Env, text: &str) -> Result<sys::napi_value> {
    let mut raw = ptr::null_mut();
    // SAFETY: `text` is valid UTF-8 for `text.len()` bytes.
    check(unsafe {
        sys::napi_create_string_utf8(
            env.raw(),
            text.as_ptr().cast(),
            text.len() as isize,
            &mut raw,
        )
    })?;
    Ok(raw)
}

/// Wraps a raw value as the return value of an export.
pub fn unknown<'e>(env: &'e Env, raw: sys::napi_value) -> Unknown<'e> {
    // SAFETY: `raw` is a live value of this call's scope.
    unsafe { Unknown::from_raw_unchecked(env.raw(), raw) }
}
