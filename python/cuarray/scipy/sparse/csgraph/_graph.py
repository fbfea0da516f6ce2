"""Graph algorithms on sparse or dense device adjacency matrices (scipy.sparse.csgraph's semantics, no cuGraph).

Every algorithm is frontier- or relaxation-based over the edge list, built from whole-array operations
(gathers, scatter_min/scatter_max, stable sorts), so it runs as a short sequence of device kernels per step and
reads back one scalar per step to know when to stop.
"""
import warnings

import numpy

import cuarray as cp

_NULL = -9999  # SciPy's predecessor of unreachable nodes and of the source


def _negative_cycle_error():
    try:
        from scipy.sparse.csgraph import NegativeCycleError
        return NegativeCycleError
    except ImportError:  # pragma: no cover
        return _OwnNegativeCycleError


class _OwnNegativeCycleError(Exception):
    """A negative cycle was found (scipy.sparse.csgraph.NegativeCycleError when SciPy is absent)."""


def _issparse(x):
    from cuarray.scipy import sparse
    return sparse.issparse(x)


def _edges(csgraph, directed=True, weighted=True):
    """(n, rows, cols, weights): the graph's edges as device arrays in CSR order. Sparse input: every stored
    entry is an edge (explicit zeros too, as SciPy's). Dense input: entries that are nonzero and finite."""
    if _issparse(csgraph):
        if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        g = csgraph.tocsr()
        n = g.shape[0]
        indptr = g.indptr.astype(numpy.int64)
        counts = indptr[1:] - indptr[:-1]
        rows = cp.repeat(cp.arange(n, dtype=numpy.int64), counts)
        cols = g.indices.astype(numpy.int64)
        w = g.data.astype(numpy.float64) if weighted else None
    elif isinstance(csgraph, cp.ndarray):
        if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("dense graph must be shape (N, N)")
        n = csgraph.shape[0]
        a = csgraph.astype(numpy.float64) if csgraph.dtype.kind != "c" else csgraph
        mask = (a != 0) & cp.isfinite(a)
        rows, cols = (ix.astype(numpy.int64) for ix in cp.nonzero(mask))
        w = a[rows, cols].astype(numpy.float64) if weighted else None
    else:
        raise TypeError(f"csgraph must be a cuarray sparse matrix or a cuarray.ndarray, got {type(csgraph).__name__}")
    if not directed:
        rows, cols = cp.concatenate([rows, cols]), cp.concatenate([cols, rows])
        if w is not None:
            w = cp.concatenate([w, w])
    return n, rows, cols, w


def _compress(labels):
    """Labels renumbered 0..k-1 in increasing order of the input labels; (k, labels as int32)."""
    uniq, inv = cp.unique(labels, return_inverse=True)
    return int(uniq.size), inv.reshape(labels.shape).astype(numpy.int32)


def _min_label_propagation(n, rows, cols):
    """For each node the smallest node index of its undirected component (label propagation plus pointer
    jumping, repeated until nothing changes)."""
    labels = cp.arange(n, dtype=numpy.int64)
    if rows.size == 0:
        return labels
    while True:
        before = labels.copy()
        cp.scatter_min(labels, rows, labels[cols])
        cp.scatter_min(labels, cols, labels[rows])
        while True:  # pointer jumping: follow labels to their roots
            jumped = labels[labels]
            if bool(cp.all(jumped == labels)):
                break
            labels = jumped
        if bool(cp.all(labels == before)):
            return labels


