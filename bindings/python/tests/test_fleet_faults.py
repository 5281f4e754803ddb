"""The faults the fleet protocol survives (docs/fleet.md, "What the protocol
survives"), through robotstxt.fleet's public classes on a real Redis, with
the scenarios and assertions of tests/fleet_protocol.rs where they apply:
an unreadable or newer-format copy, a robots.txt slower than the lease,
Redis losing everything mid-crawl (FLUSHALL, and a kill and restart), a
worker's wall clock stepping, corrupt pace fields, and a Redis that is down
(with the client settings the README shows)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zlib
from typing import Any, List, Tuple

import pytest
import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

import robotstxt
from conftest import EXAMPLES, jitter, needs, time_bound
from robotstxt.aio import FetchOutcome, FetchRequest, retry_after_ms
from robotstxt.fleet import SharedCache, SharedPacer, SharedRobotsCache
from sites import Site, page, text
from test_fleet import REDIS_SERVER, Fetcher, RedisServer, client, listening, prefix, run
from test_fleet import own_server, server  # noqa: F401  (the fixtures)

URL = "https://shop.test/page"
ORIGIN = "https://shop.test"
BODY = b"User-agent: *\nDisallow: /private\n"


async def http_fetch(request: FetchRequest) -> FetchOutcome:
    """A fetcher over the standard library, in a thread."""

    def get() -> Tuple[int, bytes, Any]:
        try:
            with urllib.request.urlopen(request.robots_url, timeout=30) as response:
                return int(response.status), response.read(), response.headers
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read(), error.headers

    status, body, headers = await asyncio.to_thread(get)
    return FetchOutcome(status, body, retry_after_ms=retry_after_ms(headers.get("retry-after")))


# ---------------------------------------------------------------------------
# (1) A copy in Redis that does not decode, or is of a newer format


def damaged_copies() -> List[Tuple[str, bytes]]:
    entry = robotstxt.Entry()
    entry.record(200, body=BODY, now=0)
    good = entry.encode(BODY)
    newer = bytearray(good)
    newer[4] += 1  # the format version byte
    valid_newer = bytearray(newer)
    valid_newer[-4:] = zlib.crc32(bytes(valid_newer[:-4])).to_bytes(4, "little")
    with pytest.raises(robotstxt.CopyVersionError):
        robotstxt.Entry.decode(bytes(valid_newer))
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0xFF
    return [
        ("a newer format", bytes(valid_newer)),
        ("a newer format, its checksum not made right", bytes(newer)),
        ("a flipped byte", bytes(flipped)),
        ("cut short", good[: len(good) // 2]),
        ("not a copy", b"garbage"),
    ]


def test_an_unreadable_copy_is_no_copy_and_its_reader_fetches_over_it(server: RedisServer) -> None:
    async def main() -> None:
        admin = client(server.port)
        for how, data in damaged_copies():
            p = prefix()
            writer = SharedCache(client(server.port), prefix=p)
            lease = (await writer.lookup(URL)).lease
            assert lease is not None
            await writer.store(lease, 200, body=BODY)
            await admin.hset(f"{p}copy:{{{ORIGIN}}}", "data", data)

            # A worker holding nothing meets the damaged copy, fresh in Redis:
            # it takes the lease and fetches over it.
            fetch = Fetcher({f"{ORIGIN}/robots.txt": FetchOutcome(200, BODY)}, delay=0.3)
            reader = SharedRobotsCache(client(server.port), fetch, prefix=p)
            reading = asyncio.ensure_future(reader.answer_for(URL))
            await asyncio.sleep(0.15)
            assert len(fetch.calls) == 1, how

            # Meanwhile the others are held off, fail-safe: one waits, one
            # answers nothing allowed; neither takes a lease.
            waiter = SharedRobotsCache(client(server.port), fetch, prefix=p)
            waiting = asyncio.ensure_future(waiter.answer_for(URL))
            third = SharedCache(client(server.port), prefix=p)
            assert (await third.lookup(URL)).kind == "wait", how
            careful = await third.lookup(URL, when_fetching="disallow-all")
            assert careful.kind == "ready" and careful.answer is not None, how
            assert careful.answer.kind == "disallow-all" and careful.retry_at is not None, how

            # The reader's store replaces the damaged copy; everyone reads it.
            for answer in (await reading, await waiting):
                rules = answer.rules_for("ExampleBot")
                assert not rules.can_fetch("/private") and rules.can_fetch("/public"), how
            assert len(fetch.calls) == 1, how
            assert reader.stats.unreadable == 1 and reader.stats.fetches == 1, how
            after = await third.lookup(URL)
            assert after.kind == "ready" and after.stale is False and after.answer is not None, how
            assert not after.answer.rules_for("ExampleBot").can_fetch("/private"), how
            assert not await admin.exists(f"{p}lease:{{{ORIGIN}}}"), f"{how}: no lease is left behind"
            for cache in (reader, waiter):
                await cache.aclose()

    run(main)


def test_a_worker_that_cannot_read_a_copy_gives_its_lease_back_when_it_gives_up(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        await client(server.port).hset(f"{p}copy:{{{ORIGIN}}}", mapping={"data": b"junk", "version": "1-1",
                                                                          "due": str(2**50)})
        reader = SharedCache(client(server.port), prefix=p)
        got = await reader.lookup(URL)
        assert got.kind == "fetch" and got.lease is not None and reader.stats.unreadable == 1
        await reader.abandon(got.lease)
        assert (await SharedCache(client(server.port), prefix=p).lookup(URL)).kind == "fetch"

    run(main)


@needs("spawn")
def test_the_example_worker_fetches_over_an_unreadable_copy_and_goes_on(server: RedisServer) -> None:
    site = Site(lambda path, s: text("User-agent: *\nDisallow: /private/\n") if path == "/robots.txt"
                else page(path)).start()
    p = prefix()
    queue = p + "queue"
    urls = [site.url(path) for path in ("/page/1", "/private/2", "/page/3")]

    async def fill() -> None:
        c = client(server.port)
        # A copy a newer library wrote, fresh for the fleet.
        await c.hset(f"{p}copy:{{{site.origin}}}", mapping={"data": damaged_copies()[0][1], "version": "1-1",
                                                             "due": str(2**50)})
        await c.rpush(queue, *urls)
        await c.set(queue + ":done", "1")

    run(fill)
    try:
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "python" / "fleet_worker.py"), "--redis-port", str(server.port),
             "--prefix", p, "--queue", queue, "--id", "w1", "--deadline-ms", "30000", "--floor-ms", "0"],
            capture_output=True, text=True, timeout=60,
        )
    finally:
        site.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted((e["event"], e["url"]) for e in events) == sorted(
        [("fetch", urls[0]), ("skip", urls[1]), ("fetch", urls[2])]
    )
    assert site.paths("/robots.txt") == ["/robots.txt"]


# ---------------------------------------------------------------------------
# (2) A robots.txt that answers after 3 s under a 1 s lease


def test_a_robots_txt_slower_than_the_lease_is_fetched_once_per_refresh(server: RedisServer) -> None:
    def answer(path: str, site: Site) -> Any:
        if path == "/robots.txt":
            time.sleep(3)
            return text("User-agent: *\nDisallow: /private/\n")
        return page(path)

    site = Site(answer).start()
    url = site.url("/page")

    async def main() -> None:
        p = prefix()
        workers = [
            SharedRobotsCache(client(server.port), http_fetch, prefix=p, lease_ms=1000, fresh_for_ms=5000)
            for _ in range(3)
        ]
        deadline = time.monotonic() + 12
        answers: List[robotstxt.Answer] = []

        async def ask(worker: SharedRobotsCache) -> None:
            while time.monotonic() < deadline:
                answers.append(await worker.answer_for(url))
                await asyncio.sleep(0.1)

        await asyncio.gather(*(ask(w) for w in workers))
        hits = [h.at for h in site.hits if h.path == "/robots.txt"]
        # Fetched at 0 s (3 s), due 5 s after: again at about 8 s, then 16 s.
        assert 1 <= len(hits) <= 2, hits
        assert all(b - a >= 8 - jitter(0.5) for a, b in zip(hits, hits[1:])), "one fetch per refresh"
        assert sum(w.stats.fetches for w in workers) == len(hits)
        assert answers and all(a.kind == "rules" for a in answers), "never a timed-out fetch's answer"
        assert all(not a.rules_for("ExampleBot").can_fetch("/private/x") for a in answers)
        for w in workers:
            await w.aclose()

    try:
        run(main)
    finally:
        site.stop()


# ---------------------------------------------------------------------------
# (3) Redis loses everything mid-crawl: FLUSHALL, then a kill and restart


def restart(server: RedisServer) -> None:
    """Kills redis-server and starts an empty one on the same port."""
    server.stop()
    server.process = subprocess.Popen(
        [str(REDIS_SERVER), "--port", str(server.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not listening(server.port):
        assert time.monotonic() < deadline and server.process.poll() is None, "redis-server did not restart"
        time.sleep(0.02)


def test_redis_losing_everything_mid_crawl_loses_no_switch_retry_after_backoff_or_delay(
    own_server: RedisServer,
) -> None:
    # Four hosts behind one local site (the host is the path's first part):
    # off.test switched off, slow.test with a 1 s crawl delay, busy.test
    # that answers its first request 429 with a 5 s Retry-After, and
    # back.test that answers 503 to everything (its backoff only grows).
    lock = threading.Lock()
    first_busy: List[float] = []

    def answer(path: str, site: Site) -> Any:
        host = path.split("/")[1]
        with lock:
            if host == "busy.test" and not first_busy:
                first_busy.append(time.monotonic())
                return text("slow down", 429, {"Retry-After": "5"})
        return text("busy", 503) if host == "back.test" else page(path)

    site = Site(answer).start()
    hosts = ["off.test", "slow.test", "busy.test", "back.test"]
    refused: List[str] = []

    async def main() -> None:
        p = prefix()
        workers = [SharedPacer(client(own_server.port), prefix=p, floor_ms=200, backoff_cap_ms=5000)
                   for _ in range(3)]

        async def request(worker: SharedPacer, name: str, host: str, until: float) -> bool:
            """One request as a crawler makes it; False when none went."""
            try:
                await asyncio.wait_for(worker.wait(host), max(until - time.monotonic(), 0.01))
            except robotstxt.HostDisabledError:
                refused.append(name)
                return False
            except (robotstxt.RedisError, asyncio.TimeoutError):  # down for the restart, or the end
                return False
            try:
                got = await asyncio.to_thread(urllib.request.urlopen, site.url(f"/{host}/{name}"), None, 5)
                status, retry = got.status, None
                got.close()
            except urllib.error.HTTPError as error:
                status, retry = error.code, retry_after_ms(error.headers.get("retry-after"))
                error.close()
            while True:
                try:
                    await worker.record(host, status, retry_after_ms=retry)
                    return True
                except robotstxt.RedisError:
                    await asyncio.sleep(0.1)

        # What the fleet learns first: a switch, a delay, a Retry-After and a backoff.
        await workers[0].set_enabled("off.test", False)
        await workers[1].set_delay("slow.test", 1.0)
        assert await request(workers[2], "w2", "busy.test", time.monotonic() + 5)
        for _ in range(3):
            assert await request(workers[0], "w0", "back.test", time.monotonic() + 5)
        # Every worker works every host, as in a crawl, and so knows its pace.
        for worker in workers:
            for host in hosts:
                ticket = await worker.reserve(host)
                if ticket is not None:
                    await worker.cancel(ticket)
        # Then a crawl by every worker, during which Redis loses everything
        # twice: FLUSHALL, then a kill and a restart with empty memory.
        until = time.monotonic() + 7

        async def crawl(worker: SharedPacer, name: str, host: str) -> None:
            while time.monotonic() < until:
                if not await request(worker, name, host, until):
                    await asyncio.sleep(0.1)

        async def lose() -> None:
            await asyncio.sleep(1.5)
            await client(own_server.port).flushall()
            await asyncio.sleep(1.5)
            await asyncio.to_thread(restart, own_server)

        await asyncio.gather(lose(), *(crawl(w, f"w{i}", h) for i, w in enumerate(workers) for h in hosts))

    try:
        run(main)
    finally:
        site.stop()
    slack = jitter(0.05)
    by_host = {h: sorted(x.at for x in site.hits if x.path.split("/")[1] == h) for h in hosts}
    assert by_host["off.test"] == [], "a request to a switched-off host"
    assert set(refused) == {"w0", "w1", "w2"}
    for host, times in by_host.items():
        assert all(b - a >= 0.2 - slack for a, b in zip(times, times[1:])), (host, times)
    slow = by_host["slow.test"]
    assert len(slow) >= 4 and all(b - a >= 1.0 - slack for a, b in zip(slow, slow[1:])), "the crawl delay"
    busy = by_host["busy.test"]
    assert first_busy and not [t for t in busy if first_busy[0] < t < first_busy[0] + 5 - slack], "the Retry-After"
    assert len(busy) >= 2, "busy.test is crawled again after its Retry-After"
    # Three 503s (gaps 0.4 and 0.8 s), then at least the 1.6 s every worker
    # knew of, growing with each 503 (up to the 5 s cap).
    back = [b - a for a, b in zip(by_host["back.test"], by_host["back.test"][1:])]
    want = [0.4, 0.8] + [1.6] * (len(back) - 2)
    assert len(back) >= 3 and all(g >= w - slack for g, w in zip(back, want)), back


# ---------------------------------------------------------------------------
# (4) A worker's wall clock steps back, then forward, by an hour


def test_a_held_copy_is_due_by_the_fleets_clock_not_the_wall_clock(
    server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    robots = ["User-agent: *\nAllow: /\n"]
    site = Site(lambda path, s: text(robots[0]) if path == "/robots.txt" else page(path)).start()
    url = site.url("/page")
    wall = time.time

    async def main() -> None:
        cache = SharedRobotsCache(client(server.port), http_fetch, prefix=prefix(), fresh_for_ms=2000)
        assert (await cache.rules_for(url, "ExampleBot")).can_fetch(url)
        robots[0] = "User-agent: *\nDisallow: /\n"  # the site changes its robots.txt
        monkeypatch.setattr(time, "time", lambda: wall() - 3600)
        await asyncio.sleep(2.3)
        assert not (await cache.rules_for(url, "ExampleBot")).can_fetch(url), "a copy used past its due"
        robots[0] = "User-agent: *\nAllow: /\n"
        monkeypatch.setattr(time, "time", lambda: wall() + 3600)
        assert not (await cache.rules_for(url, "ExampleBot")).can_fetch(url), "fresh: no fetch"
        await asyncio.sleep(2.3)
        assert (await cache.rules_for(url, "ExampleBot")).can_fetch(url), "a copy used past its due"
        assert site.paths("/robots.txt") == ["/robots.txt"] * 3
        await cache.aclose()

    try:
        run(main)
    finally:
        site.stop()


# ---------------------------------------------------------------------------
# (5) Corrupt pace fields


CORRUPT = [
    ("gen", "nan"), ("gen", "inf"), ("next", "-inf"), ("next", "soon"), ("nb", "nan"), ("nb", "-1"),
    ("delay", "-5"), ("delay", "nan"), ("factor", "inf"), ("factor", "a lot"), ("last", "-1.5"), ("off", "maybe"),
]


def test_corrupt_pace_fields_give_the_strictest_pace_never_a_hang_or_a_faster_one(server: RedisServer) -> None:
    async def main() -> None:
        p = prefix()
        admin = client(server.port)

        async def case(host: str, field: str, value: str) -> None:
            worker = SharedPacer(client(server.port), prefix=p, floor_ms=100, backoff_cap_ms=3000)
            await worker.set_delay(host, 2.0)
            first = await worker.wait(host)
            await worker.record(host, 200)
            await admin.hset(f"{p}pace:{{{host}}}", field, value)
            other = SharedPacer(client(server.port), prefix=p, floor_ms=100, backoff_cap_ms=3000)  # knows nothing
            try:
                start = await asyncio.wait_for(other.wait(host), time_bound(10))
            except robotstxt.HostDisabledError:
                assert field == "off", f"{field}={value}: only a damaged switch switches off"
                return
            assert start >= first + 2000, f"{field}={value}: {start - first} ms after the last start, under 2,000"

        await asyncio.gather(*(case(f"h{i}.test", f, v) for i, (f, v) in enumerate(CORRUPT)))

    run(main)


# ---------------------------------------------------------------------------
# (6) A Redis that is down, with the client the README shows


def readme_client(port: int) -> "redis.asyncio.Redis":
    """The README's client: each try bounded to half a second, one retry."""
    return redis.asyncio.Redis(host="127.0.0.1", port=port, socket_timeout=0.5, socket_connect_timeout=0.5,
                               retry=Retry(NoBackoff(), 1))


