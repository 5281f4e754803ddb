"""The Python API: parse, select, ask, batch, close, the sans-I/O cache and
pacer, and the package as installed."""

from __future__ import annotations

import gc
import importlib.metadata
import inspect
import threading
import time
from pathlib import Path

import pytest

import robotstxt
from conftest import EXAMPLES, REPO

SHOP = (EXAMPLES / "shop" / "robots.txt").read_bytes()


def test_the_package_under_test_is_the_installed_wheel() -> None:
    where = Path(robotstxt.__file__).resolve()
    assert not where.is_relative_to(REPO / "bindings" / "python"), where
    assert "site-packages" in where.parts
    assert robotstxt.__version__ == importlib.metadata.version("robotstxt-engine")
    assert robotstxt.core_version() == robotstxt.__version__


@pytest.mark.parametrize(
    ("token", "path", "allowed", "line", "kind"),
    [
        ("NimbuBot", "/prices/today", True, 10, "allow"),
        ("NimbuBot", "/prices/history", False, 9, "disallow"),
        ("NimbuBot", "/guides/size-chart.pdf", False, 11, "disallow"),
        ("NimbuBot", "/guides/size-chart.pdf?print=1", True, 0, "none"),
        ("NimbuBot", "/offers/weekend", True, 13, "allow"),
        ("NimbuBot", "/drafts/new-range", False, 17, "disallow"),
        ("NimbuBot", "/account/orders", True, 0, "none"),
        ("OtherBot", "/account/orders", False, 2, "disallow"),
        ("OtherBot", "/products/?sort=price", False, 4, "disallow"),
        ("ArchiveBot", "/robots.txt", True, 0, "none"),
        ("nimbubot", "/%70rices/history", False, 9, "disallow"),
    ],
)
def test_the_practice_shop(token: str, path: str, allowed: bool, line: int, kind: str) -> None:  # behaviour §9
    rules = robotstxt.Robots.parse(SHOP).rules_for(token)
    d = rules.decide("https://bazaar.nimbu.test" + path)
    assert (d.allowed, d.line, d.kind) == (allowed, line, kind)
    assert rules.can_fetch(path) is allowed


def test_the_practice_shop_refuses_a_user_agent_header() -> None:
    robots = robotstxt.Robots.parse(SHOP)
    with pytest.raises(robotstxt.InvalidTokenError) as raised:
        robots.rules_for("Mozilla/5.0 (compatible; NimbuBot/1.0)")
    assert raised.value.token == "Mozilla/5.0 (compatible; NimbuBot/1.0)"
    assert "product token" in str(raised.value)
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, robotstxt.Error)
    token = robotstxt.product_token("Mozilla/5.0 (compatible; NimbuBot/1.0)")
    assert robots.rules_for(token).crawl_delay == 2.5
    assert robots.rules_for("OtherBot").crawl_delay == 2.0
    assert robots.sitemaps == ["https://bazaar.nimbu.test/sitemap.xml"]


def test_every_kind_of_text_is_read_alike() -> None:
    body = "User-agent: *\nDisallow: /caf\u00e9/\n"
    encoded = body.encode()
    for given in (body, encoded, bytearray(encoded), memoryview(encoded), memoryview(b"xx" + encoded)[2:]):
        rules = robotstxt.Robots.parse(given).rules_for("ExampleBot")
        for url in ("/caf\u00e9/menu", "/caf\u00e9/menu".encode(), "/caf%C3%A9/menu", bytearray(b"/caf%c3%a9/x")):
            assert rules.can_fetch(url) is False, (given, url)
        assert rules.can_fetch(memoryview(b"/other")) is True

    class Url(str):
        pass

    assert robotstxt.Robots.parse(body).rules_for(Url("ExampleBot")).can_fetch(Url("/caf\u00e9/")) is False


