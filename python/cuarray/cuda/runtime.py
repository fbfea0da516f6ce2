"""CUDA runtime queries with CuPy's names (cuarray.cuda.runtime)."""
from typing import TYPE_CHECKING

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


# ---------------------------------------------------------------------------------------------------------
# The rest of CuPy's cupy.cuda.runtime (issue 17): thin wrappers over the CUDA runtime that take and return
# plain ints for pointers and handles, and raise CUDARuntimeError('<status name>: <description>') whose
# `status` is the cudaError_t. Names defined above keep cuarray's per-thread device bookkeeping.
from cuarray._core import _cuda_runtime as _api  # noqa: E402

for _name in dir(_api):
    if not _name.startswith("_") and _name not in globals():
        globals()[_name] = getattr(_api, _name)
del _name
if TYPE_CHECKING:  # the loop above, for type checkers (the extension's stub declares the wrappers)
    from cuarray._core._cuda_runtime import *  # noqa: F401,F403


class PointerAttributes:
    """What cudaPointerGetAttributes reports: ``device``, ``devicePointer``, ``hostPointer``, ``type``."""

    __slots__ = ("device", "devicePointer", "hostPointer", "type")

    def __init__(self, device, devicePointer, hostPointer, type=-1):  # noqa: A002 - CuPy's name
        self.device = device
        self.devicePointer = devicePointer
        self.hostPointer = hostPointer
        self.type = type

    def __repr__(self):
        return (f"PointerAttributes(device={self.device}, devicePointer={self.devicePointer:#x}, "
                f"hostPointer={self.hostPointer:#x}, type={self.type})")


def pointerGetAttributes(ptr):
    return PointerAttributes(*_api._pointer_attributes(ptr))


def _getLocalRuntimeVersion():
    return _api._build_runtime_version()


def _getCUDAMajorVersion():
    return runtimeGetVersion() // 1000


def _deviceEnsurePeerAccess(peerDevice):
    try:
        deviceEnablePeerAccess(peerDevice)
    except CUDARuntimeError as e:
        if e.status != cudaErrorPeerAccessAlreadyEnabled:
            raise


def check_status(status):
    """Raise CUDARuntimeError for a cudaError_t other than cudaSuccess."""
    if status != 0:
        e = CUDARuntimeError(f"{_api._error_name(status)}: {_api._error_string(status)}")
        e.status = status
        raise e


# Constants, with CuPy's names and the CUDA runtime's values.
cudaSuccess = 0
cudaErrorInvalidValue = errorInvalidValue = 1
cudaErrorMemoryAllocation = errorMemoryAllocation = 2
cudaErrorInsufficientDriver = 35
cudaErrorInvalidDevice = 101
cudaErrorInvalidResourceHandle = errorInvalidResourceHandle = 400
cudaErrorNotReady = 600
cudaErrorPeerAccessAlreadyEnabled = errorPeerAccessAlreadyEnabled = 704
cudaErrorContextIsDestroyed = errorContextIsDestroyed = 709
cudaErrorNoDevice = 100

memcpyHostToHost = cudaMemcpyHostToHost = 0
memcpyHostToDevice = cudaMemcpyHostToDevice = 1
memcpyDeviceToHost = cudaMemcpyDeviceToHost = 2
memcpyDeviceToDevice = cudaMemcpyDeviceToDevice = 3
memcpyDefault = cudaMemcpyDefault = 4

hostAllocDefault = 0
hostAllocPortable = 1
hostAllocMapped = 2
hostAllocWriteCombined = 4
cudaHostRegisterDefault = 0
cudaHostRegisterPortable = 1
cudaHostRegisterMapped = 2

streamDefault = 0
streamNonBlocking = 1
eventDefault = 0
eventBlockingSync = 1
eventDisableTiming = 2
eventInterprocess = 4

streamCaptureModeGlobal = 0
streamCaptureModeThreadLocal = 1
streamCaptureModeRelaxed = 2
streamCaptureStatusNone = 0
streamCaptureStatusActive = 1
streamCaptureStatusInvalidated = 2

memoryTypeUnregistered = 0
memoryTypeHost = cudaMemoryTypeHost = 1
memoryTypeDevice = cudaMemoryTypeDevice = 2
memoryTypeManaged = 3

cudaIpcMemLazyEnablePeerAccess = 1
cudaMemAttachGlobal = 1
cudaMemAttachHost = 2
cudaMemAttachSingle = 4
cudaCpuDeviceId = -1
cudaInvalidDeviceId = -2

cudaMemAdviseSetReadMostly = 1
cudaMemAdviseUnsetReadMostly = 2
cudaMemAdviseSetPreferredLocation = 3
cudaMemAdviseUnsetPreferredLocation = 4
cudaMemAdviseSetAccessedBy = 5
cudaMemAdviseUnsetAccessedBy = 6

