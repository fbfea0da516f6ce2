// CUDA arrays, texture and surface objects through the CUDA runtime (the host side of cuarray.cuda.texture).
#include <cuda_runtime_api.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "src/cuda/cuda.hpp"

namespace cuarray::py {

namespace {

// The Python classes (cuarray/cuda/texture.py) validate their arguments and keep the objects a handle refers
// to alive; these functions only translate plain values into the runtime's structs. Handles are ints, as in
// CuPy's runtime module.

void rt(cudaError_t st) {
  if (st == cudaSuccess) return;
  (void)detail::cudart().cudaGetLastError();  // a non-sticky error must not resurface in a later call
  throw cuda_error(static_cast<int>(st), detail::runtime_status_message(st));
}

// cuarray keeps its own per-thread current device (src/cuda/runtime.cpp); the runtime must act on the same one.
void use_current_device() { activate_device(current_device()); }

cudaChannelFormatDesc channel_desc(int x, int y, int z, int w, int f) {
  cudaChannelFormatDesc d;
  std::memset(&d, 0, sizeof(d));
  d.x = x;
  d.y = y;
  d.z = z;
  d.w = w;
  d.f = static_cast<cudaChannelFormatKind>(f);
  return d;
}

cudaStream_t as_stream(std::intptr_t s) { return reinterpret_cast<cudaStream_t>(s); }

cudaExtent extent(std::size_t w, std::size_t h, std::size_t d) {
  cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

void init_texture_api(nb::module_& t) {
  t.def(
      "malloc3DArray",
      [](int x, int y, int z, int w, int f, std::size_t width, std::size_t height, std::size_t depth, unsigned flags) {
    use_current_device();
    cudaChannelFormatDesc d = channel_desc(x, y, z, w, f);
    cudaArray_t arr = nullptr;
    rt(detail::cudart().cudaMalloc3DArray(&arr, &d, extent(width, height, depth), flags));
    return reinterpret_cast<std::intptr_t>(arr);
      },
      nb::arg("x"), nb::arg("y"), nb::arg("z"), nb::arg("w"), nb::arg("f"), nb::arg("width"), nb::arg("height"),
      nb::arg("depth"), nb::arg("flags"));
  t.def(
      "freeArray", [](std::intptr_t arr) { rt(detail::cudart().cudaFreeArray(reinterpret_cast<cudaArray_t>(arr))); },
      nb::arg("array"));
  // One copy between a CUDA array of width x height x depth elements (height and depth at least 1: the
  // runtime copies nothing along an extent of 0) and linear memory at `ptr` whose rows are `row_bytes` apart.
  t.def(
      "memcpy3DArray",
      [](std::intptr_t arr, std::size_t width, std::size_t height, std::size_t depth, std::intptr_t ptr,
         std::size_t row_bytes, std::size_t row_elems, std::size_t rows, bool to_array, int kind,
         std::intptr_t stream) {
    use_current_device();
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof(p));
    cudaPitchedPtr linear;
    linear.ptr = reinterpret_cast<void*>(ptr);
    linear.pitch = row_bytes;
    linear.xsize = row_elems;
    linear.ysize = rows;
    if (to_array) {
      p.srcPtr = linear;
      p.dstArray = reinterpret_cast<cudaArray_t>(arr);
    } else {
      p.srcArray = reinterpret_cast<cudaArray_t>(arr);
      p.dstPtr = linear;
    }
    p.extent = extent(width, height, depth);
    p.kind = static_cast<cudaMemcpyKind>(kind);
    nb::gil_scoped_release release;
    rt(detail::cudart().cudaMemcpy3DAsync(&p, as_stream(stream)));
      },
      nb::arg("array"), nb::arg("width"), nb::arg("height"), nb::arg("depth"), nb::arg("ptr"), nb::arg("row_bytes"),
      nb::arg("row_elems"), nb::arg("rows"), nb::arg("to_array"), nb::arg("kind"), nb::arg("stream"));
  t.def(
      "createTextureObject",
      [](int restype, std::intptr_t arr, std::intptr_t dev_ptr, std::vector<int> ch, std::size_t size_in_bytes,
         std::size_t width, std::size_t height, std::size_t pitch, std::vector<int> address_modes, int filter_mode,
         int read_mode, int srgb, std::vector<float> border_color, int normalized_coords, unsigned max_anisotropy) {
    if (ch.size() != 5) throw value_error("a channel format has five fields (x, y, z, w, f)");
    if (address_modes.size() > 3) throw value_error("at most 3 address modes");
    if (border_color.size() > 4) throw value_error("at most 4 border colors");
    use_current_device();
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof(r));
    r.resType = static_cast<cudaResourceType>(restype);
    cudaChannelFormatDesc d = channel_desc(ch[0], ch[1], ch[2], ch[3], ch[4]);
    switch (restype) {
      case cudaResourceTypeArray: r.res.array.array = reinterpret_cast<cudaArray_t>(arr); break;
      case cudaResourceTypeLinear:
        r.res.linear.devPtr = reinterpret_cast<void*>(dev_ptr);
        r.res.linear.desc = d;
        r.res.linear.sizeInBytes = size_in_bytes;
        break;
      case cudaResourceTypePitch2D:
        r.res.pitch2D.devPtr = reinterpret_cast<void*>(dev_ptr);
        r.res.pitch2D.desc = d;
        r.res.pitch2D.width = width;
        r.res.pitch2D.height = height;
        r.res.pitch2D.pitchInBytes = pitch;
        break;
      default: throw value_error("unsupported resource type " + std::to_string(restype));
    }
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof(td));
    for (std::size_t i = 0; i < address_modes.size(); ++i) {
      td.addressMode[i] = static_cast<cudaTextureAddressMode>(address_modes[i]);
    }
    td.filterMode = static_cast<cudaTextureFilterMode>(filter_mode);
    td.readMode = static_cast<cudaTextureReadMode>(read_mode);
    td.sRGB = srgb;
    for (std::size_t i = 0; i < border_color.size(); ++i) td.borderColor[i] = border_color[i];
    td.normalizedCoords = normalized_coords;
    td.maxAnisotropy = max_anisotropy;
    cudaTextureObject_t obj = 0;
    rt(detail::cudart().cudaCreateTextureObject(&obj, &r, &td, nullptr));
    return static_cast<std::uint64_t>(obj);
      },
      nb::arg("restype"), nb::arg("array"), nb::arg("dev_ptr"), nb::arg("channel"), nb::arg("size_in_bytes"),
      nb::arg("width"), nb::arg("height"), nb::arg("pitch"), nb::arg("address_modes"), nb::arg("filter_mode"),
      nb::arg("read_mode"), nb::arg("srgb"), nb::arg("border_color"), nb::arg("normalized_coords"),
      nb::arg("max_anisotropy"));
  t.def(
      "destroyTextureObject",
      [](std::uint64_t obj) { rt(detail::cudart().cudaDestroyTextureObject(static_cast<cudaTextureObject_t>(obj))); },
      nb::arg("obj"));
  t.def(
      "createSurfaceObject",
      [](std::intptr_t arr) {
    use_current_device();
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof(r));
    r.resType = cudaResourceTypeArray;
    r.res.array.array = reinterpret_cast<cudaArray_t>(arr);
    cudaSurfaceObject_t obj = 0;
    rt(detail::cudart().cudaCreateSurfaceObject(&obj, &r));
    return static_cast<std::uint64_t>(obj);
      },
      nb::arg("array"));
  t.def(
      "destroySurfaceObject",
      [](std::uint64_t obj) { rt(detail::cudart().cudaDestroySurfaceObject(static_cast<cudaSurfaceObject_t>(obj))); },
      nb::arg("obj"));
  // The current stream's handle, for copies that take stream=None.
  t.def("current_stream_ptr", [] { return reinterpret_cast<std::intptr_t>(current_stream().get()); });
}

}  // namespace

void init_texture(nb::module_& m) {
  nb::module_ t = m.def_submodule("_texture", "CUDA arrays, texture and surface objects (cuarray.cuda.texture)");
  init_texture_api(t);
}

}  // namespace cuarray::py
