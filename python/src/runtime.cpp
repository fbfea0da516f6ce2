// Bindings of devices, streams and events (cuarray.cuda builds its classes on these).
#include <cuda_runtime_api.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>

#include "common.hpp"
#include "src/cuda/cuda.hpp"

namespace cuarray::py {

namespace {

nb::dict device_properties(int id) {
  require_device();
  if (id < 0 || id >= device_count()) {
    // CuPy's message: the status name, then the runtime's description.
    throw cuda_error(static_cast<int>(cudaErrorInvalidDevice), "cudaErrorInvalidDevice: invalid device ordinal");
  }
  cudaDeviceProp p;
  CUARRAY_CUDA_CHECK(detail::cudart().cudaGetDeviceProperties(&p, id));
  nb::dict d;
  d["name"] = nb::bytes(p.name, std::strlen(p.name));
  d["totalGlobalMem"] = p.totalGlobalMem;
  d["sharedMemPerBlock"] = p.sharedMemPerBlock;
  d["regsPerBlock"] = p.regsPerBlock;
  d["warpSize"] = p.warpSize;
  d["memPitch"] = p.memPitch;
  d["maxThreadsPerBlock"] = p.maxThreadsPerBlock;
  d["maxThreadsDim"] = nb::make_tuple(p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  d["maxGridSize"] = nb::make_tuple(p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  d["totalConstMem"] = p.totalConstMem;
  d["major"] = p.major;
  d["minor"] = p.minor;
  d["textureAlignment"] = p.textureAlignment;
  d["multiProcessorCount"] = p.multiProcessorCount;
  d["integrated"] = p.integrated;
  d["canMapHostMemory"] = p.canMapHostMemory;
  d["concurrentKernels"] = p.concurrentKernels;
  d["ECCEnabled"] = p.ECCEnabled;
  d["pciBusID"] = p.pciBusID;
  d["pciDeviceID"] = p.pciDeviceID;
  d["pciDomainID"] = p.pciDomainID;
  d["asyncEngineCount"] = p.asyncEngineCount;
  d["unifiedAddressing"] = p.unifiedAddressing;
  d["memoryBusWidth"] = p.memoryBusWidth;
  d["l2CacheSize"] = p.l2CacheSize;
  d["persistingL2CacheMaxSize"] = p.persistingL2CacheMaxSize;
  d["maxThreadsPerMultiProcessor"] = p.maxThreadsPerMultiProcessor;
  d["sharedMemPerMultiprocessor"] = p.sharedMemPerMultiprocessor;
  d["regsPerMultiprocessor"] = p.regsPerMultiprocessor;
  d["managedMemory"] = p.managedMemory;
  d["isMultiGpuBoard"] = p.isMultiGpuBoard;
  d["concurrentManagedAccess"] = p.concurrentManagedAccess;
  d["sharedMemPerBlockOptin"] = p.sharedMemPerBlockOptin;
  d["maxBlocksPerMultiProcessor"] = p.maxBlocksPerMultiProcessor;
  d["uuid"] = nb::bytes(p.uuid.bytes, 16);
  // The rest of CuPy's keys. Fields CUDA 13 dropped from cudaDeviceProp come from device attributes.
  auto t2 = [](const int* v) { return nb::make_tuple(v[0], v[1]); };
  auto t3 = [](const int* v) { return nb::make_tuple(v[0], v[1], v[2]); };
  auto attr = [id](cudaDeviceAttr a) { return device_attribute(id, static_cast<int>(a)); };
  d["clockRate"] = attr(cudaDevAttrClockRate);
  d["kernelExecTimeoutEnabled"] = attr(cudaDevAttrKernelExecTimeout);
  d["memoryClockRate"] = attr(cudaDevAttrMemoryClockRate);
  d["computeMode"] = attr(cudaDevAttrComputeMode);
  d["deviceOverlap"] = attr(cudaDevAttrGpuOverlap);
  d["maxTexture1DLinear"] = attr(cudaDevAttrMaxTexture1DLinearWidth);
  d["singleToDoublePrecisionPerfRatio"] = attr(cudaDevAttrSingleToDoublePrecisionPerfRatio);
  d["cooperativeMultiDeviceLaunch"] = 0;  // CUDA 13 removed multi-device cooperative launches
  d["texturePitchAlignment"] = p.texturePitchAlignment;
  d["maxTexture1D"] = p.maxTexture1D;
  d["maxTexture2D"] = t2(p.maxTexture2D);
  d["maxTexture3D"] = t3(p.maxTexture3D);
  d["tccDriver"] = p.tccDriver;
  d["cooperativeLaunch"] = p.cooperativeLaunch;
  d["maxTexture1DMipmap"] = p.maxTexture1DMipmap;
  d["maxTexture1DLayered"] = t2(p.maxTexture1DLayered);
  d["maxTexture2DMipmap"] = t2(p.maxTexture2DMipmap);
  d["maxTexture2DLinear"] = t3(p.maxTexture2DLinear);
  d["maxTexture2DLayered"] = t3(p.maxTexture2DLayered);
  d["maxTexture2DGather"] = t2(p.maxTexture2DGather);
  d["maxTexture3DAlt"] = t3(p.maxTexture3DAlt);
  d["maxTextureCubemap"] = p.maxTextureCubemap;
  d["maxTextureCubemapLayered"] = t2(p.maxTextureCubemapLayered);
  d["maxSurface1D"] = p.maxSurface1D;
  d["maxSurface1DLayered"] = t2(p.maxSurface1DLayered);
  d["maxSurface2D"] = t2(p.maxSurface2D);
  d["maxSurface2DLayered"] = t3(p.maxSurface2DLayered);
  d["maxSurface3D"] = t3(p.maxSurface3D);
  d["maxSurfaceCubemap"] = p.maxSurfaceCubemap;
  d["maxSurfaceCubemapLayered"] = t2(p.maxSurfaceCubemapLayered);
  d["surfaceAlignment"] = p.surfaceAlignment;
  d["streamPrioritiesSupported"] = p.streamPrioritiesSupported;
  d["globalL1CacheSupported"] = p.globalL1CacheSupported;
  d["localL1CacheSupported"] = p.localL1CacheSupported;
  d["multiGpuBoardGroupID"] = p.multiGpuBoardGroupID;
  d["hostNativeAtomicSupported"] = p.hostNativeAtomicSupported;
  d["pageableMemoryAccess"] = p.pageableMemoryAccess;
  d["computePreemptionSupported"] = p.computePreemptionSupported;
  d["canUseHostPointerForRegisteredMem"] = p.canUseHostPointerForRegisteredMem;
  d["pageableMemoryAccessUsesHostPageTables"] = p.pageableMemoryAccessUsesHostPageTables;
  d["directManagedMemAccessFromHost"] = p.directManagedMemAccessFromHost;
  d["luid"] = nb::bytes(p.luid, 8);
  d["luidDeviceNodeMask"] = p.luidDeviceNodeMask;
  d["accessPolicyMaxWindowSize"] = p.accessPolicyMaxWindowSize;
  d["reservedSharedMemPerBlock"] = p.reservedSharedMemPerBlock;
  return d;
}

// Device attributes by CuPy's names (cudaDevAttr without the prefix).
nb::dict device_attributes(int id) {
  static const std::pair<const char*, cudaDeviceAttr> attrs[] = {
      {"MaxThreadsPerBlock", cudaDevAttrMaxThreadsPerBlock},
      {"MaxBlockDimX", cudaDevAttrMaxBlockDimX},
      {"MaxBlockDimY", cudaDevAttrMaxBlockDimY},
      {"MaxBlockDimZ", cudaDevAttrMaxBlockDimZ},
      {"MaxGridDimX", cudaDevAttrMaxGridDimX},
      {"MaxGridDimY", cudaDevAttrMaxGridDimY},
      {"MaxGridDimZ", cudaDevAttrMaxGridDimZ},
      {"MaxSharedMemoryPerBlock", cudaDevAttrMaxSharedMemoryPerBlock},
      {"TotalConstantMemory", cudaDevAttrTotalConstantMemory},
      {"WarpSize", cudaDevAttrWarpSize},
      {"MaxPitch", cudaDevAttrMaxPitch},
      {"MaxRegistersPerBlock", cudaDevAttrMaxRegistersPerBlock},
      {"TextureAlignment", cudaDevAttrTextureAlignment},
      {"MultiProcessorCount", cudaDevAttrMultiProcessorCount},
      {"Integrated", cudaDevAttrIntegrated},
      {"CanMapHostMemory", cudaDevAttrCanMapHostMemory},
      {"ConcurrentKernels", cudaDevAttrConcurrentKernels},
      {"EccEnabled", cudaDevAttrEccEnabled},
      {"PciBusId", cudaDevAttrPciBusId},
      {"PciDeviceId", cudaDevAttrPciDeviceId},
      {"PciDomainId", cudaDevAttrPciDomainId},
      {"AsyncEngineCount", cudaDevAttrAsyncEngineCount},
      {"UnifiedAddressing", cudaDevAttrUnifiedAddressing},
      {"GlobalMemoryBusWidth", cudaDevAttrGlobalMemoryBusWidth},
      {"L2CacheSize", cudaDevAttrL2CacheSize},
      {"MaxThreadsPerMultiProcessor", cudaDevAttrMaxThreadsPerMultiProcessor},
      {"ComputeCapabilityMajor", cudaDevAttrComputeCapabilityMajor},
      {"ComputeCapabilityMinor", cudaDevAttrComputeCapabilityMinor},
      {"StreamPrioritiesSupported", cudaDevAttrStreamPrioritiesSupported},
      {"GlobalL1CacheSupported", cudaDevAttrGlobalL1CacheSupported},
      {"LocalL1CacheSupported", cudaDevAttrLocalL1CacheSupported},
      {"MaxSharedMemoryPerMultiprocessor", cudaDevAttrMaxSharedMemoryPerMultiprocessor},
      {"MaxRegistersPerMultiprocessor", cudaDevAttrMaxRegistersPerMultiprocessor},
      {"ManagedMemory", cudaDevAttrManagedMemory},
      {"IsMultiGpuBoard", cudaDevAttrIsMultiGpuBoard},
      {"PageableMemoryAccess", cudaDevAttrPageableMemoryAccess},
      {"ConcurrentManagedAccess", cudaDevAttrConcurrentManagedAccess},
      {"ComputePreemptionSupported", cudaDevAttrComputePreemptionSupported},
      {"CooperativeLaunch", cudaDevAttrCooperativeLaunch},
      {"MaxSharedMemoryPerBlockOptin", cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {"MaxBlocksPerMultiprocessor", cudaDevAttrMaxBlocksPerMultiprocessor},
      {"MemoryPoolsSupported", cudaDevAttrMemoryPoolsSupported},
  };
  nb::dict d;
  for (const auto& [n, a] : attrs) d[n] = device_attribute(id, static_cast<int>(a));
  return d;
}

// Owning stream handed to Python; the Python Stream class keeps one of these.
struct py_stream {
  std::unique_ptr<stream> s;
  std::uintptr_t ptr() const { return s ? s->ref().ptr() : 0; }
};

stream_ref ref_of(std::uintptr_t ptr) { return stream_ref(reinterpret_cast<CUstream_st*>(ptr)); }

}  // namespace

void init_runtime(nb::module_& m) {
  m.def("is_available", &is_available);
  // (what, path) of each CUDA library loaded so far: which copy (pip wheel or toolkit) the process uses.
  m.def("cuda_library_paths", &detail::loaded_cuda_libraries);
  m.def("get_device_count", [] {
    int n = 0;
    CUARRAY_CUDA_CHECK(detail::cudart().cudaGetDeviceCount(&n));
    return n;
  });
  m.def("device_count_or_zero", &device_count);
  m.def("get_device_id", &current_device);
  m.def("set_device_id", &set_current_device);
  // Without the GIL, as stream_synchronize: another thread (a Dask worker's event loop) runs meanwhile.
  m.def("device_synchronize", &device_synchronize, nb::call_guard<nb::gil_scoped_release>());
  m.def("compute_capability", &compute_capability);
  m.def("device_attribute", &device_attribute);
  m.def("device_attributes", &device_attributes);
  m.def("mem_info", &mem_info);
  m.def("get_device_properties", &device_properties);
  m.def("runtime_version", &runtime_version);
  m.def("driver_version", &driver_version);
  m.def("validate_device", [](int id) {
    require_device();
    if (id < 0 || id >= device_count()) {
      throw cuda_error(static_cast<int>(cudaErrorInvalidDevice),
                       "cudaErrorInvalidDevice: invalid device ordinal " + std::to_string(id));
    }
  });
  nb::class_<py_stream>(m, "_StreamHandle")
      .def(
          "__init__",
          [](py_stream* self, bool non_blocking, int priority) {
    require_device();
    new (self) py_stream{std::make_unique<stream>(non_blocking, priority)};
          },
          nb::arg("non_blocking") = false, nb::arg("priority") = 0)
      .def_prop_ro("ptr", &py_stream::ptr)
      .def_prop_ro("device_id", [](const py_stream& s) { return s.s ? s.s->device() : 0; })
      .def("close", [](py_stream& s) { s.s.reset(); });

  m.def("stream_synchronize", [](std::uintptr_t ptr) {
    nb::gil_scoped_release release;
    ref_of(ptr).synchronize();
  });
  m.def("stream_query", [](std::uintptr_t ptr) { return ref_of(ptr).query(); });
  m.def("stream_wait_event", [](std::uintptr_t ptr, const event& e) { ref_of(ptr).wait(e); });
  m.def("set_current_stream_ptr", [](std::uintptr_t ptr) { set_current_stream(ref_of(ptr)); });
  m.def("get_current_stream_ptr", [] { return current_stream().ptr(); });
  m.def("stream_priority_range", [] {
    int least = 0, greatest = 0;
    stream_priority_range(least, greatest);
    return std::make_pair(least, greatest);
  });

  nb::class_<event>(m, "_EventHandle")
      .def(
          "__init__",
          [](event* self, bool block, bool disable_timing, bool interprocess) {
    require_device();
    if (interprocess && !disable_timing) {
      throw value_error("Timing must be disabled for interprocess events");
    }
    new (self) event(block, disable_timing, interprocess);
          },
          nb::arg("block") = false, nb::arg("disable_timing") = false, nb::arg("interprocess") = false)
      .def("record", [](event& e, std::uintptr_t stream_ptr) { e.record(ref_of(stream_ptr)); })
      .def(
          "synchronize",
          [](event& e) {
    nb::gil_scoped_release release;
    e.synchronize();
          })
      .def("query", &event::query)
      .def_prop_ro("ptr", [](const event& e) { return reinterpret_cast<std::uintptr_t>(e.get()); });
  m.def("elapsed_time", &elapsed_time);

  // CUDA graphs (cuarray.cuda.Graph and Stream.begin_capture / end_capture are built on these).
  nb::class_<graph>(m, "_GraphHandle")
      .def("launch", [](graph& g, std::uintptr_t stream_ptr) { g.launch(ref_of(stream_ptr)); })
      .def("upload", [](graph& g, std::uintptr_t stream_ptr) { g.upload(ref_of(stream_ptr)); })
      .def("debug_dot_str", &graph::debug_dot_str, nb::arg("flags") = 0u)
      .def_prop_ro("graph", &graph::graph_handle)
      .def_prop_ro("graph_exec", &graph::exec_handle);
  m.def("stream_begin_capture", [](std::uintptr_t ptr, int mode) { begin_capture(ref_of(ptr), mode); });
  m.def("stream_end_capture", [](std::uintptr_t ptr) { return end_capture(ref_of(ptr)); });
  m.def("stream_is_capturing", [](std::uintptr_t ptr) { return is_capturing(ref_of(ptr)); });
}

}  // namespace cuarray::py
