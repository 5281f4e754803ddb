#!/usr/bin/env python3
"""Runs every code block of README.md and docs/*.md (`make docs-test`).

Each fenced block is, by its language:

- rust: a bin of a throwaway cargo project (build/snippets/rust) that
  depends on the engine by path; all built in one cargo call, then run.
  A block without `fn main` is the body of
  `fn main() -> Result<(), Box<dyn Error>>`.
- c: compiled with -Werror against include/ and librobotstxt.a, then run.
- go: its own package in a temporary module whose go.mod replaces the
  binding with bindings/go; `go vet`, then built and run (package main).
- js: an ES module next to a node_modules that links bindings/node as
  `robotstxt-engine`; all type-checked by one `tsc --strict --checkJs`
  against the package's own types, then each run with node.
- python: run with the venv that has the wheel; all checked by one
  `mypy --strict`.
- sh, text, toml, cmake and unlabelled blocks: not executed (listed).

Every program runs from the repository root (so `examples/shop/robots.txt`
reads), with SNIPPET_SITE set to a local HTTP site on 127.0.0.1 (see
Site below), so that no block reaches the network.

A block that cannot run as written gets an HTML comment just before it
(blank lines between are allowed), invisible on GitHub:

    <!-- snippet: compile-only (why it cannot run here)
    hidden code
    -->

Both parts are optional. `compile-only (reason)` builds or type-checks
the block but does not run it (it needs Redis, or is a package another
test runs); the reason is required. The hidden code is a template: a
line holding only `{snippet}` is replaced by the block, indented as that
line is; without such a line the hidden code is a prelude placed before
the block. A runnable language's block that the harness cannot complete
(a C or Go fragment with no template) fails, as does a marker that no
block follows or that stands before a block that is never executed.

    python3 tools/snippets/snippets.py --python VENV/bin/python --tsc TSC \
        --c-libs "-lgcc_s ..." [--only LANG,...] [--list]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

RUNNABLE = ("rust", "c", "go", "js", "python")
NOT_EXECUTED = ("sh", "text", "toml", "cmake", "")
RUN_TIMEOUT = 120  # seconds per program: a pacer that never hears back waits 120 s

MARKER = re.compile(r"<!--\s*snippet:(?P<body>.*?)-->", re.S)
COMPILE_ONLY = re.compile(r"compile-only\s*\((?P<reason>[^)]+)\)")


@dataclass
class Block:
    doc: str  # relative to the repository
    line: int  # of the opening fence
    lang: str
    code: str
    compile_only: Optional[str] = None  # the reason
    template: Optional[str] = None
    status: str = ""  # run | compile-only | not-executed | FAILED
    problems: List[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def name(self) -> str:
        stem = Path(self.doc).stem.lower().replace("-", "_")
        return f"{stem}_{self.line}"

    def source(self) -> str:
        """The block inside its template, if it has one."""
        if self.template is None:
            return self.code
        lines = self.template.splitlines()
        for i, line in enumerate(lines):
            if line.strip() == "{snippet}":
                indent = line[: len(line) - len(line.lstrip())]
                body = [indent + l if l.strip() else l for l in self.code.splitlines()]
                return "\n".join(lines[:i] + body + lines[i + 1 :]) + "\n"
        return self.template.rstrip("\n") + "\n" + self.code

    def fail(self, message: str) -> None:
        self.status = "FAILED"
        self.problems.append(message)


def read_blocks(repo: Path, docs: List[str]) -> Tuple[List[Block], List[str]]:
    """The fenced blocks of each document, with their markers; and the
    problems with markers found on the way."""
    blocks: List[Block] = []
    problems: List[str] = []
    for doc in docs:
        text = (repo / doc).read_text()
        lines = text.split("\n")
        pending: Optional[Tuple[int, str]] = None  # (line, marker body)
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.lstrip().startswith("<!--") and "snippet:" in line:
                end = i
                while "-->" not in lines[end]:
                    end += 1
                match = MARKER.search("\n".join(lines[i : end + 1]))
                if match is None:
                    problems.append(f"{doc}:{i + 1}: a snippet marker that does not parse")
                else:
                    if pending is not None:
                        problems.append(f"{doc}:{pending[0]}: a snippet marker with no block after it")
                    pending = (i + 1, match.group("body"))
                i = end + 1
                continue
            fence = re.match(r"^(```+|~~~+)\s*(\S*)", line)
            if fence:
                closing = fence.group(1)
                start = i
                i += 1
                body: List[str] = []
                while i < len(lines) and not lines[i].startswith(closing):
                    body.append(lines[i])
                    i += 1
                block = Block(doc, start + 1, fence.group(2).lower(), "\n".join(body) + "\n")
                if pending is not None:
                    first, _, rest = pending[1].partition("\n")
                    only = COMPILE_ONLY.search(first)
                    if first.strip() and not only:
                        problems.append(f"{doc}:{pending[0]}: unknown snippet directive {first.strip()!r}")
                    block.compile_only = only.group("reason").strip() if only else None
                    block.template = rest if rest.strip() else None
                    if block.lang not in RUNNABLE:
                        problems.append(f"{block.where}: a snippet marker before a {block.lang or 'plain'} block, which is never executed")
                    pending = None
                blocks.append(block)
            elif pending is not None and line.strip():
                problems.append(f"{doc}:{pending[0]}: a snippet marker with no block right after it")
                pending = None
            i += 1
        if pending is not None:
            problems.append(f"{doc}:{pending[0]}: a snippet marker with no block after it")
    return blocks, problems


def run(cmd: List[str], cwd: Path, env: Optional[Dict[str, str]] = None, timeout: int = 600) -> Tuple[bool, str]:
    try:
        done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return False, f"{' '.join(cmd)}: timed out after {timeout} s\n{e.stdout or ''}{e.stderr or ''}"
    out = done.stdout + done.stderr
    return done.returncode == 0, out if done.returncode == 0 else f"{' '.join(cmd)}: exit {done.returncode}\n{out}"


def fresh(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def execute(block: Block, cmd: List[str], ctx: "Context") -> None:
    """Runs a built program unless the block is compile-only."""
    if block.status == "FAILED":
        return
    if block.compile_only:
        block.status = "compile-only"
        return
    ok, out = run(cmd, ctx.repo, ctx.env, RUN_TIMEOUT)
    if ok:
        block.status = "run"
    else:
        block.fail(out)


@dataclass
class Context:
    repo: Path
    out: Path
    env: Dict[str, str]
    args: argparse.Namespace


# --- the local site -------------------------------------------------------

SITE_ROBOTS = b"User-agent: *\nDisallow: /private/\n\nUser-agent: NimbuBot\nDisallow: /prices/\nAllow: /prices/today\n"


class Site:
    """A local site for the blocks that fetch: /robots.txt as SITE_ROBOTS,
    any path under a `drop/` segment closes the connection without an
    answer (a dropped connection), /blog/post answers with a Content-Usage
    field, `/_hits?prefix=P` lists the paths asked for that start with P,
    and every other path is a small page."""

    def __init__(self) -> None:
        self.hits: List[str] = []
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                if url.path == "/_hits":
                    prefix = parse_qs(url.query).get("prefix", [""])[0]
                    with site.lock:
                        body = json.dumps([h for h in site.hits if h.startswith(prefix)]).encode()
                    return self.reply(200, body, "application/json")
                with site.lock:
                    site.hits.append(url.path)
                if "/drop/" in url.path:
                    self.close_connection = True  # no status line: the client sees the connection end
                    return
                if url.path == "/robots.txt":
                    return self.reply(200, SITE_ROBOTS, "text/plain")
                headers = {"Content-Usage": "train-ai=n"} if url.path == "/blog/post" else {}
                self.reply(200, f"<p>the page {url.path}</p>".encode(), "text/html", headers)

            def reply(self, status: int, body: bytes, kind: str, headers: Optional[Dict[str, str]] = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# --- the languages ------------------------------------------------------------


def rust(blocks: List[Block], ctx: Context) -> None:
    root = ctx.out / "rust"
    (root / "src").mkdir(parents=True, exist_ok=True)
    for stale in (root / "src").glob("*.rs"):
        stale.unlink()
    bins = []
    for b in blocks:
        code = b.source()
        if not re.search(r"\bfn main\s*\(", code):
            body = "\n".join("    " + l if l.strip() else l for l in code.splitlines())
            code = f"fn main() -> Result<(), Box<dyn std::error::Error>> {{\n{body}\n    Ok(())\n}}\n"
        # The blocks show a step, not every binding they make is used later.
        (root / "src" / f"{b.name}.rs").write_text(f"#![allow(unused)]\n// {b.where}\n{code}")
        bins.append(f'[[bin]]\nname = "{b.name}"\npath = "src/{b.name}.rs"\n')
    manifest = (
        '[package]\nname = "doc-snippets"\nversion = "0.0.0"\nedition = "2021"\npublish = false\nautobins = false\n\n'
        f'[dependencies]\nrobotstxt-engine = {{ path = "{ctx.repo}" }}\n\n'
        "# Its own workspace: the repository's does not list it.\n[workspace]\n\n" + "\n".join(bins)
    )
    (root / "Cargo.toml").write_text(manifest)
    if not (root / "Cargo.lock").exists():
        shutil.copy(ctx.repo / "Cargo.lock", root / "Cargo.lock")  # the versions the engine is tested with
    env = dict(ctx.env, CARGO_TARGET_DIR=str(root / "target"))
    ok, out = run([ctx.args.cargo, "build", "--quiet", "--bins"], root, env)
    for b in blocks:
        if not ok:
            mine = [l for l in out.splitlines() if f"src/{b.name}.rs" in l]
            b.fail(out if mine or len(blocks) == 1 else "cargo build failed (in another block):\n" + out[-2000:])
        execute(b, [str(root / "target" / "debug" / b.name)], ctx)


def c(blocks: List[Block], ctx: Context) -> None:
    root = fresh(ctx.out / "c")
    for b in blocks:
        code = b.source()
        if not re.search(r"\bmain\s*\(", code):
            b.fail("a C fragment without main: give it a template (<!-- snippet: ... {snippet} ... -->)")
            continue
        src = root / f"{b.name}.c"
        src.write_text(f"/* {b.where} */\n{code}")
        exe = root / b.name
        cmd = [ctx.args.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-g",
               f"-I{ctx.repo / 'include'}", str(src), str(ctx.repo / "target/release/librobotstxt.a"),
               *ctx.args.c_libs.split(), "-o", str(exe)]
        ok, out = run(cmd, root)
        if not ok:
            b.fail(out)
        execute(b, [str(exe)], ctx)


def go(blocks: List[Block], ctx: Context) -> None:
    root = fresh(ctx.out / "go")
    (root / "go.mod").write_text(
        "module example.com/docsnippets\n\ngo 1.25\n\n"
        "require github.com/robotstxt-engine/robotstxt-go v0.0.0\n\n"
        f"replace github.com/robotstxt-engine/robotstxt-go => {ctx.repo / 'bindings/go'}\n"
    )
    # -mod=mod adds what the blocks import (go-redis) from these sums.
    shutil.copy(ctx.repo / "examples/go/go.sum", root / "go.sum")
    env = dict(ctx.env, GOFLAGS="-mod=mod")
    for b in blocks:
        code = b.source()
        package = re.search(r"^package (\w+)", code, re.M)
        if package is None:
            b.fail("a Go fragment without a package clause: give it a template (<!-- snippet: ... {snippet} ... -->)")
            continue
        if package.group(1) != "main" and not b.compile_only:
            b.fail(f"package {package.group(1)} has no main to run: mark it compile-only (reason)")
            continue
        pkg = root / b.name
        pkg.mkdir()
        (pkg / f"{b.name}.go").write_text(code)
        ok, out = run([ctx.args.go, "vet", f"./{b.name}"], root, env)
        if ok:
            ok, out = run([ctx.args.go, "build", "-o", str(root / "bin" / b.name), f"./{b.name}"], root, env)
        if not ok:
            b.fail(out)
        execute(b, [str(root / "bin" / b.name)], ctx)


def js(blocks: List[Block], ctx: Context) -> None:
    root = ctx.out / "js"
    root.mkdir(parents=True, exist_ok=True)
    here = Path(__file__).resolve().parent
    # @types/node, pinned by the lock beside this file; installed again
    # only when the lock changes.
    lock = (here / "package-lock.json").read_bytes()
    if not (root / "node_modules").is_dir() or (root / "package-lock.json").read_bytes() != lock:
        shutil.copy(here / "package.json", root / "package.json")
        shutil.copy(here / "package-lock.json", root / "package-lock.json")
        ok, out = run([ctx.args.npm, "ci", "--no-audit", "--no-fund", "--silent"], root)
        if not ok:
            for b in blocks:
                b.fail(out)
            return
    # The package as examples/node has it, and the Redis client the fleet
    # block imports, from bindings/node's own install.
    node = ctx.repo / "bindings/node"
    for name, target in (("robotstxt-engine", node), ("ioredis", node / "node_modules/ioredis")):
        link = root / "node_modules" / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)
    for stale in root.glob("*.mjs"):
        stale.unlink()
    for b in blocks:
        (root / f"{b.name}.mjs").write_text(f"// {b.where}\n{b.source()}")
    config = {
        "compilerOptions": {
            "strict": True, "allowJs": True, "checkJs": True, "noEmit": True,
            "target": "es2022", "module": "nodenext", "moduleResolution": "nodenext",
            "types": ["node"], "skipLibCheck": True,
        },
        "files": [f"{b.name}.mjs" for b in blocks],
    }
    (root / "tsconfig.json").write_text(json.dumps(config, indent=2) + "\n")
    ok, out = run([ctx.args.tsc, "-p", "tsconfig.json", "--pretty", "false"], root)
    for b in blocks:
        if not ok:
            mine = [l for l in out.splitlines() if l.startswith(f"{b.name}.mjs")]
            if mine or "error" in out and not any(re.match(r"^\w+\.mjs", l) for l in out.splitlines()):
                b.fail("tsc --strict:\n" + ("\n".join(mine) or out))
        execute(b, [ctx.args.node, str(root / f"{b.name}.mjs")], ctx)


def python(blocks: List[Block], ctx: Context) -> None:
    root = fresh(ctx.out / "py")
    for b in blocks:
        (root / f"{b.name}.py").write_text(f"# {b.where}\n{b.source()}")
    files = [f"{b.name}.py" for b in blocks]
    ok, out = run([ctx.args.python, "-m", "mypy", "--strict", "--cache-dir", str(ctx.out / ".mypy_cache"),
                   "--no-error-summary", *files], root)
    for b in blocks:
        if not ok:
            mine = [l for l in out.splitlines() if l.startswith(f"{b.name}.py:")]
            if mine or not any(re.match(r"^\w+\.py:", l) for l in out.splitlines()):
                b.fail("mypy --strict:\n" + ("\n".join(mine) or out))
        if b.status != "FAILED" and b.compile_only:
            ok_c, out_c = run([ctx.args.python, "-m", "py_compile", str(root / f"{b.name}.py")], root)
            if not ok_c:
                b.fail(out_c)
        execute(b, [ctx.args.python, str(root / f"{b.name}.py")], ctx)


LANGS = {"rust": rust, "c": c, "go": go, "js": js, "python": python}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--out", type=Path, help="default: REPO/build/snippets")
    parser.add_argument("--python", default=sys.executable, help="a Python with the wheel, httpx and mypy")
    parser.add_argument("--tsc", default="bindings/node/node_modules/.bin/tsc")
    parser.add_argument("--c-libs", default="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    parser.add_argument("--cargo", default="cargo")
    parser.add_argument("--go", default="go")
    parser.add_argument("--node", default="node")
    parser.add_argument("--npm", default="npm")
    parser.add_argument("--only", default=",".join(RUNNABLE), help="languages to build and run")
    parser.add_argument("--list", action="store_true", help="list the blocks and what would happen to each")
    args = parser.parse_args()
    repo = args.repo.resolve()
    out = (args.out or repo / "build" / "snippets").resolve()
    args.tsc = str((repo / args.tsc).resolve()) if not Path(args.tsc).is_absolute() and "/" in args.tsc else args.tsc
    args.python = str(Path(args.python).absolute()) if "/" in args.python else args.python

    docs = ["README.md"] + sorted(str(p.relative_to(repo)) for p in (repo / "docs").glob("*.md"))
    blocks, problems = read_blocks(repo, docs)
    unknown = [b for b in blocks if b.lang not in RUNNABLE + NOT_EXECUTED]
    for b in unknown:
        b.fail(f"a `{b.lang}` block, a language the harness does not know")
    for b in blocks:
        if b.lang in NOT_EXECUTED:
            b.status = "not-executed"

    if args.list:
        for b in blocks:
            what = "not executed" if b.lang in NOT_EXECUTED else (f"compile-only ({b.compile_only})" if b.compile_only else "run")
            print(f"{b.where:32} {b.lang or '(none)':7} {what}{' +template' if b.template else ''}")
        return 0

    only = [l for l in args.only.split(",") if l]
    site = Site()
    env = dict(os.environ, SNIPPET_SITE=site.url)
    ctx = Context(repo, out, env, args)
    try:
        for lang in RUNNABLE:
            mine = [b for b in blocks if b.lang == lang]
            if lang not in only:
                for b in mine:
                    b.status = "skipped (--only)"
                continue
            if mine:
                print(f"snippets: {lang}: {len(mine)} blocks", flush=True)
                LANGS[lang](mine, ctx)
    finally:
        site.stop()

    failed = [b for b in blocks if b.status == "FAILED"]
    for b in failed:
        print(f"\n--- {b.where} ({b.lang}) FAILED ---")
        for p in b.problems:
            print(p.rstrip()[-6000:])
    for p in problems:
        print(f"snippets: {p}")

    print("\nsnippets: per language (run / compile-only / not executed / failed):")
    langs = list(RUNNABLE) + sorted({b.lang for b in blocks if b.lang not in RUNNABLE}, key=lambda l: (l == "", l))
    for lang in langs:
        mine = [b for b in blocks if b.lang == lang]
        if not mine:
            continue
        count = {s: sum(b.status == s for b in mine) for s in ("run", "compile-only", "not-executed", "FAILED")}
        other = len(mine) - sum(count.values())
        print(f"  {lang or '(none)':8} {count['run']:2} run, {count['compile-only']:2} compile-only, "
              f"{count['not-executed']:2} not executed, {count['FAILED']:2} failed"
              + (f", {other} skipped" if other else ""))
    for b in blocks:
        if b.status == "compile-only":
            print(f"  compile-only {b.where} ({b.lang}): {b.compile_only}")
    total_failed = len(failed) + len(problems)
    print(f"snippets: {sum(b.status == 'run' for b in blocks)} run, "
          f"{sum(b.status == 'compile-only' for b in blocks)} compile-only, "
          f"{sum(b.status == 'not-executed' for b in blocks)} not executed, {total_failed} failed")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
