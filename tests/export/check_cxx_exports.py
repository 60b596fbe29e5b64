#!/usr/bin/env python3
"""Our libtvm_ffi.so must export every tvm::ffi C++ symbol upstream's does
(issue 19, test 4), and no C++ symbol upstream's does not.

Both lists are the demangled dynamic symbols (`nm -D --defined-only -C`).
Upstream's tvm::ffi symbols are those whose name, once demangled, starts in
namespace tvm::ffi (functions, static locals and their guard variables) or is
the vtable/typeinfo of a tvm::ffi class.  Upstream's library also exports
libstdc++ template instantiations over its types (std::_Hashtable<...>,
std::vector<...>); they belong to no API and are listed as ignored.

KNOWN_MISSING names symbols we do not export yet, each with the reason.  A
symbol missing and not listed fails; a listed symbol that is exported fails
too (take it off the list).

usage: check_cxx_exports.py --ours libtvm_ffi.so --upstream upstream/libtvm_ffi.so [--nm nm]
"""
import argparse
import subprocess
import sys

# Symbol -> why it is not exported yet.  Keep this list short and true.
KNOWN_MISSING = {}

_CLASS_PREFIXES = ("vtable for ", "typeinfo for ", "typeinfo name for ", "guard variable for ")


def exported(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", "-C", lib], check=True,
                         capture_output=True, text=True).stdout
    symbols = {}
    for line in out.splitlines():
        # "<address> <type> <demangled name with spaces>"
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        name = parts[2].split("@")[0]
        symbols[name] = parts[1]
    return symbols


def is_tvm_ffi(name):
    for prefix in _CLASS_PREFIXES:
        if name.startswith(prefix):
            name = name[len(prefix):]
    return name.startswith("tvm::ffi::")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--nm", default="nm")
    args = ap.parse_args()

    ours = exported(args.nm, args.ours)
    upstream = exported(args.nm, args.upstream)
    up_cxx = {n for n in upstream if not n.startswith("TVMFFI")}
    up_api = sorted(n for n in up_cxx if is_tvm_ffi(n))
    our_cxx = {n for n in ours if not n.startswith("TVMFFI")}

    failed = 0
    exported_ok = missing_known = 0
    if len(up_api) < 30:
        print("FAIL: only %d tvm::ffi symbols in %s; is it upstream's library?"
              % (len(up_api), args.upstream))
        failed += 1
    for name in up_api:
        if name in our_cxx:
            if name in KNOWN_MISSING:
                print("FAIL: %s is exported now: take it off KNOWN_MISSING" % name)
                failed += 1
            else:
                print("ok       %s" % name)
                exported_ok += 1
        elif name in KNOWN_MISSING:
            print("missing  %s  (known: %s)" % (name, KNOWN_MISSING[name]))
            missing_known += 1
        else:
            print("FAIL: upstream exports %s (nm type '%s'), ours does not"
                  % (name, upstream[name]))
            failed += 1
    for name in sorted(set(KNOWN_MISSING) - set(up_api)):
        print("FAIL: KNOWN_MISSING names %s, which upstream does not export" % name)
        failed += 1
    for name in sorted(our_cxx - set(up_api)):
        print("FAIL: ours exports %s (nm type '%s'), which is not a tvm::ffi symbol of upstream's"
              % (name, ours[name]))
        failed += 1
    for name in sorted(up_cxx - set(up_api)):
        print("ignored  %s  (a libstdc++ instantiation, no API)" % name)
    print("%d tvm::ffi symbols upstream: %d exported, %d known missing, %d failures"
          % (len(up_api), exported_ok, missing_known, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
