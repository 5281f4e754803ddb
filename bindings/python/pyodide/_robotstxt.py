"""robotstxt._robotstxt for Pyodide: the API of the compiled extension
(_robotstxt.pyi is the contract) over the core compiled to WebAssembly,
through its C ABI (include/robotstxt.h). An adapter, never a second
implementation: every answer is the core's; this module converts
arguments, lays them out in the module's memory and reads the answers
back.

What WebAssembly in Pyodide cannot do is said where it is asked for:
robotstxt.fleet needs a Redis connection (no sockets here), and there are
no threads to share objects between (Pyodide runs one).
"""

from __future__ import annotations

import json
import math
import re
import struct
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from . import _core
from ._abi import CONSTANTS as K
from ._abi import VERSION

_c = _core.load()
_x = _c.x
_O = _c.OUT
_U64_MAX = 2**64 - 1
_U32_MAX = 2**32 - 1


class _Exports:
    """The exports, by their names less `robotstxt_` (looked up once: each
    lookup through the bridge costs a crossing)."""

    def __getattr__(self, name: str) -> Any:
        f = getattr(_x, "robotstxt_" + name)
        setattr(self, name, f)
        return f


_f = _Exports()

__version__ = VERSION
MIN_PARSE_LIMIT: int = K["MIN_PARSE_LIMIT"]
MAX_PARSE_LIMIT: int = K["MAX_PARSE_LIMIT"]
STORED_COPY_VERSION: int = K["STORED_COPY_VERSION"]
_DEFAULT_PARSE_LIMIT = MIN_PARSE_LIMIT

# --- exceptions (the names, bases and words of the extension's) ---


class Error(Exception):
    """The base of every exception robotstxt raises. Robots.txt content is
    never an error (any bytes parse); only what a caller passes is."""


def _exception(name: str, bases: Tuple[type, ...], doc: str) -> Any:
    return type(name, bases, {"__doc__": doc, "__module__": "robotstxt"})


Error.__module__ = "robotstxt"
InvalidTokenError = _exception(
    "InvalidTokenError", (Error, ValueError),
    "RFC profile: the crawler's name is not a product token (one or more of A-Z a-z _ -, "
    "such as \"ExampleBot\"; no version, no whole User-Agent header). `token` holds the "
    "name as passed.",
)
InvalidUserAgentError = _exception(
    "InvalidUserAgentError", (Error, ValueError),
    "product_token() found no crawler's product token in a User-Agent header. "
    "`user_agent` holds the header as passed.",
)
NoTokensError = _exception(
    "NoTokensError", (Error, ValueError),
    "A selection by several tokens was given none.",
)
ParseLimitError = _exception(
    "ParseLimitError", (Error, ValueError),
    "A parse limit outside MIN_PARSE_LIMIT..MAX_PARSE_LIMIT (RFC 9309 §2.5 asks for at "
    "least 500 KiB).",
)
InvalidOptionError = _exception(
    "InvalidOptionError", (Error, ValueError),
    "An option value outside its set, such as profile=\"strict\".",
)
InvalidArgumentError = _exception(
    "InvalidArgumentError", (Error, ValueError),
    "An argument out of its range: a negative time, an HTTP status above 999, a request "
    "rate of 0.",
)
InvalidTextError = _exception(
    "InvalidTextError", (Error, ValueError),
    "A str with no UTF-8 form (a lone surrogate such as '\\ud800'): pass bytes, or a str "
    "that encodes.",
)
InvalidUrlError = _exception(
    "InvalidUrlError", (Error, ValueError),
    "The cache cannot key a URL: not an absolute http/https URL with a host, or an "
    "authority that HTTP clients read differently. `url` holds the URL as passed.",
)
InvalidHostError = _exception(
    "InvalidHostError", (Error, ValueError),
    "The pacer cannot key a host: empty, or longer than a DNS name. `host` holds the host"
    " as passed.",
)
InvalidLeaseError = _exception(
    "InvalidLeaseError", (Error, ValueError),
    "A cache lease that cannot be stored or abandoned: already ended, of another cache, "
    "or run out with a newer copy of its origin stored since.",
)
InvalidTicketError = _exception(
    "InvalidTicketError", (Error, ValueError),
    "A pacer ticket that cannot be confirmed: of another pacer, or already confirmed (go "
    "or disabled) or cancelled.",
)
ClosedError = _exception(
    "ClosedError", (Error, ValueError),
    "A Robots or Rules used after close().",
)
ArgumentTypeError = _exception(
    "ArgumentTypeError", (Error, TypeError),
    "An argument of the wrong type, such as None or an int where a URL goes.",
)
PacerFullError = _exception(
    "PacerFullError", (Error, RuntimeError),
    "The pacer tracks as many hosts as its capacity allows and none can be forgotten "
    "safely: raise its capacity, or try again later.",
)
HostDisabledError = _exception(
    "HostDisabledError", (Error, RuntimeError),
    "The host is switched off in the pacer (set_enabled(host, False)). `host` holds the "
    "host.",
)
InvalidStatementError = _exception(
    "InvalidStatementError", (Error, ValueError),
    "An HTTP Content-Usage field that states nothing: not an RFC 9651 Dictionary (lower-"
    "case keys, `key=value` members split by commas), or empty. `reason` is \"syntax\" or "
    "\"empty\".",
)
InvalidCopyError = _exception(
    "InvalidCopyError", (Error, ValueError),
    "Bytes given to Entry.decode or Entry.stored_body that are not a whole, intact stored"
    " copy (Entry.encode writes them): cut short, damaged, or not a copy at all. A "
    "damaged copy is best dropped and fetched again. `reason` says what is wrong.",
)
CopyVersionError = _exception(
    "CopyVersionError", (InvalidCopyError,),
    "A stored copy in a format version this library does not read: a newer library wrote "
    "it; upgrade every process that shares the store. `version` is the copy's, "
    "`supported` the one this library reads.",
)
BodyMismatchError = _exception(
    "BodyMismatchError", (Error, ValueError),
    "Entry.encode was given another body than the one its parsed copy came from: pass the"
    " 2xx body of the fetch that stored the copy, or Entry.stored_body of the bytes it "
    "was decoded from. `expected` is the length of the body the copy came from (the part "
    "parsed), `given` the length of the body passed.",
)
RedisError = _exception(
    "RedisError", (Error, RuntimeError),
    "A Redis call of robotstxt.fleet's SharedRobotsCache or SharedPacer failed (the "
    "server unreachable, a script refused): no slot, no request. `step` names the step (a"
    " fleet script, such as \"reserve\"); __cause__ is the Redis client's own exception.",
)
UnsupportedError = _exception(
    "UnsupportedError", (Error, NotImplementedError),
    "Something this build of robotstxt cannot do: it runs as WebAssembly in Pyodide (no "
    "sockets, one thread). The message says what to use instead.",
)


def _new(kind: Any, message: str, **attributes: Any) -> Exception:
    error: Exception = kind(message)
    for name, value in attributes.items():
        setattr(error, name, value)
    return error


def _wrong_type(value: object, what: str, expected: str) -> Exception:
    return _new(ArgumentTypeError, f"{what} must be {expected}, not {type(value).__name__}")


_STATUS_KINDS = {
    K["STATUS_INVALID_ARGUMENT"]: InvalidArgumentError,
    K["STATUS_INVALID_TOKEN"]: InvalidTokenError,
    K["STATUS_NO_TOKENS"]: NoTokensError,
    K["STATUS_PARSE_LIMIT"]: ParseLimitError,
    K["STATUS_INVALID_OPTION"]: InvalidOptionError,
    K["STATUS_INVALID_URL"]: InvalidUrlError,
    K["STATUS_INVALID_HOST"]: InvalidHostError,
    K["STATUS_INVALID_LEASE"]: InvalidLeaseError,
    K["STATUS_INVALID_TICKET"]: InvalidTicketError,
    K["STATUS_PACER_FULL"]: PacerFullError,
    K["STATUS_INVALID_FIELD"]: InvalidStatementError,
    K["STATUS_INVALID_COPY"]: InvalidCopyError,
    K["STATUS_COPY_VERSION"]: CopyVersionError,
    K["STATUS_BODY_MISMATCH"]: BodyMismatchError,
}


def _failure(status: int, **attributes: Any) -> Exception:
    """The exception for a failed call, with the core's message (the
    export's name, which the C ABI puts before some, left out)."""
    message = re.sub(r"^robotstxt_\w+: ", "", _c.last_error())
    kind = _STATUS_KINDS.get(status)
    if kind is None:
        return _new(Error, f"{message} (status {status})")
    if kind is InvalidStatementError:
        attributes["reason"] = "empty" if " is empty" in message else "syntax"
    elif kind is InvalidCopyError:
        m = re.match(r"the stored robots\.txt copy (.*?): pass the bytes", message, re.S)
        attributes["reason"] = m.group(1) if m else message
    elif kind is CopyVersionError:
        m = re.search(r"format version (\d+), and this library reads version (\d+)", message)
        if m:
            version, supported = int(m.group(1)), int(m.group(2))
            attributes.update(version=version, supported=supported,
                              reason=f"is in format version {version}, newer than {supported}")
    elif kind is BodyMismatchError:
        m = re.search(r"\((\d+) bytes\) is not the one .*? \((\d+) bytes read\)", message, re.S)
        if m:
            attributes.update(given=int(m.group(1)), expected=int(m.group(2)))
    attributes = {k: v for k, v in attributes.items() if _ATTRIBUTE_OF.get(k, kind) is kind}
    return _new(kind, message, **attributes)


