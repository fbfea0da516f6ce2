"""cuarray.scipy.spatial (distance, KDTree) against scipy.spatial on the same inputs.

Every case runs on the GPU (marked gpu) and, without a GPU, with the generated kernels compiled for the host
and NumPy in place of cuarray (tests/python/_scipy_extra_host.py). The CPU part also compiles every kernel with
NVRTC and checks the module's names against CuPy's (tests/python/data/cupyx_scipy_spatial_names.txt).
"""
import pathlib
import warnings

import numpy
import pytest
import scipy
import scipy.spatial as ss

import cuarray as cp
import cuarray.scipy.spatial as csp
from cuarray.scipy.spatial import _kernels

from _scipy_extra_cases import run, same
from _scipy_extra_host import compiler, host_modules

gpu = pytest.mark.gpu
needs_cxx = pytest.mark.skipif(compiler() is None, reason="no host C++ compiler")
RNG = numpy.random.default_rng(7)

# Names of CuPy's cupyx.scipy.spatial not provided, each with its reason.
NOT_DONE = {}

X = RNG.random((9, 5))
Y = RNG.random((6, 5))
W = RNG.random(5)
B = RNG.random((9, 5)) > 0.5
BY = RNG.random((6, 5)) > 0.5
SPARSE = X * (X > 0.5)
SPARSE_Y = Y * (Y > 0.5)
Q = RNG.random((7, 5))
METRICS = ['braycurtis', 'canberra', 'chebyshev', 'cityblock', 'correlation', 'cosine', 'dice', 'euclidean',
           'hamming', 'jaccard', 'jensenshannon', 'mahalanobis', 'minkowski', 'rogerstanimoto', 'russellrao',
           'seuclidean', 'sokalsneath', 'sqeuclidean', 'yule']
UNWEIGHTED = {'jensenshannon', 'mahalanobis', 'seuclidean'}


