#!/usr/bin/env python3
"""inspect-wheels.py DIST_DIR: what each wheel of DIST_DIR (dist/python)
is, read from its files rather than trusted from its name.

For every platform the wheels are built for, exactly one abi3 wheel must
be there, and its extension module must be what its tag says:

- Linux: an ELF shared object for the tag's machine; manylinux2014 needs
  glibc (libc.so.6) and no symbol version newer than GLIBC_2.17;
  musllinux_1_2 needs musl's libc.so and no glibc at all.
- macOS: a Mach-O dynamic library for the tag's CPU, whose minimum macOS
  (LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX) is the tag's.
- Windows: a PE DLL for x86-64 that imports the stable ABI's python3.dll
  (not one version's python3X.dll), and no C runtime a user must install.

Inspecting is all this machine can do for most of them: each line says
which were run elsewhere by the suite (the native wheel, by `make
python-test` and `make dist-test`) and which are only inspected here, and
why.
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

# platform: (tag pattern, ELF machine or Mach-O CPU, libc or minimum macOS,
# how far it is tested here)
EM_X86_64, EM_AARCH64 = 62, 183
CPU_X86_64, CPU_ARM64 = 0x01000007, 0x0100000C
PE_AMD64 = 0x8664
PLATFORMS = {
    "linux-x64-gnu": (r"manylinux_2_17_x86_64", EM_X86_64, "glibc", "run: make python-test, dist-test"),
    "linux-arm64-gnu": (r"manylinux_2_17_aarch64", EM_AARCH64, "glibc", "inspected only: not yet run under qemu with an arm64 Python"),
    "linux-x64-musl": (r"musllinux_1_2_x86_64", EM_X86_64, "musl", "inspected only: no musl Python here"),
    "linux-arm64-musl": (r"musllinux_1_2_aarch64", EM_AARCH64, "musl", "inspected only: no musl Python here"),
    "macos-x64": (r"macosx_10_12_x86_64", CPU_X86_64, "10.12", "inspected only: macOS cannot run here"),
    "macos-arm64": (r"macosx_11_0_arm64", CPU_ARM64, "11.0", "inspected only: macOS cannot run here"),
    "windows-x64": (r"win_amd64", PE_AMD64, "windows", "inspected only: no Windows CPython here"),
}
# DLLs every Windows 10 has; anything else would have to be installed.
WINDOWS_DLLS = {"python3.dll", "kernel32.dll", "ntdll.dll", "userenv.dll", "ws2_32.dll",
                "bcryptprimitives.dll", "advapi32.dll", "msvcrt.dll", "api-ms-win-core-synch-l1-2-0.dll",
                "user32.dll", "dbghelp.dll"}


class Problem(Exception):
    pass


def readelf(path: Path, *flags: str) -> str:
    # readelf reads any machine's ELF; objdump would need a cross binutils.
    return subprocess.run(["readelf", "-W", *flags, str(path)], check=True,
                          capture_output=True, text=True).stdout


def check_elf(path: Path, machine: int, libc: str) -> str:
    head = path.read_bytes()[:20]
    if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
        raise Problem("not a 64-bit little-endian ELF file")
    e_type, e_machine = struct.unpack_from("<HH", head, 16)
    if e_type != 3:
        raise Problem(f"ELF type {e_type}, not a shared object")
    if e_machine != machine:
        raise Problem(f"ELF machine {e_machine}, not {machine}")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf(path, "-d"))
    versions = sorted({tuple(int(x) for x in v.split("."))
                       for v in re.findall(r"@GLIBC_([0-9.]+)", readelf(path, "--dyn-syms"))})
    if libc == "glibc":
        if "libc.so.6" not in needed:
            raise Problem(f"needs {needed}, not glibc's libc.so.6")
        if versions and versions[-1] > (2, 17):
            raise Problem(f"needs GLIBC_{'.'.join(map(str, versions[-1]))}, newer than 2.17")
        newest = ".".join(map(str, versions[-1])) if versions else "none"
        return f"ELF machine {machine}, NEEDED {', '.join(needed)}, newest glibc symbol {newest}"
    if versions or "libc.so.6" in needed:
        raise Problem(f"a musl wheel that needs glibc ({needed})")
    if "libc.so" not in needed:
        raise Problem(f"needs {needed}, not musl's libc.so")
    return f"ELF machine {machine}, NEEDED {', '.join(needed)}, no glibc symbol"


LC_VERSION_MIN_MACOSX, LC_BUILD_VERSION = 0x24, 0x32


def check_macho(path: Path, cpu: int, minimum: str) -> str:
    data = path.read_bytes()
    magic, cputype, _, filetype, ncmds, _, _, _ = struct.unpack_from("<IiiIIIII", data, 0)
    if magic != 0xFEEDFACF:
        raise Problem("not a 64-bit little-endian Mach-O file")
    if cputype != cpu:
        raise Problem(f"CPU type {cputype:#x}, not {cpu:#x}")
    if filetype not in (6, 8):  # MH_DYLIB, MH_BUNDLE
        raise Problem(f"Mach-O file type {filetype}, not a library")
    at, found = 32, None
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, at)
        if cmd == LC_BUILD_VERSION:
            found = struct.unpack_from("<I", data, at + 12)[0]
        elif cmd == LC_VERSION_MIN_MACOSX:
            found = struct.unpack_from("<I", data, at + 8)[0]
        at += size
    if found is None:
        raise Problem("no minimum macOS recorded")
    got = f"{found >> 16}.{(found >> 8) & 0xFF}"
    if got != minimum:
        raise Problem(f"minimum macOS {got}, not {minimum}")
    return f"Mach-O CPU {cpu:#x}, minimum macOS {got}"


def check_pe(path: Path, machine: int) -> str:
    data = path.read_bytes()
    if data[:2] != b"MZ":
        raise Problem("not a PE file")
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        raise Problem("no PE signature")
    got, sections, _, _, _, optional_size, characteristics = struct.unpack_from("<HHIIIHH", data, pe + 4)
    if got != machine:
        raise Problem(f"PE machine {got:#x}, not {machine:#x}")
    if not characteristics & 0x2000:  # IMAGE_FILE_DLL
        raise Problem("not a DLL")
    optional = pe + 24
    if struct.unpack_from("<H", data, optional)[0] != 0x20B:  # PE32+
        raise Problem("not a 64-bit image")
    import_rva = struct.unpack_from("<I", data, optional + 112 + 8)[0]  # data directory 1
    table = [struct.unpack_from("<8sIIII", data, optional + optional_size + 40 * i)
             for i in range(sections)]

    def offset(rva: int) -> int:
        for _, size, address, raw_size, raw_at in table:
            if address <= rva < address + max(size, raw_size):
                return raw_at + rva - address
        raise Problem(f"RVA {rva:#x} is in no section")

    imports, at = [], offset(import_rva)
    while True:
        name_rva = struct.unpack_from("<I", data, at + 12)[0]
        if name_rva == 0:
            break
        start = offset(name_rva)
        imports.append(data[start:data.index(b"\0", start)].decode().lower())
        at += 20
    if "python3.dll" not in imports:
        raise Problem(f"imports {imports}, not the stable ABI's python3.dll")
    foreign = [d for d in imports if d not in WINDOWS_DLLS]
    if foreign:
        raise Problem(f"imports DLLs Windows does not have: {foreign}")
    return f"PE machine {machine:#x}, a DLL importing {', '.join(imports)}"


def inspect(wheel: Path, machine: int, libc: str) -> str:
    with zipfile.ZipFile(wheel) as archive, tempfile.TemporaryDirectory() as tmp:
        names = [n for n in archive.namelist() if re.match(r"robotstxt/_robotstxt.*\.(so|pyd)$", n)]
        if len(names) != 1:
            raise Problem(f"holds {names or 'no'} extension module")
        if not any(n.endswith("licenses/LICENSE-MIT") for n in archive.namelist()):
            raise Problem("lacks its licences")
        module = Path(archive.extract(names[0], tmp))
        if libc in ("glibc", "musl"):
            return check_elf(module, machine, libc)
        if libc == "windows":
            return check_pe(module, machine)
        return check_macho(module, machine, libc)


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    wheels = sorted(Path(sys.argv[1]).glob("*.whl"))
    failed = 0
    for platform, (tag, machine, libc, tested) in PLATFORMS.items():
        matching = [w for w in wheels if re.search(rf"-cp310-abi3-.*{tag}", w.name)]
        try:
            if len(matching) != 1:
                raise Problem(f"want one abi3 wheel tagged {tag}, found {[w.name for w in matching]}")
            what = inspect(matching[0], machine, libc)
            print(f"  ok: {platform:17} {matching[0].name}: {what}; {tested}")
        except Problem as problem:
            failed += 1
            print(f"  FAILED: {platform}: {problem}")
    others = [w.name for w in wheels
              if not any(re.search(t[0], w.name) for t in PLATFORMS.values())]
    if others:
        failed += 1
        print(f"  FAILED: wheels for no known platform: {others}")
    print(f"inspect-wheels: {len(PLATFORMS) - failed} of {len(PLATFORMS)} platforms' wheels are what their tags say")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
