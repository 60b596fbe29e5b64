#!/usr/bin/env bash
# Runs upstream apache-tvm-ffi's own Python test suite (tests/python of its
# source distribution) on OUR installed tvm_ffi package, and prints how many
# of its tests pass.  Nothing of upstream is committed: the sdist is
# downloaded at run time into a cache folder outside the clone.
#
#   TVM_FFI_PYTHON   the interpreter whose `import tvm_ffi` is tested
#                    (default: python3); it needs pytest.  PYTHONPATH is
#                    passed through, so a build tree works too:
#                    PYTHONPATH=build/python TVM_FFI_PYTHON=python3.12 ...
#   TVM_FFI_UPSTREAM_VERSION  the release (default 0.1.15.post2)
#   TVM_FFI_UPSTREAM_CACHE    the cache folder
#                    (default ${XDG_CACHE_HOME:-$HOME/.cache}/tvm-ffi)
#   TVM_FFI_SUITE_TIMEOUT     seconds allowed per test file (default 600)
#   TVM_FFI_SUITE_NAME        the work folder's name under the cache
#                    (default suite; one per concurrent run)
#   TVM_FFI_SUITE_REPORT      where the per-file report goes
#                    (default <cache>/<name>-<version>/report.txt)
#   TVM_FFI_SUITE_UPSTREAM_PASSED  how many tests pass on upstream's own
#                    package (default 2579: 0.1.15.post2 on Python 3.12 with
#                    numpy, without torch or a GPU, measured 2026-12-01)
#   TVM_FFI_SUITE_MIN_PERCENT fail (exit 1) when fewer than this percentage
#                    of upstream's passes pass here (default: never fail)
#
# Arguments, if any, are test files (relative to upstream's tests/python) to
# run instead of all of them.
#
# The suite runs in one pytest process, as upstream runs it; if that process
# crashes, each file runs again in its own process.  Printed at the end:
#   upstream-suite: blocker <count> <message>   (the commonest errors that stop
#                                                a file at import)
#   upstream-suite: passed=N failed=N errors=N skipped=N files=N import-failures=N crashed=N
#   upstream-suite: N of upstream's M passes (P%)
# Beside the report, not-passing.tsv lists each failed test: file, test name,
# the first line of its failure.
# The script exits 0 whatever the counts are unless TVM_FFI_SUITE_MIN_PERCENT
# is set; it fails (exit 2) when it cannot run.
set -euo pipefail

PY="${TVM_FFI_PYTHON:-python3}"
VERSION="${TVM_FFI_UPSTREAM_VERSION:-0.1.15.post2}"
CACHE="${TVM_FFI_UPSTREAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tvm-ffi}"
TIMEOUT="${TVM_FFI_SUITE_TIMEOUT:-600}"

die() {
  echo "upstream-suite: FAILED: $*" >&2
  exit 2
}

command -v "$PY" >/dev/null 2>&1 || die "interpreter '$PY' not found (set TVM_FFI_PYTHON)"
"$PY" -c 'import pytest' 2>/dev/null || die "'$PY' has no pytest (pip install pytest)"
where="$("$PY" -c 'import tvm_ffi, os; print(os.path.dirname(tvm_ffi.__file__))')" ||
  die "'$PY' cannot import tvm_ffi"
echo "upstream-suite: testing tvm_ffi from $where with $("$PY" -c 'import sys; print(sys.version.split()[0])')"

mkdir -p "$CACHE"
SRC="$CACHE/apache_tvm_ffi-$VERSION"
if [ ! -d "$SRC/tests/python" ]; then
  # Only the package itself is taken as source; its build requirements come
  # as wheels (pip prepares the sdist's metadata even for a download).
  "$PY" -m pip download --quiet --no-deps --no-binary apache-tvm-ffi \
    "apache-tvm-ffi==$VERSION" -d "$CACHE/dist" ||
    die "downloading the apache-tvm-ffi $VERSION sdist"
  tarball="$CACHE/dist/apache_tvm_ffi-$VERSION.tar.gz"
  [ -f "$tarball" ] || die "no $tarball after the download"
  tar -xzf "$tarball" -C "$CACHE" || die "unpacking $tarball"
fi
[ -d "$SRC/tests/python" ] || die "no tests/python in $SRC"

WORK="$CACHE/${TVM_FFI_SUITE_NAME:-suite}-$VERSION"
rm -rf "$WORK"
mkdir -p "$WORK/xml"
# The suite runs from a copy, so its own rootdir (and no pyproject addopts,
# which want pytest-xdist) applies, and nothing is written into the cache.
cp -r "$SRC/tests/python" "$WORK/python"
REPORT="${TVM_FFI_SUITE_REPORT:-$WORK/report.txt}"