def test_a_redis_that_is_down_answers_fail_safe_within_about_a_second(own_server: RedisServer) -> None:
    async def main() -> None:
        c = readme_client(own_server.port)
        fetch = Fetcher({"https://a.test/robots.txt": FetchOutcome(200, b"User-agent: *\nDisallow: /x\n")})
        cache = SharedRobotsCache(c, fetch, prefix=prefix(), fresh_for_ms=0)
        pacer = SharedPacer(c, prefix=prefix(), floor_ms=0)
        await cache.answer_for("https://a.test/")
        await pacer.wait("a.test")
        for how in ("hung (SIGSTOP)", "gone (killed)"):
            if how.startswith("hung"):
                os.kill(own_server.pid, signal.SIGSTOP)
            else:
                os.kill(own_server.pid, signal.SIGCONT)
                own_server.stop()
            try:
                began = time.monotonic()
                held = await cache.answer_for("https://a.test/")  # due: Redis is asked
                assert held.kind == "rules" and not held.rules_for("ExampleBot").can_fetch("/x"), how
                assert time.monotonic() - began < time_bound(1.5), how
                began = time.monotonic()
                assert (await cache.answer_for("https://b.test/")).kind == "disallow-all", how
                assert time.monotonic() - began < time_bound(1.5), how
                began = time.monotonic()
                with pytest.raises(robotstxt.RedisError):
                    await pacer.wait("a.test")
                assert time.monotonic() - began < time_bound(1.5), how
            finally:
                if own_server.process.poll() is None:
                    os.kill(own_server.pid, signal.SIGCONT)
        assert len(fetch.calls) == 1
        await c.aclose()

    run(main)


# ---------------------------------------------------------------------------
# Pyodide's stand-in names the same classes


def test_pyodide_fleet_names_what_the_native_module_exports() -> None:
    import ast

    from conftest import REPO

    tree = ast.parse((REPO / "bindings" / "python" / "pyodide" / "fleet.py").read_text("utf-8"))
    names = next(
        ast.literal_eval(node.value) for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets)
    )
    assert sorted(names) == sorted(robotstxt.fleet.__all__)
