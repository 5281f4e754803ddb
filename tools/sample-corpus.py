#!/usr/bin/env python3
"""Regenerates tests/corpus-sample/ from the shared corpus and workload.

    tools/sample-corpus.py [SHARED [OUT]]

SHARED is the shared directory (default: ../shared beside the repository,
or $ROBOTSTXT_SHARED); OUT is the sample (default: tests/corpus-sample).
OUT is rewritten from scratch with the same layout as SHARED, so a test
only swaps one directory for the other:

    OUT/corpus/files/<name>.txt   the chosen files, byte for byte
    OUT/corpus/MANIFEST.tsv       their rows of corpus/MANIFEST.tsv (sources)
    OUT/corpus/FEATURES.tsv       their rows of corpus/FEATURES.tsv
    OUT/bench/parse_files.tsv     their rows of bench/parse_files.tsv
    OUT/bench/check_sample.tsv    their rows of bench/check_sample.tsv
    OUT/bench/check_urls.tsv      their rows of bench/check_urls.tsv
    OUT/bench/worst_cases.tsv     the rows whose source is in the sample
    OUT/bench/pathological.txt    as it is
    OUT/README.md                 what it is, with the figures of this run
    OUT/.gitattributes            `* -text`: the bytes stay as they are

The choice is deterministic: files are ranked by the SHA-256 of SEED and
their name, so the same shared data gives the same sample. It fails rather
than write a sample larger than BUDGET bytes.
"""

import hashlib
import os
import shutil
import sys

SEED = "robotstxt-sample-1"
# The whole of OUT: the sample is committed, so it stays small.
BUDGET = 3_000_000
# The largest files that fit under this cap; the corpus's giants do not.
BIG_CAP = 600_000
BIG_COUNT = 2
PARSE_LIMIT = 512_000
# Files per stratum of check_sample.tsv (besides the big ones), and the
# most bytes one may have.
STRATA = [
    ("lt1k", 100, None),
    ("1k-4k", 80, None),
    ("4k-16k", 40, None),
    ("16k-64k", 10, None),
    ("ge64k", 2, 100_000),
]
# Odd bytes and odd kinds, from anywhere in the corpus (FEATURES.tsv).
SMALL = 16 * 1024
EXTRAS = [
    ("non-UTF-8", lambda f: f["non_utf8"] == "1", 30),
    ("HTML", lambda f: f["kind"] == "html", 30),
    ("other payloads", lambda f: f["kind"] == "other", 10),
    ("empty or blank", lambda f: f["kind"] == "empty", 15),
    ("NUL bytes", lambda f: f["nul"] == "1", 5),
    ("CR-only line ends", lambda f: f["cr_only"] == "1", 5),
    ("UTF-8 BOM", lambda f: f["utf8_bom"] == "1", 5),
    ("100+ User-agent lines", lambda f: int(f["ua_lines"]) >= 100, 5),
]


