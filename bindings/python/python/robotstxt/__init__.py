"""robotstxt: the robots.txt engine for crawlers that mean to behave.

RFC 9309 by default, or what Google's parser answers with
``profile="google"``; one compiled core shared with the Rust, C, Node and Go
bindings, so every language gets the same answers.

>>> import robotstxt
>>> robots = robotstxt.Robots.parse(b"User-agent: *\\nDisallow: /private/\\nCrawl-delay: 2.5\\n")
>>> rules = robots.rules_for("ExampleBot")     # a product token, not a User-Agent header
>>> rules.can_fetch("https://example.com/private/x")
False
>>> rules.decide("/private/x")
Decision(allowed=False, line=2, kind='disallow', pattern='/private/')
>>> rules.crawl_delay
2.5

The library does no I/O and reads no clock of its own in the core: you fetch
``/robots.txt`` and report what happened. :mod:`robotstxt.access` says what a
fetch outcome means, :class:`Entry` keeps one copy fresh, :class:`Cache`
keeps one copy per origin and hands out one fetch at a time, and
:class:`Pacer` spaces the requests to each host. :mod:`robotstxt.aio` does
the fetching and sleeping for asyncio code; :mod:`robotstxt.scrapy` and
:mod:`robotstxt.compat` plug the engine into Scrapy and into code written for
``urllib.robotparser``. :mod:`robotstxt.fleet` shares the cache and the pacer
between the worker processes of a crawler fleet through Redis; the natives it
builds on (:meth:`Entry.encode`, :meth:`Entry.decode`, :func:`fleet_script`,
:func:`robots_origin`, :func:`pacer_host`, :func:`pace_ms`) are here.
"""

from . import access
from ._robotstxt import (
    MAX_PARSE_LIMIT,
    MIN_PARSE_LIMIT,
    STORED_COPY_VERSION,
    Access,
    Answer,
    ArgumentTypeError,
    Blanket,
    BodyMismatchError,
    Cache,
    CacheStats,
    ClosedError,
    Confirm,
    ContentSignal,
    CopyVersionError,
    Decision,
    Diagnostic,
    Entry,
    Error,
    HostDisabledError,
    InvalidArgumentError,
    InvalidCopyError,
    InvalidHostError,
    InvalidLeaseError,
    InvalidOptionError,
    InvalidStatementError,
    InvalidTextError,
    InvalidTicketError,
    InvalidTokenError,
    InvalidUrlError,
    InvalidUserAgentError,
    LabelPreference,
    Lease,
    Lookup,
    NoTokensError,
    OtherRecord,
    Pacer,
    PacerFullError,
    ParseLimitError,
    Preferences,
    RedisError,
    RequestRate,
    Robots,
    Rules,
    Ticket,
    UsageStatement,
    __version__,
    classify,
    core_version,
    fleet_script,
    from_outcome,
    origin,
    pace_ms,
    pacer_host,
    product_token,
    robots_origin,
)

__all__ = [
    "MAX_PARSE_LIMIT",
    "MIN_PARSE_LIMIT",
    "STORED_COPY_VERSION",
    "Access",
    "Answer",
    "ArgumentTypeError",
    "Blanket",
    "BodyMismatchError",
    "Cache",
    "CacheStats",
    "ClosedError",
    "Confirm",
    "ContentSignal",
    "CopyVersionError",
    "Decision",
    "Diagnostic",
    "Entry",
    "Error",
    "HostDisabledError",
    "InvalidArgumentError",
    "InvalidCopyError",
    "InvalidHostError",
    "InvalidLeaseError",
    "InvalidOptionError",
    "InvalidStatementError",
    "InvalidTextError",
    "InvalidTicketError",
    "InvalidTokenError",
    "InvalidUrlError",
    "InvalidUserAgentError",
    "LabelPreference",
    "Lease",
    "Lookup",
    "NoTokensError",
    "OtherRecord",
    "Pacer",
    "PacerFullError",
    "ParseLimitError",
    "Preferences",
    "RedisError",
    "RequestRate",
    "Robots",
    "Rules",
    "Ticket",
    "UsageStatement",
    "__version__",
    "access",
    "classify",
    "core_version",
    "fleet_script",
    "from_outcome",
    "origin",
    "pace_ms",
    "pacer_host",
    "product_token",
    "robots_origin",
]
