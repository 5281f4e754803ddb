"""The same calls through the Pyodide wheel and the native wheel, whose
answers must be the same: compare.mjs runs this file in both and compares
the lines. Each line is one probe: its label, then the repr of what the
call returned or of the error it raised (its class, message and
attributes). Covers the API beyond the shared vectors: reprs, errors and
their attributes, entries, leases, answers, tickets, stored copies.
"""

import robotstxt as r

out = []


def p(label, f):
    try:
        v = f()
    except Exception as e:  # noqa: BLE001 - the error is the answer
        attributes = [getattr(e, a, None) for a in ("reason", "version", "supported", "expected", "given", "url", "host", "token")]
        v = f"{type(e).__name__}: {e} {attributes}"
    out.append(f"{label}: {v!r}")


body = b"User-agent: a\nDisallow: /x\nCrawl-delay: 1.5\nRequest-rate: 1/3\nContent-Usage: / train-ai=n\nContent-Signal: search=yes\nClean-param: ref /\nSitemap: https://e.test/s.xml\nHost: e.test\nfoo bar\n"
rb = r.Robots.parse(body)
p("robots", lambda: repr(rb)); p("groups", lambda: rb.group_count); p("diag", lambda: rb.diagnostics)
p("other", lambda: rb.other_records); p("host", lambda: rb.host); p("profile", lambda: rb.profile)
ru = rb.rules_for("a")
p("rules", lambda: repr(ru)); p("rate", lambda: (ru.request_rate, ru.request_rate.interval)); p("delay", lambda: ru.crawl_delay)
p("prefs", lambda: repr(ru.preferences("/y"))); p("prefs2", lambda: ru.preferences("/y", header="search=n").labels)
p("signal", lambda: repr(ru.content_signal())); p("ro", lambda: ru.other_records)
p("dm", lambda: ru.decide_many(["/x", b"/y", "/\xe9"])); p("fa", lambda: ru.filter_allowed(["/x", "/y"]))
p("allow_all", lambda: (repr(r.Rules.allow_all()), r.Rules.allow_all().blanket, r.Rules.disallow_all(profile="google").decide("/a")))
p("pace_ms", lambda: (r.pace_ms(2.5), r.pace_ms(None, (3, 1)), r.pace_ms(ru), r.pace_ms(-1)))
p("pace_ms2", lambda: r.pace_ms(ru, (1, 1)))
p("fleet_script", lambda: len(r.fleet_script("lookup")) > 100); p("fleet_bad", lambda: r.fleet_script("x"))
p("origin", lambda: (r.robots_origin("http://A.test:80/x"), r.pacer_host("ExAmple.COM")))
p("origin_bad", lambda: r.origin("ftp://x")); p("host_bad", lambda: r.pacer_host(""))
p("classify", lambda: [(a.kind, a.retry_later) for a in (r.classify(200), r.classify(404), r.classify(None), r.classify(304), r.classify(403, policy="strict"), r.classify(200, 6))])
p("from_outcome", lambda: repr(r.from_outcome(200, "User-agent: *\nDisallow: /\n")))
e = r.Entry(fresh_for_ms=1000)
p("entry0", lambda: (repr(e), e.is_due(now=0), e.due_at, e.fetched_at, e.failures, e.retry_at, e.has_copy, e.etag))
p("record", lambda: repr(e.record(200, body=body, etag='"v1"', last_modified="Mon", now=10)))
p("entry1", lambda: (repr(e), e.is_due(now=500), e.due_at, e.fetched_at, e.etag, e.last_modified))
p("record503", lambda: repr(e.record(503, now=2000, retry_after_ms=120000)))
p("entry2", lambda: (e.retry_at, e.failures))
a = e.answer(now=2001)
p("answer", lambda: (repr(a), a.kind, a.retry_at, a.blanket, repr(a.robots), a.rules_for("a").can_fetch("/x"), a.rules_for("a").retry_at))
p("answer2", lambda: (a.with_retry_at(5).retry_at, a.with_retry_at(None).retry_at, a.rules_for("bad/1")))
enc = e.encode(body)
p("encode", lambda: (len(enc), r.Entry.stored_body(enc) == body))
p("decode", lambda: repr(r.Entry.decode(enc)))
p("decode_bad", lambda: r.Entry.decode(enc[:-3])); p("decode_str", lambda: r.Entry.decode("x"))
p("decode_ver", lambda: r.Entry.decode(enc[:4] + bytes([9]) + enc[5:]))
p("encode_bad", lambda: e.encode(b"other"))
p("entry_kw", lambda: r.Entry(nope=1))
c = r.Cache(capacity=2, lease_ms=1000)
lk = c.lookup("https://e.test/a", now=0)
p("lookup", lambda: (repr(lk), lk.kind, repr(lk.lease), lk.lease.origin, lk.lease.robots_url, lk.lease.etag, c.issued(lk.lease)))
p("wait", lambda: repr(c.lookup("https://e.test/b", now=1)))
p("wait_disallow", lambda: (lambda l: (l.kind, l.retry_at, l.answer.kind, l.answer.blanket))(c.lookup("https://e.test/b", now=1, when_fetching="disallow-all")))
p("store", lambda: repr(c.store(lk.lease, 200, body=body, etag="e1", now=5)))
p("ended", lambda: (lk.lease.ended, c.issued(lk.lease), repr(lk.lease)))
p("store_again", lambda: c.store(lk.lease, 200, now=6))
l2 = c.lookup("https://e.test/z", now=10)
p("ready", lambda: (l2.kind, l2.stale, l2.retry_at, l2.answer.kind, l2.answer.rules_for("a").can_fetch("/x"), repr(c), len(c), c.stats, c.profile))
p("remove", lambda: (c.remove("https://e.test/"), c.remove("https://e.test/"), len(c)))
other = r.Cache()
l3 = c.lookup("https://f.test/", now=20)
p("other_cache", lambda: other.store(l3.lease, 404, now=21)); p("abandon", lambda: (c.abandon(l3.lease), l3.lease.ended))
p("bad_url", lambda: c.lookup("nope", now=0))
pc = r.Pacer(floor_ms=100, max_in_flight=2)
t1 = pc.reserve("H.test", now=0); t2 = pc.reserve("h.test", now=0)
p("tickets", lambda: (repr(t1), t1.start, t2.start, t1.host, len(pc), repr(pc)))
p("confirm", lambda: (repr(pc.confirm(t1, now=0)), t1.spent, repr(pc.confirm(t2, now=0)), pc.in_flight("h.test", now=1)))
p("record", lambda: (pc.record("h.test", 503, now=5), pc.gap_ms("h.test")))
p("set_delay", lambda: (pc.set_delay("h.test", 3, r.RequestRate(1, 10)), pc.gap_ms("h.test")))
p("disabled", lambda: (pc.set_enabled("h.test", False), pc.reserve("h.test", now=9)))
p("bad_host", lambda: pc.reserve("", now=0)); p("bad_ticket", lambda: pc.confirm("x"))
p("full", lambda: [r.Pacer(capacity=1).reserve(h, now=0) for h in ("a", "b")])
p("errors", lambda: [r.Robots.parse(b"", profile="x")])
p("errors2", lambda: [r.Robots.parse(b"", parse_limit=5)])
p("errors3", lambda: [r.Robots.parse(1)])
p("errors4", lambda: [ru.can_fetch("\ud800")])
p("errors5", lambda: rb.rules_for_any([]))
p("errors6", lambda: rb.rules_for_any(["ok", "b ad"]))
p("errors7", lambda: r.product_token("Mozilla/5.0"))
p("errors8", lambda: ru.preferences("/", header=","))
p("errors9", lambda: r.Pacer(floor_ms=-1))
p("errors10", lambda: r.Cache(capacity=0))
p("errors11", lambda: r.RequestRate(0, 1))
p("errors12", lambda: r.classify(1000))
p("errors13", lambda: r.Entry(after_limit="nah"))
p("closed", lambda: (ru.close(), ru.closed, repr(ru), ru.can_fetch("/")))
print("\n".join(out))
