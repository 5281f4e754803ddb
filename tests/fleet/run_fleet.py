"""The fleet test: Node, Go and Python workers crawl one local multi-host
site (site.py) together through one real Redis, and the site's own log
shows that the fleet behaved as one polite crawler:

- robots.txt fetched once per host per refresh, for the whole fleet (the
  host whose robots.txt answers 503 first: once more, after retry-ms);
- no two requests to the Crawl-delay: 0.2 host closer than 200 ms (less
  TOLERANCE_MS: the log stamps arrivals, a few ms after the pacer's go);
- no request to the 429 host during its Retry-After (1 s);
- never more than one request in flight per host;
- no disallowed request; every allowed page fetched.

Then the same with copies in Redis that no worker can read (a newer
format, a damaged one: each is fetched over once, and no worker stops),
with a robots.txt slower than the lease (its fetcher renews the lease:
one fetch), with one worker killed (-9) while it fetches a robots.txt
(it holds the fleet's lease: the next worker takes it once it runs out),
and with Redis killed and restarted empty mid-crawl (the fleet fetches
each robots.txt once more and goes on; nothing disallowed is fetched).

    python3 run_fleet.py --redis-server PATH --redis-cli PATH
        --node "node fleet-worker.mjs" --go "fleetworker" --python "python fleet_worker.py"
        [--workdir DIR]

Every process started is stopped by its pid; every wait is bounded.
"""

import argparse
import json
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Log lines stamp arrivals: a request leaves a few ms after the pacer's go,
# more on a loaded machine. Gaps are checked less this.
TOLERANCE_MS = 50
LEASE_SLACK_MS = 150
PAGES, PRIVATE = 40, 10
LEASE_MS, RETRY_MS, FLOOR_MS, IN_FLIGHT_TIMEOUT_MS = 2000, 1500, 50, 3000
DEADLINE_MS = 90_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Fleet:
    """One scenario's processes: Redis, the site and the workers."""

    def __init__(self, args: argparse.Namespace, name: str, slow_robots: str = "", slow_ms: int = LEASE_MS * 2,
                 lease_ms: int = LEASE_MS) -> None:
        self.args = args
        self.name = name
        self.dir = Path(args.workdir) / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.log = self.dir / "site.log"
        self.log.write_text("")
        self.procs: list[subprocess.Popen] = []
        self.workers: dict[str, subprocess.Popen] = {}
        self.lease_ms = lease_ms
        self.redis_port = free_port()
        self.redis = self.start_redis()
        ports_file = self.dir / "ports.json"
        site = [sys.executable, str(HERE / "site.py"), "--log", str(self.log), "--ports-out", str(ports_file)]
        if slow_robots:
            site += ["--slow-robots", slow_robots, "--slow-ms", str(slow_ms)]
        self.procs.append(subprocess.Popen(site))
        self.ports = json.loads(wait_for(lambda: ports_file.exists() and ports_file.read_text(), 10, "the site"))
        self.host_of = {port: host for host, port in self.ports.items()}
        self.queue = f"{name}:queue"
        self.prefix = f"{name}:"

    def start_redis(self) -> subprocess.Popen:
        proc = subprocess.Popen([self.args.redis_server, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                 "--save", "", "--appendonly", "no", "--daemonize", "no"],
                                stdout=subprocess.DEVNULL)
        self.procs.append(proc)
        wait_for(lambda: self.cli("PING") == "PONG", 10, "redis-server")
        return proc

    def cli(self, *command: str) -> str:
        done = subprocess.run([self.args.redis_cli, "-p", str(self.redis_port), *command],
                              capture_output=True, text=True, timeout=10)
        return done.stdout.strip()

    def urls(self) -> list[str]:
        urls = [f"http://127.0.0.1:{port}/{kind}/{i}"
                for port in self.ports.values()
                for kind, count in (("page", PAGES), ("private", PRIVATE))
                for i in range(count)]
        random.Random(self.name).shuffle(urls)
        return urls

    def fill(self, urls: list[str]) -> None:
        for start in range(0, len(urls), 50):
            self.cli("RPUSH", self.queue, *urls[start:start + 50])

    def spawn(self) -> None:
        common = ["--redis-port", str(self.redis_port), "--prefix", self.prefix, "--queue", self.queue,
                  "--token", "ExampleBot", "--deadline-ms", str(DEADLINE_MS), "--lease-ms", str(self.lease_ms),
                  "--retry-ms", str(RETRY_MS), "--floor-ms", str(FLOOR_MS),
                  "--in-flight-timeout-ms", str(IN_FLIGHT_TIMEOUT_MS)]
        plan = [("node", self.args.node, 3), ("go", self.args.go, 3), ("python", self.args.python, 2)]
        for language, command, count in plan:
            for i in range(count):
                worker = f"{language}-{i}"
                out = open(self.dir / f"{worker}.out", "w", encoding="utf-8")
                proc = subprocess.Popen([*shlex.split(command), *common, "--id", worker],
                                        stdout=out, stderr=subprocess.STDOUT)
                self.procs.append(proc)
                self.workers[worker] = proc

    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def fetched_pages(self) -> set[tuple[str, str]]:
        return {(r["host"], r["path"]) for r in self.records()
                if r["phase"] == "end" and r["path"].startswith("/page/") and r["status"] == 200}

    def wait_crawled(self, timeout_s: float, short_by: int = 0) -> None:
        want = len(self.ports) * PAGES - short_by
        wait_for(lambda: len(self.fetched_pages()) >= want, timeout_s,
                 lambda: f"{want} pages fetched ({len(self.fetched_pages())} so far)")

    def missing(self) -> list[str]:
        done = {f"http://127.0.0.1:{self.ports[h]}{p}" for h, p in self.fetched_pages()}
        return [u for u in self.urls() if u.split("/")[3] == "page" and u not in done]

    def finish(self) -> None:
        self.cli("SET", f"{self.queue}:done", "1")
        deadline = time.time() + 20
        for worker, proc in self.workers.items():
            try:
                proc.wait(timeout=max(deadline - time.time(), 0.1))
            except subprocess.TimeoutExpired:
                fail(f"{self.name}: worker {worker} did not stop")

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def wait_for(check, timeout_s: float, what: str):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    fail(f"timed out waiting for {what() if callable(what) else what}")


