"""cuarray.jit: kernels written in Python, against NumPy on the GPU; code generation, NVRTC compilation of the
generated source for several type signatures, and the error messages without one."""
import math

import numpy
import pytest

import cuarray as cp
from cuarray import jit
from cuarray.jit import _interface

gpu = pytest.mark.gpu

# ---------------------------------------------------------------------------------------------------------
# kernels (module level: cuarray.jit reads their source)


@jit.rawkernel()
def elementwise_copy(x, y, size):
    tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
    ntid = jit.gridDim.x * jit.blockDim.x
    for i in range(tid, size, ntid):
        y[i] = x[i]


@jit.rawkernel()
def increment_2d(a):
    x, y = jit.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] += 1


TPB = 16


@jit.rawkernel()
def tiled_matmul(A, B, C):
    sA = jit.shared_memory(numpy.float32, TPB * TPB)
    sB = jit.shared_memory(numpy.float32, TPB * TPB)
    x, y = jit.grid(2)
    tx = jit.threadIdx.x
    ty = jit.threadIdx.y
    acc = numpy.float32(0)
    for t in range((A.shape[1] + TPB - 1) // TPB):
        sA[ty * TPB + tx] = 0
        sB[ty * TPB + tx] = 0
        if y < A.shape[0] and tx + t * TPB < A.shape[1]:
            sA[ty * TPB + tx] = A[y, tx + t * TPB]
        if x < B.shape[1] and ty + t * TPB < B.shape[0]:
            sB[ty * TPB + tx] = B[ty + t * TPB, x]
        jit.syncthreads()
        for j in range(TPB):
            acc += sA[ty * TPB + j] * sB[j * TPB + tx]
        jit.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = acc


@jit.rawkernel()
def diffusion_step(u, v, alpha):
    # 5-point stencil through a (TPB + 2)^2 shared tile with a halo; the border keeps its values.
    tile = jit.shared_memory(numpy.float32, (TPB + 2) * (TPB + 2))
    x, y = jit.grid(2)
    tx = jit.threadIdx.x + 1
    ty = jit.threadIdx.y + 1
    n = u.shape[0]
    m = u.shape[1]
    W = TPB + 2
    inside = x < m and y < n
    if inside:
        tile[ty * W + tx] = u[y, x]
        if tx == 1 and x > 0:
            tile[ty * W] = u[y, x - 1]
        if tx == TPB or x == m - 1:
            if x + 1 < m:
                tile[ty * W + tx + 1] = u[y, x + 1]
        if ty == 1 and y > 0:
            tile[tx] = u[y - 1, x]
        if ty == TPB or y == n - 1:
            if y + 1 < n:
                tile[(ty + 1) * W + tx] = u[y + 1, x]
    jit.syncthreads()
    if inside:
        c = tile[ty * W + tx]
        if x > 0 and y > 0 and x < m - 1 and y < n - 1:
            lap = tile[ty * W + tx - 1] + tile[ty * W + tx + 1] + tile[(ty - 1) * W + tx] + \
                tile[(ty + 1) * W + tx] - 4 * c
            v[y, x] = c + alpha * lap
        else:
            v[y, x] = c


@jit.rawkernel()
def block_sum(x, out):
    smem = jit.shared_memory(numpy.float32, 256)
    tid = jit.threadIdx.x
    i = jit.grid(1)
    smem[tid] = x[i] if i < x.size else numpy.float32(0)
    jit.syncthreads()
    s = 128
    while s > 0:
        if tid < s:
            smem[tid] += smem[tid + s]
        jit.syncthreads()
        s //= 2
    if tid == 0:
        jit.atomic_add(out, 0, smem[0])


@jit.rawkernel()
def warp_sum(x, out):
    i = jit.grid(1)
    v = x[i] if i < x.size else 0
    offset = 16
    while offset > 0:
        v += jit.shfl_down_sync(0xffffffff, v, offset)
        offset //= 2
    if jit.laneid() == 0:
        jit.atomic_add(out, 0, v)


@jit.rawkernel(device=True)
def clip_scale(v, lo, hi):
    if v < lo:
        return lo
    elif v > hi:
        return hi
    return v * 2


@jit.rawkernel()
def calls_device(x, y, lo, hi):
    i = jit.grid(1)
    if i < x.size:
        y[i] = clip_scale(x[i], lo, hi)


@jit.rawkernel()
def grid_sync_kernel(x, y):
    # Each thread writes, the grid synchronises, then each reads a value another block wrote.
    g = jit.cg.this_grid()
    i = jit.grid(1)
    n = x.size
    if i < n:
        x[i] = i * 2
    g.sync()
    if i < n:
        y[i] = x[n - 1 - i] + 1


@jit.rawkernel()
def dynamic_shared(x, y):
    buf = jit.shared_memory(numpy.float64, None)
    t = jit.threadIdx.x
    i = jit.grid(1)
    buf[t] = x[i] if i < x.size else 0.0
    jit.syncthreads()
    if i < x.size:
        y[i] = buf[jit.blockDim.x - 1 - t]


@jit.rawkernel()
def math_kernel(x, y):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        y[i] = math.sqrt(abs(v)) + cp.exp(-v * v) + max(v, 0.5) - min(v, -0.5) + math.atan2(v, 2.0)


@jit.rawkernel()
def int_ops(a, b, q, r, p):
    i = jit.grid(1)
    if i < a.size:
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]
        p[i] = (a[i] * 3) ^ (b[i] << 1) if a[i] > b[i] else -a[i]


