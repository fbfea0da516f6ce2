"""numpy.polynomial.polynomial's power series functions (coefficients lowest degree first) on cuarray arrays."""
import numpy

from cuarray.polynomial import polyutils as pu

__all__ = ['polyadd', 'polycompanion', 'polyfromroots', 'polymul', 'polymulx', 'polyroots', 'polysub', 'polyval',
           'polyvalfromroots', 'polyvander']


def _is_array(x):
    from cuarray._core import ndarray
    return isinstance(x, ndarray)


def _as_points(x):
    """NumPy turns tuples and lists of points into arrays (and keeps scalars scalar)."""
    import cuarray
    if isinstance(x, (tuple, list, numpy.ndarray)):
        return cuarray.asarray(x)
    return x


def polyvander(x, deg):
    """The Vandermonde matrix: ``[..., i] = x**i`` for i up to `deg` (successive products, as NumPy)."""
    import cuarray
    ideg = pu._as_int(deg, 'deg')
    if ideg < 0:
        raise ValueError('deg must be non-negative')
    x = cuarray.atleast_1d(cuarray.asarray(x)) + 0.0
    cols = [x * 0 + 1]
    if ideg > 0:
        cols.append(x)
    for _ in range(2, ideg + 1):
        cols.append(cols[-1] * x)
    return cuarray.stack(cols, axis=-1)


def polycompanion(c):
    """The companion matrix of the power series `c` (lowest degree first)."""
    import cuarray
    [c] = pu.as_series([c])
    if len(c) < 2:
        raise ValueError('Series must have maximum degree of at least 1.')
    if len(c) == 2:
        return (-c[0] / c[1]).reshape(1, 1)
    n = len(c) - 1
    mat = cuarray.eye(n, k=-1, dtype=c.dtype)
    mat[:, n - 1] = mat[:, n - 1] - c[:-1] / c[-1]
    return mat


def polyval(x, c, tensor=True):
    """The power series `c` at `x` (Horner's scheme); with `tensor`, every column of a 2-d+ `c` at every x."""
    import cuarray
    c = cuarray.atleast_1d(cuarray.asarray(c))
    if c.dtype.kind in 'biu':
        c = c + 0.0
    x = _as_points(x)
    if _is_array(x) and tensor:
        c = c.reshape(c.shape + (1,) * x.ndim)
    c0 = c[-1] + x * 0
    for i in range(2, len(c) + 1):
        c0 = c[-i] + c0 * x
    return c0


def polyvalfromroots(x, r, tensor=True):
    """The monic polynomial with roots `r` at `x`: prod(x - r) over the roots' first axis."""
    import cuarray
    r = cuarray.atleast_1d(cuarray.asarray(r))
    if r.dtype.kind in 'biu':
        r = r.astype(numpy.float64)
    x = _as_points(x)
    if _is_array(x):
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError('x.ndim must be < r.ndim when tensor == False')
    return cuarray.prod(x - r, axis=0)


def _pad_back(a, n):
    import cuarray
    return cuarray.concatenate((a, cuarray.zeros((n,), dtype=a.dtype)))


def polyadd(c1, c2):
    """The sum of two power series (trailing zeros trimmed)."""
    [c1, c2] = pu.as_series([c1, c2])
    n = max(len(c1), len(c2))
    return pu.trimseq(_pad_back(c1, n - len(c1)) + _pad_back(c2, n - len(c2)))


def polysub(c1, c2):
    """c1 - c2 for power series (trailing zeros trimmed)."""
    [c1, c2] = pu.as_series([c1, c2])
    n = max(len(c1), len(c2))
    return pu.trimseq(_pad_back(c1, n - len(c1)) - _pad_back(c2, n - len(c2)))


def polymulx(c):
    """The series times x (a zero series stays zero)."""
    import cuarray
    [c] = pu.as_series([c])
    if len(c) == 1 and bool(c[0] == 0):
        return c
    return cuarray.concatenate((c[:1] * 0, c))


def polymul(c1, c2):
    """The product of two power series: a convolution (trailing zeros trimmed)."""
    import cuarray
    [c1, c2] = pu.as_series([c1, c2])
    return pu.trimseq(cuarray.convolve(c1, c2))


def polyroots(c):
    """The roots of the power series `c`. Computed on the host with NumPy (a tiny companion eigenproblem whose
    real/complex result NumPy's dgeev decides)."""
    import cuarray
    [c] = pu.as_series([c])
    return cuarray.asarray(numpy.polynomial.polynomial.polyroots(c.get()))


def polyfromroots(roots):
    """The monic power series with the given roots. Computed on the host with NumPy (a product tree of tiny
    convolutions, with NumPy's rule for when the result is real)."""
    import cuarray
    from cuarray._core import ndarray
    h = roots.get() if isinstance(roots, ndarray) else numpy.asarray(roots)
    return cuarray.asarray(numpy.polynomial.polynomial.polyfromroots(h))
