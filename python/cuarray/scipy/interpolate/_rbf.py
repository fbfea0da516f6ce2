"""RBFInterpolator of cuarray.scipy.interpolate: global radial basis function interpolation on the GPU."""
import itertools
import warnings

import numpy

import cuarray as _cp

_SCALE_INVARIANT = {'linear', 'thin_plate_spline', 'cubic', 'quintic'}
_MIN_DEGREE = {'multiquadric': 0, 'linear': 0, 'thin_plate_spline': 1, 'cubic': 1, 'quintic': 2}
_KERNELS = ('linear', 'thin_plate_spline', 'cubic', 'quintic', 'multiquadric', 'inverse_multiquadric',
            'inverse_quadratic', 'gaussian')


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _phi(kernel, r):
    if kernel == 'linear':
        return -r
    if kernel == 'thin_plate_spline':
        return _cp.where(r == 0, 0.0, r * r * _cp.log(_cp.where(r == 0, 1.0, r)))
    if kernel == 'cubic':
        return r ** 3
    if kernel == 'quintic':
        return -(r ** 5)
    if kernel == 'multiquadric':
        return -_cp.sqrt(r * r + 1)
    if kernel == 'inverse_multiquadric':
        return 1.0 / _cp.sqrt(r * r + 1)
    if kernel == 'inverse_quadratic':
        return 1.0 / (r * r + 1)
    return _cp.exp(-r * r)


def _powers(ndim, degree):
    """Exponents of the monomials of total degree <= degree, (nmono, ndim) host int array (tiny)."""
    out = []
    for deg in range(degree + 1):
        for combo in itertools.combinations_with_replacement(range(ndim), deg):
            e = [0] * ndim
            for c in combo:
                e[c] += 1
            out.append(e)
    return numpy.asarray(out, dtype=numpy.int64).reshape(-1, ndim)


def _poly(x, powers):
    # x (n, ndim) -> (n, nmono): product over dimensions of x_d ** e_d.
    if powers.shape[0] == 0:
        return _cp.empty((x.shape[0], 0))
    p = _cp.asarray(powers.astype(numpy.float64))
    return _cp.prod(x[:, None, :] ** p[None, :, :], axis=-1)


def _dist(a, b):
    from cuarray.scipy.spatial.distance import cdist
    return cdist(a, b, 'euclidean')


