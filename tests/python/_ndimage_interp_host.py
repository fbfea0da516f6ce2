"""Runs cuarray.scipy.ndimage's interpolation and Fourier filters without a GPU: their generated kernels compiled
for the host with g++, NumPy in place of cuarray.

The kernels are grid-stride loops, so one "thread" (block 0 of one, thread 0 of one) runs a whole launch, in
order, as on one stream. Array arguments pass the address of their first element, as cuarray's do, so strided
and reversed views work as on the device.
"""
import contextlib
import ctypes
import hashlib
import types

import numpy

from _host_build import compiler, load_library  # noqa: F401 (compiler: the tests' skip markers)

SHIM = r"""
#include <math.h>
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
struct ca_dim3 { unsigned x, y, z; };
static ca_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {1, 1, 1};
struct float2 { float x, y; };
struct double2 { double x, y; };
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __dadd_rn(double a, double b) { return a + b; }
"""

_libs = {}


def _struct_arg(v):
    """A ctypes struct, by value, holding the doubles of the structured scalar v (one float64 array field)."""
    n = v.dtype.itemsize // 8
    cls = type("ca_params", (ctypes.Structure,), {"_fields_": [("v", ctypes.c_double * n)]})
    s = cls()
    ctypes.memmove(ctypes.addressof(s), v.tobytes(), ctypes.sizeof(s))
    return s


class HostKernel:
    """A kernel's CUDA source built as a shared library; called as a RawKernel (grid and block ignored)."""

    def __init__(self, source, name):
        key = hashlib.sha1(source.encode()).hexdigest()
        lib = _libs.get(key)
        if lib is None:
            # -ffp-contract=off: no FMA contraction, as SciPy's x86-64 build and the kernels' __dmul_rn/__dadd_rn.
            lib = _libs[key] = load_library(SHIM + source, ("-ffp-contract=off",), context=source)
        self.fn = getattr(lib, name)
        self.fn.restype = None

    def __call__(self, grid, block, args):
        conv = []
        for a in args:
            if isinstance(a, numpy.ndarray):
                conv.append(ctypes.c_void_p(a.__array_interface__['data'][0]))
            elif isinstance(a, numpy.int64):
                conv.append(ctypes.c_longlong(int(a)))
            elif isinstance(a, numpy.float64):
                conv.append(ctypes.c_double(float(a)))
            elif isinstance(a, numpy.uint64):
                conv.append(ctypes.c_void_p(int(a)))
            elif isinstance(a, numpy.void):
                conv.append(_struct_arg(a))
            else:
                raise TypeError(type(a))
        self.fn(*conv)


def _numpy_namespace():
    return types.SimpleNamespace(**{n: getattr(numpy, n) for n in dir(numpy) if not n.startswith('__')})


@contextlib.contextmanager
def host_interpolation(chunk=None):
    """cuarray.scipy.ndimage with the interpolation and Fourier kernels on the host; yields the module. `chunk`
    overrides the prefilter's chunk length so that short lines take the warm-up path of Note [spline
    prefilter]."""
    import cuarray.scipy.ndimage as ndi
    from cuarray.scipy.ndimage import _fourier, _interp_kernels, _interpolation, _util

    saved = [(_interpolation, '_cp', _interpolation._cp), (_fourier, '_cp', _fourier._cp),
             (_util, '_core', _util._core), (_interp_kernels, 'RawKernel', _interp_kernels.RawKernel),
             (_interp_kernels, '_cache', _interp_kernels._cache), (_interpolation, '_CHUNK', _interpolation._CHUNK)]
    try:
        if chunk is not None:
            _interpolation._CHUNK = chunk
        ns = _numpy_namespace()
        _interpolation._cp = ns
        _fourier._cp = ns
        _util._core = types.SimpleNamespace(ndarray=numpy.ndarray)
        _interp_kernels.RawKernel = HostKernel
        _interp_kernels._cache = {}
        yield ndi
    finally:
        for m, n, v in saved:
            setattr(m, n, v)
