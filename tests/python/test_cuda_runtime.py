"""cuarray.cuda.runtime, cuarray.cuda.driver and cuarray.cuda.nvtx with CuPy's names and semantics.

CPU tests check the import without a GPU, the constants against the CUDA headers' values, the error types and
messages, and that runtime and driver calls without a device raise CUDARuntimeError instead of crashing; GPU
tests exercise the calls themselves.
"""
import ctypes

import numpy
import pytest

import cuarray as cp
from cuarray.cuda import driver, nvtx, runtime

gpu = pytest.mark.gpu


# ---------------------------------------------------------------------------------------------------------
# CPU

def test_is_hip_false():
    assert runtime.is_hip is False


@pytest.mark.parametrize("name, value", [
    ("cudaMemcpyHostToHost", 0), ("cudaMemcpyHostToDevice", 1), ("cudaMemcpyDeviceToHost", 2),
    ("cudaMemcpyDeviceToDevice", 3), ("cudaMemcpyDefault", 4), ("memcpyDefault", 4), ("streamNonBlocking", 1),
    ("streamLegacy", 1), ("streamPerThread", 2), ("eventDisableTiming", 2), ("eventBlockingSync", 1),
    ("eventInterprocess", 4), ("memoryTypeHost", 1), ("memoryTypeDevice", 2), ("memoryTypeManaged", 3),
    ("cudaDevAttrMaxThreadsPerBlock", 1), ("cudaDevAttrWarpSize", 10), ("cudaDevAttrMultiProcessorCount", 16),
    ("cudaDevAttrComputeCapabilityMajor", 75), ("cudaDevAttrComputeCapabilityMinor", 76),
    ("deviceAttributeComputeCapabilityMajor", 75), ("cudaDevAttrMemoryPoolsSupported", 115),
    ("cudaDevAttrMaxBlocksPerMultiprocessor", 106), ("cudaDevAttrCooperativeLaunch", 95),
    ("cudaMemAttachGlobal", 1), ("cudaLimitMallocHeapSize", 2), ("cudaMemPoolAttrUsedMemCurrent", 7),
    ("streamCaptureModeRelaxed", 2), ("cudaErrorInvalidValue", 1), ("errorMemoryAllocation", 2),
    ("cudaErrorPeerAccessAlreadyEnabled", 704),
])
def test_runtime_constants(name, value):
    assert getattr(runtime, name) == value


def test_error_names_match_values():
    # The constants name the status the runtime gives that value.
    for name in ("cudaErrorInvalidValue", "cudaErrorMemoryAllocation", "cudaErrorInvalidDevice",
                 "cudaErrorNotReady", "cudaErrorPeerAccessAlreadyEnabled", "cudaErrorNoDevice"):
        with pytest.raises(runtime.CUDARuntimeError) as info:
            runtime.check_status(getattr(runtime, name))
        assert str(info.value).startswith(name + ": ")
        assert info.value.status == getattr(runtime, name)


def test_check_status_message_is_cupys():
    with pytest.raises(runtime.CUDARuntimeError, match=r"^cudaErrorInvalidValue: invalid argument$"):
        runtime.check_status(1)
    runtime.check_status(0)


def test_runtime_error_is_runtime_error():
    assert issubclass(runtime.CUDARuntimeError, RuntimeError)
    assert issubclass(driver.CUDADriverError, RuntimeError)
    assert not issubclass(driver.CUDADriverError, runtime.CUDARuntimeError)


@pytest.mark.parametrize("name", [
    "malloc", "free", "mallocAsync", "freeAsync", "mallocManaged", "memcpy", "memcpyAsync", "memcpyPeer",
    "memcpyPeerAsync", "memset", "memsetAsync", "memGetInfo", "pointerGetAttributes", "deviceCanAccessPeer",
    "deviceEnablePeerAccess", "deviceSynchronize", "getDevice", "setDevice", "getDeviceProperties",
    "deviceGetAttribute", "driverGetVersion", "runtimeGetVersion", "streamCreate", "streamCreateWithFlags",
    "streamDestroy", "streamSynchronize", "streamWaitEvent", "streamQuery", "eventCreate", "eventCreateWithFlags",
    "eventRecord", "eventSynchronize", "eventQuery", "eventElapsedTime", "eventDestroy", "profilerStart",
    "profilerStop", "graphInstantiate", "graphLaunch", "graphUpload", "graphDestroy", "graphExecDestroy",
    "streamBeginCapture", "streamEndCapture", "streamIsCapturing", "hostAlloc", "freeHost", "hostRegister",
    "hostUnregister", "ipcGetMemHandle", "ipcOpenMemHandle", "deviceGetPCIBusId", "pointerGetMemoryType",
    "launchHostFunc", "memPoolGetAttribute", "deviceGetDefaultMemPool",
])
def test_runtime_names(name):
    assert callable(getattr(runtime, name))


