"""B-splines of cuarray.scipy.interpolate: BSpline, splder, splantider, make_interp_spline, make_lsq_spline."""
import numpy

import cuarray as _cp
from cuarray.scipy.interpolate import _kernels


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _eval(t, c, k, xp, nu, extrapolate):
    """t (nt,), c (nc, ncols) float64/complex128, xp (n,) -> (n, ncols) on the device."""
    if c.dtype.kind == 'c':
        return (_eval(t, _cp.ascontiguousarray(c.real), k, xp, nu, extrapolate)
                + 1j * _eval(t, _cp.ascontiguousarray(c.imag), k, xp, nu, extrapolate))
    n, ncols = xp.shape[0], c.shape[1]
    out = _cp.empty((n, ncols), dtype=numpy.float64)
    if out.size == 0:
        return out
    kern = _kernels.kernel(('bspline', int(k)))
    kern((_kernels.blocks(n * ncols),), (_kernels.THREADS,),
         (t, c, xp, out, _kernels.i64(t.shape[0]), _kernels.i64(ncols), _kernels.i64(n), _kernels.i32(nu),
          _kernels.i32(1 if extrapolate else 0)))
    return out


class BSpline:
    """Univariate spline of degree k in the B-spline basis: S(x) = sum_j c[j] B_{j,k;t}(x)."""

    def __init__(self, t, c, k, extrapolate=True, axis=0):
        self.k = int(k)
        if self.k != k:
            raise ValueError("Spline order must be integer")
        t = _asarray(t)
        c = _asarray(c)
        if extrapolate == 'periodic':
            self.extrapolate = extrapolate
        else:
            self.extrapolate = bool(extrapolate)
        if c.ndim == 0:
            raise ValueError("Coefficients must be at least 1-dimensional")
        n = t.shape[0] - self.k - 1
        axis = axis % c.ndim
        self.axis = axis
        if axis != 0:
            c = _cp.moveaxis(c, axis, 0)
        if self.k < 0:
            raise ValueError("Spline order cannot be negative.")
        if t.ndim != 1:
            raise ValueError("Knot vector must be one-dimensional.")
        if n < self.k + 1:
            raise ValueError(f"Need at least {2 * self.k + 2} knots for degree {self.k}")
        if c.shape[0] < n:
            raise ValueError("Knots, coefficients and degree are inconsistent.")
        t = t.astype(numpy.float64)
        if bool((t[1:] < t[:-1]).any()):
            raise ValueError("Knots must be in a non-decreasing order.")
        if not bool(t[self.k] < t[n]):
            raise ValueError("Need at least two internal knots.")
        if not bool(_cp.isfinite(t).all()):
            raise ValueError("Knots should not have nans or infs.")
        self.t = _cp.ascontiguousarray(t)
        self.c = _cp.ascontiguousarray(c.astype(numpy.complex128 if c.dtype.kind == 'c' else numpy.float64))

    @classmethod
    def construct_fast(cls, t, c, k, extrapolate=True, axis=0):
        """Construct without checks."""
        self = object.__new__(cls)
        self.t = _cp.ascontiguousarray(_asarray(t))
        self.c = _cp.ascontiguousarray(_asarray(c))
        self.k = int(k)
        self.extrapolate = extrapolate
        self.axis = axis
        return self

    @property
    def tck(self):
        """(t, c, k) with c's interpolation axis first."""
        return self.t, self.c, self.k

    def __call__(self, x, nu=0, extrapolate=None):
        """Value (or nu-th derivative) at x; the result has c.shape[1:] with x's shape inserted at `axis`."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        x = _asarray(x)
        xs = x.shape
        xf = _cp.ascontiguousarray(x.reshape(-1).astype(numpy.float64))
        nb = self.t.shape[0] - self.k - 1
        if extrapolate == 'periodic':
            lo, hi = self.t[self.k], self.t[nb]
            xf = _cp.ascontiguousarray(lo + (xf - lo) % (hi - lo))
            extrapolate = False
        c = self.c.reshape(self.c.shape[0], -1)
        out = _eval(self.t, _cp.ascontiguousarray(c), self.k, xf, int(nu), extrapolate)
        out = out.reshape(xs + self.c.shape[1:])
        if self.axis != 0:
            nx = len(xs)
            rest = self.c.ndim - 1
            perm = list(range(nx, nx + self.axis)) + list(range(nx)) + list(range(nx + self.axis, nx + rest))
            out = out.transpose(perm)
        return out

    def derivative(self, nu=1):
        """The nu-th derivative as a BSpline of degree k - nu."""
        return splder(self, nu)

    def antiderivative(self, nu=1):
        """The nu-th antiderivative as a BSpline of degree k + nu."""
        return splantider(self, nu)

    def integrate(self, a, b, extrapolate=None):
        """Definite integral of the spline from a to b."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        sign = 1
        if b < a:
            a, b, sign = b, a, -1
        F = self.antiderivative()
        nb = self.t.shape[0] - self.k - 1
        if extrapolate == 'periodic':
            lo, hi = float(self.t[self.k]), float(self.t[nb])
            period = hi - lo
            whole, rem = divmod(b - a, period)
            a2 = lo + (a - lo) % period
            b2 = a2 + rem
            vals = F(_cp.asarray([lo, hi]), extrapolate=False)
            full = _cp.take(vals, 1, self.axis) - _cp.take(vals, 0, self.axis)
            if b2 <= hi:
                v = F(_cp.asarray([a2, b2]), extrapolate=False)
                part = _cp.take(v, 1, self.axis) - _cp.take(v, 0, self.axis)
            else:
                v = F(_cp.asarray([a2, hi, lo, lo + b2 - hi]), extrapolate=False)
                part = (_cp.take(v, 1, self.axis) - _cp.take(v, 0, self.axis)
                        + _cp.take(v, 3, self.axis) - _cp.take(v, 2, self.axis))
            return sign * (whole * full + part)
        if not extrapolate:
            lo, hi = float(self.t[self.k]), float(self.t[nb])
            a, b = min(max(a, lo), hi), min(max(b, lo), hi)
        v = F(_cp.asarray([float(a), float(b)]), extrapolate=True)
        return sign * (_cp.take(v, 1, self.axis) - _cp.take(v, 0, self.axis))

    @classmethod
    def basis_element(cls, t, extrapolate=True):
        """The single B-spline B(x | t) of degree len(t) - 2 on the knots t."""
        t = _asarray(t).astype(numpy.float64)
        k = t.shape[0] - 2
        tt = _cp.concatenate([_cp.full(k, t[0]), t, _cp.full(k, t[-1])])
        c = _cp.zeros(tt.shape[0] - k - 1)
        c[k] = 1.0
        return cls.construct_fast(tt, c, k, extrapolate)

    @classmethod
    def design_matrix(cls, x, t, k, extrapolate=False):
        """The (len(x), len(t) - k - 1) matrix of the B-spline basis functions at x (dense; SciPy returns a
        sparse CSR array: here cuarray.scipy.sparse.csr_matrix)."""
        from cuarray.scipy.sparse import csr_matrix
        x = _asarray(x).astype(numpy.float64)
        t = _asarray(t).astype(numpy.float64)
        k = int(k)
        nb = t.shape[0] - k - 1
        if nb < k + 1:
            raise ValueError(f"Length t is not enough for k={k}.")
        if not extrapolate and x.size and (bool((x < t[k]).any()) or bool((x > t[nb]).any())):
            raise ValueError(f"Out of bounds: `x` must be in [{float(t[k])}, {float(t[nb])}]")
        return csr_matrix(_basis_matrix(t, k, x, 0, True))


