#!/bin/sh
# End-to-end test of robotstxt-check: exit codes, the result line, stdin,
# several URLs, --explain, --crawl-delay, --sitemaps, --lint, usage
# preferences in words and as --json, the Google profile, and usage errors. Usage: cli_test.sh PATH/TO/robotstxt-check
# With CLI_OS=windows the CLI is a Windows program (run under wine by a
# wrapper): the cases that cannot apply there are skipped, each with its
# reason, and counted as skipped, not passed.
set -u

CHECK=${1:?usage: cli_test.sh PATH/TO/robotstxt-check}
SHOP=examples/shop/robots.txt
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
passed=0
failed=0
skipped=0

# expect NAME EXIT STDOUT [STDERR_SUBSTRING] -- COMMAND...
# Runs COMMAND; checks its exit status, its exact standard output, and that
# standard error contains STDERR_SUBSTRING (or is empty when none is given).
expect() {
    name=$1 want_exit=$2 want_out=$3
    shift 3
    want_err=
    if [ "$1" != "--" ]; then
        want_err=$1
        shift
    fi
    shift # --
    "$@" >"$TMP/out" 2>"$TMP/err"
    got_exit=$?
    printf '%s\n' "$want_out" >"$TMP/want"
    [ -z "$want_out" ] && : >"$TMP/want"
    ok=1
    [ "$got_exit" = "$want_exit" ] || { echo "FAIL $name: exit $got_exit, want $want_exit"; ok=0; }
    if ! cmp -s "$TMP/out" "$TMP/want"; then
        echo "FAIL $name: stdout differs:"
        diff "$TMP/want" "$TMP/out" | sed 's/^/    /'
        ok=0
    fi
    if [ -n "$want_err" ]; then
        grep -qF -- "$want_err" "$TMP/err" || { echo "FAIL $name: stderr lacks '$want_err':"; sed 's/^/    /' "$TMP/err"; ok=0; }
    elif [ -s "$TMP/err" ]; then
        echo "FAIL $name: unexpected stderr:"
        sed 's/^/    /' "$TMP/err"
        ok=0
    fi
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

# expect_json NAME EXIT WANT -- COMMAND...
# Runs COMMAND; checks its exit status, that standard error is empty, and
# that standard output is UTF-8 lines that each parse as one JSON object
# (json.loads: raw control bytes in a string fail), equal to the JSON array
# WANT, with train-ai and search the first two preferences of each.
expect_json() {
    name=$1 want_exit=$2 want=$3
    shift 4 # NAME EXIT WANT --
    "$@" >"$TMP/out" 2>"$TMP/err"
    got_exit=$?
    ok=1
    [ "$got_exit" = "$want_exit" ] || { echo "FAIL $name: exit $got_exit, want $want_exit"; ok=0; }
    if [ -s "$TMP/err" ]; then
        echo "FAIL $name: unexpected stderr:"
        sed 's/^/    /' "$TMP/err"
        ok=0
    fi
    "${PYTHON:-python3}" -c '
import json, sys
want = json.loads(sys.argv[1])
text = open(sys.argv[2], "rb").read().decode("utf-8")
if not text.endswith("\n"):
    sys.exit("the output does not end a line")
got = [json.loads(line) for line in text[:-1].split("\n")]
for obj in got:
    if list(obj["preferences"])[:2] != ["train-ai", "search"]:
        sys.exit("preferences start with %s" % list(obj["preferences"]))
if got != want:
    sys.exit("got  %s\nwant %s" % (json.dumps(got, ensure_ascii=False), json.dumps(want, ensure_ascii=False)))
' "$want" "$TMP/out" >"$TMP/why" 2>&1 || { echo "FAIL $name: stdout:"; sed 's/^/    /' "$TMP/why" "$TMP/out"; ok=0; }
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

# on_windows NAME WHY: true, and NAME skipped, when the CLI is a Windows
# program, where NAME cannot apply (for WHY).
on_windows() {
    [ "${CLI_OS:-}" = windows ] || return 1
    echo "skip $1: $2"
    skipped=$((skipped + 1))
}

nl='
'

# --- Google robots_main's interface: one line, exit 0/1 ---
expect allowed 0 "user-agent 'NimbuBot' with URI '/prices/today': ALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot /prices/today
expect disallowed 1 "user-agent 'NimbuBot' with URI '/prices/history': DISALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot /prices/history
expect absolute-url 1 "user-agent 'OtherBot' with URI 'https://bazaar.nimbu.test/account/orders?x=1#top': DISALLOWED" \
    -- "$CHECK" "$SHOP" OtherBot 'https://bazaar.nimbu.test/account/orders?x=1#top'
expect named-group-replaces-star 0 "user-agent 'NimbuBot' with URI '/account/orders': ALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot /account/orders
expect robots-txt-always-allowed 0 "user-agent 'ArchiveBot' with URI '/robots.txt': ALLOWED" \
    -- "$CHECK" "$SHOP" ArchiveBot /robots.txt
expect percent-rfc 1 "user-agent 'nimbubot' with URI '/%70rices/history': DISALLOWED" \
    -- "$CHECK" "$SHOP" nimbubot /%70rices/history

# --- standard input ---
expect stdin 1 "user-agent 'OtherBot' with URI '/products/?sort=price': DISALLOWED" \
    -- sh -c "\"\$0\" - OtherBot '/products/?sort=price' < $SHOP" "$CHECK"
expect stdin-empty 0 "user-agent 'AnyBot' with URI '/x': ALLOWED" \
    -- sh -c "\"\$0\" - AnyBot /x < /dev/null" "$CHECK"

# --- several URLs: one line each, exit 0 only if all are allowed ---
expect several-mixed 1 "user-agent 'NimbuBot' with URI '/prices/today': ALLOWED${nl}user-agent 'NimbuBot' with URI '/prices/history': DISALLOWED${nl}user-agent 'NimbuBot' with URI '/offers/weekend': ALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot /prices/today /prices/history /offers/weekend
expect several-allowed 0 "user-agent 'NimbuBot' with URI '/prices/today': ALLOWED${nl}user-agent 'NimbuBot' with URI '/guides/size-chart.pdf?print=1': ALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot /prices/today '/guides/size-chart.pdf?print=1'

# --- --explain ---
expect explain-allow 0 "user-agent 'NimbuBot' with URI '/prices/today': ALLOWED (line 10: allow /prices/today)" \
    -- "$CHECK" --explain "$SHOP" NimbuBot /prices/today
expect explain-disallow 1 "user-agent 'NimbuBot' with URI '/guides/size-chart.pdf': DISALLOWED (line 11: disallow /*.pdf\$)" \
    -- "$CHECK" --explain "$SHOP" NimbuBot /guides/size-chart.pdf
expect explain-tie 0 "user-agent 'NimbuBot' with URI '/offers/weekend': ALLOWED (line 13: allow /offers/)" \
    -- "$CHECK" --explain "$SHOP" NimbuBot /offers/weekend
expect explain-none 0 "user-agent 'NimbuBot' with URI '/account/orders': ALLOWED (no matching rule)" \
    -- "$CHECK" --explain "$SHOP" NimbuBot /account/orders
expect explain-merged 1 "user-agent 'NimbuBot' with URI '/drafts/new-range': DISALLOWED (line 17: disallow /drafts/)" \
    -- "$CHECK" --explain "$SHOP" NimbuBot /drafts/new-range

# --- --crawl-delay, --sitemaps, --lint ---
expect crawl-delay 0 "user-agent 'NimbuBot' with URI '/': ALLOWED${nl}crawl-delay: 2.5" \
    -- "$CHECK" --crawl-delay "$SHOP" NimbuBot /
expect crawl-delay-only 0 "crawl-delay: 2" -- "$CHECK" --crawl-delay "$SHOP" OtherBot
printf 'User-agent: *\nCrawl-delay: 0.05\nDisallow:\n\nUser-agent: slow\nCrawl-delay: 10.\nDisallow:\n\nUser-agent: none\nDisallow: /x\n' >"$TMP/delays.txt"
expect crawl-delay-small 0 "crawl-delay: 0.05" -- "$CHECK" --crawl-delay "$TMP/delays.txt" AnyBot
expect crawl-delay-whole 0 "crawl-delay: 10" -- "$CHECK" --crawl-delay "$TMP/delays.txt" slow
expect crawl-delay-none 0 "crawl-delay: none" -- "$CHECK" --crawl-delay "$TMP/delays.txt" none
expect sitemaps 0 "sitemap: https://bazaar.nimbu.test/sitemap.xml" -- "$CHECK" --sitemaps "$SHOP"
printf 'Disallow: /early\nUser-agent: *\nDissallow: /typo\ndisallow /nocolon\nCrawl-delay: soon\nFoo: bar\n# fine\nSitemap: https://a.test/1.xml\n' >"$TMP/lint.txt"
expect lint 0 "$TMP/lint.txt:1: disallow: outside-group${nl}$TMP/lint.txt:3: disallow: typo${nl}$TMP/lint.txt:4: disallow: missing-colon${nl}$TMP/lint.txt:5: crawl-delay: invalid-value${nl}$TMP/lint.txt:6: unknown: unknown-key" \
    -- "$CHECK" --lint "$TMP/lint.txt"
expect lint-stdin-and-sitemaps 0 "sitemap: https://a.test/1.xml${nl}<stdin>:6: unknown: unknown-key" \
    -- sh -c "\"\$0\" --sitemaps --lint - < $TMP/lint.txt | grep -v ': disallow\|crawl-delay'" "$CHECK"
expect lint-clean 0 "" -- "$CHECK" --lint "$SHOP"
expect everything 1 "user-agent 'NimbuBot' with URI '/prices/history': DISALLOWED (line 9: disallow /prices/)${nl}crawl-delay: 2.5${nl}sitemap: https://bazaar.nimbu.test/sitemap.xml" \
    -- "$CHECK" --explain --crawl-delay --sitemaps --lint "$SHOP" NimbuBot /prices/history

# --- usage preferences: --explain in words, --json (behaviour §10) ---
printf 'Clean-param: ref /a/\nUser-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y, x=n\nContent-Usage: /blog/ train-ai=y\nContent-Signal: search=yes, ai-train=no\nDisallow: /private/\n\nUser-agent: OtherBot\nContent-Usage: /blog/ train-ai=Y\nAllow: /\n' >"$TMP/prefs.txt"
expect explain-preferences 1 "user-agent 'ExampleBot' with URI '/blog/x': ALLOWED (no matching rule)
  usage: train-ai=y (lines 4, 5), search=y (line 4), x=n (line 4)
  content-signal: search=yes, ai-input=unset, ai-train=no (line 6)
user-agent 'ExampleBot' with URI '/shop': ALLOWED (no matching rule)
  usage: train-ai=n (line 3), search=unknown
  content-signal: search=yes, ai-input=unset, ai-train=no (line 6)
user-agent 'ExampleBot' with URI '/private/a': DISALLOWED (line 7: disallow /private/)
  content-signal: search=yes, ai-input=unset, ai-train=no (line 6)" \
    -- "$CHECK" --explain "$TMP/prefs.txt" ExampleBot /blog/x /shop /private/a
expect explain-preferences-unknown 0 "user-agent 'OtherBot' with URI '/blog/x': ALLOWED (line 11: allow /)
  usage: train-ai=unknown (line 10), search=unknown" \
    -- "$CHECK" --explain "$TMP/prefs.txt" OtherBot /blog/x
expect no-explain-no-preferences 0 "user-agent 'ExampleBot' with URI '/blog/x': ALLOWED" \
    -- "$CHECK" "$TMP/prefs.txt" ExampleBot /blog/x
expect_json json-preferences 1 '[
 {"url": "/blog/x", "allowed": true, "line": 0, "kind": "none", "pattern": "",
  "preferences": {"train-ai": {"value": "y", "lines": [4, 5]}, "search": {"value": "y", "lines": [4]},
                  "x": {"value": "n", "lines": [4]}},
  "content_signal": {"search": "yes", "ai-input": null, "ai-train": "no"}},
 {"url": "/shop", "allowed": true, "line": 0, "kind": "none", "pattern": "",
  "preferences": {"train-ai": {"value": "n", "lines": [3]}, "search": {"value": null, "lines": []}},
  "content_signal": {"search": "yes", "ai-input": null, "ai-train": "no"}},
 {"url": "https://a.test/private/a?b#c", "allowed": false, "line": 7, "kind": "disallow", "pattern": "/private/",
  "preferences": {"train-ai": {"value": null, "lines": []}, "search": {"value": null, "lines": []}},
  "content_signal": {"search": "yes", "ai-input": null, "ai-train": "no"}}]' \
    -- "$CHECK" --json "$TMP/prefs.txt" ExampleBot /blog/x /shop 'https://a.test/private/a?b#c'
expect_json json-unknown-and-no-signal 0 '[
 {"url": "/blog/x", "allowed": true, "line": 11, "kind": "allow", "pattern": "/",
  "preferences": {"train-ai": {"value": null, "lines": [10]}, "search": {"value": null, "lines": []}},
  "content_signal": null}]' \
    -- "$CHECK" --json --explain "$TMP/prefs.txt" OtherBot /blog/x
