"""Fleets: one robots.txt copy per origin and one pace per host, shared
through Redis by every worker process of a crawler (on one machine or many).

- :class:`SharedRobotsCache`: :class:`~robotstxt.aio.AsyncRobotsCache`'s
  surface over a copy per origin kept in Redis: when a copy is due, one
  worker of the whole fleet fetches it (under a lease fenced by a token) and
  the others wait for it, or answer with the copy they hold. Each worker
  keeps the copies it uses parsed: between refreshes a question costs no
  Redis call, and a check is a local call.
- :class:`SharedCache`: :class:`~robotstxt.Cache`'s low-level surface
  (``lookup``, ``store``, ``abandon``, awaited) over the same copies, for a
  crawler that fetches by itself; SharedRobotsCache is built on it.
- :class:`SharedPacer`: :class:`~robotstxt.aio.AsyncPacer`'s surface over
  each host's pace kept in Redis: ``await pacer.wait(host)`` hands out start
  slots in order across every worker, and a 429, ``Retry-After`` or kill
  switch recorded by one worker holds back all.

The core decides (its stored-copy encoding, its pace arithmetic); every
shared step runs in Redis as one of the core's Lua scripts
(:func:`robotstxt.fleet_script`), atomically and on Redis's clock, so that
Node, Go and Python workers can share one Redis. ``redis`` is a
``redis.asyncio.Redis`` client (redis-py; any ``decode_responses``), or
anything with its ``execute_command``: this module imports no Redis client.

Keys, under a prefix of your choosing (default ``"robotstxt:"``), with the
origin or host in braces so that each step's keys share a cluster slot::

    <prefix>copy:{<origin>}   hash: data (Entry.encode), version, due, fence
    <prefix>lease:{<origin>}  the fetch lease: fencing token and end, PX lease_ms
    <prefix>pace:{<host>}     hash: next, last, nb, delay, factor, off, gen
    <prefix>flight:{<host>}   sorted set: in-flight places by expiry

>>> async def worker(urls, http: httpx.AsyncClient):         # doctest: +SKIP
...     store = redis.asyncio.Redis(host="127.0.0.1")
...     robots = SharedRobotsCache(store, httpx_fetcher(http, user_agent="ExampleBot/1.0"))
...     pacer = SharedPacer(store, floor_ms=1000)
...     for url in urls:
...         rules = await robots.rules_for(url, "ExampleBot")
...         if not rules.can_fetch(url):
...             continue
...         host = urllib.parse.urlsplit(url).netloc
...         await pacer.set_rules(host, rules)
...         await pacer.wait(host)
...         response = await http.get(url)
...         await pacer.record(host, response.status_code,
...                            retry_after_ms=retry_after_ms(response.headers.get("retry-after")))

Redis unreachable: the cache fails safe (the copy a worker holds keeps
answering, an origin it holds none of is disallowed), the pacer hands out no
slot (:class:`~robotstxt.RedisError`). With ``local_fallback=True`` each
falls back to a cache or pacer of this worker's own instead, with one
:class:`RedisFallbackWarning`: politeness then holds per worker, not per
fleet.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import itertools
import math
import os
import secrets
import time
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    Awaitable,
    Callable,
    Dict,
    List,
    Literal,
    NamedTuple,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    Union,
)

from ._robotstxt import (
    Access,
    Answer,
    ArgumentTypeError,
    ClosedError,
    Entry,
    HostDisabledError,
    InvalidArgumentError,
    InvalidLeaseError,
    InvalidOptionError,
    InvalidTicketError,
    Pacer,
    RedisError,
    RequestRate,
    Rules,
    fleet_script,
    pace_ms,
    pacer_host,
    robots_origin,
)
from .aio import (
    AsyncPacer,
    AsyncRobotsCache,
    Clock,
    FetchErrorHook,
    FetchRequest,
    Fetcher,
    _disabled,
    _fetched,
    _outcome_keywords,
)

if TYPE_CHECKING:
    from ._robotstxt import FleetScriptName

__all__ = [
    "RedisClient",
    "RedisFallbackWarning",
    "SharedCache",
    "SharedCacheStats",
    "SharedConfirm",
    "SharedLease",
    "SharedLookup",
    "SharedPacer",
    "SharedRobotsCache",
    "SharedTicket",
]

DAY_MS = 86_400_000
_DEFAULT_LEASE_MS = 60_000
# A worker waiting for another's fetch, or for a place in flight, looks
# again at least this often (ms).
_POLL_MS = 250

Arg = Union[str, bytes, int]
"""A script argument as sent to Redis."""


class RedisClient(Protocol):
    """The Redis client the shared classes talk through: a
    ``redis.asyncio.Redis`` (redis-py), or anything with its
    ``execute_command(*args, **options)`` that honours the
    ``NEVER_DECODE=True`` option (replies as bytes and ints)."""

    def execute_command(self, *args: Any, **options: Any) -> Awaitable[Any]:
        """Runs one command (``EVALSHA``, ``EVAL``) and gives its reply."""
        ...


class RedisFallbackWarning(RuntimeWarning):
    """Redis could not be reached and a shared class made with
    ``local_fallback=True`` fell back to this worker's own cache or pacer,
    which the rest of the fleet does not see. Warned once per instance."""


def _system_ms() -> float:
    return time.time() * 1000


def _text(value: object) -> str:
    """A reply element as a str (Redis bulk strings come as bytes)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


