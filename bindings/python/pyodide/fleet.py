"""robotstxt.fleet in Pyodide: not available.

A fleet shares one robots.txt copy per origin and one pace per host
through Redis, and Pyodide cannot reach a Redis server: robotstxt runs
there as WebAssembly, with no sockets and one thread. Every class of the
native package's robotstxt.fleet is named here, and making one raises an
UnsupportedError (a robotstxt.Error and a NotImplementedError) saying what
to use instead: robotstxt.aio's AsyncRobotsCache and AsyncPacer (this
interpreter's own), or robotstxt.Cache and robotstxt.Pacer. The natives a
fleet builds on (Entry.encode, Entry.decode, fleet_script,
robots_origin, pacer_host, pace_ms) work, for a store you can reach.
"""

from __future__ import annotations

from typing import Any

from ._robotstxt import UnsupportedError

__all__ = [
    "RedisClient",
    "RedisFallbackWarning",
    "SharedCache",
    "SharedCacheStats",
    "SharedConfirm",
    "SharedLease",
    "SharedLookup",
    "SharedPacer",
    "SharedRobotsCache",
    "SharedTicket",
]

_INSTEAD = {
    "SharedRobotsCache": "robotstxt.aio.AsyncRobotsCache",
    "SharedCache": "robotstxt.Cache",
    "SharedPacer": "robotstxt.aio.AsyncPacer",
}


class _Unavailable:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        name = type(self).__name__
        instead = _INSTEAD.get(name, "robotstxt.aio.AsyncRobotsCache and robotstxt.aio.AsyncPacer")
        raise UnsupportedError(
            f"robotstxt.fleet.{name} is not available in Pyodide: a fleet shares its state through "
            "Redis, which Pyodide cannot reach (robotstxt runs there as WebAssembly: no sockets, one "
            f"thread). Use {instead} instead (this interpreter's own; politeness then holds per "
            "interpreter), or Entry.encode and Entry.decode with a store you can reach."
        )


class SharedRobotsCache(_Unavailable):
    """Not available in Pyodide (see the module)."""


class SharedCache(_Unavailable):
    """Not available in Pyodide (see the module)."""


class SharedPacer(_Unavailable):
    """Not available in Pyodide (see the module)."""


class SharedCacheStats(_Unavailable):
    """Not available in Pyodide (see the module)."""


class SharedLease(_Unavailable):
    """Not available in Pyodide (see the module)."""


class SharedLookup(_Unavailable):
    """Not available in Pyodide (see the module)."""


class SharedTicket(_Unavailable):
    """Not available in Pyodide (see the module)."""


class SharedConfirm(_Unavailable):
    """Not available in Pyodide (see the module)."""


class RedisClient(_Unavailable):
    """Not available in Pyodide (see the module)."""


class RedisFallbackWarning(RuntimeWarning):
    """Never issued in Pyodide, where no fleet runs (see the module)."""


