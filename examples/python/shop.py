"""The practice shop of behaviour §9 through the Python binding: parse the file
once, select the rules for each crawler, ask, and explain each answer.

    python examples/python/shop.py [examples/shop/robots.txt]     (or: make demo-python)
"""

from __future__ import annotations

import sys
from pathlib import Path

import robotstxt

QUESTIONS = [
    ("NimbuBot", "/prices/today"),
    ("NimbuBot", "/prices/history"),
    ("NimbuBot", "/guides/size-chart.pdf"),
    ("NimbuBot", "/guides/size-chart.pdf?print=1"),
    ("NimbuBot", "/offers/weekend"),
    ("NimbuBot", "/drafts/new-range"),
    ("NimbuBot", "/account/orders"),
    ("OtherBot", "/account/orders"),
    ("OtherBot", "/products/?sort=price"),
    ("ArchiveBot", "/robots.txt"),
    ("nimbubot", "/%70rices/history"),
    ("Mozilla/5.0 (compatible; NimbuBot/1.0)", "/prices/history"),
]


def main(path: Path) -> None:
    robots = robotstxt.Robots.parse(path.read_bytes())  # RFC 9309; profile="google" for Google's reading
    print(f"== Python: robotstxt {robotstxt.__version__} over {path} (behaviour §9) ==")
    for token, url_path in QUESTIONS:
        try:
            rules = robots.rules_for(token)
        except robotstxt.InvalidTokenError as error:  # a whole User-Agent header is no product token
            print(f"{token:<40} {url_path:<32} error: {error}")
            continue
        d = rules.decide(f"https://bazaar.nimbu.test{url_path}")
        why = "no rule" if d.kind == "none" else f"line {d.line}: {d.kind} {d.pattern}"
        print(f"{token:<40} {url_path:<32} {'allowed' if d.allowed else 'disallowed':<10} ({why})")
    for token in ("NimbuBot", "OtherBot"):
        print(f"crawl-delay {token}: {robots.rules_for(token).crawl_delay} s")
    print("sitemaps:", ", ".join(robots.sitemaps))

    # A batch crosses into native code once.
    nimbu = robots.rules_for(robotstxt.product_token("Mozilla/5.0 (compatible; NimbuBot/1.0)"))
    links = ["/prices/today", "/prices/history", "/offers/weekend", "/drafts/new-range"]
    print("NimbuBot may fetch", nimbu.filter_allowed(links))

    # Keeping the copy fresh (behaviour §7), with an explicit clock in ms.
    hour = 3_600_000
    entry = robotstxt.Entry()
    entry.record(200, body=path.read_bytes(), now=0)
    entry.record(503, now=24.5 * hour)  # the refresh fails: the old copy answers
    answer = entry.answer(now=24.5 * hour)
    allowed = answer.rules_for("NimbuBot").can_fetch("/prices/today")
    print(
        f"after a 503 at 24.5 h: answering from {'the old copy' if answer.kind == 'rules' else answer.kind}"
        f" (NimbuBot /prices/today: {'allowed' if allowed else 'disallowed'}), next try at {entry.due_at / hour} h"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent.parent / "shop" / "robots.txt"))
