"""Shared fixtures: where the repository is, and a guard that the package
under test is the installed wheel, not the source tree."""

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


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def pytest_report_header(config: pytest.Config) -> str:
    return f"robotstxt {robotstxt.__version__} from {Path(robotstxt.__file__).parent}"
