"""cuarray.scipy.spatial.distance: pairwise distances (cdist, pdist) on the GPU, with SciPy's metrics and semantics."""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.spatial import _kernels

__all__ = ['braycurtis', 'canberra', 'cdist', 'chebyshev', 'cityblock', 'correlation', 'cosine', 'dice',
           'distance_matrix', 'euclidean', 'hamming', 'hellinger', 'jaccard', 'jensenshannon', 'kl_divergence',
           'mahalanobis', 'minkowski', 'pdist', 'rogerstanimoto', 'russellrao', 'seuclidean', 'sokalsneath',
           'sqeuclidean', 'squareform', 'yule']

_ALIASES = {
    'braycurtis': ('braycurtis',), 'canberra': ('canberra',),
    'chebyshev': ('chebychev', 'chebyshev', 'cheby', 'cheb', 'ch'),
    'cityblock': ('cityblock', 'cblock', 'cb', 'c'), 'correlation': ('correlation', 'co'),
    'cosine': ('cosine', 'cos'), 'dice': ('dice',), 'euclidean': ('euclidean', 'euclid', 'eu', 'e'),
    'hamming': ('matching', 'hamming', 'hamm', 'ha', 'h'), 'jaccard': ('jaccard', 'jacc', 'ja', 'j'),
    'jensenshannon': ('jensenshannon', 'js'), 'mahalanobis': ('mahalanobis', 'mahal', 'mah'),
    'minkowski': ('minkowski', 'mi', 'm', 'pnorm'), 'rogerstanimoto': ('rogerstanimoto',),
    'russellrao': ('russellrao',), 'seuclidean': ('seuclidean', 'se', 's'), 'sokalsneath': ('sokalsneath',),
    'sqeuclidean': ('sqeuclidean', 'sqe', 'sqeuclid'), 'yule': ('yule',),
    'hellinger': ('hellinger',), 'kl_divergence': ('kl_divergence', 'kl_div', 'kld'),
}
_ALIAS = {a: name for name, akas in _ALIASES.items() for a in akas}
# SciPy's cdist/pdist compare the inputs of these metrics as bool (nonzero is True).
_BOOL_METRICS = {'jaccard', 'rogerstanimoto', 'russellrao', 'sokalsneath', 'yule'}
# The metrics whose cdist/pdist take no weight vector.
_NO_WEIGHTS = {'jensenshannon', 'mahalanobis', 'seuclidean', 'hellinger', 'kl_divergence'}


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _as_double(x, metric):
    if metric in _BOOL_METRICS:
        return _cp.ascontiguousarray((x != 0).astype(numpy.float64))
    if x.dtype.kind == 'c':
        # As numpy.asarray(x, dtype=double): the imaginary part is dropped.
        x = x.real
    return _cp.ascontiguousarray(x.astype(numpy.float64))


def _check_weights(w, n):
    w = _asarray(w)
    if w.ndim != 1:
        raise ValueError("Input vector should be 1-D.")
    if w.shape[0] != n:
        raise ValueError(f"Weights must have same size as input vector. {w.shape[0]} vs. {n}")
    w = _cp.ascontiguousarray(w.astype(numpy.float64))
    if w.size and bool((w < 0).any()):
        raise ValueError("Input weights should be all non-negative")
    return w


def _resolve(metric):
    if callable(metric):
        return None
    if not isinstance(metric, str):
        raise TypeError('2nd argument metric must be a string identifier or a function.')
    name = _ALIAS.get(metric.lower())
    if name is None:
        raise ValueError(f'Unknown Distance Metric: {metric.lower()}')
    return name


