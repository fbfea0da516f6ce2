"""Piecewise polynomials of cuarray.scipy.interpolate: PPoly and the cubic Hermite family (Pchip, Akima, CubicSpline)."""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.interpolate import _kernels


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _coef_dtype(dt):
    return numpy.complex128 if numpy.dtype(dt).kind == 'c' else numpy.float64


def _eval_ppoly(c, bp, xp, nu, extrapolate):
    """c (k, m, ncols) device float64/complex128, bp (m+1,), xp (n,) float64 -> (n, ncols)."""
    k, m, ncols = c.shape
    n = xp.shape[0]
    if c.dtype.kind == 'c':
        re = _eval_ppoly(_cp.ascontiguousarray(c.real), bp, xp, nu, extrapolate)
        im = _eval_ppoly(_cp.ascontiguousarray(c.imag), bp, xp, nu, extrapolate)
        return re + 1j * im
    out = _cp.empty((n, ncols), dtype=numpy.float64)
    if out.size == 0:
        return out
    desc = 1 if m >= 1 and bool(bp[m] < bp[0]) else 0
    kern = _kernels.kernel(('ppoly',))
    kern((_kernels.blocks(n * ncols),), (_kernels.THREADS,),
         (bp, c, xp, out, _kernels.i64(m), _kernels.i64(k), _kernels.i64(ncols), _kernels.i64(n),
          _kernels.i32(nu), _kernels.i32(1 if extrapolate else 0), _kernels.i32(desc)))
    return out


