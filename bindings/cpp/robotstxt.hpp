// robotstxt.hpp: a header-only C++17 RAII wrapper over robotstxt.h.
//
//     auto robots = robotstxt::Robots::parse(body);
//     auto rules = robots.rules_for("ExampleBot");     // throws robotstxt::Error
//     if (rules.can_fetch("https://example.com/a")) { ... }
//
// Handles free themselves; they are movable, not copyable. Failures throw
// robotstxt::Error with the library's status and detailed message. The
// string_views a Robots or Rules hands out borrow from it: keep it alive
// while you use them. Robots and Rules are immutable and may be shared
// between threads. Rules from the C cache (robotstxt_cache_lookup) can be
// wrapped with Rules::adopt.
#ifndef ROBOTSTXT_HPP
#define ROBOTSTXT_HPP

#include <robotstxt.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace robotstxt {

// A failed call: the status and the message of robotstxt_last_error.
class Error : public std::runtime_error {
  public:
    Error(robotstxt_status status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    robotstxt_status status() const noexcept { return status_; }

  private:
    robotstxt_status status_;
};

namespace detail {

inline void check(robotstxt_status status) {
    if (status == ROBOTSTXT_STATUS_OK) {
        return;
    }
    const uint8_t *msg = nullptr;
    size_t len = 0;
    std::string message = robotstxt_status_message(status);
    if (robotstxt_last_error(&msg, &len) == ROBOTSTXT_STATUS_OK && len > 0) {
        message.assign(reinterpret_cast<const char *>(msg), len);
    }
    throw Error(status, message);
}

inline const uint8_t *bytes(std::string_view s) {
    return reinterpret_cast<const uint8_t *>(s.data());
}

inline std::string_view view(const uint8_t *ptr, size_t len) {
    return len == 0 ? std::string_view() : std::string_view(reinterpret_cast<const char *>(ptr), len);
}

struct RobotsFree {
    void operator()(robotstxt_robots *p) const noexcept { robotstxt_robots_free(p); }
};
struct RulesFree {
    void operator()(robotstxt_rules *p) const noexcept { robotstxt_rules_free(p); }
};

inline std::vector<robotstxt_str> str_list(const std::vector<std::string_view> &tokens) {
    std::vector<robotstxt_str> list;
    list.reserve(tokens.size());
    for (auto t : tokens) {
        list.push_back(robotstxt_str{bytes(t), t.size()});
    }
    return list;
}

} // namespace detail

enum class Profile : robotstxt_profile { Rfc = ROBOTSTXT_PROFILE_RFC, Google = ROBOTSTXT_PROFILE_GOOGLE };

// Parse options; the defaults are the library's.
struct Options {
    Profile profile = Profile::Rfc;
    size_t parse_limit = ROBOTSTXT_MIN_PARSE_LIMIT;
    bool typos = true;
};

// The answer for one URL and the line that gave it. `pattern` borrows from
// the Rules that decided.
struct Decision {
    bool allowed;
    uint32_t line; // 0 when no rule matched or a blanket answer decided
    // ROBOTSTXT_DECISION_ALLOW or _DISALLOW (a rule), _NONE (no rule
    // matched), _ALLOW_ALL or _DISALLOW_ALL (a blanket answer: see
    // Rules::blanket for why).
    robotstxt_decision_kind kind;
    std::string_view pattern;
};

struct RequestRate {
    uint32_t requests;
    uint32_t seconds;
};

// The rules for one crawler: cheap questions, no allocation.
class Rules {
  public:
    bool can_fetch(std::string_view url) const {
        bool allowed = false;
        detail::check(robotstxt_rules_can_fetch(handle_.get(), detail::bytes(url), url.size(), &allowed));
        return allowed;
    }

    Decision decide(std::string_view url) const {
        robotstxt_decision d;
        detail::check(robotstxt_rules_decide(handle_.get(), detail::bytes(url), url.size(), &d));
        return Decision{d.allowed, d.line, d.kind, detail::view(d.pattern.ptr, d.pattern.len)};
    }

    // Seconds, or nullopt when the selected groups set none.
    std::optional<double> crawl_delay() const {
        double seconds = 0;
        bool has = false;
        detail::check(robotstxt_rules_crawl_delay(handle_.get(), &seconds, &has));
        return has ? std::optional<double>(seconds) : std::nullopt;
    }

    std::optional<RequestRate> request_rate() const {
        RequestRate rate{0, 0};
        bool has = false;
        detail::check(robotstxt_rules_request_rate(handle_.get(), &rate.requests, &rate.seconds, &has));
        return has ? std::optional<RequestRate>(rate) : std::nullopt;
    }

