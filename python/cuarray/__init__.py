"""cuarray: NumPy-compatible arrays on NVIDIA GPUs, a drop-in for CuPy (``import cuarray as cp``)."""
import numpy

from cuarray import _libpaths  # noqa: F401 - first: tells the library loader where the nvidia-* wheels are
from cuarray import _core
from cuarray import _dispatch
from cuarray import cuda
from cuarray._core import ndarray
from cuarray._creation import (
    arange, array, asanyarray, asarray, ascontiguousarray, asfortranarray, asnumpy, copy, empty, empty_like,
    eye, from_dlpack, frombuffer, fromfile, fromiter, fromstring, full, full_like, genfromtxt, geomspace,
    get_array_module, identity, linspace, loadtxt, logspace, ones, ones_like, zeros, zeros_like)
from cuarray.cuda.memory import get_default_memory_pool
from cuarray.cuda.pinned_memory import get_default_pinned_memory_pool
from cuarray import profiler
from cuarray import random  # noqa: E402,F401
from cuarray import fft  # noqa: E402 - cuarray.fft (cuFFT)
from cuarray import linalg  # noqa: E402 - cuarray.linalg (cuSOLVER)
from cuarray._kernel import RawKernel, RawModule
from cuarray._elementwise import ElementwiseKernel
from cuarray._reduction import ReductionKernel
from cuarray._fusion import fuse
from cuarray._elementwise_funcs import *  # noqa: F401,F403 - clip, where, round, real, imag, ...
from cuarray._index_funcs import *  # noqa: F401,F403 - diagonal, tril, indices, ravel_multi_index, select, choose, ...
from cuarray._core import (  # noqa: F401 - reductions
    all, amax, amin, any, argmax, argmin, count_nonzero, max, mean, min, nanargmax, nanargmin, nanmax, nanmean, nanmin,
    nanprod, nanstd, nansum, nanvar, prod, ptp, std, sum, var)
from cuarray._core import (  # noqa: F401 - scans and differences
    cumprod, cumsum, cumulative_prod, cumulative_sum, diff, ediff1d, gradient, nancumprod, nancumsum)
from cuarray._core import argwhere, extract, flatnonzero, nonzero  # noqa: F401 - selection
from cuarray._core import (  # noqa: F401 - matrix and tensor products, TF32 control
    cross, dot, einsum, einsum_path, inner, kron, matmul, outer, set_tf32_enabled, tensordot, tf32, tf32_enabled,
    trace, vdot, vecdot)
from cuarray._core import (  # noqa: F401 - counting
    bincount, histogram, histogram2d, histogram_bin_edges, histogramdd)
from cuarray._core import (  # noqa: F401 - sorting, searching, set operations
    argpartition, argsort, digitize, in1d, intersect1d, isin, lexsort, partition, searchsorted, setdiff1d, setxor1d,
    sort, sort_complex, union1d, unique, unique_all, unique_counts, unique_inverse, unique_values)
from cuarray._core import (  # noqa: F401 - order statistics, averages, correlations
    average, convolve, corrcoef, correlate, cov, median, nanmedian, nanpercentile, nanquantile, percentile, quantile,
    trapezoid)

from cuarray._core import (  # noqa: F401 - array manipulation
    append, array_split, atleast_1d, atleast_2d, atleast_3d, block, broadcast_arrays, broadcast_shapes, broadcast_to,
    column_stack, concatenate, delete, dsplit, dstack, expand_dims, flip, fliplr, flipud, hsplit, hstack, insert,
    matrix_transpose, meshgrid, moveaxis, pad, permute_dims, ravel, repeat, reshape, resize, roll, rollaxis, rot90,
    row_stack, split, squeeze, stack, swapaxes, tile, transpose, trim_zeros, unstack, vsplit, vstack)

__version__ = "0.1.0"

# NumPy's scalar types and dtype class are cuarray's (``cuarray.float32 is numpy.float32``).
from numpy import (  # noqa: E402
    bool_, byte, cdouble, complex64, complex128, csingle, double, dtype, float16, float32, float64, half,
    int8, int16, int32, int64, intc, intp, longlong, short, single, ubyte, uint, uint8, uint16, uint32,
    uint64, uintc, uintp, ulonglong, ushort, e, euler_gamma, inf, nan, newaxis, pi, finfo, iinfo,
    can_cast, promote_types, result_type, min_scalar_type, issubdtype, generic, number, integer,
    signedinteger, unsignedinteger, floating, complexfloating, inexact)

bool = numpy.bool  # noqa: A001 - NumPy 2's name
int_ = numpy.int_
float_ = numpy.float64
complex_ = numpy.complex128


# Universal functions: one object per NumPy ufunc (and alias), e.g. cuarray.add, cuarray.sin.
ufunc = _core.ufunc
for _name in _core.ufunc_names():
    globals()[_name] = _core.get_ufunc(_name)
del _name


def is_available():
    """Whether a CUDA device can be used (False without a driver or device; never raises)."""
    return _core.is_available()


def _ndarray_iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    for i in range(self.shape[0]):
        yield self[i]


def _ndarray_reduce(self):
    return (array, (self.get(),))


