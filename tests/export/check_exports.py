#!/usr/bin/env python3
"""The dynamic symbols that libtvm_ffi.so defines must be exactly the functions
declared with TVM_FFI_DLL in the public headers: no more, no less.

C++ symbols in namespace tvm::ffi (mangled `_ZN3tvm3ffi...`, and the vtables,
typeinfo and static locals of its classes) are left to check_cxx_exports.py,
which compares them with upstream's library.

usage: check_exports.py --lib libtvm_ffi.so --include include/ [--nm nm] [--covered-by EXE]

With --covered-by, also: `EXE --list` (tests/c/test_bad_input.c) names every
exported function, one a line, and nothing else.
"""
import argparse
import pathlib
import re
import subprocess
import sys


def header_functions(include_dir):
    """Names of the functions declared `TVM_FFI_DLL ... name(` under include_dir."""
    names = {}
    for path in sorted(pathlib.Path(include_dir).rglob("*.h")):
        text = path.read_text()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)  # block comments
        text = re.sub(r"//[^\n]*", " ", text)  # line comments
        text = re.sub(r"\\\n", " ", text)  # macro continuations
        text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
        for m in re.finditer(r"\bTVM_FFI_DLL\b([^;{}]*?)\b([A-Za-z_]\w*)\s*\(", text):
            names.setdefault(m.group(2), str(path.relative_to(include_dir)))
    return names


# tvm::ffi functions, static locals (_ZZN), guard variables (_ZGVZN), vtables
# (_ZTV), typeinfo (_ZTI) and typeinfo names (_ZTS).
_TVM_FFI_CXX = re.compile(r"^_Z(?:TV|TI|TS|GV)?Z?N3tvm3ffi")


def exported_symbols(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    symbols = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name = parts[-1].split("@")[0]  # drop a symbol version suffix
        if _TVM_FFI_CXX.match(name):
            continue
        symbols[name] = parts[-2]  # nm's type letter
    return symbols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--covered-by")
    args = ap.parse_args()

    declared = header_functions(args.include)
    exported = exported_symbols(args.nm, args.lib)
    passed = failed = 0
    if len(declared) < 40:
        print("FAIL: only %d TVM_FFI_DLL declarations parsed from %s; the parser is broken"
              % (len(declared), args.include))
        failed += 1
    for name in sorted(declared):
        if name in exported and exported[name] in ("T", "W", "i"):
            passed += 1
        elif name in exported:
            print("FAIL: %s (%s) is exported as '%s', not as a function"
                  % (name, declared[name], exported[name]))
            failed += 1
        else:
            print("FAIL: %s (%s) is declared but not exported" % (name, declared[name]))
            failed += 1
    for name in sorted(set(exported) - set(declared)):
        print("FAIL: %s (nm type '%s') is exported but not declared with TVM_FFI_DLL"
              % (name, exported[name]))
        failed += 1
    if args.covered_by:
        listed = subprocess.run([args.covered_by, "--list"], check=True, capture_output=True,
                                text=True).stdout.split()
        for name in sorted(set(exported) - set(listed)):
            print("FAIL: %s is exported but %s does not cover it" % (name, args.covered_by))
            failed += 1
        for name in sorted(set(listed) - set(exported)):
            print("FAIL: %s lists %s, which is not exported" % (args.covered_by, name))
            failed += 1
        print("%d functions covered by %s" % (len(set(listed)), args.covered_by))
    print("%d declared, %d exported" % (len(declared), len(exported)))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