if [ "$#" -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(cd "$WORK/python" && find . -name 'test_*.py' | sed 's|^\./||' | sort)
fi

# One pytest process for the whole suite, as upstream runs it (collection
# imports every module first, so a module may use what another one loaded).
# When that process dies before writing its report (a crash or the timeout),
# every file runs again in its own process, so a crash costs only its file.
run_one() {  # <name> <timeout> <test paths...>
  local name="$1" limit="$2" xml rc
  shift 2
  xml="$WORK/xml/$name.xml"
  set +e
  (cd "$WORK" && timeout "$limit" "$PY" -m pytest -q -p no:cacheprovider \
    --continue-on-collection-errors --rootdir "$WORK/python" -o addopts= --junitxml "$xml" "$@" >"$xml.log" 2>&1)
  rc=$?
  set -e
  echo "$rc" >"$xml.rc"
  echo "upstream-suite: $name rc=$rc"
}

paths=()
for f in "${files[@]}"; do paths+=("python/$f"); done
run_one all "$((TIMEOUT * 4))" "${paths[@]}"
if [ ! -s "$WORK/xml/all.xml" ]; then
  echo "upstream-suite: the one-process run died (rc=$(cat "$WORK/xml/all.xml.rc")); one process per file"
  rm -f "$WORK/xml/all.xml" "$WORK/xml/all.xml.rc"
  i=0
  for f in "${files[@]}"; do
    i=$((i + 1))
    printf 'upstream-suite: [%d/%d] ' "$i" "${#files[@]}"
    run_one "$(echo "$f" | tr '/' '_')" "$TIMEOUT" "python/$f"
  done
fi

"$PY" - "$WORK/xml" "$REPORT" "${TVM_FFI_SUITE_UPSTREAM_PASSED:-2579}" \
  "${TVM_FFI_SUITE_MIN_PERCENT:-}" <<'PY'
import collections, glob, os, re, sys
import xml.etree.ElementTree as ET

xml_dir, report_path = sys.argv[1], sys.argv[2]
upstream_passed, min_percent = int(sys.argv[3]), sys.argv[4]
per_file = collections.defaultdict(collections.Counter)
import_failure = {}
crashed = []
not_passing = []  # (file, test, first line of the failure)


def first_error(text):
    m = re.search(r"^E\s+(\w+(?:Error|Exception|Interrupt)\b[^\n]*)", text, re.M)
    msg = m.group(1) if m else text.strip().splitlines()[0] if text.strip() else "?"
    return re.sub(r" \(/[^)]*\)$", "", msg)  # drop "(/path/of/module.py)"


for rc_path in sorted(glob.glob(os.path.join(xml_dir, "*.xml.rc"))):
    xml = rc_path[: -len(".rc")]
    if not os.path.exists(xml) or os.path.getsize(xml) == 0:
        crashed.append(os.path.basename(xml)[: -len(".xml")])
        continue
    for case in ET.parse(xml).getroot().iter("testcase"):
        cls = case.get("classname") or ""
        if not cls:  # a collection error: the name is the module path
            mod = case.get("name", "?").replace(".", "/") + ".py"
        else:
            mod = cls.split(".")
            while mod and mod[-1][:1].isupper():  # drop test class names
                mod.pop()
            mod = "/".join(mod) + ".py"
        mod = mod.removeprefix("python/")
        kids = [c for c in case if c.tag in ("failure", "error", "skipped")]
        kind = "passed" if not kids else {"failure": "failed", "error": "errors",
                                          "skipped": "skipped"}[kids[0].tag]
        per_file[mod][kind] += 1
        if kind in ("failed", "errors") and cls:
            text = (kids[0].get("message") or kids[0].text or "").strip().splitlines()
            not_passing.append((mod, case.get("name", "?"), text[0][:200] if text else ""))
        if not cls and kind == "errors":
            import_failure[mod] = first_error((kids[0].text or "") + "\n"
                                              + (kids[0].get("message") or ""))

totals = collections.Counter()
lines = []
for mod in sorted(per_file):
    c = per_file[mod]
    totals.update(c)
    detail = " ".join(f"{k}={c[k]}" for k in ("passed", "failed", "errors", "skipped"))
    imp = import_failure.get(mod)
    lines.append(f"{mod}: {detail}" + (f"  IMPORT: {imp}" if imp else ""))
for name in crashed:
    lines.append(f"{name}: CRASHED (no report; see {name}.xml.log)")
with open(report_path, "w") as out:
    out.write("\n".join(lines) + "\n")
with open(os.path.join(os.path.dirname(report_path), "not-passing.tsv"), "w") as out:
    for row in sorted(not_passing):
        out.write("\t".join(row) + "\n")
for line in lines:
    print("upstream-suite:   " + line)
print("upstream-suite: per-file report in " + report_path)
for msg, n in collections.Counter(import_failure.values()).most_common(15):
    print(f"upstream-suite: blocker {n} {msg}")
totals["files"] = len(per_file) + len(crashed)
totals["import-failures"] = len(import_failure)
totals["crashed"] = len(crashed)
print("upstream-suite: " + " ".join(
    f"{k}={totals[k]}" for k in ("passed", "failed", "errors", "skipped", "files",
                                  "import-failures", "crashed")))
percent = 100.0 * totals["passed"] / upstream_passed
print(f"upstream-suite: {totals['passed']} of upstream's {upstream_passed} passes ({percent:.1f}%)")
if min_percent and percent < float(min_percent):
    print(f"upstream-suite: FAILED: under the required {min_percent}%")
    sys.exit(1)
PY
