#!/usr/bin/env python3
"""Docs that run: every shell, Python, C, C++ and JSON block of README.md,
docs/*.md and examples/*/README.md is extracted and run against a build.

usage: run_doc_blocks.py --build BUILD_DIR [--python PY] [--keep] [FILE.md ...]

How a block runs (each group of blocks in its own scratch directory, see
tests/docs/README.md for the markers that change this):

  sh, bash, shell   `bash -eo pipefail` in the scratch directory.
  python, py        with the doc interpreter; each top-level statement in turn.
                    A statement whose line (or the comment lines right below
                    it) has a comment starting with an exception name,
                    `# TypeError: expects int`, must raise that exception, and
                    the text after the colon (pieces between `...`) must appear
                    in its message.  A block of `>>>` lines runs as a doctest.
  c, cpp, c++       compiled against include/ and linked with -ltvm_ffi from
                    the build (-Wall -Werror).  A block with `main(` is an
                    executable and is run; any other block is a kernel library
                    (`-shared -fPIC -Wl,--no-undefined`).
  json              parsed.

Blocks of other languages (cmake, text, unlabelled) are prose and not counted.

The environment of every block emulates an installed tvm-ffi: PREFIX is a
`cmake --install` of the build, HOME is a scratch directory whose .local is
that prefix (a program a block builds finds the library only through an
rpath, as with a prefix of one's own; the marker `system-install` adds
CPATH, LIBRARY_PATH and LD_LIBRARY_PATH for a block that assumes a system
prefix), `python` and `python3` are the
doc interpreter, `tvm-ffi-config` runs `python -m tvm_ffi.config`, and
TVM_FFI_ROOT is the source tree.

The doc interpreter: --python, else $TVM_FFI_DOC_PYTHON, else the Python the
build was configured with (Python_EXECUTABLE in CMakeCache.txt).  tvm_ffi
comes from the build tree (PYTHONPATH=BUILD/python) when the build has the
extension (-DTVM_FFI_BUILD_PYTHON=ON), otherwise from the interpreter's own
installation.  It must import tvm_ffi and numpy.  When it cannot, the Python
blocks (and blocks that need it) are not run and, if nothing failed, the exit
code is 77 (ctest: SKIPPED); with TVM_FFI_REQUIRE_DOC_PYTHON=1 that is a
failure instead.

It also checks that the README's count of exported functions ("exports
exactly the N functions") is the number of TVM_FFI_DLL functions of the
public headers.

A `file` block is written, not counted.  The last line is `N passed, N failed`
(then `, N skipped (marked)`, and the blocks not run for want of Python);
the exit code is non-zero when anything failed.
"""
import argparse
import ast
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
FENCE_OPEN = re.compile(r"^(\s*)```\s*([\w+-]*)\s*$")
LANGS = {"sh": "sh", "bash": "sh", "shell": "sh", "python": "python", "py": "python",
         "c": "c", "cpp": "cpp", "c++": "cpp", "cxx": "cpp", "json": "json"}
OPTIONS = {"skip", "fragment", "group", "file", "continue", "declarations", "body", "copy",
           "setup", "needs-python", "system-install"}
HEADERS = "#include <tvm/ffi/c_api.h>\n#include <tvm/ffi/extra/c_env_api.h>\n"
EXC_COMMENT = re.compile(r"#\s*([A-Z]\w*(?:Error|Exception|Interrupt))\b(?::\s*(.*))?")
TIMEOUT = 600


class Block:
    def __init__(self, md, line, lang, text, options):
        self.md, self.line, self.lang, self.text, self.options = md, line, lang, text, options

    @property
    def where(self):
        return "%s:%d (%s)" % (self.md, self.line, self.lang)


