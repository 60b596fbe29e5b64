"""The Python target of ``tvm-ffi-stubgen``."""
from .generator import PythonGenerator

__all__ = ["PythonGenerator"]
