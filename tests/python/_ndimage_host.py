"""Runs cuarray.scipy.ndimage's generated kernels on the CPU: their CUDA source compiled by the host C++ compiler.

Every kernel steps its loops by gridDim and blockDim (Note [ndimage kernels]), so one "thread" (one block of one
thread) computes a whole launch; shared memory becomes function-static storage and barriers vanish. Arrays go in
by the address of their first element, so views (any strides, negative too) reach the kernels as on the GPU;
NumPy structured scalars (weights passed by value) go in as C structs by value.
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
#define __shared__ static
struct ca_dim3 { unsigned x, y, z; };
static const ca_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {1, 1, 1};
static inline void __syncthreads() {}
"""

_libs = {}
_CTYPE_OF = {numpy.dtype(numpy.float32): ctypes.c_float, numpy.dtype(numpy.float64): ctypes.c_double}


def _struct_arg(v):
    """A ctypes struct (by value) with the bytes of the structured NumPy scalar v (one array field)."""
    (name, (base, shape)), = [(n, v.dtype.fields[n][0].subdtype) for n in v.dtype.names]
    ctype = _CTYPE_OF[numpy.dtype(base)] * int(numpy.prod(shape))
    cls = type("ca_w", (ctypes.Structure,), {"_fields_": [(name, ctype)]})
    s = cls()
    ctypes.memmove(ctypes.addressof(s), v.tobytes(), ctypes.sizeof(s))
    return s


class HostKernel:
    """A kernel's CUDA source built as a shared library; called as a RawKernel (grid and block ignored)."""

    def __init__(self, source, name):
        key = hashlib.sha1(source.encode()).hexdigest()
        lib = _libs.get(key)
        if lib is None:
            lib = _libs[key] = load_library(SHIM + source, context=source)
        self.fn = getattr(lib, name)
        self.source = source

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        conv = []
        for a in args:
            if isinstance(a, numpy.ndarray):
                conv.append(ctypes.c_void_p(a.__array_interface__['data'][0]))
            elif isinstance(a, numpy.int64):
                conv.append(ctypes.c_longlong(int(a)))
            elif isinstance(a, numpy.int32):
                conv.append(ctypes.c_int(int(a)))
            elif isinstance(a, numpy.uint32):
                conv.append(ctypes.c_uint(int(a)))
            elif isinstance(a, numpy.float32):
                conv.append(ctypes.c_float(float(a)))
            elif isinstance(a, numpy.float64):
                conv.append(ctypes.c_double(float(a)))
            elif isinstance(a, numpy.uint64):
                conv.append(ctypes.c_void_p(int(a)))
            elif isinstance(a, numpy.void):
                conv.append(_struct_arg(a))
            else:
                raise TypeError(type(a))
        self.fn(*conv)


@contextlib.contextmanager
def host_ndimage():
    """cuarray.scipy.ndimage on NumPy arrays with its kernels run on the host; yields the module."""
    import cuarray.scipy.ndimage as ndi
    from cuarray.scipy.ndimage import _filters, _kernels, _util

    saved = [(_filters, '_cp', _filters._cp), (_util, '_core', _util._core),
             (_kernels, 'RawKernel', _kernels.RawKernel), (_kernels, '_cache', _kernels._cache)]
    try:
        _filters._cp = numpy
        _util._core = types.SimpleNamespace(ndarray=numpy.ndarray)
        _kernels.RawKernel = HostKernel
        _kernels._cache = {}
        yield ndi
    finally:
        for m, n, v in saved:
            setattr(m, n, v)
