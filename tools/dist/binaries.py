#!/usr/bin/env python3
"""binaries.py: what a built library, program or archive is, read from its
own headers rather than trusted from its name.

- ELF through readelf, which reads every machine's (the dynamic section
  and symbols); its sections are read here.
- Mach-O and PE read here: this machine has no otool or objdump for them.
- An ar archive: the objects it holds, their machines and sections (what
  stripping left).

As a module: read(path) -> Binary. As a program:

    binaries.py FIELD FILE    FIELD's values for FILE, one a line
    binaries.py FILE          every field, as `field: value`

FIELD is one of Binary's: format, machine, type, id, needs, foreign (what
it needs that its platform's system lacks), rpaths, interp, min_os,
glibc, exports, sections, objects.
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path

ELF_MACHINES = {62: "x86-64", 183: "arm64"}
MACHO_CPUS = {0x01000007: "x86-64", 0x0100000C: "arm64"}
PE_MACHINES = {0x8664: "x86-64", 0xAA64: "arm64", 0x14C: "x86"}


# What each platform's system gives every program; a library needed beyond
# these would have to be shipped or installed beside it. Windows: DLLs
# every Windows 10 has. Linux: glibc's and musl's libraries and gcc's
# runtime. macOS: the system's own folders.
WINDOWS_DLLS = {"kernel32.dll", "ntdll.dll", "userenv.dll", "ws2_32.dll", "bcryptprimitives.dll",
                "advapi32.dll", "msvcrt.dll", "api-ms-win-core-synch-l1-2-0.dll", "user32.dll",
                "dbghelp.dll"}
LINUX_LIBS = re.compile(r"(libc|libm|libpthread|libdl|librt|libutil)\.so\.\d+|libgcc_s\.so\.1|libc\.so"
                        r"|ld-linux-[\w-]+\.so\.\d+|ld-musl-\w+\.so\.1")
MACOS_DIRS = ("/usr/lib/", "/System/Library/")


class Problem(Exception):
    """The file is not what a reader here understands."""


@dataclass
class Binary:
    format: str  # elf, mach-o, pe, ar
    machine: str  # x86-64, arm64 (an archive: its objects')
    type: str  # shared, executable, object, archive
    id: str = ""  # soname, install name (LC_ID_DYLIB), or a DLL's own name
    needs: list[str] = field(default_factory=list)  # NEEDED, LC_LOAD_DYLIB, imported DLLs
    rpaths: list[str] = field(default_factory=list)  # RUNPATH/RPATH, LC_RPATH
    interp: str = ""  # ELF: the program interpreter; none when static
    min_os: str = ""  # Mach-O: LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX
    glibc: str = ""  # ELF: the newest GLIBC_ symbol version needed
    exports: list[str] = field(default_factory=list)  # defined global symbols, as C spells them
    sections: list[str] = field(default_factory=list)  # Mach-O: segment,section
    objects: list[str] = field(default_factory=list)  # an archive: "FORMAT MACHINE COUNT"

    @property
    def foreign(self) -> list[str]:
        """What it needs that its platform's system does not have."""
        if self.format == "pe":
            return [n for n in self.needs if n not in WINDOWS_DLLS]
        if self.format == "mach-o":
            return [n for n in self.needs if not n.startswith(MACOS_DIRS)]
        return [n for n in self.needs if not LINUX_LIBS.fullmatch(n)]


def readelf(path: Path, *flags: str) -> str:
    return subprocess.run(["readelf", "-W", *flags, str(path)], check=True,
                          capture_output=True, text=True).stdout


def cstr(data: bytes, at: int) -> str:
    return data[at:data.index(b"\0", at)].decode("utf-8", "replace")


# --- ELF ---

def elf_sections(data: bytes) -> list[str]:
    if data[4] != 2 or data[5] != 1:
        raise Problem("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff == 0:
        return []
    names_at = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)[0]
    return [cstr(data, names_at + struct.unpack_from("<I", data, shoff + i * shentsize)[0])
            for i in range(1, shnum)]


