"""scipy.linalg's special matrices (and CuPy's tri/tril/triu/kron), built on the device."""
import math

import numpy

import cuarray as _cp


def tri(N, M=None, k=0, dtype=None):
    """CuPy's cupyx.scipy.linalg.tri: ones at and below diagonal k (int64 unless dtype is given)."""
    return _cp.tri(N, M, k, dtype=numpy.int64 if dtype is None else dtype)


def tril(m, k=0):
    """CuPy's cupyx.scipy.linalg.tril: m with entries above diagonal k zeroed."""
    return _cp.tril(_cp.asarray(m), k)


def triu(m, k=0):
    """CuPy's cupyx.scipy.linalg.triu: m with entries below diagonal k zeroed."""
    return _cp.triu(_cp.asarray(m), k)


def kron(a, b):
    """Kronecker product (cupyx.scipy.linalg.kron)."""
    return _cp.kron(_cp.asarray(a), _cp.asarray(b))


def _atleast_1d(x):
    x = _cp.asarray(x)
    return x.reshape((1,)) if x.ndim == 0 else x


def toeplitz(c, r=None):
    """Toeplitz matrix with first column c and first row r (r[0] ignored; default conj(c)); batched over
    leading axes as SciPy 1.17."""
    c = _atleast_1d(c)
    r = _cp.conj(c) if r is None else _atleast_1d(r)
    batch = numpy.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    nc, nr = c.shape[-1], r.shape[-1]
    c = _cp.broadcast_to(c, batch + (nc,))
    r = _cp.broadcast_to(r, batch + (nr,))
    vals = _cp.concatenate((c[..., ::-1], r[..., 1:]), axis=-1)
    idx = nc - 1 - _cp.arange(nc)[:, None] + _cp.arange(nr)[None, :]
    return vals[..., idx]


def circulant(c):
    """Circulant matrix with first column c; batched over leading axes."""
    c = _atleast_1d(c)
    n = c.shape[-1]
    idx = (_cp.arange(n)[:, None] - _cp.arange(n)[None, :]) % max(n, 1)
    return c[..., idx]


def hankel(c, r=None):
    """Hankel matrix with first column c and last row r (r[0] ignored; default zeros); nD input is raveled
    with SciPy's FutureWarning."""
    c = _cp.asarray(c)
    r = _cp.zeros_like(c) if r is None else _cp.asarray(r)
    if c.ndim > 1 or r.ndim > 1:
        import warnings
        warnings.warn('Beginning in SciPy 1.19, multidimensional input will be treated as a batch, not `ravel`ed. '
                      'To preserve the existing behavior and silence this warning, `ravel` arguments before passing '
                      'them to `hankel`.', FutureWarning, stacklevel=2)
    c, r = c.ravel(), r.ravel()
    vals = _cp.concatenate((c, r[1:]))
    idx = _cp.arange(c.shape[0])[:, None] + _cp.arange(r.shape[0])[None, :]
    return vals[idx]


def hadamard(n, dtype=int):
    """Sylvester's Hadamard matrix of order n (a power of 2)."""
    lg2 = int(math.log(n, 2)) if n >= 1 else 0
    if 2 ** lg2 != n:
        raise ValueError('n must be an positive integer, and n must be a power of 2')
    # H[i, j] = (-1) ** popcount(i & j)
    i = _cp.arange(n, dtype=numpy.int64)
    bits = i[:, None] & i[None, :]
    parity = _cp.zeros((n, n), dtype=numpy.int64)
    for k in range(lg2):
        parity = parity ^ ((bits >> k) & 1)
    return (1 - 2 * parity).astype(dtype)


def leslie(f, s):
    """Leslie matrix from fecundity f (..., n) and survival s (..., n - 1)."""
    f = _atleast_1d(f)
    s = _atleast_1d(s)
    if f.shape[-1] != s.shape[-1] + 1:
        raise ValueError('Incorrect lengths for f and s. The length of s along the last axis must be one less '
                         'than the length of f.')
    if s.shape[-1] == 0:
        raise ValueError('The length of s must be at least 1.')
    n = f.shape[-1]
    batch = numpy.broadcast_shapes(f.shape[:-1], s.shape[:-1])
    dt = numpy.result_type(f.dtype, s.dtype)
    a = _cp.zeros(batch + (n, n), dtype=dt)
    a[..., 0, :] = f
    a[..., _cp.arange(1, n), _cp.arange(0, n - 1)] = s
    return a


