"""cuarray.scipy.ndimage Fourier-domain filters: fourier_gaussian, fourier_uniform, fourier_ellipsoid and
fourier_shift with scipy.ndimage's semantics (Note [ndimage Fourier filters])."""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.ndimage import _interp_kernels as _k
from cuarray.scipy.ndimage import _util

_THREADS = 256
_REAL_OUT = ('complex64', 'complex128', 'float32', 'float64')
_COMPLEX_OUT = ('complex64', 'complex128')


def _output(output, input, allowed, default):
    """(dtype, array or None): SciPy's _get_output_fourier(_complex) rules."""
    if output is None:
        return (input.dtype if input.dtype.name in allowed else numpy.dtype(default)), None
    if isinstance(output, (type, numpy.dtype, str)):
        dt = numpy.dtype(output)
        if dt.name not in allowed:
            raise RuntimeError("output type not supported")
        return dt, None
    if not isinstance(output, _util._core.ndarray):
        raise TypeError(f"output must be None, a dtype or a cuarray.ndarray, not {type(output).__name__}")
    if output.shape != input.shape:
        raise RuntimeError("output shape not correct")
    return output.dtype, output


def _frequencies(length, rfft):
    """The frequency index of each position along an axis: 0..len-1 along the rfft axis, else 0, 1, ..., -1."""
    k = numpy.arange(length, dtype=numpy.float64)
    if not rfft:
        k[(length + 1) // 2:] -= length
    return k


def _apply(kind, input, tables, dt, out):
    if input.dtype.name not in _util._CTYPES and input.dtype.kind != 'c':
        raise RuntimeError("data type not supported")
    if dt.name not in _REAL_OUT or (input.dtype.kind == 'c' and dt.kind != 'c'):
        raise RuntimeError("data type not supported")
    y = _cp.empty(input.shape, dt)
    if y.size:
        x = input
        if any(s % x.itemsize for s in x.strides):
            x = _cp.ascontiguousarray(x)
        strides = [s // x.itemsize for s in x.strides]
        bases = numpy.cumsum([0] + [len(t) for t in tables[:-1]])
        tab = _cp.asarray(numpy.ascontiguousarray(numpy.concatenate(tables), dtype=numpy.float64))
        kern = _k.fourier_kernel(kind, x.ndim, x.dtype, dt)
        dims = []
        for n, s, b in zip(x.shape, strides, bases):
            dims += [numpy.int64(n), numpy.int64(s), numpy.int64(b)]
        blocks = min((y.size + _THREADS - 1) // _THREADS, 1 << 30)
        kern((blocks,), (_THREADS,), (x, y, tab, numpy.int64(y.size), *dims))
    if out is None:
        return y
    out[...] = y
    return out


def _lengths(input, n, axis):
    """Per axis: (positions, rfft form, transform length) as SciPy's NI_FourierFilter sees them."""
    return [(d, k == axis and n >= 0, (n if n >= 0 else d) if k == axis else d) for k, d in enumerate(input.shape)]


def _div(a, b):
    """a / b in C's double arithmetic (inf or nan for b == 0)."""
    with numpy.errstate(all='ignore'):
        return float(numpy.float64(a) / numpy.float64(b))


def _common(input, param, n, axis, output, allowed, default, checked=None):
    input = _util.check_input(input)
    dt, out = _output(output, input, allowed, default) if checked is None else checked
    axis = _util.normalize_axis(axis, input.ndim)
    params = numpy.asarray(_util.normalize_sequence(param, input.ndim), dtype=numpy.float64)
    return input, dt, out, axis, params, int(n)


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """Multiply a Fourier transform by a Gaussian's transform (scipy.ndimage.fourier_gaussian)."""
    input, dt, out, axis, sigmas, n = _common(input, sigma, n, axis, output, _REAL_OUT, numpy.float64)
    tables = []
    with numpy.errstate(all='ignore'):
        for (d, rfft, length), s in zip(_lengths(input, n, axis), sigmas):
            if d <= 1:
                tables.append(numpy.ones(d))
                continue
            a = _div(s * math.pi, length)
            a = -2.0 * a * a
            e = (a * _frequencies(d, rfft)) * _frequencies(d, rfft)
            tables.append(numpy.where(numpy.abs(e) > 50.0, 0.0, numpy.exp(e)))
    return _apply('product', input, tables, dt, out)


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """Multiply a Fourier transform by a box filter's transform (scipy.ndimage.fourier_uniform)."""
    input, dt, out, axis, sizes, n = _common(input, size, n, axis, output, _REAL_OUT, numpy.float64)
    tables = []
    with numpy.errstate(all='ignore'):
        for (d, rfft, length), s in zip(_lengths(input, n, axis), sizes):
            if d <= 1:
                tables.append(numpy.ones(d))
                continue
            a = _div(math.pi * s, length)
            arg = a * _frequencies(d, rfft)
            t = numpy.where(a > 0.0, numpy.sin(arg) / arg, 0.0)
            t[0] = 1.0
            tables.append(t)
    return _apply('product', input, tables, dt, out)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """Multiply a Fourier transform by an ellipsoid's (box in 1-d, disk in 2-d, ball in 3-d) transform
    (scipy.ndimage.fourier_ellipsoid)."""
    input = _util.check_input(input)
    if input.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    dt, out = _output(output, input, _REAL_OUT, numpy.float64)
    if input.size == 0:
        return out if out is not None else _cp.empty(input.shape, dt)
    input, dt, out, axis, sizes, n = _common(input, size, n, axis, None, _REAL_OUT, numpy.float64, (dt, out))
    tables = []
    with numpy.errstate(all='ignore'):
        for (d, rfft, length), s in zip(_lengths(input, n, axis), sizes):
            a = _div(math.pi * s, length)
            t = _frequencies(d, rfft) * a
            tables.append(t * t if input.ndim > 1 else t)
    return _apply('ellipsoid', input, tables, dt, out)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """Multiply a Fourier transform by a shift's phase ramp (scipy.ndimage.fourier_shift); the result is
    complex."""
    input, dt, out, axis, shifts, n = _common(input, shift, n, axis, output, _COMPLEX_OUT, numpy.complex128)
    if dt.kind != 'c':
        raise RuntimeError("data type not supported")
    tables = []
    with numpy.errstate(all='ignore'):
        for (d, rfft, length), s in zip(_lengths(input, n, axis), shifts):
            if d <= 1:
                tables.append(numpy.zeros(d))
                continue
            a = _div(-2.0 * math.pi * s, length)
            tables.append(a * _frequencies(d, rfft))
    return _apply('shift', input, tables, dt, out)
