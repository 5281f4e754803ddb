"""Usage preferences through the Python API (behaviour §10): Content-Usage
per URL, the HTTP field, Content-Signal per crawler, the records the
library does not read, and what the answers are made of. The shared
vectors (test_vectors.py) hold the rules themselves."""

from __future__ import annotations

import pytest

import robotstxt

BODY = (
    b"Clean-param: ref /articles/\n"  # 1, before any group
    b"User-agent: *\n"  # 2, group 0
    b"Content-Signal: search=yes, ai-input=no, ai-train=no\n"  # 3
    b"Content-Usage: train-ai=n\n"  # 4
    b"Content-Usage: /blog/ train-ai=y, bots=n;v=1\n"  # 5
    b"Disallow: /private/\n"  # 6
    b"LLM-Policy: https://a.test/llm.txt\n"  # 7
    b"\n"
    b"User-agent: ExampleBot\n"  # 9, group 1
    b"Allow: /\n"  # 10
    b"X-Note: caf\xc3\xa9 \xff # a comment\n"  # 11
)
ROBOTS = robotstxt.Robots.parse(BODY)
RULES = ROBOTS.rules_for("OtherBot")


def test_the_longest_matching_path_decides() -> None:  # behaviour §10.3
    blog = RULES.preferences("https://a.test/blog/post")
    assert blog.crawlable is True
    assert blog.decision == RULES.decide("https://a.test/blog/post")
    assert list(blog.labels) == ["train-ai", "search", "bots"]  # the two always, then others
    assert {k: (v.value, v.lines) for k, v in blog.labels.items()} == {
        "train-ai": ("y", (5,)),
        "search": (None, ()),
        "bots": ("n", (5,)),
    }
    (statement,) = blog.statements
    assert (statement.line, statement.path) == (5, "/blog/")
    assert statement.members == (("train-ai", "y"), ("bots", "n;v=1"))  # raw, parameters kept
    assert (blog.get("train-ai"), blog.get(b"bots"), blog.get("search"), blog.get("foo")) == ("y", "n", None, None)

    shop = RULES.preferences(b"/shop")
    assert shop.get("train-ai") == "n" and shop.labels["train-ai"].lines == (4,)
    assert [(s.line, s.path, s.members) for s in shop.statements] == [(4, "/", (("train-ai", "n"),))]


def test_a_disallowed_url_states_nothing() -> None:  # behaviour §10.3 step 2
    got = RULES.preferences("/private/x")
    assert got.crawlable is False
    assert (got.decision.line, got.decision.kind) == (6, "disallow")
    assert {k: v.value for k, v in got.labels.items()} == {"train-ai": None, "search": None}
    assert got.statements == ()


def test_a_named_group_replaces_star_with_its_preferences() -> None:  # behaviour §10.3 step 1
    rules = ROBOTS.rules_for("ExampleBot")
    assert rules.preferences("/blog/x").get("train-ai") is None
    assert rules.content_signal() is None


def test_the_http_field_combines_per_label() -> None:  # behaviour §10.6
    page = RULES.preferences("/blog/post", header="train-ai=n, search=y")
    assert (page.get("train-ai"), page.get("search"), page.get("bots")) == ("n", "y", "n")
    assert page.labels["train-ai"].lines == ()  # the field decided, not line 5
    assert page.labels["bots"].lines == (5,)
    assert page.statements == RULES.preferences("/blog/post").statements
    assert RULES.preferences("/blog/post", header=b"ai-output=y").get("ai-output") == "y"
    assert RULES.preferences("/blog/post", header=None) == RULES.preferences("/blog/post")
    # Nothing was fetched from a disallowed URL: the field changes nothing.
    assert RULES.preferences("/private/x", header="train-ai=y").get("train-ai") is None


