// The C++ wrapper (bindings/cpp/robotstxt.hpp) over the practice shop:
// answers, borrowed views, errors as exceptions, moves; rules from the C
// cache: blanket decisions, their cause and retry time; and usage
// preferences. Ends with the
// summary line `N passed, M failed`.
#include <robotstxt.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static int passed = 0, failed = 0;

static void check(bool ok, const char *what, int line) {
    if (ok) {
        passed++;
    } else {
        failed++;
        std::fprintf(stderr, "test_cpp.cpp:%d: check failed: %s\n", line, what);
    }
}
#define CHECK(cond) check((cond), #cond, __LINE__)

static const uint8_t *u8(const std::string &s) {
    return reinterpret_cast<const uint8_t *>(s.data());
}

int main() {
    std::ifstream file("examples/shop/robots.txt", std::ios::binary);
    std::string body((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    CHECK(!body.empty());

    auto robots = robotstxt::Robots::parse(body);
    auto nimbu = robots.rules_for("NimbuBot");
    CHECK(nimbu.can_fetch("/prices/today"));
    CHECK(!nimbu.can_fetch("https://bazaar.nimbu.test/prices/history"));
    auto d = nimbu.decide("/guides/size-chart.pdf");
    CHECK(!d.allowed && d.line == 11 && d.kind == ROBOTSTXT_DECISION_DISALLOW && d.pattern == "/*.pdf$");
    CHECK(nimbu.crawl_delay() == 2.5);
    CHECK(!nimbu.request_rate().has_value());
    CHECK(robots.sitemaps().size() == 1 && robots.sitemaps()[0] == "https://bazaar.nimbu.test/sitemap.xml");
    CHECK(!robots.host().has_value());
    CHECK(robots.diagnostics().empty());
    CHECK(!nimbu.blanket().has_value() && !nimbu.retry_at().has_value());

    auto strictest = robots.rules_for_strictest({"NimbuBot", "ArchiveBot"});
    CHECK(!strictest.can_fetch("/prices/today"));
    auto any = robots.rules_for_any({"NimbuBot", "ArchiveBot"});
    CHECK(any.can_fetch("/prices/today"));

    try {
        robots.rules_for("Mozilla/5.0 (compatible; NimbuBot/1.0)");
        CHECK(false);
    } catch (const robotstxt::Error &e) {
        CHECK(e.status() == ROBOTSTXT_STATUS_INVALID_TOKEN);
        CHECK(std::string(e.what()).find("\"Mozilla/5.0 (compatible; NimbuBot/1.0)\"") != std::string::npos);
    }
    try {
        robotstxt::Options bad;
        bad.parse_limit = 1;
        robotstxt::Robots::parse(body, bad);
        CHECK(false);
    } catch (const robotstxt::Error &e) {
        CHECK(e.status() == ROBOTSTXT_STATUS_PARSE_LIMIT);
    }

    robotstxt::Options google;
    google.profile = robotstxt::Profile::Google;
    auto g = robotstxt::Robots::parse(body, google);
    CHECK(g.rules_for("Mozilla/5.0 (compatible; NimbuBot/1.0)").can_fetch("/prices/history"));

    // Rules from the C cache, adopted: a 503 disallows everything, says
    // why, and when the cache fetches again (an hour on).
    {
        robotstxt_cache_options o = robotstxt_cache_options_default();
        robotstxt_cache *cache = nullptr;
        robotstxt_lookup l;
        robotstxt_fetch down{};
        const std::string url = "https://down.test/prices/today";
        const std::string token = "NimbuBot";
        down.http_status = 503;
        CHECK(robotstxt_cache_new(&o, &cache) == ROBOTSTXT_STATUS_OK);
        CHECK(robotstxt_cache_lookup(cache, u8(url), url.size(),
                                     u8(token), token.size(), 0,
                                     ROBOTSTXT_WHEN_FETCHING_WAIT, &l) == ROBOTSTXT_STATUS_OK &&
              l.kind == ROBOTSTXT_LOOKUP_FETCH);
        CHECK(robotstxt_cache_store(cache, l.lease, 0, &down, nullptr) == ROBOTSTXT_STATUS_OK);
        robotstxt_lease_free(l.lease);
        CHECK(robotstxt_cache_lookup(cache, u8(url), url.size(),
                                     u8(token), token.size(), 1,
                                     ROBOTSTXT_WHEN_FETCHING_WAIT, &l) == ROBOTSTXT_STATUS_OK &&
              l.kind == ROBOTSTXT_LOOKUP_READY);
        auto cached = robotstxt::Rules::adopt(l.rules);
        auto dd = cached.decide(url);
        CHECK(!dd.allowed && dd.kind == ROBOTSTXT_DECISION_DISALLOW_ALL && dd.line == 0 &&
              dd.pattern.empty());
        auto why = cached.blanket();
        CHECK(why.has_value() && !why->allowed && why->cause == ROBOTSTXT_CAUSE_STATUS &&
              why->http_status == 503);
        CHECK(cached.retry_at() == std::optional<uint64_t>(3600000));
        robotstxt_cache_free(cache); // the rules outlive the cache
        CHECK(!cached.can_fetch("/"));
        try {
            robotstxt::Rules::adopt(nullptr);
            CHECK(false);
        } catch (const robotstxt::Error &e) {
            CHECK(e.status() == ROBOTSTXT_STATUS_NULL_ARGUMENT);
        }
    }

    // Usage preferences: answers that outlive their rules, the HTTP
    // field, Content-Signal and other records.
    {
        auto site = robotstxt::Robots::parse("Clean-param: ref /a/\n"
                                             "User-agent: *\n"
                                             "Content-Usage: train-ai=n\n"
                                             "Content-Usage: /blog/ train-ai=y;v=2, search, x=n\n"
                                             "Content-Signal: search=yes, ai-train=no\n"
                                             "Disallow: /private/\n"
                                             "LLM-Policy: https://a.test/llm.txt\n");
        auto rules = site.rules_for("ExampleBot");
        auto blog = rules.preferences("https://a.test/blog/post");
        auto shop = rules.preferences("/shop");
        auto closed = rules.preferences("/private/x");
        auto signal = rules.content_signal();
        auto others = site.other_records();
        auto mine = rules.other_records();
        { auto gone = std::move(rules); } // the answers stand alone

        CHECK(blog.crawlable() && blog.decision().kind == ROBOTSTXT_DECISION_NONE);
        auto labels = blog.labels();
        CHECK(labels.size() == 3 && labels[0].label == "train-ai" && labels[0].value == robotstxt::Usage::Yes &&
              labels[0].lines == std::vector<uint32_t>{4});
        CHECK(labels[1].label == "search" && labels[1].value == robotstxt::Usage::Unknown);
        CHECK(labels[2].label == "x" && labels[2].value == robotstxt::Usage::No);
        CHECK(blog.usage("x") == robotstxt::Usage::No && blog.usage("nothing") == robotstxt::Usage::Unknown);
        auto statements = blog.statements();
        CHECK(statements.size() == 1 && statements[0].line == 4 && statements[0].path == "/blog/" &&
              statements[0].members.size() == 3);
        CHECK(statements[0].members[0].key == "train-ai" && statements[0].members[0].value == "y;v=2");
        CHECK(shop.usage("train-ai") == robotstxt::Usage::No && shop.labels()[1].lines.empty());
        CHECK(std::string(robotstxt::usage_name(robotstxt::Usage::No)) == "n");

        auto denied = closed.decision();
        CHECK(!closed.crawlable() && denied.line == 6 && denied.pattern == "/private/" &&
              closed.statements().empty() && closed.usage("train-ai") == robotstxt::Usage::Unknown);

        auto page = shop.with_header("search=y, train-ai=y");
        CHECK(page.usage("train-ai") == robotstxt::Usage::No && page.usage("search") == robotstxt::Usage::Yes);
        CHECK(page.labels()[1].lines.empty());
        for (const char *bad : {"Train-AI=n", ""}) {
            try {
                shop.with_header(bad);
                CHECK(false);
            } catch (const robotstxt::Error &e) {
                CHECK(e.status() == ROBOTSTXT_STATUS_INVALID_FIELD);
                CHECK(std::string(e.what()).find("Content-Usage statement") != std::string::npos);
            }
        }

        CHECK(signal.has_value());
        if (signal) {
            auto signals = signal->signals();
            CHECK(signals.size() == 3 && signals[0].key == "search" && signals[0].value == true &&
                  signals[1].key == "ai-input" && !signals[1].value.has_value() &&
                  signals[2].key == "ai-train" && signals[2].value == false);
            CHECK(signal->signal("ai-train") == false && !signal->signal("ai-input").has_value() &&
                  !signal->signal("nope").has_value());
            CHECK(signal->lines() == std::vector<uint32_t>{5});
        }

        CHECK(others.size() == 2 && others[0].key == "Clean-param" && others[0].value == "ref /a/" &&
              others[0].line == 1 && !others[0].group.has_value());
        CHECK(others[1].key == "LLM-Policy" && others[1].key_lower() == "llm-policy" && others[1].group == 0u);
        CHECK(mine.size() == 2 && mine[1].line == 7);

        // A named group replaces *, its content-signal lines included.
        auto named = robotstxt::Robots::parse("User-agent: *\nDisallow: /x\nContent-Signal: ai-train=no\n\n"
                                              "User-agent: ExampleBot\nAllow: /\n");
        CHECK(!named.rules_for("ExampleBot").content_signal().has_value());
        CHECK(named.rules_for("OtherBot").content_signal().has_value());
    }

    // Rules outlive their Robots; handles move.
    auto moved = std::move(nimbu);
    { auto gone = std::move(robots); }
    CHECK(!moved.can_fetch("/drafts/new-range"));

    std::printf("C++ wrapper:\n%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
