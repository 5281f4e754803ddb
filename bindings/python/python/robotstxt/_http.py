"""HTTP header readings shared by the fetchers and the Scrapy middleware."""

from __future__ import annotations

import email.utils
import re
import time
from typing import Optional, Union

_MAX_AGE = re.compile(r'^\s*max-age\s*=\s*"?(\d+)"?\s*$', re.IGNORECASE)


def _text(value: Union[str, bytes, None]) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value


def retry_after_ms(value: Union[str, bytes, None], now_ms: Optional[float] = None) -> Optional[int]:
    """A ``Retry-After`` header in milliseconds from now, or None.

    It may be a number of seconds (``"120"``) or an HTTP date (``"Wed, 21
    Oct 2015 07:28:00 GMT"``; a date in the past gives 0). ``now_ms`` is the
    clock for a date (the system clock when left out). Anything else, or no
    header, gives None.

    >>> retry_after_ms("120")
    120000
    >>> retry_after_ms("soon") is None
    True
    """
    text = _text(value)
    if text is None:
        return None
    text = text.strip()
    if text.isdigit():
        return int(text) * 1000
    if not text[:3].isalpha():  # an HTTP date starts with its day's name
        return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    now = time.time() * 1000 if now_ms is None else now_ms
    return max(0, int(when.timestamp() * 1000 - now))


def max_age_ms(value: Union[str, bytes, None]) -> Optional[int]:
    """The ``max-age`` of a ``Cache-Control`` header in milliseconds, or None.

    >>> max_age_ms("public, max-age=600")
    600000
    """
    text = _text(value)
    if text is None:
        return None
    for directive in text.split(","):
        match = _MAX_AGE.match(directive)
        if match is not None:
            return int(match.group(1)) * 1000
    return None
