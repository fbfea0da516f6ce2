"""cuFFT plan cache of cuarray.fft, with CuPy's cupy.fft.config API (get_plan_cache(), PlanCache methods).

Each device has one least-recently-used cache of plans, shared by all threads (CuPy's is per thread). A plan
borrows its work area from the memory pool on each execution, so memsize counts the work area of the cached
plans as they run, not memory they hold. A limit of -1 is unlimited; 0 disables the cache.
"""
import types

from cuarray import _core

_m = _core.fft

# CuPy's switches: n-dimensional plans are always used where cuFFT can take the axes; multi-GPU is not supported.
use_multi_gpus = False
_enable_nd_planning = True
_ND_PLANNING_DEPRECATED = "enable_nd_planning is deprecated as of CuPy 14 and will always be True in the future."


class _ConfigModule(types.ModuleType):
    """This module's type: enable_nd_planning warns DeprecationWarning when read or set, as CuPy 14's does."""

    @property
    def enable_nd_planning(self):
        """Deprecated (CuPy 14). cuarray plans n-dimensional transforms whatever the value: setting False keeps
        the value for code that reads it back, and changes no result."""
        import warnings
        warnings.warn(_ND_PLANNING_DEPRECATED, DeprecationWarning, stacklevel=2)
        return self._enable_nd_planning

    @enable_nd_planning.setter
    def enable_nd_planning(self, value):
        import warnings
        warnings.warn(_ND_PLANNING_DEPRECATED, DeprecationWarning, stacklevel=2)
        self._enable_nd_planning = bool(value)


def _device_id():
    return _core.get_device_id()


class PlanCache:
    """The cuFFT plan cache of one device (CuPy's PlanCache interface)."""

    def __init__(self, device=None):
        self._dev = _device_id() if device is None else int(device)

    @property
    def dev(self):
        return self._dev

    def _info(self):
        return _m._plan_cache_info(self._dev)

    def get_size(self):
        return self._info()["size"]

    def set_size(self, size):
        _m._set_plan_cache_size(self._dev, size)

    def get_curr_size(self):
        return self._info()["curr_size"]

    def get_memsize(self):
        return self._info()["memsize"]

    def set_memsize(self, size):
        _m._set_plan_cache_memsize(self._dev, size)

    def get_curr_memsize(self):
        return self._info()["curr_memsize"]

    def clear(self):
        _m._clear_plan_cache(self._dev)

    def __len__(self):
        return self.get_curr_size()

    def __iter__(self):
        """(key, memory usage) of each cached plan, most recently used first."""
        return iter(self._info()["entries"])

    def __repr__(self):
        i = self._info()
        enabled = i["size"] != 0 and i["memsize"] != 0
        lines = [
            "------------------- cuFFT plan cache (device {}) -------------------".format(i["device"]),
            "cache enabled? {}".format(enabled),
            "current / max size   : {} / {} (counts)".format(
                i["curr_size"], "(unlimited)" if i["size"] == -1 else i["size"]),
            "current / max memsize: {} / {} (bytes)".format(
                i["curr_memsize"], "(unlimited)" if i["memsize"] == -1 else i["memsize"]),
            "hits / misses: {} / {} (counts)".format(i["hits"], i["misses"]),
            "",
            "cached plans (most recently used first):",
        ]
        lines += ["key: {}, memory usage: {}".format(k, w) for k, w in i["entries"]]
        return "\n".join(lines) + "\n"

    def show_info(self):
        print(self)


def get_plan_cache():
    """The plan cache of the current device."""
    return PlanCache()


def get_plan_cache_size():
    return get_plan_cache().get_size()


def set_plan_cache_size(size):
    get_plan_cache().set_size(size)


def get_plan_cache_max_memsize():
    return get_plan_cache().get_memsize()


def set_plan_cache_max_memsize(size):
    get_plan_cache().set_memsize(size)


def clear_plan_cache():
    get_plan_cache().clear()


def show_plan_cache_info():
    """Print the plan cache of every device."""
    print("=============== cuFFT plan cache info (all devices) ===============")
    for dev in range(max(_core.device_count_or_zero(), 1)):
        PlanCache(dev).show_info()


import sys as _sys  # noqa: E402

_sys.modules[__name__].__class__ = _ConfigModule


# CuPy's multi-GPU switch (issue 17 item 6). cuFFT callbacks (CuPy's set_cufft_callbacks) are not offered: CuPy
# builds them by compiling a Cython module against cuFFT's static library with nvcc at run time, a step cuarray
# (which loads cuFFT dynamically and compiles with NVRTC only) cannot take.
def set_cufft_gpus(gpus):
    """Choose the GPUs of multi-GPU transforms, as CuPy's: an int n (GPUs 0..n-1) or a list of device ids, at
    least two (ValueError otherwise). cuarray runs cuFFT on one GPU, so a valid choice raises RuntimeError, as
    CuPy does where its backend has no multi-GPU FFT."""
    if isinstance(gpus, int):
        devs = list(range(gpus))
    elif isinstance(gpus, list):
        devs = [int(j) for j in gpus]
    else:
        raise ValueError("gpus must be an int or a list of int.")
    if len(devs) <= 1:
        raise ValueError("Must use at least 2 GPUs.")
    raise RuntimeError("cuarray runs cuFFT on one GPU: multi-GPU FFT (cufftXt) is not supported")
