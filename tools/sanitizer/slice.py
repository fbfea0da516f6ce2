"""A representative slice of cuarray for compute-sanitizer: every kernel family once, small and odd shapes.

Run as ``compute-sanitizer --tool memcheck python tools/sanitizer/slice.py --plain-malloc`` (or ``--tool
racecheck``); it checks its own results against NumPy, so a kernel that computes garbage fails here as well as
one that reads out of bounds. ``--plain-malloc`` gives every array its own cudaMalloc instead of a chunk of the
pool, so that memcheck sees each array's exact bounds. Exit status 0 when every check passed; the sanitizer
adds its own error summary.
"""

import sys

import numpy as np

import cuarray as cp

if '--plain-malloc' in sys.argv[1:]:
    cp.cuda.set_allocator(None)

failures = []


def check(name, got, want, tol=1e-5):
    got = cp.asnumpy(got) if isinstance(got, cp.ndarray) else np.asarray(got)
    want = np.asarray(want)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
    if not ok:
        failures.append(name)
        print('MISMATCH', name, got.shape, want.shape, file=sys.stderr)


def raises(name, exc, fn):
    try:
        fn()
    except exc:
        return
    except Exception as e:  # another type: reported, not fatal
        failures.append(name)
        print('WRONG EXCEPTION', name, type(e).__name__, e, file=sys.stderr)
        return
    failures.append(name)
    print('NO EXCEPTION', name, file=sys.stderr)


rng = np.random.default_rng(0)
shapes = [(), (0,), (1,), (7,), (33, 65), (4, 0, 3), (3, 5, 129)]

# Elementwise: ufuncs, casts, broadcasting, non-contiguous and reversed views.
for shape in shapes:
    x = rng.standard_normal(shape).astype(np.float32)
    y = rng.standard_normal(shape[-1:] if shape else ()).astype(np.float32)
    gx, gy = cp.asarray(x), cp.asarray(y)
    check(f'add{shape}', gx + gy, x + y)
    check(f'sin{shape}', cp.sin(gx), np.sin(x))
    check(f'astype{shape}', gx.astype(cp.float16), x.astype(np.float16), 1e-2)
    if x.ndim:
        check(f'reversed{shape}', gx[::-1] * 2, x[::-1] * 2)

# Reductions (shared memory, several blocks) over every axis choice.
for shape in [(1,), (1000,), (33, 65), (3, 5, 129), (4, 0, 3), (1 << 17,)]:
    x = rng.standard_normal(shape)
    gx = cp.asarray(x)
    check(f'sum{shape}', gx.sum(), x.sum(), 1e-9)
    for ax in range(x.ndim):
        check(f'sum{shape}/{ax}', gx.sum(axis=ax), x.sum(axis=ax), 1e-9)
        if x.shape[ax]:
            check(f'argmax{shape}/{ax}', gx.argmax(axis=ax), x.argmax(axis=ax))
    if x.size:
        check(f'var{shape}', gx.var(), x.var(), 1e-9)
        check(f'max{shape}', gx.max(), x.max())

# Scans, sorting, searching, set functions, selection, counting.
for n in [0, 1, 17, 4097, 1 << 16]:
    x = rng.integers(-50, 50, n).astype(np.int32)
    gx = cp.asarray(x)
    check(f'cumsum{n}', cp.cumsum(gx), np.cumsum(x))
    check(f'sort{n}', cp.sort(gx), np.sort(x))
    check(f'argsort{n}', cp.argsort(gx, kind='stable'), np.argsort(x, kind='stable'))
    check(f'unique{n}', cp.unique(gx), np.unique(x))
    check(f'nonzero{n}', cp.nonzero(gx)[0], np.nonzero(x)[0])
    check(f'searchsorted{n}', cp.searchsorted(cp.sort(gx), gx), np.searchsorted(np.sort(x), x))
    check(f'histogram{n}', cp.histogram(gx, bins=13, range=(-50, 50))[0], np.histogram(x, bins=13, range=(-50, 50))[0])
    check(f'bincount{n}', cp.bincount(gx + 50), np.bincount(x + 50))
    if n > 3:
        check(f'partition{n}', cp.partition(gx, 3)[3], np.partition(x, 3)[3])
x = rng.standard_normal((64, 300)).astype(np.float32)
check('cumsum-rows', cp.cumsum(cp.asarray(x), axis=1), np.cumsum(x, axis=1), 1e-3)
check('sort-rows', cp.sort(cp.asarray(x), axis=1), np.sort(x, axis=1))

# Indexing: integer and boolean arrays, take/put/compress, empty axes, assignment.
a = rng.standard_normal((6, 5))
ga = cp.asarray(a)
idx = np.array([4, 0, -1, 2])
check('getitem-int', ga[cp.asarray(idx)], a[idx])
check('getitem-bool', ga[ga > 0], a[a > 0])
check('take', cp.take(ga, cp.asarray(idx), axis=1), np.take(a, idx, axis=1))
check('take-clip', cp.take(ga, cp.asarray([9, -9]), mode='clip'), np.take(a, [9, -9], mode='clip'))
check('compress', cp.compress(cp.asarray([True, False, True]), ga, axis=0), np.compress([True, False, True], a, axis=0))
b = a.copy()
gb = cp.asarray(b)
b[idx] = -1
gb[cp.asarray(idx)] = -1
check('setitem-int', gb, b)
empty = cp.zeros((3, 0))
raises('take-empty-axis', IndexError, lambda: cp.take(empty, cp.asarray(np.arange(5, dtype=np.uint8)), axis=1))
raises('setitem-empty', IndexError, lambda: cp.zeros(0).__setitem__(cp.asarray([4, 0, 3]), -1))
raises('compress-beyond', IndexError, lambda: cp.compress(cp.asarray([False] * 8 + [True]), cp.zeros(3)))

