"""allow_synchronize and DeviceSynchronized (CuPy's cupyx): detect implicit synchronisations on a thread."""
import contextlib
import warnings

from cuarray import _core


class DeviceSynchronized(RuntimeError):
    """Raised when a device synchronisation happens while allow_synchronize(False) is in force."""

    def __init__(self, message=None):
        if message is None:
            message = "Device synchronization was detected while disallowed."
        super().__init__(message)


def _declare_synchronize():
    if not _core._synchronize_allowed():
        raise DeviceSynchronized()


@contextlib.contextmanager
def allow_synchronize(allow):
    """Allow or disallow device synchronisation in the calling thread inside the block. A disallowed one
    (copying device data to the host: ``get()``, ``item()``, printing, ``bool(a)``; ``Device.synchronize()``)
    raises DeviceSynchronized. Synchronisations outside cuarray go unseen."""
    warnings.warn("cuarray.allow_synchronize will be removed in future releases as it is not possible to "
                  "reliably detect synchronizations.")
    old = _core._set_synchronize_allowed(bool(allow))
    try:
        yield
    finally:
        _core._set_synchronize_allowed(old)
