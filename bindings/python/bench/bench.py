"""`make python-bench`: the Python binding side by side with Protego
(Scrapy's parser), urllib.robotparser, texting-robots-py and fastrobots, in
one process, on the shared workload (../shared/bench/README.md):

  1. parse: the first `capped_bytes` of all 19,999 corpus files;
  2. checks: 2,000 sample files x 20 URLs x 2 agents, one call per URL, and
     (this binding) one batch call per file and agent.

Inputs are read, decoded and cut before any timing; rules are parsed and
selected beforehand (a crawler keeps them per site). Each figure is the best
of --passes timed passes after a warm-up pass, the libraries taking turns
within each pass so that a busy machine slows them alike. Every loop is a
plain Python `for`, whose own cost (a bare call: `len(url)`) is printed too.

    python bench.py [--shared DIR] [--passes N] [--markdown FILE]

ROBOTSTXT_SHARED names the shared directory (default: ../shared beside the
repository).
"""

from __future__ import annotations

import argparse
import csv
import gc
import importlib.metadata
import json
import os
import platform
import sys
import time
import urllib.robotparser
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

import robotstxt

try:
    from protego import Protego
except ImportError:  # pragma: no cover - the bench venv has it
    Protego = None
try:
    import texting_robots
except ImportError:  # pragma: no cover
    texting_robots = None
try:
    import fastrobots
except ImportError:  # pragma: no cover
    fastrobots = None

HERE = Path(__file__).resolve().parent


