"""Bernstein-basis and n-D piecewise polynomials of cuarray.scipy.interpolate: BPoly and NdPPoly."""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.interpolate._ppoly import PPoly, _coef_dtype, _PPolyBase


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _find_interval(bp, xp, extrapolate):
    """Interval of each point (SciPy's rule: x[i] <= xp < x[i+1], last interval closed; mirrored when the
    breakpoints descend) and a mask of points that read NaN (NaN, or outside without extrapolation)."""
    m = bp.shape[0] - 1
    desc = m >= 1 and bool(bp[m] < bp[0])
    key = -bp if desc else bp
    xs = -xp if desc else xp
    idx = _cp.clip(_cp.searchsorted(key, xs, side='right') - 1, 0, m - 1)
    bad = _cp.isnan(xp)
    if not extrapolate:
        bad = bad | (xs < key[0]) | (xs > key[m])
    return idx, bad


def _comb(n, k):
    return float(math.comb(n, k))


def _raise_degree(c, d):
    """Bernstein coefficients (k, ...) of the same polynomial written with degree raised by d (host NumPy)."""
    if d == 0:
        return c
    k = c.shape[0] - 1
    out = numpy.zeros((k + d + 1,) + c.shape[1:], dtype=c.dtype)
    for a in range(k + 1):
        f = c[a] * _comb(k, a)
        for j in range(d + 1):
            out[a + j] += f * _comb(d, j) / _comb(k + d, a + j)
    return out


def _raise_degree_dev(c, d):
    if d == 0:
        return c
    k = c.shape[0] - 1
    M = numpy.zeros((k + d + 1, k + 1))
    for a in range(k + 1):
        for j in range(d + 1):
            M[a + j, a] = _comb(k, a) * _comb(d, j) / _comb(k + d, a + j)
    flat = c.reshape(k + 1, -1)
    return (_cp.asarray(M).astype(flat.dtype) @ flat).reshape((k + d + 1,) + c.shape[1:])