# Manipulation.
check('transpose-copy', cp.ascontiguousarray(ga.T), a.T)
check('concatenate', cp.concatenate([ga, ga[::-1]]), np.concatenate([a, a[::-1]]))
check('pad', cp.pad(ga, 2, mode='reflect'), np.pad(a, 2, mode='reflect'))
check('tile', cp.tile(ga, (2, 3)), np.tile(a, (2, 3)))
check('repeat', cp.repeat(ga, 3, axis=0), np.repeat(a, 3, axis=0))

# Libraries: cuBLAS, cuSOLVER, cuFFT, random.
m = rng.standard_normal((40, 40)) + 40 * np.eye(40)
gm = cp.asarray(m)
check('matmul', gm @ gm, m @ m, 1e-9)
check('solve', cp.linalg.solve(gm, gm[:, :3]), np.linalg.solve(m, m[:, :3]), 1e-9)
check('svd', cp.linalg.svd(gm, compute_uv=False), np.linalg.svd(m, compute_uv=False), 1e-9)
check('eigh', cp.linalg.eigh(gm + gm.T)[0], np.linalg.eigh(m + m.T)[0], 1e-9)
check('fft', cp.fft.fft(ga, axis=0), np.fft.fft(a, axis=0), 1e-9)
check('rfft2', cp.fft.rfft2(ga), np.fft.rfft2(a), 1e-9)
r = cp.random.default_rng(1)
u = r.random(10001)
check('random-range', (u >= 0).all() & (u < 1).all(), True)
check('normal-mean', abs(float(r.standard_normal(1 << 16).mean())) < 0.05, True)

# diff's kernel (src/kernels/diff_kernels.cu): the flat kernel's vectors and the element after each, which
# reaches the input's last element; the scalar path of a view one element off alignment; the rows kernel.
for dt in (np.float32, np.float64, np.int8, np.float16, np.complex128, np.bool_):
    for n in (1, 2, 5, 17, 33, 1025):
        h = (np.arange(n) % 7 - 3).astype(dt)
        check(f'diff-{np.dtype(dt).name}-{n}', cp.diff(cp.asarray(h)).astype(cp.complex128),
              np.diff(h).astype(np.complex128))
h = np.arange(30, dtype=np.float32) ** 2
check('diff-offset-view', cp.diff(cp.asarray(h)[1:]), np.diff(h[1:]))
check('diff-n2', cp.diff(cp.asarray(h), n=2), np.diff(h, n=2))
h2 = (np.arange(7 * 9, dtype=np.int32) ** 2).reshape(7, 9)
check('diff-axis0', cp.diff(cp.asarray(h2), axis=0), np.diff(h2, axis=0))
check('diff-axis1', cp.diff(cp.asarray(h2), axis=1), np.diff(h2, axis=1))

# Contiguous fills: the 16-byte vectors and the single items before and after them (Note [contiguous fill]), up
# to the end of each allocation, from its start and from one item in; 1-D strided moves as runs of elements a
# thread (Note [copy runs]), forwards and backwards.
for dt in (np.int8, np.int16, np.float32, np.float64, np.complex128):
    for n in (1, 3, 17, 1000, 4099):
        for s in (0, 1):
            g, h = cp.zeros(n, dt), np.zeros(n, dt)
            g[s:].fill(5)
            h[s:] = 5
            check(f'fill-{np.dtype(dt).name}-{n}-{s}', g, h)
    h = (np.arange(5003) % 11).astype(dt)
    for step in (2, -3):
        check(f'strided-copy-{np.dtype(dt).name}-{step}', cp.asarray(h)[::step].copy(), h[::step])

# Custom kernels.
k = cp.RawKernel(r'''extern "C" __global__ void scale(const float* x, float* y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * s;
}''', 'scale')
xf = cp.arange(1000, dtype=cp.float32)
yf = cp.empty_like(xf)
k((4,), (256,), (xf, yf, np.float32(2), np.int32(1000)))
check('rawkernel', yf, np.arange(1000, dtype=np.float32) * 2)
raises('rawkernel-args', TypeError, lambda: k((4,), (256,), (xf, yf)))
ek = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x * y + 1', 'fma1')
check('elementwise-kernel', ek(xf, xf), np.arange(1000, dtype=np.float32) ** 2 + 1)
rk = cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = a', '0', 'sumsq')
check('reduction-kernel', rk(xf[:100]), (np.arange(100, dtype=np.float32) ** 2).sum())

cp.cuda.Device().synchronize()
print(f'sanitizer slice: {len(failures)} failed checks' + (': ' + ', '.join(failures) if failures else ''))
sys.exit(1 if failures else 0)
