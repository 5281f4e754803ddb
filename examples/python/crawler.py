"""A polite asyncio crawler: robots.txt fetched once per site, disallowed URLs
skipped, requests to each host spaced by its Crawl-delay and held back
after a 429 or 5xx until its Retry-After has passed.

    python examples/python/crawler.py ExampleBot https://example.com/ https://example.com/about
"""

from __future__ import annotations

import argparse
import asyncio
import time
from urllib.parse import urlsplit

import httpx

from robotstxt.aio import AsyncPacer, AsyncRobotsCache, httpx_fetcher, retry_after_ms


async def crawl(token: str, urls: list[str], *, floor_ms: int = 1000, retry_ms: int = 3_600_000) -> None:
    async with httpx.AsyncClient(headers={"User-Agent": f"{token}/1.0"}) as client:
        robots = AsyncRobotsCache(httpx_fetcher(client), retry_ms=retry_ms)  # one fetch per site
        pacer = AsyncPacer(floor_ms=floor_ms)  # at least floor_ms between two starts per host

        async def visit(url: str, tries: int = 5) -> None:
            while tries > 0:  # a 429 or 5xx is tried again, after the pacer's backoff
                rules = await robots.rules_for(url, token)
                if not rules.can_fetch(url):
                    if rules.retry_at is None or rules.blanket is None:
                        print(f"skip {url} (disallowed)")
                        return
                    # robots.txt unreachable: nothing may be fetched until it is tried again.
                    await asyncio.sleep(max(0.001, rules.retry_at / 1000 - time.time()))
                    continue
                host = urlsplit(url).netloc
                pacer.set_rules(host, rules)  # its Crawl-delay and Request-rate
                started = await pacer.wait(host)  # sleeps until this request may start (ms)
                try:
                    response = await client.get(url)
                except httpx.HTTPError as error:
                    pacer.record(host, None)
                    print(f"fail {url} ({error!r})")
                    return
                pacer.record(host, response.status_code, retry_after_ms=retry_after_ms(response.headers.get("retry-after")))
                print(f"{response.status_code} {url} (started at {started} ms)")
                if response.status_code != 429 and response.status_code < 500:
                    return
                tries -= 1

        await asyncio.gather(*(visit(url) for url in urls))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="A polite asyncio crawler.")
    parser.add_argument("token", help="the crawler's product token, such as ExampleBot")
    parser.add_argument("urls", nargs="+")
    parser.add_argument("--floor-ms", type=int, default=1000, help="least gap between two requests to a host")
    parser.add_argument("--retry-ms", type=int, default=3_600_000, help="when to try an unreachable robots.txt again")
    args = parser.parse_args()
    asyncio.run(crawl(args.token, args.urls, floor_ms=args.floor_ms, retry_ms=args.retry_ms))
