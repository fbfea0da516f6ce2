"""Tensor-product B-splines of cuarray.scipy.interpolate: NdBSpline (and the fit RegularGridInterpolator uses)."""
import itertools

import numpy

import cuarray as _cp


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _local_basis(t, k, x, nu, extrapolate):
    """For each point: its knot interval l (t[l] <= x < t[l+1], clamped to the base interval) and the nu-th
    derivatives of the k + 1 B-splines B_{l-k..l} there, (n, k+1); vectorised Cox-de Boor over all points, with
    the top nu levels replaced by the derivative recurrence. Also a mask of points that read NaN."""
    nb = t.shape[0] - k - 1
    n = x.shape[0]
    l_ = _cp.clip(_cp.searchsorted(t, x, side='right') - 1, k, nb - 1)
    bad = _cp.isnan(x)
    if not extrapolate:
        bad = bad | (x < t[k]) | (x > t[nb])
    if nu > k:
        return l_, _cp.zeros((n, k + 1)), bad
    vals = [_cp.ones(n)]
    for j in range(1, k + 1):
        # Level j: functions B_{l-j+r, j}, r = 0..j, from the j values of level j - 1 (B_{l-j+1+r, j-1}).
        new = []
        deriv = j > k - nu
        for r in range(j + 1):
            i = l_ - j + r
            acc = None
            if r >= 1:
                den = t[i + j] - t[i]
                safe = _cp.where(den == 0, 1.0, den)
                w = (j / safe) if deriv else (x - t[i]) / safe
                term = _cp.where(den == 0, 0.0, w * vals[r - 1])
                acc = term
            if r < j:
                den = t[i + j + 1] - t[i + 1]
                safe = _cp.where(den == 0, 1.0, den)
                w = (-j / safe) if deriv else (t[i + j + 1] - x) / safe
                term = _cp.where(den == 0, 0.0, w * vals[r])
                acc = term if acc is None else acc + term
            new.append(acc)
        vals = new
    return l_, _cp.stack(vals, axis=1), bad


