"""The Python Array API standard (2024.12): the namespace protocol and its inspection object, ndarray.to_device,
and the standard's names that NumPy 2 has and cuarray lacked (astype, concat, isdtype) or took from NumPy
unchanged where cuarray arrays need their own (finfo, iinfo, can_cast, result_type)."""
import contextlib

import numpy

from cuarray import _core
from cuarray._core import ndarray

__array_api_version__ = "2024.12"

# The versions NumPy 2.4 also answers to: each later one only adds to the earlier.
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

# include/cuarray/shape.hpp's max_ndim (NumPy's too).
_MAX_DIMENSIONS = 64


def _package():
    import cuarray
    return cuarray


def _device_scope(device):
    """A context making the device that an Array API ``device=`` argument names current (ValueError for one
    cuarray does not know); nothing for None or the device that is current already."""
    d = _core.device_arg(device)
    if d < 0 or d == _core.get_device_id():
        return contextlib.nullcontext()
    from cuarray.cuda import Device
    return Device(d)


def _array_namespace(self, /, *, api_version=None):
    """The cuarray module: the array's Array API namespace (ValueError for a version it does not implement)."""
    if api_version is not None:
        if not isinstance(api_version, str):
            raise ValueError("Only None and strings are allowed as the Array API version, "
                             f"but received: {api_version!r}.")
        if api_version not in _API_VERSIONS:
            raise ValueError(f'Version "{api_version}" of the Array API Standard is not supported.')
    return _package()


def _to_device(self, device, /, *, stream=None):
    """The array on `device` (itself when it is there already); `stream` (a cuarray stream, or a CUDA stream
    handle as DLPack passes it) of that device orders the copy."""
    if device is None:
        raise TypeError("to_device() needs a device, e.g. cuarray.cuda.Device(0) or x.device")
    d = _core.device_arg(device)
    if d == self._device_id:
        return self
    if stream is None:
        return _core.to_device(self, d)
    from cuarray import cuda
    if isinstance(stream, int) and not isinstance(stream, bool):
        stream = cuda.ExternalStream(stream, d)
    elif not isinstance(stream, (cuda.Stream, cuda.ExternalStream)):
        raise TypeError("to_device: stream must be a cuarray.cuda.Stream or a stream handle, "
                        f"not {type(stream).__name__}")
    with cuda.Device(d), stream:
        return _core.to_device(self, d)


class __array_namespace_info__:  # noqa: N801 - the standard's name, a class as in NumPy
    """What this Array API implementation offers: ``cuarray.__array_namespace_info__().dtypes()``..."""

    __module__ = "cuarray"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": _MAX_DIMENSIONS}

    def default_device(self):
        from cuarray.cuda import Device
        return Device(_core.get_device_id())

    def devices(self):
        from cuarray.cuda import Device
        return [Device(i) for i in range(_core.device_count_or_zero())]

    def default_dtypes(self, *, device=None):
        _core.device_arg(device)
        return {"real floating": numpy.dtype(numpy.float64), "complex floating": numpy.dtype(numpy.complex128),
                "integral": numpy.dtype(numpy.int64), "indexing": numpy.dtype(numpy.int64)}

    def dtypes(self, *, device=None, kind=None):
        # cuarray holds exactly the standard's dtypes that NumPy's namespace lists (float16 is beyond the
        # standard), and NumPy parses the standard's kind names and tuples of them.
        _core.device_arg(device)
        return numpy.__array_namespace_info__().dtypes(kind=kind)


def astype(x, dtype, /, *, copy=True, device=None):
    """`x` cast to `dtype` (a copy unless copy=False and nothing changes), on `device` if given."""
    if not isinstance(x, ndarray):
        raise TypeError(f"Input should be a cuarray array. It is a {type(x)} instead.")
    d = _core.device_arg(device)
    if d >= 0 and d != x._device_id:
        return _core.to_device(x, d).astype(dtype, copy=False)
    return x.astype(dtype, copy=copy)


concat = _core.concatenate
isdtype = numpy.isdtype


def _dtype_of(x):
    return x.dtype if isinstance(x, ndarray) else x


def finfo(dtype):
    """numpy.finfo of a dtype or of a cuarray array's dtype."""
    return numpy.finfo(_dtype_of(dtype))


def iinfo(int_type):
    """numpy.iinfo of a dtype or of a cuarray array's dtype."""
    return numpy.iinfo(_dtype_of(int_type))


def result_type(*arrays_and_dtypes):
    """NumPy 2's result_type, cuarray arrays taking part through their dtypes (as NEP 50 has arrays do)."""
    return numpy.result_type(*(_dtype_of(x) for x in arrays_and_dtypes))


def can_cast(from_, to, casting="safe"):
    """NumPy's can_cast, a cuarray array taking part through its dtype."""
    return numpy.can_cast(_dtype_of(from_), to, casting=casting)


ndarray.__array_namespace__ = _array_namespace
ndarray.to_device = _to_device
