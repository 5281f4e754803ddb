"""Types of the compiled module robotstxt._robotstxt (re-exported by robotstxt)."""

from types import TracebackType
from typing import Any, Dict, Iterable, List, Literal, Optional, Tuple, Type, TypeVar, Union, final, overload

Text = Union[str, bytes, bytearray, memoryview]
"""What a body, URL, token or host may be: str (read as UTF-8), bytes,
bytearray or memoryview."""

Millis = Union[int, float]
"""A time in milliseconds (since the Unix epoch, or the epoch of your own
clock)."""

ProfileName = Literal["rfc", "google"]
AccessPolicyName = Literal["careful", "strict"]
AfterLimitName = Literal["keep", "allow"]
DecisionKind = Literal["allow", "disallow", "none", "allow-all", "disallow-all"]
AccessKind = Literal["follow-rules", "allow-all", "disallow-all", "not-modified"]
AnswerKind = Literal["rules", "allow-all", "disallow-all"]
CauseName = Literal["status", "no-response", "not-fetched", "unreachable-limit", "caller"]
LineKindName = Literal[
    "user-agent",
    "allow",
    "disallow",
    "sitemap",
    "crawl-delay",
    "request-rate",
    "host",
    "content-usage",
    "content-signal",
    "unknown",
    "invalid",
]
FlagName = Literal[
    "typo",
    "missing-colon",
    "too-long",
    "outside-group",
    "invalid-value",
    "unknown-key",
    "invalid-statement",
    "empty-statement",
    "unknown-preference",
]
UsageValue = Literal["y", "n"]
"""A label's preference: "y" (the use is allowed) or "n" (it is not); None
where these are optional means unknown."""
SignalValue = Literal["yes", "no"]
"""A Content-Signal key's value; None where optional means unset."""

_U = TypeVar("_U", bound=Text)

__version__: str
MIN_PARSE_LIMIT: int
MAX_PARSE_LIMIT: int
STORED_COPY_VERSION: int
"""The format version Entry.encode writes and Entry.decode reads."""

FleetScriptName = Literal[
    "lookup",
    "store",
    "renew",
    "abandon",
    "reserve",
    "confirm",
    "cancel",
    "record",
    "set_delay",
    "set_enabled",
    "pace_state",
]
Binary = Union[bytes, bytearray, memoryview]
"""Stored bytes: bytes, bytearray or memoryview (never str)."""

class Error(Exception):
    """The base of every exception robotstxt raises."""

class InvalidTokenError(Error, ValueError):
    """RFC profile: the crawler's name is not a product token."""

    token: str

class InvalidUserAgentError(Error, ValueError):
    """product_token() found no product token in a User-Agent header."""

    user_agent: str

class NoTokensError(Error, ValueError):
    """A selection by several tokens was given none."""

class ParseLimitError(Error, ValueError):
    """A parse limit outside MIN_PARSE_LIMIT..MAX_PARSE_LIMIT."""

class InvalidOptionError(Error, ValueError):
    """An option value outside its set."""

class InvalidArgumentError(Error, ValueError):
    """An argument out of its range."""

class InvalidTextError(Error, ValueError):
    """A str with no UTF-8 form (a lone surrogate)."""

class InvalidUrlError(Error, ValueError):
    """The cache cannot key a URL."""

    url: str

class InvalidHostError(Error, ValueError):
    """The pacer cannot key a host."""

    host: str

class InvalidLeaseError(Error, ValueError):
    """A cache lease that cannot be stored or abandoned."""

class InvalidTicketError(Error, ValueError):
    """A pacer ticket that cannot be confirmed."""

class ClosedError(Error, ValueError):
    """A Robots or Rules used after close()."""

class ArgumentTypeError(Error, TypeError):
    """An argument of the wrong type."""

class PacerFullError(Error, RuntimeError):
    """The pacer is full and no host can be forgotten safely."""

class HostDisabledError(Error, RuntimeError):
    """The host is switched off in the pacer."""

    host: str

class InvalidStatementError(Error, ValueError):
    """An HTTP Content-Usage field that states nothing: not an RFC 9651
    Dictionary ("syntax"), or empty ("empty")."""

    reason: Literal["syntax", "empty"]