expect_json json-shop 1 '[
 {"url": "/prices/today", "allowed": true, "line": 10, "kind": "allow", "pattern": "/prices/today",
  "preferences": {"train-ai": {"value": null, "lines": []}, "search": {"value": null, "lines": []}},
  "content_signal": null},
 {"url": "/guides/size-chart.pdf", "allowed": false, "line": 11, "kind": "disallow", "pattern": "/*.pdf$",
  "preferences": {"train-ai": {"value": null, "lines": []}, "search": {"value": null, "lines": []}},
  "content_signal": null}]' \
    -- "$CHECK" --json "$SHOP" NimbuBot /prices/today /guides/size-chart.pdf
expect_json json-user-agent-and-stdin 1 '[
 {"url": "/prices/history", "allowed": false, "line": 9, "kind": "disallow", "pattern": "/prices/",
  "preferences": {"train-ai": {"value": null, "lines": []}, "search": {"value": null, "lines": []}},
  "content_signal": null}]' \
    -- sh -c "\"\$0\" --json --user-agent 'Mozilla/5.0 (compatible; NimbuBot/1.0)' - /prices/history < $SHOP" "$CHECK"
# Quotes, backslashes and control bytes escaped, UTF-8 kept, and bytes
# that are not UTF-8 (here in a URL) read as U+FFFD.
printf 'User-agent: *\nDisallow: /\033[31m\nContent-Signal: "Q\\\033\303\204=yes\n' >"$TMP/json-bytes.txt"
on_windows json-escapes "Windows passes arguments through its code page, which has no byte 0xFF" ||
expect_json json-escapes 1 '[
 {"url": "/a\"\\\n\t\u0001\u007f\ufffd\u20ac", "allowed": true, "line": 0, "kind": "none", "pattern": "",
  "preferences": {"train-ai": {"value": null, "lines": []}, "search": {"value": null, "lines": []}},
  "content_signal": {"search": null, "ai-input": null, "ai-train": null, "\"q\\\u001b\u00c4": "yes"}},
 {"url": "/\u001b[31m", "allowed": false, "line": 2, "kind": "disallow", "pattern": "/\u001b[31m",
  "preferences": {"train-ai": {"value": null, "lines": []}, "search": {"value": null, "lines": []}},
  "content_signal": {"search": null, "ai-input": null, "ai-train": null, "\"q\\\u001b\u00c4": "yes"}}]' \
    -- "$CHECK" --json --profile google "$TMP/json-bytes.txt" Bot "$(printf '/a"\\\n\t\001\177\377\342\202\254')" "$(printf '/\033[31m')"
