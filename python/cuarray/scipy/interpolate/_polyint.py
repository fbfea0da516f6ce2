"""Polynomial interpolation of cuarray.scipy.interpolate: BarycentricInterpolator and KroghInterpolator."""
import math

import numpy

import cuarray as _cp


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _isscalar(v):
    return numpy.ndim(v) == 0


class _Interp1D:
    """Shape handling shared with SciPy's _Interpolator1D: y's interpolation axis is kept first as (n, r) columns;
    results put x's shape at `axis` of y's shape."""

    def _set_y(self, yi, axis):
        yi = _asarray(yi)
        if yi.ndim == 0:
            raise ValueError("y must be at least 1-dimensional")
        axis = axis % yi.ndim
        self._y_axis = axis
        moved = _cp.moveaxis(yi, axis, 0)
        self._y_extra_shape = moved.shape[1:]
        self.dtype = numpy.complex128 if yi.dtype.kind == 'c' else numpy.float64
        return _cp.ascontiguousarray(moved.reshape(moved.shape[0], -1).astype(self.dtype))

    def _finish(self, y, x_shape, lead=()):
        # y: lead + (npoints, r) -> lead + y's shape with x_shape at axis.
        y = y.reshape(tuple(lead) + tuple(x_shape) + tuple(self._y_extra_shape))
        if self._y_axis != 0 and x_shape != ():
            nl, nx, ax = len(lead), len(x_shape), self._y_axis
            s = list(range(nl))
            perm = (s + list(range(nl + nx, nl + nx + ax)) + list(range(nl, nl + nx))
                    + list(range(nl + nx + ax, y.ndim)))
            y = y.transpose(perm)
        return y

    def _prep_x(self, x):
        x = _asarray(x)
        return x.shape, _cp.ascontiguousarray(x.reshape(-1).astype(numpy.float64 if x.dtype.kind != 'c'
                                                                     else numpy.complex128))

    def __call__(self, x):
        """The interpolating polynomial at x."""
        xs, xf = self._prep_x(x)
        return self._finish(self._evaluate(xf), xs)

    def derivatives(self, x, der=None):
        """Derivatives 0 .. der-1 at x (der=None: all n possibly nonzero ones); a list gives those orders."""
        xs, xf = self._prep_x(x)
        if der is None:
            orders = list(range(self.n))
        elif _isscalar(der):
            orders = list(range(int(der)))
        else:
            orders = [int(v) for v in der]
        top = max(orders) + 1 if orders else 0
        d = self._evaluate_derivatives(xf, top)
        d = d[_cp.asarray(numpy.asarray(orders, dtype=numpy.int64))] if orders else d[:0]
        return self._finish(d, xs, lead=(len(orders),))

    def derivative(self, x, der=1):
        """The der-th derivative at x."""
        xs, xf = self._prep_x(x)
        d = self._evaluate_derivatives(xf, int(der) + 1)
        return self._finish(d[int(der)], xs)


def _newton_coeffs(xi, yi):
    """Divided differences f[x_0..x_k] on the host (O(n^2), sequential in k); repeated nodes take successive
    derivatives from yi, as Krogh's scheme does. yi is (n, r)."""
    n = xi.shape[0]
    c = numpy.zeros_like(yi)
    table = []
    first = 0
    for k in range(n):
        if k == 0 or xi[k] != xi[k - 1]:
            first = k
        new = [yi[first]]
        for j in range(1, k + 1):
            if xi[k - j] == xi[k]:
                new.append(yi[first + j] / math.factorial(j))
            else:
                new.append((new[j - 1] - table[j - 1]) / (xi[k] - xi[k - j]))
        c[k] = new[k]
        table = new
    return c


class KroghInterpolator(_Interp1D):
    """The polynomial through (xi, yi); a node repeated s times takes yi's next s entries as its derivatives."""

    def __init__(self, xi, yi, axis=0):
        xh = numpy.asarray(_cp.asnumpy(xi) if isinstance(xi, _cp.ndarray) else xi)
        y = self._set_y(yi, axis)
        if xh.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if xh.dtype.kind == 'c':
            raise ValueError("x must be real")
        xh = xh.astype(numpy.float64)
        if y.shape[0] != xh.shape[0]:
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        self.n = xh.shape[0]
        self.r = y.shape[1]
        # Nodes equal to a non-adjacent earlier node would need derivative data out of order.
        for k in range(1, self.n):
            prev = xh[:k]
            if (prev == xh[k]).any() and xh[k - 1] != xh[k]:
                raise ValueError("Elements of `xi` can't be equal.")
        # The Newton coefficients are found on the host (Note: a sequential O(n^2) recurrence on n nodes; a
        # polynomial interpolant is only meaningful for small n); evaluation runs on the device.
        self._c = _cp.asarray(_newton_coeffs(xh, _cp.asnumpy(y)))
        self.xi = _cp.asarray(xh)
        self.yi = y

    def _evaluate(self, x):
        return self._evaluate_derivatives(x, 1)[0]

    def _evaluate_derivatives(self, x, der):
        """(der, len(x), r): nested Newton form q_k = c_k + (x - x_k) q_{k+1}, differentiated term by term."""
        n = self.n
        npt = x.shape[0]
        dt = numpy.complex128 if (self.dtype == numpy.complex128 or x.dtype.kind == 'c') else numpy.float64
        out = _cp.zeros((max(der, 1), npt, self.r), dtype=dt)
        if der == 0:
            return out[:0]
        if npt == 0 or n == 0:
            return out[:der]
        xc = x.reshape(-1, 1)
        q = [_cp.zeros((npt, self.r), dtype=dt) for _ in range(der)]
        q[0] = q[0] + self._c[n - 1]
        for k in range(n - 2, -1, -1):
            dx = xc - self.xi[k]
            for m in range(min(der - 1, n - 1 - k), 0, -1):
                q[m] = dx * q[m] + m * q[m - 1]
            q[0] = self._c[k] + dx * q[0]
        return _cp.stack(q, axis=0).astype(dt)


