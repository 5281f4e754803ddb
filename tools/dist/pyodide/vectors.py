"""Runs the Python suite's shared vectors (test_vectors.py) and its API
tests (API_MODULES) inside Pyodide, where pytest is not installed (its
wheel would come from Pyodide's CDN): the few pytest names the files use
are stood in for here, and each test, or parametrised case, is called as
pytest would call it. Tests Pyodide cannot run are reported as skipped,
with the reason. Then a smoke test of the API, and of what Pyodide cannot
do. Prints `N passed, M failed` last.

Run by test.mjs with the repository's tests/vectors, the test files and
examples/shop copied into Pyodide's file system under REPO.
"""

from __future__ import annotations

import inspect
import os
import re
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

REPO = Path("/repo")
TESTS = REPO / "bindings" / "python" / "tests"


class _Raises:
    def __init__(self, expected: Any, match: Any = None) -> None:
        self.expected, self.match = expected, match
        self.value: Any = None

    def __enter__(self) -> "_Raises":
        return self

    def __exit__(self, kind: Any, value: Any, tb: Any) -> bool:
        if kind is None:
            raise AssertionError(f"DID NOT RAISE {self.expected}")
        if not issubclass(kind, self.expected):
            return False
        if self.match is not None and not re.search(self.match, str(value)):
            raise AssertionError(f"{str(value)!r} does not match {self.match!r}")
        self.value = value
        return True


def _parametrize(names: Any, values: Any, ids: Any = None) -> Callable[[Any], Any]:
    names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)

    def mark(f: Any) -> Any:
        cases = []
        for i, v in enumerate(values):
            if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], tuple) and getattr(v, "_param", False):
                v = v[1]
            args = v if len(names) > 1 else (v,)
            label = ids(v) if callable(ids) else str(i)
            cases.append((label, dict(zip(names, args))))
        f._cases = cases
        return f

    return mark


class _Param(tuple):
    _param = True


class _Skipped(Exception):
    pass


def _skip(reason: str = "") -> None:
    raise _Skipped(reason)


def _skipif(condition: Any, *, reason: str = "") -> Callable[[Any], Any]:
    def mark(f: Any) -> Any:
        if condition:
            f._skip = reason
        return f

    return mark


def _fixture(*args: Any, **kwargs: Any) -> Any:
    if args and callable(args[0]):
        return args[0]
    return lambda f: f


def _stand_ins() -> None:
    """pytest's names the suite uses, and the suite's own conftest.py (or,
    where it does not import here, its paths)."""
    pytest = types.ModuleType("pytest")
    pytest.raises = _Raises  # type: ignore[attr-defined]
    pytest.param = lambda *values, id=None: _Param((id, values))  # type: ignore[attr-defined]
    pytest.mark = types.SimpleNamespace(parametrize=_parametrize, skipif=_skipif)  # type: ignore[attr-defined]
    pytest.skip = _skip  # type: ignore[attr-defined]
    pytest.fixture = _fixture  # type: ignore[attr-defined]
    pytest.MarkDecorator = pytest.Config = object  # type: ignore[attr-defined]
    sys.modules["pytest"] = pytest
    os.environ["ROBOTSTXT_REPO"] = str(REPO)
    sys.path.insert(0, str(TESTS))
    try:
        import conftest  # noqa: F401
    except Exception:  # noqa: BLE001 - a conftest this runner cannot load
        conftest = types.ModuleType("conftest")
        conftest.REPO = REPO  # type: ignore[attr-defined]
        conftest.VECTORS = REPO / "tests" / "vectors"  # type: ignore[attr-defined]
        conftest.EXAMPLES = REPO / "examples"  # type: ignore[attr-defined]
        sys.modules["conftest"] = conftest


