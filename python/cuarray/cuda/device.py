"""cuarray.cuda.Device: the current device per thread, as a context manager."""
import threading

from cuarray import _core

_local = threading.local()


class Device:
    """A CUDA device. ``with Device(1):`` makes it current for the block in this thread."""

    __slots__ = ("id", "_previous")

    def __init__(self, device=None):
        if device is None:
            device = _core.get_device_id()
        elif isinstance(device, Device):
            device = device.id
        self.id = int(device)
        self._previous = None

    def __int__(self):
        return self.id

    def __index__(self):
        return self.id

    def __repr__(self):
        return f"<CUDA Device {self.id}>"

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cuarray.Device", self.id))

    def use(self):
        """Make this device the current one of the calling thread."""
        _core.set_device_id(self.id)

    def __enter__(self):
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        stack.append(_core.get_device_id())
        _core.set_device_id(self.id)
        return self

    def __exit__(self, *exc):
        _core.set_device_id(_local.stack.pop())

    def synchronize(self):
        if not _core._synchronize_allowed():  # CuPy's allow_synchronize(False) refuses this one too
            from cuarray._syncdetect import DeviceSynchronized
            raise DeviceSynchronized()
        _core.device_synchronize(self.id)

    @property
    def compute_capability(self):
        return _core.compute_capability(self.id)

    @property
    def attributes(self):
        return _core.device_attributes(self.id)

    @property
    def mem_info(self):
        return tuple(_core.mem_info(self.id))

    @property
    def cublas_handle(self):
        """The calling thread's cuBLAS handle for this device (an int), pointed at the current stream."""
        return _core._cublas_handle(self.id)

    @property
    def cusolver_handle(self):
        """The calling thread's cuSOLVER dense handle for this device (an int), pointed at the current stream."""
        return _core._cusolver_handle(self.id)

    @property
    def cusparse_handle(self):
        """The calling thread's cuSPARSE handle for this device (an int), pointed at the current stream."""
        return _core._cusparse_handle(self.id)

    @property
    def pci_bus_id(self):
        p = _core.get_device_properties(self.id)
        return f"{p['pciDomainID']:04x}:{p['pciBusID']:02x}:{p['pciDeviceID']:02x}.0"


def get_device_id():
    return _core.get_device_id()
