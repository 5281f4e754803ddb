"""Builds the Pyodide wheel: robotstxt_engine-<version>-py3-none-any.whl.

    python3 bindings/python/pyodide/build_wheel.py --wasm build/wasm/robotstxt.wasm --out dist/pyodide

The package is the native wheel's pure-Python part
(bindings/python/python/robotstxt) with the WebAssembly backend in place of
the compiled extension: _robotstxt.py (the same API over the core's C ABI),
_core.py (the module and the JavaScript helpers), robotstxt.wasm (make
wasm-core) and _abi.py, written here from include/robotstxt.h (its
constants) and from the module (which exports take 64-bit integers, as a
JS BigInt). fleet.py is this folder's: fleets need Redis, which Pyodide
cannot reach.

The version is the root Cargo.toml's, as the native wheel's is. The wheel
is tagged py3-none-any, which Pyodide installs (pyodide.unpackArchive;
micropip takes the tag too); it goes to its own folder, so that pip on CPython,
pointed at dist/python, never sees it. Imported outside Pyodide it says
so. The same sources give the same bytes (sorted entries, fixed dates).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import re
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
sys.path.insert(0, str(HERE))

import wasm_info  # noqa: E402

PACKAGE = ROOT / "bindings" / "python" / "python" / "robotstxt"
# This folder's modules, in place of (or beside) the package's.
BACKEND = ("_robotstxt.py", "_core.py", "fleet.py")
DATE = (1980, 1, 1, 0, 0, 0)


def version() -> str:
    text = (ROOT / "Cargo.toml").read_text("utf-8")
    package = text.split("\n[package]", 1)[1]
    found = re.search(r'^version = "([^"]+)"', package, re.M)
    if not found:
        raise SystemExit("Cargo.toml: no [package] version")
    return found.group(1)


def constants(header: Path) -> Dict[str, int]:
    """The header's #define ROBOTSTXT_<NAME> <number or (1 << n)>."""
    out = {}
    for name, value in re.findall(r"^#define ROBOTSTXT_(\w+) (.+)$", header.read_text("utf-8"), re.M):
        shift = re.fullmatch(r"\(1 << (\d+)\)", value.strip())
        if shift:
            out[name] = 1 << int(shift.group(1))
        elif re.fullmatch(r"\d+", value.strip()):
            out[name] = int(value)
    return out


def abi_module(wasm: bytes, ver: str) -> str:
    module = wasm_info.read(wasm)
    if module.imports:
        raise SystemExit(f"the module imports {module.imports}: a Pyodide host supplies nothing")
    names = {e.name for e in module.exports}
    for needed in ("memory", "robotstxt_wasm_alloc", "robotstxt_wasm_free", "robotstxt_rules_can_fetch"):
        if needed not in names:
            raise SystemExit(f"the module does not export {needed}")
    values = constants(ROOT / "include" / "robotstxt.h")
    lines = [
        '"""Written by bindings/python/pyodide/build_wheel.py: the constants of',
        "include/robotstxt.h (less ROBOTSTXT_), and the 64-bit parameters of the",
        'module\'s exports (positions), which take a JS BigInt. Do not edit."""',
        "",
        "from typing import Dict, Tuple",
        "",
        f"VERSION = {ver!r}",
        "CONSTANTS: Dict[str, int] = {",
        *(f"    {k!r}: {v}," for k, v in sorted(values.items())),
        "}",
        "I64_PARAMS: Dict[str, Tuple[int, ...]] = {",
        *(f"    {k!r}: {v!r}," for k, v in sorted(wasm_info.i64_params(module).items())),
        "}",
        "",
    ]
    return "\n".join(lines)


def metadata(ver: str) -> str:
    pyproject = (ROOT / "bindings" / "python" / "pyproject.toml").read_text("utf-8")
    summary = re.search(r'^description = "([^"]+)"', pyproject, re.M)
    requires = re.search(r'^requires-python = "([^"]+)"', pyproject, re.M)
    readme = (ROOT / "bindings" / "python" / "README.md").read_text("utf-8")
    head = [
        "Metadata-Version: 2.4",
        "Name: robotstxt-engine",
        f"Version: {ver}",
        f"Summary: {summary.group(1) if summary else ''} (Pyodide build: the core as WebAssembly)",
        "License-Expression: MIT OR Apache-2.0",
        "License-File: LICENSE-MIT",
        "License-File: LICENSE-APACHE",
        f"Requires-Python: {requires.group(1) if requires else '>=3.10'}",
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: Programming Language :: Python :: Implementation :: CPython",
        "Classifier: Environment :: WebAssembly :: Emscripten",
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(head) + "\n\n" + readme


def files(wasm: bytes, ver: str) -> List[Tuple[str, bytes]]:
    out: List[Tuple[str, bytes]] = []
    for path in sorted(PACKAGE.iterdir()):
        if path.is_file() and path.name not in BACKEND and path.suffix in (".py", ".pyi", ".typed"):
            out.append((f"robotstxt/{path.name}", path.read_bytes()))
    for name in BACKEND:
        out.append((f"robotstxt/{name}", (HERE / name).read_bytes()))
    out.append(("robotstxt/_abi.py", abi_module(wasm, ver).encode("utf-8")))
    out.append(("robotstxt/robotstxt.wasm", wasm))
    info = f"robotstxt_engine-{ver}.dist-info"
    out.append((f"{info}/METADATA", metadata(ver).encode("utf-8")))
    wheel = "Wheel-Version: 1.0\nGenerator: robotstxt build_wheel.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    out.append((f"{info}/WHEEL", wheel.encode("utf-8")))
    out.append((f"{info}/top_level.txt", b"robotstxt\n"))
    for licence in ("LICENSE-MIT", "LICENSE-APACHE"):
        out.append((f"{info}/licenses/{licence}", (ROOT / licence).read_bytes()))
    return sorted(out)


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def build(wasm_path: Path, out_dir: Path) -> Path:
    ver = version()
    wasm = wasm_path.read_bytes()
    entries = files(wasm, ver)
    record = f"robotstxt_engine-{ver}.dist-info/RECORD"
    lines = [record_line(n, d) for n, d in entries] + [f"{record},,"]
    entries.append((record, ("\n".join(lines) + "\n").encode("utf-8")))
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"robotstxt_engine-{ver}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return wheel


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wasm", type=Path, required=True, help="the core module (make wasm-core)")
    parser.add_argument("--out", type=Path, required=True, help="the folder for the wheel")
    args = parser.parse_args()
    wheel = build(args.wasm, args.out)
    print(f"build_wheel: wrote {wheel} ({wheel.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