@pytest.mark.parametrize("name", [
    "ctxGetCurrent", "ctxSetCurrent", "ctxGetDevice", "moduleLoadData", "moduleUnload", "moduleGetFunction",
    "moduleGetGlobal", "launchKernel", "funcGetAttribute", "funcSetAttribute", "linkCreate", "linkAddData",
    "linkComplete", "linkDestroy", "occupancyMaxActiveBlocksPerMultiprocessor", "occupancyMaxPotentialBlockSize",
    "streamGetCtx", "get_build_version", "devicePrimaryCtxRelease",
])
def test_driver_names(name):
    assert callable(getattr(driver, name))


def test_driver_constants():
    assert driver.CU_JIT_INPUT_PTX == 1
    assert driver.CU_FUNC_ATTRIBUTE_NUM_REGS == 4
    assert driver.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES == 8
    assert driver.CU_JIT_NUM_OPTIONS == 25
    assert driver.CU_AD_FORMAT_FLOAT == 0x20
    assert driver.get_build_version() >= 12000


def test_runtime_and_driver_without_gpu_raise():
    if cp.is_available():
        pytest.skip("checks the behaviour without a CUDA device")
    for call in (lambda: runtime.malloc(16), lambda: runtime.streamCreate(), lambda: runtime.eventCreate(),
                 lambda: runtime.memGetInfo(), runtime.profilerStart, lambda: driver.ctxGetCurrent(),
                 lambda: runtime.pointerGetAttributes(0)):
        with pytest.raises(runtime.CUDARuntimeError) as info:
            call()
        assert isinstance(info.value.status, int) and info.value.status != 0
        assert "cudaError" in str(info.value)  # the status name


def test_nvtx_without_profiler():
    # NVTX calls are no-ops without a tool attached, GPU or not.
    assert nvtx.available is True
    nvtx.RangePush("cuarray test")
    nvtx.RangePop()
    nvtx.RangePush("colored", id_color=3)
    nvtx.RangePop()
    nvtx.RangePushC("argb", 0xFF00FF00)
    nvtx.RangePop()
    nvtx.Mark("mark")
    nvtx.Mark("mark", 12)
    nvtx.MarkC("mark", 0xFFFF0000)
    with pytest.raises(TypeError):
        nvtx.RangePush(3)


def test_pointer_attributes_class():
    a = runtime.PointerAttributes(1, 2, 3, runtime.memoryTypeDevice)
    assert (a.device, a.devicePointer, a.hostPointer, a.type) == (1, 2, 3, 2)


# ---------------------------------------------------------------------------------------------------------
# GPU