def _prepare(name, A, B, kwargs):
    """Validates the metric's keyword arguments; returns (kernel metric, A, B, weights, row aux A, B, p)."""
    kwargs = dict(kwargs)
    n = A.shape[1]
    p = 2.0
    w = kwargs.pop('w', None)
    if name in _NO_WEIGHTS and w is not None:
        raise TypeError(f"{name}() got an unexpected keyword argument 'w'")
    if name == 'minkowski':
        # cdist/pdist do not reject p <= 0 (SciPy's kernels compute it; p = 0 gives inf), minkowski() does.
        p = float(kwargs.pop('p', 2.0))
    V = kwargs.pop('V', None) if name == 'seuclidean' else None
    VI = kwargs.pop('VI', None) if name == 'mahalanobis' else None
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument {next(iter(kwargs))!r}")
    A = _as_double(A, name)
    B = _as_double(B, name)
    W = _cp.ones(max(n, 1), dtype=numpy.float64) if w is None else _check_weights(w, n)
    if w is not None and n == 0:
        W = _cp.ones(1, dtype=numpy.float64)
    RA = _cp.ones(max(A.shape[0], 1), dtype=numpy.float64)
    RB = _cp.ones(max(B.shape[0], 1), dtype=numpy.float64)
    kernel = name
    if name == 'dice' and w is not None:
        kernel = 'dice_w'
    elif name == 'minkowski' and math.isinf(p):
        kernel = 'chebyshev'
    elif name == 'minkowski' and p == 2.0:
        kernel = 'euclidean'
    elif name == 'minkowski' and p == 1.0:
        kernel = 'cityblock'
    elif name in ('correlation', 'cosine'):
        kernel = 'cosine'
        if name == 'correlation':
            ws = W[:n]
            tot = ws.sum()
            A = _cp.ascontiguousarray(A - ((A @ ws) / tot)[:, None]) if A.size else A
            B = _cp.ascontiguousarray(B - ((B @ ws) / tot)[:, None]) if B.size else B
    elif name == 'jensenshannon':
        if A.shape[0]:
            RA = _cp.ascontiguousarray(A.sum(axis=1))
        if B.shape[0]:
            RB = _cp.ascontiguousarray(B.sum(axis=1))
    elif name == 'seuclidean':
        if V is None:
            both = _cp.concatenate([A, B], axis=0)
            V = both.var(axis=0, ddof=1)
        else:
            V = _asarray(V)
            if V.ndim != 1:
                raise ValueError('Variance vector V must be one-dimensional.')
            if V.shape[0] != n:
                raise ValueError('Variance vector V must be of the same dimension as the vectors on which '
                                 'the distances are computed.')
        W = _cp.ascontiguousarray(1.0 / V.astype(numpy.float64)) if n else W
    elif name == 'mahalanobis':
        if VI is None:
            m = A.shape[0] + B.shape[0]
            if m <= n:
                raise ValueError(f"The number of observations ({m}) is too small; the covariance matrix is "
                                 f"singular. For observations with {n} dimensions, at least {n + 1} "
                                 "observations are required.")
            both = _cp.concatenate([A, B], axis=0)
            VI = _cp.linalg.inv(_cp.atleast_2d(_cp.cov(both.T))).T
        W = _cp.ascontiguousarray(_asarray(VI).astype(numpy.float64))
    return kernel, A, B, W, RA, RB, p


def _launch(kernel, A, B, W, RA, RB, p, out, pdist):
    ma, n = A.shape
    mb = B.shape[0]
    if out.size == 0:
        return out
    if kernel == 'mahalanobis':
        if W.shape != (n, n):
            raise ValueError(f"VI must be a ({n}, {n}) matrix, got {W.shape}")
        full = out if not pdist else _cp.empty((ma, mb), dtype=numpy.float64)
        k = _kernels.mahalanobis_kernel()
        k((_kernels.blocks(ma * mb),), (_kernels.THREADS,),
          (A, B, W, full, _kernels.i64(ma), _kernels.i64(mb), _kernels.i64(n)))
        if pdist:
            iu = _cp.triu_indices(ma, 1)
            out[...] = full[iu]
        return out
    k = _kernels.dist_kernel(kernel)
    k((_kernels.tile_grid(ma, mb),), (_kernels.TILE, _kernels.TILE),
      (A, B, W, RA, RB, out, _kernels.i64(ma), _kernels.i64(mb), _kernels.i64(n), _kernels.f64(p),
       _kernels.i32(1 if pdist else 0)))
    return out


