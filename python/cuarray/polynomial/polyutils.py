"""numpy.polynomial.polyutils' series helpers (as_series, trimseq, trimcoef) on cuarray arrays."""
import operator

import numpy

__all__ = ['as_series', 'trimcoef', 'trimseq']


def _as_int(x, desc):
    """NumPy's check that a degree is an integer (operator.index), with its message."""
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f'{desc} must be an integer, received {x}') from e


def _last_nonzero(a, tol=None):
    """The index of the last element of the 1-d array `a` that is nonzero (|a| > tol), or -1 (read on the host)."""
    h = a.get()
    nz = numpy.flatnonzero(h != 0 if tol is None else numpy.abs(h) > tol)
    return int(nz[-1]) if nz.size else -1


def trimseq(seq):
    """`seq` without trailing zeros, keeping at least one coefficient."""
    if len(seq) == 0:
        return seq
    last = _last_nonzero(seq)
    if last == len(seq) - 1:
        return seq
    return seq[:max(last, 0) + 1]


def as_series(alist, trim=True):
    """The arguments as a list of 1-d cuarray arrays of their common type (numpy.common_type: integers become
    float64), trailing zeros removed when `trim`."""
    import cuarray
    arrays = [cuarray.atleast_1d(cuarray.asarray(a)) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError('Coefficient array is empty')
    if any(a.ndim != 1 for a in arrays):
        raise ValueError('Coefficient array is not 1-d')
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = numpy.common_type(*[numpy.empty(0, a.dtype) for a in arrays])
    except Exception as e:
        raise ValueError('Coefficient arrays have no common type') from e
    return [a.astype(dtype, copy=True) for a in arrays]


def trimcoef(c, tol=0):
    """`c` without the trailing coefficients of absolute value at most `tol` (at least one, 0, left)."""
    if tol < 0:
        raise ValueError('tol must be non-negative')
    [c] = as_series([c])
    last = _last_nonzero(c, tol)
    if last < 0:
        return c[:1] * 0
    return c[:last + 1].copy()
