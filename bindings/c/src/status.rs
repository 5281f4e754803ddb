//! Status codes, their static messages, and the per-thread last error.

use std::any::Any;
use std::cell::RefCell;
use std::ffi::{c_char, CStr};

use super::{guard_value, robotstxt_str};
use engine::Error;

/// The result of a fallible call: `ROBOTSTXT_STATUS_OK` (0) or the reason it
/// failed. Values are explicit and never reused; new ones may be added, so
/// treat an unknown value as a failure.
pub type robotstxt_status = u32;

/// Success: every output was written.
pub const ROBOTSTXT_STATUS_OK: robotstxt_status = 0;
/// A required pointer was NULL, or text was NULL with a non-zero length.
/// Outputs are untouched.
pub const ROBOTSTXT_STATUS_NULL_ARGUMENT: robotstxt_status = 1;
/// A length too large to be a real buffer (over `PTRDIFF_MAX`), or a
/// number outside its range (such as a negative crawl delay).
pub const ROBOTSTXT_STATUS_INVALID_ARGUMENT: robotstxt_status = 2;
/// RFC profile: the crawler's name is not a product token (one or more of
/// `A-Z a-z _ -`, such as `ExampleBot`; no version, no whole User-Agent).
pub const ROBOTSTXT_STATUS_INVALID_TOKEN: robotstxt_status = 3;
/// A selection by several tokens was given none.
pub const ROBOTSTXT_STATUS_NO_TOKENS: robotstxt_status = 4;
/// A parse limit below `ROBOTSTXT_MIN_PARSE_LIMIT` or above
/// `ROBOTSTXT_MAX_PARSE_LIMIT`.
pub const ROBOTSTXT_STATUS_PARSE_LIMIT: robotstxt_status = 5;
/// An option or enumeration value the library does not know.
pub const ROBOTSTXT_STATUS_INVALID_OPTION: robotstxt_status = 6;
/// An index at or past the count (sitemaps, diagnostics).
pub const ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE: robotstxt_status = 7;
/// A URL the cache cannot key: not an absolute `http`/`https` URL with a
/// host, or one whose authority HTTP clients read differently (a
/// backslash, whitespace, a control byte or a `%`-escape in it, an IPv4
/// address not written as four decimal numbers).
pub const ROBOTSTXT_STATUS_INVALID_URL: robotstxt_status = 8;
/// A host name the pacer cannot key: empty or too long.
pub const ROBOTSTXT_STATUS_INVALID_HOST: robotstxt_status = 9;
/// A cache lease that was already stored or abandoned, that came from
/// another cache, or that ran out and a newer copy of its origin was stored
/// since. Each lease from `robotstxt_cache_lookup` is stored or abandoned
/// once, with the cache that handed it out.
pub const ROBOTSTXT_STATUS_INVALID_LEASE: robotstxt_status = 10;
/// A pacer ticket that was already confirmed (go) or voided (host switched
/// off), or that came from another pacer.
pub const ROBOTSTXT_STATUS_INVALID_TICKET: robotstxt_status = 11;
/// The pacer tracks as many hosts as its capacity and none of them can be
/// forgotten safely (switched off, backing off, a request in flight or its
/// gap not yet passed): a new host is refused. Raise the capacity or try
/// again later.
pub const ROBOTSTXT_STATUS_PACER_FULL: robotstxt_status = 12;
/// An HTTP field that states nothing: a `Content-Usage` field that is no
/// RFC 9651 Dictionary, or is empty (behaviour §10.6); a `Retry-After` or
/// `Cache-Control: max-age` value the library cannot read (behaviour §11).
pub const ROBOTSTXT_STATUS_INVALID_FIELD: robotstxt_status = 13;
/// Bytes given to `robotstxt_entry_decode` that are not a whole, intact
/// stored copy (damaged, cut short, or not one at all).
pub const ROBOTSTXT_STATUS_INVALID_COPY: robotstxt_status = 14;
/// A stored copy in a format version this library does not read: a newer
/// library wrote it.
pub const ROBOTSTXT_STATUS_COPY_VERSION: robotstxt_status = 15;
/// `robotstxt_entry_encode` was given another body than the one the
/// entry's copy was parsed from.
pub const ROBOTSTXT_STATUS_BODY_MISMATCH: robotstxt_status = 16;
/// The output buffer is too small: the length needed was written, nothing
/// else. Call again with a buffer that long.
pub const ROBOTSTXT_STATUS_BUFFER_TOO_SMALL: robotstxt_status = 17;
/// A reply the library cannot read as the answer of the step's script (a
/// Redis error reply, or another shape): the message names the script.
/// The step was read and cannot be read again; take it as a failed call to
/// Redis.
pub const ROBOTSTXT_STATUS_BAD_REPLY: robotstxt_status = 18;
/// A fleet step read by another function than its own `*_reply` (each
/// says which steps it reads), read a second time, or of another cache or
/// pacer. The step is left as it was.
pub const ROBOTSTXT_STATUS_INVALID_STEP: robotstxt_status = 19;
/// A bug in the library: it panicked, and the panic was stopped at the
/// boundary. The handles passed are still valid; please report it with the
/// message from `robotstxt_last_error`.
pub const ROBOTSTXT_STATUS_PANIC: robotstxt_status = 100;

