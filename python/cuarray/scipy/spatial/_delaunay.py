"""cuarray.scipy.spatial.Delaunay: exact 2-D Delaunay triangulation (built on the host), point location on the GPU."""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.spatial import _delaunay_kernels as _k


class QhullError(RuntimeError):
    """Raised where SciPy's Qhull reports an error: too few points, all points collinear, infinite coordinates."""


# Note [robust Delaunay predicates]
# The triangulation is decided by two signs: orient(a, b, c) (is c left of a->b) and incircle(a, b, c, d) (is d
# inside the circle through the counter-clockwise a, b, c). Both are evaluated in floating point first, with
# Shewchuk's a-priori error bounds for exactly this evaluation order; a result smaller than its bound is
# recomputed exactly with Python integers: every double is an integer times a power of two, so the coordinates
# involved are scaled to integers by their common power of two (a positive factor, which keeps the signs). The
# bounds assume no underflow or overflow; _Triangulator checks once that the coordinates (after an exact
# scaling by a power of two) lie in a range where no intermediate can underflow or overflow, and otherwise
# evaluates every predicate exactly. Wrong signs do not just perturb a triangulation, they break it
# (overlapping or missing triangles), hence the care.
_EPS = 2.0 ** -53
_CCW_BOUND = (3.0 + 16.0 * _EPS) * _EPS
_ICC_BOUND = (10.0 + 96.0 * _EPS) * _EPS


