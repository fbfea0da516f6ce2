"""Typed usage of cuarray's common API, checked by mypy in CI (tools/check_types.sh); run it on a GPU with `python3`."""
import numpy as np

import cuarray as cp
import cuarray.scipy.sparse as sp
import cuarray.scipy.sparse.linalg as spla
from cuarray import jit


def creation_and_math() -> cp.ndarray:
    a: cp.ndarray = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    b = cp.zeros((3, 4), dtype=cp.float32)
    c = cp.ones_like(a)
    d = cp.full((4,), 2.5)
    e = cp.asarray(np.linspace(0.0, 1.0, 12).reshape(3, 4))
    f = cp.linspace(0, 1, 5)
    g = cp.eye(3, dtype=cp.int32)
    s = cp.sin(a) + cp.exp(b) * c - cp.sqrt(cp.abs(e))
    s = cp.add(s, d, out=s)
    t = cp.where(a > 2, a, 0.0)
    host: np.ndarray = cp.asnumpy(t)
    assert host.shape == (3, 4) and f.size == 5 and g.ndim == 2
    return s


def reductions_and_indexing(a: cp.ndarray) -> float:
    total = cp.sum(a, axis=0)
    m = a.mean(axis=1, keepdims=True)
    idx = cp.argmax(a, axis=-1)
    sorted_a = cp.sort(a, axis=None)
    row = a[1]
    block = a[:, 1:3]
    picked = cp.take(a, cp.array([0, 2]), axis=1)
    a[0, :] = 7.0
    a[a < 0] = 0
    mask = cp.isnan(a).any()
    stats = [cp.std(a), cp.var(a, ddof=1), cp.cumsum(a, axis=0), cp.unique(a), cp.nonzero(a > 3)]
    assert len(stats) == 5 and not bool(mask)
    return float(total.sum() + m.sum() + idx.sum() + sorted_a[0] + row[0] + block.sum() + picked.sum())


def libraries() -> None:
    x = cp.random.default_rng(0).standard_normal((64, 64), dtype=cp.float32)
    y = cp.random.rand(64)
    z = cp.random.randint(0, 10, size=(8,))
    q, r = cp.linalg.qr(x)
    u, sv, vh = cp.linalg.svd(x, full_matrices=False)
    sol = cp.linalg.solve(x, y.astype(cp.float32))
    inv = cp.linalg.inv(x)
    nrm = cp.linalg.norm(x, ord="fro")
    spec = cp.fft.rfft(y, n=128, norm="ortho")
    back = cp.fft.irfft(spec, n=128, norm="ortho")
    freqs = cp.fft.fftfreq(16, d=0.5)
    prod = x @ inv + cp.matmul(q, r) + cp.dot(u * sv, vh)
    assert sol.shape == (64,) and back.shape == (128,) and freqs.size == 16 and z.size == 8
    assert float(nrm) >= 0.0 and prod.shape == (64, 64)


def sparse() -> None:
    dense = cp.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.0], [0.0, 0.0, 2.0]])
    m = sp.csr_matrix(dense)
    ident = sp.identity(3, format="csr")
    b = cp.ones(3)
    x, info = spla.cg(m + ident, b, rtol=1e-8)
    y = spla.spsolve(m.tocsc(), b)
    assert info == 0 and sp.issparse(m) and x.shape == y.shape
    assert m.toarray().shape == (3, 3) and m.nnz == 7


def cuda_runtime() -> None:
    dev = cp.cuda.Device(0)
    cc: str = dev.compute_capability
    free, total = cp.cuda.runtime.memGetInfo()
    n: int = cp.cuda.runtime.getDeviceCount()
    stream = cp.cuda.Stream(non_blocking=True)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    with stream:
        start.record()
        v = cp.arange(1 << 20, dtype=cp.float64) * 2.0
        end.record()
    end.synchronize()
    ms: float = cp.cuda.get_elapsed_time(start, end)
    cp.cuda.Stream.null.synchronize()
    pool = cp.get_default_memory_pool()
    pool.set_limit(size=1 << 30)
    used: int = pool.used_bytes()
    pool.free_all_blocks()
    pinned = cp.get_default_pinned_memory_pool()
    host_buf = cp.empty_pinned((16,), dtype=np.float32)
    assert cc and free <= total and n >= 1 and ms >= 0.0 and used >= 0 and v.size == 1 << 20
    assert pinned.n_free_blocks() >= 0 and host_buf.size == 16
    try:
        cp.cuda.runtime.setDevice(10_000)
    except cp.cuda.runtime.CUDARuntimeError as err:
        assert err.status != 0


def kernels() -> None:
    squared_diff = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
    l2 = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    add_one = cp.RawKernel(r'extern "C" __global__ void add_one(float* p, int n) {'
                           r' int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1.0f; }', "add_one")
    a = cp.arange(256, dtype=cp.float32)
    add_one((1,), (256,), (a, cp.int32(256)))
    d = squared_diff(a, cp.zeros_like(a))
    n = l2(d, axis=0)

    @cp.fuse()
    def fused(x: cp.ndarray, y: cp.ndarray) -> cp.ndarray:
        return x * y + 1

    @jit.rawkernel()
    def scale(x: cp.ndarray, out: cp.ndarray, factor: float) -> None:
        i = jit.grid(1)
        if i < x.size:
            out[i] = x[i] * factor

    out = cp.empty_like(a)
    scale[(1,), (256,)](a, out, cp.float32(2.0))
    assert fused(a, a).shape == a.shape and float(n) >= 0.0


def interop() -> None:
    a = cp.arange(6.0).reshape(2, 3)
    capsule = a.__dlpack__()
    b = cp.from_dlpack(a)
    cai = a.__cuda_array_interface__
    h = np.asarray(a.get())
    assert capsule is not None and b.shape == (2, 3) and cai["shape"] == (2, 3) and h.shape == (2, 3)
    assert cp.get_array_module(a) is cp and cp.get_array_module(h) is np


def main() -> None:
    s = creation_and_math()
    print(reductions_and_indexing(s))
    libraries()
    sparse()
    cuda_runtime()
    kernels()
    interop()


if __name__ == "__main__":
    if cp.is_available():
        main()