def _positive(value: object, what: str) -> int:
    """A whole number of milliseconds (or entries) ≥ 1."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentTypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 1:
        raise InvalidArgumentError(f"{what} must be a whole number ≥ 1, not {value}")
    return value


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{what} must be a bool, not {type(value).__name__}")
    return value


def _hook(value: Any, what: str) -> Any:
    if value is not None and not callable(value):
        raise ArgumentTypeError(f"{what} must be a function, not {type(value).__name__}")
    return value


def _prefix(value: object) -> str:
    if not isinstance(value, str):
        raise ArgumentTypeError(f"prefix must be a str, not {type(value).__name__}")
    return value


def _redis_error(step: str, cause: BaseException) -> RedisError:
    """The error of a Redis call that failed, with the step and the cause."""
    error = RedisError(f"Redis failed during {step}: {cause}")
    error.step = step
    error.__cause__ = cause
    return error


def _noscript(error: BaseException) -> bool:
    """Whether Redis answered NOSCRIPT (redis-py strips the prefix from the
    message of its NoScriptError)."""
    return type(error).__name__ == "NoScriptError" or str(error).startswith("NOSCRIPT")


class _Scripts:
    """Runs the core's fleet scripts on one Redis client: EVALSHA, and EVAL
    once when the server does not have a script yet (or lost it in a
    restart). Replies are never decoded: a stored copy is binary."""

    def __init__(self, redis: RedisClient) -> None:
        if not callable(getattr(redis, "execute_command", None)):
            raise ArgumentTypeError(
                f"redis must be a redis.asyncio.Redis client (with execute_command), not {type(redis).__name__}"
            )
        self._redis = redis
        self._sources: Dict[str, Tuple[str, str]] = {}

    async def run(self, name: FleetScriptName, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        script = self._sources.get(name)
        if script is None:
            source = fleet_script(name)
            script = (source, hashlib.sha1(source.encode("utf-8")).hexdigest())
            self._sources[name] = script
        source, sha = script
        try:
            return await self._redis.execute_command("EVALSHA", sha, len(keys), *keys, *args, NEVER_DECODE=True)
        except Exception as error:
            if not _noscript(error):
                raise
        return await self._redis.execute_command("EVAL", source, len(keys), *keys, *args, NEVER_DECODE=True)


def _clock_of(clock: Optional[Clock]) -> Optional[Clock]:
    if clock is not None and not callable(clock):
        raise ArgumentTypeError(f"clock must be a function returning epoch milliseconds, not {type(clock).__name__}")
    return clock


# ---------------------------------------------------------------------------
# SharedCache: the low-level surface, as robotstxt.Cache's


@dataclass(frozen=True)
class SharedCacheStats:
    """What a :class:`SharedCache` (or :class:`SharedRobotsCache`) counted,
    in this worker."""

    hits: int
    """Answers from a copy that was not due."""
    misses: int
    """Questions on an origin this worker held no copy of (a fetch, a wait,
    or a disallow-all while another worker fetches)."""
    fetches: int
    """Fetches of robots.txt handed to this worker for the fleet."""
    stale: int
    """Answers from an old copy: one kept after a failed fetch, or one due
    while another worker fetches it."""
    evictions: int
    """Copies this worker dropped to stay within capacity."""
    redis_errors: int
    """Redis calls that failed."""
    entries: int
    """Copies this worker holds now."""


@dataclass
class _Copy:
    """A copy this worker holds: the fleet's version ("": none, Redis did
    not take it), its bytes, parsed."""

    version: str
    data: bytes
    entry: Entry


@dataclass
class _Counts:
    hits: int = 0
    misses: int = 0
    fetches: int = 0
    stale: int = 0
    evictions: int = 0
    redis_errors: int = 0


class SharedLease:
    """The right, and duty, to fetch one origin's robots.txt for the whole
    fleet, from :meth:`SharedCache.lookup`, as :class:`~robotstxt.Lease`:
    fetch ``robots_url`` (conditionally, with ``etag`` and
    ``last_modified`` when set), then :meth:`SharedCache.store` or
    :meth:`SharedCache.abandon` it, once, with the cache that handed it out,
    before ``lease_ms`` runs out."""

    __slots__ = ("_cache", "_origin", "_token", "_base", "_ended")

    def __init__(self, cache: SharedCache, origin: str, token: str, base: Optional[_Copy]) -> None:
        self._cache = cache
        self._origin = origin
        self._token = token  # the fencing token store.lua checks
        self._base = base  # the copy the fetch refreshes
        self._ended = False

    @property
    def origin(self) -> str:
        """The normalised origin, such as ``"https://example.com:8443"``."""
        return self._origin

    @property
    def robots_url(self) -> str:
        """The URL to fetch: the origin's /robots.txt."""
        return f"{self._origin}/robots.txt"

    @property
    def etag(self) -> Optional[str]:
        """The ETag to send as If-None-Match, or None."""
        return self._base.entry.etag if self._base is not None else None

    @property
    def last_modified(self) -> Optional[str]:
        """The Last-Modified to send as If-Modified-Since, or None."""
        return self._base.entry.last_modified if self._base is not None else None

    @property
    def ended(self) -> bool:
        """Whether the lease was stored or abandoned."""
        return self._ended

    def __repr__(self) -> str:
        return f"<robotstxt.fleet.SharedLease {self.robots_url}{' (ended)' if self._ended else ''}>"


@dataclass(frozen=True)
class SharedLookup:
    """What :meth:`SharedCache.lookup` answers, as
    :class:`~robotstxt.Lookup`; the fields that do not apply to kind are
    None."""

    kind: Literal["ready", "fetch", "wait"]
    """"ready" (answer with answer), "fetch" (you fetch now, for the fleet:
    lease) or "wait" (another worker is fetching and there is no copy yet:
    ask again once it has stored, or at until)."""
    answer: Optional[Answer] = None
    """"ready": what answers."""
    stale: Optional[bool] = None
    """"ready": whether it is an old copy, kept while the file is being
    fetched or is unreachable."""
    retry_at: Optional[int] = None
    """"ready": when the next fetch is due after a failed one, or when the
    other worker's lease runs out for a disallow-all meanwhile (ms)."""
    lease: Optional[SharedLease] = None
    """"fetch": the lease to fetch with."""
    until: Optional[int] = None
    """"wait": when the other worker's lease runs out (ms)."""


class _Stored(NamedTuple):
    """How a store went: what the outcome meant, the entry it made and when,
    and why the fleet did not take it (None: it did)."""

    access: Access
    entry: Entry
    now: float
    error: Optional[Exception]


