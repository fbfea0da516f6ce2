"""cuarray.profiler.benchmark: CPU and GPU times of a function, as cupyx.profiler.benchmark reports them."""
import math
import time

import numpy

from cuarray import _core


class _PerfCaseResult:
    """Times of repeated runs: ``cpu_times`` (seconds, shape (n,)) and ``gpu_times`` (seconds, shape
    (n_devices, n))."""

    def __init__(self, name, ts, devices):
        assert ts.ndim == 2 and ts.shape[0] == len(devices) + 1
        self.name = name
        self._ts = ts
        self._devices = devices

    @property
    def cpu_times(self):
        return self._ts[0]

    @property
    def gpu_times(self):
        return self._ts[1:]

    @staticmethod
    def _to_str_per_item(device_name, t):
        assert t.ndim == 1
        t_us = t * 1e6
        s = f"    {device_name}: {t_us.mean():9.3f} us"
        if t.size > 1:
            s += f"   +/- {t_us.std():6.3f} (min: {t_us.min():9.3f} / max: {t_us.max():9.3f}) us"
        return s

    def to_str(self, show_gpu=False):
        results = [self._to_str_per_item("CPU", self._ts[0])]
        if show_gpu:
            for i, d in enumerate(self._devices):
                results.append(self._to_str_per_item(f"GPU-{d}", self._ts[1 + i]))
        return f"{self.name:<20s}:{' '.join(results)}"

    def __str__(self):
        return self.to_str(show_gpu=True)

    __repr__ = __str__


def benchmark(func, args=(), kwargs=None, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,
              devices=None):
    """Run ``func(*args, **kwargs)`` ``n_warmup`` times, then up to ``n_repeat`` times (or until
    ``max_duration`` seconds have passed), recording the host time of each call and the GPU time between
    events recorded before and after it on the current stream of each device in ``devices``."""
    from cuarray.cuda import Device, Event, get_current_stream, get_elapsed_time

    if kwargs is None:
        kwargs = {}
    if name is None:
        name = getattr(func, "__name__", "func")
    if devices is None:
        devices = (_core.get_device_id(),)
    if not callable(func):
        raise ValueError("`func` should be a callable object.")
    if not isinstance(args, tuple):
        raise ValueError("`args` should be of tuple type.")
    if not isinstance(kwargs, dict):
        raise ValueError("`kwargs` should be of dict type.")
    if not isinstance(n_repeat, int) or n_repeat <= 0:
        raise ValueError("`n_repeat` should be a positive integer.")
    if not isinstance(n_warmup, int) or n_warmup < 0:
        raise ValueError("`n_warmup` should be a non-negative integer.")

    events_1 = []
    events_2 = []
    for d in devices:
        with Device(d):
            events_1.append(Event())
            events_2.append(Event())

    for _ in range(n_warmup):
        func(*args, **kwargs)

    ev1 = [[] for _ in devices]
    ev2 = [[] for _ in devices]
    cpu_times = []
    duration = 0.0
    for i in range(n_repeat):
        for k, d in enumerate(devices):
            with Device(d):
                e = Event()
                e.record(get_current_stream())
                ev1[k].append(e)
        t1 = time.perf_counter()
        func(*args, **kwargs)
        t2 = time.perf_counter()
        cpu_times.append(t2 - t1)
        for k, d in enumerate(devices):
            with Device(d):
                e = Event()
                e.record(get_current_stream())
                ev2[k].append(e)
        duration += time.perf_counter() - t1
        if duration > max_duration:
            break

    n = len(cpu_times)
    ts = numpy.empty((len(devices) + 1, n), dtype=numpy.float64)
    ts[0] = cpu_times
    for k, d in enumerate(devices):
        with Device(d):
            for i in range(n):
                ev2[k][i].synchronize()
                ts[1 + k, i] = get_elapsed_time(ev1[k][i], ev2[k][i]) * 1e-3
    return _PerfCaseResult(name, ts, devices=tuple(devices))


# ---------------------------------------------------------------------------------------------------------
# Plots of benchmark results, NVTX ranges and the CUDA profiler's start/stop (issue 17).

