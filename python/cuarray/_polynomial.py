"""NumPy's legacy polynomial API (poly1d, polyfit, polyval, roots, poly, polyadd/sub/mul/div, polyder, polyint)."""
import warnings

import numpy

__all__ = ['poly1d', 'poly', 'polyadd', 'polyder', 'polydiv', 'polyfit', 'polyint', 'polymul', 'polysub',
           'polyval', 'roots']


def _ca():
    import cuarray
    return cuarray


def _dev(a):
    """`a` as a cuarray array (poly1d: its coefficients)."""
    if isinstance(a, poly1d):
        return a.coeffs
    return _ca().asarray(a)


def _host(a):
    """`a`'s values on the host (the routines NumPy runs as small sequential loops run there)."""
    from cuarray._core import ndarray
    if isinstance(a, poly1d):
        return a.coeffs.get()
    if isinstance(a, ndarray):
        return a.get()
    return numpy.asarray(a)


def _isscalar(x):
    return numpy.isscalar(x)


def _trim_leading(c):
    """The coefficients without leading zeros (at least one coefficient): the host finds the first nonzero."""
    cp = _ca()
    h = c.get()
    nz = numpy.flatnonzero(h)
    if nz.size == 0:
        return cp.zeros((1,), dtype=c.dtype)
    return c[int(nz[0]):] if nz[0] else c


def poly(seq_of_zeros):
    """numpy.poly: the coefficients of the monic polynomial with the given roots (or of a square matrix's
    characteristic polynomial). Computed on the host with NumPy (a sequence of tiny convolutions, and an
    eigenvalue problem for a matrix, whose real/complex result rule NumPy's own dgeev decides)."""
    if isinstance(seq_of_zeros, poly1d):
        seq_of_zeros = seq_of_zeros.coeffs
    return _ca().asarray(numpy.poly(_host(seq_of_zeros)))


def roots(p):
    """numpy.roots: the roots of the polynomial with coefficients p (highest power first), the eigenvalues of
    its companion matrix. Computed on the host with NumPy: the companion matrix is tiny, and cuSOLVER's
    general eigensolver returns complex values with rounding-level imaginary parts where NumPy returns exact
    real roots and exact conjugate pairs."""
    h = _host(p)
    if h.ndim != 1:
        raise ValueError('Input must be a rank-1 array.')
    return _ca().asarray(numpy.roots(h))


def polyval(p, x):
    """numpy.polyval: p (highest power first) at x by Horner's scheme on the device; x a poly1d composes."""
    cp = _ca()
    if isinstance(x, poly1d):
        y = 0
        for pv in _host(p):
            y = y * x + pv
        return y
    p = _dev(p)
    if p.ndim == 0:
        raise TypeError('iteration over a 0-d array')
    x = cp.asarray(x)
    y = cp.zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _pad_front(a, n):
    cp = _ca()
    return cp.concatenate((cp.zeros((n,), dtype=a.dtype), a))


def polyadd(a1, a2):
    """numpy.polyadd: the sum of two polynomials (the shorter padded with leading zeros)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    cp = _ca()
    a1, a2 = cp.atleast_1d(_dev(a1)), cp.atleast_1d(_dev(a2))
    diff = len(a2) - len(a1)
    if diff == 0:
        val = a1 + a2
    elif diff > 0:
        val = _pad_front(a1, diff) + a2
    else:
        val = a1 + _pad_front(a2, -diff)
    return poly1d(val) if truepoly else val


def polysub(a1, a2):
    """numpy.polysub: a1 - a2 (the shorter padded with leading zeros)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    cp = _ca()
    a1, a2 = cp.atleast_1d(_dev(a1)), cp.atleast_1d(_dev(a2))
    diff = len(a2) - len(a1)
    if diff == 0:
        val = a1 - a2
    elif diff > 0:
        val = _pad_front(a1, diff) - a2
    else:
        val = a1 - _pad_front(a2, -diff)
    return poly1d(val) if truepoly else val


