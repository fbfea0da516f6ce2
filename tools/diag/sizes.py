"""Per-call time of `a + b` against the array size (Python operator and the C++ ufunc loop), long loops with
one synchronisation: does the element count change the host path? Run on the GPU machine after building."""
import cuarray as cp
from _common import per_call

core = cp._core

for size in (1, 2, 4, 8, 16, 64, 256, 1024, 4096):
    a = cp.ones(size, cp.float32)
    b = cp.ones(size, cp.float32)

    def py(n):
        for _ in range(n):
            a + b

    cpp = lambda n: core._ufunc_loop_us("add", a, b, n, None)
    py(2000)
    cpp(2000)
    t_py = min(per_call(py, 20000) for _ in range(5))
    t_cpp = min(per_call(cpp, 20000) for _ in range(5))
    print(f"size {size:5d}: python {t_py:6.2f} us   C++ loop {t_cpp:6.2f} us", flush=True)
print(f"floor {min(per_call(core._launch_floor_us, 20000) for _ in range(5)):6.2f} us")