class InvalidCopyError(Error, ValueError):
    """Bytes given to Entry.decode or Entry.stored_body that are not a
    whole, intact stored copy (cut short, damaged, or no copy at all)."""

    reason: str

class CopyVersionError(InvalidCopyError):
    """A stored copy in a newer format version than this library reads."""

    version: int
    supported: int

class BodyMismatchError(Error, ValueError):
    """Entry.encode was given another body than the one its copy came from."""

    expected: int
    given: int

class RedisError(Error, RuntimeError):
    """A Redis call of robotstxt.fleet's shared classes failed; __cause__
    is the Redis client's exception."""

    step: str

@final
class Diagnostic:
    """One line that has something to report."""

    @property
    def line(self) -> int: ...
    @property
    def kind(self) -> LineKindName: ...
    @property
    def flags(self) -> Tuple[FlagName, ...]: ...
    @property
    def message(self) -> str: ...
    def __hash__(self) -> int: ...

@final
class Decision:
    """The answer for one URL and the rule that gave it."""

    @property
    def allowed(self) -> bool: ...
    @property
    def line(self) -> int: ...
    @property
    def kind(self) -> DecisionKind: ...
    @property
    def pattern(self) -> str: ...
    def __hash__(self) -> int: ...

@final
class RequestRate:
    """request-rate: n/m: `requests` requests per `seconds` seconds."""

    def __init__(self, requests: int, seconds: int) -> None: ...
    @property
    def requests(self) -> int: ...
    @property
    def seconds(self) -> int: ...
    @property
    def interval(self) -> float: ...
    def __hash__(self) -> int: ...

@final
class Blanket:
    """A blanket answer standing where a file's rules would, and why."""

    @property
    def allowed(self) -> bool: ...
    @property
    def cause(self) -> CauseName: ...
    @property
    def status(self) -> Optional[int]: ...
    @property
    def redirects(self) -> Optional[int]: ...
    def __hash__(self) -> int: ...

@final
class LabelPreference:
    """One label's answer in Preferences.labels, and the lines that gave it."""

    @property
    def value(self) -> Optional[UsageValue]:
        """"y", "n", or None (unknown: not stated, or stated with another value)."""
    @property
    def lines(self) -> Tuple[int, ...]:
        """The lines whose statements gave this value (for None: those that
        named the label with another value); empty when an HTTP field decided."""
    def __hash__(self) -> int: ...

@final
class UsageStatement:
    """A Content-Usage rule that applied to a URL."""

    @property
    def line(self) -> int:
        """The rule's 1-based line."""
    @property
    def path(self) -> str:
        """The path pattern as compared (normalised; "/" when none was written)."""
    @property
    def members(self) -> Tuple[Tuple[str, str], ...]:
        """(key, value) as written, values in RFC 9651 form with parameters
        ("n", "?1", '"n"', "y;v=2"); empty when the statement states nothing."""
    def __hash__(self) -> int: ...

@final
class Preferences:
    """The usage preferences for one URL (behaviour §10.3-§10.6)."""

    @property
    def crawlable(self) -> bool:
        """Whether the rules allow the URL; when not, nothing is stated."""
    @property
    def decision(self) -> Decision:
        """The access answer for the URL, as Rules.decide gives it."""
    @property
    def labels(self) -> Dict[str, LabelPreference]:
        """"train-ai" and "search" always, then every other label a statement
        that applied gives "y" or "n", in the order first met (a new dict
        each time)."""
    @property
    def statements(self) -> Tuple[UsageStatement, ...]:
        """The Content-Usage rules that applied, in file order: those of the
        greatest path length among the matching ones."""
    def get(self, label: Text, /) -> Optional[UsageValue]:
        """The answer for `label`: "y", "n", or None when nothing states it."""
    def __hash__(self) -> int: ...

@final
class ContentSignal:
    """The combined Content-Signal of one crawler's groups (behaviour §10.5)."""

    @property
    def signals(self) -> Dict[str, Optional[SignalValue]]:
        """"search", "ai-input" and "ai-train" always, then every other key a
        valid member sets (lower case): any "no" wins, then any "yes"; None
        when unset (a new dict each time)."""
    @property
    def lines(self) -> Tuple[int, ...]:
        """The content-signal lines of the selected groups."""
    def __hash__(self) -> int: ...

