//! The exceptions: `robotstxt.Error` and one subclass per mistake, each
//! also a `ValueError`, `TypeError` or `RuntimeError` so that code catching
//! the built-in kinds keeps working. Messages are the core's.

use pyo3::exceptions::{PyException, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

/// Which exception to raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    InvalidToken,
    InvalidUserAgent,
    NoTokens,
    ParseLimit,
    InvalidOption,
    InvalidArgument,
    InvalidText,
    InvalidUrl,
    InvalidHost,
    InvalidLease,
    InvalidTicket,
    Closed,
    ArgumentType,
    PacerFull,
    HostDisabled,
    InvalidStatement,
    InvalidCopy,
    CopyVersion,
    BodyMismatch,
    Redis,
}

#[derive(Clone, Copy)]
enum Builtin {
    Value,
    Type,
    Runtime,
    /// A subclass of an earlier kind (and so of its built-in).
    Of(Kind),
}

/// Name, built-in base and docstring of each kind, in `Kind` order.
const CLASSES: [(Kind, &str, Builtin, &str); 20] = [
    (
        Kind::InvalidToken,
        "InvalidTokenError",
        Builtin::Value,
        "RFC profile: the crawler's name is not a product token (one or more of \
         A-Z a-z _ -, such as \"ExampleBot\"; no version, no whole User-Agent \
         header). `token` holds the name as passed.",
    ),
    (
        Kind::InvalidUserAgent,
        "InvalidUserAgentError",
        Builtin::Value,
        "product_token() found no crawler's product token in a User-Agent header. \
         `user_agent` holds the header as passed.",
    ),
    (
        Kind::NoTokens,
        "NoTokensError",
        Builtin::Value,
        "A selection by several tokens was given none.",
    ),
    (
        Kind::ParseLimit,
        "ParseLimitError",
        Builtin::Value,
        "A parse limit outside MIN_PARSE_LIMIT..MAX_PARSE_LIMIT (RFC 9309 §2.5 \
         asks for at least 500 KiB).",
    ),
    (
        Kind::InvalidOption,
        "InvalidOptionError",
        Builtin::Value,
        "An option value outside its set, such as profile=\"strict\".",
    ),
    (
        Kind::InvalidArgument,
        "InvalidArgumentError",
        Builtin::Value,
        "An argument out of its range: a negative time, an HTTP status above \
         999, a request rate of 0.",
    ),
    (
        Kind::InvalidText,
        "InvalidTextError",
        Builtin::Value,
        "A str with no UTF-8 form (a lone surrogate such as '\\ud800'): pass \
         bytes, or a str that encodes.",
    ),
    (
        Kind::InvalidUrl,
        "InvalidUrlError",
        Builtin::Value,
        "The cache cannot key a URL: not an absolute http/https URL with a \
         host, or an authority that HTTP clients read differently. `url` holds \
         the URL as passed.",
    ),
    (
        Kind::InvalidHost,
        "InvalidHostError",
        Builtin::Value,
        "The pacer cannot key a host: empty, or longer than a DNS name. `host` \
         holds the host as passed.",
    ),
    (
        Kind::InvalidLease,
        "InvalidLeaseError",
        Builtin::Value,
        "A cache lease that cannot be stored or abandoned: already ended, of \
         another cache, or run out with a newer copy of its origin stored since.",
    ),
    (
        Kind::InvalidTicket,
        "InvalidTicketError",
        Builtin::Value,
        "A pacer ticket that cannot be confirmed: of another pacer, or already \
         confirmed (go or disabled) or cancelled.",
    ),
    (
        Kind::Closed,
        "ClosedError",
        Builtin::Value,
        "A Robots or Rules used after close().",
    ),
    (
        Kind::ArgumentType,
        "ArgumentTypeError",
        Builtin::Type,
        "An argument of the wrong type, such as None or an int where a URL goes.",
    ),
    (
        Kind::PacerFull,
        "PacerFullError",
        Builtin::Runtime,
        "The pacer tracks as many hosts as its capacity allows and none can be \
         forgotten safely: raise its capacity, or try again later.",
    ),
    (
        Kind::HostDisabled,
        "HostDisabledError",
        Builtin::Runtime,
        "The host is switched off in the pacer (set_enabled(host, False)). \
         `host` holds the host.",
    ),
    (
        Kind::InvalidStatement,
        "InvalidStatementError",
        Builtin::Value,
        "An HTTP Content-Usage field that states nothing: not an RFC 9651 \
         Dictionary (lower-case keys, `key=value` members split by commas), or \
         empty. `reason` is \"syntax\" or \"empty\".",
    ),
    (
        Kind::InvalidCopy,
        "InvalidCopyError",
        Builtin::Value,
        "Bytes given to Entry.decode or Entry.stored_body that are not a whole, \
         intact stored copy (Entry.encode writes them): cut short, damaged, or \
         not a copy at all. A damaged copy is best dropped and fetched again. \
         `reason` says what is wrong.",
    ),
    (
        Kind::CopyVersion,
        "CopyVersionError",
        Builtin::Of(Kind::InvalidCopy),
        "A stored copy in a format version this library does not read: a newer \
         library wrote it; upgrade every process that shares the store. \
         `version` is the copy's, `supported` the one this library reads.",
    ),
    (
        Kind::BodyMismatch,
        "BodyMismatchError",
        Builtin::Value,
        "Entry.encode was given another body than the one its parsed copy came \
         from: pass the 2xx body of the fetch that stored the copy, or \
         Entry.stored_body of the bytes it was decoded from. `expected` is the \
         length of the body the copy came from (the part parsed), `given` the \
         length of the body passed.",
    ),
    (
        Kind::Redis,
        "RedisError",
        Builtin::Runtime,
        "A Redis call of robotstxt.fleet's SharedRobotsCache or SharedPacer \
         failed (the server unreachable, a script refused): no slot, no \
         request. `step` names the step (a fleet script, such as \"reserve\"); \
         __cause__ is the Redis client's own exception.",
    ),
];

