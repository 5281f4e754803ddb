// robotstxt.hpp: a header-only C++17 RAII wrapper over robotstxt.h.
//
//     auto robots = robotstxt::Robots::parse(body);
//     auto rules = robots.rules_for("ExampleBot");     // throws robotstxt::Error
//     if (rules.can_fetch("https://example.com/a")) { ... }
//     auto prefs = rules.preferences("https://example.com/a");
//     if (prefs.usage("train-ai") == robotstxt::Usage::No) { ... }
//
// Handles free themselves; they are movable, not copyable. Failures throw
// robotstxt::Error with the library's status and detailed message. The
// string_views a Robots, Rules, Preferences or ContentSignal hands out
// borrow from it: keep it alive while you use them. Robots and Rules are immutable and may be shared
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
struct PreferencesFree {
    void operator()(robotstxt_preferences *p) const noexcept { robotstxt_preferences_free(p); }
};
struct ContentSignalFree {
    void operator()(robotstxt_content_signal *p) const noexcept { robotstxt_content_signal_free(p); }
};

inline std::vector<uint32_t> line_list(const uint32_t *lines, size_t count) {
    return count == 0 ? std::vector<uint32_t>() : std::vector<uint32_t>(lines, lines + count);
}

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

// One label's preference (behaviour §10.4): the token `y`, the token `n`,
// or nothing usable stated.
enum class Usage : robotstxt_usage {
    Unknown = ROBOTSTXT_USAGE_UNKNOWN,
    Yes = ROBOTSTXT_USAGE_YES,
    No = ROBOTSTXT_USAGE_NO,
};

// "y", "n" or "unknown".
inline const char *usage_name(Usage usage) noexcept {
    const char *name = robotstxt_usage_name(static_cast<robotstxt_usage>(usage));
    return name != nullptr ? name : "unknown";
}

// A label's answer and the lines whose statements gave it (for Unknown,
// those that named the label with another value). `label` borrows from the
// Preferences.
struct LabelPreference {
    std::string_view label;
    Usage value;
    std::vector<uint32_t> lines;
};

// A statement's member as written: `value` keeps its parameters ("y;v=2").
struct Member {
    std::string_view key;
    std::string_view value;
};

// A content-usage rule that applied: its line, its path as compared ("/"
// when none was written) and its raw members, for labels the library does
// not define. Views borrow from the Preferences.
struct UsageStatement {
    uint32_t line;
    std::string_view path;
    std::vector<Member> members;
};

// A line the library does not read (Clean-param, LLM-Policy, ...), as
// written; `group` is its 0-based group, nullopt before the first
// user-agent line. Views borrow from the Robots or Rules that listed it.
struct OtherRecord {
    std::string_view key;
    std::string_view value;
    uint32_t line;
    std::optional<uint32_t> group;

    // The key in ASCII lower case, for comparing keys.
    std::string key_lower() const {
        std::string lower(key);
        for (auto &c : lower) {
            if (c >= 'A' && c <= 'Z') {
                c = static_cast<char>(c - 'A' + 'a');
            }
        }
        return lower;
    }
};

namespace detail {

inline OtherRecord other_record(const robotstxt_other_record &r) {
    return OtherRecord{view(r.key.ptr, r.key.len), view(r.value.ptr, r.value.len), r.line,
                       r.in_group ? std::optional<uint32_t>(r.group) : std::nullopt};
}

} // namespace detail

// The usage preferences for one URL (behaviour §10.3): an answer of its
// own, which outlives the Rules it came from. A URL the rules disallow
// states nothing (crawlable() is false).
class Preferences {
  public:
    bool crawlable() const {
        bool crawlable = false;
        detail::check(robotstxt_preferences_crawlable(handle_.get(), &crawlable, nullptr));
        return crawlable;
    }

    // The access answer for the URL; `pattern` borrows from these
    // Preferences.
    Decision decision() const {
        bool crawlable = false;
        robotstxt_decision d;
        detail::check(robotstxt_preferences_crawlable(handle_.get(), &crawlable, &d));
        return Decision{d.allowed, d.line, d.kind, detail::view(d.pattern.ptr, d.pattern.len)};
    }

    // Every label answered: train-ai and search first, then each other
    // label a statement gives y or n.
    std::vector<LabelPreference> labels() const {
        size_t count = 0;
        detail::check(robotstxt_preferences_label_count(handle_.get(), &count));
        std::vector<LabelPreference> out;
        out.reserve(count);
        for (size_t i = 0; i < count; i++) {
            robotstxt_label_preference l;
            detail::check(robotstxt_preferences_label(handle_.get(), i, &l));
            out.push_back(LabelPreference{detail::view(l.label.ptr, l.label.len),
                                          static_cast<Usage>(l.value),
                                          detail::line_list(l.lines, l.line_count)});
        }
        return out;
    }

    // One label's answer; Usage::Unknown when nothing states it.
    Usage usage(std::string_view label) const {
        robotstxt_usage u = ROBOTSTXT_USAGE_UNKNOWN;
        detail::check(robotstxt_preferences_get(handle_.get(), detail::bytes(label), label.size(), &u));
        return static_cast<Usage>(u);
    }