: >"$TMP/empty.txt"
expect_json json-google-empty-no-notice 0 '[
 {"url": "/", "allowed": true, "line": 0, "kind": "none", "pattern": "",
  "preferences": {"train-ai": {"value": null, "lines": []}, "search": {"value": null, "lines": []}},
  "content_signal": null}]' \
    -- "$CHECK" --json --profile google "$TMP/empty.txt" FooBot /
expect json-with-lint 2 "" "--json cannot be combined with --crawl-delay, --sitemaps or --lint" \
    -- "$CHECK" --json --lint "$SHOP" NimbuBot /
expect json-with-sitemaps 2 "" "--json cannot be combined" -- "$CHECK" --json --sitemaps "$SHOP"
expect json-missing-url 2 "" "missing URL" -- "$CHECK" --json "$SHOP" NimbuBot
expect json-missing-agent 2 "" "missing USER_AGENT and URL" -- "$CHECK" --json "$SHOP"
expect json-invalid-token 2 "" 'invalid product token "NimbuBot/1.0"' -- "$CHECK" --json "$SHOP" NimbuBot/1.0 /
expect json-after-arguments 2 "" "option after the arguments: --json" -- "$CHECK" "$SHOP" NimbuBot / --json

# --- RFC profile: a product token or exit 2 with the core's message ---
expect invalid-token 2 "" 'invalid product token "Mozilla/5.0 (compatible; NimbuBot/1.0)": a crawler'"'"'s product token is one or more' \
    -- "$CHECK" "$SHOP" 'Mozilla/5.0 (compatible; NimbuBot/1.0)' /prices/history