@jit.rawkernel()
def control_flow(x, out):
    i = jit.grid(1)
    if i >= out.size:
        return
    acc = 0
    for j in range(10, -1, -3):  # negative constant step
        acc += j
    k = x[i]
    n = 0
    while True:
        if k <= 1:
            break
        n += 1
        if k % 2 == 0:
            k = k // 2
            continue
        k = 3 * k + 1
    step = -1 if i % 2 == 0 else 2  # step whose sign is known only at run time
    m = 0
    for j in range(5, 0 if step < 0 else 9, step):
        m += 1
    out[i] = acc * 1000000 + n * 100 + m


@jit.rawkernel()
def nd_index(a, out):
    i, j, k = jit.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        row = a[i, j]
        out[i, j, k] = row[k] * 2 + a.ndim + len(a)


@jit.rawkernel()
def atomics(a, vals):
    i = jit.grid(1)
    if i < vals.size:
        v = vals[i]
        jit.atomic_add(a, 0, v)
        jit.atomic_sub(a, 1, v)
        jit.atomic_max(a, 2, v)
        jit.atomic_min(a, 3, v)
        jit.atomic_or(a, 4, v)
        jit.atomic_and(a, 5, v)
        jit.atomic_xor(a, 6, v)
        jit.atomic_cas(a, 7, 0, v)
        jit.atomic_exch(a, 8, 5)


# ---------------------------------------------------------------------------------------------------------
# CPU: code generation and NVRTC compilation of the generated source (no launch)

F32 = numpy.zeros(4, numpy.float32)


def _compile(kernel, args, arch=80):
    code = kernel._emit_code(args)
    assert cp._core.nvrtc_compile(_interface.full_source(code), "jit.cu", arch, ["-std=c++17"]) > 0
    return code


def _arr(dtype, shape=(4,), order="C"):
    return numpy.zeros(shape, dtype=dtype, order=order)


@pytest.mark.parametrize("dtype", ["?", "b", "B", "h", "H", "i", "I", "l", "L", "e", "f", "d", "F", "D"])
def test_copy_compiles_for_every_dtype(dtype):
    code = _compile(elementwise_copy, (_arr(dtype), _arr(dtype), 4))
    assert 'extern "C" __global__ void ca_jit_elementwise_copy' in code


@pytest.mark.parametrize("args", [
    (_arr("f", (3, 4)),), (_arr("i", (3, 4)),), (_arr("d", (4, 6))[:, ::2],), (_arr("e", (3, 4), "F"),),
    (_arr("F", (3, 4)),)])
def test_increment_2d_compiles(args):
    _compile(increment_2d, args)


@pytest.mark.parametrize("arch", [75, 80, 90])
def test_required_kernels_compile(arch):
    a = _arr("f", (8, 8))
    _compile(tiled_matmul, (a, a, a), arch)
    _compile(diffusion_step, (a, a, numpy.float32(0.1)), arch)
    _compile(diffusion_step, (a, a, 0.1), arch)
    _compile(block_sum, (F32, F32), arch)
    _compile(block_sum, (_arr("d"), _arr("d")), arch)
    _compile(warp_sum, (F32, F32), arch)
    _compile(warp_sum, (_arr("i"), _arr("i")), arch)
    _compile(calls_device, (F32, F32, numpy.float32(-1), numpy.float32(1)), arch)
    _compile(calls_device, (_arr("l"), _arr("l"), -1, 1), arch)
    _compile(grid_sync_kernel, (_arr("l"), _arr("l")), arch)
    _compile(dynamic_shared, (_arr("d"), _arr("d")), arch)
    _compile(control_flow, (_arr("l"), _arr("l")), arch)
    _compile(nd_index, (_arr("f", (2, 3, 4)), _arr("f", (2, 3, 4))), arch)
    _compile(nd_index, (_arr("h", (2, 3, 4))[:, ::-1], _arr("h", (2, 3, 4))), arch)


@pytest.mark.parametrize("dtype", ["e", "f", "d"])
def test_math_kernel_compiles(dtype):
    _compile(math_kernel, (_arr(dtype), _arr(dtype)))


