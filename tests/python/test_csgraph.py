"""cuarray.scipy.sparse.csgraph against scipy.sparse.csgraph on the same graphs (GPU), and its validation (CPU)."""
import inspect

import numpy
import pytest

import cuarray as cp

scipy = pytest.importorskip("scipy")
import scipy.sparse as ssp  # noqa: E402
import scipy.sparse.csgraph as ref  # noqa: E402

import cuarray.scipy.sparse as sp  # noqa: E402
import cuarray.scipy.sparse.csgraph as csg  # noqa: E402

gpu = pytest.mark.gpu


def _graphs():
    out = []
    for seed, (n, density) in enumerate([(1, 0.5), (5, 0.3), (20, 0.05), (60, 0.03), (60, 0.1)]):
        out.append(ssp.random(n, n, density=density, random_state=seed, format="csr"))
    z = ssp.random(20, 20, density=0.1, random_state=9, format="csr")
    z.data[:] = 0  # explicit zeros are edges of weight 0 in a sparse graph
    out.append(z)
    out.append(ssp.csr_matrix((7, 7)))
    return out


def _same_partition(a, b):
    return len(set(zip(a.tolist(), b.tolist()))) == len(set(a.tolist())) == len(set(b.tolist()))


def test_signatures_match_scipy():
    for name in csg.__all__:
        f = getattr(csg, name)
        if not isinstance(f, type):
            assert inspect.signature(f) == inspect.signature(getattr(ref, name)), name
    assert issubclass(csg.NegativeCycleError, Exception)


def test_validation():
    with pytest.raises(TypeError):
        csg.connected_components(numpy.eye(3))
    with pytest.raises(ValueError):
        csg.connected_components(None, connection="medium")
    with pytest.raises(ValueError):
        csg.shortest_path(None, method="XX")
    with pytest.raises(ValueError):
        csg.dijkstra(None, limit=-1)


@gpu
@pytest.mark.parametrize("directed", [True, False])
def test_connected_components(directed):
    for g in _graphs():
        for conn in ("weak", "strong"):
            r = ref.connected_components(g, directed, conn)
            m = csg.connected_components(sp.csr_matrix(g), directed, conn)
            assert m[0] == r[0]
            labels = cp.asnumpy(m[1])
            assert labels.dtype == numpy.int32
            if conn == "weak" or not directed:
                numpy.testing.assert_array_equal(labels, r[1])
            else:
                assert _same_partition(labels, r[1])
    d = ssp.random(30, 30, density=0.05, random_state=3).toarray()
    r = ref.connected_components(d, directed)
    m = csg.connected_components(cp.asarray(d), directed)
    assert m[0] == r[0] and numpy.array_equal(cp.asnumpy(m[1]), r[1])


@gpu
@pytest.mark.parametrize("directed", [True, False])
def test_breadth_first_order_exact(directed):
    for g in _graphs():
        n = g.shape[0]
        for start in {0, n - 1}:
            r = ref.breadth_first_order(g, start, directed)
            m = csg.breadth_first_order(sp.csr_matrix(g), start, directed)
            numpy.testing.assert_array_equal(cp.asnumpy(m[0]), r[0])
            numpy.testing.assert_array_equal(cp.asnumpy(m[1]), r[1])
            numpy.testing.assert_array_equal(cp.asnumpy(csg.breadth_first_order(sp.csr_matrix(g), start, directed,
                                                                                return_predecessors=False)), r[0])
    with pytest.raises(ValueError):
        csg.breadth_first_order(sp.csr_matrix(_graphs()[1]), 99)


def _check_predecessors(g, dist, pred, directed, unweighted):
    a = g.toarray()
    has = (g != 0).toarray() | (ssp.csr_matrix((numpy.ones(g.nnz), g.indices, g.indptr), shape=g.shape) != 0).toarray()
    for s in range(dist.shape[0]):
        for v in range(dist.shape[1]):
            u = pred[s, v]
            if u == -9999:
                assert v == s or not numpy.isfinite(dist[s, v]) or dist[s, v] == 0
                continue
            weights = [a[u, v]] if has[u, v] else []
            if not directed and has[v, u]:
                weights.append(a[v, u])
            assert weights
            assert any(numpy.isclose(dist[s, u] + (1.0 if unweighted else w), dist[s, v]) for w in weights)


@gpu
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("unweighted", [False, True])
def test_shortest_paths(directed, unweighted):
    for g in _graphs():
        r = ref.shortest_path(g, directed=directed, unweighted=unweighted)
        d, p = csg.shortest_path(sp.csr_matrix(g), directed=directed, unweighted=unweighted, return_predecessors=True)
        numpy.testing.assert_allclose(cp.asnumpy(d), r)
        _check_predecessors(g, cp.asnumpy(d), cp.asnumpy(p), directed, unweighted)
        n = g.shape[0]
        numpy.testing.assert_allclose(cp.asnumpy(csg.dijkstra(sp.csr_matrix(g), directed, indices=0, limit=0.5)),
                                      ref.dijkstra(g, directed, indices=0, limit=0.5))
        numpy.testing.assert_allclose(cp.asnumpy(csg.bellman_ford(sp.csr_matrix(g), directed, indices=[0, n - 1])),
                                      ref.bellman_ford(g, directed, indices=[0, n - 1]))
        rd, rp, rs = ref.dijkstra(g, directed, indices=[0, n - 1], min_only=True, return_predecessors=True)
        md, mp, ms = (cp.asnumpy(x) for x in csg.dijkstra(sp.csr_matrix(g), directed, indices=[0, n - 1],
                                                          min_only=True, return_predecessors=True))
        numpy.testing.assert_allclose(md, rd)
        numpy.testing.assert_array_equal(ms == -9999, rs == -9999)
    dense = ssp.random(25, 25, density=0.1, random_state=4).toarray()
    numpy.testing.assert_allclose(cp.asnumpy(csg.shortest_path(cp.asarray(dense), directed=directed)),
                                  ref.shortest_path(dense, directed=directed))


@gpu
def test_negative_weights():
    g = ssp.csr_matrix(numpy.array([[0, 2, 0], [0, 0, -1], [0, 0, 0.0]]))
    numpy.testing.assert_allclose(cp.asnumpy(csg.bellman_ford(sp.csr_matrix(g))), ref.bellman_ford(g))
    with pytest.raises(csg.NegativeCycleError):
        csg.shortest_path(sp.csr_matrix(g), directed=False)
    cyc = ssp.csr_matrix(numpy.array([[0, 1, 0], [0, 0, -3], [1, 0, 0.0]]))
    with pytest.raises(csg.NegativeCycleError):
        csg.bellman_ford(sp.csr_matrix(cyc))
    with pytest.warns(UserWarning):
        csg.dijkstra(sp.csr_matrix(g))
