"""cuarray.scipy.spatial.KDTree: SciPy's KDTree interface answered by exact brute-force searches on the GPU."""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.spatial import _kernels

# Note [brute-force KDTree]
# A GPU answers nearest-neighbour queries fastest for moderate data by computing the query-by-data distance
# matrix in tiles (the cdist kernel) and selecting per row, instead of walking a pointer tree with divergent
# threads; results are exact, so `eps` (which only allows approximation) changes nothing, and `leafsize`,
# `compact_nodes`, `balanced_tree` are accepted and validated for SciPy's signature only. Queries are processed
# in chunks so the distance block stays below _BLOCK elements. Ties between equal distances are ordered by
# data index (SciPy's order depends on its tree layout).
_BLOCK = 1 << 26


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _check_p(p):
    p = float(p)
    if p < 1:
        raise ValueError("Only p-norms with 1<=p<=infinity permitted")
    return p


class KDTree:
    """kd-tree for nearest-neighbour lookup (SciPy's interface; exact brute-force GPU search underneath)."""

    def __init__(self, data, leafsize=10, compact_nodes=True, copy_data=False, balanced_tree=True,
                 boxsize=None):
        data = _asarray(data)
        if data.dtype.kind == 'c':
            raise TypeError("KDTree does not work with complex data")
        if data.ndim != 2:
            raise ValueError("data must be 2 dimensions")
        if int(leafsize) < 1:
            raise ValueError("leafsize must be at least 1")
        self.data = data.copy() if copy_data else data
        self.n, self.m = data.shape
        self.leafsize = int(leafsize)
        self._d = _cp.ascontiguousarray(data.astype(numpy.float64))
        if self.n:
            self.maxes = self._d.max(axis=0)
            self.mins = self._d.min(axis=0)
        else:
            self.maxes = _cp.full(self.m, -numpy.inf)
            self.mins = _cp.full(self.m, numpy.inf)
        self.size = max(1, -(-self.n // self.leafsize)) if self.n else 1
        self.boxsize = None
        if boxsize is not None:
            box = _cp.ascontiguousarray(_cp.broadcast_to(_asarray(boxsize).astype(numpy.float64), (self.m,)))
            if self.n:
                periodic = box > 0
                if bool(((self._d >= box) & periodic).any()):
                    raise ValueError("Some input data are greater than the size of the periodic box.")
                if bool(((self._d < 0) & periodic).any()):
                    raise ValueError("Negative input data are outside of the periodic box.")
            self.boxsize = box

    # Distances from the rows of x (q, m) to every data point: (q, n) float64 on the device.
    def _dist(self, x, p, other=None):
        data = self._d if other is None else other
        q, n = x.shape[0], data.shape[0]
        out = _cp.empty((q, n), dtype=numpy.float64)
        if out.size == 0:
            return out
        if self.boxsize is not None:
            metric = ('pbox_chebyshev' if math.isinf(p) else 'pbox_euclidean' if p == 2 else
                      'pbox_cityblock' if p == 1 else 'pbox_minkowski')
            W = self.boxsize if self.m else _cp.ones(1)
        else:
            metric = 'chebyshev' if math.isinf(p) else 'euclidean' if p == 2 else 'cityblock' if p == 1 \
                else 'minkowski'
            W = _cp.ones(max(self.m, 1), dtype=numpy.float64)
        one = _cp.ones(1, dtype=numpy.float64)
        k = _kernels.dist_kernel(metric)
        k((_kernels.tile_grid(q, n),), (_kernels.TILE, _kernels.TILE),
          (x, data, W, one, one, out, _kernels.i64(q), _kernels.i64(n), _kernels.i64(self.m),
           _kernels.f64(p), _kernels.i32(0)))
        return out

    def _points(self, x):
        x = _asarray(x)
        if x.dtype.kind == 'c':
            raise TypeError("KDTree does not work with complex data")
        if x.ndim == 0 or x.shape[-1] != self.m:
            raise ValueError(f"x must consist of vectors of length {self.m} but has shape {tuple(x.shape)}")
        lead = x.shape[:-1]
        flat = _cp.ascontiguousarray(x.reshape(-1, self.m).astype(numpy.float64))
        return lead, flat

    def _chunks(self, nq):
        step = max(1, _BLOCK // max(self.n, 1))
        return [(s, min(nq, s + step)) for s in range(0, nq, step)] or [(0, 0)]

    def query(self, x, k=1, eps=0.0, p=2.0, distance_upper_bound=numpy.inf, workers=1):
        """The k nearest neighbours of each point of x: (distances, indices); missing ones read (inf, n)."""
        if eps < 0:
            raise ValueError("eps must be non-negative")
        p = _check_p(p)
        lead, flat = self._points(x)
        if numpy.ndim(k) == 0:
            k = int(k)
            if k < 1:
                raise ValueError("k must be positive")
            ranks = None
            kmax = k
        else:
            ranks = numpy.asarray(k, dtype=numpy.int64)
            if ranks.ndim != 1 or ranks.size == 0:
                raise ValueError("k must be a positive integer or a sequence of positive integers")
            if (ranks < 1).any():
                raise ValueError("k must be positive")
            kmax = int(ranks.max())
        nq = flat.shape[0]
        dd = _cp.empty((nq, kmax), dtype=numpy.float64)
        ii = _cp.empty((nq, kmax), dtype=numpy.int64)
        bound = float(distance_upper_bound)
        ksel = _kernels.ksmallest_kernel()
        for s, e in self._chunks(nq):
            if e <= s:
                continue
            D = self._dist(flat[s:e], p)
            ds, is_ = dd[s:e], ii[s:e]
            if self.n == 0:
                ds.fill(numpy.inf)
                is_.fill(self.n)
                continue
            ksel((_kernels.blocks(e - s),), (_kernels.THREADS,),
                 (D, ds, is_, _kernels.i64(e - s), _kernels.i64(self.n), _kernels.i64(kmax),
                  _kernels.f64(bound), _kernels.i32(1)))
        if ranks is not None:
            sel = _cp.asarray(ranks - 1)
            return dd[:, sel].reshape(lead + (ranks.size,)), ii[:, sel].reshape(lead + (ranks.size,))
        if kmax == 1:
            return dd[:, 0].reshape(lead), ii[:, 0].reshape(lead)
        return dd.reshape(lead + (kmax,)), ii.reshape(lead + (kmax,))

    def _within(self, flat, r, p, other=None):
        """Host lists of the data (or `other`) indices within r[q] of each row; r broadcast per row."""
        nq = flat.shape[0]
        result = []
        n = self.n if other is None else other.shape[0]
        step = max(1, _BLOCK // max(n, 1))
        for s in range(0, nq, step):
            e = min(nq, s + step)
            D = self._dist(flat[s:e], p, other)
            mask = D <= r[s:e, None]
            rows, cols = _cp.nonzero(mask)
            rows = _cp.asnumpy(rows)
            cols = _cp.asnumpy(cols)
            splits = numpy.searchsorted(rows, numpy.arange(1, e - s))
            result.extend(c.tolist() for c in numpy.split(cols, splits))
        return result

    def query_ball_point(self, x, r, p=2.0, eps=0.0, workers=1, return_sorted=None, return_length=False):
        """Indices of the data points within distance r (inclusive) of each point of x."""
        p = _check_p(p)
        lead, flat = self._points(x)
        rr = _cp.broadcast_to(_asarray(r).astype(numpy.float64), lead)
        rr = _cp.ascontiguousarray(rr).reshape(-1)
        if return_length:
            counts = _cp.empty(flat.shape[0], dtype=numpy.int64)
            for s, e in self._chunks(flat.shape[0]):
                if e > s:
                    counts[s:e] = (self._dist(flat[s:e], p) <= rr[s:e, None]).sum(axis=1)
            return counts.reshape(lead) if lead else counts[0]
        lists = self._within(flat, rr, p)
        # Indices come out in ascending order, which is sorted for any return_sorted setting.
        if not lead:
            return lists[0]
        out = numpy.empty(len(lists), dtype=object)
        for i, lst in enumerate(lists):
            out[i] = lst
        return out.reshape(lead)

    def query_ball_tree(self, other, r, p=2.0, eps=0.0):
        """For each point of this tree, the indices of the points of `other` within distance r."""
        if not isinstance(other, KDTree):
            raise TypeError("other must be a KDTree")
        if other.m != self.m:
            raise ValueError("Trees passed to query_ball_tree have different dimensionality")
        p = _check_p(p)
        rr = _cp.full(self.n, float(r), dtype=numpy.float64)
        return self._within(self._d, rr, p, other._d)

    def query_pairs(self, r, p=2.0, eps=0.0, output_type='set'):
        """All pairs (i, j), i < j, of data points within distance r: a set or an (k, 2) intp array."""
        if output_type not in ('set', 'ndarray'):
            raise ValueError(f"Invalid output type {output_type!r}")
        p = _check_p(p)
        rows, cols = [], []
        for s, e in self._chunks(self.n):
            if e <= s:
                continue
            D = self._dist(self._d[s:e], p)
            mask = (D <= float(r)) & (_cp.arange(self.n)[None, :] > _cp.arange(s, e)[:, None])
            a, b = _cp.nonzero(mask)
            rows.append(a + s)
            cols.append(b)
        if rows:
            pairs = _cp.stack([_cp.concatenate(rows), _cp.concatenate(cols)], axis=1).astype(numpy.int64)
        else:
            pairs = _cp.empty((0, 2), dtype=numpy.int64)
        if output_type == 'ndarray':
            return pairs
        return set(map(tuple, _cp.asnumpy(pairs).tolist()))

    def count_neighbors(self, other, r, p=2.0, weights=None, cumulative=True):
        """Number (or total weight) of pairs (x in self, y in other) with distance(x, y) <= r."""
        if not isinstance(other, KDTree):
            raise TypeError("other must be a KDTree")
        if other.m != self.m:
            raise ValueError("Trees passed to count_neighbors have different dimensionality")
        p = _check_p(p)
        r_host = numpy.asarray(_cp.asnumpy(r) if isinstance(r, _cp.ndarray) else r, dtype=numpy.float64)
        scalar = r_host.ndim == 0
        rv = r_host.reshape(-1)
        if not cumulative and rv.size > 1 and (numpy.diff(rv) < 0).any():
            raise ValueError("r must be non-decreasing for non-cumulative counting.")
        if weights is None:
            wa = wb = None
        elif isinstance(weights, tuple):
            wa, wb = weights
            wa = None if wa is None else _asarray(wa).astype(numpy.float64)
            wb = None if wb is None else _asarray(wb).astype(numpy.float64)
        else:
            if other is not self:
                raise ValueError("Two different trees are used. Specify weights for both in a tuple.")
            wa = wb = _asarray(weights).astype(numpy.float64)
        for w, t in ((wa, self), (wb, other)):
            if w is not None and w.shape != (t.n,):
                raise ValueError("Weights must have the same length as the tree's data")
        weighted = weights is not None
        totals = _cp.zeros(rv.size, dtype=numpy.float64 if weighted else numpy.int64)
        rdev = _cp.asarray(rv)
        for s, e in self._chunks(self.n):
            if e <= s or other.n == 0:
                continue
            D = self._dist(self._d[s:e], p, other._d)
            for idx in range(rv.size):
                hit = D <= rdev[idx]
                if weighted:
                    hw = hit.astype(numpy.float64)
                    rowsum = hw @ wb if wb is not None else hw.sum(axis=1)
                    totals[idx] += (rowsum * wa[s:e]).sum() if wa is not None else rowsum.sum()
                else:
                    totals[idx] += hit.sum()
        if not cumulative and rv.size:
            totals = _cp.concatenate([totals[:1], totals[1:] - totals[:-1]])
        return totals.reshape(()) if scalar else totals.reshape(r_host.shape)

    def sparse_distance_matrix(self, other, max_distance, p=2.0, output_type='coo_matrix'):
        """Distances between the points of self and other that are <= max_distance, as a sparse matrix
        ('coo_matrix'; 'dok_matrix' gives the same coo_matrix), a 'dict' {(i, j): d}, or an 'ndarray' of
        records (i, j, v)."""
        if not isinstance(other, KDTree):
            raise TypeError("other must be a KDTree")
        if output_type not in ('coo_matrix', 'dok_matrix', 'dict', 'ndarray'):
            raise ValueError(f"Invalid output type {output_type!r}")
        p = _check_p(p)
        ri, rj, rv = [], [], []
        for s, e in self._chunks(self.n):
            if e <= s or other.n == 0:
                continue
            D = self._dist(self._d[s:e], p, other._d)
            a, b = _cp.nonzero(D <= float(max_distance))
            ri.append(a + s)
            rj.append(b)
            rv.append(D[a, b])
        cat = (lambda xs, dt: _cp.concatenate(xs).astype(dt) if xs else _cp.empty(0, dtype=dt))
        I, J, V = cat(ri, numpy.int64), cat(rj, numpy.int64), cat(rv, numpy.float64)
        if output_type in ('coo_matrix', 'dok_matrix'):
            from cuarray.scipy.sparse import coo_matrix
            return coo_matrix((V, (I.astype(numpy.int32), J.astype(numpy.int32))), shape=(self.n, other.n))
        i, j, v = _cp.asnumpy(I), _cp.asnumpy(J), _cp.asnumpy(V)
        if output_type == 'dict':
            return {(int(a), int(b)): float(c) for a, b, c in zip(i, j, v)}
        rec = numpy.empty(i.size, dtype=[('i', numpy.intp), ('j', numpy.intp), ('v', numpy.float64)])
        rec['i'], rec['j'], rec['v'] = i, j, v
        return rec


cKDTree = KDTree
