// cuFFT loaded on first use (src/cuda/library.hpp), the per-device LRU plan cache (CuPy's PlanCache semantics)
// and plan execution.
#include "src/fft/cufft.hpp"

#include <cufft.h>

#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/fft.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/library.hpp"
#include "src/cuda/status.hpp"

namespace cuarray::detail::fft {

namespace {

// ---------------------------------------------------------------------------------------------------------
// Loading: cufft.h gives the types and enums only; every call goes through these pointers.

struct cufft_api {
  std::string load_error;
  cufftResult (*create)(cufftHandle*) = nullptr;
  cufftResult (*destroy)(cufftHandle) = nullptr;
  cufftResult (*set_auto_allocation)(cufftHandle, int) = nullptr;
  cufftResult (*make_plan_many64)(cufftHandle, int, long long*, long long*, long long, long long, long long*, long long,
                                  long long, cufftType, long long, size_t*) = nullptr;
  cufftResult (*set_work_area)(cufftHandle, void*) = nullptr;
  cufftResult (*set_stream)(cufftHandle, cudaStream_t) = nullptr;
  cufftResult (*exec_c2c)(cufftHandle, cufftComplex*, cufftComplex*, int) = nullptr;
  cufftResult (*exec_z2z)(cufftHandle, cufftDoubleComplex*, cufftDoubleComplex*, int) = nullptr;
  cufftResult (*exec_r2c)(cufftHandle, cufftReal*, cufftComplex*) = nullptr;
  cufftResult (*exec_d2z)(cufftHandle, cufftDoubleReal*, cufftDoubleComplex*) = nullptr;
  cufftResult (*exec_c2r)(cufftHandle, cufftComplex*, cufftReal*) = nullptr;
  cufftResult (*exec_z2d)(cufftHandle, cufftDoubleComplex*, cufftDoubleReal*) = nullptr;
};

// CUDA 13 ships cuFFT 12 (libcufft.so.12), CUDA 12 ships cuFFT 11.
const library_spec cufft_library{"cuFFT (libcufft)",
                                 "nvidia-cufft-cu12/cu13",
                                 {"libcufft.so.13", "libcufft.so.12", "libcufft.so.11", "libcufft.so"},
                                 "CUARRAY_CUFFT_PATH"};

std::vector<library_symbol> cufft_symbols(cufft_api& a) {
  return {
      {"cufftCreate", a.create},
      {"cufftDestroy", a.destroy},
      {"cufftSetAutoAllocation", a.set_auto_allocation},
      {"cufftMakePlanMany64", a.make_plan_many64},
      {"cufftSetWorkArea", a.set_work_area},
      {"cufftSetStream", a.set_stream},
      {"cufftExecC2C", a.exec_c2c},
      {"cufftExecZ2Z", a.exec_z2z},
      {"cufftExecR2C", a.exec_r2c},
      {"cufftExecD2Z", a.exec_d2z},
      {"cufftExecC2R", a.exec_c2r},
      {"cufftExecZ2D", a.exec_z2d},
  };
}

const cufft_api& cufft() {
  static cufft_api api;
  static std::once_flag once;
  std::call_once(once, [] {
    cuda_library lib = load_library(cufft_library, cufft_symbols(api));
    if (!lib.handle) api.load_error = lib.error;
  });
  if (!api.load_error.empty()) throw cuda_error(-1, api.load_error);
  return api;
}

void check(cufftResult r, const char* call, const std::string& what = {}) {
  if (r == CUFFT_SUCCESS) return;
  std::string msg = std::string("cuFFT: ") + call + " failed with " + status_text(status_source::cufft, r) + " (" +
                    std::to_string(static_cast<int>(r)) + ")";
  if (!what.empty()) msg += " for " + what;
  throw cuda_error(-1, msg);
}

cufftType type_of(transform_kind kind, precision prec) {
  bool d = prec == precision::double_;
  switch (kind) {
    case transform_kind::c2c: return d ? CUFFT_Z2Z : CUFFT_C2C;
    case transform_kind::r2c: return d ? CUFFT_D2Z : CUFFT_R2C;
    default: return d ? CUFFT_Z2D : CUFFT_C2R;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Note [fft plan cache]: one LRU cache of plans per device, shared by all threads (CuPy's is per thread; one
// mutex held while a plan is bound to a stream and enqueued makes sharing safe, and the work is only
// enqueueing). A plan is created with auto-allocation off: each execution borrows its work area from the
// memory pool on the current stream, so a cached plan holds no work area, and `memsize` counts the work area
// each cached plan borrows when it runs. Limits of -1 are unlimited; 0 disables the cache (plans are then
// destroyed after their call). The caches live until the process ends: destroying plans at exit could run
// after the driver is gone.

struct plan_key {
  int type, rank;
  long long n[3], inembed[3], onembed[3];
  long long istride, idist, ostride, odist, batch;

  friend bool operator==(const plan_key& a, const plan_key& b) { return std::memcmp(&a, &b, sizeof(plan_key)) == 0; }
};

struct plan_key_hash {
  std::size_t operator()(const plan_key& k) const {
    const auto* p = reinterpret_cast<const unsigned char*>(&k);
    std::size_t h = 1469598103934665603ull;
    for (std::size_t i = 0; i < sizeof(plan_key); ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
  }
};

plan_key make_key(const plan_layout& l, cufftType type) {
  plan_key k;
  std::memset(&k, 0, sizeof(k));  // padding takes part in the hash and comparison
  k.type = static_cast<int>(type);
  k.rank = l.rank;
  for (int i = 0; i < l.rank; ++i) {
    k.n[i] = l.n[i];
    k.inembed[i] = l.inembed[i];
    k.onembed[i] = l.onembed[i];
  }
  k.istride = l.istride;
  k.idist = l.idist;
  k.ostride = l.ostride;
  k.odist = l.odist;
  k.batch = l.batch;
  return k;
}

struct cached_plan {
  plan_key key;
  cufftHandle handle;
  std::size_t work_size;
  std::string text;
};

struct device_cache {
  std::list<cached_plan> lru;  // most recently used first
  std::unordered_map<plan_key, std::list<cached_plan>::iterator, plan_key_hash> index;
  std::int64_t size = 16, memsize = -1, curr_memsize = 0;
  std::uint64_t hits = 0, misses = 0;

  bool enabled() const { return size != 0 && memsize != 0; }
};

struct cache_state {
  std::mutex m;
  std::unordered_map<int, device_cache> devices;
};

cache_state& state() {
  static auto* s = new cache_state;  // never destroyed (Note [fft plan cache])
  return *s;
}

void destroy_plan(int device, cufftHandle h) {
  enter_device(device);
  cufft().destroy(h);  // a failure to destroy leaves nothing to recover
}

void pop_lru(int device, device_cache& c) {
  cached_plan& victim = c.lru.back();
  destroy_plan(device, victim.handle);
  c.curr_memsize -= static_cast<std::int64_t>(victim.work_size);
  c.index.erase(victim.key);
  c.lru.pop_back();
}

// CuPy's _eject_until_fit: drop least recently used plans until both limits hold.
void evict_until_fit(int device, device_cache& c, std::int64_t size, std::int64_t memsize) {
  while (!c.lru.empty() && ((size != -1 && static_cast<std::int64_t>(c.lru.size()) > size) ||
                            (memsize != -1 && c.curr_memsize > memsize))) {
    pop_lru(device, c);
  }
}

cufftHandle create_plan(int device, device_cache& c, const plan_layout& l, cufftType type, std::size_t& work_size) {
  const cufft_api& api = cufft();
  for (int attempt = 0;; ++attempt) {
    cufftHandle h = 0;
    check(api.create(&h), "cufftCreate");
    cufftResult r = api.set_auto_allocation(h, 0);
    if (r == CUFFT_SUCCESS) {
      plan_layout p = l;  // cuFFT takes non-const arrays
      r = api.make_plan_many64(h, p.rank, p.n, p.inembed, p.istride, p.idist, p.onembed, p.ostride, p.odist, type,
                               p.batch, &work_size);
    }
    if (r == CUFFT_SUCCESS) return h;
    api.destroy(h);
    // Cached plans hold device memory (twiddles); free them once before giving up.
    if (r == CUFFT_ALLOC_FAILED && attempt == 0 && !c.lru.empty()) {
      evict_until_fit(device, c, 0, -1);
      continue;
    }
    check(r, "cufftMakePlanMany64", describe(l, static_cast<int>(type)));
  }
}

// One cufftExec* call of a plan of `type`.
cufftResult exec_one(const cufft_api& api, cufftType type, cufftHandle handle, void* src, void* dst, int dir) {
  switch (type) {
    case CUFFT_C2C: return api.exec_c2c(handle, static_cast<cufftComplex*>(src), static_cast<cufftComplex*>(dst), dir);
    case CUFFT_Z2Z:
      return api.exec_z2z(handle, static_cast<cufftDoubleComplex*>(src), static_cast<cufftDoubleComplex*>(dst), dir);
    case CUFFT_R2C: return api.exec_r2c(handle, static_cast<cufftReal*>(src), static_cast<cufftComplex*>(dst));
    case CUFFT_D2Z:
      return api.exec_d2z(handle, static_cast<cufftDoubleReal*>(src), static_cast<cufftDoubleComplex*>(dst));
    case CUFFT_C2R: return api.exec_c2r(handle, static_cast<cufftComplex*>(src), static_cast<cufftReal*>(dst));
    case CUFFT_Z2D:
      return api.exec_z2d(handle, static_cast<cufftDoubleComplex*>(src), static_cast<cufftDoubleReal*>(dst));
    default: return CUFFT_INVALID_TYPE;
  }
}

thread_local std::shared_ptr<user_plan> t_current_plan;

}  // namespace

void execute(int device, const plan_layout& layout, transform_kind kind, precision prec, const void* in, void* out,
             bool forward) {
  if (const std::shared_ptr<user_plan>& plan = t_current_plan) {
    if (!plan_matches(*plan, layout, kind, prec)) {
      throw value_error("the cuFFT plan in use (" + describe(plan->layout, plan->type) +
                        ") does not match the transform (" + describe(layout, static_cast<int>(type_of(kind, prec))) +
                        ")");
    }
    if (plan->device != device) throw value_error("the cuFFT plan in use was made on another device");
    execute_user_plan(*plan, in, out, forward ? CUFFT_FORWARD : CUFFT_INVERSE);
    return;
  }
  const cufft_api& api = cufft();
  cudaStream_t stream = enter_device(device);
  cufftType type = type_of(kind, prec);
  plan_key key = make_key(layout, type);

  std::lock_guard<std::mutex> lock(state().m);
  device_cache& c = state().devices[device];
  cufftHandle handle = 0;
  std::size_t work_size = 0;
  bool temporary = false;
  auto found = c.enabled() ? c.index.find(key) : c.index.end();
  if (found != c.index.end()) {
    ++c.hits;
    c.lru.splice(c.lru.begin(), c.lru, found->second);
    handle = found->second->handle;
    work_size = found->second->work_size;
  } else {
    if (c.enabled()) ++c.misses;
    handle = create_plan(device, c, layout, type, work_size);
    auto ws = static_cast<std::int64_t>(work_size);
    if (c.enabled() && !(c.memsize > 0 && ws > c.memsize)) {
      evict_until_fit(device, c, c.size == -1 ? -1 : c.size - 1, c.memsize == -1 ? -1 : c.memsize - ws);
      c.lru.push_front({key, handle, work_size, describe(layout, static_cast<int>(type))});
      c.index[key] = c.lru.begin();
      c.curr_memsize += ws;
    } else {
      temporary = true;  // too large for the cache, or the cache is off
    }
  }
  struct plan_guard {
    int device;
    cufftHandle h;
    bool active;
    ~plan_guard() {
      if (active) destroy_plan(device, h);
    }
  } guard{device, handle, temporary};

  array work;
  if (work_size > 0) {
    work = new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(work_size)}, order::C, device);
    check(api.set_work_area(handle, work.data()), "cufftSetWorkArea");
  }
  check(api.set_stream(handle, stream), "cufftSetStream");

  std::size_t in_item = (kind == transform_kind::r2c ? 1 : 2) * (prec == precision::double_ ? 8 : 4);
  std::size_t out_item = (kind == transform_kind::c2r ? 1 : 2) * (prec == precision::double_ ? 8 : 4);
  auto* in_bytes = static_cast<char*>(const_cast<void*>(in));
  auto* out_bytes = static_cast<char*>(out);
  int dir = forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  std::int64_t loops = layout.loop_count();
  for (std::int64_t i = 0; i < loops; ++i) {
    auto [io, oo] = layout.loop_offsets(i);
    void* src = in_bytes + io * static_cast<std::int64_t>(in_item);
    void* dst = out_bytes + oo * static_cast<std::int64_t>(out_item);
    cufftResult r = exec_one(api, type, handle, src, dst, dir);
    check(r, "cufftExec", describe(layout, static_cast<int>(type)));
  }
}

// ---------------------------------------------------------------------------------------------------------
// User plans (Note [user fft plans]).

user_plan::~user_plan() {
  // A destructor must not throw: when the device cannot be entered any more (process exit), the plan is left.
  try {
    if (handle != 0) destroy_plan(device, handle);
  } catch (...) {
  }
}

std::shared_ptr<user_plan> make_user_plan(int device, const plan_layout& layout, int type, bool basic) {
  if (layout.rank < 1 || layout.rank > 3) throw value_error("a cuFFT plan has 1 to 3 dimensions");
  switch (type) {
    case CUFFT_C2C:
    case CUFFT_Z2Z:
    case CUFFT_R2C:
    case CUFFT_D2Z:
    case CUFFT_C2R:
    case CUFFT_Z2D: break;
    default: throw value_error("invalid cuFFT type " + std::to_string(type));
  }
  const cufft_api& api = cufft();
  enter_device(device);
  auto plan = std::make_shared<user_plan>();
  plan->device = device;
  plan->type = type;
  plan->layout = layout;
  plan->layout.loop_extent.clear();
  plan->layout.loop_in_stride.clear();
  plan->layout.loop_out_stride.clear();
  plan->basic_layout = basic;
  cufftHandle h = 0;
  check(api.create(&h), "cufftCreate");
  plan->handle = static_cast<int>(h);
  check(api.set_auto_allocation(h, 0), "cufftSetAutoAllocation");
  plan_layout p = plan->layout;  // cuFFT takes non-const arrays
  std::size_t work_size = 0;
  check(api.make_plan_many64(h, p.rank, p.n, basic ? nullptr : p.inembed, p.istride, p.idist,
                             basic ? nullptr : p.onembed, p.ostride, p.odist, static_cast<cufftType>(type), p.batch,
                             &work_size),
        "cufftMakePlanMany64", describe(p, type));
  plan->work_size = work_size;
  if (work_size > 0) {
    plan->work = new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(work_size)}, order::C, device);
    check(api.set_work_area(h, plan->work.data()), "cufftSetWorkArea");
  }
  return plan;
}

void execute_user_plan(const user_plan& plan, const void* in, void* out, int direction) {
  const cufft_api& api = cufft();
  cudaStream_t stream = enter_device(plan.device);
  auto h = static_cast<cufftHandle>(plan.handle);
  // A plan is one handle: two threads running it at once would race on its stream.
  std::lock_guard<std::mutex> lock(state().m);
  check(api.set_stream(h, stream), "cufftSetStream");
  check(exec_one(api, static_cast<cufftType>(plan.type), h, const_cast<void*>(in), out, direction), "cufftExec",
        describe(plan.layout, plan.type));
}

const std::shared_ptr<user_plan>& current_plan() { return t_current_plan; }
void set_current_plan(std::shared_ptr<user_plan> plan) { t_current_plan = std::move(plan); }

namespace {
// The embedding, stride and distance cuFFT uses for one side of a plan: the basic layout's when the plan was
// made without embeddings (the halved axis of r2c output and c2r input is n/2+1 long there).
struct side {
  long long embed[3], stride, dist;
};
side effective(const plan_layout& l, bool basic, bool halved) {
  side s{{0, 0, 0}, l.istride, l.idist};
  if (!basic) return s;
  s.stride = 1;
  s.dist = 1;
  for (int k = 0; k < l.rank; ++k) {
    s.embed[k] = k == l.rank - 1 && halved ? l.n[k] / 2 + 1 : l.n[k];
    s.dist *= s.embed[k];
  }
  return s;
}
}  // namespace

bool plan_matches(const user_plan& plan, const plan_layout& layout, transform_kind kind, precision prec) {
  if (plan.type != static_cast<int>(type_of(kind, prec))) return false;
  const plan_layout& p = plan.layout;
  if (p.rank != layout.rank || p.batch != layout.batch || layout.loop_count() != 1) return false;
  for (int k = 0; k < p.rank; ++k) {
    if (p.n[k] != layout.n[k]) return false;
  }
  side pin = effective(p, plan.basic_layout, kind == transform_kind::c2r);
  side pout = effective(p, plan.basic_layout, kind == transform_kind::r2c);
  if (!plan.basic_layout) {
    pin = {{p.inembed[0], p.inembed[1], p.inembed[2]}, p.istride, p.idist};
    pout = {{p.onembed[0], p.onembed[1], p.onembed[2]}, p.ostride, p.odist};
  }
  if (pin.stride != layout.istride || pout.stride != layout.ostride) return false;
  // cuFFT never reads the outermost embedding, and the distances only between transforms of a batch.
  for (int k = 1; k < p.rank; ++k) {
    if (pin.embed[k] != layout.inembed[k] || pout.embed[k] != layout.onembed[k]) return false;
  }
  if (p.batch > 1 && (pin.dist != layout.idist || pout.dist != layout.odist)) return false;
  return true;
}

}  // namespace cuarray::detail::fft

