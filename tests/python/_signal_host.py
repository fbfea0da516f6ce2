"""Runs cuarray.scipy.signal without a GPU: its generated kernels compiled for the host, NumPy in place of cuarray.

The kernels are grid-stride loops, so one "thread" (blockIdx 0, threadIdx 0, one block of one thread) runs a
whole launch; launches run in order, as on one stream. The module's array calls go to NumPy through a namespace
whose `ndarray` matches nothing (so host inputs take the asarray path the GPU code takes for host data).
"""
import contextlib
import ctypes
import hashlib
import types

import numpy

from _host_build import compiler, load_library  # noqa: F401 (compiler: the tests' skip markers)

SHIM = r"""
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
struct ca_dim3 { unsigned x, y, z; };
static ca_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {1, 1, 1};
"""

_libs = {}


class _HostKernel:
    def __init__(self, source, name):
        key = hashlib.sha1(source.encode()).hexdigest()
        lib = _libs.get(key)
        if lib is None:
            lib = _libs[key] = load_library(SHIM + source)
        self.fn = getattr(lib, name)

    def __call__(self, grid, block, args):
        conv = []
        for a in args:
            if isinstance(a, numpy.ndarray):
                assert a.flags.c_contiguous, "kernel argument must be C-contiguous"
                conv.append(ctypes.c_void_p(a.ctypes.data))
            elif isinstance(a, numpy.int64):
                conv.append(ctypes.c_longlong(int(a)))
            elif isinstance(a, numpy.int32):
                conv.append(ctypes.c_int(int(a)))
            elif isinstance(a, (numpy.float64, float)):
                conv.append(ctypes.c_double(float(a)))
            elif isinstance(a, numpy.uint64):
                conv.append(ctypes.c_void_p(int(a)))
            else:
                raise TypeError(type(a))
        self.fn(*conv)


class _NoArray:
    pass


def _numpy_namespace():
    ns = types.SimpleNamespace(**{n: getattr(numpy, n) for n in dir(numpy) if not n.startswith('__')})
    ns.ndarray = _NoArray
    return ns


@contextlib.contextmanager
def host_signal(chunk=None, block_min=None):
    """cuarray.scipy.signal with its device calls on the host; yields the module. `chunk` overrides the IIR
    scan's chunk length, so that short signals walk every level of Note [IIR block scan]; `block_min` the
    shortest overlap-save block, so that short signals take Note [overlap-save convolution] in many blocks."""
    import cuarray.scipy.signal as sig
    from cuarray.scipy.signal import _conv, _filter, _kernels, _misc
    from cuarray.scipy.signal.windows import _windows

    ns = _numpy_namespace()
    saved = [(m, '_cp', m._cp) for m in (_conv, _filter, _misc, _windows)]
    saved += [(m, '_fft', m._fft) for m in (_conv, _misc)]
    saved += [(_kernels, n, getattr(_kernels, n)) for n in ('conv_kernel', 'median_kernel', 'iir_kernels')]
    saved += [(_kernels, '_cache', _kernels._cache), (_filter, '_CHUNK', _filter._CHUNK)]
    saved += [(_conv, n, getattr(_conv, n)) for n in ('os_kernel', 'BLOCK_MIN')]
    try:
        if chunk is not None:
            _filter._CHUNK = chunk
        if block_min is not None:
            _conv.BLOCK_MIN = block_min
        _conv.os_kernel = lambda dt, role, name: _HostKernel(_conv.os_source(dt, role), name)
        for m in (_conv, _filter, _misc, _windows):
            m._cp = ns
        for m in (_conv, _misc):
            m._fft = numpy.fft
        _kernels.conv_kernel = lambda nd, dt: _HostKernel(_kernels.conv_source(nd, dt), 'ca_sig_conv')
        _kernels.median_kernel = lambda nd, dt, K: _HostKernel(_kernels.median_source(nd, dt, K), 'ca_sig_median')
        _kernels.iir_kernels = lambda N, dt: tuple(_HostKernel(_kernels.iir_source(N, dt), n)
                                                   for n in _kernels.IIR_NAMES)
        yield sig
    finally:
        for m, n, v in saved:
            setattr(m, n, v)
