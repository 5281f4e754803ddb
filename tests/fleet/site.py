"""A local multi-host site for the fleet test: one HTTP server per host on
127.0.0.1 (each its own port, so its own origin and pacer host), each
request logged as a JSON line when it arrives and when it is answered.

    python3 site.py --log FILE --ports-out FILE [--slow-robots HOST --slow-ms N]

Hosts (each /robots.txt disallows /private/):
  plain    nothing special
  delay    Crawl-delay: 0.2
  flaky    its robots.txt answers 503 the first time, then 200
  limited  its first page request answers 429 with Retry-After: 1

With --slow-robots, that host's first robots.txt request waits --slow-ms
before answering (a worker can be killed meanwhile). Runs until killed.
"""

import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOSTS = ("plain", "delay", "flaky", "limited")
ROBOTS = {
    "plain": "User-agent: *\nDisallow: /private/\n",
    "delay": "User-agent: *\nCrawl-delay: 0.2\nDisallow: /private/\n",
    "flaky": "User-agent: *\nDisallow: /private/\n",
    "limited": "User-agent: *\nDisallow: /private/\n",
}


class Site:
    def __init__(self, log_path: str, slow_host: str, slow_ms: int) -> None:
        self.log = open(log_path, "a", buffering=1, encoding="utf-8")
        self.lock = threading.Lock()
        self.firsts: set[tuple[str, str]] = set()
        self.slow_host = slow_host
        self.slow_ms = slow_ms

    def first(self, host: str, what: str) -> bool:
        """Whether this is the first `what` request to `host` (and mark it)."""
        with self.lock:
            if (host, what) in self.firsts:
                return False
            self.firsts.add((host, what))
            return True

    def write(self, record: dict) -> None:
        with self.lock:
            self.log.write(json.dumps(record) + "\n")


def handler(site: Site, host: str, port: int) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            start = time.time() * 1000
            agent = self.headers.get("User-Agent", "")
            site.write({"at": start, "host": host, "port": port, "path": self.path,
                        "agent": agent, "phase": "start"})
            status, body, headers = 200, b"ok\n", {}
            if self.path == "/robots.txt":
                if host == site.slow_host and site.first(host, "slow"):
                    time.sleep(site.slow_ms / 1000)
                if host == "flaky" and site.first(host, "robots"):
                    status, body = 503, b"busy\n"
                else:
                    body = ROBOTS[host].encode()
            elif host == "limited" and self.path.startswith("/page/") and site.first(host, "page"):
                status, body, headers = 429, b"slow down\n", {"Retry-After": "1"}
            try:
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                status = 0  # the client is gone (a killed worker)
            site.write({"at": time.time() * 1000, "start": start, "host": host, "port": port,
                        "path": self.path, "agent": agent, "phase": "end", "status": status})

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--ports-out", required=True)
    parser.add_argument("--slow-robots", default="")
    parser.add_argument("--slow-ms", type=int, default=0)
    args = parser.parse_args()
    site = Site(args.log, args.slow_robots, args.slow_ms)
    ports = {}
    for host in HOSTS:
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler(site, host, 0))
        port = server.server_address[1]
        server.RequestHandlerClass = handler(site, host, port)
        ports[host] = port
        threading.Thread(target=server.serve_forever, daemon=True).start()
    with open(args.ports_out + ".tmp", "w", encoding="utf-8") as out:
        json.dump(ports, out)
    os.replace(args.ports_out + ".tmp", args.ports_out)
    threading.Event().wait()


if __name__ == "__main__":
    main()
