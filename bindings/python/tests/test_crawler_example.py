"""examples/python/crawler.py (httpx + robotstxt.aio) against a local site
of five hosts on 127.0.0.1, told apart by port, 20 URLs each, all crawled
at once:

- A: plain, disallows /private/;
- B: Crawl-delay: 0.05;
- C: robots.txt answers 503 the first time (then its rules);
- D: the first page answers 429 with Retry-After: 1;
- E: the first page drops the connection without an answer.

The servers' logs must show one robots.txt fetch per host per refresh (C
refreshes once more, after its 503), no disallowed page, page starts on B
at least 50 ms apart, no request to D during its Retry-After, and the
crawl of E going on after its dropped page: that URL fails, the others are
fetched, and the pacer hears of it (else E's next request would wait for
the in-flight timeout, two minutes)."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from typing import Any, Dict, List

from conftest import EXAMPLES, needs
from sites import Hit, Site, page, text

RULES = "User-agent: *\nDisallow: /private/\n"


@needs("spawn")
def test_the_asyncio_crawler_on_four_hosts() -> None:
    robots_served: Dict[str, List[int]] = {"A": [], "B": [], "C": [], "D": [], "E": []}
    refused: List[float] = []
    dropped: List[str] = []
    lock = threading.Lock()

    def host(name: str, robots: str) -> Site:
        def answer(path: str, site: Site) -> Any:
            with lock:
                if path == "/robots.txt":
                    status = 503 if name == "C" and not robots_served["C"] else 200
                    robots_served[name].append(status)
                    return text(robots if status == 200 else "busy", status)
                if name == "D" and not refused:
                    refused.append(site.hits[-1].at)
                    return text("slow down", 429, {"Retry-After": "1"})
                if name == "E" and not dropped:
                    dropped.append(path)
                    # The server's own way to discard a connection: closed, no answer.
                    raise socket.timeout("dropped")
            return page(path)

        return Site(answer)

    sites = {
        "A": host("A", RULES),
        "B": host("B", RULES + "Crawl-delay: 0.05\n"),
        "C": host("C", RULES),
        "D": host("D", RULES),
        "E": host("E", RULES),
    }
    for site in sites.values():
        site.start()
    try:
        urls = [
            site.url(f"/private/{i}" if i % 5 == 0 else f"/page/{i}") for site in sites.values() for i in range(20)
        ]
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "python" / "crawler.py"), "ExampleBot", *urls, "--floor-ms", "0", "--retry-ms", "1000"],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        for site in sites.values():
            site.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()

    # One robots.txt fetch per host per refresh: C's 503 is tried again once.
    assert robots_served == {"A": [200], "B": [200], "C": [503, 200], "D": [200], "E": [200]}
    for name, site in sites.items():
        pages = site.pages()
        paths = [h.path for h in pages]
        assert not [p for p in paths if p.startswith("/private/")], name  # 0 disallowed fetches
        assert {p for p in paths} == {f"/page/{i}" for i in range(20) if i % 5}, name
        assert sum(f"skip {site.url('/private/')}" in line for line in lines) == 4, name
    # B: page starts at least Crawl-delay apart, as the pacer let them go;
    # as the server saw them, give or take the scheduling of its threads
    # (up to 15 ms on a loaded 2-core machine: a request's arrival is
    # stamped by the server's thread, not when the pacer let it go).
    started = sorted(int(line.rsplit("started at ", 1)[1].split()[0]) for line in lines if sites["B"].origin in line and "started at" in line)
    assert len(started) == 16
    assert min(y - x for x, y in zip(started, started[1:])) >= 50, started
    b = [h.at for h in sites["B"].pages()]
    gaps = [y - x for x, y in zip(b, b[1:])]
    assert min(gaps) >= 0.035, gaps
    # C: no page before its robots.txt could be read.
    c_robots = [h for h in sites["C"].hits if h.path == "/robots.txt"]
    assert all(h.at > c_robots[1].at for h in sites["C"].pages())
    # D: nothing during the Retry-After, and the refused page fetched after it.
    d_pages: List[Hit] = sites["D"].pages()
    after = [h.at - refused[0] for h in d_pages if h.at > refused[0]]
    assert after and min(after) >= 1.0, after
    assert len(d_pages) == 16 + 1  # 16 pages, one of them twice (429, then 200)
    assert sum(line.startswith("429 ") for line in lines) == 1
    # E: the dropped URL failed once and was not retried; the crawl went on
    # at once (floor 0 ms), so the pacer freed its in-flight place.
    assert len(dropped) == 1
    assert [line for line in lines if line.startswith("fail ")] == [
        line for line in lines if line.startswith(f"fail {sites['E'].url(dropped[0])} ")
    ]
    assert sum(line.startswith("fail ") for line in lines) == 1, lines
    e = [h.at for h in sites["E"].pages()]
    assert len(e) == 16, e
    assert max(y - x for x, y in zip(e, e[1:])) < 10, e
