"""``build_ninja``: run ninja in a build folder holding a build.ninja (for
callers that write their own build files; tvm_ffi.cpp's own builds call the
compiler directly)."""
from __future__ import annotations

import logging
import os
import subprocess
import sys

IS_WINDOWS = sys.platform == "win32"
logger = logging.getLogger("tvm_ffi.cpp.extension")


def build_ninja(build_dir: str) -> None:
    """Run ``ninja -v`` in ``build_dir`` (``-j $MAX_JOBS`` when that is set).

    A failure raises RuntimeError with ninja's exit status and its output.
    ``TVM_FFI_CPP_EXTENSION_LOG_BUILD`` = ``1`` logs (at INFO) ninja's stdout
    and stderr after a success, ``stdout`` or ``stderr`` only that stream.
    """
    if not os.path.isdir(build_dir):
        raise FileNotFoundError(f"build_ninja: the build folder {build_dir!r} does not exist")
    command = ["ninja", "-v"]
    jobs = os.environ.get("MAX_JOBS")
    if jobs is not None:
        command += ["-j", jobs]
    try:
        proc = subprocess.run(command, cwd=build_dir, capture_output=True, check=False)
    except FileNotFoundError as err:
        raise FileNotFoundError(
            f"build_ninja: cannot run ninja in {build_dir!r}: {err} "
            "(install it: pip install ninja)") from err
    encoding = "oem" if IS_WINDOWS else "utf-8"
    out = proc.stdout.decode(encoding, "replace")
    err = proc.stderr.decode(encoding, "replace")
    if proc.returncode != 0:
        parts = [f"ninja exited with status {proc.returncode}"]
        if out:
            parts.append(f"stdout:\n{out}")
        if err:
            parts.append(f"stderr:\n{err}")
        raise RuntimeError("\n".join(parts))
    log = os.environ.get("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "0")
    if log in ("1", "stdout"):
        logger.info("ninja build stdout:\n%s", out)
    if log in ("1", "stderr"):
        logger.info("ninja build stderr:\n%s", err)
