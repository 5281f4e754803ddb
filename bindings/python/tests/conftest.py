"""Shared fixtures: where the repository is, a guard that the package
under test is the installed wheel, not the source tree, and what the
interpreter running the suite cannot do."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import robotstxt

HERE = Path(__file__).resolve().parent
# `make python-test` sets ROBOTSTXT_REPO; from a checkout, two levels up.
REPO = Path(os.environ.get("ROBOTSTXT_REPO", HERE.parent.parent.parent)).resolve()
VECTORS = REPO / "tests" / "vectors"
EXAMPLES = REPO / "examples"

# What the interpreter running the suite cannot do, and why. The runner
# that knows names these in ROBOTSTXT_TEST_LIMITS (comma-separated), e.g.
# the arm64 wheel's suite under qemu-user; a test that needs one is then
# reported as skipped with the reason, never as passed.
WHY = {
    # qemu-user runs one process; without binfmt_misc its child, started
    # from sys.executable, is an arm64 binary the kernel cannot execute.
    "spawn": "cannot start a child Python here (an emulated architecture without binfmt_misc)",
    # qemu-user translates every instruction: test_huge_inputs takes 0.5 s
    # natively and 44 s there, and asyncio wakes up to 10 ms late.
    "slow": "an emulated CPU: wall-clock bounds are 10 times a native run's, and a wake-up may be 20 ms late",
    # The fleet tests start their own redis-server; Redis ships none for Windows.
    "redis": "no redis-server for this platform",
}
LIMITS = {name for name in os.environ.get("ROBOTSTXT_TEST_LIMITS", "").split(",") if name}
if LIMITS - WHY.keys():
    raise ValueError(f"ROBOTSTXT_TEST_LIMITS names {sorted(LIMITS - WHY.keys())}, which tests/conftest.py does not know")


def cannot(name: str) -> str | None:
    """The reason the interpreter cannot do `name`, or None when it can."""
    if name not in WHY:
        raise ValueError(f"tests/conftest.py knows no limit {name!r}")
    return f"{WHY[name]} (ROBOTSTXT_TEST_LIMITS)" if name in LIMITS else None


def time_bound(seconds: float) -> float:
    """A wall-clock bound set for a native run, stretched where the CPU is emulated."""
    return seconds * 10 if "slow" in LIMITS else seconds


def jitter(seconds: float) -> float:
    """How late a timing test lets a wake-up be: `seconds` natively, 20 ms where the CPU is emulated."""
    return max(seconds, 0.02) if "slow" in LIMITS else seconds


def needs(name: str) -> pytest.MarkDecorator:
    """Skips the test, saying why, where the interpreter cannot do `name`."""
    reason = cannot(name)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"robotstxt {robotstxt.__version__} from {Path(robotstxt.__file__).parent}"]
    lines += [f"ROBOTSTXT_TEST_LIMITS {name}: {WHY[name]}" for name in sorted(LIMITS)]
    return lines
