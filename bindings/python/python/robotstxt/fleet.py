"""Fleets: one robots.txt copy per origin and one pace per host, shared
through Redis by every worker process of a crawler (docs/fleet.md).

- :class:`SharedRobotsCache`: :class:`~robotstxt.aio.AsyncRobotsCache`'s
  surface; one worker of the fleet fetches each due copy, the others wait
  for it or answer with the copy they hold.
- :class:`SharedCache`: :class:`~robotstxt.Cache`'s low-level surface
  (``lookup``, ``renew``, ``store``, ``abandon``, awaited).
- :class:`SharedPacer`: :class:`~robotstxt.aio.AsyncPacer`'s surface; slots
  in order across every worker, and a 429, ``Retry-After`` or kill switch
  recorded by one holds back all.

The core holds the whole protocol: each step names one of its Lua scripts
(:func:`robotstxt.fleet_script`) with keys and arguments, and the core reads
Redis's reply and decides. This module runs the scripts on ``redis`` (a
``redis.asyncio.Redis``, any ``decode_responses``, or anything with its
``execute_command``), sleeps, and renews a fetch's lease while the fetch
goes on. Times are Redis's, moved on between answers by this process's
monotonic clock (a step of the wall clock changes nothing); ``clock`` (ms),
or ``now`` where a call takes it, gives the time instead.

>>> async def worker(urls, http: httpx.AsyncClient):         # doctest: +SKIP
...     store = redis.asyncio.Redis(host="10.0.0.5", socket_timeout=0.5,
...                                 socket_connect_timeout=0.5, retry=Retry(NoBackoff(), 1))
...     robots = SharedRobotsCache(store, httpx_fetcher(http, user_agent="ExampleBot/1.0"))
...     pacer = SharedPacer(store, floor_ms=1000)
...     for url in urls:
...         rules = await robots.rules_for(url, "ExampleBot")
...         if rules.can_fetch(url):
...             host = urllib.parse.urlsplit(url).netloc
...             await pacer.set_rules(host, rules)
...             await pacer.wait(host)
...             response = await http.get(url)
...             await pacer.record(host, response.status_code,
...                                retry_after_ms=retry_after_ms(response.headers.get("retry-after")))

Redis unreachable: the cache fails safe (the copy a worker holds answers,
an origin it holds none of is disallowed) and the pacer hands out no slot
(:class:`~robotstxt.RedisError`); bounded client timeouts and retries, as
above, make a call fail within about a second. ``local_fallback=True``
falls back to this worker's own cache or pacer, with one
:class:`RedisFallbackWarning`: politeness then holds per worker.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import warnings
from typing import Any, Awaitable, Callable, Dict, Literal, Optional, Protocol, Tuple, TypeVar, Union

from ._robotstxt import (Access, Answer, ArgumentTypeError, Error, FleetCache, FleetCall, FleetPacer, HostDisabledError,
                         InvalidLeaseError, InvalidOptionError, RedisError, RequestRate, Rules, SharedCacheStats,
                         SharedConfirm, SharedLease, SharedLookup, SharedTicket, pace_ms, robots_origin)
from .aio import AsyncPacer, AsyncRobotsCache, Clock, FetchErrorHook, FetchRequest, Fetcher, _disabled, _fetched, _outcome_keywords

__all__ = ["RedisClient", "RedisFallbackWarning", "SharedCache", "SharedCacheStats", "SharedConfirm", "SharedLease",
           "SharedLookup", "SharedPacer", "SharedRobotsCache", "SharedTicket"]

DAY_MS = 86_400_000
_POLL_MS = 250  # how often a worker waiting for a fetch or a place looks again
WhenFetching = Literal["wait", "disallow-all"]
_T = TypeVar("_T")
Read = Callable[[FleetCall, Any], _T]
RedisHook = Callable[[RedisError], None]


class RedisClient(Protocol):
    """The Redis client the shared classes talk through: a
    ``redis.asyncio.Redis``, or anything with its ``execute_command`` that
    honours ``NEVER_DECODE=True`` (replies as bytes and ints)."""

    def execute_command(self, *args: Any, **options: Any) -> Awaitable[Any]:
        """Runs one command (``EVALSHA``, ``EVAL``) and gives its reply."""
        ...


class RedisFallbackWarning(RuntimeWarning):
    """Redis could not be reached and a shared class made with
    ``local_fallback=True`` fell back to this worker's own cache or pacer,
    which the rest of the fleet does not see. Warned once per instance."""


def _function(value: Any, what: str) -> Any:
    if value is not None and not callable(value):
        raise ArgumentTypeError(f"{what} must be a function, not {type(value).__name__}")
    return value


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{what} must be a bool, not {type(value).__name__}")
    return value


def _warn_fallback(class_name: str, error: BaseException) -> None:
    warnings.warn(
        f"{class_name}: Redis is unreachable ({error}); this worker falls back to its own "
        "cache and pacer, which the rest of the fleet does not see",
        RedisFallbackWarning,
        stacklevel=3,
    )


class _Redis:
    """Runs the core's calls on one client: EVALSHA, and EVAL when the
    server does not have the script (yet, or since a restart). Replies are
    never decoded: a stored copy is binary."""

    def __init__(self, redis: RedisClient, on_error: Optional[RedisHook]) -> None:
        if not callable(getattr(redis, "execute_command", None)):
            raise ArgumentTypeError(
                f"redis must be a redis.asyncio.Redis client (with execute_command), not {type(redis).__name__}"
            )
        self._redis = redis
        self._on_error = _function(on_error, "on_redis_error")
        self._shas: Dict[str, str] = {}

    async def __call__(self, call: FleetCall) -> Any:
        sha = self._shas.get(call.name) or self._shas.setdefault(call.name, hashlib.sha1(call.source.encode()).hexdigest())
        keys, args = call.keys, call.args
        try:
            return await self._redis.execute_command("EVALSHA", sha, len(keys), *keys, *args, NEVER_DECODE=True)
        except Exception as error:  # redis-py strips the NOSCRIPT prefix from its NoScriptError
            if type(error).__name__ != "NoScriptError" and not str(error).startswith("NOSCRIPT"):
                raise
        return await self._redis.execute_command("EVAL", call.source, len(keys), *keys, *args, NEVER_DECODE=True)

    def failed(self, call: FleetCall, cause: BaseException) -> RedisError:
        """The RedisError of a call that failed, told to on_redis_error."""
        error = RedisError(f"Redis failed during {call.name}: {cause}")
        error.step = call.name
        error.__cause__ = cause
        if self._on_error is not None:
            try:
                self._on_error(error)
            except Exception:  # a hook that raises must not turn a failure into a crash
                pass
        return error

    async def ask(self, call: FleetCall, read: Read[_T], failed: Callable[[], None]) -> _T:
        """``call``'s reply, read; a client's error calls ``failed`` and
        raises a RedisError."""
        try:
            reply = await self(call)
        except Exception as error:
            failed()
            raise self.failed(call, error) from error
        return self.read(call, reply, read, failed)

    def read(self, call: FleetCall, reply: Any, read: Read[_T], failed: Callable[[], None]) -> _T:
        """``read(call, reply)``; a reply the core cannot read is a
        RedisError naming the script, as a failed call is."""
        try:
            return read(call, reply)
        except RedisError as error:
            failed()
            raise self.failed(call, error) from error


class SharedCache:
    """:class:`~robotstxt.Cache`'s low-level surface over copies kept in
    Redis for a fleet: ``await lookup(url)`` gives "ready", "fetch" (a
    :class:`SharedLease`: this worker fetches for the fleet, calling ``await
    renew(lease)`` every :attr:`renew_every_ms` meanwhile, then ``store`` or
    ``abandon`` once) or "wait". A copy in Redis this worker cannot read
    (damaged, or of a newer format) is no copy: it fetches over it
    (``stats.unreadable``). A failed Redis call raises
    :class:`~robotstxt.RedisError`, told to ``on_redis_error``. Options as
    :class:`SharedRobotsCache`'s that are not about fetching.
    """

    def __init__(
        self, redis: RedisClient, *, prefix: str = "robotstxt:", lease_ms: int = 60_000, keep_ms: int = 31 * DAY_MS,
        capacity: int = 10_000, on_redis_error: Optional[RedisHook] = None, clock: Optional[Clock] = None,
        **freshness: Any,
    ) -> None:
        self._redis = _Redis(redis, on_redis_error)
        self._core = FleetCache(prefix=prefix, lease_ms=lease_ms, keep_ms=keep_ms, capacity=capacity, **freshness)
        self._clock: Optional[Clock] = _function(clock, "clock")

    @property
    def stats(self) -> SharedCacheStats:
        """This worker's counters."""
        return self._core.stats

    @property
    def renew_every_ms(self) -> int:
        """How often a lease's holder renews it while it fetches (ms)."""
        return self._core.renew_every_ms

    def __len__(self) -> int:
        """The copies this worker holds."""
        return len(self._core)

    def remove(self, url: Union[str, bytes]) -> bool:
        """Forgets this worker's copy of ``url``'s origin (the fleet's
        stays); returns whether it held one."""
        return self._core.remove(url)

    def issued(self, lease: SharedLease) -> bool:
        """Whether this cache handed ``lease`` out and it is not ended."""
        return self._core.issued(lease)

    async def lookup(
        self, url: Union[str, bytes], *, now: Optional[float] = None, when_fetching: WhenFetching = "wait"
    ) -> SharedLookup:
        """What answers for ``url``, as :meth:`Cache.lookup
        <robotstxt.Cache.lookup>`. Raises InvalidUrlError, RedisError,
        ClosedError."""
        got = self._core.lookup(url, when_fetching, now=self._at(now))
        while isinstance(got, FleetCall):
            got = await self._ask(got, self._core.lookup_reply)
        return got

    async def renew(self, lease: SharedLease, *, now: Optional[float] = None) -> bool:
        """Extends ``lease`` by lease_ms; False when the fleet no longer
        holds it (its store will be refused)."""
        return await self._ask(self._core.renew(lease, now=self._at(now)), lambda _, r: self._core.renew_reply(r))

    async def store(
        self, lease: SharedLease, status: Optional[int], *, body: Union[str, bytes, None] = None,
        redirects: Optional[int] = None, max_age_ms: Optional[float] = None, retry_after_ms: Optional[float] = None,
        etag: Optional[str] = None, last_modified: Optional[str] = None, now: Optional[float] = None,
    ) -> Access:
        """Stores what the fetch of ``lease`` returned as the fleet's copy,
        as :meth:`Cache.store <robotstxt.Cache.store>`. Raises
        InvalidLeaseError for a lease ended, of another cache, or run out;
        RedisError (this worker keeps the copy for itself)."""
        outcome = dict(body=body, redirects=redirects, max_age_ms=max_age_ms, retry_after_ms=retry_after_ms,
                       etag=etag, last_modified=last_modified)
        access, _, error = await self._store(lease, status, now, outcome)
        if error is not None:
            raise error
        return access

    async def abandon(self, lease: SharedLease) -> None:
        """Gives a fetch back to the fleet without an outcome."""
        await self._ask(self._core.abandon(lease), lambda _, r: None)

    async def aclose(self) -> None:
        """Frees this worker's copies; later calls raise ClosedError."""
        self._core.close()

    async def __aenter__(self) -> SharedCache:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _at(self, now: Optional[float]) -> Optional[float]:
        """The time given, else the clock's; None: the fleet's."""
        return self._clock() if now is None and self._clock is not None else now

    async def _ask(self, call: FleetCall, read: Read[_T]) -> _T:
        return await self._redis.ask(call, read, self._core.redis_failed)

    async def _store(
        self, lease: SharedLease, status: Optional[int], now: Optional[float], outcome: Dict[str, Any]
    ) -> Tuple[Access, Answer, Optional[Error]]:
        """store, with what answers from the outcome even when the fleet
        did not take it, and why not."""
        call = self._core.store(lease, status, now=self._at(now), **outcome)
        try:
            reply = await self._redis(call)
        except Exception as error:
            access, answer = self._core.store_failed(call)
            return access, answer, self._redis.failed(call, error)
        access, answer, stored = self._redis.read(call, reply, self._core.store_reply, self._core.redis_failed)
        if stored:
            return access, answer, None
        return access, answer, InvalidLeaseError(
            "the lease ran out, and the fleet no longer holds it: renew it while its fetch goes on"
        )