def _run_now(coroutine: Any) -> Any:
    """asyncio.run for steps that never suspend (the vectors' local cache
    and pacer only await plain calls): Node 20 has no WebAssembly stack
    switching, which Pyodide's asyncio.run needs to block."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("a vector step suspended: it needs a running event loop")


def vectors() -> Tuple[int, List[str], Dict[str, str]]:
    _stand_ins()
    import test_vectors as tv

    tv.asyncio = types.SimpleNamespace(run=_run_now)  # type: ignore[attr-defined]
    checks: List[Tuple[str, Callable[[], None]]] = [
        ("test_every_vector_file_is_run", tv.test_every_vector_file_is_run),
        ("test_case_names_are_unique", tv.test_case_names_are_unique),
    ]
    for case_id, (file, case) in tv.cases():
        checks.append((case_id, lambda file=file, case=case: tv.test_vector(file, case)))
    # Groups that cannot run here, with the reason (none so far).
    skipped: Dict[str, str] = {}
    passed, failed = 0, []
    for name, check in checks:
        if any(name.startswith(group) for group in skipped):
            continue
        try:
            check()
            passed += 1
        except Exception:  # noqa: BLE001 - a failing case is reported, not fatal
            failed.append(f"{name}\n{traceback.format_exc(limit=4)}")
    return passed, failed, skipped


# The API tests (bindings/python/tests) run here, and what they need that
# Pyodide cannot give: each test skipped, with the reason.
API_MODULES = ("test_api", "test_bad_input", "test_preferences")
API_SKIPS = {
    "test_api::test_the_gil_is_released_while_parsing_and_checking_large_batches":
        "starts threads, and Pyodide runs one (no threading.Thread)",
    "test_bad_input::test_many_threads_share_one_of_each":
        "starts threads, and Pyodide runs one (no threading.Thread)",
    "test_api::test_every_public_name_has_a_docstring":
        "imports robotstxt.scrapy, which needs Scrapy: not in Pyodide without its CDN, and Twisted does not run there",
}


def api() -> Tuple[int, List[str], Dict[str, str]]:
    passed, failed = 0, []
    skipped: Dict[str, str] = {}
    for module_name in API_MODULES:
        module = __import__(module_name)
        for name, test in sorted(vars(module).items()):
            if not name.startswith("test_") or not callable(test):
                continue
            key = f"{module_name}::{name}"
            if key in API_SKIPS or getattr(test, "_skip", None) is not None:
                skipped[key] = API_SKIPS.get(key) or test._skip
                continue
            for label, kwargs in getattr(test, "_cases", [("", {})]):
                for param in inspect.signature(test).parameters:
                    if param == "repo":
                        kwargs = {**kwargs, "repo": REPO}
                started = time.perf_counter()
                try:
                    test(**kwargs)
                    passed += 1
                except _Skipped as why:
                    skipped[f"{key}[{label}]"] = str(why)
                except Exception:  # noqa: BLE001
                    failed.append(f"{key}[{label}]\n{traceback.format_exc(limit=4)}")
                took = time.perf_counter() - started
                if took > 2:
                    print(f"  slow: {key}[{label}] took {took:.1f} s")
    return passed, failed, skipped


def smoke() -> Tuple[int, List[str]]:
    import robotstxt
    import robotstxt.fleet

    body = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 2.5\nSitemap: https://example.com/sitemap.xml\n"
    steps: List[Tuple[str, Callable[[], Any], Any]] = []
    robots = robotstxt.Robots.parse(body)
    rules = robots.rules_for("ExampleBot")
    steps += [
        ("Robots.parse", lambda: repr(robots), "<robotstxt.Robots profile='rfc', 1 groups, 1 rules>"),
        ("rules_for", lambda: repr(rules), "<robotstxt.Rules profile='rfc', 1 rules>"),
        ("can_fetch /private/x", lambda: rules.can_fetch("https://example.com/private/x"), False),
        ("can_fetch /public", lambda: rules.can_fetch(b"/public"), True),
        ("decide", lambda: rules.decide("/private/x"),
         "Decision(allowed=False, line=2, kind='disallow', pattern='/private/')"),
        ("crawl_delay", lambda: rules.crawl_delay, 2.5),
        ("sitemaps", lambda: robots.sitemaps, ["https://example.com/sitemap.xml"]),
        ("classify(503)", lambda: robotstxt.classify(503).kind, "disallow-all"),
        ("origin", lambda: robotstxt.origin("HTTPS://Example.COM:443/a?b"), "https://example.com"),
        ("product_token", lambda: robotstxt.product_token("Mozilla/5.0 (compatible; ExampleBot/2.1)"), "ExampleBot"),
        ("core_version", lambda: robotstxt.core_version() == robotstxt.__version__, True),
    ]

    def fleet() -> str:
        try:
            robotstxt.fleet.SharedRobotsCache(object(), None)
        except robotstxt.Error as error:
            assert isinstance(error, NotImplementedError), type(error)
            return str(error)
        raise AssertionError("SharedRobotsCache was made")

    def invalid_token() -> str:
        try:
            robots.rules_for("ExampleBot/1.0")
        except robotstxt.InvalidTokenError as error:
            return error.token
        raise AssertionError("no InvalidTokenError")

    steps += [
        ("fleet", fleet, None),
        ("InvalidTokenError", invalid_token, "ExampleBot/1.0"),
    ]
    passed, failed = 0, []
    for name, run, want in steps:
        try:
            got = run()
            if isinstance(want, str) and not isinstance(got, str):
                got = repr(got)  # a value checked by its repr
            if want is not None and got != want:
                raise AssertionError(f"got {got!r}, want {want!r}")
            print(f"  smoke {name}: {got}")
            passed += 1
        except Exception:  # noqa: BLE001
            failed.append(f"smoke {name}\n{traceback.format_exc(limit=3)}")
    return passed, failed


def main() -> Tuple[int, int]:
    passed, failed, skipped = vectors()
    print(f"vectors: {passed} passed, {len(failed)} failed")
    for group, reason in skipped.items():
        print(f"  skipped {group}: {reason}")
    a_passed, a_failed, a_skipped = api()
    print(f"API tests ({', '.join(API_MODULES)}): {a_passed} passed, {len(a_failed)} failed, {len(a_skipped)} skipped")
    for test, reason in a_skipped.items():
        print(f"  skipped {test}: {reason}")
    failed += a_failed
    passed += a_passed
    s_passed, s_failed = smoke()
    print(f"smoke: {s_passed} passed, {len(s_failed)} failed")
    for failure in (failed + s_failed)[:30]:
        print("FAILED " + failure)
    return passed + s_passed, len(failed) + len(s_failed)
