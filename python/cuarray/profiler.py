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