class SharedRobotsCache:
    """robots.txt per origin for a fleet of asyncio workers, kept in Redis
    and fetched by ``fetch`` (an :class:`~robotstxt.aio.Fetcher`) over a
    :class:`SharedCache` (:attr:`cache`). ``await rules_for(url, token)``
    never raises for a failed fetch or an unreachable Redis. A held copy
    that is not due answers with no Redis call; a due one is fetched by one
    worker of the fleet, renewing its lease however slow the site, while
    the others answer with the copy they hold, or wait
    (``when_fetching="wait"``) or answer disallow-all. A fetch longer than
    ``timeout`` seconds (60) is a network error, told to ``on_fetch_error``.

    Options: ``prefix`` (``"robotstxt:"``), ``lease_ms`` (60 s), ``keep_ms``
    (31 days in Redis), ``capacity`` (copies held parsed, 10,000),
    ``timeout``, ``local_fallback``, ``on_redis_error``, ``clock`` and the
    options of :class:`~robotstxt.Entry`: give every worker the same.
    """

    def __init__(
        self, redis: RedisClient, fetch: Fetcher, *, prefix: str = "robotstxt:", lease_ms: int = 60_000,
        keep_ms: int = 31 * DAY_MS, capacity: int = 10_000, when_fetching: WhenFetching = "wait",
        timeout: Optional[float] = None, local_fallback: bool = False, on_fetch_error: Optional[FetchErrorHook] = None,
        on_redis_error: Optional[RedisHook] = None, clock: Optional[Clock] = None, **freshness: Any,
    ) -> None:
        self._cache = SharedCache(redis, prefix=prefix, lease_ms=lease_ms, keep_ms=keep_ms, capacity=capacity,
                                  on_redis_error=on_redis_error, clock=clock, **freshness)
        if not callable(fetch):
            raise ArgumentTypeError(
                f"fetch must be an async function (FetchRequest) -> FetchOutcome, not {type(fetch).__name__}"
            )
        if when_fetching not in ("wait", "disallow-all"):
            kind = InvalidOptionError if isinstance(when_fetching, str) else ArgumentTypeError
            raise kind(f'when_fetching must be one of "wait", "disallow-all", not {when_fetching!r}')
        self._fetch, self._when = fetch, when_fetching
        self._timeout = 60.0 if timeout is None else timeout
        self._on_fetch_error: Optional[FetchErrorHook] = _function(on_fetch_error, "on_fetch_error")
        self._fallback: Optional[AsyncRobotsCache] = None
        if _flag(local_fallback, "local_fallback"):
            self._fallback = AsyncRobotsCache(fetch, clock=clock, when_fetching=when_fetching, timeout=self._timeout,
                                              on_fetch_error=on_fetch_error, capacity=capacity, lease_ms=lease_ms,
                                              **freshness)
        self._warned = False
        self._rounds: Dict[str, asyncio.Task[Optional[Answer]]] = {}  # origin -> its look at Redis

    @property
    def cache(self) -> SharedCache:
        """The low-level shared cache underneath."""
        return self._cache

    @property
    def stats(self) -> SharedCacheStats:
        """This worker's counters."""
        return self._cache.stats

    def __len__(self) -> int:
        """The copies this worker holds."""
        return len(self._cache)

    def remove(self, url: Union[str, bytes]) -> bool:
        """Forgets this worker's copy of ``url``'s origin."""
        return self._cache.remove(url)

    async def rules_for(self, url: Union[str, bytes], token: Union[str, bytes]) -> Rules:
        """The rules for ``token`` at ``url``'s origin, as
        :meth:`AsyncRobotsCache.rules_for <robotstxt.aio.AsyncRobotsCache.rules_for>`."""
        if not isinstance(token, (str, bytes, bytearray, memoryview)):
            raise ArgumentTypeError(f"token must be a str or bytes, not {type(token).__name__}")
        return (await self.answer_for(url)).rules_for(token)

    async def answer_for(self, url: Union[str, bytes]) -> Answer:
        """What answers for ``url``'s origin (kind, robots, blanket,
        retry_at)."""
        while True:
            held = self._held(url)
            if held is not None:
                return held
            origin = robots_origin(url)
            round_ = self._rounds.get(origin)
            if round_ is None or round_.done():
                round_ = self._rounds[origin] = asyncio.get_running_loop().create_task(self._round(url))
                round_.add_done_callback(functools.partial(self._ended, origin))
            answer = await asyncio.shield(round_)
            if answer is not None:
                return answer

    async def aclose(self) -> None:
        """Cancels the fetches under way (their leases go back) and frees
        this worker's copies; later calls raise ClosedError."""
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

    def _held(self, url: Union[str, bytes]) -> Optional[Answer]:
        """The held copy's answer while it is not due: no Redis call."""
        got = self._cache._core.lookup(url, self._when, now=self._cache._at(None))
        return got.answer if isinstance(got, SharedLookup) else None

    def _ended(self, origin: str, round_: asyncio.Task[Optional[Answer]]) -> None:
        if self._rounds.get(origin) is round_:
            del self._rounds[origin]
        if not round_.cancelled():
            round_.exception()  # whoever waits gets it; nobody else must

    async def _round(self, url: Union[str, bytes]) -> Optional[Answer]:
        """One look at Redis: the answer, or None to look again."""
        try:
            got = await self._cache.lookup(url, when_fetching=self._when)
        except RedisError as error:
            return await self._redis_down(error, url)
        if got.kind == "ready":
            return got.answer
        if got.lease is not None:
            return await self._fetch_and_store(got.lease, url)
        left = self._cache._core.ms_until(got.until or 0, now=self._cache._at(None))
        await asyncio.sleep(min(max(left, 1), _POLL_MS) / 1000)
        return None

    async def _fetch_and_store(self, lease: SharedLease, url: Union[str, bytes]) -> Answer:
        """Fetches under the lease, renewed meanwhile, stores, and answers
        with what was fetched, even when the fleet did not take it."""
        request = FetchRequest(lease.robots_url, lease.origin, lease.etag, lease.last_modified)
        renewing = asyncio.ensure_future(self._renew(lease))
        try:
            outcome = await _fetched(self._fetch, request, self._timeout, self._on_fetch_error)
            renewing.cancel()
            _, answer, _ = await self._cache._store(lease, outcome.status, None, _outcome_keywords(outcome))
        except RedisError as error:  # Redis answered the store with what no store answers
            return await self._redis_down(error, url)
        except BaseException:  # aclose(), or a fetcher that returns no outcome: a bug to fix
            if not lease.ended:
                try:
                    await self._cache.abandon(lease)
                except Exception:  # the lease runs out by itself
                    pass
            raise
        finally:
            renewing.cancel()
        # The copy now held answers with its retry_at (the core's stored
        # answer has none); one due at once answers as stored.
        return self._held(url) or answer

    async def _renew(self, lease: SharedLease) -> None:
        while True:
            await asyncio.sleep(self._cache.renew_every_ms / 1000)
            try:
                if not await self._cache.renew(lease):
                    return
            except RedisError:  # counted; the next renewal may get through
                pass

    async def _redis_down(self, error: RedisError, url: Union[str, bytes]) -> Answer:
        if self._fallback is None:
            return self._cache._core.fail_safe(url, now=self._cache._at(None))
        if not self._warned:
            self._warned = True
            _warn_fallback("SharedRobotsCache", error)
        return await self._fallback.answer_for(url)


