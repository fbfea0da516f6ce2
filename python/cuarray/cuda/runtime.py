"""CUDA runtime queries with CuPy's names (cuarray.cuda.runtime)."""
from cuarray import _core

CUDARuntimeError = _core.CUDARuntimeError

#: cuarray runs on CUDA only.
is_hip = False

#: Special stream handles of the CUDA runtime.
streamLegacy = 1
streamPerThread = 2


def getDeviceCount():
    return _core.get_device_count()


def getDevice():
    return _core.get_device_id()


def setDevice(device):
    _core.set_device_id(device)


def deviceSynchronize():
    _core.device_synchronize(_core.get_device_id())


def getDeviceProperties(device):
    return _core.get_device_properties(device)


def deviceGetAttribute(attrib, device):
    return _core.device_attribute(device, attrib)


def runtimeGetVersion():
    return _core.runtime_version()


def driverGetVersion():
    return _core.driver_version()


def memGetInfo():
    return _core.mem_info(_core.get_device_id())


def is_available():
    return _core.is_available()
