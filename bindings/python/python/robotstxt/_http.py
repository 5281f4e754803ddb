"""HTTP header readings shared by the fetchers and the Scrapy middleware.

The core reads every value (behaviour §11); this module only passes the
header values through, as the HTTP client gives them.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ._robotstxt import http_read

Header = Union[str, bytes, None]


def retry_after_ms(value: Header, now_ms: Optional[float] = None) -> Optional[int]:
    """A ``Retry-After`` header in milliseconds from now, or None.

    It may be a number of seconds (``"120"``) or an HTTP date in any of its
    three forms, always GMT (``"Wed, 21 Oct 2015 07:28:00 GMT"``, ``"Wednesday,
    21-Oct-15 07:28:00 GMT"``, ``"Wed Oct 21 07:28:00 2015"``; a date in the
    past gives 0). ``now_ms`` is the clock for a date (the system clock when
    left out). Anything else, or no header, gives None.

    >>> retry_after_ms("120")
    120000
    >>> retry_after_ms("Wed Oct 21 07:30:00 2015", now_ms=1445412480000)
    120000
    >>> retry_after_ms("soon") is None
    True
    """
    if value is None:
        return None
    return http_read(retry_after=value, now_ms=now_ms)[1]


def max_age_ms(value: Header) -> Optional[int]:
    """The ``max-age`` of a ``Cache-Control`` header in milliseconds, or None.

    >>> max_age_ms("public, max-age=600")
    600000
    """
    if value is None:
        return None
    return http_read(cache_control=value, now_ms=0)[0]


def response_fields(
    header: Callable[[str], Any],
    min_max_age_ms: int,
    now_ms: Optional[float] = None,
) -> Tuple[Dict[str, Any], List[str]]:
    """The fetch outcome's header fields of a response whose headers
    ``header(name)`` gives (str, bytes or None): ``max_age_ms`` (raised to
    at least ``min_max_age_ms``), ``retry_after_ms``, ``etag`` and
    ``last_modified``; and why each value left out was ignored.

    >>> headers = {"retry-after": "soon", "etag": ' "v1" '}
    >>> fields, ignored = response_fields(headers.get, 60_000)
    >>> fields["etag"], fields["retry_after_ms"]
    ('"v1"', None)
    >>> ignored
    ['Retry-After ignored: not delta-seconds nor an HTTP-date: "soon"']
    """
    max_age, retry_after, etag, last_modified, ignored = http_read(
        header("retry-after"),
        header("cache-control"),
        header("etag"),
        header("last-modified"),
        now_ms=now_ms,
        min_max_age_ms=min_max_age_ms,
    )
    fields = {
        "max_age_ms": max_age,
        "retry_after_ms": retry_after,
        "etag": etag,
        "last_modified": last_modified,
    }
    return fields, ignored
