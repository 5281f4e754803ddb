#!/bin/sh
# End-to-end test of examples/polite-crawler.c against a loopback server
# (tests/c/polite_server.py): the output lines, one robots.txt fetch per
# origin, no request for a disallowed page, page starts on one host at
# least the Crawl-delay apart, and a robots.txt that answers 503: nothing
# on its origin is fetched, the cause is shown, and the host is backed off.
# Bounded in time; the server is always stopped.
# Usage: polite_test.sh PATH/TO/polite-crawler
set -u

CRAWLER=${1:?usage: polite_test.sh PATH/TO/polite-crawler}
PYTHON=${PYTHON:-python3}
TMP=$(mktemp -d)
SERVER=
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
fail() {
    echo "FAIL polite-crawler: $*"
    exit 1
}

"$PYTHON" tests/c/polite_server.py "$TMP/log" >"$TMP/port" 2>"$TMP/server-err" &
SERVER=$!
i=0
while [ "$(cat "$TMP/port" 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do
    sleep 0.05
    i=$((i + 1))
done
PORT=$(sed -n 1p "$TMP/port")
DOWN_PORT=$(sed -n 2p "$TMP/port")
[ -n "$DOWN_PORT" ] || fail "the server did not start: $(cat "$TMP/server-err")"

A=http://127.0.0.1:$PORT
B=http://localhost:$PORT
C=http://localhost:$DOWN_PORT
timeout 30 "$CRAWLER" "$A/public" "$A/private/x" "$B/private/x" "$A/products?page=2" \
    "$C/down" "$B/gone" "ftp://127.0.0.1/" >"$TMP/out" 2>"$TMP/err"
status=$?
cat >"$TMP/want" <<WANT
allowed 200 $A/public
disallowed $A/private/x
allowed 200 $B/private/x
allowed 200 $A/products?page=2
disallowed $C/down
allowed 404 $B/gone
WANT
[ "$status" = 1 ] || fail "exit $status, want 1 (one URL is not http://); stderr: $(cat "$TMP/err")"
cmp -s "$TMP/out" "$TMP/want" || { diff "$TMP/want" "$TMP/out"; fail "output differs"; }
grep -q "ftp://127.0.0.1/: cannot crawl" "$TMP/err" || fail "no error for the ftp URL: $(cat "$TMP/err")"
# The 503's Retry-After of 1 s is kept to the cache's minimum of a minute.
grep -qF "$C/down: robots.txt unreachable (HTTP 503), everything disallowed until it is fetched again in 60 s" \
    "$TMP/err" || fail "no cause for the disallowed $C/down: $(cat "$TMP/err")"

# The server's view: what was asked, in order, and when.
cat >"$TMP/want-log" <<WANT
127.0.0.1 /robots.txt
127.0.0.1 /public
localhost /robots.txt
localhost /private/x
127.0.0.1 /products?page=2
localhost /robots.txt
localhost /gone
WANT
cut -d' ' -f2- "$TMP/log" >"$TMP/got-log"
cmp -s "$TMP/got-log" "$TMP/want-log" || { diff "$TMP/want-log" "$TMP/got-log"; fail "the server saw other requests"; }
# Crawl-delay: 1.2 between the two pages on 127.0.0.1 (starts; arrival
# adds a little on both sides), the 1 s floor on localhost (both ports: the
# pacer keys hosts), and after the 503 the gap doubled to 2 s.
awk '
    $2 == "127.0.0.1" && $3 != "/robots.txt" { a[na++] = $1 }
    $2 == "localhost" { b[nb++] = $1 }
    END {
        if (a[1] - a[0] < 1.15) { printf "127.0.0.1 pages %.3f s apart, want >= 1.2\n", a[1] - a[0]; exit 1 }
        for (i = 1; i < nb; i++) if (b[i] - b[i-1] < 0.95) { printf "localhost requests %.3f s apart, want >= 1\n", b[i] - b[i-1]; exit 1 }
        if (b[3] - b[2] < 1.9) { printf "localhost asked again %.3f s after a 503, want >= 2\n", b[3] - b[2]; exit 1 }
    }' "$TMP/log" || fail "not paced"
echo "polite-crawler: 1 test passed (6 URLs, 3 origins, paced, one robots.txt per origin, a 503 backed off)"