def test_parse_options() -> None:
    body = b"User-agent: *\nDissallow: /typo\nAllow: /dir/index.html\nDisallow: /dir/\n"
    rfc = robotstxt.Robots.parse(body)
    assert rfc.profile == "rfc" and rfc.rules_for("ExampleBot").can_fetch("/typo") is False
    assert robotstxt.Robots.parse(body, typos=False).rules_for("ExampleBot").can_fetch("/typo") is True
    google = robotstxt.Robots.parse(body, profile="google")
    assert google.profile == "google"
    assert google.rules_for("ExampleBot").can_fetch("/dir/") is True  # Google's index.html rule
    assert rfc.rules_for("ExampleBot").can_fetch("/dir/") is False
    assert google.rules_for("Any thing/1.0").rule_count == 4  # any name; the index.html extra rule
    limit = robotstxt.MIN_PARSE_LIMIT
    long_body = b"User-agent: *\n" + b"#" * limit + b"\nDisallow: /\n"
    assert robotstxt.Robots.parse(long_body).rules_for("ExampleBot").can_fetch("/") is True
    assert robotstxt.Robots.parse(long_body, parse_limit=2 * limit).rules_for("ExampleBot").can_fetch("/") is False
    with pytest.raises(robotstxt.ParseLimitError):
        robotstxt.Robots.parse(body, parse_limit=1000)
    with pytest.raises(robotstxt.ParseLimitError):
        robotstxt.Robots.parse(body, parse_limit=robotstxt.MAX_PARSE_LIMIT + 1)
    with pytest.raises(robotstxt.InvalidOptionError, match="'rfc', 'google'|\"rfc\", \"google\""):
        robotstxt.Robots.parse(body, profile="strict")


def test_several_tokens() -> None:
    body = b"User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /\n"
    robots = robotstxt.Robots.parse(body)
    merged = robots.rules_for_any(["a", "b"])
    assert merged.can_fetch_many(["/a", "/b", "/c"]) == [False, False, True]
    strict = robots.rules_for_strictest(("a", "c"))  # c gets the * group
    assert strict.can_fetch_many(["/a", "/b", "/c"]) == [False, False, False]
    assert robots.rules_for_strictest(iter([b"a", "b"])).crawl_delay == 3
    with pytest.raises(robotstxt.NoTokensError):
        robots.rules_for_any([])
    with pytest.raises(robotstxt.ArgumentTypeError, match="rules_for"):
        robots.rules_for_any("ab")  # a lone str is not read letter by letter
    with pytest.raises(robotstxt.InvalidTokenError):
        robots.rules_for_strictest(["a", "b/1"])


def test_compile_changes_no_answer() -> None:
    body = "User-agent: *\n" + "".join(
        f"Disallow: /*p{i}q\nAllow: /a{i % 7}/*.css$\n" for i in range(80)
    )
    robots = robotstxt.Robots.parse(body)
    compiled = robots.rules_for("ExampleBot")
    assert compiled.compile() is None
    for i in range(40):
        path = f"/a{i % 9}/x/p{i}q.css"
        # A fresh selection scans its rules for its first checks.
        assert robots.rules_for("ExampleBot").decide(path) == compiled.decide(path), path


def test_records_and_diagnostics() -> None:
    body = (
        b"Sitemap: https://a.test/1.xml\nHost: mirror.a.test\nUser-agent: *\nCrawl-delay: 0.05\n"
        b"Request-rate: 3/1m\nDissallow: /x\nFoo: bar\ngarbage\nSitemap: https://a.test/2.xml\n"
    )
    robots = robotstxt.Robots.parse(body)
    assert robots.sitemaps == ["https://a.test/1.xml", "https://a.test/2.xml"]
    assert robots.host == "mirror.a.test"
    rules = robots.rules_for("ExampleBot")
    assert rules.crawl_delay == 0.05
    rate = rules.request_rate
    assert rate == robotstxt.RequestRate(3, 60) and rate is not None
    assert (rate.requests, rate.seconds, rate.interval) == (3, 60, 20.0)
    assert [(d.line, d.kind, d.flags) for d in robots.diagnostics] == [
        (6, "disallow", ("typo",)),
        (7, "unknown", ("unknown-key",)),
        (8, "invalid", ()),
    ]
    assert "typo" in robots.diagnostics[0].message
    assert robots.diagnostics[2].message.startswith("no key")
    assert robots.diagnostics[0] == robotstxt.Robots.parse(body).diagnostics[0]
    assert len({robots.diagnostics[0], robots.diagnostics[0]}) == 1