    // For rules that answer every URL at once (a cache's answer for a
    // robots.txt it could not use): allowed or not, and the cause
    // (ROBOTSTXT_CAUSE_STATUS with http_status, _NO_RESPONSE, ...).
    // nullopt for a file's rules.
    std::optional<robotstxt_blanket> blanket() const {
        robotstxt_blanket b;
        detail::check(robotstxt_rules_blanket(handle_.get(), &b));
        return b.is_blanket ? std::optional<robotstxt_blanket>(b) : std::nullopt;
    }

    // When the cache that handed these rules out fetches the robots.txt
    // again (ms, the lookup's clock), after a failed fetch; else nullopt.
    std::optional<uint64_t> retry_at() const {
        uint64_t at = 0;
        bool has = false;
        detail::check(robotstxt_rules_retry_at(handle_.get(), &at, &has));
        return has ? std::optional<uint64_t>(at) : std::nullopt;
    }

    // Takes over a handle from the C API, such as the `rules` of a
    // robotstxt_lookup; it is freed with the Rules.
    static Rules adopt(robotstxt_rules *raw) {
        if (raw == nullptr) {
            throw Error(ROBOTSTXT_STATUS_NULL_ARGUMENT, "Rules::adopt: the rules handle is NULL");
        }
        return Rules(raw);
    }

    const robotstxt_rules *get() const noexcept { return handle_.get(); }

  private:
    friend class Robots;
    explicit Rules(robotstxt_rules *raw) : handle_(raw) {}
    std::unique_ptr<robotstxt_rules, detail::RulesFree> handle_;
};

// A parsed robots.txt. Rules selected from it outlive it.
class Robots {
  public:
    static Robots parse(std::string_view body, const Options &options = Options()) {
        robotstxt_options o = robotstxt_options_default();
        o.profile = static_cast<robotstxt_profile>(options.profile);
        o.parse_limit = options.parse_limit;
        o.typos = options.typos;
        robotstxt_robots *raw = nullptr;
        detail::check(robotstxt_robots_parse_with(detail::bytes(body), body.size(), &o, &raw));
        return Robots(raw);
    }

    // Throws Error (ROBOTSTXT_STATUS_INVALID_TOKEN) in the RFC profile when
    // `token` is not a product token such as "ExampleBot".
    Rules rules_for(std::string_view token) const {
        robotstxt_rules *raw = nullptr;
        detail::check(robotstxt_robots_rules_for(handle_.get(), detail::bytes(token), token.size(), &raw));
        return Rules(raw);
    }

    Rules rules_for_any(const std::vector<std::string_view> &tokens) const {
        auto list = detail::str_list(tokens);
        robotstxt_rules *raw = nullptr;
        detail::check(robotstxt_robots_rules_for_any(handle_.get(), list.data(), list.size(), &raw));
        return Rules(raw);
    }

    Rules rules_for_strictest(const std::vector<std::string_view> &tokens) const {
        auto list = detail::str_list(tokens);
        robotstxt_rules *raw = nullptr;
        detail::check(robotstxt_robots_rules_for_strictest(handle_.get(), list.data(), list.size(), &raw));
        return Rules(raw);
    }

    std::vector<std::string_view> sitemaps() const {
        size_t count = 0;
        detail::check(robotstxt_robots_sitemap_count(handle_.get(), &count));
        std::vector<std::string_view> out;
        out.reserve(count);
        for (size_t i = 0; i < count; i++) {
            const uint8_t *ptr = nullptr;
            size_t len = 0;
            detail::check(robotstxt_robots_sitemap(handle_.get(), i, &ptr, &len));
            out.push_back(detail::view(ptr, len));
        }
        return out;
    }

    std::optional<std::string_view> host() const {
        const uint8_t *ptr = nullptr;
        size_t len = 0;
        bool found = false;
        detail::check(robotstxt_robots_host(handle_.get(), &ptr, &len, &found));
        return found ? std::optional<std::string_view>(detail::view(ptr, len)) : std::nullopt;
    }

    std::vector<robotstxt_diagnostic> diagnostics() const {
        size_t count = 0;
        detail::check(robotstxt_robots_diagnostic_count(handle_.get(), &count));
        std::vector<robotstxt_diagnostic> out(count);
        for (size_t i = 0; i < count; i++) {
            detail::check(robotstxt_robots_diagnostic(handle_.get(), i, &out[i]));
        }
        return out;
    }

    const robotstxt_robots *get() const noexcept { return handle_.get(); }

  private:
    explicit Robots(robotstxt_robots *raw) : handle_(raw) {}
    std::unique_ptr<robotstxt_robots, detail::RobotsFree> handle_;
};

} // namespace robotstxt

#endif // ROBOTSTXT_HPP