class BPoly(_PPolyBase):
    """Piecewise polynomial in the Bernstein basis: on [x[i], x[i+1]] with t = (xp - x[i]) / (x[i+1] - x[i]),
    S = sum_a c[a, i] * comb(k, a) * t**a * (1 - t)**(k - a), k = c.shape[0] - 1."""

    def _h(self, ndim):
        return (self.x[1:] - self.x[:-1]).reshape((-1,) + (1,) * (ndim - 2))

    def _derivative_c(self, c, nu):
        for _ in range(nu):
            k = c.shape[0] - 1
            if k == 0:
                return _cp.zeros((1,) + c.shape[1:], dtype=c.dtype)
            c = k * (c[1:] - c[:-1]) / self._h(c.ndim)
        return c

    def __call__(self, x, nu=0, extrapolate=None):
        """Value (or nu-th derivative) at x, shaped as PPoly's."""
        nu = int(nu)
        if nu < 0:
            raise NotImplementedError("Cannot do antiderivatives in the B-basis yet.")
        if nu > self.c.shape[0]:
            raise ValueError("negative dimensions are not allowed")
        if extrapolate is None:
            extrapolate = self.extrapolate
        x = _asarray(x)
        xs = x.shape
        xf = x.reshape(-1).astype(numpy.float64)
        if extrapolate == 'periodic':
            x0, x1 = self.x[0], self.x[-1]
            xf = x0 + (xf - x0) % (x1 - x0)
            extrapolate = False
        rest = self.c.shape[2:]
        c = self._derivative_c(self.c, nu)
        c = c.reshape(c.shape[0], c.shape[1], -1)
        idx, bad = _find_interval(self.x, xf, bool(extrapolate))
        h = self.x[idx + 1] - self.x[idx]
        t = ((xf - self.x[idx]) / h)[:, None]
        # de Casteljau on the gathered local coefficients (one row of columns per point).
        b = [c[a][idx] for a in range(c.shape[0])]
        for r in range(1, len(b)):
            for a in range(len(b) - r):
                b[a] = (1.0 - t) * b[a] + t * b[a + 1]
        out = b[0]
        out = _cp.where(bad[:, None], numpy.nan, out)
        out = out.reshape(xs + rest)
        if self.axis != 0 and x.ndim + len(rest):
            nx = len(xs)
            perm = list(range(nx, nx + self.axis)) + list(range(nx)) + list(range(nx + self.axis, nx + len(rest)))
            out = out.transpose(perm)
        return out

    def _wrapb(self, c, extrapolate=None):
        return BPoly.construct_fast(c, self.x, self.extrapolate if extrapolate is None else extrapolate,
                                    self.axis)

    def derivative(self, nu=1):
        """The nu-th derivative as a BPoly (nu < 0: antiderivative)."""
        if nu < 0:
            return self.antiderivative(-nu)
        if nu == 0:
            return self._wrapb(self.c.copy())
        return self._wrapb(self._derivative_c(self.c, nu))

    def antiderivative(self, nu=1):
        """The nu-th antiderivative, zero at x[0] and continuous, as a BPoly."""
        if nu <= 0:
            return self.derivative(-nu)
        c = self.c
        for _ in range(nu):
            k = c.shape[0]
            c2 = _cp.zeros((k + 1,) + c.shape[1:], dtype=c.dtype)
            c2[1:] = _cp.cumsum(c, axis=0) * self._h(c.ndim) / k
            # Bernstein bases sum to one: each piece is lifted by the end values of the pieces before it.
            lift = _cp.cumsum(c2[k], axis=0)
            c2[:, 1:] += lift[:-1]
            c = c2
        ext = False if self.extrapolate == 'periodic' else self.extrapolate
        return self._wrapb(c, ext)

    def integrate(self, a, b, extrapolate=None):
        """Definite integral from a to b; periodic extrapolation wraps whole periods."""
        F = self.antiderivative()
        if extrapolate is None:
            extrapolate = self.extrapolate
        if extrapolate != 'periodic':
            F.extrapolate = extrapolate
            v = F(_cp.asarray([float(a), float(b)]))
            return _cp.take(v, 1, self.axis) - _cp.take(v, 0, self.axis)
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        xs, xe = float(self.x[0]), float(self.x[-1])
        period = xe - xs
        nper, left = divmod(b - a, period)
        a2 = xs + (a - xs) % period
        b2 = a2 + left
        F.extrapolate = True
        if b2 <= xe:
            pts = [xe, xs, b2, a2]
        else:
            pts = [xe, xs, xe, a2, xs + left + a2 - xe, xs]
        v = F(_cp.asarray(pts))
        t = lambda i: _cp.take(v, i, self.axis)  # NOQA: E731
        res = nper * (t(0) - t(1)) + (t(2) - t(3))
        if len(pts) == 6:
            res = res + (t(4) - t(5))
        return sign * res

    def extend(self, c, x):
        """Append intervals; both sets of coefficients are raised to the common degree first."""
        c = _asarray(c)
        k = max(self.c.shape[0], c.shape[0])
        self.c = _raise_degree_dev(self.c, k - self.c.shape[0])
        c = _raise_degree_dev(c.astype(_coef_dtype(c.dtype)), k - c.shape[0])
        return _PPolyBase.extend(self, c, x)

    @classmethod
    def from_power_basis(cls, pp, extrapolate=None):
        """The BPoly equal to a PPoly: t**p = sum_{j>=p} comb(j, p) / comb(n, p) b_{j,n}(t)."""
        if not isinstance(pp, PPoly):
            raise TypeError(f".from_power_basis only accepts PPoly instances. Got {type(pp)} instead.")
        k = pp.c.shape[0] - 1
        h = (pp.x[1:] - pp.x[:-1]).reshape((-1,) + (1,) * (pp.c.ndim - 2))
        c = _cp.zeros_like(pp.c)
        for p in range(k + 1):
            ap = pp.c[k - p] * h ** p
            for j in range(p, k + 1):
                c[j] += ap * (_comb(j, p) / _comb(k, p))
        if extrapolate is None:
            extrapolate = pp.extrapolate
        return cls.construct_fast(c, pp.x, extrapolate, pp.axis)

    @classmethod
    def from_derivatives(cls, xi, yi, orders=None, extrapolate=None):
        """Piecewise polynomial matching the listed derivatives yi[i] = [f(xi[i]), f'(xi[i]), ...] at each
        breakpoint; per-interval `orders` cap the degree. The local Bernstein coefficients are solved on the host
        (a triangular recurrence per interval)."""
        xh = numpy.asarray(_cp.asnumpy(xi) if isinstance(xi, _cp.ndarray) else xi)
        if isinstance(yi, _cp.ndarray):
            yi = _cp.asnumpy(yi)
        if xh.shape[0] != len(yi):
            raise ValueError("xi and yi need to have the same length")
        if bool(numpy.any(xh[1:] - xh[:1] <= 0)):
            raise ValueError("x coordinates are not in increasing order")
        m = xh.shape[0] - 1
        try:
            k = max(len(yi[i]) + len(yi[i + 1]) for i in range(m))
        except TypeError as e:
            raise ValueError("Using a 1-D array for y? Please .reshape(-1, 1).") from e
        if orders is None:
            orders = [None] * m
        else:
            if isinstance(orders, (int, numpy.integer)):
                orders = [orders] * m
            k = max(k, max(orders))
            if any(o <= 0 for o in orders):
                raise ValueError("Orders must be positive.")
        blocks = []
        for i in range(m):
            y1, y2 = yi[i], yi[i + 1]
            if orders[i] is None:
                n1, n2 = len(y1), len(y2)
            else:
                n = orders[i] + 1
                n2 = min(n - min(n // 2, len(y1)), len(y2))
                # SciPy's rule: the left count is what is left over, capped by the *right* point's data.
                n1 = min(n - n2, len(y2))
                if n1 + n2 != n:
                    raise ValueError(f"Point {xh[i]:g} has {len(y1)} derivatives, point {xh[i + 1]:g} has "
                                     f"{len(y2)} derivatives, but order {orders[i]} requested")
                if not (n1 <= len(y1) and n2 <= len(y2)):
                    raise ValueError("`order` input incompatible with length y1 or y2.")
            b = cls._construct_from_derivatives(xh[i], xh[i + 1], y1[:n1], y2[:n2])
            if len(b) < k:
                b = _raise_degree(b, k - len(b))
            blocks.append(b)
        c = numpy.asarray(blocks)
        return cls(_cp.asarray(numpy.ascontiguousarray(numpy.swapaxes(c, 0, 1))), _cp.asarray(xh), extrapolate)

    @staticmethod
    def _construct_from_derivatives(xa, xb, ya, yb):
        """Bernstein coefficients of the degree na+nb-1 polynomial on [xa, xb] with derivatives ya at xa, yb at
        xb: the q-th derivative at an end involves only the q + 1 coefficients nearest to it."""
        ya = numpy.asarray(ya)
        yb = numpy.asarray(yb)
        if ya.shape[1:] != yb.shape[1:]:
            raise ValueError(f"Shapes of ya {ya.shape} and yb {yb.shape} are incompatible")
        dt = numpy.complex128 if (ya.dtype.kind == 'c' or yb.dtype.kind == 'c') else numpy.float64
        na, nb = len(ya), len(yb)
        n = na + nb
        deg = n - 1
        h = xb - xa
        c = numpy.zeros((n,) + ya.shape[1:], dtype=dt)
        for q in range(na):
            # deg!/(deg-q)! / h**q * sum_j (-1)**(q-j) comb(q, j) c_j = ya[q]
            s = ya[q] * h ** q * math.factorial(deg - q) / math.factorial(deg)
            for j in range(q):
                s = s - (-1) ** (q - j) * math.comb(q, j) * c[j]
            c[q] = s
        for q in range(nb):
            s = yb[q] * h ** q * math.factorial(deg - q) / math.factorial(deg)
            for i in range(q):
                s = s - (-1) ** i * math.comb(q, i) * c[deg - i]
            c[deg - q] = (-1) ** q * s
        return c


def _ppoly_from_bernstein(cls, bp, extrapolate=None):
    """Power-basis coefficients of a BPoly: b_{a,n}(t) = sum_{j>=a} comb(n,a) comb(n-a,j-a) (-1)**(j-a) t**j."""
    if not isinstance(bp, BPoly):
        raise TypeError(f".from_bernstein_basis only accepts BPoly instances. Got {type(bp)} instead.")
    n = bp.c.shape[0] - 1
    h = (bp.x[1:] - bp.x[:-1]).reshape((-1,) + (1,) * (bp.c.ndim - 2))
    c = _cp.zeros_like(bp.c)
    for a in range(n + 1):
        for j in range(a, n + 1):
            f = _comb(n, a) * _comb(n - a, j - a) * (-1.0) ** (j - a)
            c[n - j] += bp.c[a] * f / h ** j
    if extrapolate is None:
        extrapolate = bp.extrapolate
    return cls.construct_fast(c, bp.x, extrapolate, bp.axis)


PPoly.from_bernstein_basis = classmethod(_ppoly_from_bernstein)


class NdPPoly:
    """Piecewise tensor-product polynomial: c has shape (k_1..k_n, m_1..m_n, ...) on the breakpoints x[d]."""

    def __init__(self, c, x, extrapolate=None):
        self.x = tuple(_cp.ascontiguousarray(_asarray(v).astype(numpy.float64)) for v in x)
        self.c = _asarray(c)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        if any(v.ndim != 1 for v in self.x):
            raise ValueError("x arrays must all be 1-dimensional")
        if any(v.size < 2 for v in self.x):
            raise ValueError("x arrays must all contain at least 2 points")
        if self.c.ndim < 2 * ndim:
            raise ValueError("c must have at least 2*len(x) dimensions")
        if any(bool((v[1:] - v[:-1] < 0).any()) for v in self.x):
            raise ValueError("x-coordinates are not in increasing order")
        if any(a != b.size - 1 for a, b in zip(self.c.shape[ndim:2 * ndim], self.x)):
            raise ValueError("x and c do not agree on the number of intervals")
        self.c = _cp.ascontiguousarray(self.c.astype(_coef_dtype(self.c.dtype)))

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None):
        """Construct without checks."""
        self = object.__new__(cls)
        self.c = _asarray(c)
        self.x = tuple(x)
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def __call__(self, x, nu=None, extrapolate=None):
        """Value (or the mixed derivative of orders nu) at points x (..., ndim)."""
        ndim = len(self.x)
        if extrapolate is None:
            extrapolate = self.extrapolate
        extrapolate = bool(extrapolate)
        if nu is None:
            nu = (0,) * ndim
        nu = tuple(int(v) for v in nu)
        if len(nu) != ndim:
            raise ValueError("invalid number of derivative orders nu")
        x = _asarray(x).astype(numpy.float64)
        if x.shape[-1] != ndim:
            raise ValueError(f"x does not have the right shape: last dimension must be {ndim}")
        lead = x.shape[:-1]
        xf = x.reshape(-1, ndim)
        npt = xf.shape[0]
        ks = self.c.shape[:ndim]
        tail = self.c.shape[2 * ndim:]
        # Bring the interval axes first so one fancy index gathers each point's local coefficient block.
        perm = list(range(ndim, 2 * ndim)) + list(range(ndim)) + list(range(2 * ndim, self.c.ndim))
        cm = self.c.transpose(perm)
        idxs, pw = [], []
        bad = _cp.zeros(npt, dtype=bool)
        for d in range(ndim):
            idx, b = _find_interval(self.x[d], xf[:, d], extrapolate)
            bad = bad | b
            s = xf[:, d] - self.x[d][idx]
            k = ks[d]
            cols = []
            for j in range(k):
                p = k - 1 - j
                if p < nu[d]:
                    cols.append(_cp.zeros(npt))
                    continue
                f = 1.0
                for q in range(nu[d]):
                    f *= p - q
                cols.append(f * s ** (p - nu[d]))
            pw.append(_cp.stack(cols, axis=1))
            idxs.append(idx)
        block = cm[tuple(idxs)]  # (npt, k_1..k_n, tail)
        ntail = len(tail)
        for d in range(ndim):
            shp = (npt, ks[d]) + (1,) * (ndim - d - 1 + ntail)
            block = (block * pw[d].reshape(shp)).sum(axis=1)
        out = _cp.where(bad.reshape((npt,) + (1,) * ntail), numpy.nan, block)
        return out.reshape(lead + tail)

    def _along(self, axis):
        """(c reshaped as a PPoly along `axis`, restore function)."""
        ndim = len(self.x)
        c = _cp.moveaxis(self.c, ndim + axis, 0)
        c = _cp.moveaxis(c, axis + 1, 0)
        shp = c.shape

        def restore(c2):
            c2 = c2.reshape(c2.shape[:2] + shp[2:])
            c2 = _cp.moveaxis(c2, 0, axis + 1)
            return _cp.moveaxis(c2, 0, ndim + axis)
        return PPoly.construct_fast(c.reshape(shp[0], shp[1], -1), self.x[axis], self.extrapolate), restore

    def derivative(self, nu):
        """The mixed derivative of orders nu (one per dimension) as an NdPPoly."""
        p = NdPPoly.construct_fast(self.c, self.x, self.extrapolate)
        for ax, n in enumerate(nu):
            if n:
                pp, restore = p._along(ax)
                p = NdPPoly.construct_fast(restore(pp.derivative(n).c), self.x, self.extrapolate)
        return p

    def antiderivative(self, nu):
        """The mixed antiderivative of orders nu, continuous along each axis, as an NdPPoly."""
        p = NdPPoly.construct_fast(self.c, self.x, self.extrapolate)
        for ax, n in enumerate(nu):
            if n:
                pp, restore = p._along(ax)
                p = NdPPoly.construct_fast(restore(pp.antiderivative(n).c), self.x, self.extrapolate)
        return p

    def integrate_1d(self, a, b, axis, extrapolate=None):
        """Integral over [a, b] along one axis: an NdPPoly of one fewer dimension (an array for 1-D)."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        ndim = len(self.x)
        axis = int(axis) % ndim
        c = _cp.moveaxis(self.c, ndim + axis, 0)
        c = _cp.moveaxis(c, axis + 1, 0)
        rest = c.shape[2:]
        v = PPoly.construct_fast(c.reshape(c.shape[0], c.shape[1], -1), self.x[axis],
                                 extrapolate).integrate(a, b, extrapolate=extrapolate)
        v = v.reshape(rest)
        if ndim == 1:
            return v
        x = self.x[:axis] + self.x[axis + 1:]
        return NdPPoly.construct_fast(v, x, self.extrapolate)

    def integrate(self, ranges, extrapolate=None):
        """Integral over the box given by ranges [(a_1, b_1), ...]."""
        ndim = len(self.x)
        if extrapolate is None:
            extrapolate = self.extrapolate
        if len(ranges) != ndim:
            raise ValueError("Range not a sequence of correct length")
        p = self
        for ax in range(ndim - 1, -1, -1):
            a, b = ranges[ax]
            p = p.integrate_1d(a, b, ax, extrapolate=extrapolate)
        return p

