"""A create/drop loop of 1,000,000 iterations keeps the resident set flat:
every object the binding makes (and every error it raises) gives its
memory back. Run in a subprocess, so that the test process's own memory
does not count."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import needs

ITERATIONS = 1_000_000

LOOP = textwrap.dedent(
    """
    import json, sys
    import robotstxt

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096

    body = b"User-agent: *\\nDisallow: /private/\\nCrawl-delay: 1.5\\nSitemap: https://a.test/s.xml\\n"
    urls = ["/private/x", b"/public/y", "/caf\\u00e9"]
    n = int(sys.argv[1])
    cache = robotstxt.Cache(capacity=500)
    pacer = robotstxt.Pacer(floor_ms=0, capacity=500)
    marks = {}
    for i in range(n):
        robots = robotstxt.Robots.parse(body)
        rules = robots.rules_for("ExampleBot")
        rules.decide(urls[i % 3])
        rules.filter_allowed(urls)
        robots.sitemaps
        host = "h%d.test" % (i % 2000)
        got = cache.lookup("https://" + host + "/x", now=i)
        if got.lease is not None:
            cache.store(got.lease, 200 if i % 5 else 503, body=body, etag='"e"', now=i)
        elif got.answer is not None:
            got.answer.rules_for("ExampleBot").blanket
        ticket = pacer.reserve(host, now=i)
        if ticket is not None and pacer.confirm(ticket, now=i).kind == "go":
            pacer.record(host, 200, now=i)
        if i % 10 == 0:
            try:
                robots.rules_for("Bad/1.0")
            except robotstxt.InvalidTokenError:
                pass
            rules.close()
        if i + 1 in (n // 10, n):
            marks[i + 1] = rss()
    print(json.dumps(marks))
    """
)


@needs("spawn")
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the resident set is read from /proc, which only Linux has")
def test_create_drop_loop_keeps_rss_flat() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LOOP, str(ITERATIONS)], capture_output=True, text=True, timeout=240, check=True
    )
    marks = {int(k): v for k, v in json.loads(done.stdout).items()}
    warm, end = marks[ITERATIONS // 10], marks[ITERATIONS]
    # 900,000 iterations after the warm-up: a leak of 8 bytes each would
    # show as 7 MB.
    assert end - warm < 4 << 20, f"RSS grew by {(end - warm) / 1e6:.1f} MB"