def _check_out(out, shape):
    if out is None:
        return _cp.empty(shape, dtype=numpy.float64)
    if not hasattr(out, 'flags') or not hasattr(out, 'dtype'):
        raise TypeError("out must be a cuarray.ndarray")
    if out.shape != shape:
        raise ValueError("Output array has incorrect shape.")
    if not out.flags.c_contiguous:
        raise ValueError("Output array must be C-contiguous.")
    if out.dtype != numpy.float64:
        raise ValueError("Output array must be double type.")
    return out


def _callable_pairs(metric, A, B, pairs, out, kwargs):
    # A Python callable is applied pair by pair, as SciPy does: each call receives two 1-D device rows.
    vals = [float(metric(A[i], B[j], **kwargs)) for i, j in pairs]
    if vals:
        out[...] = _cp.asarray(numpy.asarray(vals, dtype=numpy.float64).reshape(out.shape))
    return out


def cdist(XA, XB, metric='euclidean', *, out=None, **kwargs):
    """Distance between each pair of the rows of XA (mA x n) and XB (mB x n): an mA x mB float64 matrix."""
    XA = _asarray(XA)
    XB = _asarray(XB)
    if XA.ndim != 2:
        raise ValueError('XA must be a 2-dimensional array.')
    if XB.ndim != 2:
        raise ValueError('XB must be a 2-dimensional array.')
    if XA.shape[1] != XB.shape[1]:
        raise ValueError('XA and XB must have the same number of columns (i.e. feature dimension.)')
    mA, mB = XA.shape[0], XB.shape[0]
    name = _resolve(metric)
    out = _check_out(out, (mA, mB))
    if name is None:
        return _callable_pairs(metric, XA, XB, [(i, j) for i in range(mA) for j in range(mB)], out, kwargs)
    kernel, A, B, W, RA, RB, p = _prepare(name, XA, XB, kwargs)
    return _launch(kernel, A, B, W, RA, RB, p, out, False)


