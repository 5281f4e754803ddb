"""Local test sites: threaded HTTP servers on 127.0.0.1 (an ephemeral port
each) that answer from a Python function and log every request."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Dict, List, Optional, Tuple

# (status, headers, body)
Reply = Tuple[int, Dict[str, str], bytes]


@dataclass
class Hit:
    """One request a site received."""

    at: float  # time.monotonic()
    path: str
    headers: Dict[str, str]


@dataclass
class Site:
    """A site whose ``answer(path, site)`` gives each reply."""

    answer: Callable[[str, "Site"], Reply]
    hits: List[Hit] = field(default_factory=list)
    started: float = 0.0
    _server: Optional[ThreadingHTTPServer] = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.origin + path

    def paths(self, prefix: str = "") -> List[str]:
        with self._lock:
            return [h.path for h in self.hits if h.path.startswith(prefix)]

    def pages(self) -> List[Hit]:
        """The requests for anything but /robots.txt."""
        with self._lock:
            return [h for h in self.hits if h.path != "/robots.txt"]

    def start(self) -> "Site":
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                with site._lock:
                    site.hits.append(Hit(time.monotonic(), self.path, dict(self.headers.items())))
                status, headers, body = site.answer(self.path, site)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.started = time.monotonic()
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> "Site":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def page(path: str) -> Reply:
    return 200, {"Content-Type": "text/html"}, f"<html><body>{path}</body></html>".encode()


def text(body: str, status: int = 200, headers: Optional[Dict[str, str]] = None) -> Reply:
    return status, {"Content-Type": "text/plain", **(headers or {})}, body.encode()


def redirect(location: str, status: int = 301) -> Reply:
    return status, {"Location": location}, b""