# The argument a call passes along for its exception, and which one gets it.
_ATTRIBUTE_OF = {"token": InvalidTokenError, "url": InvalidUrlError, "host": InvalidHostError}


def _ok(status: int, **attributes: Any) -> None:
    if status:
        raise _failure(status, **attributes)


# --- arguments (as the extension reads them) ---

_TEXT = "str, bytes, bytearray or memoryview"


def _str_bytes(s: str, what: str) -> bytes:
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError as cause:
        error = _new(InvalidTextError, f"{what} holds a lone surrogate, which has no UTF-8 form ({type(cause).__name__}: {cause}): pass bytes, or a str that encodes")
        raise error from cause


def _text(value: object, what: str) -> bytes:
    t = type(value)
    if t is bytes:
        return value  # type: ignore[return-value]
    if t is str:
        return _str_bytes(value, what)  # type: ignore[arg-type]
    if isinstance(value, str):
        return _str_bytes(value, what)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise _wrong_type(value, what, _TEXT)


def _lossy(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rust_float(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return str(int(x)) if x == int(x) else repr(x)


def _integer(value: object, what: str, low: int, high: int) -> int:
    if not _is_int(value):
        raise _wrong_type(value, what, "an int")
    if not low <= value <= high:  # type: ignore[operator]
        span = f"≥ {low}" if high == _U64_MAX else f"from {low} to {high}"
        raise _new(InvalidArgumentError, f"{what} must be a whole number {span}, not {value}")
    return int(value)  # type: ignore[call-overload]


def _millis(value: object, what: str) -> int:
    if isinstance(value, float):
        if math.isfinite(value) and 0.0 <= value < 2.0**64:
            return int(value)
        raise _new(InvalidArgumentError, f"{what} must be a finite number of milliseconds ≥ 0, not {_rust_float(value)}")
    if not _is_int(value):
        raise _wrong_type(value, what, "an int or a float (milliseconds)")
    return _integer(value, what, 0, _U64_MAX)


def _seconds(value: object, what: str) -> float:
    if isinstance(value, float):
        secs = value
    elif _is_int(value):
        secs = float(value)  # type: ignore[arg-type]
    else:
        raise _wrong_type(value, what, "an int or a float (seconds)")
    if not (math.isfinite(secs) and 0.0 <= secs < 2.0**64):
        raise _new(InvalidArgumentError, f"{what} must be a finite number of seconds ≥ 0, not {_rust_float(secs)}")
    return secs


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _wrong_type(value, what, "a bool")
    return value


def _choice(value: object, what: str, choices: Dict[str, int]) -> int:
    if not isinstance(value, str):
        raise _wrong_type(value, what, "a str")
    if value in choices:
        return choices[value]
    names = ", ".join(json.dumps(n) for n in choices)
    raise _new(InvalidOptionError, f"{what} must be one of {names}, not {json.dumps(value, ensure_ascii=False)}")


def _now(value: object) -> int:
    if value is None:
        return int(time.time() * 1000)
    return _millis(value, "now")


def _status(value: object, what: str = "status") -> Optional[int]:
    return None if value is None else _integer(value, what, 0, 999)


_PROFILES = {"rfc": K["PROFILE_RFC"], "google": K["PROFILE_GOOGLE"]}
_PROFILE_NAMES = {v: k for k, v in _PROFILES.items()}
_POLICIES = {"careful": K["ACCESS_CAREFUL"], "strict": K["ACCESS_STRICT_RFC"]}
_AFTER_LIMIT = {"keep": K["AFTER_LIMIT_KEEP_COPY"], "allow": K["AFTER_LIMIT_ALLOW_ALL"]}
_WHEN_FETCHING = {"wait": K["WHEN_FETCHING_WAIT"], "disallow-all": K["WHEN_FETCHING_DISALLOW_ALL"]}


def _parse_options(profile: object, parse_limit: object, typos: object) -> bytes:
    """A robotstxt_options (12 bytes)."""
    code = K["PROFILE_RFC"] if profile is None else _choice(profile, "profile", _PROFILES)
    limit = _DEFAULT_PARSE_LIMIT
    if parse_limit is not None:
        # usize is 32 bits here: a larger limit is out of range all the same.
        limit = min(_integer(parse_limit, "parse_limit", 0, _U64_MAX), _U32_MAX)
        if not MIN_PARSE_LIMIT <= limit <= MAX_PARSE_LIMIT:
            # The core's own check, through a parse of nothing.
            options = struct.pack("<II?3x", code, limit, True)
            p = _c.write(options)
            _ok(_f.robots_parse_with(0, 0, p, _O))
    flag = True if typos is None else _flag(typos, "typos")
    return struct.pack("<II?3x", code, limit, flag)


_FRESHNESS = ("fresh_for_ms", "retry_ms", "unreachable_limit_ms", "after_limit", "policy", "profile", "parse_limit", "typos")


def _freshness(func: str, options: Dict[str, Any]) -> Tuple[bytes, str]:
    """A robotstxt_freshness_policy (48 bytes) and its profile's name."""
    for name in options:
        if name not in _FRESHNESS:
            raise TypeError(f"{func}() got an unexpected keyword argument '{name}'")
    o = options.get
    parse = _parse_options(o("profile"), o("parse_limit"), o("typos"))
    fresh = 86_400_000 if o("fresh_for_ms") is None else _millis(o("fresh_for_ms"), "fresh_for_ms")
    retry = 3_600_000 if o("retry_ms") is None else _millis(o("retry_ms"), "retry_ms")
    limit = 2_592_000_000 if o("unreachable_limit_ms") is None else _millis(o("unreachable_limit_ms"), "unreachable_limit_ms")
    after = K["AFTER_LIMIT_KEEP_COPY"] if o("after_limit") is None else _choice(o("after_limit"), "after_limit", _AFTER_LIMIT)
    access = K["ACCESS_CAREFUL"] if o("policy") is None else _choice(o("policy"), "policy", _POLICIES)
    policy = struct.pack("<QQQII", fresh, retry, limit, after, access) + parse + b"\0" * 4
    return policy, _PROFILE_NAMES[struct.unpack_from("<I", parse)[0]]


class _Fetch:
    """A fetch outcome's arguments, read as the extension reads them."""

    def __init__(self, status: object, body: object, redirects: object, max_age_ms: object,
                 retry_after_ms: object, etag: object, last_modified: object) -> None:
        self.status = _status(status)
        self.redirects = 0 if redirects is None else _integer(redirects, "redirects", 0, _U32_MAX)
        self.body = None if body is None else _text(body, "body")
        self.max_age = None if max_age_ms is None else _millis(max_age_ms, "max_age_ms")
        self.retry_after = None if retry_after_ms is None else _millis(retry_after_ms, "retry_after_ms")
        self.etag = None if etag is None else _text(etag, "etag")
        self.last_modified = None if last_modified is None else _text(last_modified, "last_modified")

    def place(self) -> int:
        """Writes a robotstxt_fetch (72 bytes) and its texts; its address."""
        lay = _core.Layout(72)
        texts = [lay.text(t or b"") for t in (self.body, self.etag, self.last_modified)]
        base, spans = lay.place(_c)
        body, etag, lm = (spans[i] for i in texts)
        head = struct.pack(
            "<H2xIII?7xQ?7xQ?3xII?3xII",
            self.status or 0, self.redirects, *body,
            self.max_age is not None, self.max_age or 0,
            self.retry_after is not None, self.retry_after or 0,
            self.etag is not None, *etag,
            self.last_modified is not None, *lm,
        )
        _c.put_at(base, lay.blob(head))
        return base


def _place_texts(*texts: bytes) -> List[Tuple[int, int]]:
    lay = _core.Layout()
    for t in texts:
        lay.text(t)
    base, spans = lay.place(_c)
    _c.put_at(base, lay.blob(b""))
    return spans


def _text_at(p: int, n: int) -> str:
    return _c.text(p, n)


def _u32() -> int:
    """The uint32 (or size_t) output at the start of the output block."""
    return int(struct.unpack("<I", _c.out(4))[0])


def _names(func: Callable[[int], int], codes: Iterable[int]) -> Dict[int, str]:
    out = {}
    for code in codes:
        p = func(code)
        if p:
            out[code] = _c.cstr(p)
    return out


_KINDS = _names(_f.decision_kind_name, range(8))
_CAUSES = _names(_f.cause_name, range(8))
_LINE_KINDS = _names(_f.line_kind_name, range(16))
_FLAGS = _names(_f.diagnostic_flag_name, [1 << i for i in range(16)])
_USAGE = {code: (None if name == "unknown" else name) for code, name in _names(_f.usage_name, range(4)).items()}


# --- value objects ---


class _Value:
    """A frozen object with its fields in slots, made by this module only."""

    __slots__: Tuple[str, ...] = ()
    _fields: Tuple[str, ...] = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"cannot create 'robotstxt.{cls.__name__}' instances")

    @classmethod
    def _make(cls, *values: Any) -> Any:
        obj = object.__new__(cls)
        for name, value in zip(cls._fields, values):
            object.__setattr__(obj, "_" + name, value)
        return obj

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"'robotstxt.{type(self).__name__}' objects are immutable")

    def _ident(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, "_" + n) for n in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._ident() == other._ident()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._ident())


def _fields(cls: Any) -> Any:
    for name in cls._fields:
        if name not in cls.__dict__:
            setattr(cls, name, property(lambda self, _n="_" + name: getattr(self, _n)))
    cls.__module__ = "robotstxt"
    return cls


def _q(s: Optional[str]) -> str:
    return "None" if s is None else repr(s)