@pytest.mark.parametrize("dtype", ["b", "h", "i", "I", "l", "L"])
def test_integer_ops_compile(dtype):
    a = _arr(dtype)
    _compile(int_ops, (a, a, a, a, a))


def test_small_unsigned_results_of_int32_literals_need_a_cast():
    # In 'cuda' mode the literal 3 is int32, so uint8 * 3 is int32, which casting='same_kind' does not store
    # into uint8 (CuPy's JIT behaves the same).
    a = _arr("B")
    with pytest.raises(TypeError, match=r"(?s)int32 to 'p\[i\]' of type uint8.*line"):
        int_ops._emit_code((a, a, a, a, a))


@pytest.mark.parametrize("dtype", ["i", "I"])
def test_atomics_compile(dtype):
    _compile(atomics, (_arr(dtype, (9,)), _arr(dtype)))


@jit.rawkernel()
def atomics64(a, vals):
    i = jit.grid(1)
    if i < vals.size:
        v = vals[i]
        jit.atomic_add(a, 0, v)
        jit.atomic_max(a, 2, v)
        jit.atomic_min(a, 3, v)
        jit.atomic_or(a, 4, v)
        jit.atomic_and(a, 5, v)
        jit.atomic_xor(a, 6, v)
        jit.atomic_cas(a, 7, 0, v)
        jit.atomic_exch(a, 8, 5)


@pytest.mark.parametrize("dtype", ["l", "L"])
def test_atomics_64_bit_compile(dtype):
    _compile(atomics64, (_arr(dtype, (9,)), _arr(dtype)))
    with pytest.raises(TypeError, match="atomic_sub` does not support"):
        atomics._emit_code((_arr(dtype, (9,)), _arr(dtype)))


def test_float_atomics_and_inc_dec_compile():
    @jit.rawkernel()
    def k(f, d, h, u):
        jit.atomic_add(f, 0, 1.5)
        jit.atomic_exch(f, 1, 2.0)
        jit.atomic_add(d, 0, d[1])
        jit.atomic_add(h, 0, h[1])
        jit.atomic_inc(u, 0, 10)
        jit.atomic_dec(u, 1, 10)

    _compile(k, (_arr("f"), _arr("d"), _arr("e"), _arr("I")))


def test_generated_code_is_specialised_per_signature_and_cached():
    elementwise_copy._cached_codes.clear()
    f = elementwise_copy._emit_code((F32, F32, 4))
    d = elementwise_copy._emit_code((_arr("d"), _arr("d"), 4))
    assert f != d and "float*" in f and "double*" in d
    assert elementwise_copy._emit_code((F32, F32, 7)) is f  # same types: same cached code
    # Python ints are int32 in 'cuda' mode when they fit, int64 beyond, as CuPy's JIT types them.
    big = elementwise_copy._emit_code((F32, F32, 2 ** 40))
    assert "int v_size" in f and "long long v_size" in big
    assert len(elementwise_copy.cached_codes) == 3
    with pytest.warns(UserWarning):
        assert elementwise_copy.cached_code == f


def test_contiguous_arrays_index_linearly_and_strided_ones_by_strides():
    c = increment_2d._emit_code((_arr("f", (3, 4)),))
    s = increment_2d._emit_code((_arr("f", (3, 8))[:, ::2],))
    assert "v_a.p[((long long)(v_x)) * v_a.shape[1] + (long long)(v_y)]" in c and "(char*)(v_a.p)" not in c
    assert "(char*)(v_a.p) + (long long)(v_x) * v_a.strides[0] + (long long)(v_y) * v_a.strides[1]" in s


def test_negative_and_unknown_sign_steps():
    code = control_flow._emit_code((_arr("l"), _arr("l")))
    assert "> stop_" in code  # range(10, -1, -3)
    assert ">= 0 ?" in code  # a step whose sign is known at run time only


def test_grid_sync_requests_a_cooperative_launch():
    grid_sync_kernel._emit_code((_arr("l"), _arr("l")))
    assert any(grid_sync_kernel._meta.values())
    elementwise_copy._emit_code((F32, F32, 4))
    assert not any(elementwise_copy._meta.values())


def test_device_function_is_specialised_per_types():
    f = calls_device._emit_code((F32, F32, numpy.float32(0), numpy.float32(1)))
    d = calls_device._emit_code((_arr("d"), _arr("d"), 0.0, 1.0))
    assert "__device__" in f and "ca_jit_dev_clip_scale" in f
    assert "float ca_jit_dev_clip_scale" in f and "float ca_jit_dev_clip_scale" in d  # Python floats: float32


def test_mode_numpy_types_python_scalars_as_64_bit():
    @jit.rawkernel(mode="numpy")
    def k(x, n, s):
        x[0] = n * s

    code = k._emit_code((_arr("d"), 3, 2.5))
    assert "long long v_n" in code and "double v_s" in code