def parse_options(md, line, text):
    """`skip (reason); group g; file x.c` -> {"skip": "(reason)", "group": "g", ...}."""
    options = {}
    parts, depth, current = [], 0, ""
    for ch in text:  # split at `;` outside parentheses: a reason may contain one
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == ";" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    for part in filter(None, (p.strip() for p in parts)):
        name, _, arg = part.partition(" ")
        if name not in OPTIONS:
            raise SystemExit("%s:%d: unknown doc-test option %r (known: %s)"
                             % (md, line, name, ", ".join(sorted(OPTIONS))))
        options[name] = arg.strip()
    if "skip" in options and not options["skip"]:
        raise SystemExit("%s:%d: `doc-test: skip` needs a reason" % (md, line))
    for name in ("group", "file", "copy", "setup"):
        if name in options and not options[name]:
            raise SystemExit("%s:%d: `doc-test: %s` needs an argument" % (md, line, name))
    return options


def extract(md_path):
    """All fenced blocks of a Markdown file with the markers on the lines above."""
    rel = str(md_path.relative_to(ROOT))
    lines = md_path.read_text().split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE_OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2).lower()
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        if j == len(lines):
            raise SystemExit("%s:%d: unclosed code fence" % (rel, i + 1))
        body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i + 1:j]]
        options = {}
        k = i - 1
        while k >= 0 and MARKER.match(lines[k]):
            options.update(parse_options(rel, k + 1, MARKER.match(lines[k]).group(1)))
            k -= 1
        if lang in LANGS:
            blocks.append(Block(rel, i + 2, LANGS[lang], "\n".join(body) + "\n", options))
        elif options:
            raise SystemExit("%s:%d: a doc-test marker on a %r block, which is never run"
                             % (rel, i + 1, lang or "unlabelled"))
        i = j + 1
    return blocks