def test_blanket_rules_say_why() -> None:
    deny = robotstxt.Rules.disallow_all()
    assert deny.decide("/x") == deny.decide(b"/x")
    d = deny.decide("/x")
    assert (d.allowed, d.line, d.kind, d.pattern) == (False, 0, "disallow-all", "")
    assert deny.decide("/robots.txt").kind == "none"  # RFC 9309 §2.2.2
    assert deny.blanket == robotstxt.Rules.disallow_all().blanket
    blanket = deny.blanket
    assert blanket is not None and (blanket.allowed, blanket.cause, blanket.status) == (False, "caller", None)
    allow = robotstxt.Rules.allow_all(profile="google")
    assert allow.decide("/x").kind == "allow-all" and allow.profile == "google"
    assert robotstxt.Robots.parse(b"").rules_for("ExampleBot").blanket is None
    assert repr(d) == "Decision(allowed=False, line=0, kind='disallow-all', pattern='')"


def test_batches_answer_as_single_calls() -> None:
    rules = robotstxt.Robots.parse(SHOP).rules_for("NimbuBot")
    urls = ["/prices/today", b"/prices/history", bytearray(b"/offers/x"), "/a.pdf", memoryview(b"/drafts/")] * 30
    singles = [rules.can_fetch(u) for u in urls]
    assert rules.can_fetch_many(urls) == singles
    assert rules.can_fetch_many(tuple(urls)) == singles
    assert rules.can_fetch_many(u for u in urls) == singles
    kept = rules.filter_allowed(urls)
    assert kept == [u for u, ok in zip(urls, singles) if ok]
    assert all(any(k is u for u in urls) for k in kept)  # the same objects
    assert rules.decide_many(urls) == [rules.decide(u) for u in urls]
    assert rules.filter_allowed([]) == []
    with pytest.raises(robotstxt.ArgumentTypeError, match=r"urls\[2\]"):
        rules.can_fetch_many(["/a", "/b", None])


def test_close_frees_and_later_uses_raise() -> None:
    robots = robotstxt.Robots.parse(SHOP)
    with robots.rules_for("NimbuBot") as rules:
        assert rules.can_fetch("/prices/today")
    assert rules.closed
    with pytest.raises(robotstxt.ClosedError):
        rules.can_fetch("/")
    with pytest.raises(robotstxt.ClosedError):
        rules.filter_allowed(["/"])
    rules.close()  # again: nothing
    other = robots.rules_for("OtherBot")
    robots.close()
    assert other.can_fetch("/account/") is False  # rules outlive their Robots
    with pytest.raises(robotstxt.ClosedError):
        robots.rules_for("X")
    assert "closed" in repr(robots)


def test_the_gil_is_released_while_parsing_and_checking_large_batches() -> None:
    body = b"User-agent: *\n" + b"".join(b"Disallow: /%d/*x$\n" % i for i in range(600_000))
    urls = [f"/{i}/a/b/c/d?x" for i in range(300_000)]
    rules = robotstxt.Robots.parse(b"User-agent: *\nDisallow: /*x$\n").rules_for("ExampleBot")

    def count_while(work: object) -> int:
        done = threading.Event()
        counted = [0]

        def counter() -> None:
            while not done.is_set():
                counted[0] += 1

        t = threading.Thread(target=counter)
        t.start()
        time.sleep(0.01)
        before = counted[0]
        start = time.perf_counter()
        assert callable(work)
        work()
        spent = time.perf_counter() - start
        after = counted[0]
        done.set()
        t.join()
        return int((after - before) / max(spent, 1e-6))

    parse_rate = count_while(lambda: robotstxt.Robots.parse(body, parse_limit=robotstxt.MAX_PARSE_LIMIT))
    batch_rate = count_while(lambda: rules.can_fetch_many(urls))
    # Counting runs at millions a second with the GIL free; with the GIL
    # held for the whole call it would not move at all.
    assert parse_rate > 100_000, parse_rate
    assert batch_rate > 50_000, batch_rate


