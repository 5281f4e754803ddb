// A few of the practice shop's questions (behaviour §9) through the C++ wrapper
// of the release tarball: proves robotstxt.hpp compiles and links against
// the unpacked tree. Exits 1 on a wrong answer.
//
//     shop-cpp ROBOTS_TXT
#include <robotstxt.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " ROBOTS_TXT\n";
        return 2;
    }
    std::ifstream file(argv[1], std::ios::binary);
    std::stringstream body;
    body << file.rdbuf();
    if (!file) {
        std::cerr << argv[1] << ": cannot read\n";
        return 2;
    }

    auto robots = robotstxt::Robots::parse(body.str());
    auto nimbu = robots.rules_for("NimbuBot");
    auto d = nimbu.decide("/prices/history");
    bool ok = !d.allowed && d.line == 9 && nimbu.can_fetch("/prices/today") &&
              nimbu.crawl_delay() == 2.5 && robots.sitemaps().size() == 1;
    std::cout << "NimbuBot /prices/history: " << (d.allowed ? "allowed" : "disallowed") << " (line "
              << d.line << ": " << robotstxt_decision_kind_name(d.kind) << " " << d.pattern << ")\n";

    try {
        robots.rules_for("Mozilla/5.0 (compatible; NimbuBot/1.0)");
        ok = false;
    } catch (const robotstxt::Error &e) {
        std::cout << "a whole User-Agent header: robotstxt::Error: " << e.what() << "\n";
        ok = ok && e.status() == ROBOTSTXT_STATUS_INVALID_TOKEN;
    }
    std::cout << (ok ? "C++ wrapper: answers as in behaviour §9" : "C++ wrapper: WRONG answer") << "\n";
    return ok ? 0 : 1;
}
