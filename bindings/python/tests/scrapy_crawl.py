"""A real Scrapy crawl, run in a subprocess by test_scrapy.py:

    python scrapy_crawl.py START_URL SETTINGS_JSON STATS_FILE

It follows every link of the site it starts on and writes the crawl's
stats to STATS_FILE as JSON when it closes, with "_slots": the delay and
jitter each download slot had as its responses arrived."""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, Iterator, List, Tuple

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import Response


class SiteSpider(scrapy.Spider):
    name = "site"

    def __init__(self, start: str, stats_file: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [start]
        self.stats_file = stats_file
        self.slots: Dict[str, List[Tuple[float, float]]] = {}

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        key = response.meta["download_slot"]
        slot = self.crawler.engine.downloader.slots[key]
        self.slots.setdefault(key, []).append((slot.delay, slot.jitter))
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, callback=self.parse)

    def closed(self, reason: str) -> None:
        assert self.crawler.stats is not None
        stats: Dict[str, Any] = {
            k: v for k, v in self.crawler.stats.get_stats().items() if isinstance(v, (int, float, str))
        }
        stats["_slots"] = self.slots
        with open(self.stats_file, "w") as f:
            json.dump(stats, f)


def main() -> None:
    start, settings, stats_file = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    process = CrawlerProcess(
        {
            "LOG_LEVEL": "INFO",
            "TELNETCONSOLE_ENABLED": False,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS": 8,
            "RETRY_ENABLED": False,
            "CLOSESPIDER_TIMEOUT": 60,
            **settings,
        }
    )
    process.crawl(SiteSpider, start=start, stats_file=stats_file)
    process.start()


if __name__ == "__main__":
    main()
