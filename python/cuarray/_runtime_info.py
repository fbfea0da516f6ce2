"""get_runtime_info: versions and paths of cuarray, CUDA and the libraries it loads (CuPy's cupyx)."""
import platform

import numpy


def _attempt(func):
    """func()'s value, or the error text when it raises (a missing driver or library is a fact to report)."""
    try:
        return func()
    except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
        return f"Error: {e}"


class _RuntimeInfo:
    """The report get_runtime_info returns; str() gives one ``name : value`` line per record."""

    def __init__(self, *, full=True):
        import cuarray
        from cuarray import _core, _libpaths
        from cuarray.cuda import runtime

        self._full = full
        self.cuarray_version = cuarray.__version__
        self.numpy_version = numpy.version.full_version
        try:
            import scipy
            self.scipy_version = scipy.version.full_version
        except ImportError:
            self.scipy_version = None
        self.cuda_build_version = runtime._api._build_runtime_version()
        self.cuda_driver_version = _attempt(runtime.driverGetVersion)
        self.cuda_runtime_version = _attempt(runtime.runtimeGetVersion)
        nvrtc = _attempt(_core.nvrtc_info)
        if isinstance(nvrtc, tuple):
            self.nvrtc_path, major, minor = nvrtc
            self.nvrtc_version = major * 1000 + minor * 10
        else:
            self.nvrtc_path, self.nvrtc_version = None, nvrtc
        # Which copy of each CUDA library the process loaded (a pip wheel's or the toolkit's), and where the
        # loader looks for the wheels.
        self.cuda_libraries = _attempt(lambda: dict(_core.cuda_library_paths()))
        self.nvidia_lib_dirs = list(_libpaths.nvidia_lib_dirs())
        self.devices = []
        if full and cuarray.is_available():
            for i in range(runtime.getDeviceCount()):
                p = runtime.getDeviceProperties(i)
                self.devices.append({"name": p["name"].decode(errors="replace"),
                                     "compute_capability": f"{p['major']}{p['minor']}",
                                     "pci_bus_id": _attempt(lambda i=i: runtime.deviceGetPCIBusId(i))})

    def __str__(self):
        records = [
            ("OS", platform.platform()),
            ("Python Version", platform.python_version()),
            ("cuarray Version", self.cuarray_version),
            ("cuarray Platform", "NVIDIA CUDA"),
            ("NumPy Version", self.numpy_version),
            ("SciPy Version", self.scipy_version),
            ("CUDA Build Version", self.cuda_build_version),
            ("CUDA Driver Version", self.cuda_driver_version),
            ("CUDA Runtime Version", f"{self.cuda_runtime_version} (linked to cuarray)"),
            ("NVRTC Version", self.nvrtc_version),
        ]
        if self._full:
            records.append(("NVRTC Path", self.nvrtc_path))
            records.append(("NVIDIA Wheel Library Dirs", ", ".join(self.nvidia_lib_dirs) or None))
            if isinstance(self.cuda_libraries, dict):
                for what, path in self.cuda_libraries.items():
                    records.append((f"Loaded {what}", path))
        records.append(("Device Count", len(self.devices)))
        for i, d in enumerate(self.devices):
            records.append((f"Device {i} Name", d["name"]))
            records.append((f"Device {i} Compute Capability", d["compute_capability"]))
            records.append((f"Device {i} PCI Bus ID", d["pci_bus_id"]))
        width = max(len(name) for name, _ in records)
        return "".join(f"{name:<{width}} : {value}\n" for name, value in records)


def get_runtime_info(*, full=True):
    """The versions of cuarray, NumPy, SciPy, the CUDA driver, runtime and NVRTC, and the devices: print it
    to describe an environment in a bug report. Works without a GPU (the missing parts say why)."""
    return _RuntimeInfo(full=full)
