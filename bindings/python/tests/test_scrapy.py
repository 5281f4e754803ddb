"""Scrapy: the parser behind ROBOTSTXT_PARSER, and the middleware that
replaces Scrapy's, each in a real crawl (the pinned Scrapy, in a
subprocess with a hard timeout) of a local site whose server logs every
request."""

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
from robotstxt.scrapy import RobotParser, RobotsTxtMiddleware
from sites import Site, page, text

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


def links_page(path: str) -> Any:
    links = "".join(f'<a href="{p}">{p}</a>' for p in sorted(ALLOWED | DISALLOWED))
    return 200, {"Content-Type": "text/html"}, f"<html><body>{path}{links}</body></html>".encode()


def crawl(site: Site, settings: Dict[str, Any], tmp_path: Path) -> Dict[str, Any]:
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
        stats = crawl(
            site,
            {
                "ROBOTSTXT_OBEY": True,
                "DOWNLOADER_MIDDLEWARES": {
                    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
                    "robotstxt.scrapy.RobotsTxtMiddleware": 100,
                },
                "ROBOTSTXT_RETRY_SECONDS": 1,
                "USER_AGENT": USER_AGENT,
            },
            tmp_path,
        )
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


def test_the_middleware_is_off_unless_robotstxt_obey() -> None:
    from scrapy.exceptions import NotConfigured

    with pytest.raises(NotConfigured):
        RobotsTxtMiddleware(get_crawler(settings_dict={"ROBOTSTXT_OBEY": False}))
    middleware = RobotsTxtMiddleware(get_crawler(settings_dict={"ROBOTSTXT_OBEY": True}))
    assert isinstance(middleware.cache, robotstxt.Cache)
