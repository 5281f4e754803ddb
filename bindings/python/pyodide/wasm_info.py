"""What a WebAssembly module imports and exports, read from its sections
(the binary format's type, import, function and export sections).

    python3 wasm_info.py robotstxt.wasm [--no-imports] [--prefix robotstxt_]

prints the counts; --no-imports fails unless the module imports nothing,
--prefix counts the exported functions whose names start so. The wheel's
build reads each export's parameter types from here too: a wasm i64
parameter takes a JS BigInt, so the host must know which ones are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple, Tuple

VALUE_TYPES = {0x7F: "i32", 0x7E: "i64", 0x7D: "f32", 0x7C: "f64", 0x7B: "v128", 0x70: "funcref", 0x6F: "externref"}
EXTERNAL_KINDS = {0: "func", 1: "table", 2: "memory", 3: "global", 4: "tag"}


class Export(NamedTuple):
    name: str
    kind: str
    params: Tuple[str, ...]
    results: Tuple[str, ...]


class Module(NamedTuple):
    imports: List[Tuple[str, str, str]]
    exports: List[Export]


class _Reader:
    def __init__(self, data: bytes, at: int = 0, end: int = -1) -> None:
        self.data, self.at, self.end = data, at, len(data) if end < 0 else end

    def byte(self) -> int:
        if self.at >= self.end:
            raise ValueError("the module ends inside a section")
        b = self.data[self.at]
        self.at += 1
        return b

    def uleb(self) -> int:
        value = shift = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return value

    def name(self) -> str:
        n = self.uleb()
        raw = self.data[self.at : self.at + n]
        self.at += n
        return raw.decode("utf-8")

    def limits(self) -> None:
        flags = self.byte()
        self.uleb()
        if flags & 1:
            self.uleb()


def read(data: bytes) -> Module:
    if data[:4] != b"\0asm" or data[4:8] != b"\1\0\0\0":
        raise ValueError("not a WebAssembly module (version 1)")
    types: List[Tuple[Tuple[str, ...], Tuple[str, ...]]] = []
    imports: List[Tuple[str, str, str]] = []
    func_types: List[int] = []  # imported functions first, as the index space counts
    raw_exports: List[Tuple[str, int, int]] = []
    r = _Reader(data, 8)
    while r.at < len(data):
        section = r.byte()
        size = r.uleb()
        body = _Reader(data, r.at, r.at + size)
        if section == 1:  # types
            for _ in range(body.uleb()):
                if body.byte() != 0x60:
                    raise ValueError("a type that is not a function type")
                params = tuple(VALUE_TYPES.get(body.byte(), "?") for _ in range(body.uleb()))
                results = tuple(VALUE_TYPES.get(body.byte(), "?") for _ in range(body.uleb()))
                types.append((params, results))
        elif section == 2:  # imports
            for _ in range(body.uleb()):
                module, field, kind = body.name(), body.name(), body.byte()
                imports.append((module, field, EXTERNAL_KINDS.get(kind, "?")))
                if kind == 0:
                    func_types.append(body.uleb())
                elif kind == 1:
                    body.byte()
                    body.limits()
                elif kind == 2:
                    body.limits()
                elif kind == 3:
                    body.byte()
                    body.byte()
                else:
                    body.byte()
                    body.uleb()
        elif section == 3:  # functions
            func_types.extend(body.uleb() for _ in range(body.uleb()))
        elif section == 7:  # exports
            for _ in range(body.uleb()):
                name, kind = body.name(), body.byte()
                raw_exports.append((name, kind, body.uleb()))
        r.at += size
    exports = []
    for name, kind, index in raw_exports:
        params: Tuple[str, ...] = ()
        results: Tuple[str, ...] = ()
        if kind == 0:
            params, results = types[func_types[index]]
        exports.append(Export(name, EXTERNAL_KINDS.get(kind, "?"), params, results))
    return Module(imports, exports)


def i64_params(module: Module) -> Dict[str, Tuple[int, ...]]:
    """For each exported function with i64 parameters, their positions."""
    out = {}
    for e in module.exports:
        at = tuple(i for i, t in enumerate(e.params) if t == "i64")
        if e.kind == "func" and at:
            out[e.name] = at
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", type=Path)
    parser.add_argument("--no-imports", action="store_true", help="fail unless the module imports nothing")
    parser.add_argument("--prefix", default="robotstxt_", help="count the exported functions named so")
    args = parser.parse_args()
    module = read(args.module.read_bytes())
    funcs = [e for e in module.exports if e.kind == "func"]
    named = [e for e in funcs if e.name.startswith(args.prefix)]
    others = [e.name for e in module.exports if e.kind != "func"]
    print(f"{args.module}: {len(module.imports)} imports, {len(funcs)} exported functions "
          f"({len(named)} named {args.prefix}*), other exports: {', '.join(others) or 'none'}")
    for module_name, field, kind in module.imports:
        print(f"  import {module_name}.{field} ({kind})")
    if args.no_imports and module.imports:
        print(f"{args.module}: imports {len(module.imports)} names; a host would have to supply them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
