"""robotstxt.compat.RobotFileParser: urllib.robotparser's interface, RFC
9309's answers, and read() through the fetch-outcome policy."""

from __future__ import annotations

import socket
import urllib.robotparser
from typing import Any, Dict, Tuple

import pytest

from robotstxt.compat import RequestRate, RobotFileParser
from sites import Site, text

LINES = [
    "User-agent: *",
    "Disallow: /a",
    "Allow: /a/b",
    "Disallow: /*.pdf$",
    "Crawl-delay: 0.5",
    "Request-rate: 3/10",
    "",
    "User-agent: ExampleBot",
    "Disallow: /x/",
    "",
    "Sitemap: https://example.com/s.xml",
]


def parsers() -> Tuple[RobotFileParser, urllib.robotparser.RobotFileParser]:
    ours, theirs = RobotFileParser(), urllib.robotparser.RobotFileParser()
    ours.parse(LINES)
    theirs.parse(LINES)
    return ours, theirs


def test_it_answers_as_rfc_9309_where_the_stdlib_does_not() -> None:
    ours, theirs = parsers()
    url = "https://example.com/a/b/c"
    assert ours.can_fetch("OtherBot", url) is True  # longest match
    assert theirs.can_fetch("OtherBot", url) is False  # first match
    assert ours.can_fetch("OtherBot", "/doc.pdf") is False  # `*` and `$`
    assert theirs.can_fetch("OtherBot", "/doc.pdf") is True
    assert ours.can_fetch("OtherBot", "/%61") is False  # /%61 is /a
    assert ours.crawl_delay("OtherBot") == 0.5
    assert theirs.crawl_delay("OtherBot") is None  # fractions dropped
    assert ours.request_rate("OtherBot") == RequestRate(3, 10) == theirs.request_rate("OtherBot")
    assert isinstance(ours.request_rate("OtherBot"), urllib.robotparser.RequestRate)
    assert ours.site_maps() == ["https://example.com/s.xml"] == theirs.site_maps()


def test_user_agents() -> None:
    ours, _ = parsers()
    for agent in ("ExampleBot", "examplebot", "ExampleBot/1.0 (+https://e.com/bot)", b"Mozilla/5.0 (compatible; ExampleBot/2.1)"):
        assert ours.can_fetch(agent, "/x/1") is False, agent  # type: ignore[arg-type]
        assert ours.can_fetch(agent, "/a") is True, agent  # type: ignore[arg-type]
    for agent in ("*", "OtherBot", "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "ExampleBotX"):
        assert ours.can_fetch(agent, "/x/1") is True, agent
        assert ours.can_fetch(agent, "/a") is False, agent


def test_before_reading_nothing_is_allowed() -> None:
    rp = RobotFileParser("https://example.com/robots.txt")
    assert (rp.host, rp.path) == ("example.com", "/robots.txt")
    assert rp.can_fetch("*", "/") is False and rp.mtime() == 0
    assert rp.crawl_delay("*") is None and rp.site_maps() is None
    rp.parse(["User-agent: *", "Disallow: /private"])
    assert rp.mtime() > 0 and rp.can_fetch("*", "/") is True and rp.site_maps() is None
    assert "Disallow: /private" in str(rp)


def serve(status: int, headers: Dict[str, str], body: str = "User-agent: *\nDisallow: /private/\n") -> Site:
    def answer(path: str, site: Site) -> Any:
        if path == "/robots.txt":
            return text(body if status == 200 else "error page\nUser-agent: *\nAllow: /\n", status, headers)
        return text("ok")

    return Site(answer)


@pytest.mark.parametrize(
    ("status", "headers", "public", "private"),
    [
        (200, {}, True, False),
        (404, {}, True, True),
        (410, {}, True, True),
        (401, {}, False, False),
        (403, {}, False, False),
        (429, {"Retry-After": "60"}, False, False),
        (500, {}, False, False),
        (503, {}, False, False),
    ],
)
def test_read_applies_the_fetch_outcome_policy(status: int, headers: Dict[str, str], public: bool, private: bool) -> None:
    with serve(status, headers) as site:
        rp = RobotFileParser(site.url("/robots.txt"))
        rp.read()
        assert rp.mtime() > 0
        assert rp.can_fetch("ExampleBot", site.url("/public")) is public
        assert rp.can_fetch("ExampleBot", site.url("/private/x")) is private
        assert site.paths() == ["/robots.txt"]


def test_read_of_an_unreachable_site_disallows_everything() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens here once closed
    rp = RobotFileParser(f"http://127.0.0.1:{port}/robots.txt", timeout=5)
    rp.read()
    assert rp.disallow_all and rp.can_fetch("ExampleBot", "/") is False
    # The stdlib lets the error escape.
    theirs = urllib.robotparser.RobotFileParser(f"http://127.0.0.1:{port}/robots.txt")
    with pytest.raises(OSError):
        theirs.read()