@gpu
def test_malloc_memcpy_memset_free():
    n = 1024
    src = numpy.arange(n // 4, dtype=numpy.int32)
    dst = numpy.zeros_like(src)
    p = runtime.malloc(n)
    try:
        assert p != 0
        runtime.memcpy(p, src.ctypes.data, n, runtime.cudaMemcpyHostToDevice)
        runtime.memcpy(dst.ctypes.data, p, n, runtime.cudaMemcpyDeviceToHost)
        numpy.testing.assert_array_equal(dst, src)
        runtime.memset(p, 0, n)
        runtime.memcpy(dst.ctypes.data, p, n, runtime.memcpyDefault)
        assert not dst.any()
        s = runtime.streamCreateWithFlags(runtime.streamNonBlocking)
        try:
            runtime.memsetAsync(p, 1, n, s)
            runtime.memcpyAsync(dst.ctypes.data, p, n, runtime.cudaMemcpyDeviceToHost, s)
            runtime.streamSynchronize(s)
            assert (dst == 0x01010101).all()
            assert runtime.streamQuery(s) == 0
            assert runtime.streamGetFlags(s) == runtime.streamNonBlocking
        finally:
            runtime.streamDestroy(s)
        attrs = runtime.pointerGetAttributes(p)
        assert attrs.type == runtime.memoryTypeDevice
        assert attrs.device == cp.cuda.Device().id
        assert attrs.devicePointer == p
    finally:
        runtime.free(p)


@gpu
def test_malloc_async_and_managed():
    s = runtime.streamCreate()
    try:
        if runtime.deviceGetAttribute(runtime.cudaDevAttrMemoryPoolsSupported, runtime.getDevice()):
            p = runtime.mallocAsync(256, s)
            runtime.memsetAsync(p, 0, 256, s)
            runtime.freeAsync(p, s)
            runtime.streamSynchronize(s)
    finally:
        runtime.streamDestroy(s)
    m = runtime.mallocManaged(64)
    try:
        assert runtime.pointerGetMemoryType(m) == runtime.memoryTypeManaged
    finally:
        runtime.free(m)


@gpu
def test_errors_carry_status():
    with pytest.raises(runtime.CUDARuntimeError) as info:
        runtime.memcpy(0, 0, 16, 99)  # an invalid copy kind
    assert info.value.status in (1, 21)  # cudaErrorInvalidValue or cudaErrorInvalidMemcpyDirection
    assert str(info.value).startswith(("cudaErrorInvalidValue: ", "cudaErrorInvalidMemcpyDirection: "))
    with pytest.raises(runtime.CUDARuntimeError) as info:
        runtime.getDeviceProperties(runtime.getDeviceCount())
    assert "cudaErrorInvalidDevice" in str(info.value)
    # The error was cleared: later calls succeed.
    runtime.deviceSynchronize()


@gpu
def test_events_and_elapsed_time():
    e1 = runtime.eventCreate()
    e2 = runtime.eventCreateWithFlags(runtime.eventDefault)
    try:
        runtime.eventRecord(e1, 0)
        cp.arange(1 << 20).sum()
        runtime.eventRecord(e2, 0)
        runtime.eventSynchronize(e2)
        assert runtime.eventQuery(e2) == 0
        assert runtime.eventElapsedTime(e1, e2) >= 0.0
        s = runtime.streamCreate()
        runtime.streamWaitEvent(s, e2)
        runtime.streamSynchronize(s)
        runtime.streamDestroy(s)
    finally:
        runtime.eventDestroy(e1)
        runtime.eventDestroy(e2)


@gpu
def test_device_queries():
    dev = runtime.getDevice()
    props = runtime.getDeviceProperties(dev)
    for key in ("name", "totalGlobalMem", "sharedMemPerBlock", "regsPerBlock", "warpSize", "maxThreadsPerBlock",
                "maxThreadsDim", "maxGridSize", "clockRate", "totalConstMem", "major", "minor", "textureAlignment",
                "texturePitchAlignment", "multiProcessorCount", "kernelExecTimeoutEnabled", "integrated",
                "canMapHostMemory", "computeMode", "maxTexture1D", "maxTexture2D", "maxTexture3D",
                "concurrentKernels", "ECCEnabled", "pciBusID", "pciDeviceID", "pciDomainID", "tccDriver",
                "memoryClockRate", "memoryBusWidth", "l2CacheSize", "maxThreadsPerMultiProcessor",
                "isMultiGpuBoard", "cooperativeLaunch", "cooperativeMultiDeviceLaunch", "asyncEngineCount",
                "unifiedAddressing", "managedMemory", "concurrentManagedAccess", "sharedMemPerBlockOptin",
                "uuid", "persistingL2CacheMaxSize", "maxBlocksPerMultiProcessor", "deviceOverlap",
                "singleToDoublePrecisionPerfRatio", "surfaceAlignment", "streamPrioritiesSupported"):
        assert key in props, key
    assert isinstance(props["name"], bytes)
    assert props["major"] == runtime.deviceGetAttribute(runtime.cudaDevAttrComputeCapabilityMajor, dev)
    assert props["multiProcessorCount"] == runtime.deviceGetAttribute(runtime.cudaDevAttrMultiProcessorCount, dev)
    assert props["warpSize"] == 32
    free, total = runtime.memGetInfo()
    assert 0 < free <= total
    assert runtime.driverGetVersion() >= 12000
    assert runtime.runtimeGetVersion() >= 12000
    bus = runtime.deviceGetPCIBusId(dev)
    assert runtime.deviceGetByPCIBusId(bus) == dev
    assert runtime.deviceCanAccessPeer(dev, dev) == 0


@gpu
def test_host_alloc_and_register():
    p = runtime.hostAlloc(4096, runtime.hostAllocPortable)
    try:
        assert runtime.pointerGetMemoryType(p) == runtime.memoryTypeHost
    finally:
        runtime.freeHost(p)
    buf = numpy.zeros(8192, dtype=numpy.uint8)
    runtime.hostRegister(buf.ctypes.data, buf.nbytes, runtime.cudaHostRegisterDefault)
    try:
        assert runtime.pointerGetMemoryType(buf.ctypes.data) == runtime.memoryTypeHost
    finally:
        runtime.hostUnregister(buf.ctypes.data)


@gpu
def test_launch_host_func_runs_callback():
    seen = []
    s = runtime.streamCreate()
    try:
        runtime.launchHostFunc(s, seen.append, 42)
        runtime.streamSynchronize(s)
    finally:
        runtime.streamDestroy(s)
    assert seen == [42]


@gpu
def test_graph_capture_through_runtime():
    s = cp.cuda.Stream(non_blocking=True)
    a = cp.zeros(16, dtype=numpy.float32)
    # The zeros are written on the current stream, which a non-blocking stream does not wait for: a busy GPU could
    # run that fill after the graph's memset.
    cp.cuda.get_current_stream().synchronize()
    runtime.streamBeginCapture(s.ptr)
    assert runtime.streamIsCapturing(s.ptr)
    runtime.memsetAsync(a.data.ptr, 0x3F, a.nbytes, s.ptr)
    g = runtime.streamEndCapture(s.ptr)
    assert not runtime.streamIsCapturing(s.ptr)
    ge = runtime.graphInstantiate(g)
    try:
        runtime.graphUpload(ge, s.ptr)
        runtime.graphLaunch(ge, s.ptr)
        s.synchronize()
    finally:
        runtime.graphExecDestroy(ge)
        runtime.graphDestroy(g)
    assert (a.get().view(numpy.uint32) == 0x3F3F3F3F).all()


# A kernel in PTX (checked with ptxas): p[threadIdx.x] = v.
_FILL_PTX = b"""
.version 7.0
.target sm_52
.address_size 64

.visible .entry fill(.param .u64 fill_p, .param .u32 fill_v)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [fill_p];
  ld.param.u32 %r1, [fill_v];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  ret;
}
"""


@gpu
def test_driver_module_and_launch():
    cp.arange(1).sum()  # the device's context exists once cuarray has used it
    assert driver.ctxGetCurrent() != 0
    assert driver.ctxGetDevice() == cp.cuda.Device().id
    mod = driver.moduleLoadData(_FILL_PTX)
    try:
        f = driver.moduleGetFunction(mod, "fill")
        assert driver.funcGetAttribute(driver.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) > 0
        out = cp.zeros(32, dtype=numpy.int32)
        p = ctypes.c_void_p(out.data.ptr)
        v = ctypes.c_int(7)
        args = (ctypes.c_void_p * 2)(ctypes.addressof(p), ctypes.addressof(v))
        driver.launchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, ctypes.addressof(args), 0)
        runtime.deviceSynchronize()
        assert (out.get() == 7).all()
        assert driver.occupancyMaxActiveBlocksPerMultiprocessor(f, 32, 0) > 0
        grid, block = driver.occupancyMaxPotentialBlockSize(f, 0, 0)
        assert grid > 0 and block > 0
        with pytest.raises(driver.CUDADriverError) as info:
            driver.moduleGetFunction(mod, "no_such_kernel")
        assert info.value.status == 500  # CUDA_ERROR_NOT_FOUND
        assert str(info.value).startswith("CUDA_ERROR_NOT_FOUND: ")
    finally:
        driver.moduleUnload(mod)


@gpu
def test_driver_error_type():
    with pytest.raises(driver.CUDADriverError) as info:
        driver.moduleLoadData(b"not a module")
    assert info.value.status != 0
    assert str(info.value).startswith("CUDA_ERROR_")