def fail(message: str) -> None:
    raise AssertionError(message)


def check_politeness(fleet: Fleet, robots_fetches: dict[str, int], since_ms: float = 0) -> list[str]:
    """What the site's log says; returns the lines of the report."""
    records = [r for r in fleet.records() if r.get("start", r["at"]) >= since_ms]
    starts = [r for r in records if r["phase"] == "start"]
    ends = [r for r in records if r["phase"] == "end"]
    report = []
    # No disallowed request.
    private = [r for r in starts if r["path"].startswith("/private/")]
    if private:
        fail(f"{fleet.name}: disallowed requests: {private[:3]}")
    # robots.txt once per host per refresh.
    counted = {}
    for host in fleet.ports:
        got = sum(1 for r in starts if r["host"] == host and r["path"] == "/robots.txt")
        want = robots_fetches[host]
        if got not in (want if isinstance(want, (set, range)) else {want}):
            fail(f"{fleet.name}: {host} robots.txt fetched {got} times, expected {want}")
        counted[host] = got
    flaky = sorted(r["at"] for r in starts if r["host"] == "flaky" and r["path"] == "/robots.txt")
    if len(flaky) >= 2 and flaky[1] - flaky[0] < RETRY_MS - TOLERANCE_MS:
        fail(f"{fleet.name}: flaky's robots.txt retried after {flaky[1] - flaky[0]:.0f} ms, before {RETRY_MS}")
    report.append(f"robots.txt fetches per host: {counted}")
    # Crawl-delay 0.2 s between request starts.
    delay = sorted(r["at"] for r in starts if r["host"] == "delay" and r["path"] != "/robots.txt")
    gaps = [b - a for a, b in zip(delay, delay[1:])]
    if gaps and min(gaps) < 200 - TOLERANCE_MS:
        fail(f"{fleet.name}: two requests to the Crawl-delay host {min(gaps):.1f} ms apart")
    if gaps:
        report.append(f"delay host: {len(delay)} requests, closest {min(gaps):.1f} ms apart")
    # Nothing to the 429 host during its Retry-After.
    limited = [r for r in ends if r["host"] == "limited" and r["status"] == 429]
    for answer in limited:
        during = [r for r in starts if r["host"] == "limited" and r["path"] != "/robots.txt"
                  and answer["at"] < r["at"] < answer["at"] + 1000 - TOLERANCE_MS]
        if during:
            fail(f"{fleet.name}: {len(during)} requests to the 429 host during its Retry-After")
    report.append(f"limited host: {len(limited)} 429 answered, none during Retry-After")
    # One request in flight per host (pages; robots.txt fetches are the cache's).
    for host in fleet.ports:
        spans = sorted((r["start"], r["at"]) for r in ends if r["host"] == host and r["path"] != "/robots.txt")
        for (s1, e1), (s2, _) in zip(spans, spans[1:]):
            if s2 < e1 - TOLERANCE_MS:
                fail(f"{fleet.name}: two requests in flight to {host} at once ({s2:.0f} < {e1:.0f})")
    return report