class RBFInterpolator:
    """Radial basis function interpolation in N dimensions (one global system, or local systems of the
    `neighbors` nearest observations of each evaluation point)."""

    def __init__(self, y, d, neighbors=None, smoothing=0.0, kernel='thin_plate_spline', epsilon=None, degree=None):
        y = _asarray(y)
        if y.dtype.kind == 'c':
            raise ValueError("`y` must be a real array")
        y = _cp.ascontiguousarray(y.astype(numpy.float64))
        if y.ndim != 2:
            raise ValueError("`y` must be a 2-dimensional array.")
        ny, ndim = y.shape
        d = _asarray(d)
        dcplx = d.dtype.kind == 'c'
        d = d.astype(numpy.complex128 if dcplx else numpy.float64)
        if d.shape[0] != ny:
            raise ValueError(f"Expected the first axis of `d` to have length {ny}.")
        d_shape = d.shape[1:]
        d = d.reshape(ny, -1)
        if neighbors is not None:
            neighbors = int(min(neighbors, ny))
        smoothing = _asarray(smoothing).astype(numpy.float64)
        if smoothing.ndim == 0:
            smoothing = _cp.full(ny, float(smoothing))
        elif smoothing.shape != (ny,):
            raise ValueError(f"Expected `smoothing` to be a scalar or have shape ({ny},).")
        kernel = kernel.lower()
        if kernel not in _KERNELS:
            raise ValueError(f"`kernel` must be one of {set(_KERNELS)}.")
        if epsilon is None:
            if kernel in _SCALE_INVARIANT:
                epsilon = 1.0
            else:
                raise ValueError("`epsilon` must be specified if `kernel` is not one of "
                                 f"{_SCALE_INVARIANT}.")
        epsilon = float(epsilon)
        min_degree = _MIN_DEGREE.get(kernel, -1)
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("`degree` must be at least -1.")
            if degree < min_degree:
                warnings.warn(f"`degree` should not be below {min_degree} except -1 when `kernel` is "
                              f"'{kernel}'. The interpolant may not be uniquely solvable, and the smoothing "
                              "parameter may have an unintuitive effect.", UserWarning, stacklevel=2)
        powers = _powers(ndim, degree) if degree >= 0 else numpy.zeros((0, ndim), dtype=numpy.int64)
        nmono = powers.shape[0]
        nobs = ny if neighbors is None else neighbors
        if nobs < nmono:
            raise ValueError(f"At least {nmono} data points are required when `degree` is {degree} and the number "
                             f"of dimensions is {ndim}.")
        if neighbors is not None:
            # Local interpolants: each evaluation point solves the small system of its nearest `neighbors`
            # observations (batched on the device), found with cuarray's KDTree.
            from cuarray.scipy.spatial import KDTree
            self.y, self.d, self.d_shape, self.d_dtype = y, d, d_shape, d.dtype
            self.neighbors, self.smoothing, self.kernel, self.epsilon = neighbors, smoothing, kernel, epsilon
            self.powers = powers
            self._tree = KDTree(y)
            return
        mins = y.min(axis=0) if ny else _cp.zeros(ndim)
        maxs = y.max(axis=0) if ny else _cp.zeros(ndim)
        shift = (maxs + mins) / 2
        scale = (maxs - mins) / 2
        scale = _cp.where(scale == 0.0, 1.0, scale)
        K = _phi(kernel, _dist(y * epsilon, y * epsilon)) + _cp.diag(smoothing)
        P = _poly((y - shift) / scale, powers)
        A = _cp.zeros((ny + nmono, ny + nmono))
        A[:ny, :ny] = K
        A[:ny, ny:] = P
        A[ny:, :ny] = P.T
        rhs = _cp.zeros((ny + nmono, d.shape[1]), dtype=d.dtype)
        rhs[:ny] = d
        if dcplx:
            coef = _cp.linalg.solve(A, rhs.real) + 1j * _cp.linalg.solve(A, rhs.imag)
        else:
            coef = _cp.linalg.solve(A, rhs)
        if not bool(_cp.isfinite(coef).all()):
            raise numpy.linalg.LinAlgError("Singular matrix. The polynomial matrix may be rank deficient.")
        self.y, self.d, self.d_shape, self.d_dtype = y, d, d_shape, d.dtype
        self.neighbors, self.smoothing, self.kernel, self.epsilon = neighbors, smoothing, kernel, epsilon
        self.powers = powers
        self._shift, self._scale, self._coeffs = shift, scale, coef

    def _local(self, x):
        nx = x.shape[0]
        kn = self.neighbors
        ncols = self.d.shape[1]
        if nx == 0:
            return _cp.empty((0, ncols), dtype=self.d.dtype)
        _, idx = self._tree.query(x, kn)
        idx = idx.reshape(nx, kn)
        # Sorted neighbourhoods, as SciPy orders each local system (the solution does not depend on it).
        idx = _cp.sort(idx, axis=1)
        nmono = self.powers.shape[0]
        n = kn + nmono
        step = max(1, (1 << 22) // max(n * n, 1))
        parts = []
        for s in range(0, nx, step):
            ii = idx[s:s + step]
            xb = x[s:s + step]
            nb = ii.shape[0]
            Y = self.y[ii]  # (nb, kn, ndim)
            D = self.d[ii]  # (nb, kn, ncols)
            mins = Y.min(axis=1)
            maxs = Y.max(axis=1)
            shift = (maxs + mins) / 2
            scale = (maxs - mins) / 2
            scale = _cp.where(scale == 0.0, 1.0, scale)
            Ye = Y * self.epsilon
            r = _cp.sqrt(((Ye[:, :, None, :] - Ye[:, None, :, :]) ** 2).sum(axis=-1))
            K = _phi(self.kernel, r) + self.smoothing[ii][:, :, None] * _cp.eye(kn)[None]
            Yh = (Y - shift[:, None, :]) / scale[:, None, :]
            P = _poly(Yh.reshape(-1, Y.shape[2]), self.powers).reshape(nb, kn, nmono)
            A = _cp.zeros((nb, n, n))
            A[:, :kn, :kn] = K
            A[:, :kn, kn:] = P
            A[:, kn:, :kn] = P.transpose(0, 2, 1)
            rhs = _cp.zeros((nb, n, ncols), dtype=D.dtype)
            rhs[:, :kn] = D
            if D.dtype.kind == 'c':
                coef = _cp.linalg.solve(A, _cp.ascontiguousarray(rhs.real)) + 1j * _cp.linalg.solve(
                    A, _cp.ascontiguousarray(rhs.imag))
            else:
                coef = _cp.linalg.solve(A, rhs)
            kx = _phi(self.kernel, _cp.sqrt(((xb[:, None, :] * self.epsilon - Ye) ** 2).sum(axis=-1)))
            px = _poly((xb - shift) / scale, self.powers)
            out = (kx[:, :, None] * coef[:, :kn]).sum(axis=1) + (px[:, :, None] * coef[:, kn:]).sum(axis=1)
            parts.append(out)
        return _cp.concatenate(parts, axis=0)

    def __call__(self, x):
        """Interpolant at the points x (n, ndim): shape (n,) + d.shape[1:]."""
        x = _asarray(x)
        if x.ndim != 2:
            raise ValueError("`x` must be a 2-dimensional array.")
        if x.shape[1] != self.y.shape[1]:
            raise ValueError(f"Expected the second axis of `x` to have length {self.y.shape[1]}.")
        x = _cp.ascontiguousarray(x.astype(numpy.float64))
        if self.neighbors is not None:
            return self._local(x).reshape((x.shape[0],) + self.d_shape)
        ny = self.y.shape[0]
        out = None
        # Evaluate in row blocks so the (n, ny) kernel matrix stays bounded.
        step = max(1, (1 << 25) // max(ny, 1))
        parts = []
        for s in range(0, x.shape[0], step):
            xb = x[s:s + step]
            Kx = _phi(self.kernel, _dist(xb * self.epsilon, self.y * self.epsilon))
            Px = _poly((xb - self._shift) / self._scale, self.powers)
            parts.append(Kx @ self._coeffs[:ny] + Px @ self._coeffs[ny:])
        out = _cp.concatenate(parts, axis=0) if parts else _cp.empty((0, self._coeffs.shape[1]),
                                                                     dtype=self._coeffs.dtype)
        return out.reshape((x.shape[0],) + self.d_shape)