def pdist(X, metric='euclidean', *, out=None, **kwargs):
    """Pairwise distances between the rows of X (m x n) as a condensed float64 vector of length m(m-1)/2."""
    X = _asarray(X)
    if X.ndim != 2:
        raise ValueError(f'A 2-dimensional array must be passed. (Shape was {X.shape}).')
    m = X.shape[0]
    name = _resolve(metric)
    out = _check_out(out, ((m * (m - 1)) // 2,))
    if name is None:
        return _callable_pairs(metric, X, X, [(i, j) for i in range(m) for j in range(i + 1, m)], out, kwargs)
    kernel, A, _, W, RA, _, p = _prepare(name, X, X[:0], kwargs)
    return _launch(kernel, A, A, W, RA, RA, p, out, True)


def squareform(X, force="no", checks=True):
    """Converts a condensed distance vector to a square symmetric matrix with zero diagonal, and back."""
    X = _asarray(X)
    if not isinstance(force, str):
        raise TypeError("force must be a string")
    f = force.lower()
    if f == 'tomatrix':
        if X.ndim != 1:
            raise ValueError("Forcing 'tomatrix' but input X is not a distance vector.")
    elif f == 'tovector':
        if X.ndim != 2:
            raise ValueError("Forcing 'tovector' but input X is not a distance matrix.")
    if X.ndim == 1:
        s = X.shape[0]
        if s == 0:
            return _cp.zeros((1, 1), dtype=X.dtype)
        d = int(math.ceil(math.sqrt(s * 2)))
        if d * (d - 1) != s * 2:
            raise ValueError('Incompatible vector size. It must be a binomial coefficient n choose 2 for '
                             'some integer n >= 2.')
        M = _cp.zeros((d, d), dtype=X.dtype)
        iu = _cp.triu_indices(d, 1)
        M[iu] = X
        return M + M.T
    if X.ndim == 2:
        if X.shape[0] != X.shape[1]:
            raise ValueError('The matrix argument must be square.')
        if checks:
            _check_dm(X)
        d = X.shape[0]
        if d <= 1:
            return _cp.empty(0, dtype=X.dtype)
        return X[_cp.triu_indices(d, 1)]
    raise ValueError(f"The first argument must be one or two dimensional array. A {X.ndim}-dimensional array "
                     "is not permitted")


def _check_dm(D):
    if D.size == 0:
        return
    if not bool((D == D.T).all()):
        raise ValueError('Distance matrix must be symmetric.')
    if bool((_cp.diagonal(D) != 0).any()):
        raise ValueError('Distance matrix diagonal must be zero.')


def distance_matrix(x, y, p=2.0, threshold=1000000):
    """Matrix of Minkowski p-norm distances between the rows of x (M x K) and y (N x K); float64 (M, N).
    `threshold` is accepted for SciPy's signature: the kernel computes the whole matrix in one launch."""
    x = _asarray(x)
    y = _asarray(y)
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"x and y must be 2-dimensional, got {x.ndim} and {y.ndim} dimensions")
    if x.shape[1] != y.shape[1]:
        raise ValueError(f"x contains {x.shape[1]}-dimensional vectors but y contains {y.shape[1]}-dimensional "
                         "vectors")
    p = float(p)
    if p < 1:
        # Below 1 the p-"norm" is no metric; SciPy still computes (sum |d|^p)^(1/p).
        if p <= 0:
            raise ValueError("p must be greater than 0")
    return cdist(x, y, 'minkowski', p=p)


_NO_BOOL_SUBTRACT = {'chebyshev', 'cityblock'}


# One pair of 1-D vectors (all metrics but minkowski, euclidean, sqeuclidean): the pairwise kernel on single rows;
# the result is a 0-d float64 device array.

def _vec(u, name='u'):
    u = _asarray(u)
    if u.ndim != 1:
        # SciPy (since 1.9) no longer squeezes size-1 axes: anything but a 1-D array is refused.
        raise ValueError("Input vector should be 1-D.")
    return u


def _pair(name, u, v, **kwargs):
    u = _vec(u)
    v = _vec(v)
    if name in _NO_BOOL_SUBTRACT and u.dtype == bool and v.dtype == bool:
        # SciPy computes these as u - v, which NumPy refuses for two boolean arrays.
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported")
    if u.shape != v.shape:
        raise ValueError(f"operands could not be broadcast together with shapes {u.shape} {v.shape}")
    kwargs = {k: val for k, val in kwargs.items() if val is not None}
    return cdist(u[None, :], v[None, :], name, **kwargs)[0, 0]


def braycurtis(u, v, w=None):
    """Bray-Curtis distance sum|u - v| / sum|u + v| (weighted by w)."""
    return _pair('braycurtis', u, v, w=w)


def canberra(u, v, w=None):
    """Canberra distance sum |u - v| / (|u| + |v|), 0/0 terms counting 0."""
    return _pair('canberra', u, v, w=w)


def chebyshev(u, v, w=None):
    """Chebyshev distance max |u - v| over the entries with positive weight."""
    return _pair('chebyshev', u, v, w=w)


def cityblock(u, v, w=None):
    """City block (Manhattan) distance sum w |u - v|."""
    return _pair('cityblock', u, v, w=w)


def correlation(u, v, w=None, centered=True):
    """Correlation distance 1 - (u - ū)·(v - v̄) / (|u - ū| |v - v̄|); centered=False gives the cosine distance."""
    return _pair('correlation' if centered else 'cosine', u, v, w=w)


def cosine(u, v, w=None):
    """Cosine distance 1 - u·v / (|u| |v|), clipped to [0, 2]."""
    return _pair('cosine', u, v, w=w)


def euclidean(u, v, w=None):
    """Euclidean distance sqrt(sum w (u - v)^2) along the last axis of (..., N) arrays."""
    return minkowski(u, v, p=2, w=w)


def hamming(u, v, w=None):
    """Hamming distance: the (weighted) proportion of entries in which u and v differ."""
    return _pair('hamming', u, v, w=w)


def jaccard(u, v, w=None):
    """Jaccard-Needham dissimilarity: differing entries among those where u or v is nonzero."""
    return _pair('jaccard', u, v, w=w)


# minkowski, euclidean and sqeuclidean take (..., N) arrays that broadcast together, as SciPy's do since 1.18
# (before, they took 1-D vectors only): the distance is taken along the last axis, with SciPy's formula and result
# dtype (linalg.norm of the weighted difference; float inputs keep their precision). A 1-D pair gives a 0-d array.

def _weights(w):
    w = _asarray(w)
    if w.ndim != 1:
        raise ValueError("Input vector should be 1-D.")
    w = w.astype(numpy.float64)
    if w.size and bool((w < 0).any()):
        raise ValueError("Input weights should be all non-negative")
    return w


def _difference(u, v):
    if u.dtype == bool and v.dtype == bool:
        # SciPy computes u - v, which NumPy refuses for two boolean arrays.
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported")
    return u - v


def minkowski(u, v, p=2, w=None):
    """Minkowski distance (sum w |u - v|^p)^(1/p) along the last axis of (..., N) arrays; p must be positive."""
    u = _asarray(u)
    v = _asarray(v)
    if p <= 0:
        raise ValueError("p must be greater than 0")
    u_v = _difference(u, v)
    if w is not None:
        w = _weights(w)
        # norm(w^(1/p) (u - v)) = (sum w |u - v|^p)^(1/p), SciPy's formula; the roots for p = 1, 2, inf are exact.
        if p == 1:
            root_w = w
        elif p == 2:
            root_w = _cp.sqrt(w)
        elif p == numpy.inf:
            root_w = w != 0
        else:
            root_w = w ** (1.0 / p)
        u_v = root_w * u_v
    return _cp.linalg.norm(u_v, ord=p, axis=-1)


def sqeuclidean(u, v, w=None):
    """Squared Euclidean distance sum w (u - v)^2 along the last axis of (..., N) arrays."""
    u = _asarray(u)
    v = _asarray(v)
    # SciPy keeps floating (and complex) inputs' precision and computes everything else in float64.
    if u.dtype.kind not in 'fc':
        u = u.astype(numpy.float64)
    if v.dtype.kind not in 'fc':
        v = v.astype(numpy.float64)
    u_v = u - v
    u_v_w = u_v if w is None else _weights(w) * u_v
    return _cp.vecdot(u_v, u_v_w)


def seuclidean(u, v, V):
    """Standardized Euclidean distance sqrt(sum (u - v)^2 / V)."""
    return _pair('seuclidean', u, v, V=V)


def mahalanobis(u, v, VI):
    """Mahalanobis distance sqrt((u - v) VI (u - v)^T) for the inverse covariance VI."""
    VI = _cp.atleast_2d(_asarray(VI))
    return _pair('mahalanobis', u, v, VI=VI)


def hellinger(u, v):
    """Hellinger distance sqrt(sum (sqrt u - sqrt v)^2) / sqrt 2 (a CuPy extension; not in SciPy)."""
    return _pair('hellinger', u, v)


def kl_divergence(u, v):
    """Kullback-Leibler divergence sum u log(u / v), 0 log 0 = 0 (a CuPy extension; not in SciPy)."""
    return _pair('kl_divergence', u, v)


def _rel_entr(x, y):
    ok = (x > 0) & (y > 0)
    safe = _cp.where(ok, x, 1.0) / _cp.where(ok, y, 1.0)
    return _cp.where(ok, x * _cp.log(safe), _cp.where((x == 0) & (y >= 0), 0.0, numpy.inf))


def jensenshannon(p, q, base=None, *, axis=0, keepdims=False):
    """Jensen-Shannon distance of probability vectors p and q along `axis` (normalised to sum 1 first)."""
    rel_entr = _rel_entr
    p = _asarray(p)
    q = _asarray(q)
    if p.dtype.kind in 'biu':
        p = p.astype(numpy.float64)
    if q.dtype.kind in 'biu':
        q = q.astype(numpy.float64)
    p = p / p.sum(axis=axis, keepdims=True)
    q = q / q.sum(axis=axis, keepdims=True)
    m = (p + q) / 2.0
    js = rel_entr(p, m).sum(axis=axis, keepdims=keepdims) + rel_entr(q, m).sum(axis=axis, keepdims=keepdims)
    if base is not None:
        js = js / numpy.log(base)
    return _cp.sqrt(js / 2.0)


# The boolean dissimilarities of one pair follow SciPy's per-vector functions, which for non-boolean input count
# fractionally (ntt = sum u v, ...) rather than comparing nonzero patterns as cdist does.

def _bool_counts(u, v, w):
    u = _vec(u)
    v = _vec(v)
    if u.shape != v.shape:
        raise ValueError(f"operands could not be broadcast together with shapes {u.shape} {v.shape}")
    if w is not None:
        w = _check_weights(w, u.shape[0])
    if u.dtype == bool and v.dtype == bool and w is None:
        nu, nv = ~u, ~v
        return tuple((a & b).sum().astype(numpy.int64) for a, b in ((nu, nv), (nu, v), (u, nv), (u, v)))
    dt = numpy.result_type(int, u.dtype, v.dtype)
    u = u.astype(dt)
    v = v.astype(dt)
    nu, nv = 1.0 - u, 1.0 - v
    if w is not None:
        nu = w * nu
        u = w * u
    return (nu * nv).sum(), (nu * v).sum(), (u * nv).sum(), (u * v).sum()


def _f64(x):
    return _asarray(x).astype(numpy.float64)


def dice(u, v, w=None):
    """Dice dissimilarity (ntf + nft) / (2 ntt + ntf + nft) of two boolean vectors."""
    _, nft, ntf, ntt = _bool_counts(u, v, w)
    return _f64((ntf + nft) / _f64(2.0 * ntt + ntf + nft))


def rogerstanimoto(u, v, w=None):
    """Rogers-Tanimoto dissimilarity R / (ntt + nff + R), R = 2 (ntf + nft), of two boolean vectors."""
    nff, nft, ntf, ntt = _bool_counts(u, v, w)
    R = 2.0 * (ntf + nft)
    return _f64(R / (ntt + nff + R))


def russellrao(u, v, w=None):
    """Russell-Rao dissimilarity (n - ntt) / n of two boolean vectors (n = total weight)."""
    u = _vec(u)
    v = _vec(v)
    if u.shape != v.shape:
        raise ValueError(f"operands could not be broadcast together with shapes {u.shape} {v.shape}")
    if u.dtype == bool and v.dtype == bool and w is None:
        ntt = (u & v).sum()
        n = float(u.shape[0])
    elif w is None:
        ntt = (u * v).sum()
        n = float(u.shape[0])
    else:
        w = _check_weights(w, u.shape[0])
        ntt = (u * v * w).sum()
        n = w.sum()
    return _f64((n - ntt) / _f64(n))


def sokalsneath(u, v, w=None):
    """Sokal-Sneath dissimilarity R / (ntt + R), R = 2 (ntf + nft); ValueError for two all-false vectors."""
    _, nft, ntf, ntt = _bool_counts(u, v, w)
    denom = _f64(ntt + 2.0 * (ntf + nft))
    if not bool(denom != 0):
        raise ValueError('Sokal-Sneath dissimilarity is not defined for vectors that are entirely false.')
    return _f64(2.0 * (ntf + nft) / denom)


def yule(u, v, w=None):
    """Yule dissimilarity 2 ntf nft / (ntt nff + ntf nft) of two boolean vectors (0 when ntf nft = 0)."""
    nff, nft, ntf, ntt = _bool_counts(u, v, w)
    half = _f64(ntf) * _f64(nft)
    if not bool(half != 0):
        return _cp.zeros((), dtype=numpy.float64)
    return _f64(2.0 * half / (_f64(ntt) * _f64(nff) + half))