def block_diag(*arrs):
    """Block diagonal matrix of the given (at most 2-D) arrays."""
    if arrs == ():
        arrs = ([],)
    arrs = [_cp.asarray(a) for a in arrs]
    bad = [k for k in range(len(arrs)) if arrs[k].ndim > 2]
    if bad:
        raise ValueError('arguments in the following positions have dimension greater than 2: {}'.format(bad))
    arrs = [a.reshape((1,) * (2 - a.ndim) + a.shape) for a in arrs]
    shapes = numpy.array([a.shape for a in arrs])
    out = _cp.zeros(tuple(int(x) for x in shapes.sum(axis=0)), dtype=numpy.result_type(*[a.dtype for a in arrs]))
    r = c = 0
    for a in arrs:
        rr, cc = a.shape
        out[r:r + rr, c:c + cc] = a
        r += rr
        c += cc
    return out


def companion(a):
    """Companion matrix of the polynomial coefficients a (..., n), n >= 2, a[..., 0] != 0."""
    a = _atleast_1d(a)
    n = a.shape[-1]
    if n < 2:
        raise ValueError('The length of `a` along the last axis must be at least 2.')
    if bool((a[..., 0] == 0).any()):
        raise ValueError('The first coefficient(s) of `a` (i.e. elements of `a[..., 0]`) must not be zero.')
    first_row = -a[..., 1:] / (1.0 * a[..., 0:1])
    c = _cp.zeros(a.shape[:-1] + (n - 1, n - 1), dtype=first_row.dtype)
    c[..., 0, :] = first_row
    if n > 2:
        c[..., _cp.arange(1, n - 1), _cp.arange(0, n - 2)] = 1
    return c


def helmert(n, full=False):
    """Helmert matrix of order n ((n - 1, n) unless full)."""
    i = _cp.arange(n)
    H = _cp.tril(_cp.ones((n, n)), -1) - _cp.diag(i).astype(numpy.float64)
    d = (i * _cp.arange(1, n + 1)).astype(numpy.float64)
    H[0] = 1
    d[0] = n
    H_full = H / _cp.sqrt(d)[:, None]
    return H_full if full else H_full[1:]


def hilbert(n):
    """Hilbert matrix 1 / (i + j + 1)."""
    i = _cp.arange(n, dtype=numpy.float64)
    return 1.0 / (i[:, None] + i[None, :] + 1.0)


def _host_exact(values, n, exact, limit, int_dtype, what):
    if exact and n > limit:
        # SciPy returns Python ints (object dtype) here; a GPU array cannot hold them.
        raise ValueError('{}(n, exact=True) needs n <= {}: larger results do not fit {} (SciPy returns an object '
                         'array, which cuarray has no dtype for)'.format(what, limit, numpy.dtype(int_dtype)))
    out = numpy.array(values, dtype=int_dtype if exact else numpy.float64).reshape((n, n)) if n else \
        numpy.empty((0, 0), dtype=int_dtype if exact else numpy.float64)
    return _cp.asarray(out)


def invhilbert(n, exact=False):
    """Inverse of the Hilbert matrix of order n (exact: int64, n <= 14)."""
    comb = math.comb
    vals = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = i + j
            v = (-1) ** s * (s + 1) * comb(n + i, n - j - 1) * comb(n + j, n - i - 1) * comb(s, i) ** 2
            vals[i][j] = vals[j][i] = v
    return _host_exact(vals if exact else [[float(v) for v in row] for row in vals], n, exact, 14, numpy.int64,
                       'invhilbert')


def _check_kind(kind, msg):
    if kind not in ('symmetric', 'lower', 'upper'):
        raise ValueError(msg)


def pascal(n, kind='symmetric', exact=True):
    """Pascal matrix (exact: uint64, n <= 34)."""
    _check_kind(kind, "kind must be 'symmetric', 'lower', or 'upper'")
    comb = math.comb
    if kind == 'lower':
        vals = [[comb(i, j) for j in range(n)] for i in range(n)]
    elif kind == 'upper':
        vals = [[comb(j, i) for j in range(n)] for i in range(n)]
    else:
        vals = [[comb(i + j, i) for j in range(n)] for i in range(n)]
    return _host_exact(vals if exact else [[float(v) for v in row] for row in vals], n, exact, 34, numpy.uint64,
                       'pascal')


def invpascal(n, kind='symmetric', exact=True):
    """Inverse of the Pascal matrix (exact: int64, n <= 34)."""
    _check_kind(kind, "'kind' must be 'symmetric', 'lower' or 'upper'.")
    comb = math.comb
    lower = [[(-1) ** (i - j) * comb(i, j) for j in range(n)] for i in range(n)]
    if kind == 'lower':
        vals = lower
    elif kind == 'upper':
        vals = [list(col) for col in zip(*lower)]
    else:  # inv(L L^T) = L^-T L^-1
        vals = [[sum(lower[k][i] * lower[k][j] for k in range(max(i, j), n)) for j in range(n)] for i in range(n)]
    return _host_exact(vals if exact else [[float(v) for v in row] for row in vals], n, exact, 34, numpy.int64,
                       'invpascal')


