"""The Rust target of ``tvm-ffi-stubgen``: `#[repr(C)]` mirrors or getter-backed handles."""
from .generator import RustGenerator

__all__ = ["RustGenerator"]