// ---------------------------------------------------------------------------------------------------------
// The public plan-cache API: host bookkeeping that needs no device until a plan is destroyed.

namespace cuarray::fft {

using detail::fft::device_cache;
using detail::fft::state;

plan_cache_info get_plan_cache_info(int device) {
  std::lock_guard<std::mutex> lock(state().m);
  device_cache& c = state().devices[device];
  plan_cache_info info;
  info.device = device;
  info.size = c.size;
  info.memsize = c.memsize;
  info.curr_size = static_cast<std::int64_t>(c.lru.size());
  info.curr_memsize = c.curr_memsize;
  info.hits = c.hits;
  info.misses = c.misses;
  for (const auto& p : c.lru) info.entries.push_back({p.text, p.work_size});
  return info;
}

namespace {
void check_limit(std::int64_t v) {
  if (v < -1) throw value_error("invalid input: a plan cache limit must be -1 (unlimited), 0 (off) or positive");
}
}  // namespace

void set_plan_cache_size(int device, std::int64_t size) {
  check_limit(size);
  std::lock_guard<std::mutex> lock(state().m);
  device_cache& c = state().devices[device];
  detail::fft::evict_until_fit(device, c, size, c.memsize);
  c.size = size;
}

void set_plan_cache_memsize(int device, std::int64_t memsize) {
  check_limit(memsize);
  std::lock_guard<std::mutex> lock(state().m);
  device_cache& c = state().devices[device];
  detail::fft::evict_until_fit(device, c, c.size, memsize);
  c.memsize = memsize;
}

void clear_plan_cache(int device) {
  std::lock_guard<std::mutex> lock(state().m);
  device_cache& c = state().devices[device];
  while (!c.lru.empty()) detail::fft::pop_lru(device, c);
  c.hits = c.misses = 0;
}

}  // namespace cuarray::fft