def test_access_and_entry() -> None:
    assert robotstxt.classify(None).kind == "disallow-all"
    assert robotstxt.classify(200, 6).kind == "allow-all"
    assert robotstxt.classify(429, policy="strict").kind == "allow-all"
    got = robotstxt.from_outcome(200, SHOP)
    assert got.kind == "follow-rules" and got.robots is not None
    assert got.robots.rules_for("OtherBot").can_fetch("/account/") is False
    hour = 3_600_000
    entry = robotstxt.Entry()
    assert entry.is_due(now=0) and not entry.has_copy
    assert entry.answer(now=0).kind == "disallow-all"
    assert entry.record(200, body=SHOP, etag='"v1"', now=0).kind == "follow-rules"
    assert entry.etag == '"v1"' and entry.fetched_at == 0 and not entry.is_due(now=2 * hour)
    assert entry.record(503, retry_after_ms=30_000, now=24 * hour).retry_later
    assert entry.retry_at == 24 * hour + 60_000  # a Retry-After is kept to a minute at least
    answer = entry.answer(now=24 * hour)
    assert answer.kind == "rules" and answer.retry_at == entry.retry_at
    rules = answer.rules_for("NimbuBot")
    assert rules.retry_at == entry.retry_at and rules.blanket is None
    assert entry.record(304, now=25 * hour).kind == "not-modified"
    assert entry.failures == 0 and entry.due_at == 49 * hour


def test_cache_leases() -> None:
    cache, other = robotstxt.Cache(), robotstxt.Cache()
    got = cache.lookup("HTTPS://Shop.Example:443/a", now=0)
    assert got.kind == "fetch" and got.lease is not None
    lease = got.lease
    assert (lease.origin, lease.robots_url) == ("https://shop.example", "https://shop.example/robots.txt")
    assert cache.issued(lease) and not other.issued(lease)
    with pytest.raises(robotstxt.InvalidLeaseError, match="another cache"):
        other.store(lease, 200, body=SHOP, now=1)
    assert not lease.ended  # still usable with its own cache
    waiting = cache.lookup("https://shop.example/b", now=1)
    assert (waiting.kind, waiting.until) == ("wait", 60_000)
    ready = cache.lookup("https://shop.example/b", now=1, when_fetching="disallow-all")
    assert ready.answer is not None and ready.answer.kind == "disallow-all" and ready.retry_at == 60_000
    with pytest.raises(robotstxt.ArgumentTypeError):
        cache.store(lease, 200, body=12, now=2)  # a bad argument leaves the lease as it was
    assert not lease.ended
    assert cache.store(lease, 200, body=SHOP, now=2).kind == "follow-rules"
    assert lease.ended
    with pytest.raises(robotstxt.InvalidLeaseError, match="already"):
        cache.store(lease, 200, body=SHOP, now=3)
    with pytest.raises(robotstxt.InvalidLeaseError):
        cache.abandon(lease)
    got = cache.lookup("https://shop.example/account/", now=4)
    assert got.kind == "ready" and got.stale is False and got.answer is not None
    answer = got.answer
    assert answer.kind == "rules" and answer.robots is not None and answer.robots.sitemaps
    assert answer.rules_for("OtherBot").can_fetch("https://shop.example/account/") is False
    assert len(cache) == 1 and cache.stats.fetches == 1 and cache.remove("https://shop.example/")


def test_a_dropped_lease_gives_the_fetch_back() -> None:
    cache = robotstxt.Cache()
    got = cache.lookup("https://a.test/", now=0)
    assert got.kind == "fetch"
    assert cache.lookup("https://a.test/", now=1).kind == "wait"
    del got
    gc.collect()
    assert cache.lookup("https://a.test/", now=2).kind == "fetch"