expect invalid-token-version 2 "" 'invalid product token "NimbuBot/1.0"' \
    -- "$CHECK" --profile rfc "$SHOP" NimbuBot/1.0 /
expect invalid-token-empty 2 "" 'invalid product token ""' -- "$CHECK" "$SHOP" '' /

# --- Google profile: Google's robots_main answers ---
expect google-whole-ua 0 "user-agent 'Mozilla/5.0 (compatible; NimbuBot/1.0)' with URI '/prices/history': ALLOWED" \
    -- "$CHECK" --profile google "$SHOP" 'Mozilla/5.0 (compatible; NimbuBot/1.0)' /prices/history
expect google-token 1 "user-agent 'NimbuBot' with URI '/prices/history': DISALLOWED" \
    -- "$CHECK" --profile=google "$SHOP" NimbuBot /prices/history
expect google-no-percent-decoding 0 "user-agent 'nimbubot' with URI '/%70rices/history': ALLOWED" \
    -- "$CHECK" --profile google "$SHOP" nimbubot /%70rices/history
expect google-robots-txt-like-any-path 1 "user-agent 'ArchiveBot' with URI '/robots.txt': DISALLOWED" \
    -- "$CHECK" --profile google "$SHOP" ArchiveBot /robots.txt
printf 'User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n' >"$TMP/index.txt"
expect google-index-html 0 "user-agent 'FooBot' with URI 'http://x.test/dir/': ALLOWED" \
    -- "$CHECK" --profile google "$TMP/index.txt" FooBot http://x.test/dir/