@pytest.mark.parametrize(
    ("field", "reason"),
    [("Train-AI=n", "syntax"), ("train-ai=n,", "syntax"), ("a=b c", "syntax"), ("", "empty"), ("  ", "empty")],
)
def test_a_field_that_states_nothing_raises(field: str, reason: str) -> None:
    for url in ("/blog/post", "/private/x"):
        with pytest.raises(robotstxt.InvalidStatementError) as raised:
            RULES.preferences(url, header=field)
        assert raised.value.reason == reason
        assert isinstance(raised.value, ValueError) and isinstance(raised.value, robotstxt.Error)
        assert "Content-Usage" in str(raised.value) and "states nothing" in str(raised.value)


def test_content_signal_per_crawler() -> None:  # behaviour §10.5
    signal = RULES.content_signal()
    assert signal is not None
    assert signal.signals == {"search": "yes", "ai-input": "no", "ai-train": "no"}
    assert signal.lines == (3,)
    assert signal == RULES.content_signal() and hash(signal) == hash(RULES.content_signal())
    robots = robotstxt.Robots.parse(b"User-agent: *\nContent-Signal: AI-Train=YES, foo=no, bar=1\n")
    got = robots.rules_for("ExampleBot").content_signal()
    assert got is not None
    assert got.signals == {"search": None, "ai-input": None, "ai-train": "yes", "foo": "no"}
    assert robotstxt.Robots.parse(b"User-agent: *\n").rules_for("ExampleBot").content_signal() is None


def test_other_records() -> None:  # behaviour §10.7
    records = ROBOTS.other_records
    assert isinstance(records, tuple)
    assert [(r.key, r.key_lower, r.value, r.line, r.group) for r in records] == [
        ("Clean-param", "clean-param", "ref /articles/", 1, None),
        ("LLM-Policy", "llm-policy", "https://a.test/llm.txt", 7, 0),
        ("X-Note", "x-note", "caf\u00e9 \ufffd", 11, 1),  # not UTF-8: U+FFFD
    ]
    assert [r.line for r in RULES.other_records] == [1, 7]
    assert [r.line for r in ROBOTS.rules_for("ExampleBot").other_records] == [1, 11]
    assert robotstxt.Robots.parse(b"User-agent: *\nDisallow: /\n").other_records == ()
    # A Content-Signal line before any group is listed, and reported.
    early = robotstxt.Robots.parse(b"Content-Signal: ai-train=no\nUser-agent: *\n")
    assert [(r.key, r.group) for r in early.other_records] == [("Content-Signal", None)]
    assert early.rules_for("ExampleBot").content_signal() is None
    assert [(d.line, d.kind, d.flags) for d in early.diagnostics] == [(1, "content-signal", ("outside-group",))]


def test_blanket_rules_state_nothing() -> None:
    deny = robotstxt.Rules.disallow_all()
    got = deny.preferences("/x")
    assert (got.crawlable, got.decision.kind) == (False, "disallow-all")
    allow = robotstxt.Rules.allow_all().preferences("/x")
    assert (allow.crawlable, allow.decision.kind, allow.get("train-ai")) == (True, "allow-all", None)
    assert deny.content_signal() is None and deny.other_records == ()


def test_diagnostics_of_preference_lines() -> None:  # behaviour §10.2
    robots = robotstxt.Robots.parse(
        b"Content-Usage: train-ai=n\n"  # 1: before any group
        b"User-agent: *\n"
        b"Content-Usage: Train-AI=n\n"  # 3
        b"Content-Usage: /x\n"  # 4
        b"Content-Usage: train-ai=yes\n"  # 5
        b"Content-Signal: search=1, ai-train=no\n"  # 6
        b"Content-Usage: train-ai=n\n"  # 7: nothing to report
    )
    got = [(d.line, d.kind, d.flags) for d in robots.diagnostics]
    assert got == [
        (1, "content-usage", ("outside-group",)),
        (3, "content-usage", ("invalid-statement",)),
        (4, "content-usage", ("empty-statement",)),
        (5, "content-usage", ("unknown-preference",)),
        (6, "content-signal", ("unknown-preference",)),
    ]
    messages = [d.message for d in robots.diagnostics]
    assert "ignored" in messages[0]
    assert "RFC 9651" in messages[1] and "states nothing" in messages[1]
    assert "no statement" in messages[2]
    assert "neither y nor n" in messages[3]
    assert "key=yes" in messages[4]
    # The rules with bad statements are kept, stating nothing.
    rules = robots.rules_for("ExampleBot")
    assert [s.line for s in rules.preferences("/x").statements] == [4]
    assert rules.preferences("/x").get("train-ai") is None
    assert rules.preferences("/y").get("train-ai") == "n"  # line 7; 3 and 5 state nothing of it