@_fields
class Diagnostic(_Value):
    """One line that has something to report."""

    __slots__ = ("_line", "_kind", "_flags", "_message")
    _fields = ("line", "kind", "flags", "message")

    def _ident(self) -> Tuple[Any, ...]:
        return (self._line, self._kind, self._flags)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"Diagnostic(line={self._line}, kind={self._kind!r}, flags={self._flags!r}, message={self._message!r})"  # type: ignore[attr-defined]


@_fields
class Decision(_Value):
    """The answer for one URL and the rule that gave it."""

    __slots__ = ("_allowed", "_line", "_kind", "_pattern")
    _fields = ("allowed", "line", "kind", "pattern")

    def __repr__(self) -> str:
        return f"Decision(allowed={self._allowed}, line={self._line}, kind={self._kind!r}, pattern={self._pattern!r})"  # type: ignore[attr-defined]


_new_object = object.__new__
_set = object.__setattr__


def _decision(allowed: bool, line: int, kind: str, pattern: str) -> Decision:
    d: Decision = _new_object(Decision)
    _set(d, "_allowed", allowed)
    _set(d, "_line", line)
    _set(d, "_kind", kind)
    _set(d, "_pattern", pattern)
    return d


def _decision_of(s: str) -> Decision:
    """From the helpers' form: allowed, kind, line, "," then the pattern."""
    comma = s.index(",", 2)
    return _decision(s[0] == "1", int(s[2:comma]), _KINDS[int(s[1])], s[comma + 1 :])


def _decision_at(raw: bytes, at: int = 0) -> Decision:
    allowed, line, kind, p, n = struct.unpack_from("<?3xIIII", raw, at)
    return _decision(allowed, line, _KINDS[kind], _text_at(p, n))


@_fields
class RequestRate(_Value):
    """request-rate: n/m: `requests` requests per `seconds` seconds."""

    __slots__ = ("_requests", "_seconds", "_interval")
    _fields = ("requests", "seconds", "interval")

    def __new__(cls, requests: object, seconds: object) -> Any:
        r = _integer(requests, "requests", 1, _U32_MAX)
        s = _integer(seconds, "seconds", 1, _U32_MAX)
        return cls._of(r, s)

    @classmethod
    def _of(cls, requests: int, seconds: int) -> "RequestRate":
        # seconds / requests as the core's Duration holds it (whole ns).
        nanos = seconds * 1_000_000_000 // requests
        made: RequestRate = cls._make(requests, seconds, nanos / 1e9)
        return made

    def _ident(self) -> Tuple[Any, ...]:
        return (self._requests, self._seconds)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"RequestRate(requests={self._requests}, seconds={self._seconds})"  # type: ignore[attr-defined]


@_fields
class Blanket(_Value):
    """A blanket answer standing where a file's rules would, and why."""

    __slots__ = ("_allowed", "_cause", "_status", "_redirects")
    _fields = ("allowed", "cause", "status", "redirects")

    def __repr__(self) -> str:
        return (f"Blanket(allowed={self._allowed}, cause={self._cause!r}, "  # type: ignore[attr-defined]
                f"status={self._status}, redirects={self._redirects})")  # type: ignore[attr-defined]


def _blanket_at(raw: bytes, at: int = 0) -> Optional[Blanket]:
    is_blanket, allowed, cause, status, redirects = struct.unpack_from("<??2xIH2xI", raw, at)
    if not is_blanket:
        return None
    if cause == K["CAUSE_STATUS"]:
        return Blanket._make(allowed, _CAUSES[cause], status, redirects)  # type: ignore[no-any-return]
    return Blanket._make(allowed, _CAUSES[cause], None, None)  # type: ignore[no-any-return]


@_fields
class LabelPreference(_Value):
    """One label's answer in Preferences.labels, and the lines that gave it."""

    __slots__ = ("_value", "_lines")
    _fields = ("value", "lines")

    def __repr__(self) -> str:
        return f"LabelPreference(value={_q(self._value)}, lines={self._lines!r})"  # type: ignore[attr-defined]


@_fields
class UsageStatement(_Value):
    """A Content-Usage rule that applied to a URL."""

    __slots__ = ("_line", "_path", "_members")
    _fields = ("line", "path", "members")

    def __repr__(self) -> str:
        return f"UsageStatement(line={self._line}, path={self._path!r}, members={self._members!r})"  # type: ignore[attr-defined]


@_fields
class Preferences(_Value):
    """The usage preferences for one URL (behaviour §10.3-§10.6)."""

    __slots__ = ("_crawlable", "_decision", "_labels", "_statements")
    _fields = ("crawlable", "decision", "labels", "statements")

    @property  # type: ignore[no-redef]
    def labels(self) -> Dict[str, LabelPreference]:
        return dict(self._labels)  # type: ignore[attr-defined]

    def get(self, label: object, /) -> Optional[str]:
        """The answer for `label`: "y", "n", or None when nothing states it."""
        want = _lossy(_text(label, "label"))
        for name, answer in self._labels:  # type: ignore[attr-defined]
            if name == want:
                return answer.value  # type: ignore[no-any-return]
        return None

    def __repr__(self) -> str:
        labels = ", ".join(f"{k!r}: {_q(v.value)}" for k, v in self._labels)  # type: ignore[attr-defined]
        lines = tuple(s.line for s in self._statements)  # type: ignore[attr-defined]
        return (f"<robotstxt.Preferences crawlable={self._crawlable}, line={self._decision.line}, "  # type: ignore[attr-defined]
                f"labels={{{labels}}}, statements on lines {lines!r}>")


@_fields
class ContentSignal(_Value):
    """The combined Content-Signal of one crawler's groups (behaviour §10.5)."""

    __slots__ = ("_signals", "_lines")
    _fields = ("signals", "lines")

    @property  # type: ignore[no-redef]
    def signals(self) -> Dict[str, Optional[str]]:
        return dict(self._signals)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        signals = ", ".join(f"{k!r}: {_q(v)}" for k, v in self._signals)  # type: ignore[attr-defined]
        return f"ContentSignal(signals={{{signals}}}, lines={self._lines!r})"  # type: ignore[attr-defined]


@_fields
class OtherRecord(_Value):
    """A line whose key the library does not read, as written (behaviour §10.7)."""

    __slots__ = ("_key", "_key_lower", "_value", "_line", "_group")
    _fields = ("key", "key_lower", "value", "line", "group")

    def __repr__(self) -> str:
        return (f"OtherRecord(key={self._key!r}, key_lower={self._key_lower!r}, "  # type: ignore[attr-defined]
                f"value={self._value!r}, line={self._line}, group={self._group})")  # type: ignore[attr-defined]


def _records(count_fn: Callable[..., int], item_fn: Callable[..., int], h: int) -> Tuple[OtherRecord, ...]:
    _ok(count_fn(h, _O))
    out = []
    for i in range(_u32()):
        _ok(item_fn(h, i, _O))
        kp, kn, vp, vn, line, in_group, group = struct.unpack("<IIIII?3xI", _c.out(28))
        key = _c.read(kp, kn)
        out.append(OtherRecord._make(_lossy(key), _lossy(key.lower()), _text_at(vp, vn), line,
                                     group if in_group else None))
    return tuple(out)


# --- handles ---


class _Handle:
    """A core handle, freed by close() or when the object goes."""

    __slots__ = ("_h", "__weakref__")
    _free: Callable[[int], None]
    _name = ""

    def _get(self) -> int:
        h: int = self._h
        if not h:
            raise _new(ClosedError, f"this {self._name} was closed: make a new one")
        return h

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return not self._h

    def close(self) -> None:
        """Frees the core object now rather than when this object goes; later uses raise
        ClosedError. Calling it again does nothing."""
        h, self._h = self._h, 0
        if h:
            type(self)._free(h)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> bool:
        self.close()
        return False

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter teardown
            pass


def _made(cls: Any, h: int) -> Any:
    obj = object.__new__(cls)
    obj._h = h
    return obj


def _handle_out() -> int:
    return _u32()


_LINE_WORDS = {
    "typo": "the key is an accepted typo",
    "missing-colon": "no colon: read as `key value`",
    "too-long": "longer than 16,663 bytes: cut there (Google's line cap)",
    "outside-group": "before any user-agent line: ignored",
    "invalid-value": "the value does not parse: ignored",
    "unknown-key": "unknown key: ignored",
    "invalid-statement": "the statement is not an RFC 9651 Dictionary: the rule is kept and states nothing",
    "empty-statement": "a path and no statement: the rule is kept and states nothing",
    "unknown-preference": "a label's value is neither y nor n: unknown",
}


def _diagnostic_words(kind: str, flags: Tuple[str, ...]) -> str:
    """The extension's words for a line's findings."""
    parts = []
    for flag in flags:
        if flag == "outside-group" and kind == "content-signal":
            parts.append("before any user-agent line: applies to no crawler; listed in other_records")
        elif flag == "invalid-value" and kind in ("allow", "disallow"):
            parts.append("the value starts with neither / nor *: applied all the same")
        elif flag == "unknown-preference" and kind == "content-signal":
            parts.append("a member is not key=yes or key=no: that member is ignored")
        else:
            parts.append(_LINE_WORDS.get(flag, flag))
    if not parts and kind == "invalid":
        parts.append("no key: neither `key: value` nor `key value`; ignored")
    return "; ".join(parts)