def doc_files(args):
    if args.files:
        return [pathlib.Path(f).resolve() for f in args.files]
    return ([ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
            + sorted((ROOT / "examples").glob("*/README.md")))


# The Python side ---------------------------------------------------------------------

def run_python_pieces(spec_path):
    """Runs in the doc interpreter: the pieces of one Python block (with the blocks
    it continues) in one namespace, statement by statement."""
    import doctest
    import traceback

    pieces = json.loads(pathlib.Path(spec_path).read_text())
    namespace = {"__name__": "__main__"}
    for piece in pieces:
        name, first_line, code = piece["md"], piece["line"], piece["code"]
        if code.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(code, namespace, name, name, first_line - 1)
            runner = doctest.DocTestRunner(
                optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, clear_globs=False)
            if runner.failures:
                return 1
            continue
        tree = ast.parse(code, filename=name)
        source = code.split("\n")
        for k, stmt in enumerate(tree.body):
            end = stmt.end_lineno
            stop = tree.body[k + 1].lineno - 1 if k + 1 < len(tree.body) else len(source)
            comment_lines = source[stmt.lineno - 1:end]
            comment_lines += [l for l in source[end:stop] if l.strip().startswith("#")][:1]
            expected = None
            for l in comment_lines:
                hash_at = l.find("#")
                m = EXC_COMMENT.match(l[hash_at:]) if hash_at >= 0 else None
                if m:
                    expected = m
                    break
            where = "%s:%d" % (name, stmt.lineno + first_line - 1)
            module = ast.Module(body=[stmt], type_ignores=[])
            ast.increment_lineno(module, first_line - 1)
            compiled = compile(module, name, "exec")
            try:
                exec(compiled, namespace)
            except BaseException as e:  # noqa: BLE001 - a doc statement may raise anything
                kinds = [c.__name__ for c in type(e).__mro__]
                if expected is None or expected.group(1) not in kinds:
                    print("%s: raised %s: %s" % (where, type(e).__name__, e))
                    traceback.print_exc()
                    return 1
                text = (expected.group(2) or "").strip().rstrip(".").strip()
                pos = 0
                for chunk in filter(None, (c.strip() for c in text.split("..."))):
                    found = str(e).find(chunk, pos)
                    if found < 0:
                        print("%s: raised %s as the comment says, but its message %r does not "
                              "contain %r" % (where, type(e).__name__, str(e), chunk))
                        return 1
                    pos = found + len(chunk)
            else:
                if expected is not None:
                    print("%s: expected %s (as the comment says), nothing was raised"
                          % (where, expected.group(1)))
                    return 1
    return 0


# The runner ------------------------------------------------------------------------

class Env:
    def __init__(self, args, scratch):
        self.build = pathlib.Path(args.build).resolve()
        self.scratch = scratch
        lib = next(iter(sorted(self.build.glob("**/libtvm_ffi.so"))), None)
        if lib is None:
            raise SystemExit("doc-test: no libtvm_ffi.so under %s; build first" % self.build)
        self.libdir = lib.parent
        self.prefix = scratch / "prefix"
        rc = subprocess.run(["cmake", "--install", str(self.build), "--prefix", str(self.prefix)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if rc.returncode != 0:
            raise SystemExit("doc-test: `cmake --install %s` failed (build every target first):\n%s"
                             % (self.build, rc.stderr))
        self.prefix_lib = self.prefix / "lib"
        self.python, self.python_problem = self.find_python(args)
        bindir = scratch / "bin"
        bindir.mkdir()
        if self.python:
            for name in ("python", "python3"):
                (bindir / name).symlink_to(self.python)
            config = bindir / "tvm-ffi-config"
            config.write_text('#!/bin/sh\nexec "%s" -m tvm_ffi.config "$@"\n' % self.python)
            config.chmod(0o755)
        home = scratch / "home"
        home.mkdir()
        (home / ".local").symlink_to(self.prefix)
        env = dict(os.environ)
        env.update({
            "PATH": "%s:%s" % (bindir, env.get("PATH", "")),
            "HOME": str(home),
            "PREFIX": str(self.prefix),
            "TVM_FFI_ROOT": str(ROOT),
            "TVM_FFI_CACHE_DIR": str(scratch / "tvm-ffi-cache"),
            "PYTHONDONTWRITEBYTECODE": "1",
        })
        if self.python_path:
            env["PYTHONPATH"] = ":".join(filter(None, [self.python_path, env.get("PYTHONPATH")]))
        for var in ("PYTHONHOME", "VIRTUAL_ENV"):
            env.pop(var, None)
        self.env = env

    def find_python(self, args):
        self.python_path = None
        py = args.python or os.environ.get("TVM_FFI_DOC_PYTHON")
        cache = self.build / "CMakeCache.txt"
        if not py and cache.exists():
            m = re.search(r"^Python_EXECUTABLE:\w+=(.+)$", cache.read_text(), re.M)
            py = m.group(1).strip() if m else None
        if not py:
            return None, "no interpreter: set TVM_FFI_DOC_PYTHON"
        py = shutil.which(py) or py
        if list((self.build / "python" / "tvm_ffi").glob("core*.so")):
            self.python_path = str(self.build / "python")
        env = dict(os.environ)
        if self.python_path:
            env["PYTHONPATH"] = self.python_path
        probe = subprocess.run([py, "-c", "import tvm_ffi, numpy; print(tvm_ffi.__file__)"],
                               env=env, capture_output=True, text=True)
        if probe.returncode != 0:
            last = (probe.stderr.strip().splitlines() or ["?"])[-1]
            return None, "%s cannot import tvm_ffi and numpy (%s)" % (py, last)
        print("doc-test: Python %s, tvm_ffi from %s" % (py, probe.stdout.strip()))
        return py, None


def run(cmd, cwd, env, log):
    log.write(("$ " + " ".join(map(str, cmd)) + "\n").encode())
    log.flush()
    try:
        rc = subprocess.run(list(map(str, cmd)), cwd=cwd, env=env, stdout=log,
                            stderr=subprocess.STDOUT, timeout=TIMEOUT).returncode
        if rc != 0:
            log.write(b"exit code %d\n" % rc)
        return rc
    except subprocess.TimeoutExpired:
        log.write(b"timed out\n")
        return 1


def compile_cmd(block, env, src, out):
    if block.lang == "c":
        cmd = [os.environ.get("CC", "cc"), "-std=c11"]
    else:
        cmd = [os.environ.get("CXX", "c++"), "-std=c++17"]
    cmd += ["-Wall", "-Werror", "-I%s" % (ROOT / "include")]
    if "declarations" in block.options or "body" in block.options:
        return cmd + ["-fsyntax-only", src]
    tail = ["-L%s" % env.libdir, "-ltvm_ffi", "-Wl,-rpath,%s" % env.libdir]
    if re.search(r"\bmain\s*\(", block.text):
        return cmd + [src, "-o", out] + tail + ["-ldl"]
    return cmd + ["-shared", "-fPIC", "-Wl,--no-undefined", src, "-o", out] + tail


def run_block(block, env, cwd, index, previous_python, log):
    """0 passed, 1 failed."""
    ext = {"sh": "sh", "python": "py", "c": "c", "cpp": "cc", "json": "json"}[block.lang]
    if "setup" in block.options and run(["bash", "-eo", "pipefail", "-c", block.options["setup"]],
                                        cwd, env.env, log) != 0:
        return 1
    src = cwd / ("block%d.%s" % (index, ext))
    text = block.text
    if block.lang in ("c", "cpp"):  # errors name the Markdown file and line
        text = '#line %d "%s"\n%s' % (block.line, block.md, text)
        if "declarations" in block.options:
            text = HEADERS + text
        elif "body" in block.options:
            text = HEADERS + "int doc_test_body(void) {\n" + text + "return 0;\n}\n"
    src.write_text(text)
    if block.lang == "json":
        try:
            json.loads(block.text)
            return 0
        except ValueError as e:
            log.write(("invalid JSON: %s\n" % e).encode())
            return 1
    if block.lang == "sh":
        block_env = env.env
        if "system-install" in block.options:
            lib = str(env.prefix_lib)
            block_env = dict(env.env, CPATH=str(env.prefix / "include"), LIBRARY_PATH=lib,
                             LD_LIBRARY_PATH=lib)
        return run(["bash", "-eo", "pipefail", src], cwd, block_env, log)
    if block.lang == "python":
        pieces = [{"md": b.md, "line": b.line, "code": b.text}
                  for b in previous_python + [block]]
        spec = cwd / ("block%d.json" % index)
        spec.write_text(json.dumps(pieces))
        return run([env.python, __file__, "--python-block", spec], cwd, env.env, log)
    out = cwd / ("block%d%s" % (index, "" if re.search(r"\bmain\s*\(", block.text) else ".so"))
    if run(compile_cmd(block, env, src, out), cwd, env.env, log) != 0:
        return 1
    if out.exists() and not out.name.endswith(".so"):
        return run([out], cwd, env.env, log)
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--python-block":
        sys.exit(run_python_pieces(sys.argv[2]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="the CMake build directory")
    ap.add_argument("--python", help="the doc interpreter (default $TVM_FFI_DOC_PYTHON)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every block's output")
    ap.add_argument("files", nargs="*", help="Markdown files (default: all)")
    args = ap.parse_args()

    passed = failed = skipped = 0
    no_python = 0
    failed = check_export_count()
    passed = 1 - failed

    scratch = pathlib.Path(tempfile.mkdtemp(prefix="tvm-ffi-doc-test-"))
    try:
        env = Env(args, scratch)
        for md in doc_files(args):
            blocks = extract(md)
            # Groups: blocks with the same `group` run in order in one directory;
            # every other block is a group of its own.
            groups = {}
            for b in blocks:
                groups.setdefault(b.options.get("group") or ("#%d" % b.line), []).append(b)
            for name, members in groups.items():
                rel = str(md.relative_to(ROOT)).replace("/", "_")
                gdir = scratch / ("%s-%s" % (rel, name.strip("#")))
                gdir.mkdir(parents=True)
                copies = [b.options["copy"] for b in members if "copy" in b.options]
                if md.parent.parent.name == "examples":
                    copies.insert(0, str(md.parent.relative_to(ROOT)))
                for copy in copies:
                    source, _, dest = copy.partition(" as ")
                    source = ROOT / source.strip()
                    if source.is_dir():
                        shutil.copytree(source, gdir / dest.strip(), dirs_exist_ok=True)
                    else:
                        shutil.copy(source, gdir / (dest.strip() or source.name))
                group_failed = False
                for k, b in enumerate(members):
                    if "skip" in b.options or "fragment" in b.options:
                        skipped += 1
                        if args.verbose:
                            print("skip  %s: %s" % (b.where, b.options.get("skip") or ("fragment " + b.options["fragment"]).strip()))
                        continue
                    needs_python = b.lang == "python" or "needs-python" in b.options
                    if needs_python and env.python is None:
                        no_python += 1
                        print("SKIP  %s: %s" % (b.where, env.python_problem))
                        continue
                    if "file" in b.options:  # not a test: input of the group's next blocks
                        (gdir / b.options["file"]).write_text(b.text)
                        continue
                    if group_failed:
                        failed += 1
                        print("FAIL  %s: an earlier block of group %r failed" % (b.where, name))
                        continue
                    previous = []
                    if b.lang == "python" and "continue" in b.options:
                        py_blocks = [x for x in blocks if x.lang == "python" and x.line < b.line]
                        while py_blocks:
                            previous.insert(0, py_blocks.pop())
                            if "continue" not in previous[0].options:
                                break
                    log_path = gdir / ("block%d.log" % k)
                    start = time.time()
                    with open(log_path, "wb") as log:
                        rc = run_block(b, env, gdir, k, previous, log)
                    text = log_path.read_text(errors="replace")
                    if rc == 0:
                        passed += 1
                        print("ok    %s (%.1f s)" % (b.where, time.time() - start))
                        if args.verbose and text:
                            print(text)
                    else:
                        failed += 1
                        group_failed = True
                        print("FAIL  %s\n%s" % (b.where, "\n".join(
                            "      | " + l for l in text.splitlines()[-60:])))
    finally:
        if args.keep:
            print("doc-test: scratch directory kept: %s" % scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)

    summary = "%d passed, %d failed" % (passed, failed)
    summary += ", %d skipped (marked)" % skipped
    if no_python:
        summary += ", %d not run (no Python: %s)" % (no_python, env.python_problem)
    print(summary)
    if failed:
        return 1
    if no_python:
        if os.environ.get("TVM_FFI_REQUIRE_DOC_PYTHON"):
            print("doc-test: TVM_FFI_REQUIRE_DOC_PYTHON is set and the Python blocks did not run")
            return 1
        return 77
    return 0


def check_export_count():
    """The README's "exports exactly the N functions" equals the header's count. 0 ok, 1 not."""
    sys.path.insert(0, str(ROOT / "tests" / "export"))
    from check_exports import header_functions  # the export test's parser of the headers

    declared = len(header_functions(ROOT / "include"))
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"exports\s+exactly\s+the\s+(\d+)\s+functions", readme)
    if not m:
        print("FAIL  README.md: no \"exports exactly the N functions\" sentence to check")
        return 1
    if int(m.group(1)) != declared:
        print("FAIL  README.md: says %s exported functions, the headers declare %d with TVM_FFI_DLL"
              % (m.group(1), declared))
        return 1
    print("ok    README.md: %d exported functions, as the headers declare" % declared)
    return 0


if __name__ == "__main__":
    sys.exit(main())