class SharedPacer:
    """Each host's pace for a fleet of asyncio workers, kept in Redis:
    ``await pacer.wait(host)`` before each request, ``await
    pacer.record(host, status)`` after it. Slots go in order across every
    worker; a 429 or 5xx, a ``Retry-After``, a slower pace or a kill switch
    recorded by any worker holds back every request not yet started. A pace
    Redis lost comes back from the workers that knew it, strictest first
    (each remembers ``known_capacity`` hosts, 10,000).

    Options: those of :class:`~robotstxt.Pacer` but capacity, ``prefix``,
    ``retain_ms`` (Redis keeps an idle pace 24 h), ``known_capacity``,
    ``local_fallback``, ``on_redis_error``, ``clock``: give every worker the
    same. Redis unreachable: every call raises :class:`~robotstxt.RedisError`.
    """

    def __init__(
        self, redis: RedisClient, *, prefix: str = "robotstxt:", floor_ms: Optional[float] = None,
        backoff_cap_ms: Optional[float] = None, max_in_flight: Optional[int] = None,
        in_flight_timeout_ms: Optional[float] = None, retain_ms: int = DAY_MS, known_capacity: int = 10_000,
        local_fallback: bool = False, on_redis_error: Optional[RedisHook] = None, clock: Optional[Clock] = None,
    ) -> None:
        self._redis = _Redis(redis, on_redis_error)
        pace: Dict[str, Any] = dict(floor_ms=floor_ms, backoff_cap_ms=backoff_cap_ms, max_in_flight=max_in_flight,
                                    in_flight_timeout_ms=in_flight_timeout_ms)
        self._core = FleetPacer(prefix=prefix, retain_ms=retain_ms, known_capacity=known_capacity, **pace)
        self._clock: Optional[Clock] = _function(clock, "clock")
        self._fallback: Optional[AsyncPacer] = None
        if _flag(local_fallback, "local_fallback"):
            self._fallback = AsyncPacer(clock=clock, **{k: v for k, v in pace.items() if v is not None})
        self._warned = self._down = False

    async def reserve(self, host: Union[str, bytes]) -> Optional[SharedTicket]:
        """Reserves the next start slot for ``host`` across the fleet, or
        None while the host is switched off."""
        return await self._ask(self._core.reserve(host, now=self._now()), self._core.reserve_reply)

    async def confirm(self, ticket: SharedTicket) -> SharedConfirm:
        """Whether ``ticket``'s request may be sent now, as
        :meth:`Pacer.confirm <robotstxt.Pacer.confirm>`."""
        call = self._core.confirm(ticket, now=self._now())
        return await self._ask(call, functools.partial(self._core.confirm_reply, ticket))

    async def cancel(self, ticket: SharedTicket) -> None:
        """Spends an unsent ticket, giving its slot back when it is the
        last one handed out. Does nothing for a spent ticket."""
        call = self._core.cancel(ticket, now=self._now())
        if call is not None:
            await self._ask(call, self._core.step_reply)

    async def record(
        self, host: Union[str, bytes], status: Optional[int], *, retry_after_ms: Optional[float] = None
    ) -> None:
        """Reports how a request :meth:`wait` let go ended: its HTTP status
        (None: no response) and ``Retry-After`` in ms."""
        call = self._core.record(host, status, retry_after_ms=retry_after_ms, now=self._now())
        await self._ask(call, self._core.step_reply)

    async def set_rules(self, host: Union[str, bytes], rules: Rules) -> None:
        """Sets ``host``'s own pace from a crawler's rules, for the fleet."""
        if not isinstance(rules, Rules):
            raise ArgumentTypeError(f"rules must be a Rules, not {type(rules).__name__}")
        await self._ask(self._core.set_delay(host, pace_ms(rules), now=self._now()), self._core.step_reply)

    async def set_delay(self, host: Union[str, bytes], crawl_delay: Optional[float] = None,
                        request_rate: Union[RequestRate, Tuple[int, int], None] = None) -> None:
        """Sets ``host``'s own pace: crawl_delay in seconds, request_rate (a
        RequestRate or a (requests, seconds) pair)."""
        ms = pace_ms(crawl_delay, request_rate)
        await self._ask(self._core.set_delay(host, ms, now=self._now()), self._core.step_reply)

    async def set_enabled(self, host: Union[str, bytes], enabled: bool) -> None:
        """Switches ``host`` off for the whole fleet, or back on."""
        await self._ask(self._core.set_enabled(host, enabled, now=self._now()), self._core.step_reply)

    async def gap_ms(self, host: Union[str, bytes]) -> int:
        """The gap now applied between two starts to ``host``, in ms."""
        return (await self._ask(self._core.pace_state(host, now=self._now()), self._core.pace_state_reply))[0]

    async def in_flight(self, host: Union[str, bytes]) -> int:
        """How many requests to ``host`` are in flight across the fleet."""
        return (await self._ask(self._core.pace_state(host, now=self._now()), self._core.pace_state_reply))[1]

    async def wait(self, host: Union[str, bytes]) -> int:
        """Sleeps until the fleet's next slot for ``host`` and returns its
        start (epoch ms, the fleet's clock): send at once, then
        :meth:`record`. Raises HostDisabledError, RedisError (with
        local_fallback: paces by this worker's own AsyncPacer instead)."""
        if self._fallback is not None and self._down:
            return await self._fallback_wait(host)
        try:
            ticket = await self.reserve(host)
        except RedisError:
            if self._fallback is None:
                raise
            return await self._fallback_wait(host)
        if ticket is None:
            raise _disabled(host)
        try:
            until, busy = ticket.start, False
            while True:
                left = self._core.ms_until(until, now=self._now())
                if left > 0:  # a place in flight may free sooner: look again
                    await asyncio.sleep(min(left, _POLL_MS) / 1000 if busy else left / 1000)
                got = await self.confirm(ticket)
                if got.kind == "disabled":
                    raise _disabled(host)
                if got.at is not None:
                    return got.at
                until, busy = got.until or 0, got.busy
        except HostDisabledError:
            raise
        except BaseException:
            try:
                await self.cancel(ticket)
            except Exception:
                pass
            raise

    async def aclose(self) -> None:
        """Ends this pacer: later calls raise ClosedError."""
        self._core.close()

    async def __aenter__(self) -> SharedPacer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _now(self) -> Optional[float]:
        return None if self._clock is None else self._clock()

    def _failed(self) -> None:
        self._down = True

    async def _ask(self, call: FleetCall, read: Read[_T]) -> _T:
        got = await self._redis.ask(call, read, self._failed)
        self._down = False
        return got

    async def _fallback_wait(self, host: Union[str, bytes]) -> int:
        assert self._fallback is not None
        if not self._warned:
            self._warned = True
            _warn_fallback("SharedPacer", RuntimeError("see the last on_redis_error"))
        return await self._fallback.wait(host)