def scenario_plain(args: argparse.Namespace) -> list[str]:
    fleet = Fleet(args, "plain")
    try:
        fleet.fill(fleet.urls())
        fleet.spawn()
        fleet.wait_crawled(DEADLINE_MS / 1000)
        fleet.finish()
        robots = {"plain": 1, "delay": 1, "flaky": 2, "limited": 1}
        report = check_politeness(fleet, robots)
        outs = {w: (fleet.dir / f"{w}.out").read_text() for w in fleet.workers}
        idle = [w for w, out in outs.items() if '"event": "fetch"' not in out and '"event":"fetch"' not in out]
        if idle:
            fail(f"plain: workers that fetched nothing: {idle}")
        return report
    finally:
        fleet.stop()


def scenario_unreadable(args: argparse.Namespace) -> list[str]:
    """Copies the workers cannot read wait in Redis before they start: one
    of a newer format (a newer library wrote it during a rolling upgrade),
    one damaged; both fresh for a day. Each is no copy: one worker fetches
    over it, the others wait for that, and every worker keeps crawling."""
    fleet = Fleet(args, "unreadable")
    try:
        seconds, micros = fleet.cli("TIME").split()
        due = int(seconds) * 1000 + int(micros) // 1000 + 86_400_000
        for host, data in (("plain", "RTXC\x02" + "x" * 60), ("delay", "RTXC\x01" + "damaged" * 9)):
            key = f"{fleet.prefix}copy:{{http://127.0.0.1:{fleet.ports[host]}}}"
            fleet.cli("HSET", key, "data", data, "version", "7-1", "due", str(due), "fence", "7")
            fleet.cli("PEXPIRE", key, "86400000")
        fleet.fill(fleet.urls())
        fleet.spawn()
        fleet.wait_crawled(DEADLINE_MS / 1000)
        exited = {w: p.returncode for w, p in fleet.workers.items() if p.poll() is not None}
        if exited:
            fail(f"unreadable: workers exited before the crawl was done: {exited}")
        fleet.finish()
        report = check_politeness(fleet, {"plain": 1, "delay": 1, "flaky": 2, "limited": 1})
        return report + ["a newer-format copy (plain) and a damaged one (delay) were each fetched over once"]
    finally:
        fleet.stop()


def scenario_slow(args: argparse.Namespace) -> list[str]:
    """A robots.txt that answers after 3 s under a 1 s lease: its fetcher
    renews the lease while it waits, so the fleet fetches it once."""
    fleet = Fleet(args, "slow", slow_robots="plain", slow_ms=3000, lease_ms=1000)
    try:
        fleet.fill(fleet.urls())
        fleet.spawn()
        fleet.wait_crawled(DEADLINE_MS / 1000)
        fleet.finish()
        report = check_politeness(fleet, {"plain": 1, "delay": 1, "flaky": 2, "limited": 1})
        return report + ["plain's robots.txt answered after 3 s under a 1 s lease: fetched once"]
    finally:
        fleet.stop()


