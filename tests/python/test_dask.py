"""dask.array with cuarray chunks, each case against the same dask computation on NumPy chunks.

CPU tests check that cuarray registers with dask's dispatch tables without a GPU; all skip without dask.
"""
import numpy
import pytest

import cuarray as cp
from _fresh import run_fresh

da = pytest.importorskip("dask.array")
from dask.array import dispatch as ddispatch  # noqa: E402

gpu = pytest.mark.gpu


def _pair(shape=(60, 40), chunks=(16, 15), dtype="float64", seed=0):
    host = numpy.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return (da.from_array(cp.asarray(host), chunks=chunks, asarray=False),
            da.from_array(host, chunks=chunks), host)


def _check(got, want, rtol=1e-10, atol=1e-10):
    assert isinstance(got, cp.ndarray), type(got)
    numpy.testing.assert_allclose(cp.asnumpy(got), want, rtol=rtol, atol=atol)


# CPU: registration, no device use.

@pytest.mark.parametrize("table, expected", [
    ("concatenate_lookup", "concatenate"), ("take_lookup", "take"), ("tensordot_lookup", "tensordot"),
    ("empty_lookup", "empty"), ("divide_lookup", "divide")])
def test_registered_functions(table, expected):
    assert getattr(ddispatch, table).dispatch(cp.ndarray) is getattr(cp, expected)


def test_registered_helpers():
    from dask.array import backends
    assert ddispatch.percentile_lookup.dispatch(cp.ndarray) is backends.percentile
    assert ddispatch.numel_lookup.dispatch(cp.ndarray) is backends._numel_arraylike
    assert ddispatch.nannumel_lookup.dispatch(cp.ndarray) is backends._nannumel
    # NumPy arrays keep NumPy's entries.
    assert ddispatch.empty_lookup.dispatch(numpy.ndarray) is numpy.empty
    assert ddispatch.concatenate_lookup.dispatch(numpy.ndarray) is not cp.concatenate


def test_einsum_drops_numpy_only_keywords(monkeypatch):
    seen = {}
    monkeypatch.setattr(cp, "einsum", lambda *a, **k: seen.update(k) or "ok")
    assert ddispatch.einsum_lookup.dispatch(cp.ndarray)("ij->i", 1, casting="safe", order="K", dtype="f8") == "ok"
    assert seen == {"dtype": "f8"}


@pytest.mark.parametrize("order", ["cuarray-first", "dask-first"])
def test_registration_either_import_order(order):
    # A fresh interpreter: importing cuarray must not import dask, and either order must register.
    first, second = ("cuarray", "dask.array") if order == "cuarray-first" else ("dask.array", "cuarray")
    code = (f"import sys, importlib; importlib.import_module('{first}');"
            "assert ('dask' in sys.modules) == ('{first}' == 'dask.array');"
            f"importlib.import_module('{second}');"
            "import cuarray, dask.array.dispatch as d;"
            "assert d.concatenate_lookup.dispatch(cuarray.ndarray) is cuarray.concatenate;"
            "assert d.empty_lookup.dispatch(cuarray.ndarray) is cuarray.empty")
    code = code.replace("'{first}'", repr(first))
    run_fresh(code)


# GPU: computations.

@gpu
def test_from_array_meta_and_compute():
    x, h, host = _pair()
    assert isinstance(x._meta, cp.ndarray)
    assert x._meta.dtype == numpy.float64 and x._meta.ndim == 2
    _check(x.compute(), host)
    _check((x[5:50:3, ::-2] + 1).compute(), (h[5:50:3, ::-2] + 1).compute())


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_elementwise_and_reductions(dtype):
    x, h, _ = _pair(dtype=dtype)
    _check((x * 2 - abs(x) + da.sin(x)).compute(), (h * 2 - abs(h) + da.sin(h)).compute(), rtol=1e-5, atol=1e-5)
    for f in ("sum", "mean", "std", "var", "max", "min", "argmax", "argmin"):
        for axis in (None, 0, 1):
            got = getattr(x, f)(axis=axis).compute()
            _check(cp.asarray(got), getattr(h, f)(axis=axis).compute(), rtol=1e-4, atol=1e-4)


@gpu
def test_nan_reductions_and_percentile():
    host = numpy.random.default_rng(1).standard_normal((50, 30))
    host[::7, ::3] = numpy.nan
    x = da.from_array(cp.asarray(host), chunks=(13, 11), asarray=False)
    h = da.from_array(host, chunks=(13, 11))
    for f in ("nansum", "nanmean", "nanmax", "nanstd"):
        _check(cp.asarray(getattr(da, f)(x, axis=0).compute()), getattr(da, f)(h, axis=0).compute())
    col = numpy.random.default_rng(2).standard_normal(200)
    got = da.percentile(da.from_array(cp.asarray(col), chunks=50, asarray=False), [10, 50, 90]).compute()
    want = da.percentile(da.from_array(col, chunks=50), [10, 50, 90]).compute()
    _check(cp.asarray(got), want)


@gpu
def test_map_blocks_rechunk_concatenate_slicing():
    x, h, _ = _pair()
    _check(x.map_blocks(lambda b: b * 3 + 1).compute(), h.map_blocks(lambda b: b * 3 + 1).compute())
    _check(x.rechunk((7, 40)).sum(axis=1).compute(), h.rechunk((7, 40)).sum(axis=1).compute())
    _check(da.concatenate([x, x[:, :5]], axis=1).compute(), da.concatenate([h, h[:, :5]], axis=1).compute())
    _check(da.stack([x, x + 1]).compute(), da.stack([h, h + 1]).compute())
    _check(x[[3, 1, 40]].compute(), h[[3, 1, 40]].compute())
    _check(x.T[::3].compute(), h.T[::3].compute())


