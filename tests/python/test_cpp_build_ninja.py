"""tvm_ffi.cpp.extension.build_ninja: runs ninja in a folder with a
build.ninja; failures carry ninja's status and output (the message format
observed from apache-tvm-ffi 0.1.15.post2)."""
import logging
import shutil

import pytest

import tvm_ffi.libinfo
from tvm_ffi.cpp import extension

pytestmark = pytest.mark.skipif(shutil.which("ninja") is None, reason="needs ninja")


def _write(folder, rules):
    (folder / "build.ninja").write_text(rules)


def test_runs_the_build(tmp_path):
    _write(tmp_path, "rule touch\n  command = echo built > $out\nbuild out.txt: touch\n")
    assert extension.build_ninja(str(tmp_path)) is None
    assert (tmp_path / "out.txt").read_text() == "built\n"


def test_failure_reports_status_and_output(tmp_path):
    _write(tmp_path, "rule fail\n  command = echo out-text; echo err-text >&2; exit 3\n"
                     "build x: fail\n")
    with pytest.raises(RuntimeError) as err:
        extension.build_ninja(str(tmp_path))
    text = str(err.value)
    assert text.startswith("ninja exited with status 1\nstdout:\n[1/1] echo out-text;")
    assert "FAILED: x" in text and "out-text\nerr-text\n" in text
    assert "ninja: build stopped: subcommand failed." in text


def test_max_jobs_is_passed_as_j(tmp_path, monkeypatch):
    _write(tmp_path, "rule touch\n  command = echo x > $out\nbuild y: touch\n")
    monkeypatch.setenv("MAX_JOBS", "not-a-number")
    with pytest.raises(RuntimeError, match="ninja exited with status 1") as err:
        extension.build_ninja(str(tmp_path))
    assert "invalid -j parameter" in str(err.value)
    monkeypatch.setenv("MAX_JOBS", "1")
    extension.build_ninja(str(tmp_path))
    assert (tmp_path / "y").exists()


def test_log_build_logs_ninja_output(tmp_path, monkeypatch, caplog):
    _write(tmp_path, "rule touch\n  command = echo x > $out\nbuild z: touch\n")
    monkeypatch.setenv("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "stdout")
    with caplog.at_level(logging.INFO, logger="tvm_ffi.cpp.extension"):
        extension.build_ninja(str(tmp_path))
    assert [r.getMessage().split("\n")[0] for r in caplog.records] == ["ninja build stdout:"]
    assert "[1/1] echo x > z" in caplog.records[0].getMessage()


def test_missing_folder_is_named(tmp_path):
    missing = str(tmp_path / "nope")
    with pytest.raises(FileNotFoundError, match="the build folder .*nope' does not exist"):
        extension.build_ninja(missing)


def test_path_helpers_are_libinfos():
    assert extension.find_include_path is tvm_ffi.libinfo.find_include_path
    assert extension.find_dlpack_include_path is tvm_ffi.libinfo.find_dlpack_include_path
    assert extension.find_libtvm_ffi is tvm_ffi.libinfo.find_libtvm_ffi