def test_launch_configuration_forms():
    with pytest.raises(TypeError):
        elementwise_copy[1]
    with pytest.raises(TypeError):
        elementwise_copy[1, 2, 3, 4, 5]
    assert callable(elementwise_copy[128, 1024]) and callable(elementwise_copy[(1, 1), (32, 32), None, 0])


def test_builtins_cannot_be_called_from_python():
    with pytest.raises(RuntimeError, match="only inside a cuarray.jit kernel"):
        jit.syncthreads()
    with pytest.raises(RuntimeError):
        jit.grid(1)


def test_public_names():
    for name in ("rawkernel", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpsize", "grid", "gridsize",
                 "laneid", "range", "syncthreads", "syncwarp", "shared_memory", "shfl_sync", "shfl_up_sync",
                 "shfl_down_sync", "shfl_xor_sync", "atomic_add", "atomic_sub", "atomic_exch", "atomic_min",
                 "atomic_max", "atomic_inc", "atomic_dec", "atomic_cas", "atomic_and", "atomic_or", "atomic_xor"):
        assert hasattr(jit, name), name
    assert callable(jit.cg.this_grid) and callable(jit.cg.this_thread_block)
    assert cp.jit is jit


# --- error messages: Python exceptions naming the line, never an NVRTC log


def test_undefined_name_is_a_name_error_with_the_line():
    @jit.rawkernel()
    def k(x):
        x[0] = undefined_thing + 1  # noqa: F821

    with pytest.raises(NameError, match=r"(?s)undefined_thing.*line \d+.*x\[0\] = undefined_thing"):
        k._emit_code((F32,))


def test_type_errors_name_the_line():
    @jit.rawkernel()
    def float_to_int(x, y):
        i = 0
        i = x[0]
        y[0] = i

    with pytest.raises(TypeError, match=r"(?s)same_kind.*i = x\[0\]"):
        float_to_int._emit_code((F32, _arr("i")))

    @jit.rawkernel()
    def float_index(x):
        x[x[0]] = 1

    with pytest.raises(TypeError, match="indices must be integers"):
        float_index._emit_code((F32,))

    @jit.rawkernel()
    def bitwise_float(x):
        x[0] = x[1] | x[2]

    with pytest.raises(TypeError, match=r"'\|' operator"):
        bitwise_float._emit_code((F32,))

    @jit.rawkernel()
    def too_many(x):
        x[0, 1] = 1

    with pytest.raises(IndexError, match="too many indices"):
        too_many._emit_code((F32,))


def test_unsupported_syntax():
    @jit.rawkernel()
    def uses_try(x):
        try:
            x[0] = 1
        except Exception:
            pass

    with pytest.raises(ValueError, match=r"(?s)try.*line"):
        uses_try._emit_code((F32,))

    @jit.rawkernel()
    def uses_lambda(x):
        f = lambda v: v  # noqa: E731
        x[0] = f(1)

    with pytest.raises(NotImplementedError, match="lambda"):
        uses_lambda._emit_code((F32,))

    @jit.rawkernel()
    def iterates_array(x):
        for v in x:
            x[0] = v

    with pytest.raises(NotImplementedError, match="range"):
        iterates_array._emit_code((F32,))

    @jit.rawkernel()
    def returns_value(x):
        return x[0]

    with pytest.raises(TypeError, match="must not return|cannot return"):
        returns_value._emit_code((F32,))


def test_bad_builtin_arguments():
    @jit.rawkernel()
    def bad_grid(x):
        x[0] = jit.grid(4)

    with pytest.raises(ValueError, match="ndim"):
        bad_grid._emit_code((F32,))

    @jit.rawkernel()
    def bad_atomic(x):
        jit.atomic_sub(x, 0, 1.0)

    with pytest.raises(TypeError, match="atomic_sub` does not support float32"):
        bad_atomic._emit_code((F32,))

    @jit.rawkernel()
    def bad_shared(x):
        s = jit.shared_memory(numpy.float32, x.size)
        s[0] = 1

    with pytest.raises(TypeError, match="compile-time constant"):
        bad_shared._emit_code((F32,))


def test_unsupported_argument_types():
    with pytest.raises(TypeError, match="not supported for RawKernel"):
        elementwise_copy._emit_code(([1, 2], F32, 1))
    with pytest.raises(TypeError, match="takes 3 arguments"):
        elementwise_copy._emit_code((F32, F32))


def test_device_function_cannot_be_launched_and_kernels_cannot_be_called():
    with pytest.raises(TypeError, match="device function"):
        clip_scale((1,), (1,), (1.0, 0.0, 2.0))

    @jit.rawkernel()
    def calls_kernel(x):
        increment_2d(x)

    with pytest.raises(TypeError, match="__global__"):
        calls_kernel._emit_code((_arr("f", (2, 2)),))


