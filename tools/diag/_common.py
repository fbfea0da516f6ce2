"""What the per-call diagnostics share: the small operands, a RawKernel add, and a timed loop."""
import time

import cuarray as cp

dev = cp.cuda.Device()
ADD_SOURCE = r'''
extern "C" __global__ void k1(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }'''


def small_operands():
    """(a, b, c) of one float32 element and (a1k, b1k) of 1024, and a RawKernel computing c = a + b."""
    a = cp.ones(1, cp.float32)
    b = cp.ones(1, cp.float32)
    return a, b, cp.empty_like(a), cp.ones(1024, cp.float32), cp.ones(1024, cp.float32), cp.RawKernel(ADD_SOURCE, 'k1')


def per_call(fn, n):
    """Microseconds per call of `fn(n)` (n calls), with a synchronisation before and after."""
    dev.synchronize()
    t0 = time.perf_counter()
    fn(n)
    dev.synchronize()
    return (time.perf_counter() - t0) / n * 1e6