CUDA_R_32F, CUDA_R_64F, CUDA_R_16F, CUDA_R_8I = 0, 1, 2, 3
CUDA_C_32F, CUDA_C_64F, CUDA_C_16F, CUDA_C_8I = 4, 5, 6, 7
CUDA_R_8U, CUDA_C_8U, CUDA_R_16BF = 8, 9, 14

cudaLimitStackSize = 0x00
cudaLimitPrintfFifoSize = 0x01
cudaLimitMallocHeapSize = 0x02
cudaLimitDevRuntimeSyncDepth = 0x03
cudaLimitDevRuntimePendingLaunchCount = 0x04
cudaLimitMaxL2FetchGranularity = 0x05

cudaChannelFormatKindSigned = 0
cudaChannelFormatKindUnsigned = 1
cudaChannelFormatKindFloat = 2
cudaChannelFormatKindNone = 3
cudaArrayDefault = 0
cudaArraySurfaceLoadStore = 2
cudaResourceTypeArray = 0
cudaResourceTypeMipmappedArray = 1
cudaResourceTypeLinear = 2
cudaResourceTypePitch2D = 3
cudaAddressModeWrap = 0
cudaAddressModeClamp = 1
cudaAddressModeMirror = 2
cudaAddressModeBorder = 3
cudaFilterModePoint = 0
cudaFilterModeLinear = 1
cudaReadModeElementType = 0
cudaReadModeNormalizedFloat = 1

cudaMemPoolReuseFollowEventDependencies = 0x1
cudaMemPoolReuseAllowOpportunistic = 0x2
cudaMemPoolReuseAllowInternalDependencies = 0x3
cudaMemPoolAttrReleaseThreshold = 0x4
cudaMemPoolAttrReservedMemCurrent = 0x5
cudaMemPoolAttrReservedMemHigh = 0x6
cudaMemPoolAttrUsedMemCurrent = 0x7
cudaMemPoolAttrUsedMemHigh = 0x8
cudaMemAllocationTypePinned = 0x1
cudaMemHandleTypeNone = 0x0
cudaMemHandleTypePosixFileDescriptor = 0x1
cudaMemLocationTypeInvalid = 0
cudaMemLocationTypeDevice = 1
cudaMemLocationTypeHost = 2
cudaMemLocationTypeHostNuma = 3
cudaMemLocationTypeHostNumaCurrent = 4

cudaGraphDebugDotFlagsVerbose = 1 << 0
cudaGraphDebugDotFlagsKernelNodeParams = 1 << 2
cudaGraphDebugDotFlagsMemcpyNodeParams = 1 << 3
cudaGraphDebugDotFlagsMemsetNodeParams = 1 << 4
cudaGraphDebugDotFlagsHostNodeParams = 1 << 5
cudaGraphDebugDotFlagsEventNodeParams = 1 << 6
cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7
cudaGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8
cudaGraphDebugDotFlagsKernelNodeAttributes = 1 << 9
cudaGraphDebugDotFlagsHandles = 1 << 10
cudaGraphDebugDotFlagsConditionalNodeParams = 1 << 15