def _cases():
    c = []
    for metric in METRICS:
        datas = [('float', X, Y), ('bool', B, BY), ('sparse', SPARSE, SPARSE_Y), ('f32', X.astype(numpy.float32),
                                                                                   Y.astype(numpy.float32)),
                 ('int', (X * 4).astype(numpy.int64), (Y * 4).astype(numpy.int64))]
        for dname, a, b in datas:
            if metric == 'mahalanobis' and dname == 'bool':
                continue
            kws = [{}]
            if metric not in UNWEIGHTED:
                kws.append({'w': W})
            if metric == 'minkowski':
                kws += [{'p': 3.5}, {'p': numpy.inf}, {'p': 1}, {'p': 0.5, 'w': W}]
            for kw in kws:
                tag = f"{metric}-{dname}-{'-'.join(kw)}"
                c.append((f'cdist-{tag}', lambda m, d, a=a, b=b, me=metric, kw=kw:
                          m.distance.cdist(d(a), d(b), me, **kw), 1e-10))
                c.append((f'pdist-{tag}', lambda m, d, a=a, me=metric, kw=kw: m.distance.pdist(d(a), me, **kw),
                          1e-10))
    c.append(('cdist-alias', lambda m, d: m.distance.cdist(d(X), d(Y), 'sqe'), 1e-12))
    c.append(('cdist-empty', lambda m, d: m.distance.cdist(d(X[:0]), d(Y)), 0))
    c.append(('cdist-nofeat', lambda m, d: m.distance.cdist(d(X[:, :0]), d(Y[:, :0]), 'cosine'), 0))
    c.append(('pdist-one', lambda m, d: m.distance.pdist(d(X[:1])), 0))
    c.append(('cdist-nan', lambda m, d: m.distance.cdist(d(numpy.where(X > 0.8, numpy.nan, X)), d(Y)), 1e-12))
    c.append(('cdist-zeros-js', lambda m, d: m.distance.cdist(d(numpy.zeros((2, 3))), d(numpy.zeros((2, 3))),
                                                              'jensenshannon'), 0))
    c.append(('cdist-noncontig', lambda m, d: m.distance.cdist(d(X)[::2, ::-1], d(Y)[:, ::-1], 'cityblock'), 1e-12))
    c.append(('cdist-callable', lambda m, d: m.distance.cdist(d(X[:3]), d(Y[:2]),
                                                              lambda u, v: float(abs(u - v).sum())), 1e-12))
    c.append(('cdist-out', lambda m, d: m.distance.cdist(d(X), d(Y), out=d(numpy.zeros((9, 6)))), 1e-12))
    # Exceptions: SciPy's types.
    c.append(('cdist-badmetric', lambda m, d: m.distance.cdist(d(X), d(Y), 'nope'), 0))
    c.append(('cdist-metrictype', lambda m, d: m.distance.cdist(d(X), d(Y), 3), 0))
    c.append(('cdist-cols', lambda m, d: m.distance.cdist(d(X), d(Y[:, :2])), 0))
    c.append(('cdist-1d', lambda m, d: m.distance.cdist(d(X[0]), d(Y)), 0))
    c.append(('cdist-badw', lambda m, d: m.distance.cdist(d(X), d(Y), w=d(W[:3])), 0))
    c.append(('cdist-negw', lambda m, d: m.distance.cdist(d(X), d(Y), w=d(-W)), 0))
    c.append(('cdist-p0', lambda m, d: m.distance.cdist(d(X), d(Y), 'minkowski', p=0), 0))
    c.append(('cdist-kwarg', lambda m, d: m.distance.cdist(d(X), d(Y), 'euclidean', foo=1), 0))
    c.append(('cdist-js-w', lambda m, d: m.distance.cdist(d(X), d(Y), 'jensenshannon', w=d(W)), 0))
    c.append(('pdist-mahal-few', lambda m, d: m.distance.pdist(d(X[:3]), 'mahalanobis'), 0))
    c.append(('cdist-badout', lambda m, d: m.distance.cdist(d(X), d(Y), out=d(numpy.zeros((2, 2)))), 0))
    c.append(('pdist-3d', lambda m, d: m.distance.pdist(d(numpy.zeros((2, 2, 2)))), 0))
    # squareform and distance_matrix.
    c.append(('squareform-v2m', lambda m, d: m.distance.squareform(d(ss.distance.pdist(X))), 0))
    c.append(('squareform-m2v', lambda m, d: m.distance.squareform(d(ss.distance.squareform(ss.distance.pdist(X)))),
              0))
    c.append(('squareform-int', lambda m, d: m.distance.squareform(d(numpy.arange(1, 7))), 0))
    c.append(('squareform-empty', lambda m, d: m.distance.squareform(d(numpy.zeros(0))), 0))
    c.append(('squareform-1x1', lambda m, d: m.distance.squareform(d(numpy.zeros((1, 1)))), 0))
    c.append(('squareform-badsize', lambda m, d: m.distance.squareform(d(numpy.zeros(4))), 0))
    c.append(('squareform-asym', lambda m, d: m.distance.squareform(d(numpy.arange(4.0).reshape(2, 2))), 0))
    for p in (1, 2, 3, numpy.inf):
        c.append((f'distance_matrix-{p}', lambda m, d, p=p: m.distance_matrix(d(X), d(Y), p=p), 1e-12))
    c.append(('distance_matrix-int', lambda m, d: m.distance_matrix(d((X * 3).astype(int)), d((Y * 3).astype(int))),
              1e-12))
    c.append(('distance_matrix-dims', lambda m, d: m.distance_matrix(d(X), d(Y[:, :3])), 0))
    # One pair of vectors (SciPy's scalar results; cuarray returns 0-d device arrays).
    for f in ('braycurtis', 'canberra', 'chebyshev', 'cityblock', 'correlation', 'cosine', 'euclidean', 'hamming',
              'jaccard', 'sqeuclidean', 'minkowski', 'dice', 'rogerstanimoto', 'russellrao', 'sokalsneath', 'yule'):
        for uname, u, v in (('float', X[0], Y[0]), ('bool', B[0], BY[0]), ('frac', numpy.array([0.3, 0.5, 0, 1, 1]),
                                                                          numpy.array([0.3, 0.7, 0, 0, 1]))):
            for w in (None, W):
                c.append((f'vec-{f}-{uname}-{w is None}', lambda m, d, f=f, u=u, v=v, w=w:
                          numpy.float64(_host_scalar(getattr(m.distance, f)(d(u), d(v),
                                                                            w=None if w is None else d(w)))), 1e-12))
    c.append(('vec-correlation-uncentered', lambda m, d: numpy.float64(_host_scalar(
        m.distance.correlation(d(X[0]), d(Y[0]), centered=False))), 1e-12))
    c.append(('vec-seuclidean', lambda m, d: numpy.float64(_host_scalar(
        m.distance.seuclidean(d(X[0]), d(Y[0]), d(W + 0.5)))), 1e-12))
    VI = numpy.linalg.inv(numpy.cov(numpy.vstack([X, Y]).T))
    c.append(('vec-mahalanobis', lambda m, d: numpy.float64(_host_scalar(
        m.distance.mahalanobis(d(X[0]), d(Y[0]), d(VI)))), 1e-10))
    c.append(('vec-minkowski-p0', lambda m, d: m.distance.minkowski(d(X[0]), d(Y[0]), 0), 0))
    # (..., N) arrays: minkowski, euclidean and sqeuclidean broadcast them (SciPy >= 1.18; see _nd); the others
    # refuse anything but 1-D vectors, size-1 axes included.
    for f, kw in (('euclidean', {}), ('euclidean', {'w': W}), ('sqeuclidean', {}), ('sqeuclidean', {'w': W}),
                  ('minkowski', {'p': 3.5}), ('minkowski', {'p': 1, 'w': W}), ('minkowski', {'p': numpy.inf})):
        for sname, u, v in (('2d', X[:2], Y[:2]), ('bcast', X[:2, None], Y[:3]),
                            ('row', X[:1], Y[0]), ('f32', X[:3].astype(numpy.float32), Y[:3].astype(numpy.float32)),
                            ('int', (X[:3] * 4).astype(numpy.int64), (Y[:3] * 4).astype(numpy.int64))):
            ktag = '-'.join(k if k == 'w' else f'{k}{x}' for k, x in kw.items())
            c.append((f'nd-{f}-{ktag}-{sname}', lambda m, d, f=f, kw=kw, u=u, v=v:
                      _nd(m, f, d(u), d(v), **{k: d(x) if k == 'w' else x for k, x in kw.items()}),
                      1e-5 if sname == 'f32' else 1e-12))
    c.append(('nd-euclidean-bool', lambda m, d: _nd(m, 'euclidean', d(B[:2]), d(BY[:2])), 0))
    c.append(('nd-sqeuclidean-bool', lambda m, d: _nd(m, 'sqeuclidean', d(B[:2]), d(BY[:2])), 1e-12))
    c.append(('nd-euclidean-mismatch', lambda m, d: _nd(m, 'euclidean', d(X[:2]), d(Y[:3])), 0))
    c.append(('nd-euclidean-w2d', lambda m, d: _nd(m, 'euclidean', d(X[:2]), d(Y[:2]), w=d(X[:2])), 0))
    c.append(('nd-minkowski-p0', lambda m, d: _nd(m, 'minkowski', d(X[:2]), d(Y[:2]), 0), 0))
    for f in ('cityblock', 'chebyshev', 'cosine', 'seuclidean'):
        c.append((f'vec-{f}-2d', lambda m, d, f=f: getattr(m.distance, f)(
            d(X[:1]), d(Y[:1]), *((d(W + 0.5),) if f == 'seuclidean' else ())), 0))
    c.append(('vec-sokalsneath-false', lambda m, d: m.distance.sokalsneath(d(numpy.zeros(3, bool)),
                                                                            d(numpy.zeros(3, bool))), 0))
    for kw in ({}, {'base': 2}, {'axis': 1}, {'axis': 1, 'keepdims': True}):
        c.append((f'jensenshannon-{kw}', lambda m, d, kw=kw: m.distance.jensenshannon(d(X), d(X[::-1]), **kw), 1e-12))
    # KDTree: queries avoid exact distance ties, whose order SciPy leaves to its tree layout.
    for k in (1, 3, [1, 3], [2]):
        for p in (1, 2, 3.5, numpy.inf):
            c.append((f'kdtree-query-{k}-{p}', lambda m, d, k=k, p=p: m.KDTree(d(X)).query(d(Q), k=k, p=p), 1e-12))
            c.append((f'kdtree-query-bound-{k}-{p}', lambda m, d, k=k, p=p:
                      m.KDTree(d(X)).query(d(Q), k=k, p=p, distance_upper_bound=0.7), 1e-12))
    c.append(('kdtree-query-1pt', lambda m, d: m.KDTree(d(X)).query(d(Q[0]), k=2), 1e-12))
    q3 = RNG.random((2, 3, 5))
    c.append(('kdtree-query-3d', lambda m, d: m.KDTree(d(X)).query(d(q3), k=2), 1e-12))
    c.append(('kdtree-query-empty', lambda m, d: m.KDTree(d(X)).query(d(numpy.zeros((0, 5))), k=2), 0))
    c.append(('kdtree-query-k>n', lambda m, d: m.KDTree(d(X[:2])).query(d(Q), k=4), 0))
    c.append(('kdtree-query-badk', lambda m, d: m.KDTree(d(X)).query(d(Q), k=0), 0))
    c.append(('kdtree-query-baddim', lambda m, d: m.KDTree(d(X)).query(d(Q[:, :3])), 0))
    c.append(('kdtree-periodic', lambda m, d: m.KDTree(d(X), boxsize=1.0).query(d(Q), k=3), 1e-12))
    c.append(('kdtree-periodic-out', lambda m, d: m.KDTree(d(X * 2), boxsize=1.0), 0))
    for r in (0.5, 0.8):
        c.append((f'kdtree-ball-{r}', lambda m, d, r=r: m.KDTree(d(X)).query_ball_point(d(Q), r), 0))
        c.append((f'kdtree-ball-len-{r}', lambda m, d, r=r:
                  m.KDTree(d(X)).query_ball_point(d(Q), r, return_length=True), 0))
        c.append((f'kdtree-ball-1pt-{r}', lambda m, d, r=r: m.KDTree(d(X)).query_ball_point(d(Q[0]), r, p=1), 0))
        c.append((f'kdtree-pairs-{r}', lambda m, d, r=r: m.KDTree(d(X)).query_pairs(r), 0))
        c.append((f'kdtree-pairs-nd-{r}', lambda m, d, r=r: m.KDTree(d(X)).query_pairs(r, output_type='ndarray'), 0))
        c.append((f'kdtree-balltree-{r}', lambda m, d, r=r: m.KDTree(d(X)).query_ball_tree(m.KDTree(d(Y)), r), 0))
        c.append((f'kdtree-sdm-{r}', lambda m, d, r=r:
                  m.KDTree(d(X)).sparse_distance_matrix(m.KDTree(d(Y)), r, output_type='dict'), 0))
    c.append(('kdtree-count', lambda m, d: m.KDTree(d(X)).count_neighbors(m.KDTree(d(Y)), [0.5, 0.8, 1.0]), 0))
    c.append(('kdtree-count-scalar', lambda m, d: m.KDTree(d(X)).count_neighbors(m.KDTree(d(Y)), 0.7), 0))
    c.append(('kdtree-count-noncum', lambda m, d: m.KDTree(d(X)).count_neighbors(m.KDTree(d(Y)), [0.5, 0.8, 1.0],
                                                                                 cumulative=False), 0))
    c.append(('kdtree-count-weighted', lambda m, d: m.KDTree(d(X)).count_neighbors(
        m.KDTree(d(Y)), [0.5, 0.8], weights=(d(W.repeat(2)[:9]), d(W.repeat(2)[:6]))), 1e-12))
    c.append(('kdtree-1d-data', lambda m, d: m.KDTree(d(X[0])), 0))
    return c


