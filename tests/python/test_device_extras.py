"""cuarray.cuda.Device members, get_cuda_path / get_nvcc_path and compiler.compile_using_nvrtc as CuPy's."""
import io
import os

import pytest

import cuarray as cp
from cuarray import cuda
from cuarray.cuda import compiler

gpu = pytest.mark.gpu


def test_device_identity_without_gpu():
    a, b = cuda.Device(0), cuda.Device(0)
    assert a == b and hash(a) == hash(b) and int(a) == 0 and a.id == 0
    assert cuda.Device(1) != a


def test_cuda_and_nvcc_paths(monkeypatch, tmp_path):
    from cuarray.cuda import _environment as env
    monkeypatch.setattr(env, "_cuda_path", None)
    monkeypatch.setattr(env, "_nvcc_path", None)
    monkeypatch.setenv("CUDA_PATH", str(tmp_path))
    monkeypatch.setenv("NVCC", "my-nvcc -ccbin g++")
    assert cuda.get_cuda_path() == str(tmp_path)
    assert cuda.get_nvcc_path() == "my-nvcc -ccbin g++"
    monkeypatch.setattr(env, "_cuda_path", None)
    monkeypatch.setenv("CUDA_PATH", os.path.join(str(tmp_path), "missing"))
    path = cuda.get_cuda_path()
    assert path is None or os.path.isdir(path)


SOURCE = r"""
template <class T> __global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
extern "C" __global__ void plain(float* x) { x[0] = 1.0f; }
"""


def test_compile_using_nvrtc_returns_cubin_and_mapping():
    image, mapping = compiler.compile_using_nvrtc(SOURCE, arch="80", name_expressions=["fill<float>", "fill<int>"])
    assert isinstance(image, bytes) and image[:4] == b"\x7fELF"
    assert set(mapping) == {"fill<float>", "fill<int>"}
    assert mapping["fill<float>"].startswith("_Z") and mapping["fill<float>"] != mapping["fill<int>"]
    _, none = compiler.compile_using_nvrtc(SOURCE, arch="80")
    assert none is None


def test_compile_using_nvrtc_errors_and_log():
    with pytest.raises(compiler.CompileException):
        compiler.compile_using_nvrtc("this is not CUDA", arch="80")
    log = io.StringIO()
    compiler.compile_using_nvrtc("__global__ void k() { int unused; }", arch="80", log_stream=log)
    assert "unused" in log.getvalue() or log.getvalue() == ""  # NVRTC may or may not warn, never fails
    with pytest.raises(ValueError):
        compiler.compile_using_nvrtc(SOURCE, arch="sm_80")
    with pytest.raises(RuntimeError):
        compiler.compile_using_nvrtc(SOURCE, arch="80", jitify=True)


@gpu
def test_device_members():
    d = cuda.Device()
    cc = d.compute_capability
    assert isinstance(cc, str) and cc.isdigit()
    free, total = d.mem_info
    assert 0 < free <= total
    assert isinstance(d.attributes, dict) and d.attributes["MultiProcessorCount"] > 0
    bus = d.pci_bus_id
    assert cuda.runtime.deviceGetByPCIBusId(bus) == d.id
    assert isinstance(d.cublas_handle, int) and d.cublas_handle != 0
    assert d.cublas_handle == d.cublas_handle  # one handle per thread and device
    assert isinstance(d.cusparse_handle, int) and d.cusparse_handle != 0
    with d as entered:
        assert entered is d and cuda.runtime.getDevice() == d.id
    d.use()
    d.synchronize()


@gpu
def test_compile_using_nvrtc_default_arch_loads():
    image, mapping = compiler.compile_using_nvrtc(SOURCE, name_expressions=["fill<float>"])
    mod = cuda.driver.moduleLoadData(image)
    try:
        assert cuda.driver.moduleGetFunction(mod, mapping["fill<float>"]) != 0
    finally:
        cuda.driver.moduleUnload(mod)
    assert cp.cuda.Device().compute_capability


def test_cusolver_handle_is_a_device_property():
    assert isinstance(cuda.Device.cusolver_handle, property)


@gpu
def test_cusolver_handle_is_stable_per_thread_and_linalg_still_works():
    import threading

    import numpy as np

    d = cuda.Device()
    h = d.cusolver_handle
    assert isinstance(h, int) and h != 0
    assert d.cusolver_handle == h and cuda.Device(d.id).cusolver_handle == h
    # Another thread gets a handle of its own (a cuSOLVER handle must not be shared by two threads at once).
    other = []
    t = threading.Thread(target=lambda: other.append(cuda.Device(d.id).cusolver_handle))
    t.start()
    t.join()
    assert len(other) == 1 and isinstance(other[0], int) and other[0] not in (0, h)
    # It is not one of the handles lent to cuarray's own cuSOLVER calls: linalg works on and the handle stays.
    rng = np.random.default_rng(3)
    a = rng.standard_normal((8, 8)) + 8 * np.eye(8)
    b = rng.standard_normal((8, 3))
    spd = a @ a.T
    s = cuda.Stream(non_blocking=True)
    with s:
        assert cuda.Device().cusolver_handle == h  # the same handle, now pointed at `s`
        x = cp.linalg.solve(cp.asarray(a), cp.asarray(b))
        c = cp.linalg.cholesky(cp.asarray(spd))
        w = cp.linalg.eigh(cp.asarray(spd))[0]
        np.testing.assert_allclose(x.get(), np.linalg.solve(a, b), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(c.get(), np.linalg.cholesky(spd), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(w.get(), np.linalg.eigvalsh(spd), rtol=1e-10)
    assert d.cusolver_handle == h
    del x, c, w