def read_elf(path: Path, data: bytes) -> Binary:
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    interp = re.search(r"Requesting program interpreter: ([^\]]+)\]", readelf(path, "-l"))
    kind = {1: "object", 2: "executable", 3: "executable" if interp else "shared"}.get(e_type, "other")
    dynamic = readelf(path, "-d")
    symbols = readelf(path, "--dyn-syms")
    exports = set()
    for line in symbols.splitlines():
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(parts) >= 8 and parts[3] in ("FUNC", "OBJECT") and parts[4] in ("GLOBAL", "WEAK") \
                and parts[6] != "UND":
            exports.add(parts[7].split("@")[0])
    versions = sorted({tuple(int(x) for x in v.split("."))
                       for v in re.findall(r"@GLIBC_([0-9.]+)", symbols)})
    return Binary(
        format="elf", machine=ELF_MACHINES.get(e_machine, str(e_machine)), type=kind,
        id="".join(re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", dynamic)),
        needs=re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic),
        rpaths=[p for r in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]+)\]", dynamic)
                for p in r.split(":")],
        interp=interp.group(1) if interp else "",
        glibc=".".join(map(str, versions[-1])) if versions else "",
        exports=sorted(exports), sections=elf_sections(data))


# --- Mach-O ---

LC_SEGMENT_64, LC_SYMTAB, LC_LOAD_DYLIB, LC_ID_DYLIB = 0x19, 0x2, 0xC, 0xD
LC_VERSION_MIN_MACOSX, LC_BUILD_VERSION = 0x24, 0x32
LC_LOAD_WEAK_DYLIB, LC_RPATH, LC_REEXPORT_DYLIB = 0x80000018, 0x8000001C, 0x8000001F


def read_macho(data: bytes) -> Binary:
    magic, cputype, _, filetype, ncmds = struct.unpack_from("<IiiII", data, 0)
    if magic != 0xFEEDFACF:
        raise Problem("not a 64-bit little-endian Mach-O file")
    kind = {1: "object", 2: "executable", 6: "shared", 8: "shared"}.get(filetype, "other")
    binary = Binary(format="mach-o", machine=MACHO_CPUS.get(cputype, hex(cputype)), type=kind)
    at = 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        if cmd == LC_ID_DYLIB:
            binary.id = cstr(data, at + struct.unpack_from("<I", data, at + 8)[0])
        elif cmd in (LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB):
            binary.needs.append(cstr(data, at + struct.unpack_from("<I", data, at + 8)[0]))
        elif cmd == LC_RPATH:
            binary.rpaths.append(cstr(data, at + struct.unpack_from("<I", data, at + 8)[0]))
        elif cmd in (LC_BUILD_VERSION, LC_VERSION_MIN_MACOSX):
            # build_version: platform, minos; version_min: version, sdk
            version = struct.unpack_from("<I", data, at + (12 if cmd == LC_BUILD_VERSION else 8))[0]
            binary.min_os = f"{version >> 16}.{(version >> 8) & 0xFF}"
        elif cmd == LC_SEGMENT_64:
            nsects = struct.unpack_from("<I", data, at + 64)[0]
            for i in range(nsects):
                sect = at + 72 + 80 * i
                name = data[sect:sect + 16].rstrip(b"\0").decode()
                segment = data[sect + 16:sect + 32].rstrip(b"\0").decode()
                binary.sections.append(f"{segment},{name}")
        elif cmd == LC_SYMTAB:
            symoff, nsyms, stroff = struct.unpack_from("<III", data, at + 8)
            for i in range(nsyms):
                strx, n_type = struct.unpack_from("<IB", data, symoff + 16 * i)
                # external, not private, defined in a section, not debugging
                if n_type & 0xF1 == 0x01 and n_type & 0x0E == 0x0E:
                    name = cstr(data, stroff + strx)
                    binary.exports.append(name[1:] if name.startswith("_") else name)
        at += size
    binary.exports.sort()
    return binary


# --- PE (and the COFF objects of a MinGW archive) ---

def coff_sections(data: bytes, at: int, count: int, strings: int) -> list[str]:
    names = []
    for i in range(count):
        raw = data[at + 40 * i:at + 40 * i + 8].rstrip(b"\0")
        # A long name is "/<offset>" into the string table.
        names.append(cstr(data, strings + int(raw[1:])) if raw.startswith(b"/") and strings else raw.decode())
    return names