@final
class OtherRecord:
    """A line whose key the library does not read, as written (behaviour §10.7)."""

    @property
    def key(self) -> str:
        """The key as written (bytes that are not UTF-8 read as U+FFFD)."""
    @property
    def key_lower(self) -> str:
        """The key in ASCII lower case, to compare keys by."""
    @property
    def value(self) -> str:
        """The rest of the line, comment removed, trimmed."""
    @property
    def line(self) -> int:
        """The 1-based line number."""
    @property
    def group(self) -> Optional[int]:
        """The 0-based index of the line's group; None before the first user-agent."""
    def __hash__(self) -> int: ...

@final
class Robots:
    """A parsed robots.txt: immutable, safe to share between threads."""

    @staticmethod
    def parse(
        body: Text,
        *,
        profile: Optional[ProfileName] = "rfc",
        parse_limit: Optional[int] = None,
        typos: Optional[bool] = True,
    ) -> Robots: ...
    def rules_for(self, token: Text) -> Rules: ...
    def rules_for_any(self, tokens: Iterable[Text]) -> Rules: ...
    def rules_for_strictest(self, tokens: Iterable[Text]) -> Rules: ...
    @property
    def sitemaps(self) -> List[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def other_records(self) -> Tuple[OtherRecord, ...]:
        """Every line whose key the library does not read (Clean-param,
        LLM-Policy, ...) and every Content-Signal line before the first
        user-agent, in file order."""
    @property
    def profile(self) -> ProfileName: ...
    @property
    def group_count(self) -> int: ...
    @property
    def rule_count(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> Robots: ...
    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> bool: ...

@final
class Rules:
    """The rules that apply to one crawler."""

    @staticmethod
    def allow_all(*, profile: Optional[ProfileName] = "rfc") -> Rules: ...
    @staticmethod
    def disallow_all(*, profile: Optional[ProfileName] = "rfc") -> Rules: ...
    def can_fetch(self, url: Text, /) -> bool: ...
    def decide(self, url: Text, /) -> Decision: ...
    def filter_allowed(self, urls: Iterable[_U]) -> List[_U]: ...
    def can_fetch_many(self, urls: Iterable[Text]) -> List[bool]: ...
    def decide_many(self, urls: Iterable[Text]) -> List[Decision]: ...
    def compile(self) -> None:
        """Builds the index now, where the check after the first few would:
        then no check allocates in the core. Changes no answer."""
    def preferences(self, url: Text, /, *, header: Optional[Text] = None) -> Preferences:
        """The usage preferences for `url`: the longest matching Content-Usage
        rules of the selected groups, combined per label (any "n" wins, then
        any "y"); with `header`, the response's own Content-Usage field too.
        Raises InvalidStatementError for a header that states nothing."""
    def content_signal(self) -> Optional[ContentSignal]:
        """The Content-Signal of the selected groups, or None when they hold
        no content-signal line."""
    @property
    def other_records(self) -> Tuple[OtherRecord, ...]:
        """Robots.other_records of the selected groups and before the first group."""
    @property
    def crawl_delay(self) -> Optional[float]: ...
    @property
    def request_rate(self) -> Optional[RequestRate]: ...
    @property
    def blanket(self) -> Optional[Blanket]: ...
    @property
    def retry_at(self) -> Optional[int]: ...
    @property
    def profile(self) -> ProfileName: ...
    @property
    def rule_count(self) -> int: ...
    @property
    def closed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> Rules: ...
    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> bool: ...

@final
class Access:
    """What a fetch outcome means (behaviour §6)."""

    @property
    def kind(self) -> AccessKind: ...
    @property
    def retry_later(self) -> bool: ...
    @property
    def robots(self) -> Optional[Robots]: ...

def classify(
    status: Optional[int], redirects: Optional[int] = 0, *, policy: Optional[AccessPolicyName] = "careful"
) -> Access:
    """Reads a fetch outcome: the final HTTP status (None: no response)."""

def from_outcome(
    status: Optional[int],
    body: Optional[Text] = None,
    *,
    redirects: Optional[int] = 0,
    policy: Optional[AccessPolicyName] = "careful",
    profile: Optional[ProfileName] = "rfc",
    parse_limit: Optional[int] = None,
    typos: Optional[bool] = True,
) -> Access:
    """classify, and for a 2xx the body parsed (Access.robots)."""

@final
class Answer:
    """What answers for an origin: a parsed file, or a blanket answer."""

    @property
    def kind(self) -> AnswerKind: ...
    @property
    def robots(self) -> Optional[Robots]: ...
    @property
    def blanket(self) -> Optional[Blanket]: ...
    @property
    def retry_at(self) -> Optional[int]: ...
    def rules_for(self, token: Text) -> Rules: ...
    def with_retry_at(self, retry_at: Optional[Millis]) -> Answer:
        """This answer, saying the file will be fetched at `retry_at` (ms):
        what robotstxt.fleet.SharedCache answers while another worker
        fetches, until that worker's lease runs out."""

@final
class Entry:
    """One origin's copy of its robots.txt and its clock (behaviour §7)."""

    def __init__(
        self,
        *,
        fresh_for_ms: Optional[Millis] = 86_400_000,
        retry_ms: Optional[Millis] = 3_600_000,
        unreachable_limit_ms: Optional[Millis] = 2_592_000_000,
        after_limit: Optional[AfterLimitName] = "keep",
        policy: Optional[AccessPolicyName] = "careful",
        profile: Optional[ProfileName] = "rfc",
        parse_limit: Optional[int] = None,
        typos: Optional[bool] = True,
    ) -> None: ...
    def is_due(self, *, now: Optional[Millis] = None) -> bool: ...
    @property
    def due_at(self) -> int: ...
    @property
    def fetched_at(self) -> Optional[int]: ...
    @property
    def failures(self) -> int: ...
    @property
    def retry_at(self) -> Optional[int]: ...
    @property
    def has_copy(self) -> bool: ...
    @property
    def etag(self) -> Optional[str]: ...
    @property
    def last_modified(self) -> Optional[str]: ...
    def record(
        self,
        status: Optional[int],
        *,
        body: Optional[Text] = None,
        redirects: Optional[int] = 0,
        max_age_ms: Optional[Millis] = None,
        retry_after_ms: Optional[Millis] = None,
        etag: Optional[Text] = None,
        last_modified: Optional[Text] = None,
        now: Optional[Millis] = None,
    ) -> Access: ...
    def answer(self, *, now: Optional[Millis] = None) -> Answer:
        """What answers at `now`, as Cache.lookup answers (with retry_at)."""
    def encode(self, body: Optional[Text] = None) -> bytes:
        """The entry as bytes for a shared store; `body` is the body its
        parsed copy came from. Raises BodyMismatchError for another body."""
    @staticmethod
    def decode(
        data: Binary,
        /,
        *,
        fresh_for_ms: Optional[Millis] = 86_400_000,
        retry_ms: Optional[Millis] = 3_600_000,
        unreachable_limit_ms: Optional[Millis] = 2_592_000_000,
        after_limit: Optional[AfterLimitName] = "keep",
        policy: Optional[AccessPolicyName] = "careful",
        profile: Optional[ProfileName] = "rfc",
        parse_limit: Optional[int] = None,
        typos: Optional[bool] = True,
    ) -> Entry:
        """The entry Entry.encode wrote, parsed with the options given.
        Raises InvalidCopyError (CopyVersionError for a newer format)."""
    @staticmethod
    def stored_body(data: Binary) -> bytes:
        """The body that bytes from Entry.encode carry, unparsed."""

@final
class Lease:
    """The right, and duty, to fetch one origin's robots.txt."""

    @property
    def origin(self) -> str: ...
    @property
    def robots_url(self) -> str: ...
    @property
    def etag(self) -> Optional[str]: ...
    @property
    def last_modified(self) -> Optional[str]: ...
    @property
    def ended(self) -> bool: ...

@final
class Lookup:
    """The answer of Cache.lookup."""

    @property
    def kind(self) -> Literal["ready", "fetch", "wait"]: ...
    @property
    def answer(self) -> Optional[Answer]: ...
    @property
    def stale(self) -> Optional[bool]: ...
    @property
    def retry_at(self) -> Optional[int]: ...
    @property
    def lease(self) -> Optional[Lease]: ...
    @property
    def until(self) -> Optional[int]: ...

@final
class CacheStats:
    """Counters since the cache was made."""

    @property
    def hits(self) -> int: ...
    @property
    def misses(self) -> int: ...
    @property
    def fetches(self) -> int: ...
    @property
    def stale(self) -> int: ...
    @property
    def evictions(self) -> int: ...
    @property
    def entries(self) -> int: ...

@final
class Cache:
    """A bounded, thread-safe cache of robots.txt copies keyed by origin."""

    def __init__(
        self,
        *,
        capacity: Optional[int] = 10_000,
        lease_ms: Optional[Millis] = 60_000,
        fresh_for_ms: Optional[Millis] = 86_400_000,
        retry_ms: Optional[Millis] = 3_600_000,
        unreachable_limit_ms: Optional[Millis] = 2_592_000_000,
        after_limit: Optional[AfterLimitName] = "keep",
        policy: Optional[AccessPolicyName] = "careful",
        profile: Optional[ProfileName] = "rfc",
        parse_limit: Optional[int] = None,
        typos: Optional[bool] = True,
    ) -> None: ...
    def lookup(
        self,
        url: Text,
        *,
        now: Optional[Millis] = None,
        when_fetching: Optional[Literal["wait", "disallow-all"]] = "wait",
    ) -> Lookup: ...
    def store(
        self,
        lease: Lease,
        status: Optional[int],
        *,
        body: Optional[Text] = None,
        redirects: Optional[int] = 0,
        max_age_ms: Optional[Millis] = None,
        retry_after_ms: Optional[Millis] = None,
        etag: Optional[Text] = None,
        last_modified: Optional[Text] = None,
        now: Optional[Millis] = None,
    ) -> Access: ...
    def abandon(self, lease: Lease) -> None: ...
    def issued(self, lease: Lease) -> bool: ...
    def remove(self, url: Text) -> bool: ...
    @property
    def stats(self) -> CacheStats: ...
    @property
    def profile(self) -> ProfileName: ...
    def __len__(self) -> int: ...

@final
class Ticket:
    """A reserved start slot for one request to one host."""

    @property
    def start(self) -> Optional[int]: ...
    @property
    def host(self) -> str: ...
    @property
    def spent(self) -> bool: ...

@final
class Confirm:
    """What Pacer.confirm answers."""

    @property
    def kind(self) -> Literal["go", "wait", "disabled"]: ...
    @property
    def until(self) -> Optional[int]: ...
    @property
    def busy(self) -> bool: ...

@final
class Pacer:
    """Hands out request start slots per host, in order and thread-safe."""

    def __init__(
        self,
        *,
        floor_ms: Optional[Millis] = 1_000,
        backoff_cap_ms: Optional[Millis] = 600_000,
        capacity: Optional[int] = 100_000,
        max_in_flight: Optional[int] = 1,
        in_flight_timeout_ms: Optional[Millis] = 120_000,
    ) -> None: ...
    def reserve(self, host: Text, *, now: Optional[Millis] = None) -> Optional[Ticket]: ...
    def confirm(self, ticket: Ticket, *, now: Optional[Millis] = None) -> Confirm: ...
    def cancel(self, ticket: Ticket) -> None: ...
    def record(
        self,
        host: Text,
        status: Optional[int],
        *,
        retry_after_ms: Optional[Millis] = None,
        now: Optional[Millis] = None,
    ) -> None: ...
    def set_rules(self, host: Text, rules: Rules) -> None: ...
    def set_delay(
        self,
        host: Text,
        crawl_delay: Optional[float] = None,
        request_rate: Union[RequestRate, Tuple[int, int], None] = None,
    ) -> None: ...
    def set_enabled(self, host: Text, enabled: bool) -> None: ...
    def gap_ms(self, host: Text) -> int: ...
    def in_flight(self, host: Text, *, now: Optional[Millis] = None) -> int: ...
    def __len__(self) -> int: ...

def origin(url: Text) -> str:
    """The origin Cache.lookup keys `url` by."""

def fleet_script(name: FleetScriptName) -> str:
    """The Lua source of a fleet script, the shared prelude first."""

def robots_origin(url: Text) -> str:
    """The origin whose /robots.txt governs `url`, as Cache keys it."""

def pacer_host(host: Text) -> str:
    """The key a pacer tracks `host` by (ASCII letters lower-cased)."""

@overload
def pace_ms(crawl_delay: Rules, /) -> int:
    """A crawler's rules' own gap (ms), as Pacer.set_rules sets it."""

@overload
def pace_ms(
    crawl_delay: Optional[float] = None,
    request_rate: Union[RequestRate, Tuple[int, int], None] = None,
) -> int:
    """The gap (ms) a pace asks of a pacer, as Pacer.set_delay sets it."""

WhenFetchingName = Literal["wait", "disallow-all"]

@final
class FleetCall:
    """One fleet script to run: EVALSHA of sha1(source), EVAL of source on
    NOSCRIPT, with keys then args; its reply goes back to the method that
    reads it, once."""

    @property
    def name(self) -> FleetScriptName: ...
    @property
    def source(self) -> str: ...
    @property
    def keys(self) -> List[str]: ...
    @property
    def args(self) -> List[bytes]: ...

@final
class SharedLease:
    """The right, and duty, to fetch one origin's robots.txt for a fleet."""

    @property
    def origin(self) -> str: ...
    @property
    def robots_url(self) -> str: ...
    @property
    def etag(self) -> Optional[str]: ...
    @property
    def last_modified(self) -> Optional[str]: ...
    @property
    def ended(self) -> bool: ...

@final
class SharedLookup:
    """What SharedCache.lookup answers."""

    @property
    def kind(self) -> Literal["ready", "fetch", "wait"]: ...
    @property
    def answer(self) -> Optional[Answer]: ...
    @property
    def stale(self) -> Optional[bool]: ...
    @property
    def retry_at(self) -> Optional[int]: ...
    @property
    def lease(self) -> Optional[SharedLease]: ...
    @property
    def until(self) -> Optional[int]: ...

@final
class SharedCacheStats:
    """What a SharedCache counted, in this worker."""

    @property
    def hits(self) -> int: ...
    @property
    def misses(self) -> int: ...
    @property
    def fetches(self) -> int: ...
    @property
    def stale(self) -> int: ...
    @property
    def evictions(self) -> int: ...
    @property
    def redis_errors(self) -> int: ...
    @property
    def entries(self) -> int: ...
    @property
    def unreadable(self) -> int:
        """Copies in Redis this worker could not read (damaged, or of a
        newer format): answered as no copy, and fetched over."""

@final
class FleetCache:
    """One worker's side of a fleet's shared cache, sans I/O (the core's
    FleetCache); robotstxt.fleet.SharedCache runs its calls. `now` is the
    fleet's time given; left out, the monotonic clock is read."""

    def __init__(
        self,
        *,
        prefix: Optional[str] = "robotstxt:",
        lease_ms: Optional[int] = 60_000,
        keep_ms: Optional[int] = 2_678_400_000,
        capacity: Optional[int] = 10_000,
        **freshness: Any,
    ) -> None:
        """Options of Entry as freshness."""
    def lookup(
        self, url: Text, when_fetching: WhenFetchingName, *, now: Optional[Millis] = None
    ) -> Union[SharedLookup, FleetCall]: ...
    def lookup_reply(self, call: FleetCall, reply: object) -> Union[SharedLookup, FleetCall]: ...
    def renew(self, lease: SharedLease, *, now: Optional[Millis] = None) -> FleetCall: ...
    def renew_reply(self, reply: object) -> bool: ...
    def store(
        self, lease: SharedLease, status: Optional[int], *, now: Optional[Millis] = None, **outcome: Any
    ) -> FleetCall:
        """Arguments as Entry.record's."""
    def store_reply(self, call: FleetCall, reply: object) -> Tuple[Access, Answer, bool]: ...
    def store_failed(self, call: FleetCall) -> Tuple[Access, Answer]: ...
    def abandon(self, lease: SharedLease) -> FleetCall: ...
    def redis_failed(self) -> None: ...
    def fail_safe(self, url: Text, *, now: Optional[Millis] = None) -> Answer: ...
    def ms_until(self, until: Millis, *, now: Optional[Millis] = None) -> int: ...
    @property
    def renew_every_ms(self) -> int: ...
    def issued(self, lease: object) -> bool: ...
    def remove(self, url: Text) -> bool: ...
    @property
    def stats(self) -> SharedCacheStats: ...
    def close(self) -> None: ...
    def __len__(self) -> int: ...

@final
class SharedTicket:
    """A reserved start slot, from SharedPacer.reserve."""

    @property
    def host(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def generation(self) -> int: ...
    @property
    def spent(self) -> bool: ...

@final
class SharedConfirm:
    """What SharedPacer.confirm answers."""

    @property
    def kind(self) -> Literal["go", "wait", "disabled"]: ...
    @property
    def until(self) -> Optional[int]: ...
    @property
    def busy(self) -> bool: ...
    @property
    def at(self) -> Optional[int]:
        """"go": the fleet's time of the go (epoch ms); else None."""

@final
class FleetPacer:
    """One worker's side of a fleet's shared pacer, sans I/O (the core's
    FleetPacer); robotstxt.fleet.SharedPacer runs its calls."""

    def __init__(
        self,
        *,
        prefix: Optional[str] = "robotstxt:",
        floor_ms: Optional[Millis] = 1_000,
        backoff_cap_ms: Optional[Millis] = 600_000,
        max_in_flight: Optional[int] = 1,
        in_flight_timeout_ms: Optional[Millis] = 120_000,
        retain_ms: Optional[int] = 86_400_000,
        known_capacity: Optional[int] = 10_000,
    ) -> None: ...
    def reserve(self, host: Text, *, now: Optional[Millis] = None) -> FleetCall: ...
    def reserve_reply(self, call: FleetCall, reply: object) -> Optional[SharedTicket]: ...
    def confirm(self, ticket: SharedTicket, *, now: Optional[Millis] = None) -> FleetCall: ...
    def confirm_reply(self, ticket: SharedTicket, call: FleetCall, reply: object) -> SharedConfirm: ...
    def cancel(self, ticket: SharedTicket, *, now: Optional[Millis] = None) -> Optional[FleetCall]: ...
    def record(
        self,
        host: Text,
        status: Optional[int],
        *,
        retry_after_ms: Optional[Millis] = None,
        now: Optional[Millis] = None,
    ) -> FleetCall: ...
    def set_delay(self, host: Text, delay_ms: int, *, now: Optional[Millis] = None) -> FleetCall: ...
    def set_enabled(self, host: Text, enabled: bool, *, now: Optional[Millis] = None) -> FleetCall: ...
    def pace_state(self, host: Text, *, now: Optional[Millis] = None) -> FleetCall: ...
    def pace_state_reply(self, call: FleetCall, reply: object) -> Tuple[int, int]: ...
    def step_reply(self, call: FleetCall, reply: object) -> int: ...
    def ms_until(self, until: Millis, *, now: Optional[Millis] = None) -> int: ...
    def close(self) -> None: ...

def product_token(user_agent: Text) -> str:
    """The crawler's product token in a whole User-Agent header."""

def core_version() -> str:
    """The version of the robotstxt core this module was built with."""

def http_read(
    retry_after: Optional[Text] = None,
    cache_control: Optional[Text] = None,
    etag: Optional[Text] = None,
    last_modified: Optional[Text] = None,
    *,
    now_ms: Optional[Millis] = None,
    min_max_age_ms: Optional[Millis] = None,
) -> Tuple[Optional[int], Optional[int], Union[str, bytes, None], Union[str, bytes, None], List[str]]:
    """A robots.txt response's header values read: (max_age_ms,
    retry_after_ms, etag, last_modified, ignored), with the reason for each
    value ignored (behaviour §11)."""