def _basis_matrix(t, k, x, nu, extrapolate):
    """Dense (len(x), nb) matrix of the nu-th derivatives of the basis functions (one kernel launch)."""
    nb = t.shape[0] - k - 1
    eye = _cp.eye(nb, dtype=numpy.float64)
    return _eval(_cp.ascontiguousarray(t), eye, k, _cp.ascontiguousarray(x), nu, extrapolate)


def splder(tck, n=1):
    """The n-th derivative of a BSpline (degree k - n; coefficients by knot differencing)."""
    if n < 0:
        return splantider(tck, -n)
    t, c, k = tck.t, tck.c, tck.k
    if n > k:
        raise ValueError(f"Order of derivative (n = {n!r}) must be <= order of spline (k = {k!r})")
    sh = (-1,) + (1,) * (c.ndim - 1)
    for _ in range(n):
        dt = t[k + 1:-1] - t[1:-k - 1]
        nb = t.shape[0] - k - 1
        cc = c[:nb]
        safe = _cp.where(dt == 0, 1.0, dt)
        c = _cp.where((dt == 0).reshape(sh), 0.0, (cc[1:] - cc[:-1]) * k / safe.reshape(sh))
        t = t[1:-1]
        k -= 1
    return BSpline.construct_fast(t, c, k, tck.extrapolate, tck.axis)


