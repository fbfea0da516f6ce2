"""cuarray.show_config: the versions, libraries and devices cuarray runs with (NumPy's show_config interface)."""
import platform

import numpy

from cuarray import _core


def _config():
    import cuarray
    info = {
        "cuarray": {"version": cuarray.__version__},
        "Python": {"version": platform.python_version(), "implementation": platform.python_implementation()},
        "NumPy": {"version": numpy.__version__},
        "CUDA": {"available": bool(cuarray.is_available())},
        "devices": [],
    }
    cuda = info["CUDA"]
    rt = cuarray.cuda.runtime
    try:
        cuda["driver_version"] = rt.driverGetVersion()
        cuda["runtime_version"] = rt.runtimeGetVersion()
    except rt.CUDARuntimeError as e:  # no driver: say why instead of failing
        cuda["error"] = str(e)
    try:
        path, major, minor = _core.nvrtc_info()
        cuda["nvrtc"] = {"version": f"{major}.{minor}", "path": path}
    except Exception as e:  # noqa: BLE001 - NVRTC is loaded on first use; report what went wrong
        cuda["nvrtc"] = {"error": str(e)}
    if cuda["available"]:
        for i in range(rt.getDeviceCount()):
            p = rt.getDeviceProperties(i)
            name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
            info["devices"].append({"id": i, "name": name, "compute_capability": f"{p['major']}.{p['minor']}",
                                    "multiprocessors": p["multiProcessorCount"]})
    return info


def show_config(mode="stdout"):
    """Print (``mode='stdout'``) or return (``mode='dicts'``) cuarray's configuration: its version, Python's and
    NumPy's, the CUDA driver, runtime and NVRTC versions and the devices. Without a GPU it reports why none can be
    used; it never raises for that."""
    if mode not in ("stdout", "dicts"):
        raise AttributeError(f"Invalid `mode`, use one of: stdout, dicts (got {mode!r})")
    info = _config()
    if mode == "dicts":
        return info
    for section, values in info.items():
        print(f"{section}:")
        items = values if isinstance(values, list) else [values]
        for item in items:
            print("  " + ", ".join(f"{k}: {v}" for k, v in item.items()))
    return None
