"""cuarray.exceptions: NumPy's exception and warning classes (the same class objects) and cuarray's own errors.

``except numpy.exceptions.AxisError`` catches cuarray's AxisError and the other way round: they are one class.
cuarray's own: ``OutOfMemoryError`` (a MemoryError: a device allocation failed after the pool freed its cached
blocks; ``.details`` is (requested, used, total, limit) in bytes), ``CUDARuntimeError`` (a RuntimeError: a CUDA
call failed or no device is available; ``.status`` is the CUDA error code) and ``CompileException`` (NVRTC
rejected a kernel; ``.log``, ``.source``, ``.options``, ``.name``). They are also at their CuPy places:
cuarray.cuda.memory.OutOfMemoryError, cuarray.cuda.runtime.CUDARuntimeError,
cuarray.cuda.compiler.CompileException. ``PerformanceWarning`` (a RuntimeWarning, CuPy's
cupy._util.PerformanceWarning) warns of a slow path, such as an operand read from another device over peer access.
"""
from numpy.exceptions import (  # noqa: F401 - re-exported, the very classes NumPy raises
    AxisError, ComplexWarning, DTypePromotionError, ModuleDeprecationWarning, RankWarning, TooHardError,
    VisibleDeprecationWarning)

from cuarray._core import CompileException, CUDARuntimeError, OutOfMemoryError  # noqa: F401
from cuarray._core import PerformanceWarning  # noqa: F401 - a RuntimeWarning, as cupy._util.PerformanceWarning

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning", "RankWarning",
           "TooHardError", "VisibleDeprecationWarning", "CompileException", "CUDARuntimeError", "OutOfMemoryError",
           "PerformanceWarning"]
