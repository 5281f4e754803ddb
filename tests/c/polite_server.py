#!/usr/bin/env python3
"""A loopback HTTP server for the polite-crawler test.

Usage: polite_server.py LOG

Listens on 127.0.0.1 on a free port and prints the port on its first line.
/robots.txt depends on the Host header: 127.0.0.1 gets rules for PoliteBot
(with a Crawl-delay), any other name (localhost) a 404. /gone is a 404;
every other path is a small page. A second port, printed on the second
line, is a site whose /robots.txt is down: 503 with `Retry-After: 1`.
Each request is appended to LOG as `SECONDS HOST PATH` (monotonic clock).
Exits by itself after 60 s, so a test that dies cannot leave it behind.
"""

import http.server
import sys
import threading
import time
import os

ROBOTS = b"""User-agent: *
Disallow: /

User-agent: PoliteBot
Disallow: /private/
Crawl-delay: 1.2
"""


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        host = self.headers.get("Host", "").rsplit(":", 1)[0]
        with open(self.server.log_path, "a") as log:
            log.write(f"{time.monotonic():.3f} {host} {self.path}\n")
        retry_after = None
        if self.path == "/robots.txt" and self.server.down:
            status, body, retry_after = 503, b"down for maintenance\n", "1"
        elif self.path == "/robots.txt" and host == "127.0.0.1":
            status, body = 200, ROBOTS
        elif self.path in ("/robots.txt", "/gone"):
            status, body = 404, b"not found\n"
        else:
            status, body = 200, b"<p>hello</p>\n"
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        if retry_after is not None:
            self.send_header("Retry-After", retry_after)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    log_path = sys.argv[1]
    open(log_path, "w").close()
    servers = []
    for down in (False, True):
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        server.log_path, server.down = log_path, down
        servers.append(server)
    threading.Timer(60, lambda: os._exit(3)).start()
    print(servers[0].server_address[1], servers[1].server_address[1], sep="\n", flush=True)
    threading.Thread(target=servers[1].serve_forever, daemon=True).start()
    servers[0].serve_forever()


if __name__ == "__main__":
    main()
