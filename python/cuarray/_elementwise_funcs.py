"""NumPy's elementwise non-ufunc functions (clip, where, round, real, imag, ...), implemented in C++ (_core)."""
from cuarray._core import (  # noqa: F401
    angle, around, clip, copyto, fix, i0, imag, iscomplex, iscomplexobj, isreal, isrealobj, nan_to_num, real,
    round, sinc, where)

__all__ = ["angle", "around", "clip", "copyto", "fix", "i0", "imag", "iscomplex", "iscomplexobj", "isreal",
           "isrealobj", "nan_to_num", "real", "round", "sinc", "where"]