def scenario_kill(args: argparse.Namespace) -> list[str]:
    """A worker killed while it fetches the plain host's robots.txt."""
    fleet = Fleet(args, "kill", slow_robots="plain")
    try:
        fleet.fill(fleet.urls())
        fleet.spawn()
        first = wait_for(lambda: next((r for r in fleet.records() if r["host"] == "plain"
                                       and r["path"] == "/robots.txt"), None), 30, "plain's robots.txt")
        victim = first["agent"].split("(worker ")[-1].rstrip(")")
        if victim not in fleet.workers:
            fail(f"kill: no worker {victim!r} in {first['agent']!r}")
        os.kill(fleet.workers[victim].pid, signal.SIGKILL)
        fleet.workers[victim].wait()
        del fleet.workers[victim]
        # The URL the victim had taken from the queue died with it.
        fleet.wait_crawled(DEADLINE_MS / 1000, short_by=1)
        fleet.fill(fleet.missing())
        fleet.wait_crawled(DEADLINE_MS / 1000)
        fleet.finish()
        robots = {"plain": 2, "delay": 1, "flaky": 2, "limited": 1}
        report = check_politeness(fleet, robots)
        fetches = sorted(r["at"] for r in fleet.records() if r["host"] == "plain"
                         and r["path"] == "/robots.txt" and r["phase"] == "start")
        # The lease runs from its grant, shortly before the victim's request
        # reached the site: up to LEASE_SLACK_MS earlier.
        if fetches[1] - fetches[0] < LEASE_MS - LEASE_SLACK_MS:
            fail(f"kill: the lease was taken again after {fetches[1] - fetches[0]:.0f} ms, before it ran out")
        report.append(f"killed {victim} during its robots.txt fetch; the lease went to another worker "
                      f"{fetches[1] - fetches[0]:.0f} ms later (lease {LEASE_MS} ms)")
        return report
    finally:
        fleet.stop()


def scenario_restart(args: argparse.Namespace) -> list[str]:
    """Redis killed and started again, empty, mid-crawl."""
    fleet = Fleet(args, "restart")
    try:
        fleet.fill(fleet.urls())
        fleet.spawn()
        wait_for(lambda: len(fleet.fetched_pages()) >= len(fleet.ports) * PAGES * 0.4, DEADLINE_MS / 1000,
                 "40% of the pages")
        fleet.redis.kill()
        fleet.redis.wait()
        down_at = time.time() * 1000
        time.sleep(1.0)
        fleet.redis = fleet.start_redis()
        # The queue went with Redis: what was not fetched goes back in
        # (the disallowed URLs too: they must still be skipped).
        done = {f"http://127.0.0.1:{fleet.ports[h]}{p}" for h, p in fleet.fetched_pages()}
        fleet.fill([u for u in fleet.urls() if u not in done])
        fleet.wait_crawled(DEADLINE_MS / 1000)
        fleet.finish()
        before = {h: sum(1 for r in fleet.records() if r["phase"] == "start" and r["host"] == h
                         and r["path"] == "/robots.txt" and r["at"] < down_at) for h in fleet.ports}
        # After the restart, once per host at most: by a worker that holds
        # no copy of it yet (the others keep theirs, fresh for a day).
        after = check_politeness(fleet, {h: {0, 1} for h in fleet.ports}, since_ms=down_at)
        everything = check_politeness(fleet, {h: {before[h], before[h] + 1} for h in fleet.ports})
        return everything[1:] + [f"robots.txt fetches before the restart {before}; after it {after[0][28:]}"]
    finally:
        fleet.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--redis-server", required=True)
    parser.add_argument("--redis-cli", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--go", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--workdir", default="")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    if not args.workdir:
        args.workdir = tempfile.mkdtemp(prefix="fleet-")
    started = time.time()
    ran = 0
    scenarios = (("plain", scenario_plain), ("unreadable", scenario_unreadable), ("slow", scenario_slow),
                 ("kill", scenario_kill), ("restart", scenario_restart))
    for name, scenario in scenarios:
        if args.only and name != args.only:
            continue
        for line in scenario(args):
            print(f"fleet-test {name}: {line}", flush=True)
        print(f"fleet-test {name}: passed ({args.workdir}/{name})", flush=True)
        ran += 1
    print(f"fleet-test: 3 Node, 3 Go and 2 Python workers; {ran} scenarios passed in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
