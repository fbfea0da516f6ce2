"""The CUDA profiler's start and stop (cuarray.cuda.profiler, CuPy's cupy.cuda.profiler)."""
import contextlib

from cuarray.cuda import runtime


def start():
    """Enable profiling (cudaProfilerStart)."""
    runtime.profilerStart()


def stop():
    """Disable profiling (cudaProfilerStop)."""
    runtime.profilerStop()


@contextlib.contextmanager
def profile():
    """Profile the work inside the block: start() on entry, stop() on exit."""
    start()
    try:
        yield
    finally:
        stop()