class Robots(_Handle):
    """A parsed robots.txt: immutable. Parse once with `Robots.parse`,
    select the rules for your crawler with `rules_for`, then ask those as
    often as you like."""

    __slots__ = ()
    _name = "Robots"
    _free = _f.robots_free

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("cannot create 'robotstxt.Robots' instances: use Robots.parse")

    @staticmethod
    def parse(body: object, *, profile: object = None, parse_limit: object = None, typos: object = None) -> "Robots":
        """Parses a robots.txt body (see the extension's documentation)."""
        options = _parse_options(profile, parse_limit, typos)
        return _parse(_text(body, "body"), options)

    def rules_for(self, token: object) -> "Rules":
        """The rules for the crawler whose product token is `token` (RFC 9309 §2.2.1): every group
        naming it, merged; else every `*` group; else none. Raises InvalidTokenError in the RFC
        profile for a name that is not a product token."""
        h = self._get()
        t = _text(token, "token")
        p = _c.write(t)
        _ok(_f.robots_rules_for(h, p, len(t), _O), token=_lossy(t))
        return _made(Rules, _handle_out())  # type: ignore[no-any-return]

    def _select(self, tokens: object, select: Callable[..., int]) -> "Rules":
        h = self._get()
        if isinstance(tokens, (str, bytes)):
            raise _wrong_type(tokens, "tokens", "a list of str or bytes (for one token, call rules_for(token))")
        try:
            items = list(tokens)  # type: ignore[call-overload]
        except TypeError:
            raise _wrong_type(tokens, "tokens", "a list of str or bytes") from None
        texts = [_text(t, f"tokens[{i}]") for i, t in enumerate(items)]
        lay = _core.Layout(8 * len(texts))
        for t in texts:
            lay.text(t)
        base, spans = lay.place(_c)
        _c.put_at(base, lay.blob(b"".join(struct.pack("<II", *s) for s in spans)))
        status = select(h, base if texts else 0, len(texts), _O)
        if status == K["STATUS_INVALID_TOKEN"]:
            # The token the core refused: the first one refused alone.
            for t in texts:
                p = _c.write(t)
                one = _f.robots_rules_for(h, p, len(t), _O)
                if one == 0:
                    _f.rules_free(_handle_out())
                else:
                    raise _failure(one, token=_lossy(t))
        _ok(status)
        return _made(Rules, _handle_out())  # type: ignore[no-any-return]

    def rules_for_any(self, tokens: object) -> "Rules":
        """The rules for a crawler known by several tokens: every group naming any of them, merged;
        else every `*` group. Raises NoTokensError for an empty list."""
        return self._select(tokens, _f.robots_rules_for_any)

    def rules_for_strictest(self, tokens: object) -> "Rules":
        """Strictest-of: a URL is allowed only if each token's own rules allow it, and the crawl
        delay is the largest of theirs."""
        return self._select(tokens, _f.robots_rules_for_strictest)

    @property
    def sitemaps(self) -> List[str]:
        """Every `sitemap` value in file order, as written (bytes that are not UTF-8 read as
        U+FFFD)."""
        h = self._get()
        _ok(_f.robots_sitemap_count(h, _O))
        out = []
        for i in range(_u32()):
            _ok(_f.robots_sitemap(h, i, _O, _O + 4))
            p, n = struct.unpack("<II", _c.out(8))
            out.append(_text_at(p, n))
        return out

    @property
    def host(self) -> Optional[str]:
        """The first `host` value (a Yandex extension), or None."""
        _ok(_f.robots_host(self._get(), _O, _O + 4, _O + 8))
        p, n, found = struct.unpack("<II?", _c.out(9))
        return _text_at(p, n) if found else None

    @property
    def other_records(self) -> Tuple[OtherRecord, ...]:
        """Every line whose key the library does not read, and every Content-Signal line before the
        first user-agent, in file order, as written."""
        return _records(_f.robots_other_record_count, _f.robots_other_record, self._get())

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """The lines that have something to report, in line order."""
        h = self._get()
        _ok(_f.robots_diagnostic_count(h, _O))
        out = []
        for i in range(_u32()):
            _ok(_f.robots_diagnostic(h, i, _O))
            line, kind, bits = struct.unpack("<III", _c.out(12))
            name = _LINE_KINDS[kind]
            flags = tuple(_FLAGS[1 << b] for b in range(16) if bits & (1 << b))
            out.append(Diagnostic._make(line, name, flags, _diagnostic_words(name, flags)))
        return out

    @property
    def profile(self) -> str:
        _ok(_f.robots_profile(self._get(), _O))
        return _PROFILE_NAMES[_u32()]

    def _counts(self) -> Tuple[int, int]:
        _ok(_f.wasm_robots_counts(self._get(), _O, _O + 4))
        groups, rules = struct.unpack("<II", _c.out(8))
        return groups, rules

    @property
    def group_count(self) -> int:
        """How many groups the file has."""
        return self._counts()[0]

    @property
    def rule_count(self) -> int:
        """How many rules the file has (Google's `index.html` extras included)."""
        return self._counts()[1]

    def __repr__(self) -> str:
        if not self._h:
            return "<robotstxt.Robots (closed)>"
        groups, rules = self._counts()
        return f"<robotstxt.Robots profile={self.profile!r}, {groups} groups, {rules} rules>"


def _parse(body: bytes, options: bytes) -> Robots:
    lay = _core.Layout(12)
    lay.text(body)
    base, spans = lay.place(_c)
    _c.put_at(base, lay.blob(options))
    p, n = spans[0]
    _ok(_f.robots_parse_with(p, n, base, _O))
    return _made(Robots, _handle_out())  # type: ignore[no-any-return]


_can_fetch_str = _c.can_fetch_str
_decide_str = _c.decide_str
_can_fetch_at = _c.js.canFetchAt
_decide_at = _c.js.decideAt


def _batch(urls: object) -> List[Any]:
    if isinstance(urls, (list, tuple)):
        return list(urls)
    if isinstance(urls, (str, bytes)):
        raise _wrong_type(urls, "urls", "a list of URLs (for one URL, call can_fetch(url))")
    try:
        return list(urls)  # type: ignore[call-overload]
    except TypeError:
        raise _wrong_type(urls, "urls", "an iterable of URLs") from None