class _PPolyBase:
    """Shared evaluation for PPoly: c has shape (k, m, ...), x the m + 1 breakpoints."""

    def __init__(self, c, x, extrapolate=None, axis=0):
        c = _asarray(c)
        x = _cp.ascontiguousarray(_asarray(x).astype(numpy.float64))
        if extrapolate is None:
            extrapolate = True
        elif extrapolate != 'periodic':
            extrapolate = bool(extrapolate)
        if x.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if x.size < 2:
            raise ValueError("at least 2 breakpoints are needed")
        if c.ndim < 2:
            raise ValueError("c must have at least 2 dimensions")
        if not 0 <= axis < c.ndim - 1:
            raise ValueError(f"axis={axis} must be between 0 and {c.ndim - 1}")
        if axis != 0:
            # SciPy's layout: the order and interval axes of c sit at `axis`, `axis + 1`; bring them to the front.
            c = _cp.moveaxis(c, axis + 1, 0)
            c = _cp.moveaxis(c, axis + 1, 0)
        if c.shape[0] == 0:
            raise ValueError("polynomial must be at least of order 0")
        if c.shape[1] != x.size - 1:
            raise ValueError("number of coefficients != len(x)-1")
        dx = x[1:] - x[:-1]
        if not (bool((dx >= 0).all()) or bool((dx <= 0).all())):
            raise ValueError("`x` must be strictly increasing or decreasing.")
        self.x = x
        self.c = _cp.ascontiguousarray(c.astype(_coef_dtype(c.dtype)))
        self.axis = axis
        self.extrapolate = extrapolate

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis=0):
        """Construct without checks (c and x must already be valid device arrays)."""
        self = object.__new__(cls)
        self.c = _cp.ascontiguousarray(_asarray(c))
        self.x = _cp.ascontiguousarray(_asarray(x).astype(numpy.float64))
        self.axis = axis
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def __call__(self, x, nu=0, extrapolate=None):
        """Value (or nu-th derivative, nu >= 0) at x; the result has shape c.shape[2:] with x's shape at `axis`."""
        nu = int(nu)
        if nu < 0:
            raise ValueError("Order of derivative cannot be negative")
        if extrapolate is None:
            extrapolate = self.extrapolate
        x = _asarray(x)
        xs = x.shape
        xf = _cp.ascontiguousarray(x.reshape(-1).astype(numpy.float64))
        if extrapolate == 'periodic':
            x0, x1 = self.x[0], self.x[-1]
            xf = _cp.ascontiguousarray(x0 + (xf - x0) % (x1 - x0))
            extrapolate = False
        rest = self.c.shape[2:]
        c = self.c.reshape(self.c.shape[0], self.c.shape[1], -1)
        out = _eval_ppoly(c, self.x, xf, nu, extrapolate).reshape(xs + rest)
        if self.axis != 0 and x.ndim + len(rest):
            nx = len(xs)
            perm = list(range(nx, nx + self.axis)) + list(range(nx)) + list(range(nx + self.axis, nx + len(rest)))
            out = out.transpose(perm)
        return out

    def _wrap(self, c):
        return type(self).construct_fast(c, self.x, self.extrapolate, self.axis) \
            if type(self) is PPoly else PPoly.construct_fast(c, self.x, self.extrapolate, self.axis)

    def derivative(self, nu=1):
        """The nu-th derivative as a PPoly (nu < 0 gives an antiderivative)."""
        if nu < 0:
            return self.antiderivative(-nu)
        k = self.c.shape[0]
        if nu == 0:
            return self._wrap(self.c.copy())
        if nu >= k:
            return self._wrap(_cp.zeros((1,) + self.c.shape[1:], dtype=self.c.dtype))
        powers = numpy.arange(k - 1, nu - 1, -1)
        factor = numpy.ones(k - nu)
        for q in range(nu):
            factor = factor * (powers - q)
        f = _cp.asarray(factor).reshape((k - nu,) + (1,) * (self.c.ndim - 1))
        return self._wrap(self.c[:k - nu] * f)

    def antiderivative(self, nu=1):
        """The nu-th antiderivative, zero at x[0] and continuous across breakpoints, as a PPoly."""
        if nu <= 0:
            return self.derivative(-nu)
        p = self
        for _ in range(nu):
            p = p._antiderivative1()
        if self.extrapolate == 'periodic':
            p.extrapolate = False
        return p

    def _antiderivative1(self):
        k, m = self.c.shape[:2]
        powers = numpy.arange(k, 0, -1, dtype=numpy.float64)
        f = _cp.asarray(powers).reshape((k,) + (1,) * (self.c.ndim - 1))
        c2 = _cp.zeros((k + 1,) + self.c.shape[1:], dtype=self.c.dtype)
        c2[:k] = self.c / f
        # Each piece's constant is the previous piece's value at its right end (exclusive running sum).
        h = (self.x[1:] - self.x[:-1]).reshape((m,) + (1,) * (self.c.ndim - 2))
        end = _cp.zeros(self.c.shape[1:], dtype=self.c.dtype)
        for j in range(k):
            end = end * h + c2[j]
        end = end * h
        cum = _cp.cumsum(end, axis=0)
        c2[k, 1:] = cum[:-1]
        return PPoly.construct_fast(c2, self.x, self.extrapolate, self.axis)

    def integrate(self, a, b, extrapolate=None):
        """Definite integral from a to b (shape c.shape[2:]); periodic extrapolation wraps whole periods."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        F = self.antiderivative()
        if extrapolate == 'periodic':
            x0, x1 = float(self.x[0]), float(self.x[-1])
            period = x1 - x0
            whole = math.floor((b - a) / period)
            ends = F(_cp.asarray([x0, x1]), extrapolate=False)
            full = ends[1] - ends[0] if self.axis == 0 else _cp.take(ends, 1, self.axis) - _cp.take(ends, 0, self.axis)
            a2 = x0 + (a - x0) % period
            b2 = a2 + (b - a) - whole * period
            if b2 <= x1:
                pts = F(_cp.asarray([a2, b2]), extrapolate=False)
                part = _cp.take(pts, 1, self.axis) - _cp.take(pts, 0, self.axis)
            else:
                pts = F(_cp.asarray([a2, x1, x0, x0 + b2 - x1]), extrapolate=False)
                t = lambda i: _cp.take(pts, i, self.axis)  # NOQA: E731
                part = (t(1) - t(0)) + (t(3) - t(2))
            return sign * (whole * full + part)
        pts = F(_cp.asarray([a, b]), extrapolate=bool(extrapolate))
        return sign * (_cp.take(pts, 1, self.axis) - _cp.take(pts, 0, self.axis))

    def extend(self, c, x):
        """Append intervals: breakpoints x continue self.x, c holds their coefficients (orders padded)."""
        c = _asarray(c)
        x = _asarray(x).astype(numpy.float64)
        if c.ndim < 2 or c.shape[2:] != self.c.shape[2:] or c.shape[1] != x.size:
            raise ValueError("Shapes of c and x are incompatible with this polynomial")
        k = max(self.c.shape[0], c.shape[0])
        dt = numpy.result_type(self.c.dtype, c.dtype)
        new = _cp.zeros((k, self.c.shape[1] + c.shape[1]) + self.c.shape[2:], dtype=_coef_dtype(dt))
        new[k - self.c.shape[0]:, :self.c.shape[1]] = self.c
        new[k - c.shape[0]:, self.c.shape[1]:] = c
        self.c = new
        self.x = _cp.ascontiguousarray(_cp.concatenate([self.x, x]))


class PPoly(_PPolyBase):
    """Piecewise polynomial in the power basis: on [x[i], x[i+1]], S = sum_m c[m, i] (xp - x[i])**(k-1-m)."""

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        """PPoly of a BSpline (or a (t, c, k) tuple): Taylor coefficients at each knot interval's left end."""
        from cuarray.scipy.interpolate._bspline import BSpline
        if isinstance(tck, BSpline):
            t, c, k = tck.t, tck.c, tck.k
            if extrapolate is None:
                extrapolate = tck.extrapolate
        else:
            t, c, k = tck
            t = _asarray(t)
            c = _asarray(c)
        spl = BSpline(t, c, k, extrapolate=True)
        nb = t.shape[0] - k - 1
        bp = t[k:nb + 1]
        cc = _cp.empty((k + 1, nb - k) + spl.c.shape[1:], dtype=spl.c.dtype)
        for m in range(k + 1):
            cc[m] = spl(bp[:-1], nu=k - m) / math.factorial(k - m)
        return cls.construct_fast(cc, bp, extrapolate)

    def solve(self, y=0.0, discontinuity=True, extrapolate=None):
        """Real x with S(x) == y, ascending per column (an object array of arrays when c has extra dimensions).
        An identically-equal piece reports (its start, nan); with `discontinuity`, a breakpoint where S jumps
        across y counts. Root finding is sequential and variable-length, so it runs on the host (NumPy
        companion-matrix eigenvalues per piece, one Newton step), as SciPy's does on the CPU."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        if self.c.dtype.kind == 'c':
            raise ValueError("Root finding is only for real-valued polynomials")
        y = float(y)
        c = _cp.asnumpy(self.c)
        x = _cp.asnumpy(self.x)
        c3 = c.reshape(c.shape[0], c.shape[1], -1)
        res = [_real_roots(c3[:, :, j], x, y, bool(discontinuity), bool(extrapolate)) for j in range(c3.shape[2])]
        if c.ndim == 2:
            return _cp.asarray(res[0])
        out = numpy.empty(len(res), dtype=object)
        for i, r in enumerate(res):
            out[i] = _cp.asarray(r)
        return out.reshape(c.shape[2:])

    def roots(self, discontinuity=True, extrapolate=None):
        """solve(0, discontinuity, extrapolate)."""
        return self.solve(0.0, discontinuity, extrapolate)


def _poly_at(c, s, nu=0):
    """One piece (highest power first) or its nu-th derivative at s (host scalar)."""
    k = c.shape[0]
    acc = 0.0
    for j in range(k):
        p = k - 1 - j
        if p < nu:
            break
        f = 1.0
        for q in range(nu):
            f *= p - q
        acc += c[j] * f * s ** (p - nu)
    return acc


def _piece_roots(cp_, y):
    """(kind, roots): kind -1 when the piece equals y everywhere; roots as (real, imag) pairs sorted by real."""
    nz = numpy.nonzero(cp_ != 0)[0]
    if nz.size == 0:
        return (-1, []) if y == 0 else (0, [])
    a = cp_[nz[0]:].astype(numpy.float64).copy()
    order = a.shape[0] - 1
    if order == 0:
        return (-1, []) if a[0] == y else (0, [])
    a[-1] -= y
    if order == 1:
        return 1, [(-a[1] / a[0], 0.0)]
    if order == 2:
        a0, a1, a2 = a
        d = a1 * a1 - 4 * a0 * a2
        if d < 0:
            r = -a1 / (2 * a0)
            return 2, [(r, -math.sqrt(-d) / (2 * a0)), (r, math.sqrt(-d) / (2 * a0))]
        d = math.sqrt(d)
        if d == 0:
            r = -a1 / (2 * a0)
            return 2, [(r, 0.0), (r, 0.0)]
        # The cancellation-free pair of formulas.
        if a1 < 0:
            return 2, [((2 * a2) / (-a1 + d), 0.0), ((-a1 + d) / (2 * a0), 0.0)]
        return 2, [((-a1 - d) / (2 * a0), 0.0), ((2 * a2) / (-a1 - d), 0.0)]
    comp = numpy.zeros((order, order))
    comp[1:, :-1] = numpy.eye(order - 1)
    comp[:, -1] = -a[::-1][:order] / a[0]
    w = numpy.linalg.eigvals(comp)
    w = w[numpy.argsort(w.real, kind='stable')]
    return order, [(float(v.real), float(v.imag)) for v in w]


def _real_roots(c, x, y, discont, extrapolate):
    k, m = c.shape
    if k == 0:
        return numpy.array([], dtype=float)
    asc = x[-1] >= x[0]
    out = []
    last = math.nan
    for i in range(m):
        if i > 0 and discont:
            va = _poly_at(c[:, i - 1], x[i] - x[i - 1]) - y
            vb = _poly_at(c[:, i], 0.0) - y
            if (va < 0 < vb or vb < 0 < va) and x[i] != last:
                last = x[i]
                out.append(float(last))
        kind, rts = _piece_roots(c[:, i], y)
        if kind == -1:
            if x[i] == x[i + 1]:
                if x[i] != last:
                    last = x[i]
                    out.append(float(x[i]))
            else:
                out += [float(x[i]), math.nan]
                last = math.nan
            continue
        for re, im in rts:
            if im != 0:
                continue
            f = _poly_at(c[:, i], re) - y
            df = _poly_at(c[:, i], re, 1)
            if df != 0 and abs(f / df) < abs(re):
                re = re - f / df
            re += x[i]
            lo, hi = (x[i], x[i + 1]) if asc else (x[i + 1], x[i])
            if i == 0 and extrapolate:
                ok = re <= x[i + 1] if asc else re >= x[i + 1]
            elif i == m - 1 and extrapolate:
                ok = re >= x[i] if asc else re <= x[i]
            else:
                ok = lo <= re <= hi
            if ok and re != last:
                last = re
                out.append(float(re))
    return numpy.array(out, dtype=float)


def _prepare(x, y, axis, dydx=None):
    x = _asarray(x)
    y = _asarray(y)
    if x.dtype.kind == 'c':
        raise ValueError("`x` must contain real values.")
    x = x.astype(numpy.float64)
    if y.dtype.kind == 'c':
        y = y.astype(numpy.complex128)
    else:
        y = y.astype(numpy.float64)
    if x.ndim != 1:
        raise ValueError("`x` must be 1-dimensional.")
    if x.shape[0] < 2:
        raise ValueError("`x` must contain at least 2 elements.")
    if y.ndim == 0:
        raise ValueError("`y` must be at least 1-dimensional.")
    axis = axis % y.ndim
    if y.shape[axis] != x.shape[0]:
        raise ValueError(f"The length of `y` along `axis`={axis} doesn't match the length of `x`")
    if not bool(_cp.isfinite(x).all()):
        raise ValueError("`x` must contain only finite values.")
    if not bool(_cp.isfinite(y).all()):
        raise ValueError("`y` must contain only finite values.")
    dx = x[1:] - x[:-1]
    if bool((dx <= 0).any()):
        raise ValueError("`x` must be strictly increasing sequence.")
    y = _cp.moveaxis(y, axis, 0)
    if dydx is not None:
        dydx = _cp.moveaxis(_asarray(dydx), axis, 0)
        if dydx.shape != y.shape:
            raise ValueError("The shapes of `y` and `dydx` must be identical.")
        if dydx.dtype.kind == 'c':
            y = y.astype(numpy.complex128)
        dydx = dydx.astype(y.dtype)
        if not bool(_cp.isfinite(dydx).all()):
            raise ValueError("`dydx` must contain only finite values.")
    return x, dx, y, axis, dydx


def _hermite_coeffs(dx, y, dydx):
    sh = (-1,) + (1,) * (y.ndim - 1)
    h = dx.reshape(sh)
    slope = (y[1:] - y[:-1]) / h
    t = (dydx[:-1] + dydx[1:] - 2 * slope) / h
    c = _cp.empty((4, dx.shape[0]) + y.shape[1:], dtype=t.dtype)
    c[0] = t / h
    c[1] = (slope - dydx[:-1]) / h - t
    c[2] = dydx[:-1]
    c[3] = y[:-1]
    return c


class CubicHermiteSpline(PPoly):
    """Piecewise cubic matching values y and first derivatives dydx at the points x."""

    def __init__(self, x, y, dydx, axis=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = True
        x, dx, y, axis, dydx = _prepare(x, y, axis, dydx)
        super().__init__(_hermite_coeffs(dx, y, dydx), x, extrapolate=extrapolate)
        self.axis = axis


def _pchip_slopes(dx, y):
    sh = (-1,) + (1,) * (y.ndim - 1)
    h = dx.reshape(sh)
    m = (y[1:] - y[:-1]) / h
    n = y.shape[0]
    if n == 2:
        return _cp.concatenate([m, m], axis=0)
    smk = _cp.sign(m)
    cond = (smk[1:] != smk[:-1]) | (m[1:] == 0) | (m[:-1] == 0)
    w1 = 2 * h[1:] + h[:-1]
    w2 = h[1:] + 2 * h[:-1]
    safe_m0 = _cp.where(cond, 1.0, m[:-1])
    safe_m1 = _cp.where(cond, 1.0, m[1:])
    whmean = (w1 / safe_m0 + w2 / safe_m1) / (w1 + w2)
    inner = _cp.where(cond, 0.0, 1.0 / whmean)

    def edge(h0, h1, m0, m1):
        d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
        d = _cp.where(_cp.sign(d) != _cp.sign(m0), 0.0, d)
        big = (_cp.sign(m0) != _cp.sign(m1)) & (_cp.abs(d) > 3.0 * _cp.abs(m0))
        return _cp.where(big & (_cp.sign(d) == _cp.sign(m0)), 3.0 * m0, d)

    d0 = edge(h[0], h[1], m[0], m[1])
    dn = edge(h[-1], h[-2], m[-1], m[-2])
    return _cp.concatenate([d0[None], inner, dn[None]], axis=0)


class PchipInterpolator(CubicHermiteSpline):
    """Monotone piecewise cubic (Fritsch-Butland slopes) through real data (x, y)."""

    def __init__(self, x, y, axis=0, extrapolate=None):
        x, dx, y, axis, _ = _prepare(x, y, axis)
        if y.dtype.kind == 'c':
            raise ValueError("`PchipInterpolator` only works with real values for `y`.")
        d = _pchip_slopes(dx, y)
        PPoly.__init__(self, _hermite_coeffs(dx, y, d), x, extrapolate=True if extrapolate is None else extrapolate)
        self.axis = axis


def pchip_interpolate(xi, yi, x, der=0, axis=0):
    """PchipInterpolator(xi, yi, axis)(x), or its derivative(s) of order der (an int or a list of ints)."""
    P = PchipInterpolator(xi, yi, axis=axis)
    if der == 0:
        return P(x)
    if numpy.ndim(der) == 0:
        return P.derivative(der)(x)
    return [P.derivative(nu)(x) for nu in der]


class Akima1DInterpolator(CubicHermiteSpline):
    """Akima's (method='akima') or the modified Akima (method='makima') piecewise cubic interpolant."""

    def __init__(self, x, y, axis=0, *, method='akima', extrapolate=None):
        if method not in ('akima', 'makima'):
            raise NotImplementedError(f"`method`={method} is unsupported.")
        x, dx, y, axis, _ = _prepare(x, y, axis)
        if y.dtype.kind == 'c':
            raise ValueError("Akima1DInterpolator only works with real values for `y`.")
        sh = (-1,) + (1,) * (y.ndim - 1)
        h = dx.reshape(sh)
        n = x.shape[0]
        m = _cp.empty((n + 3,) + y.shape[1:], dtype=numpy.float64)
        m[2:-2] = (y[1:] - y[:-1]) / h
        # Two extra slopes at each end, extended linearly.
        if n == 2:
            m[1] = m[2]
            m[0] = m[2]
            m[-2] = m[2]
            m[-1] = m[2]
        else:
            m[1] = 2.0 * m[2] - m[3]
            m[0] = 2.0 * m[1] - m[2]
            m[-2] = 2.0 * m[-3] - m[-4]
            m[-1] = 2.0 * m[-2] - m[-3]
        dm = _cp.abs(m[1:] - m[:-1])
        if method == 'makima':
            pm = _cp.abs(m[1:] + m[:-1])
            f1 = dm[2:] + 0.5 * pm[2:]
            f2 = dm[:-2] + 0.5 * pm[:-2]
        else:
            f1 = dm[2:]
            f2 = dm[:-2]
        f12 = f1 + f2
        t = 0.5 * (m[3:] + m[:-3])
        # The threshold is relative to the largest weight over the whole array, as in SciPy.
        thr = 1e-9 * f12.max() if f12.size else 0.0
        big = f12 > thr
        safe = _cp.where(big, f12, 1.0)
        t = _cp.where(big, (f1 * m[1:-2] + f2 * m[2:-1]) / safe, t)
        PPoly.__init__(self, _hermite_coeffs(dx, y, t), x, extrapolate=False if extrapolate is None else extrapolate)
        self.axis = axis