# cudaDeviceAttr values (CUDA's ABI), exported as cudaDevAttr<Name>.
_DEVICE_ATTRIBUTES = {
    "MaxThreadsPerBlock": 1, "MaxBlockDimX": 2, "MaxBlockDimY": 3, "MaxBlockDimZ": 4, "MaxGridDimX": 5,
    "MaxGridDimY": 6, "MaxGridDimZ": 7, "MaxSharedMemoryPerBlock": 8, "TotalConstantMemory": 9, "WarpSize": 10,
    "MaxPitch": 11, "MaxRegistersPerBlock": 12, "ClockRate": 13, "TextureAlignment": 14, "GpuOverlap": 15,
    "MultiProcessorCount": 16, "KernelExecTimeout": 17, "Integrated": 18, "CanMapHostMemory": 19,
    "ComputeMode": 20, "MaxTexture1DWidth": 21, "MaxTexture2DWidth": 22, "MaxTexture2DHeight": 23,
    "MaxTexture3DWidth": 24, "MaxTexture3DHeight": 25, "MaxTexture3DDepth": 26, "MaxTexture2DLayeredWidth": 27,
    "MaxTexture2DLayeredHeight": 28, "MaxTexture2DLayeredLayers": 29, "SurfaceAlignment": 30,
    "ConcurrentKernels": 31, "EccEnabled": 32, "PciBusId": 33, "PciDeviceId": 34, "TccDriver": 35,
    "MemoryClockRate": 36, "GlobalMemoryBusWidth": 37, "L2CacheSize": 38, "MaxThreadsPerMultiProcessor": 39,
    "AsyncEngineCount": 40, "UnifiedAddressing": 41, "MaxTexture1DLayeredWidth": 42,
    "MaxTexture1DLayeredLayers": 43, "MaxTexture2DGatherWidth": 45, "MaxTexture2DGatherHeight": 46,
    "MaxTexture3DWidthAlt": 47, "MaxTexture3DHeightAlt": 48, "MaxTexture3DDepthAlt": 49, "PciDomainId": 50,
    "TexturePitchAlignment": 51, "MaxTextureCubemapWidth": 52, "MaxTextureCubemapLayeredWidth": 53,
    "MaxTextureCubemapLayeredLayers": 54, "MaxSurface1DWidth": 55, "MaxSurface2DWidth": 56,
    "MaxSurface2DHeight": 57, "MaxSurface3DWidth": 58, "MaxSurface3DHeight": 59, "MaxSurface3DDepth": 60,
    "MaxSurface1DLayeredWidth": 61, "MaxSurface1DLayeredLayers": 62, "MaxSurface2DLayeredWidth": 63,
    "MaxSurface2DLayeredHeight": 64, "MaxSurface2DLayeredLayers": 65, "MaxSurfaceCubemapWidth": 66,
    "MaxSurfaceCubemapLayeredWidth": 67, "MaxSurfaceCubemapLayeredLayers": 68, "MaxTexture1DLinearWidth": 69,
    "MaxTexture2DLinearWidth": 70, "MaxTexture2DLinearHeight": 71, "MaxTexture2DLinearPitch": 72,
    "MaxTexture2DMipmappedWidth": 73, "MaxTexture2DMipmappedHeight": 74, "ComputeCapabilityMajor": 75,
    "ComputeCapabilityMinor": 76, "MaxTexture1DMipmappedWidth": 77, "StreamPrioritiesSupported": 78,
    "GlobalL1CacheSupported": 79, "LocalL1CacheSupported": 80, "MaxSharedMemoryPerMultiprocessor": 81,
    "MaxRegistersPerMultiprocessor": 82, "ManagedMemory": 83, "IsMultiGpuBoard": 84, "MultiGpuBoardGroupID": 85,
    "HostNativeAtomicSupported": 86, "SingleToDoublePrecisionPerfRatio": 87, "PageableMemoryAccess": 88,
    "ConcurrentManagedAccess": 89, "ComputePreemptionSupported": 90, "CanUseHostPointerForRegisteredMem": 91,
    "CooperativeLaunch": 95, "CooperativeMultiDeviceLaunch": 96, "MaxSharedMemoryPerBlockOptin": 97,
    "CanFlushRemoteWrites": 98, "HostRegisterSupported": 99, "PageableMemoryAccessUsesHostPageTables": 100,
    "DirectManagedMemAccessFromHost": 101, "MaxBlocksPerMultiprocessor": 106, "MaxPersistingL2CacheSize": 108,
    "MaxAccessPolicyWindowSize": 109, "SparseCudaArraySupported": 112, "HostRegisterReadOnlySupported": 113,
    "TimelineSemaphoreInteropSupported": 114, "MaxTimelineSemaphoreInteropSupported": 114,
    "MemoryPoolsSupported": 115, "GPUDirectRDMASupported": 116, "GPUDirectRDMAFlushWritesOptions": 117,
    "GPUDirectRDMAWritesOrdering": 118, "MemoryPoolSupportedHandleTypes": 119, "ClusterLaunch": 120,
    "DeferredMappingCudaArraySupported": 121, "IpcEventSupport": 125, "MemSyncDomainCount": 126, "NumaConfig": 130,
    "NumaId": 131, "MpsEnabled": 133, "HostNumaId": 134, "D3D12CigSupported": 135, "VulkanCigSupported": 138,
    "GpuPciDeviceId": 139, "GpuPciSubsystemId": 140, "HostNumaMemoryPoolsSupported": 142,
    "HostNumaMultinodeIpcSupported": 143, "HostMemoryPoolsSupported": 144,
    "OnlyPartialHostNativeAtomicSupported": 147,
}
for _name, _value in _DEVICE_ATTRIBUTES.items():
    globals()["cudaDevAttr" + _name] = _value
del _name, _value
if TYPE_CHECKING:  # the loop above, for type checkers (a stub that tools/gen_stubs.sh writes)
    from cuarray.cuda._device_attributes import *  # noqa: F401,F403
deviceAttributeComputeCapabilityMajor = cudaDevAttrComputeCapabilityMajor  # noqa: F821 - set just above
deviceAttributeComputeCapabilityMinor = cudaDevAttrComputeCapabilityMinor  # noqa: F821

# cudaArray flags beyond cudaArrayDefault / cudaArraySurfaceLoadStore (issue 17 item 6, cuarray.cuda.texture).
cudaArrayLayered = 0x01
cudaArrayCubemap = 0x04
cudaArrayTextureGather = 0x08