class Rules(_Handle):
    """The rules that apply to one crawler, from Robots.rules_for and its
    siblings (or a cache's answer). Independent of the Robots they came
    from. A str is matched as its UTF-8 bytes, bytes as they are."""

    __slots__ = ()
    _name = "Rules"
    _free = _f.rules_free

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("cannot create 'robotstxt.Rules' instances: use Robots.rules_for")

    @staticmethod
    def allow_all(*, profile: object = None) -> "Rules":
        """Rules that allow everything: what an unavailable robots.txt (a 404) means. Decisions say
        kind "allow-all"; blanket.cause is "caller"."""
        return _blanket_rules(True, profile)

    @staticmethod
    def disallow_all(*, profile: object = None) -> "Rules":
        """Rules that disallow everything: what an unreachable robots.txt (a 5xx) means until it
        can be fetched. Decisions say kind "disallow-all"."""
        return _blanket_rules(False, profile)

    def can_fetch(self, url: object, /) -> bool:
        """May the crawler fetch `url`? The longest matching rule decides;
        allow wins ties; no matching rule: allowed. A str (or UTF-8 bytes)
        costs one crossing into the module: the helper writes it and asks.
        Raises ArgumentTypeError unless `url` is str, bytes, bytearray or
        memoryview; InvalidTextError for a str with a lone surrogate."""
        try:
            h = self._h
        except AttributeError:
            raise TypeError("Rules.can_fetch() needs a Rules as self") from None
        if not h:
            self._get()
        t = type(url)
        if t is str:
            if not url.isascii():  # type: ignore[union-attr]
                _str_bytes(url, "url")  # type: ignore[arg-type]
            got: int = _can_fetch_str(h, url)
        else:
            got = _can_fetch_bytes(h, _text(url, "url"))
        if got < 0:
            raise _failure(-got)
        return got == 1

    def decide(self, url: object, /) -> Decision:
        """The answer for `url` and the rule that decided it. Raises as can_fetch."""
        try:
            h = self._h
        except AttributeError:
            raise TypeError("Rules.decide() needs a Rules as self") from None
        if not h:
            self._get()
        t = type(url)
        if t is str:
            if not url.isascii():  # type: ignore[union-attr]
                _str_bytes(url, "url")  # type: ignore[arg-type]
            got: str = _decide_str(h, url)
        else:
            raw = _text(url, "url")
            try:
                got = _decide_str(h, raw.decode("utf-8"))
            except UnicodeDecodeError:
                got = _decide_at(h, _c.write(raw), len(raw))
        if got[0] == "!":
            raise _failure(int(got[1:]))
        return _decision_of(got)

    def _many(self, urls: object, helper: str) -> Tuple[List[Any], str]:
        h = self._get()
        items = _batch(urls)
        texts = []
        for i, u in enumerate(items):
            t = type(u)
            if t is bytes:
                texts.append(u)
            elif t is str and u.isascii():
                texts.append(u.encode("ascii"))
            else:
                texts.append(_text(u, f"urls[{i}]"))
        p = _c.write(struct.pack(f"<{len(texts)}I", *map(len, texts)) + b"".join(texts))
        got: str = getattr(_c.js, helper)(h, p, len(items))
        if got[:1] == "!":
            raise _failure(int(got[1:]))
        return items, got

    def filter_allowed(self, urls: Iterable[Any]) -> List[Any]:
        """The URLs of `urls` the crawler may fetch, in order (the same objects); one crossing into
        the module for the batch."""
        items, got = self._many(urls, "canFetchMany")
        return [u for u, ok in zip(items, got) if ok == "1"]

    def can_fetch_many(self, urls: Iterable[object]) -> List[bool]:
        """can_fetch for each URL of `urls`, in order, as a list of bools."""
        return [ok == "1" for ok in self._many(urls, "canFetchMany")[1]]

    def decide_many(self, urls: Iterable[object]) -> List[Decision]:
        """decide for each URL of `urls`, in order."""
        return [_decision_of(s) for s in json.loads(self._many(urls, "decideMany")[1])]

    def compile(self) -> None:
        """Builds the index now, where the check after the first few would. Changes no answer."""
        _ok(_f.rules_compile(self._get()))

    def preferences(self, url: object, /, *, header: object = None) -> Preferences:
        """The usage preferences for `url` (behaviour §10.3-§10.4): the longest matching Content-
        Usage rules of the selected groups, combined per label (any "n" wins, then any "y");
        with `header`, the response's own Content-Usage field too. Raises InvalidStatementError
        for a header that states nothing."""
        h = self._get()
        u = _text(url, "url")
        field = None if header is None else _text(header, "header")
        _ok(_f.rules_preferences(h, _c.write(u), len(u), _O))
        prefs = _handle_out()
        try:
            if field is not None:
                status = _f.preferences_with_header(prefs, _c.write(field), len(field), _O)
                if status:
                    raise _failure(status)
                combined = _handle_out()
                _f.preferences_free(prefs)
                prefs = combined
            return _preferences(prefs)
        finally:
            _f.preferences_free(prefs)

    def content_signal(self) -> Optional[ContentSignal]:
        """The Content-Signal of the selected groups (behaviour §10.5), or None when they hold no
        content-signal line."""
        _ok(_f.rules_content_signal(self._get(), _O))
        s = _handle_out()
        if not s:
            return None
        try:
            _ok(_f.content_signal_count(s, _O))
            signals = []
            for i in range(_u32()):
                _ok(_f.content_signal_entry(s, i, _O))
                kp, kn, is_set, yes = struct.unpack("<II??2x", _c.out(12))
                signals.append((_text_at(kp, kn), ("yes" if yes else "no") if is_set else None))
            _ok(_f.content_signal_lines(s, _O, _O + 4))
            lp, count = struct.unpack("<II", _c.out(8))
            lines = struct.unpack(f"<{count}I", _c.read(lp, 4 * count))
            return ContentSignal._make(tuple(signals), tuple(lines))  # type: ignore[no-any-return]
        finally:
            _f.content_signal_free(s)

    @property
    def other_records(self) -> Tuple[OtherRecord, ...]:
        """The records the library does not read that apply to these rules: those of the selected
        groups and those before the first group."""
        return _records(_f.rules_other_record_count, _f.rules_other_record, self._get())

    @property
    def crawl_delay(self) -> Optional[float]:
        """The crawl delay in seconds: the largest valid crawl-delay of the selected groups, or
        None."""
        _ok(_f.rules_crawl_delay(self._get(), _O, _O + 8))
        seconds, has = struct.unpack("<d?", _c.out(9))
        return seconds if has else None

    @property
    def request_rate(self) -> Optional[RequestRate]:
        """The slowest valid request-rate of the selected groups, or None."""
        _ok(_f.rules_request_rate(self._get(), _O, _O + 4, _O + 8))
        requests, seconds, has = struct.unpack("<II?", _c.out(9))
        return RequestRate._of(requests, seconds) if has else None

    @property
    def blanket(self) -> Optional[Blanket]:
        """The blanket answer these rules stand for, and its cause; None for a file's rules."""
        _ok(_f.rules_blanket(self._get(), _O))
        return _blanket_at(_c.out(16))

    @property
    def retry_at(self) -> Optional[int]:
        """When the robots.txt these rules stand for will be fetched again (ms), set when the last
        fetch failed; else None."""
        _ok(_f.rules_retry_at(self._get(), _O, _O + 8))
        at, has = struct.unpack("<Q?", _c.out(9))
        return at if has else None

    def _info(self) -> Tuple[int, str]:
        _ok(_f.wasm_rules_info(self._get(), _O, _O + 4))
        count, profile = struct.unpack("<II", _c.out(8))
        return count, _PROFILE_NAMES[profile]

    @property
    def profile(self) -> str:
        return self._info()[1]

    @property
    def rule_count(self) -> int:
        """How many rules apply (over all tokens in strictest-of mode)."""
        return self._info()[0]

    def __repr__(self) -> str:
        if not self._h:
            return "<robotstxt.Rules (closed)>"
        b = self.blanket
        if b is not None:
            return f"<robotstxt.Rules {'allow-all' if b.allowed else 'disallow-all'} ({b.cause})>"
        count, profile = self._info()
        return f"<robotstxt.Rules profile={profile!r}, {count} rules>"


Rules.can_fetch.__text_signature__ = "($self, url, /)"  # type: ignore[attr-defined]
Rules.decide.__text_signature__ = "($self, url, /)"  # type: ignore[attr-defined]
Rules.preferences.__text_signature__ = "($self, url, /, *, header=None)"  # type: ignore[attr-defined]


def _can_fetch_bytes(h: int, raw: bytes) -> int:
    try:
        return int(_can_fetch_str(h, raw.decode("utf-8")))
    except UnicodeDecodeError:
        return int(_can_fetch_at(h, _c.write(raw), len(raw)))


def _blanket_rules(allowed: bool, profile: object) -> Rules:
    code = K["PROFILE_RFC"] if profile is None else _choice(profile, "profile", _PROFILES)
    _ok(_f.wasm_rules_blanket(allowed, code, _O))
    return _made(Rules, _handle_out())  # type: ignore[no-any-return]


def _preferences(prefs: int) -> Preferences:
    _ok(_f.preferences_crawlable(prefs, _O, _O + 4))
    raw = _c.out(24)
    crawlable = raw[0] != 0
    decision = _decision_at(raw, 4)
    _ok(_f.preferences_label_count(prefs, _O))
    labels = []
    for i in range(_u32()):
        _ok(_f.preferences_label(prefs, i, _O))
        lp, ln, value, linesp, count = struct.unpack("<IIIII", _c.out(20))
        lines = struct.unpack(f"<{count}I", _c.read(linesp, 4 * count)) if count else ()
        labels.append((_text_at(lp, ln), LabelPreference._make(_USAGE[value], tuple(lines))))
    _ok(_f.preferences_statement_count(prefs, _O))
    statements = []
    for i in range(_u32()):
        _ok(_f.preferences_statement(prefs, i, _O))
        line, pp, pn, members = struct.unpack("<IIII", _c.out(16))
        path = _text_at(pp, pn)
        pairs = []
        for m in range(members):
            _ok(_f.preferences_member(prefs, i, m, _O))
            kp, kn, vp, vn = struct.unpack("<IIII", _c.out(16))
            pairs.append((_text_at(kp, kn), _text_at(vp, vn)))
        statements.append(UsageStatement._make(line, path, tuple(pairs)))
    return Preferences._make(crawlable, decision, tuple(labels), tuple(statements))  # type: ignore[no-any-return]


# --- fetch outcomes, entries and answers ---

_DISPOSITIONS = {
    K["DISPOSITION_FOLLOW_RULES"]: "follow-rules",
    K["DISPOSITION_ALLOW_ALL"]: "allow-all",
    K["DISPOSITION_DISALLOW_ALL"]: "disallow-all",
    K["DISPOSITION_NOT_MODIFIED"]: "not-modified",
}


@_fields
class Access(_Value):
    """What a fetch outcome means (behaviour §6)."""

    __slots__ = ("_kind", "_retry_later", "_robots")
    _fields = ("kind", "retry_later", "robots")

    __hash__ = object.__hash__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return self is other

    def __repr__(self) -> str:
        return (f"Access(kind={self._kind!r}, retry_later={self._retry_later}"  # type: ignore[attr-defined]
                f"{', robots=<Robots>' if self._robots is not None else ''})")  # type: ignore[attr-defined]


def _access(disposition: int, robots: Optional[Robots] = None) -> Access:
    return Access._make(_DISPOSITIONS[disposition], bool(_f.disposition_retry_later(disposition)), robots)  # type: ignore[no-any-return]


def classify(status: object, redirects: object = 0, *, policy: object = "careful") -> Access:
    """Reads a fetch outcome: the final HTTP status (None: no response)."""
    code = _status(status)
    hops = 0 if redirects is None else _integer(redirects, "redirects", 0, _U32_MAX)
    access = K["ACCESS_CAREFUL"] if policy is None else _choice(policy, "policy", _POLICIES)
    _ok(_f.access_classify(code or 0, hops, access, _O))
    return _access(_u32())


def from_outcome(status: object, body: object = None, *, redirects: object = 0, policy: object = "careful",
                 profile: object = "rfc", parse_limit: object = None, typos: object = True) -> Access:
    """classify, and for a 2xx the body parsed (Access.robots)."""
    access = classify(status, redirects, policy=policy)
    options = _parse_options(profile, parse_limit, typos)
    if access.kind != "follow-rules":
        return access
    robots = _parse(b"" if body is None else _text(body, "body"), options)
    return Access._make(access.kind, access.retry_later, robots)  # type: ignore[no-any-return]


_ANSWER_KINDS = {K["ANSWER_RULES"]: "rules", K["ANSWER_ALLOW_ALL"]: "allow-all", K["ANSWER_DISALLOW_ALL"]: "disallow-all"}