def _strong_components(n, rows, cols):
    """Strongly connected components by forward colouring and backward closure (Orzan's colouring
    algorithm): returns for each node the largest node index of its component."""
    comp = cp.full(n, -1, dtype=numpy.int64)
    remaining = cp.ones(n, dtype=bool)
    ids = cp.arange(n, dtype=numpy.int64)
    while bool(cp.any(remaining)):
        live = remaining[rows] & remaining[cols]
        r, c = rows[live], cols[live]
        color = cp.where(remaining, ids, -1)
        while True:  # forward: each node takes the largest colour that reaches it
            before = color.copy()
            if r.size:
                cp.scatter_max(color, c, color[r])
            if bool(cp.all(color == before)):
                break
        inscc = remaining & (color == ids)
        same = color[r] == color[c]
        rb, cb = r[same], c[same]
        while True:  # backward from each root within its colour: the root's component
            before = inscc.copy()
            if rb.size:
                reach = inscc[cb].astype(numpy.int32)
                flag = inscc.astype(numpy.int32)
                cp.scatter_max(flag, rb, reach)
                inscc = flag.astype(bool)
            if bool(cp.all(inscc == before)):
                break
        comp = cp.where(inscc, color, comp)
        remaining = remaining & ~inscc
    return comp


def connected_components(csgraph, directed=True, connection="weak", return_labels=True):
    """(n_components, labels) of the graph. Undirected or weak connectivity labels components in the order of
    their smallest node, as SciPy; strong components are labelled in the order of their largest node (SciPy's
    Pearce order differs; the partition is the same)."""
    if connection.lower() not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    n, rows, cols, _ = _edges(csgraph, directed=True, weighted=False)
    if not directed or connection.lower() == "weak":
        k, labels = _compress(_min_label_propagation(n, rows, cols))
    else:
        k, labels = _compress(_strong_components(n, rows, cols))
    if n == 0:
        k = 0
    return (k, labels) if return_labels else k


def _traversal_csr(csgraph, directed):
    """(n, indptr, indices): the adjacency in SciPy's traversal order; undirected: row u lists u's out-edges
    and then its in-edges (the rows of the transpose), as SciPy's breadth-first search visits them."""
    n, rows, cols, _ = _edges(csgraph, directed=True, weighted=False)
    if not directed:
        if _issparse(csgraph):
            n2, rows_t, cols_t, _ = _edges(csgraph.T.tocsr(), directed=True, weighted=False)
        else:
            n2, rows_t, cols_t, _ = _edges(cp.ascontiguousarray(csgraph.T), directed=True, weighted=False)
        all_rows = cp.concatenate([rows, rows_t])
        all_cols = cp.concatenate([cols, cols_t])
        seq = cp.arange(all_rows.size, dtype=numpy.int64)
        order = cp.lexsort(cp.stack([seq, all_rows]))
        rows, cols = all_rows[order], all_cols[order]
    indptr = cp.searchsorted(rows, cp.arange(n + 1, dtype=numpy.int64), side="left")
    return n, indptr.astype(numpy.int64), cols


def _check_start(i_start, n):
    if int(i_start) != i_start:
        raise TypeError("i_start must be an integer")
    i_start = int(i_start)
    if not 0 <= i_start < n:
        raise ValueError("i_start must be a valid node index")
    return i_start


def breadth_first_order(csgraph, i_start, directed=True, return_predecessors=True):
    """(node_array, predecessors): the nodes reachable from i_start in breadth-first order and each node's
    parent in the tree (-9999 for i_start and unreachable nodes); int32, in exactly SciPy's order (a level's
    nodes in the order of their first discovery by the previous level's nodes, in adjacency order)."""
    n, indptr, indices = _traversal_csr(csgraph, directed)
    i_start = _check_start(i_start, n)
    visited = cp.zeros(n, dtype=bool)
    pred = cp.full(n, _NULL, dtype=numpy.int32)
    frontier = cp.asarray(numpy.array([i_start], dtype=numpy.int64))
    visited[frontier] = True
    levels = [frontier]
    while True:
        starts = indptr[frontier]
        deg = indptr[frontier + 1] - starts
        total = int(deg.sum())
        if total == 0:
            break
        # Every edge leaving the frontier, in (frontier position, adjacency position) order.
        pos = cp.repeat(cp.arange(frontier.size, dtype=numpy.int64), deg)
        first_edge = cp.cumsum(deg) - deg
        offset = cp.arange(total, dtype=numpy.int64) - first_edge[pos]
        targets = indices[starts[pos] + offset]
        fresh = ~visited[targets]
        targets, pos = targets[fresh], pos[fresh]
        if targets.size == 0:
            break
        # The first discovery of each node wins, as in a sequential queue.
        uniq, first = cp.unique(targets, return_index=True)
        first = cp.sort(first)
        new = targets[first]
        pred[new] = frontier[pos[first]].astype(numpy.int32)
        visited[new] = True
        levels.append(new)
        frontier = new
    order = cp.concatenate(levels).astype(numpy.int32)
    return (order, pred) if return_predecessors else order


