"""What a check costs through the Python API, the same in any interpreter:
run inside Pyodide by bench.mjs (the WebAssembly backend) and by the native
wheel's Python, for the table bench.mjs prints. Prints one JSON object:
operation -> microseconds per call (best of the rounds).

The workload: a body of 4 lines for one crawler, asked about 4 URLs in
turn.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Callable, Dict

import robotstxt

BODY = b"User-agent: NimbuBot\nDisallow: /prices/history\nAllow: /prices/today\nDisallow: /drafts/\n"
URLS = ["https://shop.test/prices/today", "https://shop.test/prices/history", "/drafts/new", "/about?x=1"]
URL_BYTES = [u.encode() for u in URLS]
BATCH = URLS * 25


def best(calls: int, run: Callable[[int], None], rounds: int) -> float:
    """The fastest of `rounds` runs of `calls` calls, in µs per call."""
    fastest = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run(calls)
        fastest = min(fastest, time.perf_counter() - start)
    return fastest / calls * 1e6


def main(rounds: int) -> Dict[str, float]:
    rules = robotstxt.Robots.parse(BODY).rules_for("NimbuBot")
    rules.compile()

    def can_fetch(n: int) -> None:
        f, urls = rules.can_fetch, URLS
        for i in range(n):
            f(urls[i & 3])

    def can_fetch_bytes(n: int) -> None:
        f, urls = rules.can_fetch, URL_BYTES
        for i in range(n):
            f(urls[i & 3])

    def decide(n: int) -> None:
        f, urls = rules.decide, URLS
        for i in range(n):
            f(urls[i & 3])

    def batch(n: int) -> None:
        for _ in range(n // len(BATCH)):
            rules.can_fetch_many(BATCH)

    def parse(n: int) -> None:
        for _ in range(n):
            robotstxt.Robots.parse(BODY).close()

    return {
        "can_fetch(str)": best(20_000, can_fetch, rounds),
        "can_fetch(bytes)": best(20_000, can_fetch_bytes, rounds),
        "decide(str)": best(10_000, decide, rounds),
        "can_fetch_many, per URL (100)": best(20_000, batch, rounds),
        "Robots.parse + close (113 bytes)": best(2_000, parse, rounds),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))
