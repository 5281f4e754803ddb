"""Scrapy: a robots.txt parser for ``ROBOTSTXT_PARSER``, and a downloader
middleware that replaces Scrapy's ``RobotsTxtMiddleware``.

The parser alone (Scrapy's middleware decides what to fetch and when)::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotstxt.scrapy.RobotParser"

The middleware (it also reads what the robots.txt *fetch* returned, keeps a
copy for a day, and retries an unreachable site later)::

    ROBOTSTXT_OBEY = True
    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robotstxt.scrapy.RobotsTxtMiddleware": 100,
    }

Scrapy's own middleware parses whatever body the robots.txt request
returned, whatever its status (a 503 error page becomes "allow
everything"), treats a download error as "no robots.txt" (allow
everything), and keeps each site's answer for the whole crawl. This one
applies the fetch-outcome policy of RFC 9309 (see :mod:`robotstxt.access`),
follows robots.txt redirects itself (RFC 9309 §2.3.1.2), and paces each
site by its ``Crawl-delay`` or ``Request-rate`` through Scrapy's download
slots. Pacing is on by default; to leave the slots as the project set them::

    ROBOTSTXT_CRAWL_DELAY = False
"""

from __future__ import annotations

import logging
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Tuple, Union, cast
from urllib.parse import urljoin, urlparse

import scrapy.robotstxt
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, IgnoreRequest, NotConfigured
from scrapy.http import Request
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred
from w3lib.url import safe_url_string

from ._agents import ANY_CRAWLER, rules_for_agent, token_of
from ._http import response_fields
from ._robotstxt import Answer, Cache, Error, InvalidUrlError, Lease, Robots, Rules, origin, pace_ms

if TYPE_CHECKING:
    from scrapy.core.downloader import Slot
    from scrapy.crawler import Crawler
    from scrapy.http import Response

__all__ = ["RobotParser", "RobotsTxtMiddleware"]

logger = logging.getLogger(__name__)

# The redirect statuses, as Scrapy's RedirectMiddleware follows them.
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
# RFC 9309 §2.3.1.2 asks for at least five. Past five, a 2xx allows
# everything (behaviour §6); a chain still redirecting here (a loop) ends as
# an unfollowed 3xx. The bound of robotstxt.aio's fetchers.
_MAX_REDIRECTS = 20


class RobotParser(scrapy.robotstxt.RobotParser):
    """Scrapy's ``RobotParser`` over the robotstxt engine, for
    ``ROBOTSTXT_PARSER = "robotstxt.scrapy.RobotParser"``.

    It answers as RFC 9309 says: the longest matching rule wins, the
    crawler's groups are matched by product token (merged when several name
    it), percent-encoding is normalised. Scrapy passes the request's
    User-Agent header (or ``ROBOTSTXT_USER_AGENT``): its product token is
    used (``"ExampleBot/1.0 (+https://…)"`` asks as ``ExampleBot``); a header
    that names no crawler (a browser's) gets the ``*`` groups' rules.
    ``ROBOTSTXT_PROFILE = "google"`` answers as Google's parser does.

    The body is parsed as bytes, as it came: no decoding step can turn a
    file in another encoding into "allow everything".
    """

    def __init__(self, robots: Robots) -> None:
        self.robots = robots
        self._rules: Dict[Union[str, bytes], Rules] = {}

    @classmethod
    def from_crawler(cls, crawler: Optional[Crawler], robotstxt_body: bytes) -> RobotParser:
        """Parses ``robotstxt_body`` (Scrapy calls this once per site)."""
        profile: Any = "rfc"
        if crawler is not None:
            profile = crawler.settings.get("ROBOTSTXT_PROFILE", "rfc")
        return cls(Robots.parse(robotstxt_body, profile=profile))

    def rules(self, user_agent: Union[str, bytes]) -> Rules:
        """The rules for the crawler ``user_agent`` names (kept per header)."""
        rules = self._rules.get(user_agent)
        if rules is None:
            rules = self._rules[user_agent] = rules_for_agent(self.robots, user_agent)
        return rules

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        """Whether ``user_agent`` may fetch ``url``."""
        return self.rules(user_agent).can_fetch(url)

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        """The Crawl-delay for ``user_agent`` in seconds, or None."""
        return self.rules(user_agent).crawl_delay


def _now_ms() -> float:
    return time.time() * 1000