/// Why a call failed: its status and the message for `robotstxt_last_error`.
#[derive(Debug)]
pub(super) struct Failure {
    status: robotstxt_status,
    message: String,
}

impl Failure {
    /// A failure with its own status and message.
    pub(super) fn new(status: robotstxt_status, message: String) -> Failure {
        Failure { status, message }
    }

    pub(super) fn null(name: &'static str) -> Failure {
        Failure {
            status: ROBOTSTXT_STATUS_NULL_ARGUMENT,
            message: format!("`{name}` is NULL: pass a valid pointer"),
        }
    }

    pub(super) fn null_with_len(name: &'static str, len: usize) -> Failure {
        Failure {
            status: ROBOTSTXT_STATUS_NULL_ARGUMENT,
            message: format!(
                "`{name}` is NULL but its length is {len}: pass (NULL, 0) for the empty string"
            ),
        }
    }

    pub(super) fn too_long(name: &'static str, len: usize) -> Failure {
        Failure {
            status: ROBOTSTXT_STATUS_INVALID_ARGUMENT,
            message: format!("the length of `{name}`, {len}, is larger than any buffer can be"),
        }
    }

    pub(super) fn index(name: &'static str, index: usize, count: usize) -> Failure {
        Failure {
            status: ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE,
            message: format!(
                "{name} index {index} is out of range: there are {count}, indexed from 0"
            ),
        }
    }

    /// A number outside its range.
    pub(super) fn out_of_range(name: &'static str, expected: &'static str) -> Failure {
        Failure {
            status: ROBOTSTXT_STATUS_INVALID_ARGUMENT,
            message: format!("`{name}` is out of range: pass {expected}"),
        }
    }

    /// An unknown value for an enumeration typedef, said in the core's words.
    pub(super) fn option(name: &'static str, expected: &'static str) -> Failure {
        Failure::from(Error::InvalidOption { name, expected })
    }

    pub(super) fn panic(payload: &(dyn Any + Send)) -> Failure {
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(no message)");
        Failure {
            status: ROBOTSTXT_STATUS_PANIC,
            message: format!("the library panicked (a bug; please report it): {what}"),
        }
    }

    /// Stores the message as this thread's last error; returns the status.
    pub(super) fn record(self, export: &'static str) -> robotstxt_status {
        // The core's own messages go out verbatim, so bindings can show them
        // as they are; argument mistakes name the function.
        let message = match self.status {
            ROBOTSTXT_STATUS_NULL_ARGUMENT
            | ROBOTSTXT_STATUS_INVALID_ARGUMENT
            | ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE
            | ROBOTSTXT_STATUS_INVALID_LEASE
            | ROBOTSTXT_STATUS_PANIC => format!("{export}: {}", self.message),
            _ => self.message,
        };
        // `try_with`: during thread teardown there is nowhere to keep it.
        let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = message);
        self.status
    }
}

