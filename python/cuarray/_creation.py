"""Array creation and conversion: argument handling over the compiled creation functions."""
import inspect
import math
import operator

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray._array_api import _device_scope

_SUPPORTED_KINDS = "biufc"


def _native(host):
    """A NumPy array in native byte order with a dtype cuarray supports (TypeError otherwise)."""
    dt = host.dtype
    if dt.kind not in _SUPPORTED_KINDS or dt.fields is not None or dt.subdtype is not None:
        raise TypeError(f"cuarray does not support dtype {dt!r}")
    if not dt.isnative:
        host = host.astype(dt.newbyteorder("="))
    return host


def _contains_device_array(obj):
    if isinstance(obj, ndarray):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_contains_device_array(x) for x in obj)
    return False


def _nested_shape_and_dtype(obj):
    if isinstance(obj, ndarray):
        return obj.shape, obj.dtype
    if isinstance(obj, (list, tuple)):
        if not obj:
            return (0,), numpy.dtype(numpy.float64)
        shapes, dtypes = zip(*(_nested_shape_and_dtype(x) for x in obj))
        if any(s != shapes[0] for s in shapes):
            raise ValueError("setting an array element with a sequence. The requested array has an "
                             "inhomogeneous shape")
        return (len(obj),) + shapes[0], numpy.result_type(*dtypes)
    return (), numpy.asarray(obj).dtype


def _fill_nested(out, obj):
    if isinstance(obj, (list, tuple)):
        for i, x in enumerate(obj):
            _fill_nested(out[i], x)
    else:
        out[...] = obj


def _from_nested(obj, dtype):
    """A list or tuple holding device arrays: assembled on the device, never through the host."""
    shape, dt = _nested_shape_and_dtype(obj)
    out = _core.empty(shape, dt if dtype is None else dtype)
    _fill_nested(out, obj)
    return out


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, blocking=False) -> ndarray:
    """A device array from a device array, an object with __cuda_array_interface__ or DLPack, a NumPy
    array, a (nested) sequence or a scalar. ``copy=None`` copies only when needed; ``copy=False`` raises
    ValueError when a copy is needed (NumPy 2)."""
    if order is None:
        order = "K"
    a = None
    made_new = False
    if isinstance(obj, ndarray):
        a = obj
    elif hasattr(obj, "__cuda_array_interface__"):
        a = _core.from_cuda_array_interface(obj)
    elif hasattr(obj, "__dlpack_device__") and _dlpack_on_cuda(obj):
        a = _core.from_dlpack(obj)
    if a is not None:
        if a._device_id != _core.get_device_id():
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            a = _core.to_device(a, _core.get_device_id())
            made_new = True
        want = a.dtype if dtype is None else numpy.dtype(dtype)
        need_layout = ((order == "C" and not a.flags.c_contiguous) or
                       (order == "F" and not a.flags.f_contiguous) or
                       (order == "A" and not (a.flags.c_contiguous or a.flags.f_contiguous)))
        if copy is True and not made_new:
            a = a.astype(want, order=order, copy=True)
        elif want != a.dtype or need_layout:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            a = a.astype(want, order=order, copy=True)
    else:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        if _contains_device_array(obj):
            a = _from_nested(obj, dtype)
        else:
            if order in ("C", "F"):
                host = numpy.asarray(obj, dtype=dtype, order=order)
            else:
                host = numpy.asarray(obj, dtype=dtype)
                if order == "A" and not (host.flags.c_contiguous or host.flags.f_contiguous):
                    host = numpy.ascontiguousarray(host)
            a = _core.from_numpy(_native(host), order)
    if a.ndim < ndmin:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


def _dlpack_on_cuda(obj):
    try:
        dev_type, _ = obj.__dlpack_device__()
    except Exception:  # noqa: BLE001 - a producer that cannot tell is not a CUDA producer
        return False
    return int(dev_type) in (2, 13)


def asarray(a, dtype=None, order=None, *, device=None, copy=None, blocking=False) -> ndarray:
    """Like array() but without a copy when `a` is already a suitable device array; on `device` if given."""
    with _device_scope(device):
        return array(a, dtype=dtype, copy=copy, order=order if order is not None else "K", blocking=blocking)


def asanyarray(a, dtype=None, order=None, *, blocking=False):
    return asarray(a, dtype=dtype, order=order, blocking=blocking)


def ascontiguousarray(a, dtype=None) -> ndarray:
    return array(a, dtype=dtype, copy=None, order="C", ndmin=1)


