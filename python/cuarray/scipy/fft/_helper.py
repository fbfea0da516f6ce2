"""Argument rules shared by cuarray.scipy.fft and cuarray.scipy.fftpack: SciPy's dtype, norm, n/s and axes checks,
the workers setting (kept for SciPy compatibility, without effect on the GPU) and cuFFT's fast lengths."""
import contextlib
import operator
import os
import threading

import numpy

import cuarray as _cp

_NORMS = (None, "backward", "ortho", "forward")


def check_norm(norm):
    if norm not in _NORMS:
        raise ValueError('Invalid norm value {!r}, should be "backward", "ortho" or "forward"'.format(norm))
    return "backward" if norm is None else norm


def swap_norm(norm):
    """The norm of the opposite direction: hfft is irfft of the conjugate with the scaling moved."""
    norm = check_norm(norm)
    return {"backward": "forward", "forward": "backward"}.get(norm, norm)


def as_array(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def as_float(x):
    """SciPy's _asfarray: float16 computes in float32, integers and bool in float64; other floating and complex
    types keep their precision."""
    x = as_array(x)
    if x.dtype == numpy.float16:
        return x.astype(numpy.float32)
    if x.dtype.kind in "fc":
        return x
    return x.astype(numpy.float64)


def check_n(n):
    """A transform length: an integer (TypeError otherwise) of at least 1 (ValueError)."""
    n = operator.index(n)
    if n < 1:
        raise ValueError("invalid number of data points ({}) specified".format(n))
    return n


def axis_length(x, axis):
    """x.shape[axis], with SciPy's IndexError for an axis beyond the array (0-d arrays included)."""
    return x.shape[operator.index(axis)]


def resize(x, n, axis):
    """x cut or zero-padded to n along axis (x itself when the length already is n)."""
    axis = operator.index(axis) % x.ndim
    m = x.shape[axis]
    if n == m:
        return x
    if n < m:
        index = [slice(None)] * x.ndim
        index[axis] = slice(0, n)
        return x[tuple(index)]
    pad_shape = list(x.shape)
    pad_shape[axis] = n - m
    return _cp.concatenate([x, _cp.zeros(pad_shape, dtype=x.dtype)], axis=axis)


def _int_list(v):
    if numpy.ndim(v) == 0:
        return [operator.index(v)]
    return [operator.index(k) for k in v]


def nd_shape_and_axes(x, s, axes):
    """SciPy's _init_nd_shape_and_axes: the transform lengths and normalised, unique axes; s without axes names
    the last len(s) axes; -1 in s keeps the input's length."""
    ndim = x.ndim
    if axes is not None:
        axes = _int_list(axes)
        for a in axes:
            if a < -ndim or a >= ndim:
                raise ValueError("axes exceeds dimensionality of input")
        axes = [a % ndim for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if s is not None:
        s = _int_list(s)
        if axes is None:
            if len(s) > ndim:
                raise ValueError("shape requires more axes than are present")
            axes = list(range(ndim - len(s), ndim))
        elif len(s) != len(axes):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
        s = [x.shape[a] if k == -1 else k for k, a in zip(s, axes)]
    else:
        if axes is None:
            axes = list(range(ndim))
        s = [x.shape[a] for a in axes]
    if any(k < 1 for k in s):
        raise ValueError("invalid number of data points ({}) specified".format(s))
    return s, axes


def fftpack_shape_and_axes(x, shape, axes):
    """scipy.fftpack's rule: axes default to all of x's, and shape, when given, must name one length per axis."""
    if shape is not None and axes is None:
        if len(_int_list(shape)) != x.ndim:
            raise ValueError("when given, axes and shape arguments have to be of the same length")
        axes = list(range(x.ndim))
    return nd_shape_and_axes(x, shape, axes)


# ---- workers ----------------------------------------------------------------------------------------------------
# SciPy's pocketfft uses `workers` threads; cuFFT runs on the GPU, so the value is validated and remembered as
# SciPy does (get_workers/set_workers), and changes nothing about how a transform runs.

_state = threading.local()


def check_workers(workers):
    if workers is None:
        return get_workers()
    workers = operator.index(workers)
    if workers == 0:
        raise ValueError("workers must not be zero")
    if workers < 0:
        cpus = os.cpu_count() or 1
        if workers < -cpus:
            raise ValueError("workers value out of range; got {}, must not be less than {}".format(workers, -cpus))
        workers += 1 + cpus
    return workers


def get_workers():
    """The default `workers` of this thread (1 unless set_workers is active). It has no effect on the GPU."""
    return getattr(_state, "workers", 1)


@contextlib.contextmanager
def set_workers(workers):
    """Context manager for the default `workers` (SciPy's set_workers). cuFFT runs on the GPU: the value is
    checked and reported by get_workers, and does not change how transforms run."""
    old = get_workers()
    _state.workers = check_workers(workers)
    try:
        yield
    finally:
        _state.workers = old


# ---- fast lengths -----------------------------------------------------------------------------------------------

def _smooth(n, primes):
    for p in primes:
        while n % p == 0:
            n //= p
    return n == 1


def _target(target):
    target = operator.index(target)
    if target < 0:
        raise ValueError("Target length must be positive")
    return target


def next_fast_len(target, real=False):
    """The smallest length >= target that cuFFT transforms fastest: a product of 2, 3, 5 and 7 (CuPy's rule;
    SciPy's pocketfft prefers 11-smooth lengths for complex input). `real` is accepted for SciPy's signature:
    cuFFT's fast lengths are the same for real transforms. 0 for target 0."""
    target = _target(target)
    n = target
    while n > 0 and not _smooth(n, (2, 3, 5, 7)):
        n += 1
    return n


def prev_fast_len(target, real=False):
    """The largest length <= target that is a product of 2, 3, 5 and 7 (see next_fast_len); 0 for target 0."""
    target = _target(target)
    n = target
    while n > 0 and not _smooth(n, (2, 3, 5, 7)):
        n -= 1
    return n


def next_regular_len(target):
    """scipy.fftpack.next_fast_len: the smallest 5-smooth length >= target."""
    target = _target(target)
    n = target
    while n > 0 and not _smooth(n, (2, 3, 5)):
        n += 1
    return n