# SciPy took (..., N) arrays in minkowski, euclidean and sqeuclidean from 1.18 on; with an older SciPy the reference
# is SciPy's 1-D function applied to each broadcast pair of rows (what 1.18 computes), its errors kept.
_SCIPY_ND = tuple(int(v) for v in scipy.__version__.split('.')[:2]) >= (1, 18)


def _nd(m, f, u, v, *args, **kw):
    fn = getattr(m.distance, f)
    if m is not ss or _SCIPY_ND:
        return fn(u, v, *args, **kw)
    if numpy.ndim(u) == 1 and numpy.ndim(v) == 1 or numpy.ndim(kw.get('w')) > 1:
        return fn(u, v, *args, **kw)
    ub, vb = numpy.broadcast_arrays(u, v)
    rows = numpy.asarray([fn(ub[i], vb[i], *args, **kw) for i in numpy.ndindex(ub.shape[:-1])])
    if f != 'sqeuclidean' and ub.dtype == vb.dtype == numpy.float32 and 'w' not in kw:
        # Before 1.18 the 1-D 2-norm went through BLAS nrm2, which returns a Python float; 1.18's norm along the
        # last axis keeps float32.
        rows = rows.astype(numpy.float32)
    return rows.reshape(ub.shape[:-1])


def _host_scalar(x):
    return cp.asnumpy(x) if isinstance(x, cp.ndarray) else x