def _when(ms: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(ms / 1000))


class RobotsTxtMiddleware:
    """A downloader middleware that replaces Scrapy's ``RobotsTxtMiddleware``
    (see the module's docstring for the two settings).

    - **The fetch outcome counts** (behaviour §6): a 2xx is parsed; a 404 (any
      4xx but 401, 403, 429) allows everything; a 5xx, 429, 401/403, an
      unfollowed redirect or a download error disallows everything until
      the next try, one hour later (``ROBOTSTXT_RETRY_SECONDS``) or after the
      ``Retry-After`` (kept between 1 minute and 24 hours).
    - **Redirects are followed** (RFC 9309 §2.3.1.2), to another host too,
      up to 20 of them: a file reached in at most five is obeyed, one
      reached after more allows everything (behaviour §6), and a chain that
      goes on (a loop) ends as an unfollowed redirect. What it reaches is
      kept as the copy of the origin first asked.
    - **Crawl-delay paces the site** (``ROBOTSTXT_CRAWL_DELAY``, on by
      default): the gap the crawler's rules ask (the larger of
      ``Crawl-delay`` and the ``Request-rate`` interval) is the least wait
      of the site's download slot. The slot waits the larger of that gap
      and its own delay (``DOWNLOAD_DELAY``, ``DOWNLOAD_SLOTS``,
      AutoThrottle's), and its random jitter is narrowed so that no wait is
      shorter than the gap. Off, the slots keep the project's delays.
    - **A copy lasts a day** (``ROBOTSTXT_FRESH_SECONDS``, shortened by a
      ``Cache-Control: max-age``), then is fetched again (conditionally, with
      its ``ETag`` or ``Last-Modified``); while the site is unreachable the
      old copy keeps answering.
    - **One fetch per site** (per origin: scheme, host and port), however
      many requests wait for it; they all wait for that fetch.
    - **Requests met while the site's robots.txt is unreachable** are not
      lost: each is put back and scheduled again at the retry time (stats
      ``robotstxt/postponed``), and the spider stays open for them. With
      ``ROBOTSTXT_POSTPONE = False`` they are dropped instead, like
      disallowed ones.
    - **It says what it decided**: one INFO line per robots.txt fetch (the
      status, what it means, when the next try is), one per site whose
      gap changes its slot's pace, a DEBUG line per refused request, and
      the stats ``robotstxt/request_count``, ``robotstxt/redirect_count``,
      ``robotstxt/response_count``, ``robotstxt/response_status_count/<status>``,
      ``robotstxt/exception_count/<type>``, ``robotstxt/access/<what it
      meant>``, ``robotstxt/forbidden``, ``robotstxt/postponed``.

    The crawler's product token comes from ``ROBOTSTXT_USER_AGENT``, else the
    request's User-Agent header (``"ExampleBot/1.0 (+https://…)"`` asks as
    ``ExampleBot``); a header that names no crawler gets the ``*`` groups'
    rules. ``ROBOTSTXT_PROFILE`` (``"rfc"`` or ``"google"``) and
    ``ROBOTSTXT_POLICY`` (``"careful"`` or ``"strict"``, see
    :func:`robotstxt.classify`) choose the reading. Requests with
    ``meta["dont_obey_robotstxt"]`` pass unchecked, as in Scrapy.
    """

    DOWNLOAD_PRIORITY = 1000

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        self.crawler = crawler
        self._stats = crawler.stats
        self._default_user_agent: str = settings.get("USER_AGENT") or ""
        self._robots_user_agent: Optional[str] = settings.get("ROBOTSTXT_USER_AGENT")
        self._postpone = settings.getbool("ROBOTSTXT_POSTPONE", True)
        self._cache = Cache(
            fresh_for_ms=settings.getfloat("ROBOTSTXT_FRESH_SECONDS", 86_400) * 1000,
            retry_ms=settings.getfloat("ROBOTSTXT_RETRY_SECONDS", 3_600) * 1000,
            policy=settings.get("ROBOTSTXT_POLICY", "careful"),
            profile=settings.get("ROBOTSTXT_PROFILE", "rfc"),
            # The download is Scrapy's, bounded by its own timeout.
            lease_ms=max(settings.getfloat("DOWNLOAD_TIMEOUT", 180), 1) * 1000 * 2,
        )
        # Fetches under way: origin -> the Deferred its waiters share.
        self._rounds: Dict[str, Deferred[None]] = {}
        # Rules selected per (scheme://netloc, token); each fetch stored
        # starts a new generation of its origin.
        self._selected: Dict[Tuple[str, str], _Selected] = {}
        self._generations: Dict[str, int] = {}
        # The delayed calls (IDelayedCall) that put postponed requests back.
        self._postponed: List[Any] = []
        # Requests let through, on their way to a download slot: (origin,
        # the gap in seconds its rules ask).
        self._gaps: weakref.WeakKeyDictionary[Request, Tuple[str, float]] = weakref.WeakKeyDictionary()
        # Download slots paced, by slot key.
        self._paces: Dict[str, _SlotPace] = {}
        self._pace_sites = settings.getbool("ROBOTSTXT_CRAWL_DELAY", True)
        crawler.signals.connect(self._spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)
        if self._pace_sites:
            crawler.signals.connect(self._reached_downloader, signal=signals.request_reached_downloader)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsTxtMiddleware:
        """Made by Scrapy from its settings (NotConfigured unless
        ROBOTSTXT_OBEY)."""
        return cls(crawler)

    @property
    def cache(self) -> Cache:
        """The cache of robots.txt copies, one per origin."""
        return self._cache

    def _user_agent(self, request: Request) -> Union[str, bytes]:
        if self._robots_user_agent:
            return self._robots_user_agent
        header = request.headers.get(b"User-Agent")
        return header if header is not None else self._default_user_agent

    async def process_request(self, request: Request, spider: Any = None) -> None:
        """Lets ``request`` through, or raises IgnoreRequest when its site's
        robots.txt disallows it (or postpones it while that is
        unreachable)."""
        if request.meta.get("dont_obey_robotstxt"):
            return None
        if not request.url.startswith(("http://", "https://", "HTTP://", "HTTPS://")):
            return None
        answer = await self._answer(request)
        selected = self._select(answer, request)
        rules = selected.rules
        if rules.can_fetch(request.url):
            if self._pace_sites:
                self._gaps[request] = (selected.site, selected.gap)
            return None
        blanket = rules.blanket
        if blanket is not None and not blanket.allowed and rules.retry_at is not None:
            self._stats.inc_value("robotstxt/unreachable")
            if self._postpone:
                self._put_back(request, rules.retry_at)
                raise IgnoreRequest(
                    f"robots.txt unreachable ({_cause(answer)}): postponed to {_when(rules.retry_at)}"
                )
        logger.debug("Forbidden by robots.txt: %(request)s", {"request": request}, extra={"spider": self.crawler.spider})
        self._stats.inc_value("robotstxt/forbidden")
        raise IgnoreRequest("Forbidden by robots.txt")

    def _select(self, answer: Answer, request: Request) -> _Selected:
        """The rules for ``request``'s crawler under ``answer``, selected
        once per site, crawler and copy (selecting compiles them)."""
        token = token_of(self._user_agent(request)) or ANY_CRAWLER
        parts = urlparse_cached(request)
        key = (f"{parts.scheme}://{parts.netloc}".lower(), token)
        kept = self._selected.get(key)
        if kept is not None and kept.generation == self._generations.get(kept.site, 0):
            return kept
        site = origin(request.url)
        rules = answer.rules_for(token)
        if len(self._selected) >= 10_000:
            self._selected.clear()
        selected = _Selected(site, self._generations.get(site, 0), rules, pace_ms(rules) / 1000)
        self._selected[key] = selected
        return selected

    async def _answer(self, request: Request) -> Answer:
        """What answers for ``request``'s origin, fetching first if needed."""
        while True:
            try:
                got = self._cache.lookup(request.url, now=_now_ms())
            except InvalidUrlError as error:
                # An authority HTTP clients read differently: which server's
                # rules apply is unclear, so none is asked.
                self._stats.inc_value("robotstxt/invalid_url")
                raise IgnoreRequest(str(error)) from error
            if got.kind == "ready":
                assert got.answer is not None
                return got.answer
            if got.kind == "fetch":
                assert got.lease is not None
                round_ = self._rounds.get(got.lease.origin)
                if round_ is None:
                    round_ = self._start(got.lease)
                else:
                    self._cache.abandon(got.lease)  # our fetch under way outlived the lease
            else:
                round_ = self._rounds.get(origin(request.url))
                if round_ is None:  # a lease not ours: look again shortly
                    from twisted.internet import reactor, task

                    await maybe_deferred_to_future(task.deferLater(reactor, 0.1, lambda: None))
                    continue
            await maybe_deferred_to_future(_shared(round_))

    def _start(self, lease: Lease) -> Deferred[None]:
        round_: Deferred[None] = Deferred()
        self._rounds[lease.origin] = round_
        d = deferred_from_coro(self._fetch(lease))

        def done(result: Any) -> None:
            self._rounds.pop(lease.origin, None)
            round_.callback(None)
            return None

        d.addBoth(done)
        return round_

    def _request(self, url: str, lease: Lease) -> Request:
        headers: Dict[str, str] = {}
        if lease.etag:
            headers["If-None-Match"] = lease.etag
        if lease.last_modified:
            headers["If-Modified-Since"] = lease.last_modified
        return Request(
            url,
            headers=headers,
            priority=self.DOWNLOAD_PRIORITY,
            # A redirect to another host is followed (RFC 9309 §2.3.1.2),
            # whatever the spider's allowed_domains.
            dont_filter=True,
            # Every status is an answer; redirects are counted here, not by
            # Scrapy (behaviour §6); no retries now: a failure is retried at
            # its own time (behaviour §7).
            meta={
                "dont_obey_robotstxt": True,
                "dont_retry": True,
                "dont_redirect": True,
                "handle_httpstatus_all": True,
            },
            callback=NO_CALLBACK,
        )

    async def _fetch(self, lease: Lease) -> None:
        request = self._request(lease.robots_url, lease)
        self._stats.inc_value("robotstxt/request_count")
        status: Optional[int] = None
        redirects = 0
        fields: Dict[str, Any] = {}
        seen = "no response"
        try:
            response: Response = await self.crawler.engine.download_async(request)
            while redirects < _MAX_REDIRECTS:
                target = _redirect_target(response)
                if target is None:
                    break
                redirects += 1
                self._stats.inc_value("robotstxt/redirect_count")
                response = await self.crawler.engine.download_async(self._request(target, lease))
        except Exception as error:
            if not isinstance(error, IgnoreRequest):
                self._stats.inc_value(f"robotstxt/exception_count/{type(error)}")
            seen = f"no response ({type(error).__name__}: {error})"
        else:
            status = response.status
            self._stats.inc_value("robotstxt/response_count")
            self._stats.inc_value(f"robotstxt/response_status_count/{status}")
            # The header values as they came: the core reads them (behaviour
            # §11); a max-age=0 must not turn a crawl into a robots.txt
            # fetch per page.
            fields, _ignored = response_fields(response.headers.get, 60_000)
            fields.update(body=response.body if 200 <= status < 300 else b"", redirects=redirects)
            seen = f"HTTP {status}"
            if redirects:
                seen += f" from {response.url} after {redirects} redirect{'s' if redirects > 1 else ''}"
        try:
            access = self._cache.store(lease, status, now=_now_ms(), **fields)
        except Error as error:  # a late answer behind a newer copy: dropped
            logger.debug("robots.txt of %s: %s", lease.origin, error)
            return
        self._generations[lease.origin] = self._generations.get(lease.origin, 0) + 1
        self._stats.inc_value(f"robotstxt/access/{access.kind}")
        got = self._cache.lookup(lease.robots_url, now=_now_ms())
        if got.lease is not None:
            self._cache.abandon(got.lease)
        answer = got.answer
        meaning = {
            "follow-rules": "follow its rules",
            "allow-all": "allow everything",
            "disallow-all": "disallow everything",
            "not-modified": "keep the copy, renewed",
        }[access.kind]
        if answer is not None and answer.retry_at is not None:
            kept = "the old copy answers meanwhile" if answer.kind == "rules" else "nothing is fetched meanwhile"
            meaning += f" until the next try at {_when(answer.retry_at)}; {kept}"
        logger.info("robots.txt of %s: %s: %s", lease.origin, seen, meaning, extra={"spider": self.crawler.spider})
        if answer is not None and answer.robots is not None and access.kind == "follow-rules":
            await self.crawler.signals.send_catch_log_async(
                signal=signals.robots_parsed, robotparser=RobotParser(answer.robots), request=request
            )

    def _reached_downloader(self, request: Request) -> None:
        """Paces ``request``'s download slot by its site's gap, before the
        slot schedules it."""
        asked = self._gaps.pop(request, None)
        key = request.meta.get("download_slot")
        if asked is None or not isinstance(key, str):
            return
        downloader = self.crawler.engine.downloader
        slot = downloader.slots.get(key)
        if slot is None:
            return
        site, gap = asked
        pace = self._paces.get(key)
        own = (slot.delay, _jitter(slot))
        if pace is None or pace.slot is not slot:  # a new slot (Scrapy drops idle ones)
            if len(self._paces) >= 10_000:
                self._paces = {k: p for k, p in self._paces.items() if downloader.slots.get(k) is p.slot}
            pace = self._paces[key] = _SlotPace(slot, *own)
        elif own != pace.applied:  # changed since by the project (AutoThrottle)
            pace.delay, pace.jitter = own
        if pace.gaps.get(site) != gap:
            pace.gaps[site] = gap
            if gap:
                logger.info(
                    "robots.txt of %s: %g s between requests (Crawl-delay, Request-rate): download slot %r",
                    site,
                    gap,
                    key,
                    extra={"spider": self.crawler.spider},
                )
        floor = max(pace.gaps.values())
        delay = max(pace.delay, floor)
        # Scrapy waits delay × (1 ± jitter) between starts: the jitter is
        # narrowed so that no wait is shorter than the sites' gap.
        jitter = min(pace.jitter, 1 - floor / delay) if delay > 0 else pace.jitter
        _set_pace(slot, delay, jitter)
        pace.applied = (slot.delay, _jitter(slot))

    def _put_back(self, request: Request, retry_at: int) -> None:
        """Schedules ``request`` again once its robots.txt is due again."""
        from twisted.internet import reactor

        delay = max(0.0, (retry_at - _now_ms()) / 1000) + 0.01
        again = request.replace(dont_filter=True)
        self._stats.inc_value("robotstxt/postponed")

        def requeue() -> None:
            self._postponed.remove(call)
            self.crawler.engine.crawl(again)

        call = cast(Any, reactor).callLater(delay, requeue)  # an IReactorTime
        self._postponed.append(call)

    def _spider_idle(self) -> None:
        if self._postponed:
            raise DontCloseSpider

    def _spider_closed(self) -> None:
        for call in self._postponed:
            if call.active():
                call.cancel()
        self._postponed.clear()


