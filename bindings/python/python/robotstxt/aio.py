"""asyncio: robots.txt fetched once per origin, and requests paced per host.

The core does no I/O and sleeps never; this module adds the waiting:

- :class:`AsyncRobotsCache`: ``await cache.rules_for(url, token)``, with each
  origin's ``/robots.txt`` fetched by your own async *fetcher*, once however
  many tasks ask at the same moment (they share one fetch);
- :class:`AsyncPacer`: ``await pacer.wait(host)`` sleeps until the request
  may start (reserve, sleep, confirm), waking early when the host's pace
  changes; call ``pacer.record(host, status)`` when the request ends;
- :func:`httpx_fetcher` and :func:`aiohttp_fetcher`: fetchers over httpx or
  aiohttp (optional extras: ``pip install robotstxt-engine[httpx]``),
  imported only when called.

Both classes belong to one event loop: make and use each inside it.

>>> async def crawl(urls):                                  # doctest: +SKIP
...     async with httpx.AsyncClient() as client:
...         robots = AsyncRobotsCache(httpx_fetcher(client, user_agent="ExampleBot/1.0"))
...         pacer = AsyncPacer()
...         for url in urls:
...             rules = await robots.rules_for(url, "ExampleBot")
...             if not rules.can_fetch(url):
...                 continue
...             host = urllib.parse.urlsplit(url).netloc
...             pacer.set_rules(host, rules)
...             await pacer.wait(host)
...             response = await client.get(url)
...             pacer.record(host, response.status_code,
...                          retry_after_ms=retry_after_ms(response.headers.get("retry-after")))
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Awaitable,
    Callable,
    Dict,
    Literal,
    Optional,
    Protocol,
    Set,
    Tuple,
    Union,
)

from ._http import max_age_ms, response_fields, retry_after_ms
from ._robotstxt import (
    Answer,
    ArgumentTypeError,
    Cache,
    CacheStats,
    HostDisabledError,
    InvalidLeaseError,
    Lease,
    Pacer,
    RequestRate,
    Rules,
    origin,
)

if TYPE_CHECKING:
    import aiohttp
    import httpx

__all__ = [
    "AsyncPacer",
    "AsyncRobotsCache",
    "FetchOutcome",
    "FetchRequest",
    "Fetcher",
    "aiohttp_fetcher",
    "httpx_fetcher",
    "retry_after_ms",
    "max_age_ms",
]

Clock = Callable[[], float]
"""A clock in milliseconds (by default the system clock since the Unix epoch)."""


def _system_ms() -> float:
    return time.time() * 1000


@dataclass(frozen=True)
class FetchRequest:
    """What a fetcher is asked to fetch: ``robots_url``, conditionally when
    ``etag`` (send ``If-None-Match``) or ``last_modified`` (send
    ``If-Modified-Since``) is set."""

    robots_url: str
    origin: str
    etag: Optional[str] = None
    last_modified: Optional[str] = None


@dataclass(frozen=True)
class FetchOutcome:
    """What a fetch of ``/robots.txt`` returned.

    ``status`` is the final HTTP status, or None for a network error or a
    timeout; ``redirects`` how many redirects were followed to reach it (more
    than 5 reaching a 2xx: allow everything); ``body`` the 2xx body;
    ``max_age_ms`` the ``Cache-Control: max-age`` (it may shorten a copy's
    day of freshness, never lengthen it); ``retry_after_ms`` the
    ``Retry-After`` of a failed answer (the next try then comes after it,
    kept between 1 minute and 24 hours); ``etag`` and ``last_modified`` the
    validators of a 2xx. Answer a conditional request's 304 with
    ``FetchOutcome(304)``: the old copy stays, renewed.
    """

    status: Optional[int]
    body: bytes = b""
    redirects: int = 0
    max_age_ms: Optional[int] = None
    retry_after_ms: Optional[int] = None
    etag: Optional[str] = None
    last_modified: Optional[str] = None


class Fetcher(Protocol):
    """An async function that fetches ``request.robots_url``.

    It returns a :class:`FetchOutcome`. Raising (any ``Exception``) counts as
    a network error: everything is disallowed (or the old copy kept) until
    the next try.
    """

    def __call__(self, request: FetchRequest) -> Awaitable[FetchOutcome]: ...


FetchErrorHook = Callable[[BaseException, FetchRequest], None]
"""Hears of a failed fetch: the exception (a timeout included) and the request."""


async def _fetched(
    fetch: Fetcher, request: FetchRequest, timeout: float, on_error: Optional[FetchErrorHook]
) -> FetchOutcome:
    """What ``fetch`` gave for ``request``: its outcome, or a network error's
    (status None) when it raised or took longer than ``timeout`` seconds
    (behaviour §6), told to ``on_error``. A cancellation passes through.

    Raises ArgumentTypeError when the fetcher returned no FetchOutcome: a
    bug to fix, not a failed fetch.
    """
    try:
        outcome: object = await asyncio.wait_for(fetch(request), timeout)
    except Exception as error:  # a network error or a timeout
        if on_error is not None:
            try:
                on_error(error, request)
            except Exception:  # a hook that raises must not turn a failed fetch into a crash
                pass
        return FetchOutcome(None)
    if not isinstance(outcome, FetchOutcome):
        raise ArgumentTypeError(f"the fetcher must return a FetchOutcome, not {type(outcome).__name__}")
    return outcome


def _outcome_keywords(outcome: FetchOutcome) -> Dict[str, Any]:
    """``outcome`` but its status, as the keywords of Cache.store and
    Entry.record."""
    return {
        "body": outcome.body,
        "redirects": outcome.redirects,
        "max_age_ms": outcome.max_age_ms,
        "retry_after_ms": outcome.retry_after_ms,
        "etag": outcome.etag,
        "last_modified": outcome.last_modified,
    }


class AsyncRobotsCache:
    """robots.txt per origin for asyncio code, fetched by ``fetch``.

    ``await cache.rules_for(url, token)`` gives the :class:`~robotstxt.Rules`
    for ``token`` at ``url``'s origin: the file's rules, or rules that allow
    everything (a 404) or disallow everything (a 5xx, 429, network error:
    until ``rules.retry_at``). It never raises for a failed fetch.

    - **One fetch per origin.** While an origin's file is fetched, every
      other caller for that origin awaits the same fetch: 100 concurrent
      calls on one new origin call ``fetch`` once. While an old copy is
      refreshed, the other callers answer from it at once.
    - **Time-boxed.** A fetch that takes longer than ``timeout`` seconds
      (default: the cache's ``lease_ms``, 60 s) is cancelled and stored as a
      network error. ``on_fetch_error(error, request)`` hears of failed
      fetches.
    - **Cancellation.** A caller cancelled while it waits leaves the fetch
      running for the others; it still fills the cache.
    - ``when_fetching="disallow-all"`` answers the callers that would wait
      for the first fetch of an origin with disallow-all rules at once.

    ``clock`` gives the time in ms (default: the system clock). Every other
    keyword is an option of :class:`~robotstxt.Cache` (capacity, lease_ms,
    fresh_for_ms, retry_ms, policy, profile, ...).
    """

    def __init__(
        self,
        fetch: Fetcher,
        *,
        clock: Optional[Clock] = None,
        when_fetching: Literal["wait", "disallow-all"] = "wait",
        timeout: Optional[float] = None,
        on_fetch_error: Optional[FetchErrorHook] = None,
        **cache_options: Any,
    ) -> None:
        if not callable(fetch):
            raise TypeError(f"fetch must be an async function (FetchRequest) -> FetchOutcome, not {type(fetch).__name__}")
        self._cache = Cache(**cache_options)
        self._fetch = fetch
        self._clock: Clock = clock if clock is not None else _system_ms
        self._when: Literal["wait", "disallow-all"] = when_fetching
        self._on_error = on_fetch_error
        lease_ms = cache_options.get("lease_ms")
        self._timeout = timeout if timeout is not None else (lease_ms if lease_ms is not None else 60_000) / 1000
        # Fetches under way: origin -> the future of its answer (None: ask
        # the cache again).
        self._rounds: Dict[str, asyncio.Future[Optional[Answer]]] = {}
        self._tasks: Set[asyncio.Task[None]] = set()

    @property
    def cache(self) -> Cache:
        """The sans-I/O cache underneath (its stats, remove, lookup)."""
        return self._cache

    @property
    def stats(self) -> CacheStats:
        """The cache's counters."""
        return self._cache.stats

    @property
    def fetching(self) -> int:
        """How many fetches are under way."""
        return len(self._rounds)

    def __len__(self) -> int:
        return len(self._cache)

    def remove(self, url: str) -> bool:
        """Forgets ``url``'s origin; returns whether it was held."""
        return self._cache.remove(url)

    async def rules_for(self, url: Union[str, bytes], token: Union[str, bytes]) -> Rules:
        """The rules for ``token`` at ``url``'s origin, fetching its
        robots.txt first when no fresh copy is held.

        Raises InvalidUrlError for a URL the cache cannot key (not absolute
        http/https), InvalidTokenError for a token that is not a product
        token (RFC profile); never for a failed fetch.
        """
        answer = await self.answer_for(url)
        return answer.rules_for(token)

    async def answer_for(self, url: Union[str, bytes]) -> Answer:
        """What answers for ``url``'s origin (its kind, robots for the
        sitemaps, blanket), fetching first when needed."""
        while True:
            now = self._clock()
            got = self._cache.lookup(url, now=now, when_fetching=self._when)
            if got.kind == "ready":
                assert got.answer is not None
                return got.answer
            round_: Optional[asyncio.Future[Optional[Answer]]]
            if got.kind == "fetch":
                lease = got.lease
                assert lease is not None
                round_ = self._rounds.get(lease.origin)
                if round_ is None:
                    round_ = self._start(lease, url)
                else:
                    # The cache's lease ran out by its clock while our fetch
                    # still runs: keep the one fetch under way.
                    self._cache.abandon(lease)
            else:
                round_ = self._rounds.get(origin(url))
            if round_ is None:
                # Nobody's fetch to share (another clock moved on): ask again
                # when the other lease runs out, or soon.
                until = got.until if got.until is not None else now + 1000
                await asyncio.sleep(min(max(until - now, 1), 1000) / 1000)
                continue
            answer = await asyncio.shield(round_)
            if answer is not None:
                return answer

    def _start(self, lease: Lease, url: Union[str, bytes]) -> asyncio.Future[Optional[Answer]]:
        loop = asyncio.get_running_loop()
        round_: asyncio.Future[Optional[Answer]] = loop.create_future()
        self._rounds[lease.origin] = round_
        task = loop.create_task(self._run(lease, url, round_))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return round_

    async def _run(self, lease: Lease, url: Union[str, bytes], round_: asyncio.Future[Optional[Answer]]) -> None:
        request = FetchRequest(lease.robots_url, lease.origin, lease.etag, lease.last_modified)
        try:
            outcome = await _fetched(self._fetch, request, self._timeout, self._on_error)
            answer = self._store(lease, url, outcome)
        except asyncio.CancelledError:  # aclose(): the waiters are cancelled too
            self._end(lease, round_, None, None)
            raise
        except Exception as error:  # a fetcher that returns no outcome: a bug to fix
            self._end(lease, round_, None, error)
        else:
            self._end(lease, round_, answer, None)

    def _end(
        self,
        lease: Lease,
        round_: asyncio.Future[Optional[Answer]],
        answer: Optional[Answer],
        error: Optional[BaseException],
    ) -> None:
        stored = lease.ended
        if not stored:
            try:
                self._cache.abandon(lease)
            except InvalidLeaseError:
                pass
        if self._rounds.get(lease.origin) is round_:
            del self._rounds[lease.origin]
        if round_.done():
            return
        if error is not None:
            round_.set_exception(error)
            round_.exception()  # whoever still waits gets it; nobody else must
        elif not stored:
            round_.cancel()
        else:
            round_.set_result(answer)

    def _store(self, lease: Lease, url: Union[str, bytes], outcome: FetchOutcome) -> Optional[Answer]:
        now = self._clock()
        self._cache.store(lease, outcome.status, now=now, **_outcome_keywords(outcome))
        got = self._cache.lookup(url, now=now, when_fetching=self._when)
        if got.kind == "ready":
            return got.answer
        if got.kind == "fetch" and got.lease is not None:
            # Fresh for no time at all (max-age 0, or fresh_for_ms 0): the
            # callers of this fetch get what it stored, as of the millisecond
            # before it went stale; the next call fetches again.
            self._cache.abandon(got.lease)
            if now >= 1:
                before = self._cache.lookup(url, now=now - 1, when_fetching=self._when)
                if before.kind == "ready":
                    return before.answer
        return None

    async def aclose(self) -> None:
        """Cancels the fetches under way (their callers get disallow-all
        rules on their next call, when the fetch is handed out again)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def __aenter__(self) -> AsyncRobotsCache:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class AsyncPacer:
    """The pacer for asyncio code: ``await pacer.wait(host)`` before each
    request, ``pacer.record(host, status)`` after it.

    ``wait`` reserves the host's next start slot, sleeps until it and
    confirms it just before returning, so that the starts of requests to one
    host are at least max(floor, Crawl-delay, request-rate interval) apart
    (by ``clock``, to the fraction of a millisecond) however many tasks wait, at most ``max_in_flight`` (default 1) are in
    flight, and a 429 or 5xx, a ``Retry-After``, a slower pace or a kill
    switch recorded while tasks wait holds back every request not yet
    started. A waiting task wakes early when ``record``, ``set_rules``,
    ``set_delay`` or ``set_enabled`` is called for its host.

    Every request ``wait`` lets go must be reported with ``record`` when it
    ends (it frees its in-flight place; one never reported frees it after
    ``in_flight_timeout_ms``). A task cancelled while it waits gives its slot
    back when it is the last one.

    ``clock`` gives the time in ms (default: the system clock); the other
    keywords are the options of :class:`~robotstxt.Pacer`, or pass a
    ``pacer`` of your own.
    """

    def __init__(self, pacer: Optional[Pacer] = None, *, clock: Optional[Clock] = None, **pacer_options: Any) -> None:
        if pacer is not None and pacer_options:
            raise TypeError("pass either a Pacer or its options, not both")
        self._pacer = pacer if pacer is not None else Pacer(**pacer_options)
        self._clock: Clock = clock if clock is not None else _system_ms
        # Host (as the pacer keys it) -> the event its waiters sleep on; set
        # and replaced whenever something changes for the host.
        self._events: Dict[str, asyncio.Event] = {}
        # Host -> (last start, no start before), by the clock unrounded: the
        # pacer counts whole milliseconds, and a start recorded up to 1 ms
        # early would let the next one come up to 1 ms too soon.
        self._guards: Dict[str, Tuple[float, float]] = {}

    @property
    def pacer(self) -> Pacer:
        """The sans-I/O pacer underneath."""
        return self._pacer

    def _wake(self, host: Union[str, bytes]) -> None:
        event = self._events.pop(_host_key(host), None)
        if event is not None:
            event.set()

    async def wait(self, host: Union[str, bytes]) -> int:
        """Sleeps until a request to ``host`` may start and returns its start
        (ms, by the pacer's clock). Send the request at once, and report its
        end with :meth:`record`.

        Raises HostDisabledError while the host is switched off (also for
        the waits under way when it is switched off), InvalidHostError for
        an empty or over-long host, PacerFullError as Pacer.reserve.
        """
        ticket = self._pacer.reserve(host, now=self._clock())
        if ticket is None:
            raise _disabled(host)
        try:
            until: float = ticket.start if ticket.start is not None else 0
            while True:
                await self._sleep(ticket.host, until)
                now = self._clock()
                confirm = self._pacer.confirm(ticket, now=now)
                if confirm.kind == "go":
                    return await self._started(ticket.host, host)
                if confirm.kind == "disabled":
                    raise _disabled(host)
                until = confirm.until if confirm.until is not None else now
        except BaseException:
            if not ticket.spent:
                self._pacer.cancel(ticket)
            raise

    async def _started(self, key: str, host: Union[str, bytes]) -> int:
        """Records a start the pacer let go, after the sub-millisecond rest of
        the gap and of any Retry-After has passed."""
        last, not_before = self._guards.get(key, (-math.inf, -math.inf))
        hold = max(last + self._pacer.gap_ms(host), not_before)
        now = self._clock()
        if now < hold:
            await asyncio.sleep((hold - now) / 1000)
            now = self._clock()
        if len(self._guards) >= 10_000:  # forget hosts idle for an hour
            self._guards = {k: v for k, v in self._guards.items() if max(v) > now - 3_600_000}
        self._guards[key] = (now, not_before)
        return int(now)

    async def _sleep(self, key: str, until: float) -> None:
        """Sleeps until ``until`` (ms) or until the host's event is set."""
        delay = (until - self._clock()) / 1000
        if delay <= 0:
            return
        event = self._events.get(key)
        if event is None:
            event = self._events[key] = asyncio.Event()
        try:
            await asyncio.wait_for(event.wait(), delay)
        except asyncio.TimeoutError:
            pass

    def record(
        self,
        host: Union[str, bytes],
        status: Optional[int],
        *,
        retry_after_ms: Optional[float] = None,
    ) -> None:
        """Reports how a request that ``wait`` let go ended: its HTTP status
        (None for a network error) and ``Retry-After`` in ms. Frees its
        in-flight place; a 429 or 5xx slows the host down."""
        now = self._clock()
        self._pacer.record(host, status, retry_after_ms=retry_after_ms, now=now)
        if retry_after_ms is not None and status is not None and (status == 429 or 500 <= status <= 599):
            key = _host_key(host)
            last, not_before = self._guards.get(key, (-math.inf, -math.inf))
            until = now + min(retry_after_ms, 86_400_000)  # a day at most, as the pacer
            self._guards[key] = (last, max(not_before, until))
        self._wake(host)

    def set_rules(self, host: Union[str, bytes], rules: Rules) -> None:
        """Sets the host's pace from its rules (Crawl-delay, Request-rate)."""
        self._pacer.set_rules(host, rules)
        self._wake(host)

    def set_delay(
        self,
        host: Union[str, bytes],
        crawl_delay: Optional[float] = None,
        request_rate: Union[RequestRate, Tuple[int, int], None] = None,
    ) -> None:
        """Sets the host's pace: crawl_delay in seconds, request_rate."""
        self._pacer.set_delay(host, crawl_delay, request_rate)
        self._wake(host)

    def set_enabled(self, host: Union[str, bytes], enabled: bool) -> None:
        """Switches the host off (the waits under way raise
        HostDisabledError) or back on."""
        self._pacer.set_enabled(host, enabled)
        self._wake(host)

    def gap_ms(self, host: Union[str, bytes]) -> int:
        """The gap now applied between two starts to ``host``, in ms."""
        return self._pacer.gap_ms(host)

    def in_flight(self, host: Union[str, bytes]) -> int:
        """How many requests to ``host`` are in flight now."""
        return self._pacer.in_flight(host, now=self._clock())


def _host_key(host: Union[str, bytes]) -> str:
    """The host as the pacer keys it (ASCII lower case), as Ticket.host."""
    raw = host if isinstance(host, bytes) else host.encode("utf-8", "surrogatepass")
    return raw.lower().decode("utf-8", "replace")


def _disabled(host: Union[str, bytes]) -> HostDisabledError:
    text = host.decode("latin-1") if isinstance(host, bytes) else host
    error = HostDisabledError(
        f"host {text!r} is switched off: pacer.set_enabled(host, True) switches it back on"
    )
    error.host = text
    return error


# ---------------------------------------------------------------------------
# Ready-made fetchers.

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_DEFAULT_MAX_BYTES = 4 * 1024 * 1024


def _headers(request: FetchRequest, user_agent: Optional[str], extra: Optional[Dict[str, str]]) -> Dict[str, str]:
    headers = dict(extra or {})
    if user_agent is not None:
        headers["User-Agent"] = user_agent
    if request.etag:
        headers["If-None-Match"] = request.etag
    if request.last_modified:
        headers["If-Modified-Since"] = request.last_modified
    return headers


def _outcome(
    status: int,
    redirects: int,
    body: bytes,
    header: Callable[[str], Optional[str]],
    min_max_age_ms: int,
) -> FetchOutcome:
    # The header values as they came: the core reads them (behaviour §11).
    fields, _ignored = response_fields(header, min_max_age_ms)
    return FetchOutcome(
        status=status,
        body=body if 200 <= status < 300 else b"",
        redirects=redirects,
        **fields,
    )


def _check_counts(max_bytes: int, max_redirects: int, min_max_age_ms: int) -> None:
    if max_bytes < 1 or max_redirects < 0 or min_max_age_ms < 0:
        raise ValueError("max_bytes must be ≥ 1, max_redirects and min_max_age_ms ≥ 0")


def httpx_fetcher(
    client: Optional[httpx.AsyncClient] = None,
    *,
    user_agent: Optional[str] = None,
    headers: Optional[Dict[str, str]] = None,
    max_bytes: int = _DEFAULT_MAX_BYTES,
    max_redirects: int = 20,
    min_max_age_ms: int = 60_000,
) -> Fetcher:
    """A fetcher over an ``httpx.AsyncClient`` (a new one per fetch when
    ``client`` is None; needs ``pip install robotstxt-engine[httpx]``).

    It sends ``user_agent`` and the validators, follows redirects itself to
    count them (up to ``max_redirects``), reads at most ``max_bytes`` of a
    2xx body, and reports ``Cache-Control: max-age`` (raised to at least
    ``min_max_age_ms``, so that a ``max-age=0`` does not turn a crawl into a
    robots.txt fetch per page), ``Retry-After``, ``ETag`` and
    ``Last-Modified``. A network error raises, which the cache stores as
    "no response".
    """
    import httpx

    _check_counts(max_bytes, max_redirects, min_max_age_ms)

    async def fetch(request: FetchRequest) -> FetchOutcome:
        sent = _headers(request, user_agent, headers)
        own = client is None
        http = httpx.AsyncClient() if client is None else client
        try:
            url = request.robots_url
            redirects = 0
            while True:
                async with http.stream("GET", url, headers=sent, follow_redirects=False) as response:
                    location = response.headers.get("location")
                    if response.status_code in _REDIRECTS and location is not None and redirects < max_redirects:
                        url = str(response.url.join(location))
                        redirects += 1
                        continue
                    body = b""
                    if 200 <= response.status_code < 300:
                        chunks = []
                        size = 0
                        async for chunk in response.aiter_bytes():
                            chunks.append(chunk[: max_bytes - size])
                            size += len(chunks[-1])
                            if size >= max_bytes:
                                break
                        body = b"".join(chunks)
                    return _outcome(response.status_code, redirects, body, response.headers.get, min_max_age_ms)
        finally:
            if own:
                await http.aclose()

    return fetch


def aiohttp_fetcher(
    session: Optional[aiohttp.ClientSession] = None,
    *,
    user_agent: Optional[str] = None,
    headers: Optional[Dict[str, str]] = None,
    max_bytes: int = _DEFAULT_MAX_BYTES,
    max_redirects: int = 20,
    min_max_age_ms: int = 60_000,
) -> Fetcher:
    """A fetcher over an ``aiohttp.ClientSession`` (a new one per fetch when
    ``session`` is None; needs ``pip install robotstxt-engine[aiohttp]``).
    It behaves as :func:`httpx_fetcher`."""
    import aiohttp
    from yarl import URL

    _check_counts(max_bytes, max_redirects, min_max_age_ms)

    async def fetch(request: FetchRequest) -> FetchOutcome:
        sent = _headers(request, user_agent, headers)
        own = session is None
        http = aiohttp.ClientSession() if session is None else session
        try:
            url = URL(request.robots_url)
            redirects = 0
            while True:
                async with http.get(url, headers=sent, allow_redirects=False) as response:
                    location = response.headers.get("location")
                    if response.status in _REDIRECTS and location is not None and redirects < max_redirects:
                        url = url.join(URL(location))
                        redirects += 1
                        continue
                    body = b""
                    if 200 <= response.status < 300:
                        chunks = []
                        size = 0
                        async for chunk in response.content.iter_chunked(64 * 1024):
                            chunks.append(chunk[: max_bytes - size])
                            size += len(chunks[-1])
                            if size >= max_bytes:
                                break
                        body = b"".join(chunks)
                    return _outcome(response.status, redirects, body, response.headers.get, min_max_age_ms)
        finally:
            if own:
                await http.close()

    return fetch