expect rfc-index-html 1 "user-agent 'FooBot' with URI 'http://x.test/dir/': DISALLOWED" \
    -- "$CHECK" "$TMP/index.txt" FooBot http://x.test/dir/
printf 'User-agent: FooBot\nDisallow: /a\0b\n' >"$TMP/nul.txt"
on_windows google-nul-ends-line "nul.txt names Windows' NUL device, not a file" ||
expect google-nul-ends-line 1 "user-agent 'FooBot' with URI '/a': DISALLOWED" \
    -- "$CHECK" --profile google "$TMP/nul.txt" FooBot /a
: >"$TMP/empty.txt"
expect google-empty-notice 0 "user-agent 'FooBot' with URI '/': ALLOWED${nl}notice: robots file is empty so all user-agents are allowed" \
    -- "$CHECK" --profile google "$TMP/empty.txt" FooBot /
printf '\357\273\277User-agent: *\r\nDisallow: /\377\r\n' >"$TMP/binary.txt"
expect raw-bytes 1 "user-agent 'FooBot' with URI '/%FF': DISALLOWED" \
    -- "$CHECK" "$TMP/binary.txt" FooBot /%FF

# --- --user-agent: a whole header, reduced to its product token ---
expect user-agent-compatible 1 "user-agent 'NimbuBot' with URI '/prices/history': DISALLOWED" \
    -- "$CHECK" --user-agent 'Mozilla/5.0 (compatible; NimbuBot/1.0)' "$SHOP" /prices/history