ndarray.__array_ufunc__ = _dispatch.array_ufunc
ndarray.__array_function__ = _dispatch.array_function
ndarray.__iter__ = _ndarray_iter
ndarray.__reduce__ = _ndarray_reduce
ndarray.__hash__ = None
ndarray.__array_priority__ = 100
ndarray.device = property(lambda self: cuda.Device(self._device_id))
ndarray.__module__ = "cuarray"
from cuarray._core import (  # noqa: F401,E402 - indexing functions
    compress, place, put, put_along_axis, putmask, take, take_along_axis)
from cuarray import _indexing  # noqa: F401,E402 - ndarray.flat
# Signatures (issue 15): inspect.signature and help() see the bindings' NumPy-style parameters.
from cuarray import _signature  # noqa: E402
_signature.install(_core)
# I/O, printing, DLPack names, error state and warnings, modules (issue 16: io/print, modules, ndarray, warnings).
from cuarray._io import (  # noqa: F401,E402 - through NumPy on the host: these move data
    array2string, array_repr, array_str, base_repr, binary_repr, format_float_positional, format_float_scientific,
    get_printoptions, load, printoptions, save, savetxt, savez, savez_compressed, set_printoptions)
from cuarray._dlpack import fromDlpack  # noqa: F401,E402 - ndarray.toDlpack, ndarray.__dlpack__(dl_device=CPU)
from cuarray._errstate import errstate, geterr, geterrcall, seterr, seterrcall  # noqa: F401,E402
from cuarray._errstate import nanmax, nanmin  # noqa: F401,E402 - with NumPy's all-NaN RuntimeWarning
from cuarray import exceptions, lib, typing  # noqa: F401,E402
from cuarray.exceptions import (  # noqa: F401,E402 - CuPy keeps these at its top level too
    AxisError, ComplexWarning, ModuleDeprecationWarning, RankWarning, TooHardError, VisibleDeprecationWarning)
from numpy import iterable, long, mintypecode, typename, ulong  # noqa: F401,E402 - type helpers CuPy takes from NumPy
from cuarray._show_config import show_config  # noqa: F401,E402
# The Array API standard 2024.12 (issue 15): __array_api_version__, __array_namespace_info__, ndarray.to_device and
# ndarray.__array_namespace__, the standard's names NumPy 2 has, and dtype helpers that take cuarray arrays.
from cuarray._array_api import (  # noqa: E402,F401
    __array_api_version__, __array_namespace_info__, astype, can_cast, concat, finfo, iinfo, isdtype, result_type)
# Polynomials (issue 16): NumPy's poly1d API at the top level and the cuarray.polynomial package.
from cuarray._polynomial import (  # noqa: E402,F401
    poly, poly1d, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, polyval, roots)
from cuarray import polynomial  # noqa: E402,F401
# cuarray.jit (issue 18): CUDA kernels written in Python; vectorize (issue 16) compiles through it.
from cuarray import jit  # noqa: E402,F401
from cuarray._vectorize import vectorize  # noqa: E402,F401
# NumPy's composite routines (issue 16: functional and shape helpers, creation and indexing, logic and math).
from cuarray._indexing import flatiter  # noqa: F401,E402 - the class of ndarray.flat
from cuarray._numpy_extras import (  # noqa: F401,E402
    allclose, apply_along_axis, apply_over_axes, array_equal, array_equiv, asarray_chkfinite, bartlett, blackman,
    broadcast, byte_bounds, common_type, hamming, hanning, interp, isclose, isfortran, isneginf, isposinf, isscalar,
    kaiser, may_share_memory, ndim, ndindex, packbits, piecewise, real_if_close, require, shape, shares_memory, size,
    unpackbits, unwrap, who)
from cuarray._index_tricks import (  # noqa: F401,E402
    c_, diag_indices, diag_indices_from, fromfunction, index_exp, mgrid, ogrid, r_, s_, tri, vander)
from cuarray.lib import array_utils as _array_utils  # noqa: E402 - cuarray.lib.array_utils.byte_bounds
del _array_utils
# CuPy's cupyx top level (issue 17): pinned NumPy arrays, scatter operations (also ndarray methods), rsqrt,
# allow_synchronize, get_runtime_info, cuarray.time.
from cuarray._pinned_array import empty_like_pinned, empty_pinned, zeros_like_pinned, zeros_pinned  # noqa: E402,F401
from cuarray._scatter import scatter_add, scatter_max, scatter_min  # noqa: E402,F401
from cuarray._rsqrt import rsqrt  # noqa: E402,F401
from cuarray._syncdetect import DeviceSynchronized, allow_synchronize  # noqa: E402,F401
from cuarray._runtime_info import get_runtime_info  # noqa: E402,F401
from cuarray import time  # noqa: E402,F401
ndarray.scatter_add = scatter_add
ndarray.scatter_max = scatter_max
ndarray.scatter_min = scatter_min
# Typing (issue 22): the ufuncs made in the loop above, named for type checkers by a stub (tools/gen_stubs.sh).
from typing import TYPE_CHECKING as _TYPE_CHECKING  # noqa: E402
if _TYPE_CHECKING:
    from cuarray._ufunc_names import *  # noqa: F401,F403
# Dask (issue 21): cuarray.ndarray as a dask.array chunk type; registers with dask when dask.array loads.
from cuarray import _dask as _dask  # noqa: E402,F401
# Multi-GPU (issue 21): the warning of an operand read from another device over peer access.
from cuarray.exceptions import PerformanceWarning  # noqa: E402,F401