def _prepare_indices(indices, n):
    if indices is None:
        return cp.arange(n, dtype=numpy.int64), False
    idx = numpy.asarray(cp.asnumpy(indices) if isinstance(indices, cp.ndarray) else indices)
    scalar = idx.ndim == 0
    idx = idx.reshape(-1)
    if idx.size and (idx.dtype.kind not in "iu" and not numpy.all(idx == numpy.floor(idx))):
        raise ValueError("indices must be integers")
    idx = idx.astype(numpy.int64)
    if numpy.any((idx < -n) | (idx >= n)):
        raise ValueError("indices out of range 0...N")
    idx = numpy.where(idx < 0, idx + n, idx)
    return cp.asarray(idx), scalar


def _relax(n, rows, cols, w, sources, check_negative_cycles, limit=numpy.inf):
    """Bellman-Ford by parallel relaxation of all edges for all sources at once: (dist (s, n), converged)."""
    s = sources.size
    dist = cp.full((s, n), numpy.inf, dtype=numpy.float64)
    dist[cp.arange(s), sources] = 0.0
    if rows.size == 0 or s == 0:
        return dist
    flat_cols = (cp.arange(s, dtype=numpy.int64)[:, None] * n + cols[None, :]).reshape(-1)
    NegativeCycleError = _negative_cycle_error()
    for it in range(n + 1):
        cand = dist[:, rows] + w[None, :]
        if limit != numpy.inf:
            cand = cp.where(cand > limit, numpy.inf, cand)
        new = dist.copy().reshape(-1)
        cp.scatter_min(new, flat_cols, cand.reshape(-1))
        new = new.reshape(s, n)
        if bool(cp.all(new == dist)):
            return dist
        dist = new
        if it == n - 1 and check_negative_cycles:
            break
    bad = int(cp.argmax(cp.any(dist < 0, axis=1)))
    raise NegativeCycleError(f"Negative cycle detected on node {int(sources[bad])}")