@gpu
def test_matmul_dot_tensordot_einsum():
    x, h, _ = _pair((40, 30), (16, 10))
    y, hy, _ = _pair((30, 20), (10, 8), seed=2)
    _check((x @ y).compute(), (h @ hy).compute())
    _check(da.dot(x, y).compute(), da.dot(h, hy).compute())
    _check(da.tensordot(x, y, axes=1).compute(), da.tensordot(h, hy, axes=1).compute())
    _check(da.einsum("ij,jk->ik", x, y).compute(), da.einsum("ij,jk->ik", h, hy).compute())
    _check(da.einsum("ij->j", x).compute(), da.einsum("ij->j", h).compute())


@gpu
def test_linalg_tsqr_qr_svd():
    x, h, host = _pair((120, 10), (30, 10))
    q, r = da.linalg.qr(x)
    q, r = q.compute(), r.compute()
    assert isinstance(q, cp.ndarray) and isinstance(r, cp.ndarray)
    numpy.testing.assert_allclose(cp.asnumpy(q @ r), host, atol=1e-10)
    numpy.testing.assert_allclose(cp.asnumpy(q.T @ q), numpy.eye(10), atol=1e-10)
    u, s, vt = (a.compute() for a in da.linalg.svd(x))
    _check(s, numpy.linalg.svd(host, compute_uv=False))
    numpy.testing.assert_allclose(cp.asnumpy((u * s) @ vt), host, atol=1e-10)


@gpu
def test_random_state():
    rs = da.random.RandomState(seed=5, RandomState=cp.random.RandomState)
    x = rs.standard_normal((1000, 100), chunks=(250, 50))
    assert isinstance(x._meta, cp.ndarray)
    got = x.compute()
    assert isinstance(got, cp.ndarray) and got.shape == (1000, 100)
    # Same seed, same chunking: same values; sample moments close to the distribution's.
    again = da.random.RandomState(seed=5, RandomState=cp.random.RandomState).standard_normal((1000, 100),
                                                                                          chunks=(250, 50))
    numpy.testing.assert_array_equal(cp.asnumpy(again.compute()), cp.asnumpy(got))
    assert abs(float(x.mean().compute())) < 0.02 and abs(float(x.std().compute()) - 1) < 0.02
    u = rs.uniform(2, 3, size=(500,), chunks=100).compute()
    assert isinstance(u, cp.ndarray) and float(u.min()) >= 2 and float(u.max()) < 3


@gpu
def test_ones_like_meta():
    x = da.ones((100, 10), chunks=(25, 10), dtype="float32", meta=cp.empty((0, 0), dtype="float32"))
    assert isinstance(x._meta, cp.ndarray)
    got = x.sum(axis=0).compute()
    _check(got, numpy.full(10, 100, numpy.float32))


@pytest.mark.parametrize("order", ["cuarray-first", "dask-first"])
def test_sizeof_is_nbytes_either_import_order(order):
    # distributed weighs transfers and memory with dask.sizeof: a chunk must weigh its bytes, as cupy's do.
    first, second = ("cuarray", "dask.sizeof") if order == "cuarray-first" else ("dask.sizeof", "cuarray")
    code = (f"import importlib\nimportlib.import_module({first!r})\nimportlib.import_module({second!r})\n"
            "import cuarray, dask.sizeof as s\n"
            "f = s.sizeof.dispatch(cuarray.ndarray)\n"
            "assert f is not s.sizeof_default, f\n"
            "class Fake:\n    nbytes = 12345\n"
            "assert f(Fake()) == 12345\n")
    run_fresh(code)


@gpu
def test_example_workloads_on_a_distributed_cluster():
    """examples/dask_multi_gpu.py on its own cluster (one worker process per GPU, at most two): the matmul's blocks,
    made and multiplied on the workers, sum to what the same blocks give in this process."""
    pytest.importorskip("distributed")
    import pathlib
    import sys
    from distributed import Client
    examples = str(pathlib.Path(__file__).resolve().parents[2] / "examples")
    # The workers are spawned processes that unpickle the example's task functions by module name: they inherit this
    # process's sys.path at spawn time, so the examples folder stays on it until the cluster is closed.
    sys.path.insert(0, examples)
    try:
        import dask_multi_gpu as ex
        gpus = list(range(min(ex.gpu_count(), 2)))
        side, seed, n_reduce = 256, 3, 2**16
        builds = dict(ex.workloads(n_reduce=n_reduce, side=side, seed=seed))
        with ex.gpu_cluster(gpus) as cluster, Client(cluster) as client:
            client.wait_for_workers(len(gpus), timeout=60)
            # A worker that cannot run a task leaves compute() waiting; a bounded wait turns that into an error.
            got = client.compute(builds[f"matmul {side}^2 float32"]()).result(timeout=60)
            total = float(client.compute(builds["reduction 2**32 float32"]()).result(timeout=60))
    finally:
        sys.path.remove(examples)
    assert isinstance(got, cp.ndarray)
    rows = side // 32
    want = sum(float(ex.matmul_block(rows, side, seed, block_id=(i, 0)).get()[0, 0]) for i in range(32))
    assert float(got) == pytest.approx(want, rel=1e-6)  # a block missing or wrong moves it by about 3%
    # The sum of 2**16 uniform draws: mean n/2, standard deviation about 74; 5% is 22 of them.
    assert total == pytest.approx(n_reduce / 2, rel=0.05)
