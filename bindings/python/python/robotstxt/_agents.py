"""From what adapters are given (a User-Agent header, a token, "*") to the
rules to ask."""

from __future__ import annotations

import random
import string
from typing import Optional, Union

from ._robotstxt import InvalidTextError, InvalidUserAgentError, Robots, Rules, product_token

# A product token that no robots.txt names (random per process, so that no
# file can aim at it): its rules are those of the `*` groups, what a crawler
# that gives no name of its own must follow.
ANY_CRAWLER = "robotstxt-unnamed-" + "".join(random.choice(string.ascii_lowercase) for _ in range(16))

_TOKEN_BYTES = frozenset((string.ascii_letters + "_-").encode())


def is_token(text: str) -> bool:
    """Whether ``text`` is a product token: one or more of A-Z a-z _ -."""
    raw = text.encode("utf-8", "surrogatepass")
    return bool(raw) and all(b in _TOKEN_BYTES for b in raw)


def token_of(user_agent: Union[str, bytes]) -> Optional[str]:
    """The product token to select rules with: ``user_agent`` itself when it
    is one, the token a User-Agent header names (``"ExampleBot/1.0 (+https://
    …)"`` gives ``"ExampleBot"``), or None when it names none (``"*"``, a
    browser's header)."""
    text = user_agent.decode("latin-1") if isinstance(user_agent, bytes) else user_agent
    text = text.strip()
    if is_token(text):
        return text
    try:
        return product_token(text)
    except (InvalidUserAgentError, InvalidTextError):
        return None


def rules_for_agent(robots: Robots, user_agent: Union[str, bytes]) -> Rules:
    """The rules for the crawler ``user_agent`` names, else those of the
    ``*`` groups."""
    return robots.rules_for(token_of(user_agent) or ANY_CRAWLER)
