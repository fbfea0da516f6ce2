"""cuarray.profiler (benchmark, time_range, profile, plot), cuarray.cuda.profiler and cuarray.time.repeat."""
import os
import subprocess
import sys

import numpy
import pytest

import cuarray as cp
from cuarray import profiler
from cuarray.cuda import profiler as cuda_profiler

gpu = pytest.mark.gpu


# ---------------------------------------------------------------------------------------------------------
# CPU

def _result(n=5, devices=(0,)):
    ts = numpy.vstack([numpy.linspace(1e-6, 5e-6, n)] + [numpy.full(n, 2e-6) for _ in devices])
    return profiler._PerfCaseResult("f", ts, devices=devices)


def test_result_interface():
    r = _result()
    assert r.cpu_times.shape == (5,) and r.gpu_times.shape == (1, 5)
    assert isinstance(r.cpu_times, numpy.ndarray) and isinstance(r.gpu_times, numpy.ndarray)
    s = str(r)
    assert s.startswith("f") and "CPU:" in s and "GPU-0:" in s and "us" in s
    assert "GPU-0" not in r.to_str() and "GPU-0" in r.to_str(show_gpu=True)
    assert repr(r) == s
    two = _result(devices=(0, 1))
    assert two.gpu_times.shape == (2, 5) and "GPU-1:" in str(two)


def test_import_does_not_load_matplotlib():
    code = "import sys, cuarray, cuarray.profiler, cuarray.time; assert 'matplotlib' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ})


class _Axes:
    """Records what a plot draws (matplotlib's Axes methods used by the plots), for machines without it."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda *args, **kwargs: self.calls.append((name, args, kwargs))


def test_plot_draws_on_given_axes():
    ax = _Axes()
    assert _result().plot(ax=ax) is ax
    lines = [c for c in ax.calls if c[0] == "plot"]
    assert [c[2]["label"] for c in lines] == ["CPU", "GPU-0"]
    numpy.testing.assert_allclose(lines[0][1][1], numpy.linspace(1, 5, 5))  # microseconds
    ax = _Axes()
    profiler.plot([_result(), _result(devices=(0,))], [10, 100], ax=ax)
    bars = [c for c in ax.calls if c[0] == "errorbar"]
    assert [c[2]["label"] for c in bars] == ["CPU", "GPU-0"]
    numpy.testing.assert_allclose(bars[1][1][1], [2.0, 2.0])
    assert ("set_xscale", ("log",), {}) in ax.calls


def test_plot():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    r = _result()
    ax = r.plot()
    assert [line.get_label() for line in ax.get_lines()] == ["CPU", "GPU-0"]
    ax2 = cp.profiler.plot([_result(), _result()], [10, 100])
    assert ax2.get_xscale() == "log"
    with pytest.raises(ValueError):
        cp.profiler.plot([_result()], [1, 2])
    with pytest.raises(ValueError):
        cp.profiler.plot([])


def test_benchmark_argument_errors():
    with pytest.raises(ValueError):
        profiler.benchmark(3)
    with pytest.raises(ValueError):
        profiler.benchmark(len, args=[1])
    with pytest.raises(ValueError):
        profiler.benchmark(len, kwargs=3)


def test_time_range_as_decorator_and_context_manager():
    calls = []

    @profiler.time_range()
    def f(x):
        calls.append(x)
        return x + 1

    assert f(1) == 2 and f.__name__ == "f"

    @profiler.time_range("named", color_id=4)
    def g():
        return "g"

    assert g() == "g"

    @profiler.time_range(argb_color=0xFF00FF00)
    def h():
        return "h"

    assert h() == "h"
    with profiler.time_range("block", argb_color=0xFFFF0000):
        calls.append("block")
    assert calls == [1, "block"]
    with pytest.raises(ValueError):
        with profiler.time_range():
            pass
    with pytest.raises(ValueError):
        profiler.time_range("x", color_id=1, argb_color=0xFF000000)


def test_time_range_pops_on_exception():
    with pytest.raises(KeyError):
        with profiler.time_range("failing"):
            raise KeyError("x")


def test_profile_names():
    assert callable(profiler.profile) and callable(cuda_profiler.start) and callable(cuda_profiler.stop)
    if not cp.is_available():
        with pytest.raises(cp.cuda.runtime.CUDARuntimeError):
            with cuda_profiler.profile():
                pass


# ---------------------------------------------------------------------------------------------------------
# GPU

@gpu
def test_benchmark_times():
    a = cp.arange(1000, dtype=numpy.float32)
    r = profiler.benchmark(cp.sin, (a,), n_repeat=20, n_warmup=2)
    assert r.name == "sin"
    assert r.cpu_times.shape == (20,) and r.gpu_times.shape == (1, 20)
    assert (r.cpu_times > 0).all() and (r.gpu_times > 0).all()
    # max_duration cuts the run short: 10**5 repeats of a ~5 µs call would take about half a second
    r = profiler.benchmark(lambda x: x * 2, (a,), n_repeat=100000, max_duration=0.01, name="double")
    assert 1 <= r.cpu_times.size < 100000 and r.name == "double"
    assert r.gpu_times.shape == (1, r.cpu_times.size)


@gpu
def test_time_repeat_warns_and_times():
    with pytest.warns(UserWarning, match="cuarray.profiler.benchmark"):
        r = cp.time.repeat(cp.cos, (cp.ones(10),), n_repeat=3, n_warmup=0)
    assert r.cpu_times.shape == (3,)


@gpu
def test_profile_contexts():
    with profiler.profile():
        cp.ones(10).sum()
    with cuda_profiler.profile():
        cp.ones(10).sum()
    cuda_profiler.start()
    cuda_profiler.stop()


@gpu
def test_time_range_sync():
    with profiler.time_range("sync", sync=True):
        a = cp.ones(10) * 2
    assert float(a.sum()) == 20.0
