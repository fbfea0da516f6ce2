"""DLPack names beyond from_dlpack: CuPy's toDlpack/fromDlpack and __dlpack__'s export to the host (dl_device)."""
import warnings

from cuarray import _core
from cuarray._core import ndarray

_KDLCPU = 1
_device_export = ndarray.__dlpack__  # the compiled exporter: CUDA capsules, stream ordering, copy=


def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """The array as a DLPack capsule (DLPack 1.x protocol): a versioned capsule ("dltensor_versioned", version
    1.0) when ``max_version >= (1, 0)``, else a legacy "dltensor" one. ``stream`` is the consumer's stream
    (1: legacy default, 2: per-thread default, -1: no ordering); the consumer waits for the work enqueued so far.
    ``copy=True`` exports a copy (flagged IS_COPIED in a versioned capsule); ``copy=False`` never copies.
    ``dl_device=(kDLCUDA, this device)`` is the zero-copy export; ``dl_device=(kDLCPU, 0)`` exports a host copy
    (a device-to-host transfer; BufferError with ``copy=False``); any other device is a BufferError."""
    if dl_device is not None and int(dl_device[0]) == _KDLCPU:
        if copy is False:
            raise BufferError("__dlpack__: a device array cannot be exported to the CPU without a copy")
        # The host copy is complete when get() returns, so NumPy exports it with no stream to honour; copy=True
        # makes NumPy flag the versioned capsule IS_COPIED, as the protocol asks of a copy (one more host copy).
        return self.get(order="A").__dlpack__(max_version=max_version, copy=True)
    return _device_export(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)


def toDlpack(self):  # noqa: N802 - CuPy's name
    """A legacy DLPack capsule ("dltensor") sharing the array's memory, as CuPy's ``ndarray.toDlpack``; consumers
    of DLPack 1.x should call ``from_dlpack(array)`` (which uses ``__dlpack__``) instead."""
    return _device_export(self)


def fromDlpack(dltensor):  # noqa: N802 - CuPy's name
    """A device array sharing memory with a DLPack capsule (or an object with ``__dlpack__``); deprecated as in
    CuPy: use :func:`cuarray.from_dlpack`."""
    warnings.warn("This function is deprecated in favor of cuarray.from_dlpack", DeprecationWarning, stacklevel=2)
    return _core.from_dlpack(dltensor)


ndarray.__dlpack__ = __dlpack__
ndarray.toDlpack = toDlpack