def test_pacer_tickets() -> None:
    pacer, other = robotstxt.Pacer(floor_ms=0), robotstxt.Pacer()
    pacer.set_delay("Shop.Test", 0.25, (1, 1))  # the slower: request-rate 1/1s
    assert pacer.gap_ms("shop.test") == 1000
    first = pacer.reserve("shop.test", now=1000)
    second = pacer.reserve("shop.test", now=1000)
    assert first is not None and second is not None
    assert (first.start, second.start, first.host) == (1000, 2000, "shop.test")
    with pytest.raises(robotstxt.InvalidTicketError, match="another pacer"):
        other.confirm(first, now=1000)
    assert pacer.confirm(first, now=1000).kind == "go" and first.spent
    with pytest.raises(robotstxt.InvalidTicketError):
        pacer.confirm(first, now=1000)
    assert pacer.in_flight("shop.test", now=1500) == 1
    pacer.record("shop.test", 429, retry_after_ms=60_000, now=1100)
    wait = pacer.confirm(second, now=2000)
    assert (wait.kind, wait.until, wait.busy) == ("wait", 61_100, False)
    pacer.cancel(second)
    with pytest.raises(robotstxt.InvalidTicketError, match="cancelled"):
        pacer.confirm(second, now=61_100)
    pacer.set_enabled("shop.test", False)
    assert pacer.reserve("shop.test", now=70_000) is None
    pacer.set_rules("b.test", robotstxt.Robots.parse(SHOP).rules_for("NimbuBot"))
    assert pacer.gap_ms("b.test") == 2500
    ticket = robotstxt.Pacer().reserve("now.test")  # the system clock when `now` is left out
    assert ticket is not None and ticket.start is not None and abs(ticket.start - time.time() * 1000) < 60_000


def test_product_tokens() -> None:
    assert robotstxt.product_token("PoliteBot/1.0 (+https://example.com/bot)") == "PoliteBot"
    assert robotstxt.product_token(b"Mozilla/5.0 (compatible; PoliteBot/2.1; +https://x)") == "PoliteBot"
    for header in ("", "   ", "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "Bot2/1.0"):
        with pytest.raises(robotstxt.InvalidUserAgentError) as raised:
            robotstxt.product_token(header)
        assert raised.value.user_agent == header


def test_origins() -> None:
    assert robotstxt.origin("http://B\u00fccher.example:80/x") == "http://xn--bcher-kva.example"
    with pytest.raises(robotstxt.InvalidUrlError) as raised:
        robotstxt.origin("http://127.0.0.1\\x/secret")
    assert raised.value.url == "http://127.0.0.1\\x/secret"


def is_member(value: object) -> bool:
    """A method, property or descriptor (not a dataclass field's default)."""
    return callable(value) or inspect.isdatadescriptor(value) or isinstance(value, (staticmethod, classmethod))


def public_names() -> list[tuple[str, object]]:
    found = []
    for name in robotstxt.__all__:
        value = getattr(robotstxt, name)
        if name.startswith("__") or isinstance(value, (int, str)):
            continue
        found.append((name, value))
        if inspect.isclass(value):
            for attr, member in vars(value).items():
                if not attr.startswith("_") and is_member(member):
                    found.append((f"{name}.{attr}", member))
    for module in ("aio", "compat", "scrapy", "access", "fleet"):
        mod = __import__(f"robotstxt.{module}", fromlist=["*"])
        found.append((module, mod))
        for name in getattr(mod, "__all__", []):
            value = getattr(mod, name)
            found.append((f"{module}.{name}", value))
            if inspect.isclass(value) and value.__module__ == mod.__name__:
                for attr, member in vars(value).items():
                    if not attr.startswith("_") and is_member(member):
                        found.append((f"{module}.{name}.{attr}", member))
    return found


def test_every_public_name_has_a_docstring() -> None:
    missing = [name for name, value in public_names() if not (getattr(value, "__doc__", None) or "").strip()]
    assert missing == []


def test_the_single_url_methods_take_one_positional_url() -> None:
    rules = robotstxt.Robots.parse(SHOP).rules_for("OtherBot")
    assert robotstxt.Rules.can_fetch(rules, "/account/") is False  # through the type
    assert robotstxt.Rules.decide(rules, "/account/").line == 2
    for call in (
        lambda: rules.can_fetch(),  # type: ignore[call-arg]
        lambda: rules.can_fetch("/a", "/b"),  # type: ignore[call-arg]
        lambda: rules.decide(url="/a"),  # type: ignore[call-arg]
        lambda: robotstxt.Rules.can_fetch(1, "/a"),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()
    assert "url" in (robotstxt.Rules.can_fetch.__text_signature__ or "")
    assert "longest matching rule" in (robotstxt.Rules.can_fetch.__doc__ or "")
