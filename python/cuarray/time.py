"""cuarray.time.repeat: CuPy's older name of cuarray.profiler.benchmark (deprecated there as well)."""
import math
import warnings

from cuarray.profiler import _PerfCaseResult, benchmark  # noqa: F401 - _PerfCaseResult for isinstance checks


def repeat(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,  # noqa: B006
           devices=None):
    """Time ``func(*args, **kwargs)`` on the CPU and GPU: cuarray.profiler.benchmark, under CuPy's older name."""
    warnings.warn("cuarray.time.repeat has moved to cuarray.profiler.benchmark; access through cuarray.time is "
                  "deprecated", stacklevel=2)
    return benchmark(func, args, kwargs, n_repeat, name=name, n_warmup=n_warmup, max_duration=max_duration,
                     devices=devices)