def asfortranarray(a, dtype=None):
    return array(a, dtype=dtype, copy=None, order="F", ndmin=1)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """A NumPy array with the data of `a` (device arrays are copied to the host)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out, blocking=blocking)
    if hasattr(a, "__cuda_array_interface__"):
        return asarray(a).get(stream=stream, order=order, out=out, blocking=blocking)
    result = numpy.asarray(a, order=order)
    if out is not None:
        out[...] = result
        return out
    return result


def copy(a, order="K", subok=False):
    return array(a, order=order, copy=True, subok=subok)


def from_dlpack(x, *, device=None, copy=None):
    """A device array sharing memory with a DLPack producer (a host producer is copied to the device); on
    `device` if given, which copies unless the data is there (BufferError for copy=False then)."""
    d = _core.device_arg(device)
    if hasattr(x, "__dlpack_device__") and not _dlpack_on_cuda(x):
        if copy is False:
            raise BufferError("from_dlpack: a host tensor cannot be used without a copy")
        with _device_scope(device):
            return array(numpy.from_dlpack(x))
    a = _core.from_dlpack(x)
    if d >= 0 and d != a._device_id:
        if copy is False:
            raise BufferError(f"from_dlpack: the tensor is on device {a._device_id}, not {d}, and copy=False")
        return _core.to_device(a, d)
    return a.copy() if copy else a


def get_array_module(*args):
    """cuarray if any argument is a cuarray array, else numpy."""
    import cuarray
    for arg in args:
        if isinstance(arg, ndarray):
            return cuarray
    return numpy


empty = _core.empty
zeros = _core.zeros
ones = _core.ones
full = _core.full
empty_like = _core.empty_like
zeros_like = _core.zeros_like
ones_like = _core.ones_like
full_like = _core.full_like


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None) -> ndarray:
    with _device_scope(device):
        return _core.eye(N, M, k, dtype, order)


def identity(n, dtype=None) -> ndarray:
    return _core.identity(n, dtype)


def _is_scalar(x):
    return isinstance(x, (int, float, complex, numpy.generic)) or (
        isinstance(x, numpy.ndarray) and x.ndim == 0)


def _require_scalars(name, *values):
    for v in values:
        if isinstance(v, ndarray) or not _is_scalar(v):
            raise TypeError(f"cuarray.{name}: start and stop must be scalars "
                            "(array-valued ends come with the elementwise engine)")


def arange(start=None, stop=None, step=None, dtype=None, *, device=None) -> ndarray:
    """Evenly spaced values in [start, stop), with NumPy's length and dtype rules."""
    if start is None and stop is None:
        raise TypeError("arange() requires stop to be specified.")
    if stop is None:
        start, stop = 0, start
    elif start is None:
        start = 0
    if step is None:
        step = 1
    for v in (start, stop, step):
        if isinstance(v, ndarray):
            v = v.item()
        if not _is_scalar(v):
            raise TypeError("arange: start, stop and step must be scalars")
    if dtype is None:
        dtype = numpy.result_type(*(numpy.asarray(v).dtype for v in (start, stop, step)))
    dtype = numpy.dtype(dtype)
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool) for v in (start, stop, step)):
        start, stop, step = int(start), int(stop), int(step)
        n = -((start - stop) // step)
    else:
        q = (stop - start) / step
        # A complex range is as long as the shorter of its real and imaginary extents (NumPy's rule).
        parts = [complex(q).real, complex(q).imag] if numpy.iscomplexobj(q) else [float(q)]
        if any(math.isnan(p) for p in parts):
            raise ValueError("arange: cannot compute length")
        if any(math.isinf(p) for p in parts):
            raise ValueError("Maximum allowed size exceeded")
        n = min(math.ceil(p) for p in parts)
        if not numpy.iscomplexobj(q) and q == 0 and stop - start != 0:
            # NumPy's underflow and divide-by-inf rule: a nonzero extent over an infinite (or huge) step
            # holds the start alone when the signs agree (arange(2.0, 5.5, inf) is [2.0]).
            n = 0 if math.copysign(1.0, float(q)) < 0 else 1
    n = max(n, 0)
    if n == 1:
        step = 0  # NumPy's first element is start itself: start + 0 * inf would be NaN
    with _device_scope(device):
        return _core.arange_n(n, start, step, dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """`num` evenly spaced samples over [start, stop] (NumPy's formula)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    _require_scalars("linspace", start, stop)
    dt = numpy.result_type(start, stop, float(num))
    dtype = dt if dtype is None else numpy.dtype(dtype)
    with _device_scope(device):
        y, step = _core.linspace(complex(start), complex(stop), num, bool(endpoint), dtype)
    if retstep:
        div = (num - 1) if endpoint else num
        if div <= 0:
            return y, math.nan  # NumPy's undefined step is a Python float
        return y, (dt.type(step) if dt.kind == "c" else dt.type(step.real))
    return y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop, num)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    _require_scalars("logspace", start, stop, base)
    dt = numpy.result_type(numpy.result_type(start, stop, float(num)), base)
    dtype = dt if dtype is None else numpy.dtype(dtype)
    return _core.logspace(complex(start), complex(stop), num, bool(endpoint), complex(base), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale, from start to stop exactly."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    _require_scalars("geomspace", start, stop)
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    dt = numpy.result_type(start, stop, float(num), numpy.zeros((), dtype))
    dtype = dt if dtype is None else numpy.dtype(dtype)
    return _core.geomspace(complex(start), complex(stop), num, bool(endpoint), dtype)


# Host-side readers, as CuPy has them: NumPy parses or reads on the host, then one transfer to the device.

def frombuffer(buffer, dtype=None, count=-1, offset=0):
    return array(numpy.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromfile(file, dtype=None, count=-1, sep="", offset=0):
    return array(numpy.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def fromiter(iter, dtype, count=-1):  # noqa: A002 - NumPy's parameter name
    return array(numpy.fromiter(iter, dtype=dtype, count=count))


def fromstring(string, dtype=None, count=-1, *, sep):  # NumPy 2.5's signature: None means float64
    return array(numpy.fromstring(string, dtype=dtype, count=count, sep=sep))


def loadtxt(*args, **kwargs):
    return array(numpy.loadtxt(*args, **kwargs))


def genfromtxt(*args, **kwargs):
    return array(numpy.genfromtxt(*args, **kwargs))


# The readers forward every argument to NumPy's: they show its parameters.
loadtxt.__signature__ = inspect.signature(numpy.loadtxt)
genfromtxt.__signature__ = inspect.signature(numpy.genfromtxt)
