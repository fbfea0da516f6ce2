"""Host-bound or device-bound? Per-call time of long loops (the launch queue fills, so the slower of host
enqueue and device execution sets the pace) against short ones (host enqueue only), for the empty-kernel
floor, a RawKernel add, the C++ ufunc loop and Python operators. Run on the GPU machine after building."""
import cuarray as cp
from _common import per_call, small_operands

core = cp._core
a, b, c, a1k, b1k, add = small_operands()


def py(f):
    def run(n):
        for _ in range(n):
            f()
    return run


rows = [
    ("floor (empty kernel, C++)", lambda n: core._launch_floor_us(n)),
    ("4-param add kernel, C++", lambda n: core._launch_params_us(n, 0, a)),
    ("RawKernel add, Python", py(lambda: add((1,), (256,), (a, b, c, 1)))),
    ("ufunc add 1, C++ loop", lambda n: core._ufunc_loop_us("add", a, b, n, None)),
    ("ufunc add 1 out=, C++ loop", lambda n: core._ufunc_loop_us("add", a, b, n, c)),
    ("a + b (1), Python", py(lambda: a + b)),
    ("a1k + b1k, Python", py(lambda: a1k + b1k)),
    ("sin(a1k), Python", py(lambda: cp.sin(a1k))),
]
for name, fn in rows:
    fn(2000)
    short = min(per_call(fn, 300) for _ in range(15))
    long = min(per_call(fn, 100000) for _ in range(2))
    print(f"{short:7.2f} us short (300)  {long:7.2f} us long (100000)   {name}", flush=True)