expect user-agent-product 0 "user-agent 'NimbuBot' with URI '/prices/today': ALLOWED${nl}user-agent 'NimbuBot' with URI '/offers/weekend': ALLOWED" \
    -- "$CHECK" --user-agent='NimbuBot/1.0 (+https://nimbu.test/bot)' "$SHOP" /prices/today /offers/weekend
expect user-agent-crawl-delay 0 "crawl-delay: 2.5" \
    -- "$CHECK" --crawl-delay --user-agent 'Mozilla/5.0 (compatible; NimbuBot/1.0)' "$SHOP"
expect user-agent-browser 2 "" '"Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"' \
    -- "$CHECK" --user-agent 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0' "$SHOP" /x
expect user-agent-empty 2 "" 'in the User-Agent "": it is empty' -- "$CHECK" --user-agent '' "$SHOP" /x
expect user-agent-without-value 2 "" "--user-agent needs a value" -- "$CHECK" --user-agent
expect user-agent-missing-url 2 "" "missing URL" -- "$CHECK" --user-agent NimbuBot "$SHOP"

# --- options go first; `--` ends them ---
expect option-after-arguments 2 "" "option after the arguments: --explain" \
    -- "$CHECK" "$SHOP" NimbuBot /prices/today --explain
expect option-after-file 2 "" "option after the arguments: -x" -- "$CHECK" "$SHOP" -x /a
expect dash-dash-then-dash-url 0 "user-agent 'NimbuBot' with URI '--explain': ALLOWED" \
    -- "$CHECK" -- "$SHOP" NimbuBot --explain
expect dash-dash-after-arguments 0 "user-agent 'NimbuBot' with URI '--explain': ALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot -- --explain

# --- control bytes cannot forge a line: escaped as \n \r \t \xHH, and \ as \\ ---
forged="/x${nl}user-agent 'NimbuBot' with URI '/prices/history': ALLOWED"
expect escape-newline 1 "user-agent 'NimbuBot' with URI '/x\\nuser-agent 'NimbuBot' with URI '/prices/history': ALLOWED': ALLOWED${nl}user-agent 'NimbuBot' with URI '/prices/history': DISALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot "$forged" /prices/history
expect escape-control-bytes 0 "user-agent 'NimbuBot' with URI '/a\\r\\tb\\x1b[2J\\\\c\\x7f\\x01': ALLOWED" \
    -- "$CHECK" "$SHOP" NimbuBot "$(printf '/a\r\tb\033[2J\\c\177\001')"
expect escape-google-agent 0 "user-agent 'Bot\\nX' with URI '/x': ALLOWED" \
    -- "$CHECK" --profile google "$SHOP" "Bot${nl}X" /x
printf 'User-agent: *\nDisallow: /\033[31m\nSitemap: https://a.test/\033[2J.xml\n' >"$TMP/escape.txt"
expect escape-pattern-and-sitemap 1 "user-agent 'Bot' with URI '/\\x1b[31m': DISALLOWED (line 2: disallow /\\x1b[31m)${nl}sitemap: https://a.test/\\x1b[2J.xml" \
    -- "$CHECK" --profile google --explain --sitemaps "$TMP/escape.txt" Bot "$(printf '/\033[31m')"
