"""python -m cuarray: report the device and libraries, run a small self-check; non-zero exit without a GPU."""
import platform
import sys

import numpy


def main():
    import cuarray
    from cuarray import _core

    print(f"cuarray {cuarray.__version__} (Python {platform.python_version()}, NumPy {numpy.__version__})")
    if not cuarray.is_available():
        try:
            _core.get_device_count()
            why = "the driver reports no device"
        except cuarray.cuda.runtime.CUDARuntimeError as e:
            why = str(e)
        print(f"No CUDA device is available: {why}")
        print("cuarray needs an NVIDIA GPU with a CUDA driver to run array operations.")
        return 1
    rt = cuarray.cuda.runtime
    print(f"CUDA runtime {rt.runtimeGetVersion()}, driver {rt.driverGetVersion()}")
    try:
        path, major, minor = _core.nvrtc_info()
        print(f"NVRTC {major}.{minor} ({path})")
    except Exception as e:  # run-time kernels need it; report rather than fail the device check
        print(f"NVRTC not found: {e}")
    for i in range(rt.getDeviceCount()):
        p = rt.getDeviceProperties(i)
        free, total = cuarray.cuda.Device(i).mem_info
        print(f"  device {i}: {p['name'].decode()} (compute capability {p['major']}.{p['minor']}, "
              f"{p['multiProcessorCount']} SMs, {total / 2**30:.1f} GiB, {free / 2**30:.1f} GiB free)")
    checks = []
    x = numpy.random.default_rng(0).standard_normal((257, 129)).astype(numpy.float32)
    a = cuarray.asarray(x)
    checks.append(("round trip", numpy.array_equal(a.get(), x)))
    checks.append(("transposed copy", numpy.array_equal(a.T.copy().get(), x.T)))
    checks.append(("cast", numpy.array_equal(a.astype(numpy.float64).get(), x.astype(numpy.float64))))
    checks.append(("arange", numpy.array_equal(cuarray.arange(10).get(), numpy.arange(10))))
    checks.append(("linspace", numpy.allclose(cuarray.linspace(0, 1, 11).get(), numpy.linspace(0, 1, 11))))
    checks.append(("eye", numpy.array_equal(cuarray.eye(4, 5, 1).get(), numpy.eye(4, 5, 1))))
    checks.append(("ufunc", numpy.allclose(cuarray.sin(a).get(), numpy.sin(x), rtol=1e-5, atol=1e-6)))
    s = cuarray.cuda.Stream()
    with s:
        b = cuarray.full((1000,), 3.0)
    s.synchronize()
    checks.append(("stream", numpy.all(b.get() == 3.0)))
    ok = all(c for _, c in checks)
    print("self-check: " + ", ".join(f"{n} {'ok' if c else 'FAILED'}" for n, c in checks))
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