class NdBSpline:
    """Tensor-product spline: S(x) = sum c[i_1, ..., i_n] prod_d B_{i_d, k_d; t_d}(x_d)."""

    def __init__(self, t, c, k, *, extrapolate=None):
        ndim = len(t)
        try:
            len(k)
        except TypeError:
            k = (k,) * ndim
        k = tuple(int(v) for v in k)
        if len(k) != ndim:
            raise ValueError(f"len(t) = {ndim} != len(k) = {len(k)}.")
        if any(v < 0 for v in k):
            raise ValueError("Spline order cannot be negative.")
        self.k = k
        self.t = tuple(_cp.ascontiguousarray(_asarray(v).astype(numpy.float64)) for v in t)
        c = _asarray(c)
        self.c = _cp.ascontiguousarray(c.astype(numpy.complex128 if c.dtype.kind == 'c' else numpy.float64))
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        if self.c.ndim < ndim:
            raise ValueError(f"Coefficients must be at least {ndim}-dimensional.")
        for d in range(ndim):
            td, kd = self.t[d], k[d]
            if td.ndim != 1:
                raise ValueError(f"Knot vector in dimension {d} must be one-dimensional.")
            n = td.shape[0] - kd - 1
            if n < kd + 1:
                raise ValueError(f"Need at least {2 * kd + 2} knots for degree {kd} in dimension {d}.")
            if bool((td[1:] < td[:-1]).any()):
                raise ValueError(f"Knots in dimension {d} must be in a non-decreasing order.")
            if not bool(td[kd] < td[n]):
                raise ValueError(f"Need at least two internal knots in dimension {d}.")
            if not bool(_cp.isfinite(td).all()):
                raise ValueError(f"Knots in dimension {d} should not have nans or infs.")
            if self.c.shape[d] != n:
                raise ValueError(f"Knots, coefficients and degree in dimension {d} are inconsistent: got "
                                 f"{self.c.shape[d]} coefficients for {td.shape[0]} knots, need at least {n} "
                                 f"for k={kd}.")

    @property
    def tck(self):
        return self.t, self.c, self.k

    def __call__(self, xi, *, nu=None, extrapolate=None):
        """Value (or mixed derivative of orders nu) at points xi (..., ndim)."""
        ndim = len(self.t)
        if extrapolate is None:
            extrapolate = self.extrapolate
        extrapolate = bool(extrapolate)
        if nu is None:
            nu = (0,) * ndim
        else:
            nu = tuple(int(v) for v in numpy.asarray(nu).reshape(-1))
            if len(nu) != ndim:
                raise ValueError(f"invalid number of derivative orders nu = {nu} for ndim = {ndim}.")
            if any(v < 0 for v in nu):
                raise ValueError(f"derivatives must be positive, got nu = {nu}")
        xi = _asarray(xi).astype(numpy.float64)
        if xi.shape[-1] != ndim:
            raise ValueError(f"Shapes: xi.shape={xi.shape} and ndim={ndim}")
        lead = xi.shape[:-1]
        x = xi.reshape(-1, ndim)
        npt = x.shape[0]
        tail = self.c.shape[ndim:]
        cflat = self.c.reshape(self.c.shape[:ndim] + (-1,))
        bases = []
        bad = _cp.zeros(npt, dtype=bool)
        for d in range(ndim):
            l_, b, bd = _local_basis(self.t[d], self.k[d], _cp.ascontiguousarray(x[:, d]), nu[d], extrapolate)
            bases.append((l_, b))
            bad = bad | bd
        out = _cp.zeros((npt, cflat.shape[-1]), dtype=self.c.dtype)
        # (k_1 + 1) * ... * (k_n + 1) gathers, each over all points at once.
        for offs in itertools.product(*[range(kd + 1) for kd in self.k]):
            w = None
            idx = []
            for d, o in enumerate(offs):
                l_, b = bases[d]
                idx.append(l_ - self.k[d] + o)
                w = b[:, o] if w is None else w * b[:, o]
            out = out + w[:, None] * cflat[tuple(idx)]
        out = _cp.where(bad[:, None], numpy.nan, out)
        return out.reshape(lead + tail)

    @classmethod
    def design_matrix(cls, xvals, t, k, extrapolate=True):
        """(len(xvals), prod of basis sizes) matrix of the tensor-product basis at the points (a
        cuarray.scipy.sparse.csr_matrix; SciPy returns a sparse CSR array)."""
        from cuarray.scipy.sparse import csr_matrix
        ndim = len(t)
        try:
            len(k)
        except TypeError:
            k = (k,) * ndim
        t = tuple(_asarray(v).astype(numpy.float64) for v in t)
        x = _asarray(xvals).astype(numpy.float64).reshape(-1, ndim)
        sizes = [td.shape[0] - kd - 1 for td, kd in zip(t, k)]
        npt = x.shape[0]
        M = _cp.zeros((npt, int(numpy.prod(sizes))))
        bases = [_local_basis(t[d], k[d], _cp.ascontiguousarray(x[:, d]), 0, bool(extrapolate)) for d in range(ndim)]
        for d in range(ndim):
            if not extrapolate and bool(bases[d][2].any()):
                raise ValueError(f"Out of bounds in dimension {d}.")
        strides = numpy.cumprod([1] + sizes[::-1])[::-1][1:]
        rows = _cp.arange(npt)
        for offs in itertools.product(*[range(kd + 1) for kd in k]):
            w = None
            col = None
            for d, o in enumerate(offs):
                l_, b, _ = bases[d]
                j = (l_ - k[d] + o) * int(strides[d])
                col = j if col is None else col + j
                w = b[:, o] if w is None else w * b[:, o]
            M[rows, col] += w
        return csr_matrix(M)


def _make_ndbspl(points, values, k):
    """Tensor-product interpolating spline of degree k with not-a-knot knots: the collocation matrix is a
    Kronecker product, so the coefficients come from one dense solve per axis (on the device)."""
    from cuarray.scipy.interpolate._bspline import _basis_matrix, _not_a_knot
    ndim = len(points)
    c = values
    cdt = numpy.complex128 if c.dtype.kind == 'c' else numpy.float64
    c = c.astype(cdt)
    ts = []
    for d in range(ndim):
        xh = _cp.asnumpy(points[d])
        t = _cp.asarray(_not_a_knot(xh, k))
        ts.append(t)
        A = _basis_matrix(t, k, _cp.ascontiguousarray(points[d]), 0, True)
        cm = _cp.moveaxis(c, d, 0)
        sh = cm.shape
        sol = _cp.linalg.solve(A.astype(cdt), cm.reshape(sh[0], -1))
        c = _cp.moveaxis(sol.reshape(sh), 0, d)
    return NdBSpline(ts, _cp.ascontiguousarray(c), k)