cp "$TMP/lint.txt" "$TMP/new${nl}line.txt"
on_windows escape-lint-file "a Windows file name cannot hold a newline" ||
expect escape-lint-file 0 "$TMP/new\\nline.txt:6: unknown: unknown-key" \
    -- sh -c "\"\$0\" --lint \"\$1\" | grep unknown" "$CHECK" "$TMP/new${nl}line.txt"

# --- the file is read only up to the parse limit (512,000 bytes, and one
# more to see whether a line is cut): endless input answers at once. The
# memory cap makes a reader of the whole stream fail fast, not swap. ---
on_windows dev-zero "wine cannot start under ulimit -v" ||
expect dev-zero 0 "user-agent 'Bot' with URI '/x': ALLOWED" \
    -- timeout 10 sh -c 'ulimit -v 1000000; exec "$0" /dev/zero Bot /x' "$CHECK"
on_windows endless-stdin "wine cannot start under ulimit -v" ||
expect endless-stdin 1 "user-agent 'Bot' with URI '/x': DISALLOWED" \
    -- timeout 10 sh -c 'ulimit -v 1000000; { echo "User-agent: *"; yes "Disallow: /x"; } | "$0" - Bot /x' "$CHECK"
# The limit falls after `Disallow: /x` of `Disallow: /xyz`: a cut line is
# dropped, which only the byte after the limit tells.
{ echo 'User-agent: *'; head -c 511973 /dev/zero | tr '\0' '#'; printf '\nDisallow: /xyz\n'; } >"$TMP/cut.txt"
expect cut-line-dropped 0 "user-agent 'Bot' with URI '/x': ALLOWED" -- "$CHECK" "$TMP/cut.txt" Bot /x
expect cut-line-dropped-stdin 0 "user-agent 'Bot' with URI '/x': ALLOWED" \
    -- sh -c "\"\$0\" - Bot /x < \"\$1\"" "$CHECK" "$TMP/cut.txt"

# --- usage and I/O errors: exit 2, message on stderr ---
expect no-arguments 2 "" "missing ROBOTS_FILE" -- "$CHECK"
expect missing-url 2 "" "missing URL" -- "$CHECK" "$SHOP" NimbuBot
expect missing-agent 2 "" "missing USER_AGENT" -- "$CHECK" "$SHOP"
expect unknown-option 2 "" "unknown option: --bogus" -- "$CHECK" --bogus "$SHOP" NimbuBot /
expect bad-profile 2 "" "--profile takes rfc or google" -- "$CHECK" --profile yandex "$SHOP" NimbuBot /
expect profile-without-value 2 "" "--profile needs a value" -- "$CHECK" --profile
expect missing-file 2 "" "cannot open $TMP/nope.txt" -- "$CHECK" "$TMP/nope.txt" NimbuBot /
on_windows directory "Windows refuses to open a directory (\"cannot open\": Permission denied)" ||
expect directory 2 "" "cannot read $TMP" -- "$CHECK" "$TMP" NimbuBot /
expect dash-dash 0 "user-agent 'NimbuBot' with URI '/-x': ALLOWED" -- "$CHECK" -- "$SHOP" NimbuBot /-x
"$CHECK" --help >"$TMP/help" 2>&1
help_exit=$?
if [ $help_exit = 0 ] && grep -q '^usage: robotstxt-check' "$TMP/help" && grep -q -- '--json' "$TMP/help"; then
    passed=$((passed + 1))
else
    echo "FAIL help: exit $help_exit"
    failed=$((failed + 1))
fi

echo "robotstxt-check end to end:"
if [ "$skipped" = 0 ]; then
    echo "$passed passed, $failed failed"
else
    echo "$passed passed, $failed failed, $skipped skipped"
fi
[ "$failed" = 0 ]
