// Thin NCCL bindings (the native part of cuarray.cuda.nccl): handles, buffers and streams are plain ints, and
// every call returns NCCL's ncclResult_t so that the Python side raises NcclError with NCCL's own status.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "cuarray/device.hpp"
#include "src/cuda/nccl.hpp"

namespace cuarray::py {

namespace {

namespace nc = detail::nccl;

const void* cptr(std::intptr_t v) { return reinterpret_cast<const void*>(v); }
void* mptr(std::intptr_t v) { return reinterpret_cast<void*>(v); }
nc::comm as_comm(std::intptr_t v) { return reinterpret_cast<nc::comm>(v); }
cudaStream_t as_stream(std::intptr_t v) { return reinterpret_cast<cudaStream_t>(v); }

// NCCL creates a communicator on the runtime's current device; cuarray caches its own per thread, so both
// must agree before an init call (as in cuda_api.cpp's use_current_device).
void sync_runtime_device() {
  if (is_available()) activate_device(current_device());
}

}  // namespace

void init_nccl(nb::module_& m) {
  nb::module_ c = m.def_submodule("_nccl", "NCCL collectives (cuarray.cuda.nccl)");
  // "" when NCCL loaded, else the loader's message naming every place searched and the wheel to install.
  c.def("_load_error", []() -> std::string {
    try {
      (void)nc::get();
      return {};
    } catch (const std::exception& e) {
      return e.what();
    }
  });
  c.def("_path", &nc::path);
  c.def("_error_string", [](int r) -> std::string {
    const char* s = nc::get().get_error_string ? nc::get().get_error_string(r) : nullptr;
    return s ? s : "";
  });
  c.def("_get_version", []() {
    int v = 0;
    int r = nc::get().get_version(&v);
    return std::make_pair(r, v);
  });
  // The id as 128 signed chars, CuPy's representation (a tuple of ints that pickles across processes).
  c.def("_get_unique_id", []() {
    nc::unique_id id{};
    int r = nc::get().get_unique_id(&id);
    std::vector<int> bytes(sizeof(id.internal));
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<signed char>(id.internal[i]);
    return std::make_pair(r, bytes);
  });
  c.def("_comm_init_rank", [](int ndev, const std::vector<int>& bytes, int rank) {
    nc::unique_id id{};
    if (bytes.size() != sizeof(id.internal)) throw value_error("an NCCL unique id has 128 entries");
    for (std::size_t i = 0; i < bytes.size(); ++i) id.internal[i] = static_cast<char>(bytes[i]);
    const nc::api& a = nc::get();
    sync_runtime_device();
    nc::comm comm = nullptr;
    int r;
    {
      nb::gil_scoped_release nogil;  // blocks until every rank joined, possibly from other threads
      r = a.comm_init_rank(&comm, ndev, id, rank);
    }
    return std::make_pair(r, reinterpret_cast<std::intptr_t>(comm));
  });
  c.def("_comm_init_all", [](const std::vector<int>& devices) {
    const nc::api& a = nc::get();
    std::vector<nc::comm> comms(devices.size(), nullptr);
    int r;
    {
      nb::gil_scoped_release nogil;
      r = a.comm_init_all(comms.data(), static_cast<int>(devices.size()), devices.data());
    }
    // ncclCommInitAll changes the runtime's device; restore the one cuarray believes current.
    sync_runtime_device();
    std::vector<std::intptr_t> out;
    for (nc::comm h : comms) out.push_back(reinterpret_cast<std::intptr_t>(h));
    return std::make_pair(r, out);
  });
  c.def("_comm_destroy", [](std::intptr_t comm) { return nc::get().comm_destroy(as_comm(comm)); });
  c.def("_comm_abort", [](std::intptr_t comm) { return nc::get().comm_abort(as_comm(comm)); });
  c.def("_comm_get_async_error", [](std::intptr_t comm) {
    int e = 0;
    int r = nc::get().comm_get_async_error(as_comm(comm), &e);
    return std::make_pair(r, e);
  });
  c.def("_comm_count", [](std::intptr_t comm) {
    int v = 0;
    int r = nc::get().comm_count(as_comm(comm), &v);
    return std::make_pair(r, v);
  });
  c.def("_comm_cu_device", [](std::intptr_t comm) {
    int v = 0;
    int r = nc::get().comm_cu_device(as_comm(comm), &v);
    return std::make_pair(r, v);
  });
  c.def("_comm_user_rank", [](std::intptr_t comm) {
    int v = 0;
    int r = nc::get().comm_user_rank(as_comm(comm), &v);
    return std::make_pair(r, v);
  });
  // Collectives release the GIL: outside a group, NCCL may block until the other ranks (other threads) join.
  c.def("_all_reduce", [](std::intptr_t comm, std::intptr_t send, std::intptr_t recv, std::size_t count, int dtype,
                          int op, std::intptr_t stream) {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.all_reduce(cptr(send), mptr(recv), count, dtype, op, as_comm(comm), as_stream(stream));
  });
  c.def("_reduce", [](std::intptr_t comm, std::intptr_t send, std::intptr_t recv, std::size_t count, int dtype, int op,
                      int root, std::intptr_t stream) {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.reduce(cptr(send), mptr(recv), count, dtype, op, root, as_comm(comm), as_stream(stream));
  });
  c.def("_broadcast", [](std::intptr_t comm, std::intptr_t send, std::intptr_t recv, std::size_t count, int dtype,
                         int root, std::intptr_t stream) {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.broadcast(cptr(send), mptr(recv), count, dtype, root, as_comm(comm), as_stream(stream));
  });
  c.def("_all_gather", [](std::intptr_t comm, std::intptr_t send, std::intptr_t recv, std::size_t count, int dtype,
                          std::intptr_t stream) {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.all_gather(cptr(send), mptr(recv), count, dtype, as_comm(comm), as_stream(stream));
  });
  c.def("_reduce_scatter", [](std::intptr_t comm, std::intptr_t send, std::intptr_t recv, std::size_t count, int dtype,
                              int op, std::intptr_t stream) {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.reduce_scatter(cptr(send), mptr(recv), count, dtype, op, as_comm(comm), as_stream(stream));
  });
  c.def("_send",
        [](std::intptr_t comm, std::intptr_t send, std::size_t count, int dtype, int peer, std::intptr_t stream) {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.send(cptr(send), count, dtype, peer, as_comm(comm), as_stream(stream));
  });
  c.def("_recv",
        [](std::intptr_t comm, std::intptr_t recv, std::size_t count, int dtype, int peer, std::intptr_t stream) {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.recv(mptr(recv), count, dtype, peer, as_comm(comm), as_stream(stream));
  });
  c.def("_group_start", []() { return nc::get().group_start(); });
  c.def("_group_end", []() {
    const nc::api& a = nc::get();
    nb::gil_scoped_release nogil;
    return a.group_end();
  });
}

}  // namespace cuarray::py