CASES = _cases()
IDS = [c[0] for c in CASES]


def _ref(fn):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return run(fn, ss, lambda a: a)


@needs_cxx
@pytest.mark.parametrize('case', CASES, ids=IDS)
def test_host_emulated_matches_scipy(case):
    _, fn, tol = case
    with host_modules() as (spatial, _, _), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ours = run(fn, spatial, lambda a: a)
    same(ours, _ref(fn), tol)


@gpu
@pytest.mark.parametrize('case', CASES, ids=IDS)
def test_gpu_matches_scipy(case):
    _, fn, tol = case
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ours = run(fn, csp, cp.asarray)
    same(ours, _ref(fn), tol)


@gpu
def test_gpu_cdist_large_tiles():
    a = RNG.random((1000, 37))
    b = RNG.random((333, 37))
    for metric in ('euclidean', 'cosine', 'canberra', 'chebyshev'):
        numpy.testing.assert_allclose(cp.asnumpy(csp.distance.cdist(cp.asarray(a), cp.asarray(b), metric)),
                                      ss.distance.cdist(a, b, metric), rtol=1e-10, atol=1e-12)
    numpy.testing.assert_allclose(cp.asnumpy(csp.distance.pdist(cp.asarray(a), 'cityblock')),
                                  ss.distance.pdist(a, 'cityblock'), rtol=1e-10)
    d, i = csp.KDTree(cp.asarray(a)).query(cp.asarray(b), k=5)
    dr, ir = ss.KDTree(a).query(b, k=5)
    numpy.testing.assert_allclose(cp.asnumpy(d), dr, rtol=1e-12)
    numpy.testing.assert_array_equal(cp.asnumpy(i), ir)