def _ints(*xs):
    """The doubles xs as integers sharing one power-of-two scale."""
    rs = [x.as_integer_ratio() for x in xs]
    den = max(d for _, d in rs)
    return [n * (den // d) for n, d in rs]


def _orient_exact(ax, ay, bx, by, cx, cy):
    ax, ay, bx, by, cx, cy = _ints(ax, ay, bx, by, cx, cy)
    d = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
    return (d > 0) - (d < 0)


def _incircle_exact(ax, ay, bx, by, cx, cy, dx, dy):
    ax, ay, bx, by, cx, cy, dx, dy = _ints(ax, ay, bx, by, cx, cy, dx, dy)
    adx, ady, bdx, bdy, cdx, cdy = ax - dx, ay - dy, bx - dx, by - dy, cx - dx, cy - dy
    d = ((adx * adx + ady * ady) * (bdx * cdy - cdx * bdy) + (bdx * bdx + bdy * bdy) * (cdx * ady - adx * cdy)
         + (cdx * cdx + cdy * cdy) * (adx * bdy - bdx * ady))
    return (d > 0) - (d < 0)


def _orient_fast(ax, ay, bx, by, cx, cy):
    left = (ax - cx) * (by - cy)
    right = (ay - cy) * (bx - cx)
    det = left - right
    if abs(det) > _CCW_BOUND * (abs(left) + abs(right)):
        return 1 if det > 0 else -1
    return _orient_exact(ax, ay, bx, by, cx, cy)


def _incircle_fast(ax, ay, bx, by, cx, cy, dx, dy):
    adx, ady, bdx, bdy, cdx, cdy = ax - dx, ay - dy, bx - dx, by - dy, cx - dx, cy - dy
    bc, cb, ca, ac, ab, ba = bdx * cdy, cdx * bdy, cdx * ady, adx * cdy, adx * bdy, bdx * ady
    al, bl, cl = adx * adx + ady * ady, bdx * bdx + bdy * bdy, cdx * cdx + cdy * cdy
    det = al * (bc - cb) + bl * (ca - ac) + cl * (ab - ba)
    perm = (abs(bc) + abs(cb)) * al + (abs(ca) + abs(ac)) * bl + (abs(ab) + abs(ba)) * cl
    if abs(det) > _ICC_BOUND * perm:
        return 1 if det > 0 else -1
    return _incircle_exact(ax, ay, bx, by, cx, cy, dx, dy)


def _hilbert(ix, iy, order=16):
    """Hilbert-curve index of integer grid coordinates in [0, 2**order) (vectorised)."""
    ix = ix.astype(numpy.int64).copy()
    iy = iy.astype(numpy.int64).copy()
    d = numpy.zeros(ix.shape, dtype=numpy.int64)
    s = 1 << (order - 1)
    while s > 0:
        rx = (ix & s) > 0
        ry = (iy & s) > 0
        d += s * s * ((3 * rx) ^ ry)
        flip = ~ry
        swap_x = flip & rx
        ix[swap_x] = s - 1 - ix[swap_x]
        iy[swap_x] = s - 1 - iy[swap_x]
        t = ix[flip].copy()
        ix[flip] = iy[flip]
        iy[flip] = t
        s >>= 1
    return d


def _insertion_order(pts):
    """Biased randomised insertion order: rounds of doubling size, each along a Hilbert curve, so that point
    location walks stay short and the expected work stays that of a random order."""
    n = pts.shape[0]
    lo = pts.min(axis=0)
    span = pts.max(axis=0) - lo
    span = numpy.where(span > 0, span, 1.0)
    with numpy.errstate(all='ignore'):
        g = numpy.nan_to_num((pts - lo) / span * 65535.0, nan=0.0, posinf=65535.0, neginf=0.0)
    h = _hilbert(numpy.clip(g[:, 0], 0, 65535).astype(numpy.int64), numpy.clip(g[:, 1], 0, 65535).astype(numpy.int64))
    perm = numpy.random.default_rng(12345).permutation(n)
    order = []
    start = 0
    size = 64
    while start < n:
        part = perm[start:start + size]
        order.append(part[numpy.argsort(h[part], kind='stable')])
        start += size
        size *= 4
    return numpy.concatenate(order) if order else perm


class _Triangulator:
    """Incremental Bowyer-Watson over ghost triangles (Note [robust Delaunay predicates]).

    Triangles are slots of flat lists: V[3t:3t+3] their counter-clockwise vertices, N[3t+k] the triangle across
    the edge opposite V[3t+k]. A ghost triangle (u, v, -1) stands outside each convex hull edge u->v
    (clockwise along the hull); a point conflicts with it when strictly left of u->v or inside the open segment,
    which makes points outside the hull one case of the same cavity retriangulation as points inside.
    """

    def __init__(self, xs, ys, exact):
        self.x = xs
        self.y = ys
        self.orient = _orient_exact if exact else _orient_fast
        self.incircle = _incircle_exact if exact else _incircle_fast
        self.V = []
        self.N = []
        self.free = []
        self.mark = []
        self.stamp = 0
        self.last = 0

    def _new(self):
        if self.free:
            return self.free.pop()
        t = len(self.mark)
        self.V += (0, 0, 0)
        self.N += (-1, -1, -1)
        self.mark.append(0)
        return t

    def start(self, a, b, c):
        """The first triangle a, b, c (counter-clockwise) and its three ghosts."""
        ts = [self._new() for _ in range(4)]
        tris = [(a, b, c), (b, a, -1), (c, b, -1), (a, c, -1)]
        edges = {}
        for t, tri in zip(ts, tris):
            self.V[3 * t:3 * t + 3] = tri
            for k in range(3):
                edges[(tri[(k + 1) % 3], tri[(k + 2) % 3])] = (t, k)
        for (u, v), (t, k) in edges.items():
            self.N[3 * t + k] = edges[(v, u)][0]
        self.last = ts[0]

    def _conflict(self, t, px, py):
        V, X, Y = self.V, self.x, self.y
        a, b, c = V[3 * t], V[3 * t + 1], V[3 * t + 2]
        if a >= 0 and b >= 0 and c >= 0:
            return self.incircle(X[a], Y[a], X[b], Y[b], X[c], Y[c], px, py) > 0
        u, v = (b, c) if a < 0 else (c, a) if b < 0 else (a, b)
        o = self.orient(X[u], Y[u], X[v], Y[v], px, py)
        if o != 0:
            return o > 0
        ux, uy, vx, vy = X[u], Y[u], X[v], Y[v]
        if ux != vx:
            return min(ux, vx) < px < max(ux, vx)
        return min(uy, vy) < py < max(uy, vy)

    def _locate(self, px, py):
        """A triangle whose closure holds p, or a ghost that p conflicts with; None when p is a vertex."""
        V, N, X, Y, orient = self.V, self.N, self.x, self.y, self.orient
        t = self.last
        limit = 3 * len(self.mark) + 16
        steps = 0
        while True:
            a, b, c = V[3 * t], V[3 * t + 1], V[3 * t + 2]
            if a < 0 or b < 0 or c < 0:
                return t
            steps += 1
            if steps > limit:
                return self._scan(px, py)
            r = steps % 3
            moved = False
            for k in (r, (r + 1) % 3, (r + 2) % 3):
                u, v = V[3 * t + (k + 1) % 3], V[3 * t + (k + 2) % 3]
                if orient(X[u], Y[u], X[v], Y[v], px, py) < 0:
                    t = N[3 * t + k]
                    moved = True
                    break
            if not moved:
                for w in (a, b, c):
                    if X[w] == px and Y[w] == py:
                        return None
                return t

    def _scan(self, px, py):
        """Location by testing every live triangle (only when a walk ran too long)."""
        dead = set(self.free)
        for t in range(len(self.mark)):
            if t in dead:
                continue
            a, b, c = self.V[3 * t:3 * t + 3]
            if a < 0 or b < 0 or c < 0:
                continue
            X, Y = self.x, self.y
            if all(self.orient(X[u], Y[u], X[v], Y[v], px, py) >= 0 for u, v in ((b, c), (c, a), (a, b))):
                for w in (a, b, c):
                    if X[w] == px and Y[w] == py:
                        return None
                return t
        for t in range(len(self.mark)):
            if t not in dead and min(self.V[3 * t:3 * t + 3]) < 0 and self._conflict(t, px, py):
                return t
        raise QhullError("point location failed")  # unreachable for a valid triangulation

    def insert(self, p):
        """Inserts vertex p; False when p coincides with a vertex already present."""
        px, py = self.x[p], self.y[p]
        t0 = self._locate(px, py)
        if t0 is None:
            return False
        V, N, mark = self.V, self.N, self.mark
        self.stamp += 1
        stamp = self.stamp
        mark[t0] = stamp
        stack = [t0]
        dead = [t0]
        boundary = []
        conflict = self._conflict
        while stack:
            t = stack.pop()
            for k in range(3):
                nb = N[3 * t + k]
                if mark[nb] == stamp:
                    continue
                if conflict(nb, px, py):
                    mark[nb] = stamp
                    stack.append(nb)
                    dead.append(nb)
                else:
                    # The slot of nb that points back at t, found now: slots are reused below.
                    j = 0 if N[3 * nb] == t else 1 if N[3 * nb + 1] == t else 2
                    boundary.append((V[3 * t + (k + 1) % 3], V[3 * t + (k + 2) % 3], nb, j))
        self.free.extend(dead)
        by_start = {}
        by_end = {}
        new = []
        for u, v, nb, j in boundary:
            t = self._new()
            V[3 * t], V[3 * t + 1], V[3 * t + 2] = u, v, p
            N[3 * t + 2] = nb
            N[3 * nb + j] = t
            by_start[u] = t
            by_end[v] = t
            new.append(t)
        for t in new:
            N[3 * t] = by_start[V[3 * t + 1]]
            N[3 * t + 1] = by_end[V[3 * t]]
            if V[3 * t] >= 0 and V[3 * t + 1] >= 0:
                self.last = t
        return True

    def result(self):
        """(simplices, neighbors) of the real triangles, as int32 arrays."""
        dead = numpy.zeros(len(self.mark), dtype=bool)
        if self.free:
            dead[numpy.asarray(self.free, dtype=numpy.int64)] = True
        V = numpy.asarray(self.V, dtype=numpy.int64).reshape(-1, 3)
        N = numpy.asarray(self.N, dtype=numpy.int64).reshape(-1, 3)
        real = ~dead & (V >= 0).all(axis=1)
        index = numpy.full(V.shape[0], -1, dtype=numpy.int64)
        index[real] = numpy.arange(int(real.sum()))
        return V[real].astype(numpy.int32), index[N[real]].astype(numpy.int32)


def _triangulate(pts):
    """Delaunay triangulation of the rows of pts (n, 2) float64 on the host: (simplices, neighbors, coplanar)."""
    n = pts.shape[0]
    # Exact duplicates cannot be vertices: the first of each group is kept, the others are reported in
    # `coplanar` as SciPy's Qhull does ([point, a simplex of its twin, the twin]).
    key = pts + 0.0  # -0.0 and 0.0 are one point
    srt = numpy.lexsort((key[:, 1], key[:, 0]))
    same = numpy.zeros(n, dtype=bool)
    if n > 1:
        same[1:] = (key[srt[1:]] == key[srt[:-1]]).all(axis=1)
    group = numpy.cumsum(~same) - 1
    first_of_group = numpy.minimum.reduceat(srt, numpy.flatnonzero(~same))
    twin = numpy.empty(n, dtype=numpy.int64)
    twin[srt] = first_of_group[group]
    unique = numpy.flatnonzero(twin == numpy.arange(n))
    if unique.size < 3:
        raise QhullError(f"QH6214 qhull input error: not enough points({unique.size}) to construct initial "
                         "simplex (need 3)")
    # Scale by a power of two (exact) so that floating-point predicates cannot under- or overflow.
    m = float(numpy.abs(pts).max())
    e = math.frexp(m)[1] if m > 0 else 0
    scaled = numpy.ldexp(pts, -e)
    nz = numpy.abs(scaled[scaled != 0])
    exact = bool(nz.size and nz.min() < 2.0 ** -200) or not numpy.array_equal(numpy.ldexp(scaled, e), pts)
    if exact:
        scaled = pts
    xs = scaled[:, 0].tolist()
    ys = scaled[:, 1].tolist()
    order = unique[_insertion_order(pts[unique])].tolist()
    tri = _Triangulator(xs, ys, exact)
    a, b = order[0], order[1]
    c = None
    for j in range(2, len(order)):
        o = tri.orient(xs[a], ys[a], xs[b], ys[b], xs[order[j]], ys[order[j]])
        if o != 0:
            c = order.pop(j)
            if o < 0:
                a, b = b, a
            break
    if c is None:
        raise QhullError("QH6154 Qhull precision error: initial simplex is flat (all points are collinear)")
    tri.start(a, b, c)
    for p in order[2:]:
        tri.insert(p)
    simplices, neighbors = tri.result()
    dup = numpy.flatnonzero(twin != numpy.arange(n))
    coplanar = numpy.empty((dup.size, 3), dtype=numpy.int32)
    if dup.size:
        v2s = numpy.full(n, -1, dtype=numpy.int64)
        flat = simplices.ravel()
        v2s[flat[::-1]] = numpy.repeat(numpy.arange(simplices.shape[0]), 3)[::-1]
        coplanar[:, 0] = dup
        coplanar[:, 1] = v2s[twin[dup]]
        coplanar[:, 2] = twin[dup]
    return simplices, neighbors, coplanar


def _transforms(pts, simplices):
    """SciPy's barycentric transforms (nsimplex, 3, 2): the inverse of T (T[:, j] = r_j - r_2) by LU with partial
    pivoting, as LAPACK's getrf/getrs compute it, and r_2; NaN where the 1-norm reciprocal condition number is
    below 1000 eps (a nearly degenerate triangle)."""
    r = pts[simplices[:, 2]]
    t00 = pts[simplices[:, 0], 0] - r[:, 0]
    t01 = pts[simplices[:, 1], 0] - r[:, 0]
    t10 = pts[simplices[:, 0], 1] - r[:, 1]
    t11 = pts[simplices[:, 1], 1] - r[:, 1]
    anorm = numpy.maximum(numpy.abs(t00) + numpy.abs(t10), numpy.abs(t01) + numpy.abs(t11))
    swap = numpy.abs(t10) > numpy.abs(t00)
    a00 = numpy.where(swap, t10, t00)
    a01 = numpy.where(swap, t11, t01)
    a10 = numpy.where(swap, t00, t10)
    a11 = numpy.where(swap, t01, t11)
    with numpy.errstate(all='ignore'):
        ll = a10 / a00
        u11 = a11 - ll * a01
        # Columns of the inverse: solve P T X = P I, i.e. L U X = P I.
        e0 = numpy.where(swap, 0.0, 1.0)
        e1 = numpy.where(swap, 1.0, 0.0)
        inv = numpy.empty((simplices.shape[0], 3, 2))
        for col, (b0, b1) in enumerate(((e0, e1), (e1, e0))):
            y1 = b1 - ll * b0
            x1 = y1 / u11
            x0 = (b0 - a01 * x1) / a00
            inv[:, 0, col] = x0
            inv[:, 1, col] = x1
        inorm = numpy.maximum(numpy.abs(inv[:, 0, 0]) + numpy.abs(inv[:, 1, 0]),
                              numpy.abs(inv[:, 0, 1]) + numpy.abs(inv[:, 1, 1]))
        rcond = 1.0 / (anorm * inorm)
    bad = (a00 == 0) | (u11 == 0) | ~(rcond >= 1000 * numpy.finfo(float).eps)
    inv[:, 2, :] = r
    inv[bad] = numpy.nan
    return inv


def _grid(pts, simplices, lo, hi):
    """Start triangles of the location walk (Note [triangle location]): a gx x gy grid over the bounding box,
    each cell naming a triangle at a vertex inside it, empty cells the nearest filled one in row-major order."""
    nv = max(1, numpy.unique(simplices).size)
    g = max(1, int(math.isqrt(nv)))
    span = hi - lo
    with numpy.errstate(all='ignore'):
        scale = numpy.where((span > 0) & numpy.isfinite(g / span), g / span, 0.0)
    verts = numpy.unique(simplices)
    v2s = numpy.full(pts.shape[0], -1, dtype=numpy.int64)
    v2s[simplices.ravel()[::-1]] = numpy.repeat(numpy.arange(simplices.shape[0]), 3)[::-1]
    f = numpy.clip((pts[verts] - lo) * scale, 0, g - 1).astype(numpy.int64)
    cells = numpy.full(g * g, -1, dtype=numpy.int64)
    cells[f[:, 1] * g + f[:, 0]] = v2s[verts]
    have = cells >= 0
    idx = numpy.maximum.accumulate(numpy.where(have, numpy.arange(g * g), 0))
    fwd = numpy.where(have[idx], cells[idx], -1)
    ridx = (g * g - 1) - numpy.maximum.accumulate(numpy.where(have[::-1], numpy.arange(g * g), 0))[::-1]
    cells = numpy.where(fwd >= 0, fwd, cells[ridx])
    geo = numpy.array([lo[0], lo[1], hi[0], hi[1], lo[0], lo[1], scale[0], scale[1]], dtype=numpy.float64)
    return cells.astype(numpy.int32), geo, g


def _sqrt(x):
    """SciPy's eps_broad = sqrt(eps), NaN for a negative tolerance as in C."""
    return math.sqrt(x) if x >= 0 else math.nan


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


_OPTIONS = {b'Qbb', b'Qc', b'Qz', b'Q12', b'Qt', b'Qx'}


class Delaunay:
    """Delaunay tessellation in 2 dimensions (SciPy's interface, as far as CuPy's ``cupyx.scipy.spatial``).

    The triangulation is computed on the host by an incremental Bowyer-Watson algorithm with exact orientation
    and in-circle predicates (Note [robust Delaunay predicates]), so it is a true Delaunay triangulation for
    any input (SciPy's Qhull may differ where several are valid, e.g. for cocircular points, and may fail on
    nearly degenerate inputs that this accepts). Expect about 2 s per 1e5 points. Point location
    (`find_simplex`) and the interpolators that use it run on the GPU. Attributes are device arrays:
    `points`, `simplices` (counter-clockwise, int32), `neighbors` (the k-th opposite the k-th vertex, -1 on the
    hull), `transform`, `vertex_to_simplex`, `vertex_neighbor_vertices`, `convex_hull`, `coplanar` (exact
    duplicate points, which are not vertices) and `min_bound`/`max_bound`. `furthest_site` and `incremental`
    must be False; `qhull_options` may name only the options that do not change a 2-D Delaunay triangulation
    (Qbb Qc Qz Q12 Qt Qx).
    """

    def __init__(self, points, furthest_site=False, incremental=False, qhull_options=None):
        if numpy.ma.isMaskedArray(points):
            raise ValueError('Input points cannot be a masked array')
        host = _cp.asnumpy(points) if isinstance(points, _cp.ndarray) else numpy.asarray(points)
        if host.dtype.kind == 'c':
            raise TypeError("Delaunay does not work with complex data")
        pts = numpy.ascontiguousarray(host, dtype=numpy.float64)
        if pts.ndim != 2:
            raise ValueError("Input points array must have 2 dimensions.")
        if pts.shape[0] == 0:
            raise ValueError("No points given")
        if pts.shape[1] != 2:
            raise ValueError("Delaunay only supports 2-D inputs (points of shape (npoints, 2))")
        if furthest_site:
            raise ValueError("furthest_site=True is not supported: only the nearest-site triangulation is computed")
        if incremental:
            raise ValueError("incremental=True is not supported: the triangulation is built once")
        if qhull_options is not None:
            opts = set(qhull_options.encode('latin1').split()) if isinstance(qhull_options, str) else None
            if opts is None or not opts <= _OPTIONS:
                raise ValueError(f"unsupported qhull_options {qhull_options!r}: only "
                                 f"{' '.join(sorted(o.decode() for o in _OPTIONS))} are accepted")
        if numpy.isnan(pts).any():
            raise ValueError("Points cannot contain NaN")
        if not numpy.isfinite(pts).all():
            raise QhullError("QH6019 qhull input error: can not scale last coordinate: input contains "
                             "infinite coordinates")
        simplices, neighbors, coplanar = _triangulate(pts)
        self.furthest_site = False
        self.ndim = 2
        self.npoints = pts.shape[0]
        self.nsimplex = simplices.shape[0]
        self._host = (pts, simplices, neighbors, coplanar)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        transform = _transforms(pts, simplices)
        cells, geo, g = _grid(pts, simplices, lo, hi)
        self._points = _cp.asarray(pts)
        self.simplices = _cp.asarray(simplices)
        self.neighbors = _cp.asarray(neighbors)
        self.coplanar = _cp.asarray(coplanar)
        self.min_bound = _cp.asarray(lo)
        self.max_bound = _cp.asarray(hi)
        self._transform = _cp.asarray(transform)
        self._cells = _cp.asarray(cells)
        self._geo = _cp.asarray(geo)
        self._g = g
        self._v2s = None
        self._vnv = None
        self._hull = None

    @property
    def points(self):
        """Coordinates of the input points, (npoints, 2) float64."""
        return self._points

    @property
    def transform(self):
        """Affine maps to barycentric coordinates, (nsimplex, 3, 2): ``T^-1`` in ``[:, :2]``, ``r_2`` in
        ``[:, 2]``, with ``T c = x - r_2``; NaN for nearly degenerate triangles (SciPy's definition)."""
        return self._transform

    @property
    def vertex_to_simplex(self):
        """Some simplex of each vertex, (npoints,) int32 (SciPy's convention for coplanar points: their
        entry is the third column of `coplanar`)."""
        if self._v2s is None:
            _, simplices, _, cop = self._host
            v2s = numpy.full(self.npoints, -1, dtype=numpy.int32)
            v2s[cop[:, 0]] = cop[:, 2]
            flat = simplices.ravel()
            order = numpy.repeat(numpy.arange(simplices.shape[0], dtype=numpy.int32), 3)
            seen = numpy.zeros(self.npoints, dtype=bool)
            seen[cop[:, 0]] = True
            # The first simplex of each vertex in simplex order, as SciPy's loop finds it.
            firsts = numpy.unique(flat, return_index=True)
            keep = ~seen[firsts[0]]
            v2s[firsts[0][keep]] = order[firsts[1][keep]]
            self._v2s = _cp.asarray(v2s)
        return self._v2s

    @property
    def vertex_neighbor_vertices(self):
        """(indptr, indices), int32: the neighbours of vertex k are ``indices[indptr[k]:indptr[k+1]]``, in
        the order the simplices first name them."""
        if self._vnv is None:
            indptr, indices = self._neighbor_lists()
            self._vnv = (_cp.asarray(indptr), _cp.asarray(indices))
        return self._vnv

    def _neighbor_lists(self):
        _, simplices, _, _ = self._host
        ns = simplices.shape[0]
        src = numpy.empty((ns, 3, 2), dtype=numpy.int64)
        dst = numpy.empty((ns, 3, 2), dtype=numpy.int64)
        # SciPy's order: simplices in turn, vertex j, then the other vertices k in increasing position.
        for j in range(3):
            src[:, j, :] = simplices[:, j:j + 1]
            others = [k for k in range(3) if k != j]
            dst[:, j, 0] = simplices[:, others[0]]
            dst[:, j, 1] = simplices[:, others[1]]
        src = src.ravel()
        dst = dst.ravel()
        pair = src * self.npoints + dst
        _, first = numpy.unique(pair, return_index=True)
        first.sort()
        src, dst = src[first], dst[first]
        order = numpy.argsort(src, kind='stable')
        counts = numpy.bincount(src, minlength=self.npoints)
        indptr = numpy.zeros(self.npoints + 1, dtype=numpy.int32)
        numpy.cumsum(counts, out=indptr[1:])
        return indptr, dst[order].astype(numpy.int32)

    @property
    def convex_hull(self):
        """Edges of the convex hull, (nfaces, 2) int32, from the simplices' -1 neighbours in SciPy's order."""
        if self._hull is None:
            _, simplices, neighbors, _ = self._host
            rows = []
            for t, k in zip(*numpy.nonzero(neighbors == -1)):
                rows.append([simplices[t, j] for j in range(3) if j != k])
            self._hull = _cp.asarray(numpy.asarray(rows, dtype=numpy.int32).reshape(-1, 2))
        return self._hull

    def close(self):
        """Nothing to release: there is no incremental mode (SciPy's method, for compatibility)."""

    def _launch_args(self):
        return (self._points, self.simplices, self.neighbors, self._transform, _k.i64(self.nsimplex), self._cells,
                self._geo, _k.i32(self._g), _k.i32(self._g))

    def _query_points(self, xi):
        xi = _asarray(xi)
        if xi.ndim == 0 or xi.shape[-1] != 2:
            raise ValueError("wrong dimensionality in xi")
        lead = xi.shape[:-1]
        flat = _cp.ascontiguousarray(xi.reshape(-1, 2).astype(numpy.float64))
        return lead, flat

    def find_simplex(self, xi, bruteforce=False, tol=None):
        """Index of a simplex containing each point of xi (..., 2), -1 outside the triangulation (int32).

        A point is inside when its barycentric coordinates lie in [-tol, 1 + tol] (default 100 eps); on a
        shared edge either simplex may be returned. Runs on the GPU (Note [triangle location]); `bruteforce`
        tests the simplices in order instead of walking."""
        eps = 100 * numpy.finfo(numpy.float64).eps if tol is None else float(tol)
        lead, flat = self._query_points(xi)
        nq = flat.shape[0]
        out = _cp.empty(nq, dtype=numpy.int32)
        if nq:
            _k.kernel('ca_tri_find')((_k.blocks(nq),), (_k.THREADS,),
                                     self._launch_args() + (flat, _k.i64(nq), _k.f64(eps), _k.f64(_sqrt(eps)),
                                                            _k.i32(1 if bruteforce else 0), out))
        return out.reshape(lead)

    def __repr__(self):
        return f"<cuarray.scipy.spatial.Delaunay: {self.npoints} points, {self.nsimplex} triangles>"
