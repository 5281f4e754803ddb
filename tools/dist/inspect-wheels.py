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

The files are read by binaries.py, beside this one.

Inspecting is all this machine can do for most of them: each line says
which were run elsewhere by the suite (the native wheel, by `make
python-test` and `make dist-test`) and which are only inspected here, and
why.
"""

from __future__ import annotations

import re
import sys
import tempfile
import zipfile
from pathlib import Path

import binaries
from binaries import Problem, read

# platform: (tag pattern, machine, libc or minimum macOS, how far it is
# tested here)
PLATFORMS = {
    "linux-x64-gnu": (r"manylinux_2_17_x86_64", "x86-64", "glibc", "run: make python-test, dist-test"),
    "linux-arm64-gnu": (r"manylinux_2_17_aarch64", "arm64", "glibc", "run: make dist-test-python-linux-arm64-gnu (pip, pytest in Debian's arm64 CPython under qemu-user)"),
    "linux-x64-musl": (r"musllinux_1_2_x86_64", "x86-64", "musl", "inspected only: no musl Python here"),
    "linux-arm64-musl": (r"musllinux_1_2_aarch64", "arm64", "musl", "inspected only: no musl Python here"),
    "macos-x64": (r"macosx_10_12_x86_64", "x86-64", "10.12", "inspected only: macOS cannot run here"),
    "macos-arm64": (r"macosx_11_0_arm64", "arm64", "11.0", "inspected only: macOS cannot run here"),
    "windows-x64": (r"win_amd64", "x86-64", "windows", "inspected only: no Windows CPython here"),
}
# DLLs every Windows 10 has, and the Python that loads the module.
WINDOWS_DLLS = binaries.WINDOWS_DLLS | {"python3.dll"}


def check_elf(path: Path, machine: str, libc: str) -> str:
    module = read(path)
    if module.format != "elf" or module.type != "shared":
        raise Problem(f"a {module.format} {module.type}, not an ELF shared object")
    if module.machine != machine:
        raise Problem(f"ELF machine {module.machine}, not {machine}")
    needed = module.needs
    if libc == "glibc":
        if "libc.so.6" not in needed:
            raise Problem(f"needs {needed}, not glibc's libc.so.6")
        if module.glibc and tuple(map(int, module.glibc.split("."))) > (2, 17):
            raise Problem(f"needs GLIBC_{module.glibc}, newer than 2.17")
        return f"ELF machine {machine}, NEEDED {', '.join(needed)}, newest glibc symbol {module.glibc or 'none'}"
    if module.glibc or "libc.so.6" in needed:
        raise Problem(f"a musl wheel that needs glibc ({needed})")
    if "libc.so" not in needed:
        raise Problem(f"needs {needed}, not musl's libc.so")
    return f"ELF machine {machine}, NEEDED {', '.join(needed)}, no glibc symbol"


def check_macho(path: Path, cpu: str, minimum: str) -> str:
    module = read(path)
    if module.format != "mach-o":
        raise Problem("not a 64-bit little-endian Mach-O file")
    if module.machine != cpu:
        raise Problem(f"CPU type {module.machine}, not {cpu}")
    if module.type != "shared":
        raise Problem(f"Mach-O {module.type}, not a library")
    if not module.min_os:
        raise Problem("no minimum macOS recorded")
    if module.min_os != minimum:
        raise Problem(f"minimum macOS {module.min_os}, not {minimum}")
    return f"Mach-O CPU {cpu}, minimum macOS {module.min_os}"


def check_pe(path: Path, machine: str) -> str:
    module = read(path)
    if module.format != "pe":
        raise Problem("not a PE file")
    if module.machine != machine:
        raise Problem(f"PE machine {module.machine}, not {machine}")
    if module.type != "shared":
        raise Problem("not a DLL")
    imports = module.needs
    if "python3.dll" not in imports:
        raise Problem(f"imports {imports}, not the stable ABI's python3.dll")
    foreign = [d for d in imports if d not in WINDOWS_DLLS]
    if foreign:
        raise Problem(f"imports DLLs Windows does not have: {foreign}")
    return f"PE machine {machine}, a DLL importing {', '.join(imports)}"


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