def splantider(tck, n=1):
    """The n-th antiderivative of a BSpline (degree k + n), zero at the left end of the base interval."""
    if n < 0:
        return splder(tck, -n)
    t, c, k = tck.t, tck.c, tck.k
    sh = (-1,) + (1,) * (c.ndim - 1)
    for _ in range(n):
        nb = t.shape[0] - k - 1
        dt = (t[k + 1:] - t[:-k - 1])[:nb]
        c = _cp.cumsum(c[:nb] * dt.reshape(sh), axis=0) / (k + 1)
        c = _cp.concatenate([_cp.zeros((1,) + c.shape[1:], dtype=c.dtype), c,
                             _cp.broadcast_to(c[-1:], (1,) + c.shape[1:])], axis=0)
        t = _cp.concatenate([t[:1], t, t[-1:]])
        k += 1
    extrap = tck.extrapolate
    return BSpline.construct_fast(t, c, k, extrap, tck.axis)


def _not_a_knot(x, k):
    # SciPy's default knots: data points (odd k) or midpoints (even k), k+1 copies at each end.
    if k % 2 == 0:
        t = (x[1:] + x[:-1]) / 2.0
    else:
        t = x.copy()
    k2 = (k + 1) // 2
    t = t[k2:-k2] if k2 > 0 else t
    return numpy.concatenate([numpy.full(k + 1, x[0]), t, numpy.full(k + 1, x[-1])])


def _derivs_bc(bc, k, tail):
    if bc is None:
        return None
    if isinstance(bc, str):
        if bc == 'clamped':
            return [(1, numpy.zeros(tail))]
        if bc == 'natural':
            return [(2, numpy.zeros(tail))]
        raise ValueError(f"Unknown boundary condition : {bc}")
    return [(int(o), numpy.asarray(_cp.asnumpy(v) if isinstance(v, _cp.ndarray) else v)) for o, v in bc]


