"""scipy.signal's deconvolve, lfiltic and order_filter on cuarray."""
import numpy

import cuarray as _cp
from cuarray.scipy import ndimage as _ndi
from cuarray.scipy.signal import _conv
from cuarray.scipy.signal import _filter


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def deconvolve(signal, divisor):
    """Polynomial division of `signal` by `divisor` by inverse filtering (scipy.signal.deconvolve)."""
    num = _cp.asarray(signal)
    den = _cp.asarray(divisor)
    if num.ndim == 0:
        num = num.reshape(1)
    if den.ndim == 0:
        den = den.reshape(1)
    if not (num.ndim == 1 and num.size > 0):
        raise ValueError(f"Parameter signal must be non-empty 1d array, but its shape is {num.shape}!")
    if not (den.ndim == 1 and den.size > 0):
        raise ValueError(f"Parameter divisor must be non-empty 1d array, but its shape is {den.shape}!")
    N, D = num.shape[0], den.shape[0]
    if D > N:
        return [], num
    # The quotient is the impulse response of num/den, N - D + 1 samples long.
    impulse = numpy.zeros(N - D + 1)
    impulse[0] = 1
    quot = _filter.lfilter(num, den, _cp.asarray(impulse))
    rem = num - _conv.convolve(den, quot, mode='full')
    return quot, rem


def lfiltic(b, a, y, x=None):
    """Initial conditions for lfilter's transposed direct form II state, given past outputs and inputs
    (scipy.signal.lfiltic). The few coefficients are combined on the host; the state comes back on the device."""
    a = numpy.atleast_1d(_host(a))
    b = numpy.atleast_1d(_host(b))
    if a.ndim > 1:
        raise ValueError('Filter coefficients `a` must be 1-D.')
    if b.ndim > 1:
        raise ValueError('Filter coefficients `b` must be 1-D.')
    N, M = a.shape[0] - 1, b.shape[0] - 1
    K = max(M, N)
    y = _host(y)
    if N < 0:
        raise ValueError("There must be at least one `a` coefficient.")
    if x is None:
        rt = numpy.result_type(b, a, y)
        if rt.kind in 'biu':
            rt = numpy.dtype(numpy.float64)
        x = numpy.zeros(M, dtype=rt)
    else:
        x = _host(x)
        rt = numpy.result_type(b, a, y, x)
        if rt.kind in 'biu':
            rt = numpy.dtype(numpy.float64)
        x = numpy.ravel(x).astype(rt)
        if x.size < M:
            x = numpy.concatenate((x, numpy.zeros(M - x.size)))
    y = numpy.ravel(y).astype(rt)
    if y.size < N:
        y = numpy.concatenate((y, numpy.zeros(N - y.size)))
    zi = numpy.zeros(K, dtype=rt)
    for m in range(M):
        zi[m] = numpy.sum(b[m + 1:] * x[:M - m], axis=0)
    for m in range(N):
        zi[m] -= numpy.sum(a[m + 1:] * y[:N - m], axis=0)
    if a[0] != 1.:
        if a[0] == 0.:
            raise ValueError("First `a` filter coefficient must be non-zero.")
        zi /= a[0]
    return _cp.asarray(zi)


def order_filter(a, domain, rank):
    """Rank-order filter over the nonzero elements of `domain`, zero outside the array
    (scipy.signal.order_filter): ndimage.rank_filter with that footprint and mode 'constant'."""
    domain = numpy.asarray(_host(domain))
    for dimsize in domain.shape:
        if dimsize % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    a = _cp.asarray(a)
    dt = numpy.dtype(a.dtype)
    if not (dt.kind in 'iu' or dt in (numpy.float32, numpy.float64)):
        raise ValueError(f"dtype={dt} is not supported by order_filter")
    return _ndi.rank_filter(a, rank, footprint=domain, mode='constant')