impl From<engine::StatementError> for Failure {
    fn from(error: engine::StatementError) -> Failure {
        Failure {
            status: ROBOTSTXT_STATUS_INVALID_FIELD,
            message: error.to_string(),
        }
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        let status = match error {
            Error::InvalidToken { .. } | Error::InvalidUserAgent { .. } => {
                ROBOTSTXT_STATUS_INVALID_TOKEN
            }
            Error::NoTokens => ROBOTSTXT_STATUS_NO_TOKENS,
            Error::ParseLimit { .. } => ROBOTSTXT_STATUS_PARSE_LIMIT,
            Error::InvalidOption { .. } => ROBOTSTXT_STATUS_INVALID_OPTION,
            Error::InvalidUrl { .. } => ROBOTSTXT_STATUS_INVALID_URL,
            Error::InvalidHost { .. } => ROBOTSTXT_STATUS_INVALID_HOST,
            Error::InvalidLease { .. } => ROBOTSTXT_STATUS_INVALID_LEASE,
            Error::InvalidTicket { .. } => ROBOTSTXT_STATUS_INVALID_TICKET,
            Error::PacerFull { .. } => ROBOTSTXT_STATUS_PACER_FULL,
            Error::InvalidCopy { .. } => ROBOTSTXT_STATUS_INVALID_COPY,
            Error::CopyVersion { .. } => ROBOTSTXT_STATUS_COPY_VERSION,
            Error::BodyMismatch { .. } => ROBOTSTXT_STATUS_BODY_MISMATCH,
            Error::BadReply { .. } => ROBOTSTXT_STATUS_BAD_REPLY,
            // An error newer than this header: its message says what.
            _ => ROBOTSTXT_STATUS_INVALID_ARGUMENT,
        };
        Failure {
            status,
            message: error.to_string(),
        }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

#[cfg(test)]
pub(super) fn last_error_string() -> String {
    LAST_ERROR.with(|last| last.borrow().clone())
}

/// A static, NUL-terminated sentence for `status`, such as
/// `"a required pointer was NULL"`. Unknown values get
/// `"unknown status"`. Never NULL; never free it.
#[unsafe(no_mangle)]
pub extern "C" fn robotstxt_status_message(status: robotstxt_status) -> *const c_char {
    let message: &CStr = match status {
        ROBOTSTXT_STATUS_OK => c"success",
        ROBOTSTXT_STATUS_NULL_ARGUMENT => c"a required pointer was NULL",
        ROBOTSTXT_STATUS_INVALID_ARGUMENT => c"an argument is out of range",
        ROBOTSTXT_STATUS_INVALID_TOKEN => c"the crawler's name is not a product token",
        ROBOTSTXT_STATUS_NO_TOKENS => c"no product tokens were given",
        ROBOTSTXT_STATUS_PARSE_LIMIT => c"the parse limit is out of range",
        ROBOTSTXT_STATUS_INVALID_OPTION => c"an option has an unknown value",
        ROBOTSTXT_STATUS_INDEX_OUT_OF_RANGE => c"the index is out of range",
        ROBOTSTXT_STATUS_INVALID_URL => c"the URL is not an absolute http or https URL",
        ROBOTSTXT_STATUS_INVALID_HOST => c"the host name is empty or too long",
        ROBOTSTXT_STATUS_INVALID_LEASE => {
            c"the lease has ended, belongs to another cache, or was overtaken by a newer copy"
        }
        ROBOTSTXT_STATUS_INVALID_TICKET => c"the ticket was spent or belongs to another pacer",
        ROBOTSTXT_STATUS_PACER_FULL => c"the pacer is full of hosts it cannot forget",
        ROBOTSTXT_STATUS_INVALID_FIELD => c"the HTTP field cannot be read",
        ROBOTSTXT_STATUS_BAD_REPLY => c"a fleet reply cannot be read",
        ROBOTSTXT_STATUS_INVALID_STEP => {
            c"the fleet step was read already, by another function, or by another cache or pacer"
        }
        ROBOTSTXT_STATUS_PANIC => c"the library panicked (a bug)",
        _ => c"unknown status",
    };
    message.as_ptr()
}

/// The detailed message of the most recent call on this thread that failed
/// (returned a status other than `ROBOTSTXT_STATUS_OK`), such as the core's
/// explanation of an invalid product token. Before any failure it is the
/// empty string. Successful calls leave it as it is.
///
/// Writes the message to `*message_out` and `*message_len_out` as
/// `(ptr, len)` text, not NUL-terminated. It stays valid until the next call
/// on this thread fails; copy it to keep it. Returns
/// `ROBOTSTXT_STATUS_NULL_ARGUMENT` (and keeps the message) if an output
/// pointer is NULL.
///
/// cgo and other runtimes that move work between threads should call the
/// failing function and this one from the same C function.
///
/// # Safety
/// `message_out` and `message_len_out` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn robotstxt_last_error(
    message_out: *mut *const u8,
    message_len_out: *mut usize,
) -> robotstxt_status {
    if message_out.is_null() || message_len_out.is_null() {
        return ROBOTSTXT_STATUS_NULL_ARGUMENT; // Keeps the message it reports.
    }
    guard_value("robotstxt_last_error", ROBOTSTXT_STATUS_PANIC, || {
        let message = LAST_ERROR
            .try_with(|last| {
                // The String's buffer stays put until the next failure
                // replaces it, so the borrow may outlive this call.
                robotstxt_str::borrow(last.borrow().as_bytes())
            })
            .unwrap_or(robotstxt_str::EMPTY);
        // SAFETY: both checked non-NULL; writable per the contract.
        unsafe {
            message_out.write(message.ptr);
            message_len_out.write(message.len);
        }
        ROBOTSTXT_STATUS_OK
    })
}
