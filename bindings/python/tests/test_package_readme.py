"""The package index's page (bindings/python/README.md): its Python blocks
run as written against the installed wheel, and its links are absolute
(the index shows the file outside the repository)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")


def test_every_python_block_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", TEXT, re.S)
    assert len(blocks) >= 2, "the page shows an example and the Scrapy settings"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})


def test_the_scrapy_settings_name_the_middleware() -> None:
    settings: dict[str, object] = {}
    block = next(b for b in re.findall(r"```python\n(.*?)```", TEXT, re.S) if "settings.py" in b)
    exec(block, {}, settings)
    middlewares = settings["DOWNLOADER_MIDDLEWARES"]
    assert isinstance(middlewares, dict)
    assert middlewares["robotstxt.scrapy.RobotsTxtMiddleware"] == 100
    from robotstxt.scrapy import RobotsTxtMiddleware  # the path the settings name

    assert RobotsTxtMiddleware.__module__ == "robotstxt.scrapy"


def test_links_are_absolute() -> None:
    links = re.findall(r"\]\(([^)]+)\)", TEXT)
    assert links, "the page links to the guide"
    relative = [link for link in links if not link.startswith("https://")]
    assert not relative, f"links the package index cannot follow: {relative}"