@pytest.mark.parametrize('metric', sorted(_kernels.METRICS))
def test_kernels_compile_with_nvrtc(metric):
    from cuarray.cuda.compiler import compile_using_nvrtc
    compile_using_nvrtc(_kernels.dist_source(metric), arch='80')


def test_other_kernels_compile_with_nvrtc():
    from cuarray.cuda.compiler import compile_using_nvrtc
    compile_using_nvrtc(_kernels.mahalanobis_source(), arch='80')
    compile_using_nvrtc(_kernels.ksmallest_source(), arch='80')


def _names():
    path = pathlib.Path(__file__).parent / 'data' / 'cupyx_scipy_spatial_names.txt'
    return [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith('#')]


def test_every_cupy_name_exists():
    missing = []
    for name in _names():
        obj = csp
        for part in name.split('.'):
            obj = getattr(obj, part, None)
        if obj is None and name not in NOT_DONE:
            missing.append(name)
    assert not missing, missing
    for name in NOT_DONE:
        assert name in _names(), f"{name} is listed as not done but CuPy has no such name"


# ---- Delaunay: exact triangulation on the host, point location on the GPU (or host-compiled kernels) ----

from fractions import Fraction  # NOQA: E402

from _delaunay_host import host_delaunay  # NOQA: E402

DRNG = numpy.random.default_rng(11)


def _tri_set(simplices):
    return set(map(tuple, numpy.sort(numpy.asarray(simplices), axis=1).tolist()))


def _exact_orient(a, b, c):
    a, b, c = [tuple(map(Fraction, map(float, v))) for v in (a, b, c)]
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _exact_incircle(a, b, c, d):
    rows = []
    for v in (a, b, c):
        x, y = Fraction(float(v[0])) - Fraction(float(d[0])), Fraction(float(v[1])) - Fraction(float(d[1]))
        rows.append((x, y, x * x + y * y))
    (a0, a1, a2), (b0, b1, b2), (c0, c1, c2) = rows
    return a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) + a2 * (b0 * c1 - b1 * c0)


def _exact_hull_area(pts):
    """The exact area of the convex hull of pts (monotone chain on the exact coordinates)."""
    P = sorted(set(tuple(map(Fraction, map(float, v))) for v in pts))

    def chain(points):
        out = []
        for p in points:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out[:-1]

    hull = chain(P) + chain(P[::-1])
    return sum(hull[i - 1][0] * hull[i][1] - hull[i][0] * hull[i - 1][1] for i in range(len(hull))) / 2


