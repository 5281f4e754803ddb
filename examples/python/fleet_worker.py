"""One worker of a crawler fleet: takes URLs from a Redis list and fetches
those the site's robots.txt allows, paced per host with the rest of the
fleet (robotstxt.fleet: SharedRobotsCache, SharedPacer). The Node and Go
workers take the same arguments and behave alike; tests/fleet runs them
together.

    python fleet_worker.py --redis-port P --prefix X --queue KEY --id NAME
        --token ExampleBot --deadline-ms N [--lease-ms N] [--retry-ms N]
        [--floor-ms N] [--in-flight-timeout-ms N]

Prints one JSON line per URL: {"id", "event": "fetch" | "skip" |
"redis-error", "url", "status"}. An empty queue ends the worker once the
key `<queue>:done` is set (whoever fills the queue sets it); until then it
looks again every 100 ms, as URLs may come back (a 429, a 503). The
deadline ends it in any case. Needs redis-py (`pip install redis`); HTTP is
the standard library's, in a thread.
"""

from __future__ import annotations

import argparse
import asyncio
import email.message
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any, Dict, Optional, Tuple
from urllib.parse import urlsplit

import redis.asyncio
import redis.exceptions
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

import robotstxt
from robotstxt.aio import FetchOutcome, FetchRequest, retry_after_ms
from robotstxt.fleet import RedisClient, SharedPacer, SharedRobotsCache


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A 3xx is the answer, as fetch(..., {redirect: 'manual'}) gives it."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def http_get(url: str, headers: Dict[str, str], timeout: float) -> Tuple[int, email.message.Message, bytes]:
    """GET `url`: its status, headers and body, whatever the status. A
    network error raises."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return int(response.status), response.headers, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="One worker of a crawler fleet sharing robots.txt and pace through Redis.")
    parser.add_argument("--redis-port", type=int, required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--queue", required=True)
    parser.add_argument("--id", required=True)
    parser.add_argument("--token", default="ExampleBot")
    parser.add_argument("--deadline-ms", type=int, required=True)
    parser.add_argument("--lease-ms", type=int, default=60_000)
    parser.add_argument("--retry-ms", type=int, default=3_600_000)
    parser.add_argument("--floor-ms", type=int, default=1000)
    parser.add_argument("--in-flight-timeout-ms", type=int, default=120_000)
    return parser.parse_args()


async def work(args: argparse.Namespace) -> None:
    user_agent = f"{args.token}/1.0 (worker {args.id})"
    deadline = time.monotonic() + args.deadline_ms / 1000
    # A call fails within about a second while Redis is down (two tries of
    # half a second): the cache then fails safe and the worker retries the
    # URL; the client connects again when Redis is back.
    client = redis.asyncio.Redis(
        host="127.0.0.1",
        port=args.redis_port,
        socket_timeout=0.5,
        socket_connect_timeout=0.5,
        retry=Retry(NoBackoff(), 1),
    )
    store: RedisClient = client  # the typed surface of its commands

    async def fetch(request: FetchRequest) -> FetchOutcome:
        headers = {"User-Agent": user_agent}
        if request.etag is not None:
            headers["If-None-Match"] = request.etag
        if request.last_modified is not None:
            headers["If-Modified-Since"] = request.last_modified
        status, got, body = await asyncio.to_thread(http_get, request.robots_url, headers, 30)
        return FetchOutcome(
            status,
            body,
            retry_after_ms=retry_after_ms(got.get("retry-after")),
            etag=got.get("etag"),
            last_modified=got.get("last-modified"),
        )

    # The lease is renewed while a fetch goes on; timeout bounds the fetch.
    cache = SharedRobotsCache(
        client, fetch, prefix=args.prefix, lease_ms=args.lease_ms, retry_ms=args.retry_ms, timeout=30
    )
    pacer = SharedPacer(
        client, prefix=args.prefix, floor_ms=args.floor_ms, in_flight_timeout_ms=args.in_flight_timeout_ms
    )

    def say(event: str, **fields: Any) -> None:
        print(json.dumps({"id": args.id, "event": event, **fields}, separators=(",", ":")), flush=True)

    # The pace each host was last set from: set once per copy of its rules.
    paced: Dict[str, Tuple[Optional[float], Optional[Tuple[int, int]]]] = {}

    async def crawl(url: str) -> None:
        rules = await cache.rules_for(url, args.token)
        blanket = rules.blanket
        if blanket is not None and not blanket.allowed:
            # robots.txt could not be read (a 5xx, no response): nothing may
            # be fetched now; the URL waits for the retry.
            say("later", url=url)
            await store.execute_command("RPUSH", args.queue, url)
            await asyncio.sleep(0.1)
            return
        if not rules.can_fetch(url):
            say("skip", url=url)
            return
        host = urlsplit(url).netloc
        rate = rules.request_rate
        pace = (rules.crawl_delay, None if rate is None else (rate.requests, rate.seconds))
        if paced.get(host) != pace:
            await pacer.set_rules(host, rules)
            paced[host] = pace
        await pacer.wait(host)
        status: Optional[int] = None
        retry: Optional[int] = None
        try:
            status, got, _ = await asyncio.to_thread(http_get, url, {"User-Agent": user_agent}, 30)
            retry = retry_after_ms(got.get("retry-after"))
        except OSError:  # no response: recorded as such
            pass
        finally:
            await pacer.record(host, status, retry_after_ms=retry)
        say("fetch", url=url, status=status)
        if status in (429, 503):
            await store.execute_command("RPUSH", args.queue, url)

    try:
        while time.monotonic() < deadline:
            url: Optional[str] = None
            try:
                popped = await store.execute_command("LPOP", args.queue)
                if popped is None:
                    if await store.execute_command("EXISTS", f"{args.queue}:done"):
                        break
                    await asyncio.sleep(0.1)
                    continue
                url = popped.decode() if isinstance(popped, bytes) else str(popped)
                await crawl(url)
            except (robotstxt.RedisError, redis.exceptions.RedisError, OSError, asyncio.TimeoutError) as error:
                say("redis-error", url=url, message=str(error))
                if url is not None:
                    try:
                        await store.execute_command("RPUSH", args.queue, url)
                    except Exception:
                        pass
                await asyncio.sleep(0.1)
    finally:
        await cache.aclose()
        await pacer.aclose()
        await client.aclose()


def main() -> int:
    asyncio.run(work(arguments()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