/// `robotstxt.Error`, then one class per `Kind`, in `CLASSES` order.
static TYPES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

fn make_types(py: Python<'_>) -> PyResult<Vec<Py<PyType>>> {
    let base = PyErr::new_type(
        py,
        c"robotstxt.Error",
        Some(
            c"The base of every exception robotstxt raises. Robots.txt content is \
              never an error (any bytes parse); only what a caller passes is.",
        ),
        Some(&py.get_type::<PyException>()),
        None,
    )?;
    let mut types = vec![base.clone_ref(py)];
    let type_of = py.get_type::<PyType>();
    for (i, (kind, name, builtin, doc)) in CLASSES.iter().enumerate() {
        debug_assert_eq!(*kind as usize, i, "CLASSES is in Kind order");
        let builtin = match builtin {
            Builtin::Value => py.get_type::<PyValueError>(),
            Builtin::Type => py.get_type::<PyTypeError>(),
            Builtin::Runtime => py.get_type::<PyRuntimeError>(),
            Builtin::Of(parent) => {
                debug_assert!((*parent as usize) < i, "a parent comes first");
                let parent = types[*parent as usize + 1].bind(py).clone();
                let bases = PyTuple::new(py, [parent])?;
                let dict = PyDict::new(py);
                dict.set_item("__doc__", *doc)?;
                dict.set_item("__module__", "robotstxt")?;
                let class = type_of.call1((*name, bases, dict))?.cast_into::<PyType>()?;
                types.push(class.unbind());
                continue;
            }
        };
        let bases = PyTuple::new(py, [base.bind(py).clone(), builtin])?;
        let dict = PyDict::new(py);
        dict.set_item("__doc__", *doc)?;
        dict.set_item("__module__", "robotstxt")?;
        let class = type_of.call1((*name, bases, dict))?.cast_into::<PyType>()?;
        types.push(class.unbind());
    }
    Ok(types)
}