def _check_valid(pts, simplices, neighbors):
    """A Delaunay triangulation of pts: counter-clockwise triangles, consistent neighbours, every opposite
    vertex outside or on each circumcircle (exactly), the triangles tile the convex hull (exact areas) and the
    edges without a neighbour lie on its boundary."""
    area = Fraction(0)
    for t, tri in enumerate(simplices):
        o = _exact_orient(*pts[tri])
        assert o > 0, (t, tri)
        area += o / 2
        for k in range(3):
            nb = neighbors[t, k]
            edge = {tri[(k + 1) % 3], tri[(k + 2) % 3]}
            if nb == -1:
                u, v = tri[(k + 1) % 3], tri[(k + 2) % 3]
                sample = pts[:: max(1, len(pts) // 60)]
                assert all(_exact_orient(pts[u], pts[v], w) >= 0 for w in sample)
                continue
            assert edge <= set(simplices[nb]) and t in neighbors[nb]
            j = list(neighbors[nb]).index(t)
            assert _exact_incircle(*pts[tri], pts[simplices[nb, j]]) <= 0
    assert area == _exact_hull_area(pts)


def _grid_points():
    g = numpy.stack(numpy.meshgrid(numpy.arange(8.0), numpy.arange(6.0) * 0.5), -1).reshape(-1, 2)
    return g


def _circle_points():
    th = numpy.arange(24) * (2 * numpy.pi / 24)
    return numpy.r_[numpy.c_[numpy.cos(th), numpy.sin(th)], numpy.c_[2 * numpy.cos(th), 2 * numpy.sin(th)],
                    [[0.0, 0.0]]]


TRI_SETS = {
    'random': DRNG.random((400, 2)),
    'few': DRNG.random((4, 2)),
    'three': numpy.array([[0.0, 0.0], [1.0, 0.0], [0.3, 2.0]]),
    'clustered': numpy.r_[DRNG.normal(size=(200, 2)) * 1e-3, DRNG.normal(size=(200, 2)) * 1e-3 + 5.0,
                          DRNG.random((50, 2)) * 5],
    'tiny': DRNG.random((150, 2)) * 1e-300,
    'huge': DRNG.random((150, 2)) * 1e300,
    'int': DRNG.permutation(400)[:60].reshape(30, 2).astype(numpy.int64),
}
REF_SCALE = {'tiny': 1e-300, 'huge': 1e300}
# Non-unique Delaunay triangulations (cocircular points): checked by property, not against SciPy's triangles.
DEGENERATE_SETS = {
    'grid': _grid_points(),
    'circles': _circle_points(),
    'lattice': numpy.unique(DRNG.integers(0, 6, (40, 2)), axis=0).astype(float),
    'near-collinear': numpy.c_[numpy.linspace(0, 1, 40), numpy.linspace(0, 1, 40) + (numpy.arange(40) == 20) * 1e-13],
}


def _delaunay_properties(spatial, dev, host, pts):
    tri = spatial.Delaunay(dev(pts))
    simplices, neighbors = host(tri.simplices), host(tri.neighbors)
    assert simplices.dtype == neighbors.dtype == numpy.int32
    assert tri.nsimplex == simplices.shape[0] and tri.npoints == pts.shape[0] and tri.ndim == 2
    _check_valid(pts.astype(float), simplices, neighbors)
    # Every distinct point is a vertex (an exact triangulation drops none).
    assert set(numpy.unique(simplices).tolist()) == set(range(pts.shape[0]))
    # The barycentric transforms map each vertex to its unit coordinates.
    T = host(tri.transform)
    assert T.shape == (simplices.shape[0], 3, 2)
    P = pts.astype(float)
    for j in range(3):
        v = P[simplices[:, j]]
        c = numpy.einsum('tij,tj->ti', T[:, :2], v - T[:, 2])
        c = numpy.c_[c, 1 - c.sum(1)]
        scale = numpy.abs(P).max()
        ok = numpy.isfinite(T[:, 0, 0])
        numpy.testing.assert_allclose(c[ok], numpy.eye(3)[j][None].repeat(ok.sum(), 0), atol=1e-9 * max(1, scale))
    return tri


def _delaunay_against_scipy(spatial, dev, host, name):
    pts = TRI_SETS[name]
    tri = _delaunay_properties(spatial, dev, host, pts)
    # Qhull fails on coordinates near the ends of the double range: the reference sees them scaled to ~1.
    unit = REF_SCALE.get(name, 1.0)
    ref = ss.Delaunay(pts / unit)
    simplices = host(tri.simplices)
    assert _tri_set(simplices) == _tri_set(ref.simplices)
    # vertex_neighbor_vertices: SciPy's CSR layout; each vertex's neighbours as a set.
    ip, ix = map(host, tri.vertex_neighbor_vertices)
    rp, rx = ref.vertex_neighbor_vertices
    assert ip.dtype == ix.dtype == numpy.int32
    numpy.testing.assert_array_equal(ip, rp)
    for k in range(pts.shape[0]):
        assert set(ix[ip[k]:ip[k + 1]].tolist()) == set(rx[rp[k]:rp[k + 1]].tolist())
    hull = host(tri.convex_hull)
    assert hull.dtype == numpy.int32 and hull.shape == ref.convex_hull.shape
    assert _tri_set(hull) == _tri_set(ref.convex_hull)
    v2s = host(tri.vertex_to_simplex)
    assert v2s.dtype == numpy.int32 and all(k in simplices[v2s[k]] for k in range(pts.shape[0]))
    assert host(tri.coplanar).shape == (0, 3)
    numpy.testing.assert_array_equal(host(tri.min_bound), pts.min(0))
    numpy.testing.assert_array_equal(host(tri.max_bound), pts.max(0))
    # find_simplex: the same simplex as SciPy's (up to the two sides of a shared edge), -1 exactly where SciPy.
    lo, hi = pts.min(0).astype(float), pts.max(0).astype(float)
    q = lo + (DRNG.random((3000, 2)) * 1.3 - 0.15) * (hi - lo)
    q = numpy.r_[q, pts.astype(float), [[numpy.nan, lo[1]], [numpy.inf, lo[1]]]]
    key = {tuple(sorted(s)): i for i, s in enumerate(ref.simplices.tolist())}
    ours_to_ref = numpy.array([key[tuple(sorted(s))] for s in simplices.tolist()])
    for brute in (False, True):
        f = host(tri.find_simplex(dev(q), bruteforce=brute))
        r = ref.find_simplex(q / unit, bruteforce=brute)
        assert f.dtype == numpy.int32 and f.shape == r.shape
        numpy.testing.assert_array_equal(f == -1, r == -1)
        inside = f >= 0
        # Where SciPy's simplex differs, the point is on an edge both share: check ours contains it.
        T = host(tri.transform)[f[inside]]
        c = numpy.einsum('tij,tj->ti', T[:, :2], q[inside] - T[:, 2])
        c = numpy.c_[c, 1 - c.sum(1)]
        assert (c >= -1e-12).all() and (c <= 1 + 1e-12).all()
        # Away from the data points (shared by many triangles) the simplex is almost always SciPy's own.
        rand = inside[:3000]
        assert (ours_to_ref[f[:3000][rand]] == r[:3000][rand]).mean() > 0.99
    # Shapes: (..., 2) queries keep their leading shape; one point gives a 0-d result.
    assert host(tri.find_simplex(dev(q[:12].reshape(3, 4, 2)))).shape == (3, 4)
    assert host(tri.find_simplex(dev(q[0]))).shape == ()
    assert host(tri.find_simplex(dev(q[:0]))).shape == (0,)


def _delaunay_degenerate(spatial, dev, host, name):
    _delaunay_properties(spatial, dev, host, DEGENERATE_SETS[name])


def _delaunay_errors(spatial, dev, host):
    QhullError = spatial.QhullError
    assert issubclass(QhullError, RuntimeError) and QhullError.__name__ == 'QhullError'
    cases = [(numpy.c_[numpy.arange(5.0), 2 * numpy.arange(5.0)], ss.QhullError, QhullError),
             (numpy.array([[0.0, 0.0], [1.0, 1.0]]), ss.QhullError, QhullError),
             (numpy.array([[0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]), ss.QhullError, QhullError),
             (numpy.array([[0.0, 0.0], [1.0, 0.0], [numpy.nan, 1.0]]), ValueError, ValueError),
             (numpy.array([[0.0, 0.0], [1.0, 0.0], [numpy.inf, 1.0]]), ss.QhullError, QhullError),
             (numpy.zeros((0, 2)), ValueError, ValueError),
             (numpy.arange(6.0), ValueError, ValueError)]
    for pts, ref_exc, our_exc in cases:
        with pytest.raises(ref_exc):
            ss.Delaunay(pts)
        with pytest.raises(our_exc):
            spatial.Delaunay(dev(pts))
    pts = TRI_SETS['random'][:20]
    for kw in ({'furthest_site': True}, {'incremental': True}, {'qhull_options': 'QJ'}):
        with pytest.raises(ValueError):
            spatial.Delaunay(dev(pts), **kw)
    with pytest.raises(ValueError):
        spatial.Delaunay(dev(DRNG.random((10, 3))))
    tri = spatial.Delaunay(dev(pts), qhull_options='Qbb Qc Qz Q12')
    with pytest.raises(ValueError):
        tri.find_simplex(dev(numpy.zeros((4, 3))))


def _delaunay_duplicates(spatial, dev, host):
    pts = numpy.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [1.0, 1.0], [1.0, -0.0]])
    tri = spatial.Delaunay(dev(pts))
    ref = ss.Delaunay(pts)
    cop = host(tri.coplanar)
    assert cop.dtype == numpy.int32
    numpy.testing.assert_array_equal(cop[:, [0, 2]], ref.coplanar[numpy.argsort(ref.coplanar[:, 0])][:, [0, 2]])
    simplices = host(tri.simplices)
    assert all(v in simplices[s] for s, v in cop[:, 1:].tolist())
    assert _tri_set(simplices) == _tri_set(ref.simplices)
    numpy.testing.assert_array_equal(host(tri.vertex_to_simplex)[cop[:, 0]], cop[:, 2])
    ip, _ = map(host, tri.vertex_neighbor_vertices)
    assert (ip[cop[:, 0] + 1] == ip[cop[:, 0]]).all()


def _delaunay_tolerance(spatial, dev, host):
    pts = numpy.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    tri = spatial.Delaunay(dev(pts))
    ref = ss.Delaunay(pts)
    q = numpy.array([[-1e-14, 0.5], [-1e-10, 0.5], [0.5, 0.5 + 1e-15], [0.5, 0.5 + 1e-9], [1 + 1e-13, 0.0]])
    for tol in (None, 0.0, 1e-8, 1e-3):
        for brute in (False, True):
            numpy.testing.assert_array_equal(host(tri.find_simplex(dev(q), bruteforce=brute, tol=tol)),
                                             ref.find_simplex(q, bruteforce=brute, tol=tol))



@needs_cxx
@pytest.mark.parametrize('name', sorted(TRI_SETS))
def test_host_delaunay_matches_scipy(name):
    with host_delaunay() as (spatial, _):
        _delaunay_against_scipy(spatial, numpy.asarray, numpy.asarray, name)


@needs_cxx
@pytest.mark.parametrize('name', sorted(DEGENERATE_SETS))
def test_host_delaunay_cocircular_is_valid(name):
    with host_delaunay() as (spatial, _):
        _delaunay_degenerate(spatial, numpy.asarray, numpy.asarray, name)


@needs_cxx
@pytest.mark.parametrize('check', [_delaunay_errors, _delaunay_duplicates, _delaunay_tolerance],
                         ids=['errors', 'duplicates', 'tolerance'])
def test_host_delaunay_edge_cases(check):
    with host_delaunay() as (spatial, _):
        check(spatial, numpy.asarray, numpy.asarray)


@needs_cxx
def test_host_delaunay_many_points():
    pts = DRNG.random((20000, 2))
    with host_delaunay() as (spatial, _):
        tri = spatial.Delaunay(pts)
        assert _tri_set(tri.simplices) == _tri_set(ss.Delaunay(pts).simplices)


def test_delaunay_validates_without_gpu():
    # Validation happens before any device use.
    for pts, exc in ((numpy.c_[numpy.arange(4.0), numpy.arange(4.0)], csp.QhullError),
                     (numpy.zeros((0, 2)), ValueError), (numpy.ones((3, 3)), ValueError),
                     (numpy.array([[0.0, numpy.nan], [1, 0], [0, 1]]), ValueError)):
        with pytest.raises(exc):
            csp.Delaunay(pts)
    with pytest.raises(ValueError):
        csp.Delaunay(numpy.eye(3)[:, :2], furthest_site=True)


def test_delaunay_kernels_compile_with_nvrtc():
    from cuarray.cuda.compiler import compile_using_nvrtc
    from cuarray.scipy.spatial import _delaunay_kernels
    compile_using_nvrtc(_delaunay_kernels.source(), options=_delaunay_kernels.OPTIONS, arch='80')


@gpu
@pytest.mark.parametrize('name', sorted(TRI_SETS))
def test_gpu_delaunay_matches_scipy(name):
    _delaunay_against_scipy(csp, cp.asarray, cp.asnumpy, name)


@gpu
@pytest.mark.parametrize('name', sorted(DEGENERATE_SETS))
def test_gpu_delaunay_cocircular_is_valid(name):
    _delaunay_degenerate(csp, cp.asarray, cp.asnumpy, name)


@gpu
@pytest.mark.parametrize('check', [_delaunay_errors, _delaunay_duplicates, _delaunay_tolerance],
                         ids=['errors', 'duplicates', 'tolerance'])
def test_gpu_delaunay_edge_cases(check):
    check(csp, cp.asarray, cp.asnumpy)


@gpu
def test_gpu_delaunay_many_queries():
    pts = DRNG.random((5000, 2))
    tri = csp.Delaunay(cp.asarray(pts))
    ref = ss.Delaunay(pts)
    q = DRNG.random((200000, 2)) * 1.1 - 0.05
    f = cp.asnumpy(tri.find_simplex(cp.asarray(q)))
    r = ref.find_simplex(q)
    numpy.testing.assert_array_equal(f == -1, r == -1)
    key = {tuple(sorted(s)): i for i, s in enumerate(ref.simplices.tolist())}
    m = numpy.array([key[tuple(sorted(s))] for s in cp.asnumpy(tri.simplices).tolist()])
    assert (m[f[f >= 0]] == r[f >= 0]).mean() > 0.999