def dft(n, scale=None):
    """Discrete Fourier transform matrix (scale None, 'sqrtn' or 'n')."""
    if scale not in (None, 'sqrtn', 'n'):
        raise ValueError("scale must be None, 'sqrtn', or 'n'; {!r} is not valid.".format(scale))
    k = _cp.arange(n, dtype=numpy.float64)
    m = _cp.exp((-2j * numpy.pi / n) * ((k[:, None] * k[None, :]) % n)) if n else _cp.empty((0, 0), numpy.complex128)
    if scale == 'sqrtn':
        m = m / math.sqrt(n)
    elif scale == 'n':
        m = m / n
    return m


def fiedler(a):
    """Fiedler matrix ``|a[i] - a[j]|`` (batched over leading axes)."""
    a = _atleast_1d(a)
    if a.size == 0:
        return _cp.asarray([], dtype=numpy.float64)
    if a.size == 1:
        return _cp.asarray([[0.]])
    return _cp.abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a):
    """Fiedler companion matrix of the polynomial coefficients a (batched over leading axes)."""
    a = _atleast_1d(a)
    if a.ndim > 1:
        flat = a.reshape((-1, a.shape[-1]))
        parts = [fiedler_companion(flat[i]) for i in range(flat.shape[0])]
        res = _cp.stack(parts) if parts else _cp.empty((0,), dtype=a.dtype)
        return res.reshape(a.shape[:-1] + res.shape[1:])
    if a.size <= 2:
        if a.size == 2:
            return _cp.asarray((-(a / a[0])[-1]).reshape((1, 1)))
        return _cp.asarray([], dtype=a.dtype)
    if bool(a[0] == 0):
        raise ValueError('Leading coefficient is zero.')
    a = a / a[0]
    n = a.size - 1
    c = _cp.zeros((n, n), dtype=a.dtype)

    def put(rows, cols, v):
        rows, cols = list(rows), list(cols)
        if rows:
            c[_cp.asarray(rows), _cp.asarray(cols)] = v
    put(range(3, n, 2), range(1, n - 2, 2), 1.)
    put(range(2, n, 2), range(1, n - 1, 2), -a[3::2])
    put(range(0, n - 2, 2), range(2, n, 2), 1.)
    put(range(0, n - 1, 2), range(1, n, 2), -a[2::2])
    c[0, 0] = -a[1]
    c[1, 0] = 1
    return c


def convolution_matrix(a, n, mode='full'):
    """Matrix A with A @ v == numpy.convolve(a, v, mode) for v of length n."""
    if n <= 0:
        raise ValueError('n must be a positive integer.')
    a = _cp.asarray(a)
    if a.size == 0:
        raise ValueError('len(a) must be at least 1.')
    if mode not in ('full', 'valid', 'same'):
        raise ValueError("'mode' argument must be one of ('full', 'valid', 'same')")
    m = a.shape[-1]
    rows = m + n - 1
    # full[i, j] = a[i - j] where 0 <= i - j < m
    d = _cp.arange(rows)[:, None] - _cp.arange(n)[None, :]
    inside = (d >= 0) & (d < m)
    full = _cp.where(inside, a[..., _cp.clip(d, 0, m - 1)], _cp.zeros((), dtype=a.dtype))
    if mode == 'same':
        start = (min(n, m) - 1) // 2
        return full[..., start:start + max(m, n), :]
    if mode == 'valid':
        start = min(n, m) - 1
        return full[..., start:start + max(m, n) - min(m, n) + 1, :]
    return full


def bandwidth(a):
    """(lower, upper) bandwidth of a 2-D array: the farthest non-zero diagonals below and above the main one."""
    a = _cp.asarray(a)
    if a.ndim < 2:
        raise ValueError('Input array must be a 2D NumPy array.')
    if a.shape[-1] == 0 or a.shape[-2] == 0:
        return (0, 0) if a.ndim == 2 else (_cp.zeros(a.shape[:-2], numpy.int64),) * 2
    d = _cp.arange(a.shape[-2])[:, None] - _cp.arange(a.shape[-1])[None, :]
    nz = a != 0
    lower = _cp.where(nz, d, 0).max(axis=(-2, -1))
    upper = _cp.where(nz, -d, 0).max(axis=(-2, -1))
    if a.ndim == 2:
        return int(lower), int(upper)
    return [lower, upper]
