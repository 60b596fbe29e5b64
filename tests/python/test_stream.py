"""tvm_ffi.StreamContext, use_raw_stream, get_raw_stream, use_torch_stream
(fake stream integers on cuda:0: setting a stream needs no GPU)."""
import ctypes
import subprocess
import sys
import threading

import pytest

import tvm_ffi
import tvm_ffi.testing as t

CUDA0 = tvm_ffi.device("cuda:0")
CUDA1 = tvm_ffi.device("cuda:1")


def test_raw_stream_sets_and_restores():
    assert tvm_ffi.get_raw_stream(CUDA0) == 0
    with tvm_ffi.use_raw_stream(CUDA0, 0x10) as ctx:
        assert isinstance(ctx, tvm_ffi.StreamContext)
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x10
        assert t.env_get_stream(2, 0) == 0x10  # what C++ kernels see
        assert tvm_ffi.get_raw_stream(CUDA1) == 0
        with tvm_ffi.use_raw_stream(CUDA0, ctypes.c_void_p(0x20)):
            assert tvm_ffi.get_raw_stream(CUDA0) == 0x20
            with tvm_ffi.use_raw_stream(CUDA1, 0x30):
                assert (tvm_ffi.get_raw_stream(CUDA0), tvm_ffi.get_raw_stream(CUDA1)) == (0x20, 0x30)
            assert tvm_ffi.get_raw_stream(CUDA1) == 0
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x10
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_restored_on_exception():
    with pytest.raises(KeyError):
        with tvm_ffi.use_raw_stream(CUDA0, 0x40):
            raise KeyError("x")
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_null_c_void_p_and_stream_context_directly():
    with tvm_ffi.StreamContext(CUDA0, 0x50):
        with tvm_ffi.use_raw_stream(CUDA0, ctypes.c_void_p(None)):
            assert tvm_ffi.get_raw_stream(CUDA0) == 0
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x50
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_raw_stream_rejects_other_types():
    with pytest.raises(ValueError, match="int or ctypes.c_void_p stream handle, got str"):
        tvm_ffi.use_raw_stream(CUDA0, "0x10")
    with pytest.raises(ValueError, match="got float"):
        tvm_ffi.use_raw_stream(CUDA0, 1.5)


def test_streams_are_per_thread():
    seen = []
    with tvm_ffi.use_raw_stream(CUDA0, 0x60):
        th = threading.Thread(target=lambda: seen.append(tvm_ffi.get_raw_stream(CUDA0)))
        th.start()
        th.join()
    assert seen == [0]


def test_kernel_sees_the_stream():
    with tvm_ffi.use_raw_stream(CUDA0, 0x70):
        assert t.env_get_stream(2, 0) == 0x70
    assert t.env_get_stream(2, 0) == 0


def test_use_torch_stream_without_torch_raises_import_error():
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import tvm_ffi\n"
        "try:\n"
        "    tvm_ffi.use_torch_stream()\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ImportError: use_torch_stream needs torch, which cannot be imported", out.stderr


def test_names_are_exported_lazily():
    code = (
        "import sys, tvm_ffi\n"
        "assert 'tvm_ffi.stream' not in sys.modules\n"
        "from tvm_ffi import StreamContext, use_raw_stream, use_torch_stream, get_raw_stream\n"
        "assert 'tvm_ffi.stream' in sys.modules\n"
        "assert set(['StreamContext', 'use_raw_stream', 'use_torch_stream', 'get_raw_stream']) <= set(tvm_ffi.__all__)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr
