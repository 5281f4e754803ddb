"""The robotstxt core compiled to WebAssembly (robotstxt.wasm, the C ABI
of include/robotstxt.h), instantiated through Pyodide's JavaScript bridge.

Every crossing between Python and JavaScript costs about a microsecond, so
the hot calls (a check, a decision, a batch) go through small JavaScript
helpers that write the URL into the module's memory and call the export
in one crossing. The other calls lay their inputs out in one block,
written at once, and read their outputs back at once.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Callable, List, Tuple

try:
    import js  # type: ignore[import-not-found]
    from pyodide.code import run_js  # type: ignore[import-not-found]
    from pyodide.ffi import to_js  # type: ignore[import-not-found]
except ImportError as missing:
    raise ImportError(
        "this robotstxt package is the Pyodide build (the core as WebAssembly, run through Pyodide's "
        "JavaScript bridge); on CPython install the native wheel (pip install robotstxt-engine)"
    ) from missing

from ._abi import I64_PARAMS

# The helpers. `i64` maps an export to the positions of its i64 parameters,
# which take a BigInt. Every read starts with fresh(): any call may grow
# the memory, which detaches the old views.
_JS = r"""
(function (exports, i64) {
  const ex = exports;
  let u8 = new Uint8Array(ex.memory.buffer);
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  let dv = new DataView(ex.memory.buffer);
  let inPtr = 0, inCap = 0, inView = u8.subarray(0, 0);
  function fresh() {
    if (u8.buffer !== ex.memory.buffer) {
      u8 = new Uint8Array(ex.memory.buffer);
      dv = new DataView(ex.memory.buffer);
      inView = u8.subarray(inPtr, inPtr + inCap);
    }
  }
  function alloc(n) {
    const p = ex.robotstxt_wasm_alloc(n);
    if (!p) throw new RangeError("robotstxt: the WebAssembly memory cannot grow by " + n + " bytes");
    return p;
  }
  const OUT = alloc(256);
  // The input block: one, grown as needed, written from its start.
  function room(n) {
    if (n > inCap) {
      if (inPtr) ex.robotstxt_wasm_free(inPtr, inCap);
      inPtr = 0;
      const cap = Math.max(n, 2 * inCap, 4096);
      inPtr = alloc(cap);
      inCap = cap;
      u8 = new Uint8Array(ex.memory.buffer);
      dv = new DataView(ex.memory.buffer);
      inView = u8.subarray(inPtr, inPtr + inCap);
    } else {
      fresh();
    }
    return inPtr;
  }
  // A str's UTF-8 form at the start of the input block; its length.
  function put(s) {
    room(3 * s.length);
    return enc.encodeInto(s, inView).written;
  }
  const canFetchExport = ex.robotstxt_rules_can_fetch;
  function text(p, n) { fresh(); return dec.decode(u8.subarray(p, p + n)); }
  const decideExport = ex.robotstxt_rules_decide;
  function decision(rules, p, n) {
    const st = decideExport(rules, p, n, OUT);
    if (st !== 0) return "!" + st;
    fresh();
    const len = dv.getUint32(OUT + 16, true);
    const pattern = len === 0 ? "" : dec.decode(u8.subarray(dv.getUint32(OUT + 12, true), dv.getUint32(OUT + 12, true) + len));
    return (u8[OUT] ? "1" : "0") + dv.getUint32(OUT + 8, true) + dv.getUint32(OUT + 4, true) + "," + pattern;
  }
  const wrapped = {};
  for (const name of Object.keys(ex)) {
    const f = ex[name];
    const at = i64.get(name);
    wrapped[name] = at === undefined ? f : function (...a) {
      for (const i of at) a[i] = BigInt(a[i]);
      return f(...a);
    };
  }
  return {
    OUT, exports: wrapped, room, text,
    view(p, n) { fresh(); return u8.subarray(p, p + n); },
    read(p, n) { fresh(); return u8.slice(p, p + n); },
    cstr(p) { fresh(); let e = p; while (u8[e]) e++; return dec.decode(u8.subarray(p, e)); },
    // 1 or 0, or -status.
    canFetch(rules, s) {
      const n = put(s);
      const st = canFetchExport(rules, inPtr, n, OUT);
      fresh(); // the first checks may build the index, and grow the memory
      return st === 0 ? u8[OUT] : -st;
    },
    canFetchAt(rules, p, n) {
      const st = ex.robotstxt_rules_can_fetch(rules, p, n, OUT);
      fresh();
      return st === 0 ? u8[OUT] : -st;
    },
    // "<allowed><kind><line>,<pattern>", or "!<status>".
    decide(rules, s) {
      const n = put(s); // may move the input block
      return decision(rules, inPtr, n);
    },
    decideAt(rules, p, n) { return decision(rules, p, n); },
    // A batch at p: `count` u32 lengths, then the URLs' bytes one after
    // the other. A string of 0 and 1, or the JSON of the decisions;
    // "!<status>" on a failure.
    canFetchMany(rules, p, count) {
      const got = new Array(count);
      let at = p + 4 * count;
      for (let i = 0; i < count; i++) {
        const n = dv.getUint32(p + 4 * i, true);
        const st = canFetchExport(rules, at, n, OUT);
        if (st !== 0) return "!" + st;
        fresh();
        got[i] = u8[OUT] ? "1" : "0";
        at += n;
      }
      return got.join("");
    },
    decideMany(rules, p, count) {
      const all = new Array(count);
      let at = p + 4 * count;
      for (let i = 0; i < count; i++) {
        const n = dv.getUint32(p + 4 * i, true);
        const one = decision(rules, at, n);
        if (one[0] === "!") return one;
        all[i] = one;
        at += n;
      }
      return JSON.stringify(all);
    },
  };
})
"""


class Core:
    """The instantiated module and its helpers (one per interpreter)."""

    def __init__(self, wasm: bytes) -> None:
        module = js.WebAssembly.Module.new(to_js(wasm))
        # The module imports nothing (make wasm-core checks it).
        self.instance = js.WebAssembly.Instance.new(module, js.Object.new())
        i64 = js.Map.new(to_js([[k, to_js(list(v))] for k, v in I64_PARAMS.items()]))
        self.js = run_js(_JS)(self.instance.exports, i64)
        self.x = self.js.exports
        self.OUT: int = self.js.OUT
        self.can_fetch_str: Callable[[int, str], int] = self.js.canFetch
        self.decide_str: Callable[[int, str], str] = self.js.decide
        self._room = self.js.room
        self._view = self.js.view
        self._read = self.js.read
        self._text = self.js.text
        self._last_error = self.x.robotstxt_last_error

    # --- memory ---

    def write(self, data: bytes) -> int:
        """`data` at the start of the input block (valid until the next
        write); its address."""
        p: int = self._room(len(data) + 8)
        if data:
            self._view(p, len(data)).assign(data)
        return p

    def room(self, n: int) -> int:
        return int(self._room(n + 8))

    def put_at(self, p: int, data: bytes) -> None:
        if data:
            self._view(p, len(data)).assign(data)

    def read(self, p: int, n: int) -> bytes:
        if n == 0:
            return b""
        return bytes(self._read(p, n).to_bytes())

    def out(self, n: int) -> bytes:
        return self.read(self.OUT, n)

    def text(self, p: int, n: int) -> str:
        """The bytes at p as str, invalid UTF-8 read as U+FFFD."""
        return "" if n == 0 else str(self._text(p, n))

    def cstr(self, p: int) -> str:
        return str(self.js.cstr(p))

    def last_error(self) -> str:
        o = self.OUT + 128
        self._last_error(o, o + 4)
        p, n = struct.unpack("<II", self.read(o, 8))
        return self.text(p, n)


class Layout:
    """Lays the inputs of one call out in one block: structs first, then
    texts, each 8-aligned, so that struct fields can point at texts."""

    def __init__(self, head: int = 0) -> None:
        self.head = (head + 7) & ~7
        self.texts: List[bytes] = []
        self.offsets: List[int] = []
        self.size = self.head

    def text(self, data: bytes) -> int:
        """Reserves room for `data`; its index."""
        self.offsets.append(self.size)
        self.texts.append(data)
        self.size += (len(data) + 7) & ~7
        return len(self.texts) - 1

    def place(self, core: Core) -> Tuple[int, List[Tuple[int, int]]]:
        """Reserves the block: its address, and each text's (ptr, len),
        (0, 0) for empty text."""
        base = core.room(self.size)
        spans = [(base + o, len(t)) if t else (0, 0) for o, t in zip(self.offsets, self.texts)]
        return base, spans

    def blob(self, head: bytes) -> bytes:
        parts = [head.ljust(self.head, b"\0")]
        for t in self.texts:
            parts.append(t.ljust((len(t) + 7) & ~7, b"\0"))
        return b"".join(parts)


def load() -> Core:
    """The module beside this file, instantiated."""
    return Core((Path(__file__).with_name("robotstxt.wasm")).read_bytes())


__all__ = ["Core", "Layout", "load"]