class Answer(_Handle):
    """What answers for an origin: a parsed file, or a blanket answer."""

    __slots__ = ("_kind", "_blanket", "_retry_at")
    _name = "Answer"
    _free = _f.wasm_answer_free

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("cannot create 'robotstxt.Answer' instances")

    @staticmethod
    def _of(h: int) -> "Answer":
        answer: Answer = _made(Answer, h)
        _ok(_f.wasm_answer_info(h, _O))
        raw = _c.out(32)
        kind, has, at = struct.unpack_from("<I?3xQ", raw)
        answer._kind = _ANSWER_KINDS[kind]
        answer._retry_at = at if has else None
        answer._blanket = _blanket_at(raw, 16)
        return answer

    @property
    def kind(self) -> str:
        """"rules" (follow the parsed file: see robots), "allow-all" or "disallow-all" (see
        blanket)."""
        return self._kind  # type: ignore[no-any-return]

    @property
    def robots(self) -> Optional[Robots]:
        """The parsed file when kind is "rules", else None."""
        _ok(_f.wasm_answer_robots(self._get(), _O))
        h = _handle_out()
        return _made(Robots, h) if h else None

    @property
    def blanket(self) -> Optional[Blanket]:
        """The blanket answer and its cause, or None when kind is "rules"."""
        return self._blanket  # type: ignore[no-any-return]

    @property
    def retry_at(self) -> Optional[int]:
        """When the file will be fetched again (ms), after a failed fetch; else None."""
        return self._retry_at  # type: ignore[no-any-return]

    def rules_for(self, token: object) -> Rules:
        """The rules for `token` under this answer: the file's, or rules that allow or disallow
        every URL (their blanket says why). They carry retry_at."""
        t = _text(token, "token")
        _ok(_f.wasm_answer_rules_for(self._get(), _c.write(t), len(t), _O), token=_lossy(t))
        return _made(Rules, _handle_out())  # type: ignore[no-any-return]

    def with_retry_at(self, retry_at: object) -> "Answer":
        """This answer, saying the file will be fetched at `retry_at` (ms, or None)."""
        at = None if retry_at is None else _millis(retry_at, "retry_at")
        _ok(_f.wasm_answer_with_retry_at(self._get(), at is not None, at or 0, _O))
        return Answer._of(_handle_out())

    def __repr__(self) -> str:
        return f"<robotstxt.Answer {self._kind}>"


class Entry(_Handle):
    """One origin's copy of its robots.txt and its clock (behaviour §7)."""

    __slots__ = ("_policy",)
    _name = "Entry"
    _free = _f.entry_free

    def __new__(cls, **freshness: Any) -> "Entry":
        policy, _ = _freshness("Entry", freshness)
        _ok(_f.entry_new(_c.write(policy), _O))
        entry: Entry = _made(cls, _handle_out())
        entry._policy = policy
        return entry

    def __init__(self, **freshness: Any) -> None:
        pass

    def is_due(self, *, now: object = None) -> bool:
        """Whether a fetch is due at `now`."""
        _ok(_f.entry_is_due(self._get(), _now(now), _O))
        return _c.out(1) != b"\0"

    @property
    def due_at(self) -> int:
        """When the next fetch is due (ms)."""
        _ok(_f.entry_due_at(self._get(), _O))
        return int(struct.unpack("<Q", _c.out(8))[0])

    @property
    def fetched_at(self) -> Optional[int]:
        """When the copy was last fetched or revalidated (ms), or None."""
        _ok(_f.entry_fetched_at(self._get(), _O, _O + 8))
        at, has = struct.unpack("<Q?", _c.out(9))
        return at if has else None

    @property
    def failures(self) -> int:
        """How many fetches in a row have failed."""
        _ok(_f.entry_failures(self._get(), _O))
        return _u32()

    @property
    def retry_at(self) -> Optional[int]:
        """When the next fetch is due, if the last one failed; else None."""
        answer = self.answer(now=0)
        try:
            return answer.retry_at
        finally:
            answer.close()

    @property
    def has_copy(self) -> bool:
        """Whether a copy (rules or allow-all) is held."""
        _ok(_f.entry_has_copy(self._get(), _O))
        return _c.out(1) != b"\0"

    def _validators(self) -> Tuple[Optional[str], Optional[str]]:
        _ok(_f.entry_validators(self._get(), _O))
        return _validators(_c.out(24))

    @property
    def etag(self) -> Optional[str]:
        """The ETag to send as If-None-Match, or None."""
        return self._validators()[0]

    @property
    def last_modified(self) -> Optional[str]:
        """The Last-Modified to send as If-Modified-Since, or None."""
        return self._validators()[1]

    def record(self, status: object, *, body: object = None, redirects: object = 0, max_age_ms: object = None,
               retry_after_ms: object = None, etag: object = None, last_modified: object = None,
               now: object = None) -> Access:
        """Records what a fetch made at `now` returned and says what it meant."""
        fetch = _Fetch(status, body, redirects, max_age_ms, retry_after_ms, etag, last_modified)
        at = _now(now)
        h = self._get()
        _ok(_f.entry_record(h, at, fetch.place(), _O))
        return _access(_u32())

    def answer(self, *, now: object = None) -> Answer:
        """What answers at `now`: the copy, kept while the file is unreachable, or disallow-all
        with none; past the unreachable limit, as after_limit says."""
        _ok(_f.wasm_entry_answer(self._get(), _now(now), _O))
        return Answer._of(_handle_out())

    def encode(self, body: object = None) -> bytes:
        """This entry as bytes for a store that a fleet of crawlers shares (Entry.decode reads them
        back); `body` is the body its parsed copy came from. Raises BodyMismatchError for
        another body."""
        data = b"" if body is None else _text(body, "body")
        h = self._get()
        p = _c.write(data)
        status = _f.entry_encode(h, p, len(data), 0, 0, _O)
        if status not in (0, K["STATUS_BUFFER_TOO_SMALL"]):
            raise _failure(status)
        size = _u32()
        out = _f.wasm_alloc(max(size, 1))
        if not out:
            raise MemoryError("robotstxt: the WebAssembly memory cannot grow")
        try:
            p = _c.write(data)
            _ok(_f.entry_encode(h, p, len(data), out, size, _O))
            return _c.read(out, _u32())
        finally:
            _f.wasm_free(out, max(size, 1))

    @staticmethod
    def decode(data: object, /, **freshness: Any) -> "Entry":
        """The entry Entry.encode wrote, its body parsed with the options given. Raises
        InvalidCopyError (CopyVersionError for a newer format)."""
        policy, _ = _freshness("Entry.decode", freshness)
        raw = _binary(data)
        lay = _core.Layout(48)
        lay.text(raw)
        base, spans = lay.place(_c)
        _c.put_at(base, lay.blob(policy))
        _ok(_f.entry_decode(*spans[0], base, _O))
        entry: Entry = _made(Entry, _handle_out())
        entry._policy = policy
        return entry

    @staticmethod
    def stored_body(data: object) -> bytes:
        """The body that bytes from Entry.encode carry, unparsed."""
        raw = _binary(data)
        _ok(_f.entry_stored_body(_c.write(raw), len(raw), _O))
        p, n = struct.unpack("<II", _c.out(8))
        return _c.read(p, n)

    def __repr__(self) -> str:
        return f"<robotstxt.Entry has_copy={self.has_copy}, due_at={self.due_at}, failures={self.failures}>"


def _validators(raw: bytes) -> Tuple[Optional[str], Optional[str]]:
    has_etag, ep, en, has_lm, lp, ln = struct.unpack("<?3xII?3xII", raw)
    return (_text_at(ep, en) if has_etag else None, _text_at(lp, ln) if has_lm else None)


def _binary(value: object) -> bytes:
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise _wrong_type(value, "data", "bytes, bytearray or memoryview (the bytes Entry.encode wrote, as a Redis client that does not decode replies gives them)")
    return bytes(value)


# --- the cache ---


class Lease(_Handle):
    """The right, and duty, to fetch one origin's robots.txt."""

    __slots__ = ("_origin", "_etag", "_last_modified", "_ended")
    _name = "Lease"
    _free = _f.lease_free

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("cannot create 'robotstxt.Lease' instances: use Cache.lookup")

    @staticmethod
    def _of(h: int) -> "Lease":
        lease: Lease = _made(Lease, h)
        _ok(_f.lease_origin(h, _O, _O + 4))
        lease._origin = _text_at(*struct.unpack("<II", _c.out(8)))
        _ok(_f.lease_validators(h, _O))
        lease._etag, lease._last_modified = _validators(_c.out(24))
        lease._ended = False
        return lease

    @property
    def origin(self) -> str:
        """The normalised origin, such as "https://example.com:8443"."""
        return self._origin  # type: ignore[no-any-return]

    @property
    def robots_url(self) -> str:
        """The URL to fetch: the origin's /robots.txt."""
        return f"{self._origin}/robots.txt"

    @property
    def etag(self) -> Optional[str]:
        """The ETag to send as If-None-Match, or None."""
        return self._etag  # type: ignore[no-any-return]

    @property
    def last_modified(self) -> Optional[str]:
        """The Last-Modified to send as If-Modified-Since, or None."""
        return self._last_modified  # type: ignore[no-any-return]

    @property
    def ended(self) -> bool:
        """Whether the lease was stored or abandoned."""
        return self._ended  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"<robotstxt.Lease {self.robots_url}{' (ended)' if self._ended else ''}>"


@_fields
class Lookup(_Value):
    """The answer of Cache.lookup."""

    __slots__ = ("_kind", "_answer", "_stale", "_retry_at", "_lease", "_until")
    _fields = ("kind", "answer", "stale", "retry_at", "lease", "until")
    __hash__ = object.__hash__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return self is other

    def __repr__(self) -> str:
        if self._kind == "ready":  # type: ignore[attr-defined]
            return f"<robotstxt.Lookup ready, stale={self._stale is True}>"  # type: ignore[attr-defined]
        if self._kind == "wait":  # type: ignore[attr-defined]
            return f"<robotstxt.Lookup wait until {self._until or 0}>"  # type: ignore[attr-defined]
        return f"<robotstxt.Lookup {self._kind}>"  # type: ignore[attr-defined]