def make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0, check_finite=True):
    """The interpolating BSpline of degree k through (x, y), with optional derivative boundary conditions."""
    x = _asarray(x)
    y = _asarray(y)
    if x.dtype.kind == 'c':
        raise ValueError("`x` must contain real values.")
    k = int(k)
    if k < 0:
        raise ValueError("Expect non-negative k.")
    x = x.astype(numpy.float64)
    y = _cp.moveaxis(y, axis % max(y.ndim, 1), 0) if y.ndim else y
    cdt = numpy.complex128 if y.dtype.kind == 'c' else numpy.float64
    y = y.astype(cdt)
    if x.ndim != 1:
        raise ValueError("Expect x to be a 1D strictly increasing sequence.")
    if y.ndim == 0 or x.shape[0] != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    if check_finite and (not bool(_cp.isfinite(x).all()) or not bool(_cp.isfinite(y).all())):
        raise ValueError("array must not contain infs or NaNs")
    if x.shape[0] > 1 and bool((x[1:] <= x[:-1]).any()):
        raise ValueError("Expect x to not have duplicates")
    periodic = isinstance(bc_type, str) and bc_type == 'periodic'
    if periodic and not bool(_cp.allclose(y[0], y[-1], rtol=1e-5, atol=1e-15)):
        raise ValueError("First and last points does not match while periodic case expected")
    tail = y.shape[1:]
    if k == 0:
        if t is None:
            t = _cp.concatenate([x, x[-1:]])
        return BSpline.construct_fast(_asarray(t).astype(numpy.float64), y, 0, True, axis % max(y.ndim, 1))
    if k == 1 and t is None and (bc_type is None or periodic):
        t = _cp.concatenate([x[:1], x, x[-1:]])
        return BSpline.construct_fast(t, _cp.ascontiguousarray(y), 1, True, axis % max(y.ndim, 1))
    # The knot vector and the boundary rows are set up on the host (O(n + k) numbers); the collocation
    # matrix is built on the device by the B-spline kernel and solved there (dense LU, O(n^3)).
    xh = _cp.asnumpy(x)
    if periodic:
        if t is not None:
            raise NotImplementedError("For periodic case t is constructed automatically and can not be passed "
                                      "manually")
        return _make_periodic(x, xh, y, k, cdt, axis % max(y.ndim, 1))
    if isinstance(bc_type, tuple) and len(bc_type) == 2 or isinstance(bc_type, list) and len(bc_type) == 2 \
            and not isinstance(bc_type[0], (int, numpy.integer)):
        left, right = bc_type
    else:
        left = right = bc_type
    dl = _derivs_bc(left, k, tail) or []
    dr = _derivs_bc(right, k, tail) or []
    if t is None:
        if dl or dr:
            if k % 2 == 0 or len(dl) + len(dr) != k - 1:
                raise ValueError("Knots and boundary conditions are incompatible for this k")
            t = numpy.concatenate([numpy.full(k + 1, xh[0]), xh[1:-1], numpy.full(k + 1, xh[-1])])
            if len(dl) != len(dr):
                raise ValueError("The number of derivatives at boundaries does not match: expected "
                                 f"{(k - 1) // 2}, got {len(dl)}+{len(dr)}")
        else:
            t = _not_a_knot(xh, k)
    th = numpy.asarray(_cp.asnumpy(t) if isinstance(t, _cp.ndarray) else t, dtype=numpy.float64)
    nt = th.shape[0] - k - 1
    if x.shape[0] + len(dl) + len(dr) != nt:
        raise ValueError(f"The number of derivatives at boundaries does not match: expected "
                         f"{nt - x.shape[0]}, got {len(dl)}+{len(dr)}")
    if th.shape[0] < x.shape[0] + k + 1:
        raise ValueError(f"Got {th.shape[0]} knots, need at least {x.shape[0] + k + 1}.")
    if (xh[0] < th[k]) or (xh[-1] > th[-k - 1]):
        raise ValueError(f"Out of bounds w/ x = {xh}.")
    td = _cp.asarray(th)
    rows = []
    rhs = []
    ycols = y.reshape(y.shape[0], -1)
    for order, val in dl:
        rows.append(_basis_matrix(td, k, _cp.asarray([xh[0]]), order, True))
        rhs.append(_cp.asarray(numpy.asarray(val, dtype=cdt).reshape(1, -1)))
    rows.append(_basis_matrix(td, k, x, 0, True))
    rhs.append(ycols)
    for order, val in dr:
        rows.append(_basis_matrix(td, k, _cp.asarray([xh[-1]]), order, True))
        rhs.append(_cp.asarray(numpy.asarray(val, dtype=cdt).reshape(1, -1)))
    A = _cp.concatenate(rows, axis=0)
    b = _cp.concatenate(rhs, axis=0)
    c = _cp.linalg.solve(A.astype(cdt), b)
    return BSpline.construct_fast(td, _cp.ascontiguousarray(c.reshape((nt,) + tail)), k, True,
                                  axis % max(y.ndim, 1))


