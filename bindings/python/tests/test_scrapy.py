"""Scrapy: the parser behind ROBOTSTXT_PARSER, and the middleware that
replaces Scrapy's, each in a real crawl (the pinned Scrapy, in a
subprocess with a hard timeout) of a local site whose server logs every
request: the fetch outcome, robots.txt redirects, Crawl-delay pacing."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
from scrapy.utils.test import get_crawler

import robotstxt
from conftest import cannot
from robotstxt.scrapy import RobotParser, RobotsTxtMiddleware
from sites import Site, page, redirect, text

HERE = Path(__file__).resolve().parent
USER_AGENT = "Mozilla/5.0 (compatible; TestBot/1.0; +http://127.0.0.1/bot)"
ROBOTS = (
    "User-agent: *\n"
    "Disallow: /\n"
    "\n"
    "User-agent: TestBot\n"
    "Disallow: /private/\n"
    "Allow: /private/open\n"
    "Disallow: /*.pdf$\n"
)
ALLOWED = {"/", "/shop/", "/private/open", "/docs/a.pdf?print=1"} | {f"/public/{i}" for i in range(10)}
DISALLOWED = {f"/private/{i}" for i in range(5)} | {"/docs/a.pdf", "/docs/b.pdf"}
# The settings that put our middleware in the place of Scrapy's.
OURS: Dict[str, Any] = {
    "ROBOTSTXT_OBEY": True,
    "DOWNLOADER_MIDDLEWARES": {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robotstxt.scrapy.RobotsTxtMiddleware": 100,
    },
    "USER_AGENT": USER_AGENT,
}


def links_page(path: str) -> Any:
    links = "".join(f'<a href="{p}">{p}</a>' for p in sorted(ALLOWED | DISALLOWED))
    return 200, {"Content-Type": "text/html"}, f"<html><body>{path}{links}</body></html>".encode()


def crawl(site: Site, settings: Dict[str, Any], tmp_path: Path) -> Dict[str, Any]:
    # Every real crawl runs in a child Python.
    reason = cannot("spawn")
    if reason is not None:
        pytest.skip(reason)
    stats_file = tmp_path / "stats.json"
    done = subprocess.run(
        [sys.executable, str(HERE / "scrapy_crawl.py"), site.url("/"), json.dumps(settings), str(stats_file)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    stats: Dict[str, Any] = json.loads(stats_file.read_text())
    stats["_log"] = done.stderr
    return stats


def test_the_parser_alone() -> None:
    parser = RobotParser.from_crawler(get_crawler(), ROBOTS.encode())
    assert isinstance(parser, RobotParser)
    assert parser.allowed("http://a.test/private/open", USER_AGENT) is True
    assert parser.allowed(b"http://a.test/private/x", USER_AGENT.encode()) is False
    assert parser.allowed("http://a.test/public", "TestBot") is True
    assert parser.allowed("http://a.test/public", "Scrapy/2.19 (+https://scrapy.org)") is False  # the * group
    assert parser.allowed("http://a.test/public", "Mozilla/5.0 (X11; Linux x86_64)") is False  # names no crawler
    assert parser.crawl_delay("TestBot") is None
    google = RobotParser.from_crawler(get_crawler(settings_dict={"ROBOTSTXT_PROFILE": "google"}), ROBOTS.encode())
    assert google.robots.profile == "google"
    # Bytes as they came: a body in another encoding is read, not dropped.
    latin = RobotParser.from_crawler(None, "User-agent: *\nDisallow: /caf\xe9\n".encode("latin-1"))  # type: ignore[arg-type]
    assert latin.allowed("http://a.test/caf%E9", "TestBot") is False


def test_a_real_crawl_with_our_parser(tmp_path: Path) -> None:
    def answer(path: str, site: Site) -> Any:
        return text(ROBOTS) if path == "/robots.txt" else links_page(path)

    with Site(answer) as site:
        stats = crawl(
            site,
            {
                "ROBOTSTXT_OBEY": True,
                "ROBOTSTXT_PARSER": "robotstxt.scrapy.RobotParser",
                "USER_AGENT": USER_AGENT,
            },
            tmp_path,
        )
        fetched = set(site.paths())
    assert fetched & DISALLOWED == set(), fetched & DISALLOWED
    assert fetched == ALLOWED | {"/robots.txt"}
    assert stats["robotstxt/forbidden"] == len(DISALLOWED)


def test_a_real_crawl_with_our_middleware_through_a_robots_txt_outage(tmp_path: Path) -> None:
    outage = 2.0  # seconds of 503 from the first robots.txt request on
    first: List[float] = []
    served: List[tuple[float, int]] = []
    lock = threading.Lock()

    def answer(path: str, site: Site) -> Any:
        if path != "/robots.txt":
            return links_page(path)
        with lock:
            now = time.monotonic()
            first.append(now)
            status = 503 if now - first[0] < outage else 200
            served.append((now, status))
        return text("Service Unavailable" if status == 503 else ROBOTS, status)

    with Site(answer) as site:
        stats = crawl(site, {**OURS, "ROBOTSTXT_RETRY_SECONDS": 1}, tmp_path)
        pages = site.pages()
    statuses = [s for _, s in served]
    assert statuses[0] == 503 and statuses[-1] == 200 and statuses.count(200) == 1, served
    recovered = next(t for t, s in served if s == 200)
    # No page while robots.txt answered 503, and none it disallows after.
    assert pages and all(hit.at >= recovered for hit in pages), [(h.path, h.at - recovered) for h in pages]
    fetched = {hit.path for hit in pages}
    assert fetched & DISALLOWED == set()
    assert fetched == ALLOWED  # the requests met during the outage were put back, not lost
    # One robots.txt fetch per try, a second apart (ROBOTSTXT_RETRY_SECONDS).
    times = [t for t, _ in served]
    assert all(b - a >= 0.9 for a, b in zip(times, times[1:])), times
    assert stats["robotstxt/request_count"] == len(served)
    assert stats["robotstxt/access/disallow-all"] == statuses.count(503)
    assert stats["robotstxt/access/follow-rules"] == 1
    assert stats["robotstxt/postponed"] >= 1
    assert stats["robotstxt/forbidden"] == len(DISALLOWED)
    assert "disallow everything until the next try" in stats["_log"]


def test_a_robots_txt_moved_to_another_path_is_followed_and_fetched_once(tmp_path: Path) -> None:
    retried: List[str] = []

    def answer(path: str, site: Site) -> Any:
        if path == "/robots.txt":
            return redirect("/moved/robots.txt")
        if path == "/moved/robots.txt":
            return text(ROBOTS)
        if path == "/public/0" and not retried:  # Scrapy retries it
            retried.append(path)
            return text("Service Unavailable", 503)
        return links_page(path)

    with Site(answer) as site:
        stats = crawl(site, {**OURS, "RETRY_ENABLED": True}, tmp_path)
        fetched = site.paths()
    assert set(fetched) == ALLOWED | {"/robots.txt", "/moved/robots.txt"}
    # Each robots.txt request once, a page retried behind them.
    assert fetched.count("/robots.txt") == fetched.count("/moved/robots.txt") == 1, fetched
    assert fetched.count("/public/0") == 2
    assert stats["robotstxt/request_count"] == 1
    assert stats["robotstxt/redirect_count"] == 1
    assert stats["robotstxt/access/follow-rules"] == 1
    assert stats["robotstxt/forbidden"] == len(DISALLOWED)
    assert f"HTTP 200 from {site.url('/moved/robots.txt')} after 1 redirect: follow its rules" in stats["_log"]


def test_a_robots_txt_redirected_to_another_host_answers_for_the_first(tmp_path: Path) -> None:
    with Site(lambda path, site: text(ROBOTS) if path == "/robots.txt" else page(path)) as other:
        elsewhere = {other.url("/public/x"), other.url("/private/x")}

        def answer(path: str, site: Site) -> Any:
            if path == "/robots.txt":
                return redirect(other.url("/robots.txt"), 308)
            status, headers, body = links_page(path)
            links = "".join(f'<a href="{url}">x</a>' for url in sorted(elsewhere))
            return status, headers, body.replace(b"</body>", links.encode() + b"</body>")

        with Site(answer) as site:
            stats = crawl(site, OURS, tmp_path)
            fetched = site.paths()
            fetched_elsewhere = other.paths()
    # The other host's rules answered for this one, under this one's origin:
    assert set(fetched) == ALLOWED | {"/robots.txt"}
    assert fetched.count("/robots.txt") == 1
    # and that copy is not the other host's own, fetched for its own pages.
    assert sorted(fetched_elsewhere) == ["/public/x", "/robots.txt", "/robots.txt"], fetched_elsewhere
    assert stats["robotstxt/request_count"] == 2
    assert stats["robotstxt/redirect_count"] == 1
    assert stats["robotstxt/access/follow-rules"] == 2
    assert stats["robotstxt/forbidden"] == len(DISALLOWED) + 1


@pytest.mark.parametrize("hops", [5, 6])
def test_a_robots_txt_is_obeyed_through_five_redirects_not_more(tmp_path: Path, hops: int) -> None:
    # RFC 9309 §2.3.1.2: five are followed and the file obeyed; past five
    # it may be taken as unavailable, and is (behaviour §6).
    def answer(path: str, site: Site) -> Any:
        if path == "/robots.txt":
            return redirect("/hop/1", 302)
        if path.startswith("/hop/"):
            n = int(path[len("/hop/") :])
            return text(ROBOTS) if n == hops else redirect(f"/hop/{n + 1}", 307)
        return links_page(path)

    with Site(answer) as site:
        stats = crawl(site, OURS, tmp_path)
        fetched = site.paths()
    hop_paths = ["/robots.txt"] + [f"/hop/{n}" for n in range(1, hops + 1)]
    assert sorted(p for p in fetched if p not in ALLOWED | DISALLOWED) == sorted(hop_paths), fetched
    assert stats["robotstxt/redirect_count"] == hops
    if hops <= 5:
        assert set(fetched) == ALLOWED | set(hop_paths)
        assert stats["robotstxt/access/follow-rules"] == 1
    else:
        assert set(fetched) == ALLOWED | DISALLOWED | set(hop_paths)
        assert stats["robotstxt/access/allow-all"] == 1
        assert "robotstxt/forbidden" not in stats


def test_a_robots_txt_redirect_loop_ends(tmp_path: Path) -> None:
    def answer(path: str, site: Site) -> Any:
        if path == "/robots.txt":
            return redirect("/loop/a")
        if path.startswith("/loop/"):
            return redirect("/loop/b" if path == "/loop/a" else "/loop/a", 302)
        return links_page(path)

    with Site(answer) as site:
        stats = crawl(site, {**OURS, "ROBOTSTXT_POSTPONE": False}, tmp_path)
        fetched = site.paths()
    # Twenty redirects followed, the 21st left: an unfollowed redirect
    # disallows everything until the next try (behaviour §6).
    assert len(fetched) == 21 and set(fetched) == {"/robots.txt", "/loop/a", "/loop/b"}, fetched
    assert stats["robotstxt/request_count"] == 1
    assert stats["robotstxt/redirect_count"] == 20
    assert stats["robotstxt/access/disallow-all"] == 1
    assert "disallow everything until the next try" in stats["_log"]


PACED = [f"/p/{i}" for i in range(6)]
NOISE = 0.02  # seconds


def paced_site(robots: str) -> Site:
    def answer(path: str, site: Site) -> Any:
        if path == "/robots.txt":
            return text(robots)
        links = "".join(f'<a href="{p}">{p}</a>' for p in PACED)
        return 200, {"Content-Type": "text/html"}, f"<html><body>{links}</body></html>".encode()

    return Site(answer)


@pytest.mark.parametrize(
    ("robots", "settings", "delay", "jitter"),
    [
        # The site's gap where the project asks none: exact (no jitter).
        ("User-agent: TestBot\nCrawl-delay: 0.5\n", {}, 0.5, 0.0),
        # The project's longer delay, its jitter narrowed to keep the gap:
        # 0.6 × (1 - 1/6) = 0.5. The Request-rate asks more than the
        # Crawl-delay, and wins.
        (
            "User-agent: TestBot\nCrawl-delay: 0.25\nRequest-rate: 2/1s\n",
            {"DOWNLOAD_DELAY": 0.6},
            0.6,
            1 - 0.5 / 0.6,
        ),
    ],
)
def test_crawl_delay_paces_the_sites_download_slot(
    tmp_path: Path, robots: str, settings: Dict[str, Any], delay: float, jitter: float
) -> None:
    with paced_site(robots) as site:
        stats = crawl(site, {**OURS, **settings}, tmp_path)
        hits = sorted(hit.at for hit in site.hits)
    assert len(hits) == 1 + 1 + len(PACED)  # robots.txt, /, the pages
    gaps = [b - a for a, b in zip(hits, hits[1:])]
    # Starts as the server saw them, robots.txt's own fetch included. Its
    # clock reads a request once the connection is made and its thread
    # wakes: a few ms of noise either way (no pacing shows gaps of ms).
    assert min(gaps) >= 0.5 - NOISE, gaps
    assert hits[-1] - hits[0] >= 0.5 * len(gaps) - NOISE
    assert stats["_slots"] == {"127.0.0.1": [[pytest.approx(delay), pytest.approx(jitter)]] * (1 + len(PACED))}
    assert "0.5 s between requests (Crawl-delay, Request-rate)" in stats["_log"]


def test_crawl_delay_can_be_left_to_the_project(tmp_path: Path) -> None:
    with paced_site("User-agent: TestBot\nCrawl-delay: 0.5\n") as site:
        stats = crawl(site, {**OURS, "ROBOTSTXT_CRAWL_DELAY": False}, tmp_path)
        hits = sorted(hit.at for hit in site.hits)
    assert len(hits) == 1 + 1 + len(PACED)
    # Scrapy's own delay (DOWNLOAD_DELAY = 0) and jitter stay.
    assert stats["_slots"] == {"127.0.0.1": [[0.0, 0.5]] * (1 + len(PACED))}
    assert min(b - a for a, b in zip(hits, hits[1:])) < 0.25


def test_the_middleware_is_off_unless_robotstxt_obey() -> None:
    from scrapy.exceptions import NotConfigured

    with pytest.raises(NotConfigured):
        RobotsTxtMiddleware(get_crawler(settings_dict={"ROBOTSTXT_OBEY": False}))
    middleware = RobotsTxtMiddleware(get_crawler(settings_dict={"ROBOTSTXT_OBEY": True}))
    assert isinstance(middleware.cache, robotstxt.Cache)