def krogh_interpolate(xi, yi, x, der=0, axis=0):
    """KroghInterpolator(xi, yi, axis) at x: values (der=0), the der-th derivative, or a list of derivatives."""
    P = KroghInterpolator(xi, yi, axis=axis)
    if _isscalar(der) and der == 0:
        return P(x)
    if _isscalar(der):
        return P.derivative(x, der=der)
    return P.derivatives(x, der=der)


class BarycentricInterpolator(_Interp1D):
    """The polynomial through (xi, yi) in the second barycentric form (weights wi, or computed from xi)."""

    def __init__(self, xi, yi=None, axis=0, *, wi=None, rng=None):
        xh = numpy.asarray(_cp.asnumpy(xi) if isinstance(xi, _cp.ndarray) else xi, dtype=numpy.float64)
        if xh.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        self.xi = _cp.asarray(xh)
        self.n = xh.shape[0]
        self._axis_arg = axis
        if wi is not None:
            self.wi = _asarray(wi).astype(numpy.float64)
            self._inv_capacity = None
        else:
            self.wi = self._weights(self.xi)
        self.yi = None
        self._y_axis = axis
        self._y_extra_shape = ()
        self.dtype = numpy.float64
        if yi is not None:
            self.set_yi(yi, axis)

    def _weights(self, x):
        # 1 / prod_{k != j} (x_j - x_k), each factor scaled by 4 / (range of x) so the product stays finite.
        n = x.shape[0]
        if n == 0:
            return _cp.zeros(0)
        if n == 1:
            return _cp.ones(1)
        span = float(x.max() - x.min())
        scale = 4.0 / span if span > 0 else 1.0
        D = (x[:, None] - x[None, :]) * scale
        D = D + _cp.eye(n)
        p = _cp.prod(D, axis=1)
        if bool((p == 0).any()):
            raise ValueError("Interpolation points xi must be distinct.")
        return 1.0 / p

    def set_yi(self, yi, axis=None):
        """New values at the same nodes (axis defaults to the one given before)."""
        if yi is None:
            self.yi = None
            return
        if axis is None:
            axis = self._y_axis
        y = self._set_y(yi, axis)
        if y.shape[0] != self.n:
            raise ValueError("yi dimensions do not match xi dimensions")
        self.yi = y
        self.r = y.shape[1]

    def add_xi(self, xi, yi=None):
        """Append nodes (and their values) and recompute the weights."""
        if yi is not None:
            if self.yi is None:
                raise ValueError("No previous yi value to update!")
            y = _asarray(yi)
            y = _cp.moveaxis(y, self._y_axis, 0) if y.ndim else y
            y = y.reshape(y.shape[0], -1).astype(self.dtype)
            self.yi = _cp.concatenate([self.yi, y], axis=0)
        elif self.yi is not None:
            raise ValueError("No update to yi provided!")
        self.xi = _cp.concatenate([self.xi, _asarray(xi).astype(numpy.float64).reshape(-1)])
        self.n = self.xi.shape[0]
        self.wi = self._weights(self.xi)

    def __call__(self, x):
        """The interpolating polynomial at x (exactly yi at a node)."""
        if self.yi is None:
            # SciPy fails here with a TypeError (no values to combine); the same type is raised.
            raise TypeError("BarycentricInterpolator has no yi values: call set_yi first")
        return super().__call__(x)

    def _evaluate(self, x):
        npt = x.shape[0]
        if npt == 0 or self.n == 0:
            return _cp.zeros((npt, self.r), dtype=self.dtype)
        diff = x[:, None] - self.xi[None, :]
        hit = diff == 0
        c = self.wi[None, :] / _cp.where(hit, 1.0, diff)
        num = c.astype(self.dtype) @ self.yi
        den = c.sum(axis=1)[:, None]
        p = num / den
        any_hit = hit.any(axis=1)
        idx = _cp.argmax(hit.astype(numpy.int32), axis=1)
        p = _cp.where(any_hit[:, None], self.yi[idx], p)
        return p.astype(self.dtype)

    def _evaluate_derivatives(self, x, der):
        # The interpolating polynomial is unique: its derivatives come from the Newton form on the same nodes.
        k = KroghInterpolator(self.xi, self.yi, axis=0)
        return k._evaluate_derivatives(x, der).astype(self.dtype)


def barycentric_interpolate(xi, yi, x, axis=0, *, der=0, rng=None):
    """BarycentricInterpolator(xi, yi, axis)(x), or its derivative(s) of order der."""
    P = BarycentricInterpolator(xi, yi, axis=axis, rng=rng)
    if _isscalar(der) and der == 0:
        return P(x)
    if _isscalar(der):
        return P.derivative(x, der=der)
    return P.derivatives(x, der=der)