def _thomas(lower, diag, upper, rhs):
    """Tridiagonal solve on the host (NumPy; O(n) sequential elimination, vectorised over columns):
    lower[i] multiplies s[i-1], upper[i] s[i+1]; rhs is (n, ncols)."""
    n = diag.shape[0]
    cp_ = numpy.zeros(n, dtype=numpy.float64)
    dp = numpy.zeros_like(rhs)
    cp_[0] = upper[0] / diag[0]
    dp[0] = rhs[0] / diag[0]
    for i in range(1, n):
        den = diag[i] - lower[i] * cp_[i - 1]
        cp_[i] = upper[i] / den if i < n - 1 else 0.0
        dp[i] = (rhs[i] - lower[i] * dp[i - 1]) / den
    s = numpy.empty_like(rhs)
    s[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        s[i] = dp[i] - cp_[i] * s[i + 1]
    return s


def _parse_bc(bc_type, n_extra):
    if isinstance(bc_type, str):
        if bc_type == 'periodic':
            return 'periodic', 'periodic'
        return bc_type, bc_type
    if len(bc_type) != 2:
        raise ValueError("`bc_type` must contain 2 elements to specify start and end conditions.")
    return bc_type


def _bc_norm(bc, tail_shape):
    if isinstance(bc, str):
        if bc == 'clamped':
            return (1, numpy.zeros(tail_shape))
        if bc == 'natural':
            return (2, numpy.zeros(tail_shape))
        if bc == 'not-a-knot':
            return bc
        if bc == 'periodic':
            raise ValueError("'periodic' must be specified for both ends.")
        raise ValueError(f"bc_type={bc} is not allowed.")
    try:
        order, value = bc
    except (TypeError, ValueError):
        raise ValueError("A specified derivative value must be given in the form (order, value).") from None
    if order not in (1, 2):
        raise ValueError("The specified derivative order must be 1 or 2.")
    value = numpy.asarray(_cp.asnumpy(value) if isinstance(value, _cp.ndarray) else value)
    if value.shape != tuple(tail_shape):
        raise ValueError(f"`deriv_value` shape {value.shape} is not the expected one {tuple(tail_shape)}.")
    return (order, value)


class CubicSpline(CubicHermiteSpline):
    """Twice continuously differentiable cubic spline through (x, y) with SciPy's boundary conditions."""

    def __init__(self, x, y, axis=0, bc_type='not-a-knot', extrapolate=None):
        x, dx, y, axis, _ = _prepare(x, y, axis)
        n = x.shape[0]
        tail = y.shape[1:]
        bc = _parse_bc(bc_type, 0)
        if bc[0] == 'periodic' or bc[1] == 'periodic':
            if not (bc[0] == 'periodic' and bc[1] == 'periodic'):
                raise ValueError("'periodic' must be specified for both ends.")
            if not bool(_cp.allclose(y[0], y[-1], rtol=1e-15, atol=1e-15)):
                raise ValueError(f"The first and last `y` point along axis {axis} must be identical (within "
                                 "machine precision) when bc_type='periodic'.")
            bc = ('periodic', 'periodic')
        else:
            bc = (_bc_norm(bc[0], tail), _bc_norm(bc[1], tail))
        if extrapolate is None:
            extrapolate = 'periodic' if bc[0] == 'periodic' else True
        # The slope system is tridiagonal with O(n) unknowns: it is set up and solved on the host with NumPy
        # (sequential elimination), the Hermite coefficients and every evaluation then run on the device.
        xh = _cp.asnumpy(x)
        yh = _cp.asnumpy(y).reshape(n, -1)
        cplx = numpy.iscomplexobj(yh)
        if cplx:
            yh = numpy.concatenate([yh.real, yh.imag], axis=1)
        h = numpy.diff(xh)
        slope = numpy.diff(yh, axis=0) / h[:, None]
        s = self._slopes(xh, h, slope, bc, n, yh.shape[1], cplx)
        if cplx:
            half = s.shape[1] // 2
            s = s[:, :half] + 1j * s[:, half:]
        s = _cp.asarray(s.reshape((n,) + tail))
        PPoly.__init__(self, _hermite_coeffs(dx, y, s), x, extrapolate=extrapolate)
        self.axis = axis

    @staticmethod
    def _slopes(x, h, slope, bc, n, ncol, cplx):
        def bc_cols(v):
            v = numpy.asarray(v).reshape(-1)
            return numpy.concatenate([v.real, v.imag]) if cplx else v.real if numpy.iscomplexobj(v) else v

        if n == 2 and bc[0] == 'not-a-knot' and bc[1] == 'not-a-knot':
            return numpy.vstack([slope, slope])
        if n == 2 and bc[0] == 'periodic':
            return numpy.zeros((2, ncol))
        if n == 3 and bc[0] == 'not-a-knot' and bc[1] == 'not-a-knot':
            A = numpy.array([[1.0, 1.0, 0.0], [h[1], 2 * (h[0] + h[1]), h[0]], [0.0, 1.0, 1.0]])
            b = numpy.vstack([2 * slope[0], 3 * (h[0] * slope[1] + h[1] * slope[0]), 2 * slope[1]])
            return numpy.linalg.solve(A, b)
        if bc[0] == 'periodic':
            # Unknowns s[0..n-2] (s[n-1] = s[0]): a cyclic tridiagonal system, solved densely when small.
            N = n - 1
            A = numpy.zeros((N, N))
            b = numpy.zeros((N, ncol))
            for i in range(N):
                hl = h[i - 1] if i > 0 else h[-1]
                hr = h[i]
                sl = slope[i - 1] if i > 0 else slope[-1]
                A[i, (i - 1) % N] += hr
                A[i, i] += 2 * (hl + hr)
                A[i, (i + 1) % N] += hl
                b[i] = 3 * (hr * sl + hl * slope[i])
            s = numpy.linalg.solve(A, b)
            return numpy.vstack([s, s[:1]])
        lower = numpy.zeros(n)
        diag = numpy.zeros(n)
        upper = numpy.zeros(n)
        rhs = numpy.zeros((n, ncol))
        lower[1:-1] = h[1:]
        diag[1:-1] = 2 * (h[:-1] + h[1:])
        upper[1:-1] = h[:-1]
        rhs[1:-1] = 3 * (h[1:, None] * slope[:-1] + h[:-1, None] * slope[1:])
        left, right = bc
        if n == 2 and left == 'not-a-knot':
            left = (1, slope[0])
        if n == 2 and right == 'not-a-knot':
            right = (1, slope[0])
        if n == 2:
            ncol_bc = slope.shape[1]
            bc_cols_base = bc_cols
            bc_cols = (lambda v: v if numpy.shape(v) == (ncol_bc,) and not isinstance(v, tuple)  # NOQA: E731
                       else bc_cols_base(v))
        if left == 'not-a-knot':
            d = x[2] - x[0]
            diag[0] = h[1]
            upper[0] = d
            rhs[0] = ((h[0] + 2 * d) * h[1] * slope[0] + h[0] ** 2 * slope[1]) / d
        elif left[0] == 1:
            diag[0], upper[0] = 1.0, 0.0
            rhs[0] = bc_cols(left[1])
        else:
            diag[0], upper[0] = 2.0, 1.0
            rhs[0] = 3 * slope[0] - 0.5 * bc_cols(left[1]) * h[0]
        if right == 'not-a-knot':
            d = x[-1] - x[-3]
            diag[-1] = h[-2]
            lower[-1] = d
            rhs[-1] = (h[-1] ** 2 * slope[-2] + (2 * d + h[-1]) * h[-2] * slope[-1]) / d
        elif right[0] == 1:
            diag[-1], lower[-1] = 1.0, 0.0
            rhs[-1] = bc_cols(right[1])
        else:
            diag[-1], lower[-1] = 2.0, 1.0
            rhs[-1] = 3 * slope[-1] + 0.5 * bc_cols(right[1]) * h[-1]
        if left == 'not-a-knot' or right == 'not-a-knot':
            # The not-a-knot rows couple s[0] with s[1] only through the 2x2 corner, so the system stays
            # tridiagonal; it is not diagonally dominant, hence the dense solve for short inputs.
            if n <= 512:
                A = numpy.diag(diag) + numpy.diag(upper[:-1], 1) + numpy.diag(lower[1:], -1)
                return numpy.linalg.solve(A, rhs)
        return _thomas(lower, diag, upper, rhs)


pchip = PchipInterpolator