@_fields
class CacheStats(_Value):
    """Counters since the cache was made."""

    __slots__ = ("_hits", "_misses", "_fetches", "_stale", "_evictions", "_entries")
    _fields = ("hits", "misses", "fetches", "stale", "evictions", "entries")

    def __repr__(self) -> str:
        return "CacheStats(" + ", ".join(f"{n}={getattr(self, n)}" for n in self._fields) + ")"


def _lease_arg(value: object) -> Lease:
    if not isinstance(value, Lease):
        raise _wrong_type(value, "lease", "a Lease from Cache.lookup")
    return value


class Cache(_Handle):
    """A bounded cache of robots.txt copies keyed by origin, with
    single-flight fetching (behaviour §6-§7)."""

    __slots__ = ("_profile",)
    _name = "Cache"
    _free = _f.cache_free

    def __new__(cls, *, capacity: object = None, lease_ms: object = None, **freshness: Any) -> "Cache":
        policy, profile = _freshness("Cache", freshness)
        size = 10_000 if capacity is None else _integer(capacity, "capacity", 1, _U32_MAX)
        lease = 60_000 if lease_ms is None else _millis(lease_ms, "lease_ms")
        _ok(_f.cache_new(_c.write(struct.pack("<I4xQ", size, lease) + policy), _O))
        cache: Cache = _made(cls, _handle_out())
        cache._profile = profile
        return cache

    def __init__(self, **options: Any) -> None:
        pass

    def lookup(self, url: object, *, now: object = None, when_fetching: object = "wait") -> Lookup:
        """What answers for `url` at `now`: kind "ready" (an answer), "fetch" (you fetch now:
        lease) or "wait". Raises InvalidUrlError for a URL the cache cannot key."""
        at = _now(now)
        when = K["WHEN_FETCHING_WAIT"] if when_fetching is None else _choice(when_fetching, "when_fetching", _WHEN_FETCHING)
        u = _text(url, "url")
        _ok(_f.wasm_cache_lookup(self._get(), _c.write(u), len(u), at, when, _O), url=_lossy(u))
        kind, stale, answer, lease, until = struct.unpack("<I?3xIIQ", _c.out(24))
        if kind == K["LOOKUP_READY"]:
            a = Answer._of(answer)
            return Lookup._make("ready", a, stale, a.retry_at, None, None)  # type: ignore[no-any-return]
        if kind == K["LOOKUP_FETCH"]:
            return Lookup._make("fetch", None, None, None, Lease._of(lease), None)  # type: ignore[no-any-return]
        return Lookup._make("wait", None, None, None, None, until)  # type: ignore[no-any-return]

    def _end(self, lease: Lease, call: Callable[[int], int]) -> int:
        """Runs a store or abandon of `lease`; the lease has ended after it
        if this cache had handed it out (the core takes it either way)."""
        h = self._get()
        _ok(_f.wasm_cache_issued(h, lease._get(), _O))
        taken = _c.out(1) != b"\0"
        status = call(h)
        if taken:
            lease._ended = True
        return status

    def store(self, lease: object, status: object, *, body: object = None, redirects: object = 0,
              max_age_ms: object = None, retry_after_ms: object = None, etag: object = None,
              last_modified: object = None, now: object = None) -> Access:
        """Stores what the fetch of `lease` returned at `now`, ends the lease, and says what the
        outcome meant. Raises InvalidLeaseError for a lease already stored or abandoned, or of
        another cache."""
        fetch = _Fetch(status, body, redirects, max_age_ms, retry_after_ms, etag, last_modified)
        at = _now(now)
        held = _lease_arg(lease)
        got = self._end(held, lambda h: int(_f.cache_store(h, held._get(), at, fetch.place(), _O)))
        _ok(got)
        return _access(_u32())

    def abandon(self, lease: object) -> None:
        """Gives a fetch back without an outcome: the next lookup hands it to someone else."""
        held = _lease_arg(lease)
        _ok(self._end(held, lambda h: int(_f.cache_abandon(h, held._get()))))

    def issued(self, lease: object) -> bool:
        """Whether this cache handed `lease` out (and it has not ended)."""
        held = _lease_arg(lease)
        _ok(_f.wasm_cache_issued(self._get(), held._get(), _O))
        return _c.out(1) != b"\0"

    def remove(self, url: object) -> bool:
        """Forgets `url`'s origin; returns whether it was held."""
        u = _text(url, "url")
        _ok(_f.cache_remove(self._get(), _c.write(u), len(u), _O), url=_lossy(u))
        return _c.out(1) != b"\0"

    @property
    def stats(self) -> CacheStats:
        """The counters since the cache was made."""
        _ok(_f.cache_stats(self._get(), _O))
        return CacheStats._make(*struct.unpack("<6Q", _c.out(48)))  # type: ignore[no-any-return]

    @property
    def profile(self) -> str:
        """The profile bodies are parsed with: "rfc" or "google"."""
        return self._profile  # type: ignore[no-any-return]

    def __len__(self) -> int:
        _ok(_f.cache_len(self._get(), _O))
        return _u32()

    def __repr__(self) -> str:
        return f"<robotstxt.Cache {len(self)} origins>"


# --- the pacer ---


class Ticket(_Handle):
    """A reserved start slot for one request to one host."""

    __slots__ = ("_host", "_spent", "_cancelled")
    _name = "Ticket"
    _free = _f.ticket_free

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("cannot create 'robotstxt.Ticket' instances: use Pacer.reserve")

    @property
    def start(self) -> Optional[int]:
        """When the request may start (ms), as far as is known now; None once cancelled."""
        if self._cancelled or not self._h:
            return None
        return int(_f.ticket_start(self._h))

    @property
    def host(self) -> str:
        """The host, as the pacer keys it (ASCII lower case)."""
        return self._host  # type: ignore[no-any-return]

    @property
    def spent(self) -> bool:
        """Whether the ticket is used up: confirmed "go" or "disabled", or cancelled."""
        return self._spent  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        start = self.start
        if start is not None and not self._spent:
            return f"<robotstxt.Ticket {self._host} start={start}>"
        return f"<robotstxt.Ticket {self._host} (spent)>"


@_fields
class Confirm(_Value):
    """What Pacer.confirm answers."""

    __slots__ = ("_kind", "_until", "_busy")
    _fields = ("kind", "until", "busy")

    def __repr__(self) -> str:
        if self._until is not None:  # type: ignore[attr-defined]
            return f"Confirm(kind={self._kind!r}, until={self._until}, busy={self._busy})"  # type: ignore[attr-defined]
        return f"Confirm(kind={self._kind!r})"  # type: ignore[attr-defined]


_CONFIRM_KINDS = {K["CONFIRM_GO"]: "go", K["CONFIRM_WAIT"]: "wait", K["CONFIRM_DISABLED"]: "disabled"}


def _ticket_arg(value: object) -> Ticket:
    if not isinstance(value, Ticket):
        raise _wrong_type(value, "ticket", "a Ticket from Pacer.reserve")
    return value


def _rate_of(value: object) -> Tuple[int, int]:
    if isinstance(value, RequestRate):
        return value.requests, value.seconds
    if isinstance(value, tuple):
        if len(value) == 2:
            return (_integer(value[0], "request_rate[0]", 1, _U32_MAX),
                    _integer(value[1], "request_rate[1]", 1, _U32_MAX))
        raise _new(InvalidArgumentError, "request_rate must be a RequestRate or a (requests, seconds) pair")
    raise _wrong_type(value, "request_rate", "a RequestRate or a (requests, seconds) tuple")