def _periodic_knots(xh, k):
    """n + 2k knots: the (for even k, cell-centred) points, continued by the spacings taken round the circle."""
    xc = xh.astype(numpy.float64).copy()
    n = xc.shape[0]
    if k % 2 == 0:
        xc[1:-1] = xc[1:-1] - numpy.diff(xh)[:-1] / 2
    dx = numpy.diff(xc)
    t = numpy.zeros(n + 2 * k)
    t[k:n + k] = xc
    for i in range(k):
        t[k - i - 1] = t[k - i] - dx[-(i % (n - 1)) - 1]
        t[n + k + i] = t[n + k + i - 1] + dx[i % (n - 1)]
    return t


def _make_periodic(x, xh, y, k, cdt, axis):
    """Periodic interpolating spline: k - 1 rows equate the derivatives at both ends, n rows interpolate;
    n + k - 1 unknowns, one dense solve on the device (the solution is unique, so equal to SciPy's cyclic one)."""
    td = _cp.asarray(_periodic_knots(xh, k))
    ends = _cp.asarray([xh[0], xh[-1]])
    rows = []
    for d in range(1, k):
        B = _basis_matrix(td, k, ends, d, True)
        rows.append(B[:1] - B[1:])
    rows.append(_basis_matrix(td, k, x, 0, True))
    A = _cp.concatenate(rows, axis=0)
    ycols = y.reshape(y.shape[0], -1)
    rhs = _cp.concatenate([_cp.zeros((k - 1, ycols.shape[1]), dtype=cdt), ycols], axis=0)
    c = _cp.linalg.solve(A.astype(cdt), rhs)
    nc = td.shape[0] - k - 1
    return BSpline.construct_fast(td, _cp.ascontiguousarray(c.reshape((nc,) + y.shape[1:])), k, 'periodic', axis)


def make_lsq_spline(x, y, t, k=3, w=None, axis=0, check_finite=True, *, method='qr'):
    """Least-squares BSpline of degree k on the knots t: minimises sum (w_j (S(x_j) - y_j))^2."""
    if method not in ('qr', 'norm-eq'):
        raise ValueError(f"Unknown method {method!r}")
    x = _asarray(x).astype(numpy.float64)
    y = _asarray(y)
    t = _asarray(t).astype(numpy.float64)
    k = int(k)
    y = _cp.moveaxis(y, axis % max(y.ndim, 1), 0)
    cdt = numpy.complex128 if y.dtype.kind == 'c' else numpy.float64
    y = y.astype(cdt)
    w = _cp.ones(x.shape[0]) if w is None else _asarray(w).astype(numpy.float64)
    nb = t.shape[0] - k - 1
    if x.ndim != 1:
        raise ValueError("Expect x to be a 1D sequence.")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"Shapes of x {x.shape} and y {y.shape} are incompatible")
    if k > 0 and bool((x[1:] < x[:-1]).any()):
        raise ValueError("Expect x to be a 1D sorted array_like.")
    if x.shape[0] < k + 1:
        raise ValueError("Need more x points.")
    if k < 0:
        raise ValueError("Expect non-negative k.")
    if t.ndim != 1 or bool((t[1:] < t[:-1]).any()):
        raise ValueError("Expect t to be a 1D strictly increasing sequence.")
    if t.shape[0] < 2 * k + 2:
        raise ValueError(f"Need at least {2 * k + 2} knots for degree {k}")
    if w.ndim != 1 or w.shape[0] != x.shape[0]:
        raise ValueError(f"Shapes of w {w.shape} and x {x.shape} are incompatible")
    if check_finite and (not bool(_cp.isfinite(x).all()) or not bool(_cp.isfinite(y).all())
                         or not bool(_cp.isfinite(w).all())):
        raise ValueError("array must not contain infs or NaNs")
    A = _basis_matrix(t, k, x, 0, True) * w[:, None]
    b = y.reshape(y.shape[0], -1) * w[:, None]
    # Normal equations on the device (the basis matrix is banded and well conditioned for sane knots).
    AtA = A.T @ A
    c = _cp.linalg.solve(AtA.astype(cdt), (A.T.astype(cdt) @ b))
    return BSpline.construct_fast(t, _cp.ascontiguousarray(c.reshape((nb,) + y.shape[1:])), k, True,
                                  axis % max(y.ndim, 1))