def test_answers_are_frozen_values() -> None:
    a, b = RULES.preferences("/blog/post"), RULES.preferences(b"/blog/post")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != RULES.preferences("/shop") and a != "/blog/post"
    assert a.labels["bots"] == b.labels["bots"] and hash(a.labels["bots"]) == hash(b.labels["bots"])
    assert a.statements[0] == b.statements[0] and len({a.statements[0], b.statements[0]}) == 1
    assert ROBOTS.other_records == robotstxt.Robots.parse(BODY).other_records
    assert len(set(ROBOTS.other_records)) == 3
    a.labels.clear()  # a new dict each time
    assert len(a.labels) == 3
    for obj, attr in ((a, "crawlable"), (a.labels["bots"], "value"), (ROBOTS.other_records[0], "line")):
        with pytest.raises(AttributeError):
            setattr(obj, attr, None)


def test_answers_outlive_their_rules() -> None:
    robots = robotstxt.Robots.parse(BODY)
    rules = robots.rules_for("OtherBot")
    got, signal, records = rules.preferences("/blog/post"), rules.content_signal(), robots.other_records
    rules.close()
    robots.close()
    assert got.get("train-ai") == "y" and signal is not None and signal.lines == (3,) and len(records) == 3
    for call in (
        lambda: rules.preferences("/"),
        lambda: rules.content_signal(),
        lambda: rules.other_records,
        lambda: robots.other_records,
    ):
        with pytest.raises(robotstxt.ClosedError):
            call()


def test_reprs() -> None:
    blog = RULES.preferences("/blog/post")
    assert repr(blog.labels["train-ai"]) == "LabelPreference(value='y', lines=(5,))"
    assert repr(blog.labels["search"]) == "LabelPreference(value=None, lines=())"
    assert repr(blog.statements[0]) == (
        "UsageStatement(line=5, path='/blog/', members=(('train-ai', 'y'), ('bots', 'n;v=1')))"
    )
    assert repr(blog) == (
        "<robotstxt.Preferences crawlable=True, line=0, labels={'train-ai': 'y', 'search': None, 'bots': 'n'}, "
        "statements on lines (5,)>"
    )
    assert repr(RULES.content_signal()) == (
        "ContentSignal(signals={'search': 'yes', 'ai-input': 'no', 'ai-train': 'no'}, lines=(3,))"
    )
    assert repr(ROBOTS.other_records[0]) == (
        "OtherRecord(key='Clean-param', key_lower='clean-param', value='ref /articles/', line=1, group=None)"
    )


def test_the_signature() -> None:
    assert robotstxt.Rules.preferences(RULES, "/blog/").get("train-ai") == "y"  # through the type
    for call in (
        lambda: RULES.preferences(),  # type: ignore[call-arg]
        lambda: RULES.preferences(url="/a"),  # type: ignore[call-arg]
        lambda: RULES.preferences("/a", "train-ai=n"),  # type: ignore[misc]
        lambda: RULES.preferences("/a").get(label="x"),  # type: ignore[call-arg]
    ):
        with pytest.raises(TypeError):
            call()
    assert "header" in (robotstxt.Rules.preferences.__text_signature__ or "")