def polymul(a1, a2):
    """numpy.polymul: the product, a convolution of the coefficients (leading zeros removed first, as
    NumPy's poly1d does)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = poly1d(a1), poly1d(a2)
    val = _ca().convolve(a1.coeffs, a2.coeffs)
    return poly1d(val) if truepoly else val


def polydiv(u, v):
    """numpy.polydiv: quotient and remainder. Long division is a sequential loop over the (few) coefficients,
    so it runs on the host with NumPy and the results are copied back."""
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    cp = _ca()
    q, r = numpy.polydiv(_host(u), _host(v))
    q, r = cp.asarray(q), cp.asarray(r)
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


def polyder(p, m=1):
    """numpy.polyder: the m-th derivative."""
    m = int(m)
    if m < 0:
        raise ValueError('Order of derivative must be positive (see polyint)')
    truepoly = isinstance(p, poly1d)
    cp = _ca()
    val = _dev(p)
    for _ in range(m):
        n = len(val) - 1
        val = val[:-1] * cp.arange(n, 0, -1)
    return poly1d(val) if truepoly else val


def polyint(p, m=1, k=None):
    """numpy.polyint: the m-th antiderivative, with integration constants k (a scalar or m values, highest
    integral's first)."""
    m = int(m)
    if m < 0:
        raise ValueError('Order of integral must be positive (see polyder)')
    cp = _ca()
    if k is None:
        k = cp.zeros((m,), dtype=numpy.float64)
    k = cp.atleast_1d(_dev(k))
    if len(k) == 1 and m > 1:
        k = k[0] * cp.ones((m,), dtype=numpy.float64)
    if len(k) < m:
        raise ValueError('k must be a scalar or a rank-1 array of length 1 or >m.')
    truepoly = isinstance(p, poly1d)
    val = _dev(p)
    for i in range(m):
        val = cp.concatenate((val / cp.arange(len(val), 0, -1), k[i:i + 1]))
    return poly1d(val) if truepoly else val


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """numpy.polyfit: least-squares fit of a degree-`deg` polynomial (highest power first) on the device
    (Vandermonde matrix, column scaling and cuarray.linalg.lstsq, as NumPy)."""
    cp = _ca()
    order = int(deg) + 1
    x = cp.asarray(x) + 0.0
    y = cp.asarray(y) + 0.0
    if deg < 0:
        raise ValueError('expected deg >= 0')
    if x.ndim != 1:
        raise TypeError('expected 1D vector for x')
    if x.size == 0:
        raise TypeError('expected non-empty vector for x')
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError('expected 1D or 2D array for y')
    if x.shape[0] != y.shape[0]:
        raise TypeError('expected x and y to have same length')
    if rcond is None:
        rcond = len(x) * numpy.finfo(x.dtype).eps
    # numpy.vander's dtype: x promoted with the default integer.
    vt = numpy.promote_types(x.dtype, numpy.int_)
    lhs = cp.power(x.astype(vt)[:, None], cp.arange(order - 1, -1, -1))
    rhs = y
    if w is not None:
        w = cp.asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError('expected a 1-d array for weights')
        if w.shape[0] != y.shape[0]:
            raise TypeError('expected w and y to have the same length')
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = cp.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = cp.linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    rank = int(rank)
    if rank != order and not full:
        warnings.warn('Polyfit may be poorly conditioned', numpy.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = cp.linalg.inv(cp.dot(lhs.T, lhs))
        vbase = vbase / cp.outer(scale, scale)
        if cov == 'unscaled':
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError('the number of data points must exceed order to scale the covariance matrix')
            fac = resids / (len(x) - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c


class poly1d:
    """numpy.poly1d with its coefficients in a cuarray array. Evaluation and arithmetic run on the device;
    printing, ``roots`` and division go through NumPy on the host (they read the few coefficients)."""
    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        cp = _ca()
        if r:
            c_or_r = poly(c_or_r)
        c = cp.atleast_1d(cp.asarray(c_or_r))
        if c.ndim > 1:
            raise ValueError('Polynomial must be 1d only.')
        if c.size == 0:
            c = cp.zeros((1,), dtype=c.dtype)
        self._coeffs = _trim_leading(c)
        self._variable = 'x' if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first (a cuarray array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        # As NumPy: the array may be modified in place, not replaced.
        if value is not self._coeffs:
            raise AttributeError('Cannot set attribute')

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return len(self._coeffs) - 1

    @property
    def roots(self):
        return roots(self._coeffs)

    @property
    def _coeffs(self):
        return self.__dict__['coeffs']

    @_coeffs.setter
    def _coeffs(self, coeffs):
        self.__dict__['coeffs'] = coeffs

    r = roots
    c = coef = coefficients = coeffs
    o = order

    def get(self, stream=None):
        """The polynomial as a numpy.poly1d (coefficients copied to the host)."""
        return numpy.poly1d(self._coeffs.get(), variable=self._variable)

    def __array__(self, dtype=None, copy=None):
        raise TypeError('Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct '
                        'a NumPy array explicitly.')

    def __repr__(self):
        return 'poly1d({})'.format(repr(self._coeffs.get())[6:-1])

    def __str__(self):
        return str(self.get())

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _isscalar(other):
            return poly1d(self._coeffs * other)
        other = poly1d(other)
        return poly1d(polymul(self._coeffs, other._coeffs))

    def __rmul__(self, other):
        if _isscalar(other):
            return poly1d(other * self._coeffs)
        other = poly1d(other)
        return poly1d(polymul(self._coeffs, other._coeffs))

    def __add__(self, other):
        other = poly1d(other)
        return poly1d(polyadd(self._coeffs, other._coeffs))

    def __radd__(self, other):
        other = poly1d(other)
        return poly1d(polyadd(self._coeffs, other._coeffs))

    def __pow__(self, val):
        if not _isscalar(val) or int(val) != val or val < 0:
            raise ValueError('Power to non-negative integers only.')
        res = _ca().asarray([1])
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __sub__(self, other):
        other = poly1d(other)
        return poly1d(polysub(self._coeffs, other._coeffs))

    def __rsub__(self, other):
        other = poly1d(other)
        return poly1d(polysub(other._coeffs, self._coeffs))

    def __truediv__(self, other):
        if _isscalar(other):
            return poly1d(self._coeffs / other)
        other = poly1d(other)
        return polydiv(self, other)

    def __rtruediv__(self, other):
        if _isscalar(other):
            return poly1d(other / self._coeffs)
        other = poly1d(other)
        return polydiv(other, self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError('Does not support negative powers.')
        if key > self.order:
            self._coeffs = _pad_front(self._coeffs, key - self.order)
        self._coeffs[self.order - key] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The m-th antiderivative (constants k) as a poly1d."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The m-th derivative as a poly1d."""
        return poly1d(polyder(self._coeffs, m=m))