def read_pe(data: bytes) -> Binary:
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        raise Problem("no PE signature")
    machine, nsections, _, symbols, nsymbols, optional_size, characteristics = \
        struct.unpack_from("<HHIIIHH", data, pe + 4)
    optional = pe + 24
    magic = struct.unpack_from("<H", data, optional)[0]
    directories = optional + (112 if magic == 0x20B else 96)  # PE32+ or PE32
    table_at = optional + optional_size
    table = [struct.unpack_from("<8sIIII", data, table_at + 40 * i) for i in range(nsections)]

    def offset(rva: int) -> int:
        for _, size, address, raw_size, raw_at in table:
            if address <= rva < address + max(size, raw_size):
                return raw_at + rva - address
        raise Problem(f"RVA {rva:#x} is in no section")

    binary = Binary(format="pe", machine=PE_MACHINES.get(machine, hex(machine)),
                    type="shared" if characteristics & 0x2000 else "executable",
                    sections=coff_sections(data, table_at, nsections,
                                           symbols + 18 * nsymbols if symbols else 0))
    export_rva, export_size = struct.unpack_from("<II", data, directories)
    if export_size:
        at = offset(export_rva)
        name_rva, _, _, count, _, names_rva = struct.unpack_from("<IIIIII", data, at + 12)
        binary.id = cstr(data, offset(name_rva))
        names = offset(names_rva)
        binary.exports = sorted(cstr(data, offset(struct.unpack_from("<I", data, names + 4 * i)[0]))
                                for i in range(count))
    import_rva, import_size = struct.unpack_from("<II", data, directories + 8)
    if import_size:
        at = offset(import_rva)
        while (name_rva := struct.unpack_from("<I", data, at + 12)[0]) != 0:
            binary.needs.append(cstr(data, offset(name_rva)).lower())
            at += 20
    return binary


# --- ar archives: the objects inside ---

def members(data: bytes):
    """(name, bytes) of each member but the symbol and name tables."""
    at, long_names = 8, b""
    while at + 60 <= len(data):
        header = data[at:at + 60]
        name, size = header[:16].decode().rstrip(), int(header[48:58])
        body = data[at + 60:at + 60 + size]
        at += 60 + size + (size & 1)
        if name.startswith("#1/"):  # BSD: the name leads the body
            length = int(name[3:])
            name, body = body[:length].rstrip(b"\0").decode(), body[length:]
        if name == "//":
            long_names = body
            continue
        if name in ("/", "/SYM64/") or name.startswith("__.SYMDEF"):
            continue
        if re.fullmatch(r"/\d+", name):
            start = int(name[1:])
            name = long_names[start:long_names.index(b"\n", start)].decode().rstrip("/")
        yield name, body


def read_object(data: bytes) -> Binary:
    if data[:4] == b"\x7fELF":
        return Binary(format="elf", machine=ELF_MACHINES.get(struct.unpack_from("<H", data, 18)[0], "?"),
                      type="object", sections=elf_sections(data))
    if data[:4] == b"\xcf\xfa\xed\xfe":
        return read_macho(data)
    machine, nsections, _, symbols, nsymbols, optional_size = struct.unpack_from("<HHIIIH", data, 0)
    if machine in PE_MACHINES and optional_size == 0:
        return Binary(format="coff", machine=PE_MACHINES[machine], type="object",
                      sections=coff_sections(data, 20, nsections, symbols + 18 * nsymbols))
    if data[:4] == b"\0\0\xff\xff":  # a short import entry of an import library
        return Binary(format="coff-import", machine=PE_MACHINES.get(struct.unpack_from("<H", data, 6)[0], "?"),
                      type="object")
    return Binary(format="other", machine="?", type="object")


def read_archive(data: bytes) -> Binary:
    kinds, machines, sections = Counter(), set(), set()
    for _, body in members(data):
        obj = read_object(body)
        kinds[(obj.format, obj.machine)] += 1
        machines.add(obj.machine)
        sections.update(obj.sections)
    return Binary(format="ar", machine=",".join(sorted(machines)), type="archive",
                  sections=sorted(sections),
                  objects=[f"{f} {m} {n}" for (f, m), n in sorted(kinds.items())])


def read(path: Path | str) -> Binary:
    path = Path(path)
    data = path.read_bytes()
    if data[:8] == b"!<arch>\n":
        return read_archive(data)
    if data[:4] == b"\x7fELF":
        return read_elf(path, data)
    if data[:4] == b"\xcf\xfa\xed\xfe":
        return read_macho(data)
    if data[:2] == b"MZ":
        return read_pe(data)
    raise Problem(f"{path}: not an ELF, Mach-O, PE or ar file")


def main() -> int:
    names = [f.name for f in fields(Binary)] + ["foreign"]
    if len(sys.argv) == 2:
        binary = read(sys.argv[1])
        for name in names:
            value = getattr(binary, name)
            print(f"{name}: {' '.join(value) if isinstance(value, list) else value}")
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in names:
        sys.exit(__doc__)
    value = getattr(read(sys.argv[2]), sys.argv[1])
    for line in value if isinstance(value, list) else [value]:
        print(line)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Problem as problem:
        sys.exit(f"binaries.py: {problem}")
