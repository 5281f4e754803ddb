"""A drop-in for ``urllib.robotparser``, answering as RFC 9309 says.

>>> from robotstxt.compat import RobotFileParser
>>> rp = RobotFileParser()
>>> rp.parse(["User-agent: *", "Disallow: /a", "Allow: /a/b"])
>>> rp.can_fetch("ExampleBot", "https://example.com/a/b/c")   # the stdlib says False
True
"""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
import urllib.robotparser
from typing import Iterable, List, Optional, Union

from ._agents import rules_for_agent
from ._robotstxt import Robots, Rules, classify

__all__ = ["RobotFileParser", "RequestRate"]

RequestRate = urllib.robotparser.RequestRate
"""The stdlib's ``RequestRate(requests, seconds)`` named tuple."""


class RobotFileParser:
    """The interface of ``urllib.robotparser.RobotFileParser`` over the
    robotstxt engine.

    It answers as RFC 9309 says, where the stdlib does not:

    - the **longest** matching rule decides, ``Allow`` winning ties; the
      stdlib takes the first rule that matches in file order;
    - the crawler's rules are **every** group naming its product token,
      merged, matched whole and case-insensitively (else the ``*`` groups);
      the stdlib takes the first group whose name is a substring of the
      user agent;
    - ``*`` and ``$`` in rules are patterns, and percent-encoding is
      normalised on both sides (``/%70rices`` matches ``/prices``);
    - ``crawl_delay`` may be fractional (``0.5``); the stdlib drops it;
    - :meth:`read` treats a **5xx**, a **429**, an unfollowed redirect and an
      **unreachable** site (a network error, a timeout) as *disallow
      everything*, as RFC 9309 §2.3.1.4 asks; the stdlib leaves a 5xx
      unread and lets a network error escape; 401 and 403 disallow
      everything, other 4xx allow everything, as in the stdlib;
    - :meth:`read` waits at most ``timeout`` seconds (30); the stdlib
      waits for ever.

    ``useragent`` may be a product token (``"ExampleBot"``), a whole
    User-Agent header (``"ExampleBot/1.0 (+https://example.com/bot)"``,
    ``"Mozilla/5.0 (compatible; ExampleBot/2.1)"``: its product token is
    used), or ``"*"`` (or a header that names no crawler): the rules of the
    ``*`` groups.

    As in the stdlib, every question before :meth:`read` or :meth:`parse`
    answers False (``can_fetch``) or None.
    """

    def __init__(self, url: str = "", *, timeout: float = 30.0) -> None:
        self.url = ""
        self.host = ""
        self.path = ""
        self.timeout = timeout
        self.disallow_all = False
        self.allow_all = False
        self.last_checked: float = 0
        self._robots: Optional[Robots] = None
        self._text = ""
        self._rules: dict[str, Rules] = {}
        self.set_url(url)

    def mtime(self) -> float:
        """When the robots.txt was last read or parsed (``time.time()``), or 0."""
        return self.last_checked

    def modified(self) -> None:
        """Sets the time the robots.txt was last read to now."""
        self.last_checked = time.time()

    def set_url(self, url: str) -> None:
        """Sets the URL of the robots.txt to read."""
        self.url = url
        self.host, self.path = urllib.parse.urlparse(url)[1:3]

    def read(self) -> None:
        """Fetches the robots.txt at :attr:`url` and reads what came back
        by the fetch-outcome policy (behaviour §6): a 2xx is parsed; 404 and other
        4xx allow everything; 401, 403, 429, 5xx and network errors disallow
        everything."""
        status: Optional[int]
        body = b""
        try:
            with urllib.request.urlopen(self.url, timeout=self.timeout) as response:
                status = response.status
                body = response.read()
        except urllib.error.HTTPError as err:
            status = err.code
            err.close()
        except (urllib.error.URLError, OSError, ValueError):
            status = None  # unreachable: no response
        kind = classify(status).kind
        self._reset()
        if kind == "follow-rules":
            self._parse(body)
        elif kind == "allow-all":
            self.allow_all = True
            self.modified()
        else:  # disallow-all: 5xx, 429, 401/403, network error (a 304 without a copy too)
            self.disallow_all = True
            self.modified()

    def parse(self, lines: Iterable[str]) -> None:
        """Parses the lines of a robots.txt (as ``str.splitlines()`` gives
        them)."""
        self._reset()
        self._parse("\n".join(lines).encode("utf-8", "surrogateescape"))

    def _reset(self) -> None:
        self.disallow_all = False
        self.allow_all = False
        self._robots = None
        self._rules = {}
        self._text = ""

    def _parse(self, body: bytes) -> None:
        self._robots = Robots.parse(body)
        self._text = body.decode("utf-8", "replace")
        self.modified()

    def _rules_for(self, useragent: str) -> Optional[Rules]:
        if self._robots is None:
            return None
        rules = self._rules.get(useragent)
        if rules is None:
            rules = self._rules[useragent] = rules_for_agent(self._robots, useragent)
        return rules

    def can_fetch(self, useragent: str, url: Union[str, bytes]) -> bool:
        """Whether the crawler ``useragent`` may fetch ``url``."""
        if self.disallow_all:
            return False
        if self.allow_all:
            return True
        if not self.last_checked:
            return False
        rules = self._rules_for(useragent)
        return rules is not None and rules.can_fetch(url)

    def crawl_delay(self, useragent: str) -> Optional[float]:
        """The Crawl-delay for ``useragent`` in seconds (fractions kept), or
        None."""
        if not self.mtime():
            return None
        rules = self._rules_for(useragent)
        return None if rules is None else rules.crawl_delay

    def request_rate(self, useragent: str) -> Optional[urllib.robotparser.RequestRate]:
        """The Request-rate for ``useragent`` as the stdlib's named tuple
        ``RequestRate(requests, seconds)``, or None."""
        if not self.mtime():
            return None
        rules = self._rules_for(useragent)
        rate = None if rules is None else rules.request_rate
        return None if rate is None else RequestRate(rate.requests, rate.seconds)

    def site_maps(self) -> Optional[List[str]]:
        """The Sitemap URLs in file order, or None when there are none."""
        if self._robots is None:
            return None
        return self._robots.sitemaps or None

    def __str__(self) -> str:
        return self._text