def _lease_error(reason: str) -> InvalidLeaseError:
    return InvalidLeaseError(
        f"the lease {reason}: store or abandon each lease once, with the cache that handed it out, "
        "before it runs out (lease_ms)"
    )


def _millis(value: object, what: str) -> float:
    """A time in ms, as the native calls take it: an int or a finite float ≥ 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentTypeError(f"{what} must be an int or a float (milliseconds), not {type(value).__name__}")
    if not (math.isfinite(value) and value >= 0):
        raise InvalidArgumentError(f"{what} must be a finite number of milliseconds ≥ 0, not {value}")
    return value


WhenFetching = Literal["wait", "disallow-all"]


def _when_fetching(value: object) -> WhenFetching:
    if not isinstance(value, str):
        raise ArgumentTypeError(f"when_fetching must be a str, not {type(value).__name__}")
    if value == "wait":
        return "wait"
    if value == "disallow-all":
        return "disallow-all"
    raise InvalidOptionError(f'when_fetching must be one of "wait", "disallow-all", not {value!r}')


class SharedCache:
    """:class:`~robotstxt.Cache`'s low-level surface over copies kept in
    Redis for a fleet: ``await lookup(url)`` gives "ready" (an answer),
    "fetch" (this worker fetches for the whole fleet: a
    :class:`SharedLease`) or "wait" (another worker fetches), and the
    fetcher ``await store(lease, status, ...)`` (or ``abandon(lease)``) once.
    Arguments, results and errors are Cache's, times are the fleet's clock;
    :class:`SharedRobotsCache` does the fetching on top of it.

    - A copy this worker holds and that is not due answers with no Redis
      call; otherwise lookup.lua reads the fleet's copy (and takes the
      lease when a fetch is due and nobody holds it).
    - store.lua takes a copy only under the fleet's current lease: a
      worker whose lease ran out never overwrites the fleet's copy, and its
      store raises :class:`~robotstxt.InvalidLeaseError` (this worker keeps
      nothing), as does a lease already stored or abandoned (with no Redis
      call).
    - A failed Redis call raises :class:`~robotstxt.RedisError`, also told
      to ``on_redis_error``; a store that fails so ends the lease and keeps
      the copy for this worker alone.

    Options: those of :class:`SharedRobotsCache` that are not about
    fetching (prefix, lease_ms, keep_ms, capacity, on_redis_error, clock,
    the options of :class:`~robotstxt.Entry`). ``now`` (ms), where a call
    takes it, replaces the clock for that call; with neither, the scripts
    read Redis's clock.
    """

    def __init__(
        self,
        redis: RedisClient,
        *,
        prefix: str = "robotstxt:",
        lease_ms: int = _DEFAULT_LEASE_MS,
        keep_ms: int = 31 * DAY_MS,
        capacity: int = 10_000,
        on_redis_error: Optional[Callable[[RedisError], None]] = None,
        clock: Optional[Clock] = None,
        **freshness: Any,
    ) -> None:
        self._scripts = _Scripts(redis)
        # A new entry: what answers for an origin nothing is known of; it
        # also checks the freshness options, names and values.
        self._blank = Entry(**freshness)
        self._freshness: Dict[str, Any] = dict(freshness)
        self._prefix = _prefix(prefix)
        self._clock = _clock_of(clock)
        self._on_redis_error = _hook(on_redis_error, "on_redis_error")
        self._lease_ms = _positive(lease_ms, "lease_ms")
        self._keep_ms = _positive(keep_ms, "keep_ms")
        self._capacity = _positive(capacity, "capacity")
        # Redis's clock minus ours, from the last reply (ms).
        self._offset = 0.0
        # origin -> the copy this worker holds, least recently used first.
        self._copies: OrderedDict[str, _Copy] = OrderedDict()
        self._counts = _Counts()
        self._closed = False

    @property
    def stats(self) -> SharedCacheStats:
        """This worker's counters."""
        c = self._counts
        return SharedCacheStats(c.hits, c.misses, c.fetches, c.stale, c.evictions, c.redis_errors, len(self._copies))

    def __len__(self) -> int:
        """The copies this worker holds."""
        return len(self._copies)

    def remove(self, url: Union[str, bytes]) -> bool:
        """Forgets this worker's copy of ``url``'s origin (the fleet's
        stays); returns whether it held one."""
        self._open()
        return self._copies.pop(robots_origin(url), None) is not None

    def issued(self, lease: SharedLease) -> bool:
        """Whether this cache handed ``lease`` out and it is not ended."""
        return isinstance(lease, SharedLease) and lease._cache is self and not lease._ended

    async def lookup(
        self,
        url: Union[str, bytes],
        *,
        now: Optional[float] = None,
        when_fetching: WhenFetching = "wait",
    ) -> SharedLookup:
        """What answers for ``url``, as :meth:`Cache.lookup
        <robotstxt.Cache.lookup>`: "ready", "fetch" (to one worker of the
        fleet per origin at a time) or "wait"; with
        ``when_fetching="disallow-all"``, a disallow-all answer (retry_at:
        when the other worker's lease runs out) instead of "wait".

        Raises InvalidUrlError as Cache.lookup, RedisError, ClosedError.
        """
        self._open()
        when = _when_fetching(when_fetching)
        given = None if now is None else _millis(now, "now")
        origin = robots_origin(url)
        held = self._held(origin, self._now() if given is None else given)
        if held is not None:
            return held
        copy = self._copies.get(origin)
        reply = await self._run(
            "lookup", self._keys(origin), [self._lease_ms, self._now_arg(given), copy.version if copy else ""]
        )
        kind_raw, redis_now_raw, version, _due, token_or_left, data = reply
        redis_now = int(redis_now_raw)
        if given is None and self._clock is None:
            self._offset = redis_now - _system_ms()
        if len(data) > 0:  # another version than this worker's
            copy = _Copy(_text(version), bytes(data), Entry.decode(data, **self._freshness))
        if copy is not None:
            self._put(origin, copy)
        has_copy = copy is not None and copy.entry.has_copy
        kind = _text(kind_raw)
        if kind == "fetch":
            self._counts.fetches += 1
            if not has_copy:
                self._counts.misses += 1
            return SharedLookup("fetch", lease=SharedLease(self, origin, _text(token_or_left), copy))
        if kind == "wait":
            until = redis_now + int(_text(token_or_left))
            if copy is not None and has_copy:
                self._counts.stale += 1
                return SharedLookup("ready", copy.entry.answer(now=redis_now), True, copy.entry.retry_at)
            self._counts.misses += 1
            if when == "wait":
                return SharedLookup("wait", until=until)
            entry = copy.entry if copy is not None else self._blank
            return SharedLookup("ready", entry.answer(now=redis_now).with_retry_at(until), False, until)
        assert copy is not None, "Redis answered fresh with no copy"
        return self._ready(copy, redis_now)

    async def store(
        self,
        lease: SharedLease,
        status: Optional[int],
        *,
        body: Union[str, bytes, None] = None,
        redirects: Optional[int] = None,
        max_age_ms: Optional[float] = None,
        retry_after_ms: Optional[float] = None,
        etag: Optional[str] = None,
        last_modified: Optional[str] = None,
        now: Optional[float] = None,
    ) -> Access:
        """Stores what the fetch of ``lease`` returned at ``now`` as the
        fleet's copy, ends the lease, and says what the outcome meant, as
        :meth:`Cache.store <robotstxt.Cache.store>`.

        Raises InvalidLeaseError for a lease already stored or abandoned, or
        of another cache (no Redis call then), or one the fleet no longer
        holds (it ran out: this worker keeps nothing); RedisError when Redis
        fails (the lease is ended, this worker keeps the copy for itself);
        as Entry.record for a wrong argument (the lease stays as it was).
        """
        outcome = {
            "body": body,
            "redirects": redirects,
            "max_age_ms": max_age_ms,
            "retry_after_ms": retry_after_ms,
            "etag": etag,
            "last_modified": last_modified,
        }
        stored = await self._store(lease, status, outcome, now)
        if stored.error is not None:
            raise stored.error
        return stored.access

    async def abandon(self, lease: SharedLease) -> None:
        """Gives a fetch back to the fleet without an outcome: the next
        lookup of any worker hands it out again.

        Raises InvalidLeaseError as store, RedisError (the lease then runs
        out by itself).
        """
        self._check(lease)._ended = True
        await self._run("abandon", self._keys(lease.origin)[1:], [lease._token])

    async def aclose(self) -> None:
        """Frees this worker's copies; later calls raise ClosedError. The
        fleet's copies stay in Redis."""
        self._closed = True
        self._copies.clear()

    async def __aenter__(self) -> SharedCache:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _open(self) -> None:
        if self._closed:
            raise ClosedError("SharedCache used after aclose()")

    def _now(self) -> float:
        """Now, by the clock given, else by Redis's (as of the last reply)."""
        return self._clock() if self._clock is not None else _system_ms() + self._offset

    def _now_arg(self, given: Optional[float]) -> str:
        """``now`` for a script: the time given, else the clock's, else
        "" (the script reads Redis's)."""
        if given is None and self._clock is not None:
            given = self._clock()
        return "" if given is None else str(math.floor(given))

    def _keys(self, origin: str) -> List[str]:
        return [f"{self._prefix}copy:{{{origin}}}", f"{self._prefix}lease:{{{origin}}}"]

    def _ready(self, copy: _Copy, now: float) -> SharedLookup:
        stale = copy.entry.failures > 0
        if stale:
            self._counts.stale += 1
        else:
            self._counts.hits += 1
        return SharedLookup("ready", copy.entry.answer(now=now), stale, copy.entry.retry_at)

    def _held(self, origin: str, now: float) -> Optional[SharedLookup]:
        """The answer of the copy this worker holds when it is not due at
        ``now``: no Redis call."""
        copy = self._copies.get(origin)
        if copy is None or copy.entry.is_due(now=now):
            return None
        self._copies.move_to_end(origin)
        return self._ready(copy, now)

    def _fail_safe(self, origin: str) -> Answer:
        """Redis failed: the copy this worker holds answers (as an
        unreachable robots.txt keeps the old copy); with none, nothing is
        allowed (behaviour §6)."""
        now = self._now()
        copy = self._copies.get(origin)
        return (copy.entry if copy is not None else self._blank).answer(now=now)

    def _put(self, origin: str, copy: _Copy) -> None:
        self._copies.pop(origin, None)
        self._copies[origin] = copy
        while len(self._copies) > self._capacity:
            self._copies.popitem(last=False)
            self._counts.evictions += 1

    def _check(self, lease: object) -> SharedLease:
        """``lease``, if this cache handed it out and it is not ended."""
        self._open()
        if not isinstance(lease, SharedLease):
            raise ArgumentTypeError(f"lease must be a SharedLease from SharedCache.lookup, not {type(lease).__name__}")
        if lease._ended:
            raise _lease_error("was already stored or abandoned")
        if lease._cache is not self:
            raise _lease_error("belongs to another cache")
        return lease

    async def _store(
        self, lease: SharedLease, status: Optional[int], outcome: Dict[str, Any], now: Optional[float]
    ) -> _Stored:
        """store, with the entry made even when the fleet did not take it
        (for the worker that fetched to answer with)."""
        self._check(lease)
        given = None if now is None else _millis(now, "now")
        at = self._now() if given is None else given
        base = lease._base
        entry = Entry(**self._freshness) if base is None else Entry.decode(base.data, **self._freshness)
        access = entry.record(status, now=at, **outcome)  # checks every argument first
        # The body the copy now comes from: this one, or the one kept.
        if access.kind == "follow-rules":
            body = outcome["body"]
        else:
            body = None if base is None else Entry.stored_body(base.data)
        data = entry.encode(body)
        lease._ended = True
        try:
            version = _text(
                await self._run(
                    "store", self._keys(lease.origin), [lease._token, data, entry.due_at, self._keep_ms, self._now_arg(given)]
                )
            )
        except RedisError as error:
            self._put(lease.origin, _Copy("", data, entry))
            return _Stored(access, entry, at, error)
        if version == "":  # the fleet's lease ran out: a stale worker never overwrites its copy
            return _Stored(access, entry, at, _lease_error("ran out, and the fleet no longer holds it"))
        self._put(lease.origin, _Copy(version, data, entry))
        return _Stored(access, entry, at, None)

    async def _run(self, name: FleetScriptName, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """Runs cache script ``name``; a failure is counted, told to
        on_redis_error and raised as a RedisError."""
        try:
            return await self._scripts.run(name, keys, args)
        except Exception as error:
            self._counts.redis_errors += 1
            wrapped = _redis_error(name, error)
            _tell(self._on_redis_error, wrapped)
            raise wrapped from error


def _tell(hook: Optional[Callable[[RedisError], None]], error: RedisError) -> None:
    if hook is None:
        return
    try:
        hook(error)
    except Exception:  # a hook that raises must not turn a failure into a crash
        pass


# ---------------------------------------------------------------------------
# SharedRobotsCache


class SharedRobotsCache:
    """robots.txt per origin for a whole fleet of asyncio workers, kept in
    Redis and fetched by ``fetch`` (an :class:`~robotstxt.aio.Fetcher`, as
    for :class:`~robotstxt.aio.AsyncRobotsCache`), over a
    :class:`SharedCache` (:attr:`cache`).

    ``await cache.rules_for(url, token)`` gives the rules for ``token`` at
    ``url``'s origin: the file's, or rules that allow everything (a 404) or
    disallow everything (a 5xx, 429, network error: until
    ``rules.retry_at``). It never raises for a failed fetch.

    - **No Redis call between refreshes.** A copy this worker holds and that
      is not due answers locally.
    - **One fetch per origin for the fleet.** When a copy is due (or there is
      none), one worker takes the fetch lease (``lease_ms``, 60 s: also the
      fetch's time limit) and stores what it got, only while its lease is the
      current one; the others answer with the copy they hold, or wait for the
      new one (``when_fetching="wait"``, the default) or answer disallow-all
      meanwhile (``"disallow-all"``). In one worker, one look at Redis per
      origin is under way at a time, whatever the number of tasks.
    - A fetch function that returns no :class:`~robotstxt.aio.FetchOutcome`
      raises to its callers, and the lease goes back at once.
    - **Redis unreachable**: the copy this worker holds keeps answering (as
      an unreachable robots.txt keeps the old copy); an origin it holds none
      of is disallowed until Redis answers again. ``on_redis_error(error)``
      hears of each failure (a :class:`~robotstxt.RedisError`). With
      ``local_fallback=True`` this worker fetches for itself instead (an
      :class:`~robotstxt.aio.AsyncRobotsCache`), with one
      :class:`RedisFallbackWarning`.

    Options: ``prefix`` of every key (``"robotstxt:"``), ``lease_ms``,
    ``keep_ms`` (how long Redis keeps a copy: 31 days), ``capacity`` (the
    copies this worker keeps parsed, 10,000; the least recently used goes
    first), ``on_fetch_error(error, request)`` as for AsyncRobotsCache,
    ``clock`` (ms; by default each script reads Redis's own clock, the same
    for every worker), and every option of :class:`~robotstxt.Entry`
    (fresh_for_ms, retry_ms, unreachable_limit_ms, after_limit, policy,
    profile, parse_limit, typos): give every worker of a fleet the same.

    Belongs to one event loop; :meth:`aclose` (or ``async with``) ends it.
    """

    def __init__(
        self,
        redis: RedisClient,
        fetch: Fetcher,
        *,
        prefix: str = "robotstxt:",
        lease_ms: int = _DEFAULT_LEASE_MS,
        keep_ms: int = 31 * DAY_MS,
        capacity: int = 10_000,
        when_fetching: WhenFetching = "wait",
        local_fallback: bool = False,
        on_fetch_error: Optional[FetchErrorHook] = None,
        on_redis_error: Optional[Callable[[RedisError], None]] = None,
        clock: Optional[Clock] = None,
        **freshness: Any,
    ) -> None:
        self._cache = SharedCache(
            redis,
            prefix=prefix,
            lease_ms=lease_ms,
            keep_ms=keep_ms,
            capacity=capacity,
            on_redis_error=on_redis_error,
            clock=clock,
            **freshness,
        )
        if not callable(fetch):
            raise ArgumentTypeError(
                f"fetch must be an async function (FetchRequest) -> FetchOutcome, not {type(fetch).__name__}"
            )
        self._fetch = fetch
        self._when = _when_fetching(when_fetching)
        self._on_fetch_error = _hook(on_fetch_error, "on_fetch_error")
        self._fallback: Optional[AsyncRobotsCache] = None
        if _flag(local_fallback, "local_fallback"):
            self._fallback = AsyncRobotsCache(
                fetch,
                clock=clock,
                when_fetching=when_fetching,
                on_fetch_error=on_fetch_error,
                capacity=capacity,
                lease_ms=lease_ms,
                **freshness,
            )
        self._warned = False
        # origin -> the look at Redis under way (None: ask again).
        self._rounds: Dict[str, asyncio.Task[Optional[Answer]]] = {}
        self._closed = False

    @property
    def cache(self) -> SharedCache:
        """The low-level shared cache underneath (lookup, store, abandon)."""
        return self._cache

    @property
    def stats(self) -> SharedCacheStats:
        """This worker's counters."""
        return self._cache.stats

    def __len__(self) -> int:
        """The copies this worker holds."""
        return len(self._cache)

    def remove(self, url: Union[str, bytes]) -> bool:
        """Forgets this worker's copy of ``url``'s origin (the fleet's
        stays); returns whether it held one."""
        self._open()
        return self._cache.remove(url)

    async def rules_for(self, url: Union[str, bytes], token: Union[str, bytes]) -> Rules:
        """The rules for ``token`` at ``url``'s origin, as
        :meth:`AsyncRobotsCache.rules_for <robotstxt.aio.AsyncRobotsCache.rules_for>`.

        Raises InvalidUrlError for a URL the cache cannot key,
        InvalidTokenError for a token that is not a product token (RFC
        profile), ClosedError after :meth:`aclose`; never for a failed fetch
        or an unreachable Redis.
        """
        if not isinstance(token, (str, bytes, bytearray, memoryview)):
            raise ArgumentTypeError(f"token must be a str or bytes, not {type(token).__name__}")
        answer = await self.answer_for(url)
        return answer.rules_for(token)

    async def answer_for(self, url: Union[str, bytes]) -> Answer:
        """What answers for ``url``'s origin (its kind, robots for the
        sitemaps, blanket, retry_at), looking at Redis (and fetching for the
        fleet) first when this worker's copy is due."""
        self._open()
        origin = robots_origin(url)  # raises for a URL with no robots.txt
        while True:
            self._open()
            held = self._cache._held(origin, self._cache._now())
            if held is not None:
                assert held.answer is not None
                return held.answer
            round_ = self._rounds.get(origin)
            if round_ is None or round_.done():
                round_ = asyncio.get_running_loop().create_task(self._round(origin, url))
                self._rounds[origin] = round_
                round_.add_done_callback(functools.partial(self._ended, origin))
            answer = await asyncio.shield(round_)
            if answer is not None:
                return answer

    def _ended(self, origin: str, round_: asyncio.Task[Optional[Answer]]) -> None:
        if self._rounds.get(origin) is round_:
            del self._rounds[origin]
        if not round_.cancelled():
            round_.exception()  # whoever waits gets it; nobody else must

    async def aclose(self) -> None:
        """Cancels the looks at Redis under way (a fetch under way gives its
        lease back) and frees this worker's copies; later calls raise
        ClosedError. The fleet's copies stay in Redis."""
        if self._closed:
            return
        self._closed = True
        rounds = list(self._rounds.values())
        for round_ in rounds:
            round_.cancel()
        await asyncio.gather(*rounds, return_exceptions=True)
        await self._cache.aclose()
        if self._fallback is not None:
            await self._fallback.aclose()

    async def __aenter__(self) -> SharedRobotsCache:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _open(self) -> None:
        if self._closed:
            raise ClosedError("SharedRobotsCache used after aclose()")

    async def _round(self, origin: str, url: Union[str, bytes]) -> Optional[Answer]:
        """One look at Redis for ``origin``: the answer, or None to look again."""
        try:
            got = await self._cache.lookup(url, when_fetching=self._when)
        except RedisError as error:
            return await self._redis_down(error, origin, url)
        if got.kind == "ready":
            return got.answer
        if got.kind == "wait":
            assert got.until is not None
            left = got.until - self._cache._now()
            await asyncio.sleep(min(max(left, 1), _POLL_MS) / 1000)
            return None
        assert got.lease is not None
        return await self._fetch_and_store(got.lease)

    async def _fetch_and_store(self, lease: SharedLease) -> Answer:
        """Fetches under the fleet's lease, stores, and answers: with what
        was fetched, even when the fleet did not take it (the lease ran out,
        Redis failed); this worker's next look at Redis takes the fleet's."""
        request = FetchRequest(lease.robots_url, lease.origin, lease.etag, lease.last_modified)
        try:
            outcome = await _fetched(self._fetch, request, self._cache._lease_ms / 1000, self._on_fetch_error)
            stored = await self._cache._store(lease, outcome.status, _outcome_keywords(outcome), None)
        except BaseException:  # aclose(), or a fetcher that returns no outcome: a bug to fix
            if not lease.ended:  # give the fetch back to the fleet
                try:
                    await self._cache.abandon(lease)
                except Exception:  # the lease runs out by itself
                    pass
            raise
        return stored.entry.answer(now=stored.now)

    async def _redis_down(self, error: RedisError, origin: str, url: Union[str, bytes]) -> Answer:
        """Redis failed: fail safe; with local_fallback, this worker fetches
        for itself."""
        if self._fallback is not None:
            if not self._warned:
                self._warned = True
                _warn_fallback("SharedRobotsCache", error)
            return await self._fallback.answer_for(url)
        return self._cache._fail_safe(origin)


def _warn_fallback(class_name: str, error: BaseException) -> None:
    warnings.warn(
        f"{class_name}: Redis is unreachable ({error}); this worker falls back to its own "
        "cache and pacer, which the rest of the fleet does not see",
        RedisFallbackWarning,
        stacklevel=3,
    )


# ---------------------------------------------------------------------------
# SharedPacer


@dataclass(eq=False)
class SharedTicket:
    """A reserved start slot, from :meth:`SharedPacer.reserve`: sleep until
    ``start``, then :meth:`SharedPacer.confirm` it just before sending."""

    host: str
    """The host, as the pacer keys it (ASCII lower case)."""
    start: int
    """When the request may start (epoch ms, the fleet's clock), as far as
    is known now; a confirm that answers "wait" may move it."""
    generation: int
    """The host's generation the slot belongs to."""
    spent: bool = field(default=False)
    """Whether the ticket is used up: confirmed "go" or "disabled", or
    cancelled."""


@dataclass(frozen=True)
class SharedConfirm:
    """What :meth:`SharedPacer.confirm` answers, as
    :class:`~robotstxt.Confirm`."""

    kind: Literal["go", "wait", "disabled"]
    """"go" (send now, then report the end with record), "wait" (confirm
    again at until) or "disabled" (the host is switched off: send nothing)."""
    until: Optional[int]
    """"wait": when to confirm again (epoch ms, the fleet's clock); else None."""
    busy: bool
    """"wait": whether the in-flight limit holds the request back."""


_places = itertools.count(1)


class SharedPacer:
    """Each host's pace for a whole fleet of asyncio workers, kept in Redis:
    ``await pacer.wait(host)`` before each request, ``await
    pacer.record(host, status)`` after it.

    Slots are handed out in order across every worker, at least max(floor,
    Crawl-delay, request-rate interval) apart, with at most
    ``max_in_flight`` requests in flight across the fleet; a 429 or 5xx, a
    ``Retry-After``, a slower pace or a kill switch recorded by any worker
    holds back every request not yet started. A worker that dies with a
    request in flight frees its place after ``in_flight_timeout_ms``.
    Redis keeps a host's pace ``retain_ms`` (24 h) after it last held
    anything back, so that a crawl delay outlives a pause; a host whose
    pace Redis lost (a restart with empty memory) starts again from the
    delay the first worker to ask last set.

    Options: those of :class:`~robotstxt.Pacer` (floor_ms, backoff_cap_ms,
    max_in_flight, in_flight_timeout_ms; not capacity: Redis holds every
    host), ``prefix``, ``retain_ms``, ``clock`` (ms; by default each script
    reads Redis's own clock) and ``on_redis_error(error)``. Give every
    worker of a fleet the same.

    Redis unreachable: every call raises :class:`~robotstxt.RedisError`: no
    slot, no request. With ``local_fallback=True``, :meth:`wait` paces by
    this worker's own :class:`~robotstxt.aio.AsyncPacer` instead, with one
    :class:`RedisFallbackWarning`.
    """

    def __init__(
        self,
        redis: RedisClient,
        *,
        prefix: str = "robotstxt:",
        floor_ms: Optional[float] = None,
        backoff_cap_ms: Optional[float] = None,
        max_in_flight: Optional[int] = None,
        in_flight_timeout_ms: Optional[float] = None,
        retain_ms: int = DAY_MS,
        local_fallback: bool = False,
        on_redis_error: Optional[Callable[[RedisError], None]] = None,
        clock: Optional[Clock] = None,
    ) -> None:
        self._delays: Dict[str, int] = {}
        self._scripts = _Scripts(redis)
        self._prefix = _prefix(prefix)
        self._clock = _clock_of(clock)
        self._on_redis_error = _hook(on_redis_error, "on_redis_error")
        options: Dict[str, Any] = {
            name: value
            for name, value in (
                ("floor_ms", floor_ms),
                ("backoff_cap_ms", backoff_cap_ms),
                ("max_in_flight", max_in_flight),
                ("in_flight_timeout_ms", in_flight_timeout_ms),
            )
            if value is not None
        }
        Pacer(**options)  # checks the options' types and values
        # In the order every pace script takes them, in whole ms.
        self._options: List[Arg] = [
            int(floor_ms) if floor_ms is not None else 1000,
            int(backoff_cap_ms) if backoff_cap_ms is not None else 600_000,
            max_in_flight if max_in_flight is not None else 1,
            int(in_flight_timeout_ms) if in_flight_timeout_ms is not None else 120_000,
            _positive(retain_ms, "retain_ms"),
        ]
        self._fallback: Optional[AsyncPacer] = None
        if _flag(local_fallback, "local_fallback"):
            self._fallback = AsyncPacer(clock=clock, **options)
        self._warned = False
        # Names this worker's in-flight places in Redis.
        self._worker = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._offset = 0.0
        self._down = False
        self._closed = False

    async def reserve(self, host: Union[str, bytes]) -> Optional[SharedTicket]:
        """Reserves the next start slot for ``host`` across the fleet: a
        ticket whose start says when the request may start, or None while
        the host is switched off.

        Raises InvalidHostError for an empty or over-long host, RedisError.
        """
        key = pacer_host(host)
        start, generation, _ = await self._run("reserve", key, [self._known(key)])
        if start == -1:
            return None
        return SharedTicket(key, start, generation)

    async def confirm(self, ticket: SharedTicket) -> SharedConfirm:
        """Whether ``ticket``'s request may be sent now, asked just before
        sending, as :meth:`Pacer.confirm <robotstxt.Pacer.confirm>`: "go"
        takes an in-flight place (free it with :meth:`record`).

        Raises InvalidTicketError for a ticket already confirmed "go" or
        "disabled", or cancelled; RedisError.
        """
        return (await self._confirm(ticket))[0]

    async def _confirm(self, ticket: SharedTicket) -> Tuple[SharedConfirm, int]:
        """confirm, and Redis's now."""
        if not isinstance(ticket, SharedTicket):
            raise ArgumentTypeError(f"ticket must be a SharedTicket from SharedPacer.reserve, not {type(ticket).__name__}")
        if ticket.spent:
            raise InvalidTicketError(
                "the ticket was already confirmed (go or disabled) or cancelled: "
                "confirm each ticket until it says go, or cancel it"
            )
        place = f"{self._worker}-{next(_places)}"
        answer, start, generation, until, now = await self._run(
            "confirm", ticket.host, [ticket.start, ticket.generation, place, self._known(ticket.host)]
        )
        ticket.start = start
        ticket.generation = generation
        if answer in (1, 2):
            return SharedConfirm("wait", until, answer == 2), now
        ticket.spent = True
        return SharedConfirm("go" if answer == 0 else "disabled", None, False), now

    async def cancel(self, ticket: SharedTicket) -> None:
        """Gives an unsent ticket's slot back when it is the last one handed
        out; spends the ticket. Does nothing for a spent ticket."""
        if not isinstance(ticket, SharedTicket):
            raise ArgumentTypeError(f"ticket must be a SharedTicket from SharedPacer.reserve, not {type(ticket).__name__}")
        if ticket.spent:
            return
        ticket.spent = True
        await self._run("cancel", ticket.host, [ticket.start, ticket.generation])

    async def record(
        self,
        host: Union[str, bytes],
        status: Optional[int],
        *,
        retry_after_ms: Optional[float] = None,
    ) -> None:
        """Reports how a request that :meth:`wait` let go ended: its HTTP
        status (None for a network error) and ``Retry-After`` in ms. Frees
        its in-flight place; a 429 or 5xx slows the host down for the whole
        fleet, and a Retry-After holds every start back until it passes."""
        if status is not None:
            if not isinstance(status, int) or isinstance(status, bool):
                raise ArgumentTypeError(f"status must be an int or None, not {type(status).__name__}")
            if not 100 <= status <= 999:
                raise InvalidArgumentError(f"status must be an HTTP status from 100 to 999, not {status}")
        retry = -1
        if retry_after_ms is not None:
            if not isinstance(retry_after_ms, (int, float)) or isinstance(retry_after_ms, bool):
                raise ArgumentTypeError(
                    f"retry_after_ms must be an int, a float or None, not {type(retry_after_ms).__name__}"
                )
            if not (math.isfinite(retry_after_ms) and retry_after_ms >= 0):
                raise InvalidArgumentError(f"retry_after_ms must be a finite number ≥ 0, not {retry_after_ms}")
            retry = math.floor(retry_after_ms)
        key = pacer_host(host)
        await self._run("record", key, [status if status is not None else -1, retry, self._known(key)])

    async def set_rules(self, host: Union[str, bytes], rules: Rules) -> None:
        """Sets ``host``'s own pace from a crawler's rules (Crawl-delay,
        Request-rate) for the whole fleet."""
        if not isinstance(rules, Rules):
            raise ArgumentTypeError(f"rules must be a Rules, not {type(rules).__name__}")
        await self._set_delay(pacer_host(host), pace_ms(rules))

    async def set_delay(
        self,
        host: Union[str, bytes],
        crawl_delay: Optional[float] = None,
        request_rate: Union[RequestRate, Tuple[int, int], None] = None,
    ) -> None:
        """Sets ``host``'s own pace: crawl_delay in seconds, request_rate (a
        RequestRate or a (requests, seconds) pair)."""
        await self._set_delay(pacer_host(host), pace_ms(crawl_delay, request_rate))

    async def set_enabled(self, host: Union[str, bytes], enabled: bool) -> None:
        """Switches ``host`` off for the whole fleet (waits raise
        HostDisabledError) or back on: a kill switch."""
        _flag(enabled, "enabled")
        key = pacer_host(host)
        await self._run("set_enabled", key, [1 if enabled else 0, self._known(key)])

    async def gap_ms(self, host: Union[str, bytes]) -> int:
        """The gap now applied between two starts to ``host``, in ms."""
        return (await self._run("pace_state", pacer_host(host), []))[0]

    async def in_flight(self, host: Union[str, bytes]) -> int:
        """How many requests to ``host`` are in flight across the fleet."""
        return (await self._run("pace_state", pacer_host(host), []))[1]

    async def wait(self, host: Union[str, bytes]) -> int:
        """Reserves a slot for ``host``, sleeps until it and confirms it, as
        often as the fleet's pace says to wait; returns the start (epoch ms,
        Redis's clock) when the request may be sent. Send it at once, and
        report its end with :meth:`record`. A task cancelled while it waits
        gives its slot back when it is the last one.

        Raises HostDisabledError while the host is switched off,
        InvalidHostError, RedisError (with local_fallback: paces by this
        worker's own pacer instead).
        """
        if self._fallback is not None and self._down:
            return await self._fallback_wait(host)
        try:
            ticket = await self.reserve(host)
        except RedisError:
            if self._fallback is not None:
                return await self._fallback_wait(host)
            raise
        if ticket is None:
            raise _disabled(host)
        try:
            until: float = ticket.start
            while True:
                delay = until - self._now()
                if delay > 0:
                    await asyncio.sleep(delay / 1000)
                got, now = await self._confirm(ticket)
                if got.kind == "go":
                    return now
                if got.kind == "disabled":
                    raise _disabled(host)
                assert got.until is not None
                until = min(got.until, self._now() + _POLL_MS) if got.busy else got.until
        except HostDisabledError:
            raise
        except BaseException:
            try:
                await self.cancel(ticket)
            except Exception:
                pass
            raise

    async def aclose(self) -> None:
        """Ends this pacer: later calls raise ClosedError. The fleet's pace
        stays in Redis."""
        self._closed = True

    async def __aenter__(self) -> SharedPacer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _now(self) -> float:
        return self._clock() if self._clock is not None else _system_ms() + self._offset

    def _now_arg(self) -> str:
        return "" if self._clock is None else str(math.floor(self._clock()))

    async def _fallback_wait(self, host: Union[str, bytes]) -> int:
        assert self._fallback is not None
        if not self._warned:
            self._warned = True
            _warn_fallback("SharedPacer", RuntimeError("see the last on_redis_error"))
        return await self._fallback.wait(host)

    async def _set_delay(self, key: str, ms: int) -> None:
        await self._run("set_delay", key, [ms])
        self._delays[key] = ms

    def _known(self, key: str) -> Arg:
        """The delay this worker last set for host ``key``, or "": a host
        whose pace Redis lost (a restart, expiry) starts from it again."""
        return self._delays.get(key, "")

    async def _run(self, name: FleetScriptName, key: str, args: Sequence[Arg]) -> List[int]:
        """Runs pace script ``name`` for host key ``key``; integers back."""
        if self._closed:
            raise ClosedError("SharedPacer used after aclose()")
        keys = [f"{self._prefix}pace:{{{key}}}", f"{self._prefix}flight:{{{key}}}"]
        try:
            reply = await self._scripts.run(name, keys, [*self._options, self._now_arg(), *args])
        except Exception as error:
            self._down = True
            wrapped = _redis_error(name, error)
            _tell(self._on_redis_error, wrapped)
            raise wrapped from error
        self._down = False
        values = [int(v) for v in reply] if isinstance(reply, list) else [int(reply)]
        # reserve and confirm end with Redis's now: keep our clock on it.
        if self._clock is None and name in ("reserve", "confirm"):
            self._offset = values[-1] - _system_ms()
        return values