def read_tsv(path):
    with open(path, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    header = lines[0]
    rows = [line for line in lines[1:] if line]
    names = header.split("\t")
    return header, rows, [dict(zip(names, r.split("\t"))) for r in rows]


def rank(name):
    return hashlib.sha256(f"{SEED}/{name}".encode()).hexdigest()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    default_shared = os.environ.get("ROBOTSTXT_SHARED") or os.path.join(repo, "..", "shared")
    shared = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else default_shared)
    out = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(repo, "tests", "corpus-sample"))
    if len(sys.argv) > 3 or not os.path.isdir(os.path.join(shared, "corpus", "files")):
        sys.exit(f"no shared corpus at {shared}/corpus/files\n\n{__doc__}")
    corpus, bench = os.path.join(shared, "corpus"), os.path.join(shared, "bench")

    _, _, parse = read_tsv(os.path.join(bench, "parse_files.tsv"))
    size = {r["file"]: int(r["bytes"]) for r in parse}
    kind = {r["file"]: r["kind"] for r in parse}
    _, _, sample = read_tsv(os.path.join(bench, "check_sample.tsv"))
    stratum = {r["file"]: r["stratum"] for r in sample}
    _, _, features = read_tsv(os.path.join(corpus, "FEATURES.tsv"))

    chosen = {}  # file -> why

    def take(files, n, why):
        for name in sorted(files, key=rank)[:n]:
            chosen.setdefault(name, why)

    big = sorted((f for f in size if size[f] <= BIG_CAP), key=lambda f: (-size[f], f))
    for name in big[:BIG_COUNT]:
        chosen[name] = "largest"
    for name, n, cap in STRATA:
        files = [f for f in stratum if stratum[f] == name and f not in chosen]
        take([f for f in files if cap is None or size[f] <= cap], n, f"stratum {name}")
    for why, test, n in EXTRAS:
        take([f["file"] for f in features if test(f) and size[f["file"]] <= SMALL], n, why)

    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "corpus", "files"))
    os.makedirs(os.path.join(out, "bench"))
    for name in sorted(chosen):
        shutil.copyfile(os.path.join(corpus, name), os.path.join(out, "corpus", name))

    def slice_tsv(folder, name, keep):
        header, rows, dicts = read_tsv(os.path.join(shared, folder, name))
        kept = [r for r, d in zip(rows, dicts) if keep(d)]
        with open(os.path.join(out, folder, name), "w", encoding="utf-8", newline="") as f:
            f.write("\n".join([header, *kept]) + "\n")
        return kept

    sha = {}
    for row in slice_tsv("corpus", "MANIFEST.tsv", lambda d: d["file"] in chosen):
        name, digest = row.split("\t")[:2]
        sha[name] = digest
    slice_tsv("corpus", "FEATURES.tsv", lambda d: d["file"] in chosen)
    slice_tsv("bench", "parse_files.tsv", lambda d: d["file"] in chosen)
    checked = slice_tsv("bench", "check_sample.tsv", lambda d: d["file"] in chosen)
    urls = slice_tsv("bench", "check_urls.tsv", lambda d: d["file"] in chosen)
    worst = slice_tsv("bench", "worst_cases.tsv",
                      lambda d: d["source"] in chosen or d["source"] == "pathological.txt")
    shutil.copyfile(os.path.join(bench, "pathological.txt"), os.path.join(out, "bench", "pathological.txt"))
    # Tests compare sizes with the TSVs: git must never convert line ends.
    with open(os.path.join(out, ".gitattributes"), "w", encoding="utf-8") as f:
        f.write("* -text\n")

    # The copies are the corpus's bytes.
    for name in chosen:
        with open(os.path.join(out, "corpus", name), "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != sha[name]:
                sys.exit(f"{name}: SHA-256 differs from MANIFEST.tsv")

    write_readme(out, shared, chosen, size, kind, stratum, features, checked, urls, worst)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    if total > BUDGET:
        sys.exit(f"the sample is {total:,} bytes, over the budget of {BUDGET:,}: lower the counts")
    print(f"sample: {len(chosen)} files ({sum(size[f] for f in chosen):,} bytes), "
          f"{len(urls)} check URLs; {total:,} bytes in {out}")


def write_readme(out, shared, chosen, size, kind, stratum, features, checked, urls, worst):
    feat = {f["file"]: f for f in features}
    files = sorted(chosen)
    total = sum(size[f] for f in files)
    by_stratum = {}
    for f in files:
        if f in stratum:
            by_stratum.setdefault(stratum[f], []).append(f)
    by_kind = {}
    for f in files:
        by_kind.setdefault(kind[f], []).append(f)
    lines = [
        "# Committed corpus sample",
        "",
        f"{len(files)} of the real robots.txt files of the shared corpus (`../shared/corpus`,",
        "19,999 files) and the matching slice of the shared workload (`../shared/bench`), in the",
        "same layout, so that the tests run in a clone without `../shared`. Each test uses the full",
        "shared data when `ROBOTSTXT_SHARED` (or `../shared`) exists, this sample otherwise, and",
        "prints which one it ran on. The benchmarks need the full data.",
        "",
        "Written by `tools/sample-corpus.py`; do not edit by hand. To regenerate it from the",
        "shared data:",
        "",
        "    python3 tools/sample-corpus.py ../shared tests/corpus-sample",
        "",
        "`.gitattributes` keeps git from converting line ends: the tests compare each file's",
        "size with `bench/parse_files.tsv`.",
        "",
        "## What may be redistributed",
        "",
        "The corpus's README: the files are public web content published by the respective",
        "websites, kept only as test data; copyright stays with the sites. This sample is used",
        "the same way. `corpus/MANIFEST.tsv` names each file's site and source. Some files are",
        "HTML pages or hold markup and script: treat every file as untrusted bytes, never serve",
        "or render them.",
        "",
        "## How the files were chosen",
        "",
        f"Deterministically, each file ranked by the SHA-256 of `{SEED}/<name>`:",
        "",
        f"- the {BIG_COUNT} largest corpus files of at most {BIG_CAP:,} bytes (the larger giants,",
        "  up to 3.7 MB, do not fit): both exceed the 512,000-byte parse limit;",
    ]
    for name, n, cap in STRATA:
        extra = f" of at most {cap:,} bytes" if cap else ""
        lines.append(f"- {n} files{extra} of stratum `{name}` of `bench/check_sample.tsv`;")
    for why, _, n in EXTRAS:
        lines.append(f"- up to {n} files of at most {SMALL // 1024} KiB: {why} (`corpus/FEATURES.tsv`);")
    cases = sorted({r.split("\t")[0] for r in worst})
    lines += [
        "- `bench/pathological.txt` as it is. `bench/worst_cases.tsv` keeps the rows whose",
        f"  source is in the sample (cases: {', '.join(f'`{c}`' for c in cases)}); the `largest`",
        "  case's source is the 3.7 MB file, which is not.",
        "",
        "Where the tests choose between the full data and this sample: `tests/common/mod.rs`",
        "(Rust), `tests/c/test_bad_input.c`, `bindings/node/__test__/corpus.mjs`,",
        "`bindings/go/corpus_test.go`, and `fuzz/seeds.py` for the fuzz seeds.",
        "",
        "## Composition",
        "",
        f"{len(files)} files, {total:,} bytes; {len(checked)} of them in the check workload,",
        f"with {len(urls):,} URLs (`bench/check_urls.tsv`).",
        "",
        "| stratum (`check_sample.tsv`) | files | bytes |",
        "| --- | ---: | ---: |",
    ]
    for name, _, _ in STRATA:
        fs = by_stratum.get(name, [])
        lines.append(f"| `{name}` | {len(fs)} | {sum(size[f] for f in fs):,} |")
    rest = [f for f in files if f not in stratum]
    lines.append(f"| not in the check sample | {len(rest)} | {sum(size[f] for f in rest):,} |")
    lines += ["", "| kind (`parse_files.tsv`) | files |", "| --- | ---: |"]
    for k in sorted(by_kind):
        lines.append(f"| `{k}` | {len(by_kind[k])} |")
    lines += ["", "| feature (`FEATURES.tsv`) | files |", "| --- | ---: |"]
    for col, label in [("non_utf8", "non-UTF-8"), ("utf8_bom", "UTF-8 BOM"), ("nul", "NUL bytes"),
                       ("cr_only", "CR-only"), ("crlf", "CRLF"), ("wildcard", "wildcards")]:
        lines.append(f"| {label} | {sum(feat[f][col] == '1' for f in files)} |")
    over = [f for f in files if size[f] > PARSE_LIMIT]
    lines += ["", "Largest: " + ", ".join(
        f"`{f}` ({size[f]:,} bytes, {kind[f]}, {feat[f].get('selected_as', '')})"
        for f in sorted(files, key=lambda f: -size[f])[:BIG_COUNT]) + f"; {len(over)} over the parse limit.", ""]
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