# The checks on rules in use: each file's URLs this many times over, on
# every this-many-th sample file (Protego and urllib.robotparser take some
# 10-20 µs a check).
HOT_REPS = 20
HOT_STRIDE = 10


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def tsv(path: Path) -> List[Dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def best(fns: Dict[str, Callable[[], Any]], passes: int) -> Dict[str, float]:
    """The best time (ns) of each function over `passes` timed runs after
    one warm-up; the functions take turns within each pass."""
    for fn in fns.values():
        fn()
    times = {name: float("inf") for name in fns}
    for _ in range(passes):
        for name, fn in fns.items():
            gc.collect()
            start = time.perf_counter_ns()
            fn()
            times[name] = min(times[name], time.perf_counter_ns() - start)
    return times


def fmt(n: float, digits: int = 0) -> str:
    return f"{n:,.{digits}f}"


def main() -> None:
    ap = argparse.ArgumentParser(description="robotstxt (Python) vs its peers")
    default_shared = os.environ.get("ROBOTSTXT_SHARED") or str(HERE.parent.parent.parent.parent / "shared")
    ap.add_argument("--shared", default=default_shared)
    ap.add_argument("--passes", type=int, default=int(os.environ.get("BENCH_PASSES", "5")))
    ap.add_argument("--markdown", help="also write the figures as a Markdown section to this file")
    ap.add_argument(
        "--peers",
        default="protego,urllib,texting,fastrobots",
        help="which peers to run, comma-separated (default: all; 'none' for robotstxt alone)",
    )
    args = ap.parse_args()
    shared = Path(args.shared).resolve()
    passes = max(1, args.passes)
    workload = json.loads((shared / "bench" / "workload.json").read_text())
    agents: List[str] = workload["agents"]
    origin: str = workload["origin"]

    # --- inputs -----------------------------------------------------------
    rows = tsv(shared / "bench" / "parse_files.tsv")
    bodies = [(shared / "corpus" / r["file"]).read_bytes()[: int(r["capped_bytes"])] for r in rows]
    texts = [b.decode("utf-8", "replace") for b in bodies]
    lines = [t.splitlines() for t in texts]
    total = sum(len(b) for b in bodies)
    strata = {r["file"]: r["stratum"] for r in tsv(shared / "bench" / "check_sample.tsv")}
    by_file: Dict[str, List[str]] = {}
    for r in tsv(shared / "bench" / "check_urls.tsv"):
        by_file.setdefault(r["file"], []).append(r["url"])
    sample = []
    for file, urls in by_file.items():
        body = (shared / "corpus" / file).read_bytes()[:512_000]
        paths = []
        for url in urls:  # fastrobots takes the path and query, cut here
            parts = urlsplit(url)
            paths.append((parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
        sample.append({"file": file, "stratum": strata[file], "body": body, "urls": urls, "paths": paths})
    checks = sum(len(s["urls"]) for s in sample) * len(agents)
    peers = [
        ("protego", f"Protego {version('protego')}", Protego is not None),
        ("urllib", f"urllib.robotparser (Python {platform.python_version()})", True),
        ("texting", f"texting-robots-py {version('texting-robots-py')}", texting_robots is not None),
        ("fastrobots", f"fastrobots {version('fastrobots')}", fastrobots is not None),
    ]
    wanted = set(args.peers.split(","))
    peers = [(key, name, ok) for key, name, ok in peers if ok and key in wanted]
    print(f"robotstxt {robotstxt.__version__} (Python {platform.python_version()}, {sys.implementation.name})")
    print(f"shared: {shared}; best of {passes} passes after a warm-up")
    print()

    # --- 1. parse ---------------------------------------------------------
    sink = [0]

    def parse_ours_bytes() -> None:
        n = 0
        parse = robotstxt.Robots.parse
        for b in bodies:
            n += parse(b).rule_count
        sink[0] += n

    def parse_ours_str() -> None:
        n = 0
        parse = robotstxt.Robots.parse
        for t in texts:
            n += parse(t).rule_count
        sink[0] += n

    parse_fns: Dict[str, Callable[[], Any]] = {"ours_bytes": parse_ours_bytes, "ours_str": parse_ours_str}
    running = {key for key, _, _ in peers}
    if "protego" in running:
        parse_fns["protego"] = lambda: [Protego.parse(t) for t in texts]

    def parse_urllib() -> None:
        for ls in lines:
            rp = urllib.robotparser.RobotFileParser()
            rp.parse(ls)

    if "urllib" in running:
        parse_fns["urllib"] = parse_urllib
    if "texting" in running:

        def parse_texting() -> None:
            for b in bodies:
                try:
                    texting_robots.Robot(agents[0], b)
                except Exception:  # it refuses some files
                    pass

        parse_fns["texting"] = parse_texting
    if "fastrobots" in running:
        parse_fns["fastrobots"] = lambda: [fastrobots.Robots.parse(t) for t in texts]
    parse_ns = best(parse_fns, passes)
    mbps = {k: total / 1e6 / (v / 1e9) for k, v in parse_ns.items()}
    print(f"1. parse: {fmt(len(bodies))} files, {fmt(total / 1e6, 1)} MB (capped)")
    labels = {
        "ours_bytes": "robotstxt, Robots.parse(bytes)",
        "ours_str": "robotstxt, Robots.parse(str)",
        **{key: name for key, name, _ in peers},
    }
    for key in parse_ns:
        print(f"   {labels[key]:<44}{fmt(mbps[key], 1):>10} MB/s {fmt(parse_ns[key] / 1e6, 1):>10} ms")
    print()

    # --- 2. checks --------------------------------------------------------
    ours = []
    for s in sample:
        robots = robotstxt.Robots.parse(s["body"])
        ours.append([robots.rules_for(a) for a in agents])
    theirs: Dict[str, List[Any]] = {}
    if Protego is not None:
        theirs["protego"] = [Protego.parse(s["body"].decode("utf-8", "replace")) for s in sample]
    urllib_parsed = []
    for s in sample:
        rp = urllib.robotparser.RobotFileParser()
        rp.parse(s["body"].decode("utf-8", "replace").splitlines())
        urllib_parsed.append(rp)
    theirs["urllib"] = urllib_parsed
    if texting_robots is not None:
        texting_parsed = []
        for s in sample:
            per_agent = []
            for a in agents:
                try:
                    per_agent.append(texting_robots.Robot(a, s["body"]))
                except Exception:
                    per_agent.append(None)
            texting_parsed.append(per_agent)
        theirs["texting"] = texting_parsed
    if fastrobots is not None:
        theirs["fastrobots"] = [fastrobots.Robots.parse(s["body"].decode("utf-8", "replace")) for s in sample]

    def one_ours(indices: range, reps: int = 1) -> Callable[[], None]:
        def run() -> None:
            n = 0
            for i in indices:
                urls = sample[i]["urls"]
                for rules in ours[i]:
                    can_fetch = rules.can_fetch
                    for _ in range(reps):
                        for url in urls:
                            if can_fetch(url):
                                n += 1
            sink[0] += n

        return run

    def batch_ours(indices: range, reps: int = 1) -> Callable[[], None]:
        def run() -> None:
            n = 0
            for i in indices:
                urls = sample[i]["urls"]
                for rules in ours[i]:
                    for _ in range(reps):
                        n += len(rules.filter_allowed(urls))
            sink[0] += n

        return run

    def many_ours() -> None:
        n = 0
        for i, s in enumerate(sample):
            for rules in ours[i]:
                n += sum(rules.can_fetch_many(s["urls"]))
        sink[0] += n

    def decide_ours() -> None:
        n = 0
        for i, s in enumerate(sample):
            for rules in ours[i]:
                for url in s["urls"]:
                    if rules.decide(url).allowed:
                        n += 1
        sink[0] += n

    def bare() -> None:
        n = 0
        for s in sample:
            urls = s["urls"]
            for _ in agents:
                f = len
                for url in urls:
                    if f(url):
                        n += 1
        sink[0] += n

    def one_theirs(key: str, indices: range, reps: int = 1) -> Callable[[], None]:
        def run() -> None:
            n = 0
            parsed = theirs[key]
            for i in indices:
                s = sample[i]
                if key == "protego":
                    rp = parsed[i]
                    for a in agents:
                        for _ in range(reps):
                            for url in s["urls"]:
                                if rp.can_fetch(url, a):
                                    n += 1
                elif key == "urllib":
                    rp = parsed[i]
                    for a in agents:
                        for _ in range(reps):
                            for url in s["urls"]:
                                if rp.can_fetch(a, url):
                                    n += 1
                elif key == "texting":
                    for robot in parsed[i]:
                        if robot is None:
                            continue
                        for _ in range(reps):
                            for url in s["urls"]:
                                if robot.allowed(url):
                                    n += 1
                else:
                    rp = parsed[i]
                    for a in agents:
                        for _ in range(reps):
                            for path in s["paths"]:
                                if rp.allowed(path, a):
                                    n += 1
            sink[0] += n

        return run

    everything = range(len(sample))
    check_fns: Dict[str, Callable[[], Any]] = {
        "bare": bare,
        "one": one_ours(everything),
        "batch": batch_ours(everything),
        "many": many_ours,
        "decide": decide_ours,
    }
    for key, _, _ in peers:
        check_fns[key] = one_theirs(key, everything)
    check_ns = best(check_fns, passes)
    per = {k: v / checks for k, v in check_ns.items()}

    # How often each peer agrees with robotstxt (they read robots.txt differently).
    agree: Dict[str, int] = {key: 0 for key, _, _ in peers}
    for i, s in enumerate(sample):
        for a_index, a in enumerate(agents):
            mine = [ours[i][a_index].can_fetch(u) for u in s["urls"]]
            for key, _, _ in peers:
                parsed = theirs[key][i]
                for j, url in enumerate(s["urls"]):
                    if key == "protego":
                        got = parsed.can_fetch(url, a)
                    elif key == "urllib":
                        got = parsed.can_fetch(a, url)
                    elif key == "texting":
                        robot = parsed[a_index]
                        got = True if robot is None else robot.allowed(url)
                    else:
                        got = parsed.allowed(s["paths"][j], a)
                    agree[key] += bool(got) == mine[j]

    print(f"2. checks: {fmt(len(sample))} files x 20 URLs x {len(agents)} agents = {fmt(checks)} checks per pass")
    rows_out: List[Tuple[str, str]] = [
        ("robotstxt can_fetch (one by one)", "one"),
        ("robotstxt filter_allowed (batch of 20)", "batch"),
        ("robotstxt can_fetch_many (batch of 20)", "many"),
        ("robotstxt decide (one by one)", "decide"),
    ] + [(f"{name} (one by one)", key) for key, name, _ in peers]
    for label, key in rows_out:
        print(f"   {label:<52}{fmt(per[key]):>8} ns/check {fmt(1e9 / per[key]):>14} checks/s")
    print(f"   (the loop alone, a bare call len(url) per URL: {fmt(per['bare'])} ns)")
    for key, name, _ in peers:
        print(f"   answers agree with {name} on {fmt(100 * agree[key] / checks, 1)}% of checks")
    print()

    # By file size: robotstxt one by one and batched, and each peer.
    by_stratum = []
    for stratum in dict.fromkeys(s["stratum"] for s in sample):
        picked = [i for i, s in enumerate(sample) if s["stratum"] == stratum]
        n_checks = sum(len(sample[i]["urls"]) for i in picked) * len(agents)
        fns: Dict[str, Callable[[], Any]] = {"one": one_ours(picked), "batch": batch_ours(picked)}  # type: ignore[arg-type]
        for key, _, _ in peers:
            fns[key] = one_theirs(key, picked)  # type: ignore[arg-type]
        times = best(fns, passes)
        by_stratum.append((stratum, len(picked), {k: v / n_checks for k, v in times.items()}))
    print("   by file size (capped)   files   robotstxt ns/check   (batch)  " + "  ".join(f"{k:>10}" for k, _, _ in peers))
    for stratum, files, t in by_stratum:
        cols = "  ".join(f"{fmt(t[k]):>10}" for k, _, _ in peers)
        print(f"   {stratum:<20}{fmt(files):>8}{fmt(t['one']):>21}{fmt(t['batch']):>10}  {cols}")
    print()

    # On rules in use, as benches/compare.rs's main check tables: per file
    # and agent, the URLs HOT_REPS times over before the next file (a
    # crawler working through one site), on every HOT_STRIDE-th file.
    hot_files = range(0, len(sample), HOT_STRIDE)
    hot_checks = sum(len(sample[i]["urls"]) for i in hot_files) * len(agents) * HOT_REPS
    hot_fns: Dict[str, Callable[[], Any]] = {
        "one": one_ours(hot_files, HOT_REPS),
        "batch": batch_ours(hot_files, HOT_REPS),
    }
    for key, _, _ in peers:
        hot_fns[key] = one_theirs(key, hot_files, HOT_REPS)
    hot = {k: t / hot_checks for k, t in best(hot_fns, passes).items()}
    print(f"   on rules in use ({fmt(len(hot_files))} files, each file's URLs {HOT_REPS} times over), ns/check:")
    print(
        f"   robotstxt {fmt(hot['one'])} one by one, {fmt(hot['batch'])} batched; "
        + ", ".join(f"{name} {fmt(hot[k])}" for k, name, _ in peers)
    )
    print()
    print("ratios (peer time / robotstxt time, higher: robotstxt is faster):")
    for key, name, _ in peers:
        print(
            f"   {name:<44} parse {parse_ns[key] / parse_ns['ours_bytes']:>7.1f}x (bytes)"
            f"  checks {per[key] / per['one']:>7.1f}x (one by one) {per[key] / per['batch']:>7.1f}x (batched)"
        )
    if sink[0] == -1:
        print()

    if args.markdown:
        write_markdown(Path(args.markdown), locals())


def write_markdown(path: Path, v: Dict[str, Any]) -> None:
    peers = v["peers"]
    per, mbps, parse_ns, passes = v["per"], v["mbps"], v["parse_ns"], v["passes"]
    labels = v["labels"]
    x = lambda ours, theirs: f"{theirs / ours:,.1f}×"  # noqa: E731
    md = [
        "## Python: the binding against Protego, urllib.robotparser, texting-robots-py and fastrobots",
        "",
        f"robotstxt {robotstxt.__version__} through its PyO3 binding (Python {platform.python_version()}, one abi3 wheel) "
        f"against {', '.join(name for _, name, _ in peers)}, in one process on the shared workload: parse the first "
        f"`capped_bytes` of all {fmt(len(v['bodies']))} corpus files ({fmt(v['total'])} bytes); check "
        f"{fmt(len(v['sample']))} files × 20 URLs × {len(v['agents'])} agents ({', '.join(v['agents'])}), rules parsed "
        f"and selected beforehand. Each figure is the best of {passes} timed pass{'es' if passes != 1 else ''} after a "
        "warm-up, the libraries taking turns within each pass; ratios are the peer's time ÷ robotstxt's (above 1: "
        "robotstxt is faster). Each peer gets its natural input: Protego, urllib.robotparser and texting-robots-py "
        "the absolute URL, fastrobots the path and query (cut beforehand, untimed); Protego, urllib.robotparser and "
        "fastrobots parse `str` (decoded beforehand), texting-robots-py parses bytes for one agent at a time. Every "
        "check is one call in a plain Python `for` loop, whose own cost is in every figure: a bare `len(url)` call in "
        f"the same loop takes {fmt(per['bare'])} ns. Command: `make python-bench`.",
        "",
        "### Parse throughput over the corpus",
        "",
        "| library | MB/s | time per corpus | robotstxt (bytes) is faster by |",
        "|---|---:|---:|---:|",
    ]
    for key in parse_ns:
        ratio = "" if key.startswith("ours") else x(parse_ns["ours_bytes"], parse_ns[key])
        md.append(f"| {labels[key]} | {fmt(mbps[key], 1)} | {fmt(parse_ns[key] / 1e6, 1)} ms | {ratio} |")
    md += [
        "",
        f"### Checks over the whole workload ({fmt(v['checks'])} per pass)",
        "",
        "| call | ns per check | checks per second | " + " | ".join(f"vs {name}" for _, name, _ in peers) + " |",
        "|---|---:|---:|" + "---:|" * len(peers),
    ]
    for label, key in v["rows_out"]:
        ours_row = not key in {k for k, _, _ in peers}
        ratios = " | ".join(x(per[key], per[p]) if ours_row else "" for p, _, _ in peers)
        md.append(f"| {label} | {fmt(per[key])} | {fmt(1e9 / per[key])} | {ratios} |")
    md += [
        "",
        "The answers agree with "
        + ", ".join(f"{name} on {fmt(100 * v['agree'][key] / v['checks'], 1)}%" for key, name, _ in peers)
        + " of the checks (the libraries read robots.txt differently: longest match, percent-encoding, group selection).",
    ]
    hot = v["hot"]
    md += [
        "",
        f"### Checks on rules in use ({fmt(v['hot_checks'])} per pass)",
        "",
        f"As the Rust section's main check tables: per file and agent, the file's 20 URLs checked {HOT_REPS} times "
        f"over before the next file, as a crawler working through one site meets them, on every {HOT_STRIDE}th "
        f"sample file ({fmt(len(v['hot_files']))} files). The table above checks each URL once per pass over all "
        "files, so that every file's rules have left the CPU cache when their turn comes.",
        "",
        "| call | ns per check | " + " | ".join(f"vs {name}" for _, name, _ in peers) + " |",
        "|---|---:|" + "---:|" * len(peers),
        f"| robotstxt can_fetch (one by one) | {fmt(hot['one'])} | "
        + " | ".join(x(hot["one"], hot[p]) for p, _, _ in peers)
        + " |",
        f"| robotstxt filter_allowed (batch of 20) | {fmt(hot['batch'])} | "
        + " | ".join(x(hot["batch"], hot[p]) for p, _, _ in peers)
        + " |",
    ]
    md += [f"| {name} (one by one) | {fmt(hot[key])} |" + " |" * len(peers) for key, name, _ in peers]
    md += [
        "",
        "### Checks by file size (ns per check)",
        "",
        "| stratum (capped size) | files | robotstxt `can_fetch` | robotstxt `filter_allowed` | "
        + " | ".join(name for _, name, _ in peers)
        + " |",
        "|---|---:|---:|---:|" + "---:|" * len(peers),
    ]
    for stratum, files, t in v["by_stratum"]:
        md.append(
            f"| {stratum} | {fmt(files)} | {fmt(t['one'])} | {fmt(t['batch'])} | "
            + " | ".join(fmt(t[k]) for k, _, _ in peers)
            + " |"
        )
    md.append("")
    path.write_text("\n".join(md))
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
