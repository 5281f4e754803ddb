"""The fetch-outcome policy (behaviour §6): what a fetch of ``/robots.txt`` means.

=================================  ======================================
outcome                            ``classify(status).kind``
=================================  ======================================
2xx, reached in ≤ 5 redirects      ``"follow-rules"``: parse the body
more than 5 redirects              ``"allow-all"``
304 to a conditional request       ``"not-modified"``: keep the copy
other 3xx left unfollowed          ``"disallow-all"``, retry later
401, 403 (``policy="careful"``)    ``"disallow-all"``, retry later
404, 410, other 4xx                ``"allow-all"``
429 (``policy="careful"``)         ``"disallow-all"``, retry later
5xx, network error (``None``)      ``"disallow-all"``, retry later
=================================  ======================================

``policy="strict"`` reads RFC 9309 to the letter: 401, 403 and 429 allow
everything.

>>> from robotstxt import access
>>> access.classify(503).kind, access.classify(None).retry_later
('disallow-all', True)
>>> access.from_outcome(200, b"User-agent: *\\nDisallow: /\\n").robots.rules_for("ExampleBot").can_fetch("/x")
False
"""

from ._robotstxt import Access, classify, from_outcome

__all__ = ["Access", "classify", "from_outcome"]
