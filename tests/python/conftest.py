"""Shared helpers for the tvm_ffi Python tests."""
import gc

import pytest

import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (loads the testing.* functions)


@pytest.fixture
def testing():
    return tvm_ffi.testing


def collect():
    """Run the cycle collector until nothing more is freed."""
    while gc.collect():
        pass