/// Adds `Error` and its subclasses to `module`.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    let types = TYPES.get_or_try_init(py, || make_types(py))?;
    module.add("Error", types[0].bind(py))?;
    for ((_, name, _, _), class) in CLASSES.iter().zip(&types[1..]) {
        module.add(*name, class.bind(py))?;
    }
    Ok(())
}

fn class(py: Python<'_>, kind: Kind) -> PyResult<Bound<'_, PyType>> {
    let types = TYPES.get_or_try_init(py, || make_types(py))?;
    Ok(types[kind as usize + 1].bind(py).clone())
}

/// An exception of `kind` with `message`.
pub fn new(py: Python<'_>, kind: Kind, message: impl Into<String>) -> PyErr {
    with_attribute(py, kind, message.into(), None)
}

/// An exception of `kind` with `message` and one attribute, such as the
/// token that was refused.
pub fn with_attribute(
    py: Python<'_>,
    kind: Kind,
    message: String,
    attribute: Option<(&str, &str)>,
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let value = class(py, kind)?.call1((message,))?;
        if let Some((name, text)) = attribute {
            value.setattr(name, text)?;
        }
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|e| e)
}

/// An exception of `kind` with `message` and whole-number attributes,
/// such as the lengths of a body mismatch.
pub fn with_numbers(
    py: Python<'_>,
    kind: Kind,
    message: String,
    text: Option<(&str, &str)>,
    numbers: &[(&str, u64)],
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let value = class(py, kind)?.call1((message,))?;
        if let Some((name, text)) = text {
            value.setattr(name, text)?;
        }
        for (name, number) in numbers {
            value.setattr(*name, *number)?;
        }
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|e| e)
}

/// The exception for a core error, with the core's message.
pub fn core(py: Python<'_>, error: &robotstxt::Error) -> PyErr {
    use robotstxt::Error as E;
    let message = error.to_string();
    let (kind, attribute) = match error {
        E::InvalidToken { token } => (Kind::InvalidToken, Some(("token", token.as_str()))),
        E::InvalidUserAgent { user_agent, .. } => (
            Kind::InvalidUserAgent,
            Some(("user_agent", user_agent.as_str())),
        ),
        E::NoTokens => (Kind::NoTokens, None),
        E::ParseLimit { .. } => (Kind::ParseLimit, None),
        E::InvalidUrl { url, .. } => (Kind::InvalidUrl, Some(("url", url.as_str()))),
        E::InvalidHost { host, .. } => (Kind::InvalidHost, Some(("host", host.as_str()))),
        E::InvalidLease { .. } => (Kind::InvalidLease, None),
        E::InvalidTicket { .. } => (Kind::InvalidTicket, None),
        E::PacerFull { .. } => (Kind::PacerFull, None),
        E::InvalidOption { .. } => (Kind::InvalidOption, None),
        E::InvalidCopy { reason } => (Kind::InvalidCopy, Some(("reason", *reason))),
        E::CopyVersion { version, supported } => {
            let reason = format!("is in format version {version}, newer than {supported}");
            return with_numbers(
                py,
                Kind::CopyVersion,
                message,
                Some(("reason", reason.as_str())),
                &[
                    ("version", u64::from(*version)),
                    ("supported", u64::from(*supported)),
                ],
            );
        }
        E::BodyMismatch { expected, given } => {
            return with_numbers(
                py,
                Kind::BodyMismatch,
                message,
                None,
                &[("expected", *expected as u64), ("given", *given as u64)],
            );
        }
        // A variant added to the core later: still a robotstxt.Error.
        _ => (Kind::InvalidArgument, None),
    };
    with_attribute(py, kind, message, attribute)
}

/// `Result<T, robotstxt::Error>` → `PyResult<T>`.
pub trait OrRaise<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, robotstxt::Error> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| core(py, &e))
    }
}

/// An `ArgumentTypeError`: `what` must be `expected`, not what `value` is.
pub fn wrong_type(value: &Bound<'_, PyAny>, what: &dyn std::fmt::Display, expected: &str) -> PyErr {
    let got = value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_owned());
    new(
        value.py(),
        Kind::ArgumentType,
        format!("{what} must be {expected}, not {got}"),
    )
}