    // The content-usage rules that applied, in file order.
    std::vector<UsageStatement> statements() const {
        size_t count = 0;
        detail::check(robotstxt_preferences_statement_count(handle_.get(), &count));
        std::vector<UsageStatement> out;
        out.reserve(count);
        for (size_t i = 0; i < count; i++) {
            robotstxt_usage_statement st;
            detail::check(robotstxt_preferences_statement(handle_.get(), i, &st));
            UsageStatement statement{st.line, detail::view(st.path.ptr, st.path.len), {}};
            statement.members.reserve(st.member_count);
            for (size_t m = 0; m < st.member_count; m++) {
                robotstxt_member member;
                detail::check(robotstxt_preferences_member(handle_.get(), i, m, &member));
                statement.members.push_back(Member{detail::view(member.key.ptr, member.key.len),
                                                   detail::view(member.value.ptr, member.value.len)});
            }
            out.push_back(std::move(statement));
        }
        return out;
    }

    // These preferences combined with the response's HTTP Content-Usage
    // field (behaviour §10.6): per label any n wins, then any y. Throws
    // Error (ROBOTSTXT_STATUS_INVALID_FIELD) when the field is no RFC 9651
    // Dictionary or is empty.
    Preferences with_header(std::string_view field) const {
        robotstxt_preferences *raw = nullptr;
        detail::check(robotstxt_preferences_with_header(handle_.get(), detail::bytes(field), field.size(), &raw));
        return Preferences(raw);
    }

    const robotstxt_preferences *get() const noexcept { return handle_.get(); }

  private:
    friend class Rules;
    explicit Preferences(robotstxt_preferences *raw) : handle_(raw) {}
    std::unique_ptr<robotstxt_preferences, detail::PreferencesFree> handle_;
};

// One Content-Signal key: true for yes, false for no, nullopt when no
// valid member sets it. `key` (lower case) borrows from the ContentSignal.
struct Signal {
    std::string_view key;
    std::optional<bool> value;
};

// The combined content-signal lines of one crawler's groups (behaviour
// §10.5); independent of URLs and of what is allowed.
class ContentSignal {
  public:
    // search, ai-input and ai-train first, then every other key set.
    std::vector<Signal> signals() const {
        size_t count = 0;
        detail::check(robotstxt_content_signal_count(handle_.get(), &count));
        std::vector<Signal> out;
        out.reserve(count);
        for (size_t i = 0; i < count; i++) {
            robotstxt_signal e;
            detail::check(robotstxt_content_signal_entry(handle_.get(), i, &e));
            out.push_back(Signal{detail::view(e.key.ptr, e.key.len),
                                 e.is_set ? std::optional<bool>(e.yes) : std::nullopt});
        }
        return out;
    }

    // The answer for `key` (lower case), nullopt when unset or not listed.
    std::optional<bool> signal(std::string_view key) const {
        for (const auto &s : signals()) {
            if (s.key == key) {
                return s.value;
            }
        }
        return std::nullopt;
    }

    // The content-signal lines read, in file order.
    std::vector<uint32_t> lines() const {
        const uint32_t *lines = nullptr;
        size_t count = 0;
        detail::check(robotstxt_content_signal_lines(handle_.get(), &lines, &count));
        return detail::line_list(lines, count);
    }

    const robotstxt_content_signal *get() const noexcept { return handle_.get(); }

  private:
    friend class Rules;
    explicit ContentSignal(robotstxt_content_signal *raw) : handle_(raw) {}
    std::unique_ptr<robotstxt_content_signal, detail::ContentSignalFree> handle_;
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

    // Builds the index now, where the check after the first few would:
    // then no check allocates. Changes no answer.
    void compile() const { detail::check(robotstxt_rules_compile(handle_.get())); }

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

    // The usage preferences for `url` (behaviour §10): of the selected
    // groups' content-usage rules whose path matches, the longest.
    Preferences preferences(std::string_view url) const {
        robotstxt_preferences *raw = nullptr;
        detail::check(robotstxt_rules_preferences(handle_.get(), detail::bytes(url), url.size(), &raw));
        return Preferences(raw);
    }

    // nullopt when the selected groups hold no content-signal line.
    std::optional<ContentSignal> content_signal() const {
        robotstxt_content_signal *raw = nullptr;
        detail::check(robotstxt_rules_content_signal(handle_.get(), &raw));
        return raw != nullptr ? std::optional<ContentSignal>(ContentSignal(raw)) : std::nullopt;
    }

    // The other records of the selected groups and those before the first
    // group, in file order.
    std::vector<OtherRecord> other_records() const {
        size_t count = 0;
        detail::check(robotstxt_rules_other_record_count(handle_.get(), &count));
        std::vector<OtherRecord> out;
        out.reserve(count);
        for (size_t i = 0; i < count; i++) {
            robotstxt_other_record r;
            detail::check(robotstxt_rules_other_record(handle_.get(), i, &r));
            out.push_back(detail::other_record(r));
        }
        return out;
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

    // Every line the library does not read, in file order.
    std::vector<OtherRecord> other_records() const {
        size_t count = 0;
        detail::check(robotstxt_robots_other_record_count(handle_.get(), &count));
        std::vector<OtherRecord> out;
        out.reserve(count);
        for (size_t i = 0; i < count; i++) {
            robotstxt_other_record r;
            detail::check(robotstxt_robots_other_record(handle_.get(), i, &r));
            out.push_back(detail::other_record(r));
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
