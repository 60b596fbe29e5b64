"""dtype: a str subclass that also carries the parsed DLPack data type."""
from . import core


# (name, DLPack code) of DataTypeCode, an IntEnum made on first use (enum
# is not imported by `import tvm_ffi`).
_TYPE_CODES = (
    ("INT", 0),
    ("UINT", 1),
    ("FLOAT", 2),
    ("HANDLE", 3),
    ("BFLOAT", 4),
    ("BOOL", 6),
    ("Float8E3M4", 7),
    ("Float8E4M3", 8),
    ("Float8E4M3B11FNUZ", 9),
    ("Float8E4M3FN", 10),
    ("Float8E4M3FNUZ", 11),
    ("Float8E5M2", 12),
    ("Float8E5M2FNUZ", 13),
    ("Float8E8M0FNU", 14),
    ("Float6E2M3FN", 15),
    ("Float6E3M2FN", 16),
    ("Float4E2M1FN", 17),
)
_BOOL, _INT, _UINT, _HANDLE = 6, 0, 1, 3


def __getattr__(name):
    if name == "DataTypeCode":
        from enum import IntEnum

        cls = IntEnum("DataTypeCode", _TYPE_CODES, module=__name__)
        cls.__doc__ = "DLPack data type codes."
        globals()["DataTypeCode"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_FLOAT_CODES = frozenset([2, 4] + list(range(7, 18)))


class dtype(str):
    """A data type name such as ``"float32"`` or ``"int8x4"``.

    It is a ``str`` (so numpy takes it) and parses on construction: a bad
    name raises ValueError.  The text is kept as given (``dtype("f32")``
    stays ``"f32"``), and ``type_code``, ``bits``, ``lanes`` and
    ``itemsize`` describe it.
    """

    __slots__ = ("_tvm_ffi_dtype",)

    def __new__(cls, content):
        text = str(content)
        val = str.__new__(cls, text)
        val._tvm_ffi_dtype = core.DataType(text)
        return val

    def __repr__(self):
        return f"dtype('{str(self)}')"

    def __reduce__(self):
        return (type(self), (str(self),))

    @property
    def type_code(self) -> int:
        return self._tvm_ffi_dtype.type_code

    @property
    def bits(self) -> int:
        return self._tvm_ffi_dtype.bits

    @property
    def lanes(self) -> int:
        return self._tvm_ffi_dtype.lanes

    @property
    def itemsize(self) -> int:
        lanes = self.lanes
        if lanes < 0:
            raise ValueError(f"itemsize of scalable vector dtype {str(self)!r} is not fixed")
        return (self.bits * lanes + 7) // 8

    @property
    def is_bool(self) -> bool:
        return self.type_code == _BOOL

    @property
    def is_integer(self) -> bool:
        return self.type_code in (_INT, _UINT)

    @property
    def is_float(self) -> bool:
        return self.type_code in _FLOAT_CODES

    @property
    def is_handle(self) -> bool:
        return self.type_code == _HANDLE

    def with_lanes(self, lanes: int) -> "dtype":
        """The same element type with ``lanes`` lanes."""
        return type(self).from_dlpack_data_type((self.type_code, self.bits, lanes))

    @classmethod
    def from_dlpack_data_type(cls, triple) -> "dtype":
        """A dtype from a DLPack ``(code, bits, lanes)`` triple."""
        code, bits, lanes = triple
        return cls(str(core._datatype_from_triple(code, bits, lanes)))

    @staticmethod
    def is_dtype(value) -> bool:
        return isinstance(value, dtype)


core._set_class("dtype", dtype)


# The named dtypes upstream's package exports (``tvm_ffi.float32`` ...).
# ``bool`` shadows the builtin here only; this module uses it nowhere else.
_NAMED = (
    "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float64 float32 float16 "
    "bfloat16 float8_e3m4 float8_e4m3 float8_e4m3b11fnuz float8_e4m3fn float8_e4m3fnuz "
    "float8_e5m2 float8_e5m2fnuz float8_e8m0fnu float6_e2m3fn float6_e3m2fn float4_e2m1fn "
    "float4_e2m1fnx2"
).split()
globals().update({_n: dtype(_n) for _n in _NAMED})
# The spelling torch uses (torch.float4_e2m1fn_x2) for a packed pair of fp4s; the
# same dtype as float4_e2m1fnx2 (upstream's _dtype has both names).
float4_e2m1fn_x2 = dtype("float4_e2m1fnx2")
