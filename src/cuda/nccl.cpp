// NCCL loaded on first use through the library table of src/cuda/library.hpp.
#include "src/cuda/nccl.hpp"

#include <mutex>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/cuda/status.hpp"

namespace cuarray::detail::nccl {

namespace {

std::vector<library_symbol> nccl_symbols(api& a) {
  return {
      {"ncclGetVersion", a.get_version},
      {"ncclGetUniqueId", a.get_unique_id},
      {"ncclCommInitRank", a.comm_init_rank},
      {"ncclCommInitAll", a.comm_init_all},
      {"ncclCommDestroy", a.comm_destroy},
      {"ncclCommAbort", a.comm_abort},
      {"ncclCommGetAsyncError", a.comm_get_async_error},
      {"ncclCommCount", a.comm_count},
      {"ncclCommCuDevice", a.comm_cu_device},
      {"ncclCommUserRank", a.comm_user_rank},
      {"ncclAllReduce", a.all_reduce},
      {"ncclReduce", a.reduce},
      {"ncclBroadcast", a.broadcast},
      {"ncclAllGather", a.all_gather},
      {"ncclReduceScatter", a.reduce_scatter},
      {"ncclSend", a.send},
      {"ncclRecv", a.recv},
      {"ncclGroupStart", a.group_start},
      {"ncclGroupEnd", a.group_end},
      {"ncclGetErrorString", a.get_error_string},
  };
}

struct loaded_api {
  api fns;
  cuda_library lib;
};

const loaded_api& loaded() {
  static std::once_flag once;
  static loaded_api l;
  std::call_once(once, [] { l.lib = load(l.fns); });
  if (!l.lib.handle) throw cuda_error(-1, l.lib.error);
  return l;
}

}  // namespace

const library_spec& library() {
  // One soname since NCCL 2.0. The wheel names both CUDA lines: unlike the other libraries, CUDA 13's NCCL
  // wheel keeps its suffix (nvidia-nccl-cu13; plain nvidia-nccl is a placeholder on PyPI).
  static const library_spec spec{"NCCL (libnccl)",
                                 "nvidia-nccl-cu13 or nvidia-nccl-cu12",
                                 {"libnccl.so.2", "libnccl.so"},
                                 "CUARRAY_NCCL_PATH",
                                 "NCCL (libnccl2)"};
  return spec;
}

cuda_library load(api& fns) { return load_library(library(), nccl_symbols(fns)); }

const api& get() { return loaded().fns; }

int version() {
  int v = 0;
  check(get().get_version(&v), "ncclGetVersion");
  return v;
}

std::string path() { return loaded().lib.path; }

void check(result r, const char* call) {
  if (r == success) return;
  std::string what = status_text(status_source::nccl, r);
  const char* text = get().get_error_string ? get().get_error_string(r) : nullptr;
  if (text && what != text) what += std::string(": ") + text;
  throw cuda_error(-1, what + " (in " + call + ")");
}

}  // namespace cuarray::detail::nccl
