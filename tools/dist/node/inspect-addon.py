#!/usr/bin/env python3
"""inspect-addon.py PACKAGE_DIR PLATFORM [--glibc V] [--macos V]: what the
installed npm package robotstxt-engine-PLATFORM (napi-rs's platform name,
e.g. linux-arm64-musl) holds, read from its files rather than trusted from
its name. Prints one line; exits non-zero on the first thing wrong.

- package.json: its name, its `main` the addon robotstxt.PLATFORM.node,
  and os, cpu and (Linux only) libc what PLATFORM says, so that npm
  installs it on that machine and no other.
- The addon (read by ../binaries.py): a shared library of the platform's
  format and machine that exports napi_register_module_v1 (what Node
  calls) and needs nothing the system lacks. glibc: no symbol version
  newer than --glibc; musl: musl's libc.so alone and no glibc version;
  macOS: minimum macOS --macos, and on arm64 a code signature (the
  linker's ad-hoc one) whose page hashes match the file (macOS on arm64
  loads no unsigned code, and a strip after the link must sign again);
  Windows: a DLL.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from binaries import Problem, read  # noqa: E402

# napi-rs's names -> npm's os and the file format; binaries.py's machine;
# npm's libc.
OS = {"linux": ("linux", "elf"), "darwin": ("darwin", "mach-o"), "win32": ("win32", "pe")}
CPU = {"x64": "x86-64", "arm64": "arm64"}
LIBC = {"gnu": "glibc", "musl": "musl", "msvc": None}

LC_CODE_SIGNATURE = 0x1D
CSMAGIC_EMBEDDED_SIGNATURE, CSMAGIC_CODEDIRECTORY = 0xFADE0CC0, 0xFADE0C02
CS_HASHTYPE_SHA256, CS_ADHOC = 2, 0x2


def code_signature(data: bytes) -> str:
    """Checks an arm64 Mach-O's code directory against its pages."""
    ncmds = struct.unpack_from("<I", data, 16)[0]
    at, signature = 32, None
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        if cmd == LC_CODE_SIGNATURE:
            signature = struct.unpack_from("<II", data, at + 8)
        at += size
    if signature is None:
        raise Problem("no code signature: macOS on arm64 refuses to load it")
    start = signature[0]
    magic, _, count = struct.unpack_from(">III", data, start)
    if magic != CSMAGIC_EMBEDDED_SIGNATURE:
        raise Problem(f"code signature magic {magic:#x}")
    for i in range(count):
        directory = start + struct.unpack_from(">II", data, start + 12 + 8 * i)[1]
        (magic, _, _, flags, hashes, _, _, pages, limit, hash_size, hash_type, _,
         page_shift) = struct.unpack_from(">IIIIIIIIIBBBB", data, directory)
        if magic != CSMAGIC_CODEDIRECTORY:
            continue
        if hash_type != CS_HASHTYPE_SHA256:
            raise Problem(f"code directory hash type {hash_type}, not SHA-256")
        if limit != start:
            raise Problem(f"the signature covers {limit} bytes, not the {start} before it")
        page = 1 << page_shift
        for n in range(pages):
            want = data[directory + hashes + n * hash_size:directory + hashes + (n + 1) * hash_size]
            if hashlib.sha256(data[n * page:min((n + 1) * page, limit)]).digest()[:hash_size] != want:
                raise Problem(f"code signature: page {n} does not match its hash (changed after signing)")
        kind = "ad-hoc signature" if flags & CS_ADHOC else "signature"
        return f"{kind} valid ({pages} pages, flags {flags:#x})"
    raise Problem("code signature without a code directory")


def inspect(package: Path, platform: str, glibc: str | None, macos: str | None) -> str:
    os_name, cpu, *rest = platform.split("-")
    libc = LIBC[rest[0]] if rest else None
    manifest = json.loads((package / "package.json").read_text())
    addon = f"robotstxt.{platform}.node"
    want = {"name": f"robotstxt-engine-{platform}", "main": addon, "os": [OS[os_name][0]], "cpu": [cpu]}
    if os_name == "linux":
        if libc is None:
            raise Problem(f"{platform} names no libc napi-rs builds for Linux")
        want["libc"] = [libc]
    for key, value in want.items():
        if manifest.get(key) != value:
            raise Problem(f"package.json {key} is {manifest.get(key)!r}, not {value!r}")
    if os_name != "linux" and "libc" in manifest:
        raise Problem(f"package.json names a libc ({manifest['libc']}) for {os_name}")

    data = (package / addon).read_bytes()
    binary = read(package / addon)
    facts = [f"{binary.format} {binary.machine} {binary.type}"]
    if (binary.format, binary.machine, binary.type) != (OS[os_name][1], CPU[cpu], "shared"):
        raise Problem(f"{addon} is a {facts[0]}, not a {OS[os_name][1]} {CPU[cpu]} shared library")
    if "napi_register_module_v1" not in binary.exports:
        raise Problem(f"{addon} does not export napi_register_module_v1")
    if binary.foreign:
        raise Problem(f"{addon} needs {', '.join(binary.foreign)}, which the system lacks")
    if libc == "glibc":
        newest = tuple(map(int, binary.glibc.split("."))) if binary.glibc else ()
        if "libc.so.6" not in binary.needs or not glibc or newest > tuple(map(int, glibc.split("."))):
            raise Problem(f"needs {binary.needs}, glibc {binary.glibc or 'none'}: not glibc {glibc} or older")
        facts.append(f"glibc {binary.glibc} at most")
    elif libc == "musl":
        if binary.needs != ["libc.so"] or binary.glibc:
            raise Problem(f"needs {binary.needs}, glibc {binary.glibc or 'none'}: not musl's libc.so alone")
        facts.append("needs musl's libc.so alone")
    elif os_name == "darwin":
        if binary.min_os != macos:
            raise Problem(f"minimum macOS {binary.min_os or 'unset'}, not {macos}")
        facts.append(f"macOS {binary.min_os}")
        # Found through the loader's rpath, not the build folder's path.
        if binary.id != "@rpath/robotstxt.node":
            raise Problem(f"install name {binary.id or 'unset'}, not @rpath/robotstxt.node")
        facts.append(f"install name {binary.id}")
        if cpu == "arm64":
            facts.append(code_signature(data))
    if os_name != "linux":
        facts.append(f"needs {', '.join(sorted(set(binary.needs)))}")
    return f"{addon}: {'; '.join(facts)}; exports napi_register_module_v1; os/cpu{'/libc' if libc else ''} right"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", type=Path)
    parser.add_argument("platform")
    parser.add_argument("--glibc", help="the newest glibc a gnu addon may need")
    parser.add_argument("--macos", help="the minimum macOS a darwin addon states")
    args = parser.parse_args()
    try:
        print(inspect(args.package, args.platform, args.glibc, args.macos))
    except (Problem, OSError, KeyError, ValueError) as problem:
        print(f"inspect-addon: {args.platform}: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