def _plot_result(self, ax=None, show_gpu=True):
    """Draw the time of each run (microseconds) on the CPU and, with ``show_gpu``, on each device; matplotlib
    is imported here, on first use. Returns the axes."""
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots()
    runs = numpy.arange(self._ts.shape[1])
    ax.plot(runs, self.cpu_times * 1e6, label="CPU")
    if show_gpu:
        for k, d in enumerate(self._devices):
            ax.plot(runs, self.gpu_times[k] * 1e6, label=f"GPU-{d}")
    ax.set_xlabel("run")
    ax.set_ylabel("time (us)")
    ax.set_title(self.name)
    ax.legend()
    return ax


_PerfCaseResult.plot = _plot_result


def plot(results, x=None, ax=None, show_gpu=True, xlabel="size"):
    """Draw the mean CPU and GPU times (microseconds, with the standard deviation as error bars) of several
    benchmark results against ``x`` (e.g. the sizes benchmarked; 0, 1, 2... by default), log-log::

        sizes = [2**k for k in range(10, 25, 2)]
        results = [benchmark(f, (cuarray.ones(n),), n_repeat=100) for n in sizes]
        cuarray.profiler.plot(results, sizes)

    matplotlib is imported here, on first use. Returns the axes."""
    results = list(results)
    if not results:
        raise ValueError("plot needs at least one benchmark result")
    if x is None:
        x = list(range(len(results)))
    if len(x) != len(results):
        raise ValueError(f"x has {len(x)} values for {len(results)} results")
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots()
    cpu = numpy.array([r.cpu_times.mean() for r in results]) * 1e6
    cpu_err = numpy.array([r.cpu_times.std() for r in results]) * 1e6
    ax.errorbar(x, cpu, yerr=cpu_err, marker="o", label="CPU")
    if show_gpu:
        for k, d in enumerate(results[0]._devices):
            gpu = numpy.array([r.gpu_times[k].mean() for r in results]) * 1e6
            gpu_err = numpy.array([r.gpu_times[k].std() for r in results]) * 1e6
            ax.errorbar(x, gpu, yerr=gpu_err, marker="s", label=f"GPU-{d}")
    if all(isinstance(v, (int, float)) and v > 0 for v in x):
        ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("time (us)")
    ax.legend()
    return ax


class time_range:
    """Mark a range in Nsight timelines with NVTX: a decorator (``@time_range()``: each call is a range named
    after the function, unless ``message`` is given) or a context manager (``with time_range('step'):``).
    ``color_id`` picks one of NVTX's colors, ``argb_color`` gives one (0xAARRGGBB); ``sync`` synchronises the
    device at both ends, so that the range covers the GPU work too."""

    def __init__(self, message=None, color_id=None, argb_color=None, sync=False):
        if color_id is not None and argb_color is not None:
            raise ValueError("Only either color_id or argb_color can be specified")
        self.message = message
        self.color_id = color_id if color_id is not None else -1
        self.argb_color = argb_color
        self.sync = sync

    def __enter__(self):
        from cuarray.cuda import nvtx, runtime
        if self.message is None:
            raise ValueError("when used as a context manager, the message argument cannot be None")
        if self.sync:
            runtime.deviceSynchronize()
        if self.argb_color is not None:
            nvtx.RangePushC(self.message, self.argb_color)
        else:
            nvtx.RangePush(self.message, self.color_id)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        from cuarray.cuda import nvtx, runtime
        if self.sync:
            runtime.deviceSynchronize()
        nvtx.RangePop()

    def __call__(self, func):
        import functools

        message = self.message if self.message is not None else func.__name__

        @functools.wraps(func)
        def inner(*args, **kwargs):
            with time_range(message, None if self.argb_color is not None else self.color_id, self.argb_color,
                            self.sync):
                return func(*args, **kwargs)
        return inner


def profile():
    """A context manager that runs the CUDA profiler (cudaProfilerStart/Stop) over its block; with
    ``nsys profile -c cudaProfilerApi`` only that block is recorded."""
    from cuarray.cuda import profiler as _cuda_profiler
    return _cuda_profiler.profile()