class _Selected(NamedTuple):
    """Rules selected for one site and crawler, from one copy."""

    site: str  # the origin
    generation: int  # of the origin's copy
    rules: Rules
    gap: float  # seconds between requests the rules ask (0: none)


@dataclass
class _SlotPace:
    """One download slot: its own delay and jitter (as the project set
    them), and the gaps its sites' rules ask."""

    slot: Slot
    delay: float
    jitter: float
    gaps: Dict[str, float] = field(default_factory=dict)
    applied: Tuple[float, float] = (-1.0, -1.0)


def _jitter(slot: Slot) -> float:
    if hasattr(slot, "jitter"):
        return float(slot.jitter)
    return 0.5 if slot.randomize_delay else 0.0  # an older Scrapy: ±50% or none


def _set_pace(slot: Slot, delay: float, jitter: float) -> None:
    slot.delay = delay
    if hasattr(slot, "jitter"):
        slot.jitter = jitter
    else:
        slot.randomize_delay = jitter >= 0.5


def _redirect_target(response: Response) -> Optional[str]:
    """Where ``response`` redirects to, when it is a redirect to follow."""
    location = response.headers.get(b"Location")
    if response.status not in _REDIRECTS or not location:
        return None
    target = urljoin(response.url, safe_url_string(location))
    return target if urlparse(target).scheme in ("http", "https") else None


def _shared(round_: Deferred[None]) -> Deferred[None]:
    """A Deferred that fires when ``round_`` does, for one more waiter."""
    d: Deferred[None] = Deferred()
    if round_.called:
        d.callback(None)
    else:

        def fire(result: None) -> None:
            d.callback(None)

        round_.addBoth(fire)
    return d


def _cause(answer: Answer) -> str:
    blanket = answer.blanket
    if blanket is None:
        return "old copy kept"
    if blanket.status is not None:
        return f"HTTP {blanket.status}"
    return blanket.cause