def test_recursion_is_refused():
    code = """
from cuarray import jit

@jit.rawkernel(device=True)
def rec(n):
    if n <= 0:
        return 0
    return rec(n - 1) + 1

@jit.rawkernel()
def k(x):
    x[0] = rec(x[1])
"""
    import importlib.util
    import sys
    import tempfile
    import os
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "jit_rec_mod.py")
        with open(path, "w") as f:
            f.write(code)
        spec = importlib.util.spec_from_file_location("jit_rec_mod", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["jit_rec_mod"] = mod
        try:
            spec.loader.exec_module(mod)
            with pytest.raises(ValueError, match="recursive"):
                mod.k._emit_code((_arr("i"),))
        finally:
            del sys.modules["jit_rec_mod"]


# ---------------------------------------------------------------------------------------------------------
# GPU: results against NumPy


@gpu
@pytest.mark.parametrize("dtype", ["?", "b", "H", "i", "l", "L", "e", "f", "d", "F", "D"])
def test_grid_stride_copy_both_launch_styles(dtype):
    rng = numpy.random.default_rng(0)
    h = (rng.standard_normal(100003) * 10).astype(dtype)
    x = cp.asarray(h)
    y = cp.zeros_like(x)
    elementwise_copy((128,), (1024,), (x, y, numpy.int32(x.size)))
    numpy.testing.assert_array_equal(y.get(), h)
    y2 = cp.zeros_like(x)
    elementwise_copy[128, 1024](x, y2, x.size)
    numpy.testing.assert_array_equal(y2.get(), h)


@gpu
def test_copy_of_strided_views():
    h = numpy.arange(60, dtype=numpy.float32).reshape(6, 10)
    x = cp.asarray(h)[:, ::-3]
    y = cp.zeros(x.size, dtype=numpy.float32)

    @jit.rawkernel()
    def flatten(a, out):
        i, j = jit.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            out[i * a.shape[1] + j] = a[i, j]

    flatten[(1, 1), (8, 8)](x, y)
    numpy.testing.assert_array_equal(y.get(), h[:, ::-3].ravel())


@gpu
@pytest.mark.parametrize("dtype", ["i", "f", "d", "e"])
def test_increment_2d(dtype):
    h = numpy.arange(37 * 45).reshape(37, 45).astype(dtype)
    a = cp.asarray(h)
    increment_2d[(3, 4), (16, 16)](a)
    numpy.testing.assert_array_equal(a.get(), h + 1)
    base = cp.asarray(h)
    increment_2d[(3, 4), (16, 16)](base[::2, 1::3])
    expect = h.copy()
    expect[::2, 1::3] += 1
    numpy.testing.assert_array_equal(base.get(), expect)


@gpu
@pytest.mark.parametrize("shape", [(64, 48, 32), (50, 37, 41), (1, 1, 1)])
def test_tiled_matmul(shape):
    n, k, m = shape
    rng = numpy.random.default_rng(1)
    A = rng.standard_normal((n, k)).astype(numpy.float32)
    Bm = rng.standard_normal((k, m)).astype(numpy.float32)
    C = cp.zeros((n, m), numpy.float32)
    grid = ((m + TPB - 1) // TPB, (n + TPB - 1) // TPB)
    tiled_matmul[grid, (TPB, TPB)](cp.asarray(A), cp.asarray(Bm), C)
    numpy.testing.assert_allclose(C.get(), A @ Bm, rtol=1e-4, atol=1e-4)


@gpu
def test_diffusion_stencil():
    rng = numpy.random.default_rng(2)
    h = rng.random((70, 53)).astype(numpy.float32)
    u, v = cp.asarray(h), cp.empty((70, 53), numpy.float32)
    grid = ((53 + TPB - 1) // TPB, (70 + TPB - 1) // TPB)
    ref = h.copy()
    for _ in range(5):
        diffusion_step[grid, (TPB, TPB)](u, v, numpy.float32(0.2))
        u, v = v, u
        nxt = ref.copy()
        nxt[1:-1, 1:-1] = ref[1:-1, 1:-1] + numpy.float32(0.2) * (
            ref[1:-1, :-2] + ref[1:-1, 2:] + ref[:-2, 1:-1] + ref[2:, 1:-1] - 4 * ref[1:-1, 1:-1])
        ref = nxt
    numpy.testing.assert_allclose(u.get(), ref, rtol=1e-5, atol=1e-6)


@gpu
@pytest.mark.parametrize("n", [1, 255, 256, 10000])
def test_block_reduction_with_atomic_add(n):
    h = numpy.random.default_rng(3).random(n).astype(numpy.float32)
    out = cp.zeros(1, numpy.float32)
    block_sum[(n + 255) // 256, 256](cp.asarray(h), out)
    numpy.testing.assert_allclose(out.get()[0], h.sum(dtype=numpy.float64), rtol=1e-5)


@gpu
@pytest.mark.parametrize("dtype", ["i", "f", "d"])
def test_warp_shuffle_reduction(dtype):
    h = (numpy.random.default_rng(4).random(5000) * 100).astype(dtype)
    out = cp.zeros(1, dtype)
    warp_sum[(5000 + 127) // 128, 128](cp.asarray(h), out)
    numpy.testing.assert_allclose(out.get()[0], h.sum(), rtol=1e-5)


@gpu
@pytest.mark.parametrize("dtype", ["f", "d", "l"])
def test_kernel_calling_device_function(dtype):
    h = (numpy.random.default_rng(5).standard_normal(1000) * 3).astype(dtype)
    y = cp.zeros(1000, dtype)
    lo, hi = numpy.dtype(dtype).type(-1), numpy.dtype(dtype).type(1)
    calls_device[4, 256](cp.asarray(h), y, lo, hi)
    numpy.testing.assert_array_equal(y.get(), numpy.where(h < lo, lo, numpy.where(h > hi, hi, h * 2)))


@gpu
def test_cooperative_grid_sync():
    n = 64 * 256
    x, y = cp.zeros(n, numpy.int64), cp.zeros(n, numpy.int64)
    for _ in range(3):  # the barrier's words must be reusable across launches
        grid_sync_kernel[64, 256](x, y)
        numpy.testing.assert_array_equal(y.get(), (numpy.arange(n)[::-1] * 2) + 1)


@gpu
def test_dynamic_shared_memory():
    h = numpy.arange(300, dtype=numpy.float64)
    y = cp.zeros(300, numpy.float64)
    dynamic_shared((3,), (100,), (cp.asarray(h), y), shared_mem=100 * 8)
    numpy.testing.assert_array_equal(y.get(), h.reshape(3, 100)[:, ::-1].ravel())


@gpu
@pytest.mark.parametrize("dtype", ["f", "d"])
def test_math_functions(dtype):
    h = numpy.linspace(-3, 3, 101).astype(dtype)
    y = cp.zeros_like(cp.asarray(h))
    math_kernel[1, 128](cp.asarray(h), y)
    # Python float literals are float32 in 'cuda' mode: 0.5 and 2.0 are exact either way.
    expect = (numpy.sqrt(numpy.abs(h)) + numpy.exp(-h * h) + numpy.maximum(h, 0.5) - numpy.minimum(h, -0.5)
              + numpy.arctan2(h, numpy.dtype(dtype).type(2.0)))
    numpy.testing.assert_allclose(y.get(), expect, rtol=1e-5 if dtype == "f" else 1e-12)


@gpu
@pytest.mark.parametrize("dtype", ["b", "i", "l", "I"])
def test_integer_division_follows_python(dtype):
    rng = numpy.random.default_rng(6)
    info = numpy.iinfo(dtype)
    a = rng.integers(max(info.min, -50), min(info.max, 50), 500).astype(dtype)
    b = rng.integers(max(info.min, -7), 8, 500).astype(dtype)
    b[b == 0] = 3
    b[:3] = 0
    outs = [cp.zeros(500, dtype) for _ in range(3)]
    int_ops[2, 256](cp.asarray(a), cp.asarray(b), *outs)
    with numpy.errstate(all="ignore"):
        numpy.testing.assert_array_equal(outs[0].get(), numpy.floor_divide(a, b))
        numpy.testing.assert_array_equal(outs[1].get(), numpy.remainder(a, b))
        three = numpy.dtype(dtype).type(3) if dtype != "b" else numpy.int32(3)
        p = numpy.where(a > b, ((a * three) ^ (b << numpy.dtype(dtype).type(1))).astype(dtype), -a)
    numpy.testing.assert_array_equal(outs[2].get(), p.astype(dtype))


@gpu
def test_control_flow():
    x = numpy.array([1, 6, 7, 27, 2, 97], numpy.int64)
    out = cp.zeros(6, numpy.int64)
    control_flow[1, 32](cp.asarray(x), out)

    def ref(i, k):
        acc = sum(range(10, -1, -3))
        n = 0
        while k > 1:
            n += 1
            k = k // 2 if k % 2 == 0 else 3 * k + 1
        step = -1 if i % 2 == 0 else 2
        m = len(range(5, 0 if step < 0 else 9, step))
        return acc * 1000000 + n * 100 + m

    numpy.testing.assert_array_equal(out.get(), [ref(i, int(k)) for i, k in enumerate(x)])


@gpu
def test_nd_indexing_and_subarrays():
    h = numpy.arange(2 * 3 * 4, dtype=numpy.float32).reshape(2, 3, 4)
    out = cp.zeros((2, 3, 4), numpy.float32)
    nd_index[(1, 1, 1), (2, 4, 4)](cp.asarray(h), out)
    numpy.testing.assert_array_equal(out.get(), h * 2 + 3 + 2)
    hs = numpy.ascontiguousarray(h[:, ::-1])
    out2 = cp.zeros((2, 3, 4), numpy.float32)
    nd_index[(1, 1, 1), (2, 4, 4)](cp.asarray(h)[:, ::-1], out2)
    numpy.testing.assert_array_equal(out2.get(), hs * 2 + 3 + 2)


@gpu
@pytest.mark.parametrize("dtype", ["i", "I"])
def test_atomics(dtype):
    vals = numpy.arange(1, 65).astype(dtype)
    a0 = numpy.array([0, 10000, 0, 1000, 0, -1 if dtype == "i" else numpy.iinfo(dtype).max, 0, 0, 0]).astype(dtype)
    a = cp.asarray(a0)
    atomics[1, 64](a, cp.asarray(vals))
    got = a.get()
    assert got[0] == vals.sum()
    assert got[1] == (a0[1] - vals.sum()).astype(dtype)
    assert got[2] == vals.max() and got[3] == vals.min()
    assert got[4] == numpy.bitwise_or.reduce(vals)
    assert got[5] == numpy.bitwise_and.reduce(numpy.concatenate([a0[5:6], vals]))
    assert got[6] == numpy.bitwise_xor.reduce(vals)
    assert got[7] in vals and got[8] == 5


@gpu
def test_kernel_cache_per_signature_and_stream_argument():
    x = cp.arange(10, dtype=numpy.float32)
    y = cp.zeros(10, numpy.float32)
    elementwise_copy._cache.clear()
    s = cp.cuda.Stream()
    elementwise_copy((1,), (32,), (x, y, 10), stream=s)
    elementwise_copy((1,), (32,), (x, y, 10))
    assert len(elementwise_copy._cache) == 1
    elementwise_copy((1,), (32,), (x.astype(numpy.float64), y.astype(numpy.float64), 10))
    assert len(elementwise_copy._cache) == 2
    s.synchronize()
    numpy.testing.assert_array_equal(y.get(), numpy.arange(10, dtype=numpy.float32))


# ---------------------------------------------------------------------------------------------------------
# The warm launch (Note [jit launch] in python/src/raw.cpp): argument codes, packing and keys need no GPU,
# arrays over an address that is never read.

def _fake_device_array(shape, dtype, strides=None, offset=0):
    mem = cp.cuda.UnownedMemory(0x10000000, 1 << 20, object(), device_id=0)
    return cp.ndarray(shape, dtype=dtype, memptr=cp.cuda.MemoryPointer(mem, offset), strides=strides)


def _i64(v):
    return numpy.int64(v).tobytes()


def test_argument_codes_follow_the_signature():
    from cuarray.jit import _types as T
    types = (_interface.arg_type(F32, "cuda"), T.INT32, T.Scalar("f"), T.Scalar("F"), T.INT64, T.Scalar("d"),
             T.BOOL, T.Scalar("L"), T.Scalar("e"), T.Scalar("D"))
    assert _interface._codes(types) == b"AifF......"


def test_jit_pack_lays_out_arrays_and_converts_scalars():
    x = _fake_device_array((3, 4), numpy.float32)
    view = x[::-1, ::2]
    zero_d = _fake_device_array((), numpy.float64, offset=64)
    got = cp._core._jit_pack(b"AAA", (x, view, zero_d))
    ptr = x.data.ptr
    assert got == [_i64(ptr), _i64(12), _i64(3), _i64(4), _i64(16), _i64(4),
                   _i64(view.data.ptr), _i64(6), _i64(3), _i64(2), _i64(-16), _i64(8),
                   _i64(zero_d.data.ptr), _i64(1)]
    assert view.data.ptr == ptr + 32
    got = cp._core._jit_pack(b"iiffFF", (-7, numpy.int32(5), 1.1, numpy.float32(2.5), 1.5 - 2j,
                                          numpy.complex64(3j)))
    assert got == [numpy.int32(-7).tobytes(), numpy.int32(5).tobytes(), numpy.float32(1.1).tobytes(),
                   numpy.float32(2.5).tobytes(), numpy.complex64(1.5 - 2j).tobytes(), numpy.complex64(3j).tobytes()]
    got = cp._core._jit_pack(b".......", (2**40, 2**63 + 5, 1.1, True, 2j, numpy.float16(0.5), numpy.uint8(7)))
    assert got == [_i64(2**40), numpy.uint64(2**63 + 5).tobytes(), numpy.float64(1.1).tobytes(), b"\x01",
                   numpy.complex128(2j).tobytes(), numpy.float16(0.5).tobytes(), b"\x07"]
    with pytest.raises(OverflowError):
        cp._core._jit_pack(b"i", (2**31,))
    with pytest.raises(TypeError, match="host memory"):
        cp._core._jit_pack(b"A", (F32,))
    with pytest.raises(ValueError):
        cp._core._jit_pack(b"AA", (x,))


def test_warm_key_is_the_argument_types():
    call = cp._core._jit_call
    x = _fake_device_array((8,), numpy.float32)
    y = _fake_device_array((8,), numpy.float32, offset=64)

    def key(args, numpy_mode=False, cache=None):
        return call({} if cache is None else cache, (1,), (1,), args, 0, None, numpy_mode)

    k = key((x, y, 10))
    assert isinstance(k, bytes)
    assert key((y, x, 3)) == k  # other arrays and values of the same types
    assert key((x, y, 2**31)) != k  # int64 past int32's range in 'cuda' mode
    assert key((x, y, 10), numpy_mode=True) == key((x, y, 2**31), numpy_mode=True) != k
    assert key((x, y, 10.0)) != k and key((x, y, True)) != k and key((x, y, numpy.int32(10))) != k
    assert key((x, y, numpy.int32(10))) != key((x, y, numpy.int64(10)))
    assert key((_fake_device_array((8,), numpy.float64), y, 10)) != k
    assert key((_fake_device_array((2, 4), numpy.float32), y, 10)) != k
    assert key((x[::2], y, 10)) != k  # contiguity
    # No fast key: Python's arg_type decides (subclasses, unsupported types, out of range, not a tuple).
    sub = type("Sub", (cp.ndarray,), {})((8,), dtype=numpy.float32, memptr=x.data)
    assert key((sub, y, 10)) is False
    assert key((x, y, [1])) is False and key((x, y, 2**64)) is False and key((x, y, -2**63 - 1)) is False
    assert call({}, (1,), (1,), [x, y, 10], 0, None, False) is False
    # A cache entry that is not (RawKernel, codes) is refused before any launch.
    with pytest.raises(TypeError, match="RawKernel"):
        key((x, y, 10), cache={k: (object(), b"AAi")})


def test_cold_launch_errors_come_before_any_launch():
    x = _fake_device_array((8,), numpy.float32)
    with pytest.raises(TypeError, match="tuple"):
        elementwise_copy((1,), (1,), [x, x, 8])
    with pytest.raises(TypeError, match="not supported for RawKernel"):
        elementwise_copy((1,), (1,), (x, [1], 8))
    with pytest.raises(OverflowError):
        elementwise_copy((1,), (1,), (x, x, 2**64))
    with pytest.raises(TypeError, match="device function"):
        clip_scale[1, 1](1.0, 0.0, 2.0)
    with pytest.raises(TypeError, match="keyword"):
        elementwise_copy[1, 1](x, x, size=8)
    assert elementwise_copy[128, 1024] is elementwise_copy[128, 1024]  # the warm launcher is kept


@jit.rawkernel()
def store_scalar(out, v):
    out[0] = v


@jit.rawkernel(mode="numpy")
def store_scalar_numpy_mode(out, v):
    out[0] = v


@gpu
@pytest.mark.parametrize("dtype,value", [
    (numpy.float32, 1.25), (numpy.float64, numpy.float64(2.5)), (numpy.complex64, 1.5 - 2j),
    (numpy.complex128, numpy.complex128(0.5 + 4j)), (numpy.int32, -7), (numpy.int32, numpy.int32(-3)),
    (numpy.int64, 2**40), (numpy.uint64, 2**63 + 5), (numpy.bool_, True), (numpy.float16, numpy.float16(0.5)),
    (numpy.uint8, numpy.uint8(200))])
def test_scalar_arguments_reach_the_kernel(dtype, value):
    for launch in ("call", "config"):
        for _ in range(2):  # cold, then warm
            out = cp.zeros(1, dtype)
            if launch == "call":
                store_scalar((1,), (1,), (out, value))
            else:
                store_scalar[1, 1](out, value)
            assert out.get()[0] == dtype(value), (launch, out.get())


@gpu
def test_mode_numpy_python_scalars_reach_the_kernel_as_64_bit():
    for dtype, value in ((numpy.float64, 1.1), (numpy.int64, 7), (numpy.int64, -2**40)):
        for _ in range(2):
            out = cp.zeros(1, dtype)
            store_scalar_numpy_mode((1,), (1,), (out, value))
            assert out.get()[0] == dtype(value)


def test_kept_launchers_are_for_exact_int_configurations_only():
    a = elementwise_copy[4, 32]
    assert elementwise_copy[4, 32] is a
    assert elementwise_copy[4.0, 32] is not a  # equal as a dict key, but a float grid is refused at the launch
    assert elementwise_copy[(4,), (32,)] is not a