class Pacer(_Handle):
    """Hands out request start slots per host, in order."""

    __slots__ = ()
    _name = "Pacer"
    _free = _f.pacer_free

    def __new__(cls, *, floor_ms: object = None, backoff_cap_ms: object = None, capacity: object = None,
                max_in_flight: object = None, in_flight_timeout_ms: object = None) -> "Pacer":
        floor = 1_000 if floor_ms is None else _millis(floor_ms, "floor_ms")
        cap = 600_000 if backoff_cap_ms is None else _millis(backoff_cap_ms, "backoff_cap_ms")
        hosts = 100_000 if capacity is None else _integer(capacity, "capacity", 1, _U32_MAX)
        flight = 1 if max_in_flight is None else _integer(max_in_flight, "max_in_flight", 1, _U32_MAX)
        timeout = 120_000 if in_flight_timeout_ms is None else _millis(in_flight_timeout_ms, "in_flight_timeout_ms")
        _ok(_f.pacer_new(_c.write(struct.pack("<QQIIQ", floor, cap, hosts, flight, timeout)), _O))
        return _made(cls, _handle_out())  # type: ignore[no-any-return]

    def __init__(self, **options: Any) -> None:
        pass

    def reserve(self, host: object, *, now: object = None) -> Optional[Ticket]:
        """Reserves the next start slot for `host` at `now`: a Ticket, or None while the host is
        switched off. Raises InvalidHostError, PacerFullError."""
        at = _now(now)
        t = _text(host, "host")
        _ok(_f.pacer_reserve(self._get(), _c.write(t), len(t), at, _O), host=_lossy(t))
        h = _handle_out()
        if not h:
            return None
        ticket: Ticket = _made(Ticket, h)
        ticket._host = pacer_host(t)
        ticket._spent = False
        ticket._cancelled = False
        return ticket

    def confirm(self, ticket: object, *, now: object = None) -> Confirm:
        """Whether the request of `ticket` may be sent at `now`: "go", "wait" (until when) or
        "disabled". Raises InvalidTicketError for a spent ticket or one of another pacer."""
        at = _now(now)
        t = _ticket_arg(ticket)
        status = _f.pacer_confirm(self._get(), t._get(), at, _O)
        if status and t._cancelled:
            # The core has spent the ticket; the extension says why.
            error = _failure(status)
            raise _new(type(error), re.sub(r"^the ticket .*?:", "the ticket was cancelled:", str(error)))
        _ok(status)
        kind, until, busy = struct.unpack("<I4xQ?", _c.out(17))
        name = _CONFIRM_KINDS[kind]
        if name != "wait":
            t._spent = True
            return Confirm._make(name, None, False)  # type: ignore[no-any-return]
        return Confirm._make(name, until, busy)  # type: ignore[no-any-return]

    def cancel(self, ticket: object) -> None:
        """Gives an unsent ticket's slot back when it is the last one handed out; spends the
        ticket."""
        t = _ticket_arg(ticket)
        if t._cancelled or not t._h:
            return
        _ok(_f.pacer_cancel(self._get(), t._h))
        t._cancelled = True
        t._spent = True

    def record(self, host: object, status: object, *, retry_after_ms: object = None, now: object = None) -> None:
        """Reports how a request to `host` that ended at `now` went: a 429 or 5xx widens the gap, a
        Retry-After holds every request back."""
        code = _status(status)
        retry = None if retry_after_ms is None else _millis(retry_after_ms, "retry_after_ms")
        at = _now(now)
        t = _text(host, "host")
        _ok(_f.pacer_record(self._get(), _c.write(t), len(t), at, code or 0, retry is not None, retry or 0),
            host=_lossy(t))

    def set_rules(self, host: object, rules: object) -> None:
        """Sets `host`'s own pace from a crawler's rules: their crawl delay and request rate."""
        if not isinstance(rules, Rules):
            raise _wrong_type(rules, "rules", "a Rules")
        t = _text(host, "host")
        _ok(_f.pacer_set_rules(self._get(), _c.write(t), len(t), rules._get()), host=_lossy(t))

    def set_delay(self, host: object, crawl_delay: object = None, request_rate: object = None) -> None:
        """Sets `host`'s own pace: the larger of crawl_delay (seconds) and the request_rate
        interval."""
        delay = None if crawl_delay is None else _seconds(crawl_delay, "crawl_delay")
        rate = None if request_rate is None else _rate_of(request_rate)
        t = _text(host, "host")
        _ok(_f.pacer_set_delay(self._get(), _c.write(t), len(t), delay is not None, delay or 0.0,
                               rate is not None, *(rate or (0, 0))), host=_lossy(t))

    def set_enabled(self, host: object, enabled: object) -> None:
        """Switches `host` off (reserve answers None, confirm "disabled") or back on."""
        on = _flag(enabled, "enabled")
        t = _text(host, "host")
        _ok(_f.pacer_set_enabled(self._get(), _c.write(t), len(t), on), host=_lossy(t))

    def gap_ms(self, host: object) -> int:
        """The gap now applied between two request starts to `host`, in ms."""
        t = _text(host, "host")
        _ok(_f.pacer_gap_ms(self._get(), _c.write(t), len(t), _O), host=_lossy(t))
        return int(struct.unpack("<Q", _c.out(8))[0])

    def in_flight(self, host: object, *, now: object = None) -> int:
        """How many requests to `host` are in flight at `now`."""
        at = _now(now)
        t = _text(host, "host")
        _ok(_f.pacer_in_flight(self._get(), _c.write(t), len(t), at, _O), host=_lossy(t))
        return _u32()

    def __len__(self) -> int:
        _ok(_f.wasm_pacer_len(self._get(), _O))
        return _u32()

    def __repr__(self) -> str:
        return f"<robotstxt.Pacer {len(self)} hosts>"


# --- functions ---


def _into_buffer(call: Callable[[int, int, int, int, int], int], data: bytes, cap: int, **attributes: Any) -> str:
    """Calls an export that writes text into a buffer of `cap` bytes."""
    lay = _core.Layout()
    lay.text(data)
    lay.text(b"\0" * cap)
    base, spans = lay.place(_c)
    _c.put_at(base, lay.blob(b""))
    (p, n), (out, _) = spans
    _ok(call(p, n, out, cap, _O), **attributes)
    return _text_at(out, _u32())


def origin(url: object) -> str:
    """The origin Cache.lookup keys `url` by."""
    u = _text(url, "url")
    return _into_buffer(_f.robots_origin, u, 1100, url=_lossy(u))


def robots_origin(url: object) -> str:
    """The origin whose /robots.txt governs `url`, as Cache keys it."""
    return origin(url)


def pacer_host(host: object) -> str:
    """The key a pacer tracks `host` by (ASCII letters lower-cased)."""
    h = _text(host, "host")
    return _into_buffer(_f.pacer_host, h, max(len(h), 1), host=_lossy(h))


_FLEET_SCRIPTS = ("lookup", "store", "abandon", "reserve", "confirm", "cancel", "record", "set_delay",
                  "set_enabled", "pace_state")


def fleet_script(name: object) -> str:
    """The Lua source of a fleet script, the shared prelude first."""
    if not isinstance(name, str):
        raise _wrong_type(name, "name", "a str")
    raw = _str_bytes(name, "name")
    status = _f.fleet_script(_c.write(raw), len(raw), _O)
    if status == K["STATUS_INVALID_ARGUMENT"]:
        raise _new(InvalidArgumentError, f"no fleet script is called {json.dumps(name, ensure_ascii=False)}: pass one of {', '.join(_FLEET_SCRIPTS)}")
    _ok(status)
    return _text_at(*struct.unpack("<II", _c.out(8)))


def pace_ms(crawl_delay: object = None, request_rate: object = None) -> int:
    """The gap (ms) a pace asks of a pacer, as Pacer.set_delay sets it; a
    Rules alone gives its own pace, as Pacer.set_rules sets it."""
    if isinstance(crawl_delay, Rules):
        if request_rate is not None:
            raise _new(InvalidArgumentError, "pace_ms takes a Rules alone, or a crawl_delay and a request_rate")
        _ok(_f.rules_pace_delay_ms(crawl_delay._get(), _O))
        return int(struct.unpack("<Q", _c.out(8))[0])
    delay = None if crawl_delay is None else _seconds(crawl_delay, "crawl_delay")
    rate = None if request_rate is None else _rate_of(request_rate)
    _ok(_f.wasm_delay_ms(delay is not None, delay or 0.0, rate is not None, *(rate or (0, 0)), _O))
    return int(struct.unpack("<Q", _c.out(8))[0])


def product_token(user_agent: object) -> str:
    """The crawler's product token in a whole User-Agent header."""
    ua = _text(user_agent, "user_agent")
    status = _f.product_token(_c.write(ua), len(ua), _O, _O + 4)
    if status == K["STATUS_INVALID_TOKEN"]:
        raise _new(InvalidUserAgentError, _c.last_error(), user_agent=_lossy(ua))
    _ok(status)
    return _text_at(*struct.unpack("<II", _c.out(8)))


def core_version() -> str:
    """The version of the robotstxt core this module was built with."""
    return _c.cstr(_f.version())


def http_read(retry_after: object = None, cache_control: object = None, etag: object = None,
              last_modified: object = None, *, now_ms: object = None, min_max_age_ms: object = None) -> Tuple[Any, ...]:
    """A robots.txt response's header values read: (max_age_ms, retry_after_ms, etag,
    last_modified, ignored), with the reason for each value ignored (behaviour §11)."""
    now = _now(now_ms)
    floor = 0 if min_max_age_ms is None else _millis(min_max_age_ms, "min_max_age_ms")
    given = (retry_after, cache_control, etag, last_modified)
    texts = [None if v is None else _text(v, what)
             for v, what in zip(given, ("retry_after", "cache_control", "etag", "last_modified"))]
    # A robotstxt_http_response (64 bytes: status, redirects, body, then each
    # header's flag and text), then room for the robotstxt_fetch (72) and
    # the ignored bits.
    lay = _core.Layout(64 + 72 + 8)
    at = [lay.text(t or b"") for t in texts]
    base, spans = lay.place(_c)
    head = struct.pack("<H2xIII", 0, 0, 0, 0) + b"".join(
        struct.pack("<?3xII", t is not None, *spans[i]) for t, i in zip(texts, at))
    _c.put_at(base, lay.blob(head))
    _ok(_f.http_read(base, now, floor, base + 64, base + 136))
    raw = _c.read(base + 64, 76)
    (has_age, age, has_retry, retry, has_etag, etag_p, etag_n,
     has_lm, lm_p, lm_n) = struct.unpack_from("<16x?7xQ?7xQ?3xII?3xII", raw)
    bits = struct.unpack_from("<I", raw, 72)[0]

    def same_type(value: object, has: bool, p: int, n: int) -> Any:
        if not has:
            return None
        data = _c.read(p, n)
        return _lossy(data) if isinstance(value, str) else data

    validators = (same_type(etag, has_etag, etag_p, etag_n), same_type(last_modified, has_lm, lm_p, lm_n))
    # The reasons: the single calls on the same values say them.
    ignored = []
    if bits & K["HTTP_IGNORED_RETRY_AFTER"]:
        t = texts[0] or b""
        _f.retry_after_ms(_c.write(t), len(t), now, _O)
        ignored.append(_c.last_error())
    if bits & K["HTTP_IGNORED_CACHE_CONTROL"]:
        t = texts[1] or b""
        _f.max_age_ms(_c.write(t), len(t), _O, _O + 8)
        ignored.append(_c.last_error())
    return (age if has_age else None, retry if has_retry else None, *validators, ignored)
