"""Bad input: wrong types, None, huge strings, invalid tokens, lone
surrogates, and use from many threads. Every mistake raises a
robotstxt.Error (a TypeError or ValueError too) that names the argument;
nothing crashes, nothing hangs."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, List

import pytest

import robotstxt
from conftest import time_bound

BODY = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n\nUser-agent: ExampleBot\nDisallow: /bot/\n"
ROBOTS = robotstxt.Robots.parse(BODY)
RULES = ROBOTS.rules_for("ExampleBot")
WRONG = [None, 1, 1.5, True, [], {}, object(), ("/a",)]


@pytest.mark.parametrize("value", WRONG, ids=repr)
def test_wrong_types_for_text_raise_argument_type_errors(value: Any) -> None:
    calls: List[Callable[[], object]] = [
        lambda: robotstxt.Robots.parse(value),
        lambda: ROBOTS.rules_for(value),
        lambda: RULES.can_fetch(value),
        lambda: RULES.decide(value),
        lambda: RULES.preferences(value),
        lambda: RULES.preferences("/").get(value),
        lambda: robotstxt.Cache().lookup(value),
        lambda: robotstxt.Pacer().reserve(value),
        lambda: robotstxt.product_token(value),
        lambda: robotstxt.origin(value),
    ]
    for call in calls:
        with pytest.raises(robotstxt.ArgumentTypeError) as raised:
            call()
        assert isinstance(raised.value, TypeError)
        assert "must be str, bytes, bytearray or memoryview" in str(raised.value)
        assert type(value).__name__ in str(raised.value)


@pytest.mark.parametrize("value", [v for v in WRONG if v is not None], ids=repr)
def test_wrong_types_for_a_content_usage_field(value: Any) -> None:
    with pytest.raises(robotstxt.ArgumentTypeError) as raised:
        RULES.preferences("/", header=value)  # None means no field
    assert "header must be str, bytes, bytearray or memoryview" in str(raised.value)


def test_wrong_types_and_values_for_options_and_arguments() -> None:
    cases: List[Any] = [
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Robots.parse(BODY, profile=1), "profile"),
        (robotstxt.InvalidOptionError, lambda: robotstxt.Robots.parse(BODY, profile="RFC"), "profile"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Robots.parse(BODY, typos="yes"), "typos"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Robots.parse(BODY, parse_limit="1 MB"), "parse_limit"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Robots.parse(BODY, parse_limit=-1), "parse_limit"),
        (robotstxt.ParseLimitError, lambda: robotstxt.Robots.parse(BODY, parse_limit=10), "parse limit"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.classify("200"), "status"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.classify(True), "status"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.classify(1000), "status"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.classify(-1), "status"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.classify(200, -1), "redirects"),
        (robotstxt.InvalidOptionError, lambda: robotstxt.classify(200, policy="lenient"), "policy"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Entry().is_due(now=float("nan")), "now"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Entry().is_due(now=-1), "now"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Entry().is_due(now=float("inf")), "now"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Entry().is_due(now="soon"), "now"),
        (robotstxt.InvalidOptionError, lambda: robotstxt.Entry(after_limit="forget"), "after_limit"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Cache(capacity=1.5), "capacity"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Cache(capacity=0), "capacity"),
        (robotstxt.InvalidOptionError, lambda: robotstxt.Cache().lookup("https://a.test/", when_fetching="no"), "when_fetching"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Cache().store("lease", 200), "lease"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Cache().abandon(None), "lease"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Pacer().confirm("ticket"), "ticket"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Pacer().cancel(1), "ticket"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Pacer().set_rules("a.test", ROBOTS), "rules"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Pacer().set_enabled("a.test", 0), "enabled"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Pacer().set_delay("a.test", -1), "crawl_delay"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Pacer().set_delay("a.test", None, (0, 1)), "request_rate"),
        (robotstxt.ArgumentTypeError, lambda: robotstxt.Pacer().set_delay("a.test", None, "1/2"), "request_rate"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.Pacer(max_in_flight=0), "max_in_flight"),
        (robotstxt.InvalidArgumentError, lambda: robotstxt.RequestRate(0, 1), "requests"),
        (robotstxt.ArgumentTypeError, lambda: RULES.can_fetch_many(5), "urls"),
        (robotstxt.ArgumentTypeError, lambda: RULES.filter_allowed("/abc"), "urls"),
        (robotstxt.ArgumentTypeError, lambda: ROBOTS.rules_for_any(None), "tokens"),
    ]
    for error, call, named in cases:
        with pytest.raises(error) as raised:
            call()
        assert isinstance(raised.value, robotstxt.Error)
        assert named in str(raised.value), (named, raised.value)
    with pytest.raises(TypeError):  # Python's own check: unknown keyword
        robotstxt.Robots.parse(BODY, profil="rfc")  # type: ignore[call-arg]


@pytest.mark.parametrize("token", ["", " ", "ExampleBot/1.0", "Example Bot", "Bot2", "b\u00f6t", "*", "a\x00b"])
def test_invalid_tokens(token: str) -> None:
    with pytest.raises(robotstxt.InvalidTokenError) as raised:
        ROBOTS.rules_for(token)
    assert raised.value.token == token
    assert isinstance(raised.value, ValueError)
    # The Google profile compares any name whole.
    robotstxt.Robots.parse(BODY, profile="google").rules_for(token)


def test_huge_inputs() -> None:
    huge = b"x" * (64 << 20)
    start = time.perf_counter()
    robots = robotstxt.Robots.parse(huge)  # the first 500 KiB are read
    assert robots.rule_count == 0
    many = b"User-agent: *\n" + b"Disallow: /a*b*c*d*e*f$\n" * 400_000
    robots = robotstxt.Robots.parse(many, parse_limit=robotstxt.MAX_PARSE_LIMIT)
    rules = robots.rules_for("ExampleBot")
    url = "/" + "a" * (8 << 20)
    assert rules.can_fetch(url) is True
    assert rules.can_fetch(url.encode() + b"bcdef") is False
    assert rules.can_fetch_many([url] * 100) == [True] * 100
    assert time.perf_counter() - start < time_bound(30)
    with pytest.raises(robotstxt.InvalidTokenError):
        robots.rules_for("Bot" * 300_000 + "/1")
    with pytest.raises(robotstxt.InvalidHostError):
        robotstxt.Pacer().reserve("h" * 100_000)
    with pytest.raises(robotstxt.InvalidUrlError) as raised:
        robotstxt.Cache().lookup("https://" + "h" * 1_000_000 + "\\/x")
    assert len(str(raised.value)) < 2000  # the message quotes the URL's start only
    field = ", ".join(f"label-{i}=n" for i in range(5_000))
    page = rules.preferences(url, header=field)
    assert page.get("label-4999") == "n" and len(page.labels) == 5_002
    with pytest.raises(robotstxt.InvalidStatementError):
        rules.preferences(url, header=field + ",")
    usage = b"User-agent: *\n" + b"".join(b"Content-Usage: /%d train-ai=n\n" % i for i in range(20_000))
    got = robotstxt.Robots.parse(usage).rules_for("ExampleBot").preferences("/1999")
    assert [s.line for s in got.statements] == [2001]
    assert time.perf_counter() - start < time_bound(60)


@pytest.mark.parametrize("text", ["\ud800", "/a\udfff/b", "User-agent: *\nDisallow: /\udcff\n"])
def test_lone_surrogates(text: str) -> None:
    calls: List[Callable[[], object]] = [
        lambda: robotstxt.Robots.parse(text),
        lambda: ROBOTS.rules_for(text),
        lambda: RULES.can_fetch(text),
        lambda: RULES.filter_allowed(["/ok", text]),
        lambda: RULES.preferences(text),
        lambda: RULES.preferences("/", header=text),
        lambda: RULES.preferences("/").get(text),
        lambda: robotstxt.Pacer().reserve(text),
        lambda: robotstxt.product_token(text),
        lambda: robotstxt.Cache().lookup("https://a.test/" + text),
    ]
    for call in calls:
        with pytest.raises(robotstxt.InvalidTextError) as raised:
            call()
        assert isinstance(raised.value, ValueError)
        assert "lone surrogate" in str(raised.value)
        assert isinstance(raised.value.__cause__, UnicodeEncodeError)


def test_a_released_memoryview() -> None:
    view = memoryview(b"/private/x")
    view.release()
    with pytest.raises(ValueError):
        RULES.can_fetch(view)


def test_many_threads_share_one_of_each() -> None:
    cache = robotstxt.Cache()
    pacer = robotstxt.Pacer(floor_ms=0, max_in_flight=1_000_000)
    urls = [f"/private/{i}" if i % 3 else f"/public/{i}" for i in range(200)]
    want = [RULES.can_fetch(u) for u in urls]
    errors: List[BaseException] = []
    closing = ROBOTS.rules_for("OtherBot")

    def work(n: int) -> None:
        try:
            for i in range(300):
                robots = robotstxt.Robots.parse(BODY)
                rules = robots.rules_for("ExampleBot")
                assert rules.can_fetch_many(urls) == want
                assert RULES.can_fetch_many(urls) == want
                assert [RULES.can_fetch(u) for u in urls[:20]] == want[:20]
                got = cache.lookup(f"https://h{i % 17}.test/x", now=i)
                if got.lease is not None:
                    cache.store(got.lease, 200, body=BODY, now=i)
                ticket = pacer.reserve(f"h{n}.test", now=i)
                assert ticket is not None
                assert pacer.confirm(ticket, now=ticket.start).kind == "go"
                pacer.record(f"h{n}.test", 200, now=ticket.start)
                try:
                    closing.can_fetch_many(urls * 2)
                except robotstxt.ClosedError:
                    pass
        except BaseException as error:  # reported to the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    closing.close()  # while others use it: they see answers or ClosedError
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert cache.stats.fetches == 17
