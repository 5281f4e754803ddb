#!/usr/bin/env python3
"""Seed corpora for the fuzz targets (`make fuzz-seeds`).

    seeds.py SHARED_CORPUS_FILES VECTORS_DIR OUT_DIR

Writes OUT_DIR/<target>/<sha1> (fuzz/corpus/ is not committed):

- parse: every body of tests/vectors/*.json and a fixed sample of the real
  files in SHARED_CORPUS_FILES (every 25th by name), or, when that
  directory does not exist, every file of the committed sample
  tests/corpus-sample/corpus/files; seeds of at most 16 KiB only, so the
  fuzzer stays fast (large bodies and the parse limit are the targets' own
  business, and tests/bad_input.rs's);
- matching: the same bodies in the target's "arbitrary" mode (a 0 byte,
  the body, then a token line and a URL line from the vector's checks),
  and a few inputs for its "generated" mode;
- cache, ffi: deterministic pseudo-random bytes (their inputs are call
  sequences, not files);
- linear: a head, a unit (0x01 for the repetition's number) and a URL,
  split by 0xFF, one per construct a hostile file repeats.

Deterministic: the same inputs give the same seeds.
"""

import hashlib
import json
import os
import random
import sys

MAX_SEED = 16 * 1024
SAMPLE_EVERY = 25


# Units a hostile file repeats, each with a URL that meets them: the
# constructs of benches/common/hostile.rs, in the linear target's form.
LINEAR_UNITS = [
    (b"Disallow: /*q\x01*q\x01\n", b"/q1q2q3q4q5q6q7q8q9q10"),
    (b"Disallow: /*a*a*a\x01$\n", b"/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
    (b"Disallow: /*ab*ab\x01\n", b"/abababababababab1"),
    (b"Disallow: /n\x01\n", b"/n1n2n3"),
    (b"User-agent: *\nDisallow: /g\x01\n", b"/g1xxxx"),
    (b"User-agent: bot\x01\n", b"/x"),
    (b"Content-Signal: k\x01=no, j\x01=yes\n", b"/s"),
    (b"Content-Usage: / l\x01=n, m\x01=y\n", b"/u"),
    (b"Content-Usage: /*u*\x01 train-ai=n\n", b"/uuuuuuuu1"),
    (b"Allow: /%41%42\x01%2F\n", b"/AB1%2f"),
    (b"Sitemap: https://a.test/\x01.xml\n", b"/"),
    (b"Foo-\x01: bar\n", b"/"),
    (b"Disallow /broken\x01\n", b"/"),
]


def as_bytes(value):
    """A vector's body or URL: a string, or a list of text, hex and repeat parts."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, list):
        out = b""
        for part in value:
            if "text" in part:
                out += part["text"].encode("utf-8")
            elif "hex" in part:
                out += bytes.fromhex(part["hex"])
            elif "repeat" in part:
                out += part["repeat"].encode("utf-8") * int(part["times"])
        return out
    return None


def write(out_dir, target, data):
    folder = os.path.join(out_dir, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def vector_cases(vectors_dir):
    for name in sorted(os.listdir(vectors_dir)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(vectors_dir, name), encoding="utf-8") as f:
            doc = json.load(f)
        for case in doc.get("cases", []):
            body = as_bytes(case.get("body"))
            if body is None:
                continue
            token = case.get("token") or (case.get("tokens") or ["ExampleBot"])[0]
            checks = [c for c in case.get("checks", []) if isinstance(c, dict)]
            urls = [as_bytes(c.get("url") or c.get("url_parts")) for c in checks]
            yield body, as_bytes(token) or b"", [u for u in urls if u is not None] or [b"/"]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    files_dir, vectors_dir, out_dir = sys.argv[1:]
    counts = {}

    def add(target, data):
        if len(data) > MAX_SEED:
            return
        write(out_dir, target, data)
        counts[target] = counts.get(target, 0) + 1

    for body, token, urls in vector_cases(vectors_dir):
        add("parse", body)
        for url in urls[:3]:
            add("matching", b"\x00" + body + b"\n" + token + b"\n" + url)

    # The Makefile names the shared corpus even when it does not exist.
    every = SAMPLE_EVERY
    if os.path.isdir(files_dir):
        print(f"fuzz seeds: full shared corpus at {files_dir}, every {every}th file")
    else:
        missing = files_dir
        repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        files_dir = os.path.join(repo, "tests", "corpus-sample", "corpus", "files")
        every = 1  # already a sample
        print(f"fuzz seeds: committed sample {files_dir}, every file; "
              f"the full corpus is in ../shared (none at {missing})")
    names = sorted(os.listdir(files_dir))
    for i, name in enumerate(names):
        if i % every:
            continue
        path = os.path.join(files_dir, name)
        if os.path.getsize(path) > MAX_SEED:
            continue
        with open(path, "rb") as f:
            body = f.read()
        add("parse", body)
        add("matching", b"\x00" + body + b"\nGooglebot\n/search?q=1")

    rng = random.Random(9309)
    for _ in range(64):
        add("matching", bytes([rng.randrange(0, 256, 2) + 1]) + rng.randbytes(rng.randrange(8, 96)))
        add("cache", rng.randbytes(rng.randrange(16, 512)))
        add("ffi", rng.randbytes(rng.randrange(16, 1024)))

    head = b"User-agent: hostilebot\n"
    for unit, url in LINEAR_UNITS:
        add("linear", head + b"\xff" + unit + b"\xff" + url)

    for target in ("parse", "matching", "cache", "ffi", "linear"):
        print(f"fuzz seeds: {counts.get(target, 0)} for {target} in {os.path.join(out_dir, target)}")


if __name__ == "__main__":
    main()