def _tight_tree(n, rows, cols, w, dist, start):
    """A shortest-path tree over the tight edges (dist[u] + w == dist[v]), grown level by level from the `start`
    nodes (bool (s, n)): (pred (s, n) int64 with n for none, the level order's root of each node). Growing by
    levels keeps the tree acyclic where zero-weight cycles make tight edges run both ways; among parents of the
    same level the smallest index wins."""
    s = dist.shape[0]
    pred = cp.full((s, n), n, dtype=numpy.int64)
    root = cp.where(start, cp.arange(n, dtype=numpy.int64)[None, :], n)
    if rows.size == 0 or s == 0:
        return pred, root
    tight = (dist[:, rows] + w[None, :] == dist[:, cols]) & cp.isfinite(dist[:, cols])
    visited = start.copy()
    frontier = start.copy()
    pflat, rflat = pred.reshape(-1), root.reshape(-1)
    while True:
        act = tight & frontier[:, rows] & ~visited[:, cols]
        srow, e = cp.nonzero(act)
        if srow.size == 0:
            break
        flat = srow * n + cols[e]
        cp.scatter_min(pflat, flat, rows[e])
        newly = cp.zeros(s * n, dtype=bool)
        newly[flat] = True
        targets = cp.nonzero(newly)[0]
        parents = pflat[targets]
        rflat[targets] = rflat[(targets // n) * n + parents]
        newly = newly.reshape(s, n)
        visited = visited | newly
        frontier = newly
    return pflat.reshape(s, n), rflat.reshape(s, n)


def _predecessors(n, rows, cols, w, dist, sources):
    """Each (source, node)'s parent in a shortest-path tree; -9999 for sources and unreachable nodes."""
    s = sources.size
    start = cp.zeros((s, n), dtype=bool)
    if s:
        start[cp.arange(s), sources] = True
    pred, _ = _tight_tree(n, rows, cols, w, dist, start)
    return cp.where(pred == n, _NULL, pred).astype(numpy.int32)


def _shortest(csgraph, directed, indices, return_predecessors, unweighted, limit=numpy.inf, negative_ok=True,
              warn_negative=False):
    n, rows, cols, w = _edges(csgraph, directed=directed)
    if unweighted:
        w = cp.ones(rows.size, dtype=numpy.float64)
    sources, scalar = _prepare_indices(indices, n)
    if w.size and bool(cp.any(w < 0)):
        if warn_negative:
            warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
                          "negative cycles. Consider johnson or bellman_ford.", stacklevel=3)
        if not directed:
            NegativeCycleError = _negative_cycle_error()
            raise NegativeCycleError(f"Negative cycle detected on node {int(sources[0]) if sources.size else 0}")
    dist = _relax(n, rows, cols, w, sources, True, limit)
    pred = _predecessors(n, rows, cols, w, dist, sources) if return_predecessors else None
    if scalar:
        dist = dist[0]
        pred = pred[0] if pred is not None else None
    return (dist, pred) if return_predecessors else dist


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None):
    """Distances (and predecessors) of shortest paths from each of ``indices`` (all nodes by default). Every
    method ('auto', 'FW', 'D', 'BF', 'J') runs the same parallel Bellman-Ford relaxation on the device, which
    handles negative weights and raises NegativeCycleError on a negative cycle. Predecessors: among tied
    shortest paths the parent with the smallest index."""
    if method not in ("auto", "FW", "D", "BF", "J"):
        raise ValueError(f"unrecognized method '{method}'")
    return _shortest(csgraph, directed, indices, return_predecessors, unweighted)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False):
    """Shortest paths by Bellman-Ford relaxation (all edges in parallel per round); NegativeCycleError on a
    negative cycle."""
    return _shortest(csgraph, directed, indices, return_predecessors, unweighted)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, limit=numpy.inf,
             min_only=False):
    """Shortest paths from ``indices`` with distances above ``limit`` reported as inf; ``min_only`` gives for
    each node the distance from the nearest source, its predecessor and that source (-9999 when unreachable).
    Computed by parallel relaxation (the result Dijkstra's algorithm defines; negative weights warn as SciPy)."""
    limit = float(limit)
    if limit < 0:
        raise ValueError("limit must be >= 0")
    if not min_only:
        return _shortest(csgraph, directed, indices, return_predecessors, unweighted, limit, warn_negative=True)
    n, rows, cols, w = _edges(csgraph, directed=directed)
    if unweighted:
        w = cp.ones(rows.size, dtype=numpy.float64)
    sources, _ = _prepare_indices(indices, n)
    if w.size and bool(cp.any(w < 0)):
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
                      "negative cycles. Consider johnson or bellman_ford.", stacklevel=2)
    # One super-source: every source starts at distance 0 and carries its own index along.
    dist = cp.full(n, numpy.inf, dtype=numpy.float64)
    dist[sources] = 0.0
    if rows.size:
        for _ in range(n + 1):
            cand = dist[rows] + w
            if limit != numpy.inf:
                cand = cp.where(cand > limit, numpy.inf, cand)
            new = dist.copy()
            cp.scatter_min(new, cols, cand)
            if bool(cp.all(new == dist)):
                break
            dist = new
    if not return_predecessors:
        return dist
    start = cp.zeros((1, n), dtype=bool)
    start[0, sources] = True
    pred, src = _tight_tree(n, rows, cols, w, dist[None, :], start)
    pred, src = pred[0], src[0]
    pred = cp.where(pred == n, _NULL, pred)
    reached = cp.isfinite(dist)
    src = cp.where(reached, src, _NULL)
    return dist, pred.astype(numpy.int32), src.astype(numpy.int32)
