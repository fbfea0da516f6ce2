// The reduction kernel generator and planner: merged layouts, row/column thread mappings, split passes.
#include "src/engine/reduction.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "cuarray/errors.hpp"
#include "cuarray/shape.hpp"
#include "src/core/internal.hpp"
#include "src/engine/cache.hpp"
#include "src/engine/kernel.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"

namespace cuarray::red {

// Note [reduction kernels]
// The input is seen as M outputs (the kept axes, C order, merged where strides chain) by R reduced elements
// (the reduced axes in their C order, merged likewise, never reordered: `_j` is the C-order index that
// argmax reports). Two thread mappings read memory coalesced:
//  - rows (the innermost reduced axis has the smallest stride): a group of G threads (a warp, or the whole
//    256-thread block when outputs are few) strides along each output's elements;
//  - columns (a kept axis is innermost): 32 consecutive outputs per block, 8 lanes per output along the
//    reduced axes.
// Each thread folds its elements four loads at a time, then the group combines its partial values in
// shared memory in a fixed tree. When the outputs alone cannot fill the GPU (a full reduction, few long
// rows, a short wide column reduction), the reduced range is split over gridDim.y blocks that write
// accumulator-typed partials; a second launch folds those (a [S, M] reduction of the accumulator type).
// The splits depend only on the shape and the device's multiprocessor count, so results are the same bits
// on every run. Non-associative combines (`sequential`) fold each output in order in one thread.

namespace {

constexpr int block_threads = 256;
constexpr int column_lanes = 8;

enum class mode { rows, columns, sequential };

struct variant {
  std::string in_storage;   ///< loaded as ca_load<in_storage> then cast, unless partial_in
  std::vector<std::string> extra_storage;  ///< the further inputs' storage types
  std::string out_storage;  ///< stored as ca_store<out_storage>, unless partial_out
  mode m = mode::rows;
  int group = 32;
  int kd = 0, rd = 1;
  bool index64 = false, mask = false, per_output = false, partial_out = false, partial_in = false;
  std::string per_output_type;
};

std::string generate(const spec& s, const variant& v, const std::string& kname) {
  std::ostringstream o;
  const char* I = v.index64 ? "long long" : "int";
  int kd = std::max(v.kd, 1), rd = std::max(v.rd, 1);
  o << "#include \"ca_ufuncs.cuh\"\n";
  o << "template <class T> CA_FN bool ca_rlt(T a, T b) { if constexpr (ca_is_complex<T>) return ca_clt(a, b); else "
       "return a < b; }\n";
  o << s.preamble << "\n";
  o << "typedef " << s.acc << " acc_t;\ntypedef " << (v.partial_in ? s.acc : s.in_compute) << " in_t;\ntypedef "
    << s.out_compute << " out_t;\n";
  o << "typedef " << (v.per_output ? v.per_output_type : std::string("int")) << " mu_t;\n";
  std::size_t nx = v.partial_in ? 0 : v.extra_storage.size();
  for (std::size_t k = 0; k < nx; ++k) o << "typedef " << s.extra_compute[k] << " in" << k + 1 << "_t;\n";
  int nops = 1 + static_cast<int>(nx) + (v.mask ? 1 : 0);  // inputs, then the mask
  int wop = static_cast<int>(nx) + 1;                       // the mask's operand index
  o << "CA_FN acc_t ca_identity() { return " << s.identity << "; }\n";
  o << "CA_FN acc_t ca_combine(const acc_t& a, const acc_t& b) { acc_t r; " << s.combine << " return r; }\n";
  std::string extra_params, extra_args_unused;
  for (std::size_t k = 0; k < nx; ++k) extra_params += ", const in" + std::to_string(k + 1) + "_t& x" + std::to_string(k + 1);
  o << "CA_FN acc_t ca_map(const in_t& x" << extra_params << ", long long _j, const mu_t& mu) { (void)_j; (void)mu; acc_t m; "
    << (v.partial_in ? std::string("m = x;") : s.map) << " return m; }\n";
  o << "CA_FN out_t ca_post(const acc_t& a, long long _n, double p0) { (void)_n; (void)p0; out_t y; " << s.post
    << " return y; }\n";
  o << "struct ca_rlayout { " << I << " kshape[" << kd << "]; " << I << " kstride[" << nops << "][" << kd << "]; " << I
    << " rshape[" << rd << "]; " << I << " rstride[" << nops << "][" << rd << "]; };\n";
  o << "struct ca_ptrs { const char* p[" << nops << "]; };\n";
  o << "extern \"C\" __global__ void __launch_bounds__(" << block_threads << ") " << kname
    << "(ca_ptrs P, const char* __restrict__ mup, char* __restrict__ out, "
    << I << " M, " << I << " R, " << I << " chunk, long long nfull, double p0, ca_rlayout L) {\n";
  o << "  const int t = threadIdx.x;\n";
  int step = 1;
  if (v.m == mode::rows) {
    o << "  const int lane = t % " << v.group << ", grp = t / " << v.group << ";\n";
    o << "  const " << I << " o = (" << I << ")blockIdx.x * " << block_threads / v.group << " + grp;\n";
    step = v.group;
  } else if (v.m == mode::columns) {
    o << "  const int lane = t / 32;\n";
    o << "  const " << I << " o = (" << I << ")blockIdx.x * 32 + t % 32;\n";
    step = column_lanes;
  } else {
    o << "  const int lane = 0;\n";
    o << "  const " << I << " o = (" << I << ")blockIdx.x * " << block_threads << " + t;\n";
  }
  o << "  const bool active = o < M;\n";
  o << "  const " << I << " rb = (" << I << ")blockIdx.y * chunk;\n";
  o << "  const " << I << " re = rb + chunk < R ? rb + chunk : R;\n";
  o << "  acc_t acc = ca_identity();\n";
  if (v.m == mode::sequential) o << "  bool has = false;\n";
  o << "  if (active) {\n";
  o << "    " << I << " base[" << nops << "] = {};\n";
  if (v.kd > 0) {
    o << "    { " << I << " rem = o;\n      #pragma unroll\n      for (int d = " << v.kd - 1 << "; d >= 0; --d) { " << I
      << " q = rem / L.kshape[d]; " << I << " c = rem - q * L.kshape[d]; rem = q;\n        #pragma unroll\n"
      << "        for (int k = 0; k < " << nops << "; ++k) base[k] += c * L.kstride[k][d]; } }\n";
  }
  o << "    const char* in = P.p[0] + base[0];\n";
  for (std::size_t k = 0; k < nx; ++k) o << "    const char* in" << k + 1 << " = P.p[" << k + 1 << "] + base[" << k + 1 << "];\n";
  if (v.mask) o << "    const unsigned char* w = reinterpret_cast<const unsigned char*>(P.p[" << wop << "]) + base[" << wop << "];\n";
  if (v.per_output) {
    o << "    const mu_t mu = ca_load<mu_t>(mup + (long long)o * sizeof(mu_t));\n";
  } else {
    o << "    const mu_t mu = 0;\n";
  }
  // Offsets of reduced element `r` for every operand: a multiply for one merged axis, else a division chain.
  auto offsets = [&](const std::string& r, const std::string& off) {
    std::ostringstream e;
    if (v.rd <= 1) {
      e << I << " " << off << "[" << nops << "]; for (int k = 0; k < " << nops << "; ++k) " << off << "[k] = " << r
        << " * L.rstride[k][0];";
    } else {
      e << I << " " << off << "[" << nops << "] = {}; { " << I << " rem = " << r << "; for (int d = " << v.rd - 1
        << "; d >= 0; --d) { " << I << " q = rem / L.rshape[d]; " << I << " c = rem - q * L.rshape[d]; rem = q; "
        << "for (int k = 0; k < " << nops << "; ++k) " << off << "[k] += c * L.rstride[k][d]; } }";
    }
    return e.str();
  };
  auto load = [&](const std::string& off) {
    if (v.partial_in) return "*reinterpret_cast<const acc_t*>(in + " + off + "[0])";
    std::string args = "ca_cast<in_t>(ca_load<" + v.in_storage + ">(in + " + off + "[0]))";
    for (std::size_t k = 0; k < nx; ++k) {
      args += ", ca_cast<in" + std::to_string(k + 1) + "_t>(ca_load<" + v.extra_storage[k] + ">(in" +
              std::to_string(k + 1) + " + " + off + "[" + std::to_string(k + 1) + "]))";
    }
    return args;
  };
  auto masked = [&](const std::string& off) { return "w[" + off + "[" + std::to_string(wop) + "]]"; };
  // The map takes every input's value: `load` gives the argument list, or the partial for a second pass.
  auto mapped = [&](const std::string& args, const std::string& r) {
    return v.partial_in ? args : "ca_map(" + args + ", " + r + ", mu)";
  };
  if (v.m == mode::sequential) {
    o << "    for (" << I << " _r = rb; _r < re; ++_r) {\n      " << offsets("_r", "off") << "\n";
    if (v.mask) o << "      if (!" << masked("off") << ") continue;\n";
    o << "      acc_t m = " << mapped(load("off"), "_r") << ";\n";
    o << "      acc = has ? ca_combine(acc, m) : m; has = true;\n    }\n";
  } else {
    // Four elements' loads are issued before their combines (memory parallelism); the order of the
    // combines is fixed, so the result does not depend on timing.
    o << "    " << I << " _r = rb + lane;\n";
    o << "    for (; _r + " << 3 * step << " < re; _r += " << 4 * step << ") {\n";
    for (int u = 0; u < 4; ++u) {
      std::string r = "(_r + " + std::to_string(u * step) + ")";
      std::string off = "off" + std::to_string(u);
      o << "      " << offsets(r, off) << "\n";
      if (v.mask) o << "      const bool w" << u << " = " << masked(off) << " != 0;\n";
      o << "      const acc_t m" << u << " = " << mapped(load(off), r) << ";\n";
    }
    for (int u = 0; u < 4; ++u) {
      if (v.mask) o << "      if (w" << u << ") ";
      else o << "      ";
      o << "acc = ca_combine(acc, m" << u << ");\n";
    }
    o << "    }\n";
    o << "    for (; _r < re; _r += " << step << ") {\n      " << offsets("_r", "off") << "\n";
    if (v.mask) o << "      if (!" << masked("off") << ") continue;\n";
    o << "      acc = ca_combine(acc, " << mapped(load("off"), "_r") << ");\n    }\n";
  }
  o << "  }\n";
  if (v.m != mode::sequential) {
    o << "  __shared__ __align__(16) unsigned char ca_sh_raw[" << block_threads << " * sizeof(acc_t)];\n";
    o << "  acc_t* sh = reinterpret_cast<acc_t*>(ca_sh_raw);\n";
    o << "  sh[t] = acc;\n  __syncthreads();\n";
    if (v.m == mode::rows) {
      o << "  #pragma unroll\n  for (int s = " << v.group / 2 << "; s > 0; s >>= 1) {\n";
      o << "    if (lane < s) sh[t] = ca_combine(sh[t], sh[t + s]);\n    __syncthreads();\n  }\n";
    } else {
      o << "  #pragma unroll\n  for (int s = " << column_lanes / 2 << "; s > 0; s >>= 1) {\n";
      o << "    if (lane < s) sh[t] = ca_combine(sh[t], sh[t + 32 * s]);\n    __syncthreads();\n  }\n";
    }
    o << "  if (lane != 0 || !active) return;\n  acc = sh[t];\n";
  } else {
    o << "  if (!active) return;\n";
  }
  if (v.partial_out) {
    o << "  reinterpret_cast<acc_t*>(out)[(long long)blockIdx.y * M + o] = acc;\n";
  } else {
    o << "  ca_store<" << v.out_storage << ">(out + (long long)o * sizeof(" << v.out_storage << "), ca_cast<"
      << v.out_storage << ">(ca_post(acc, nfull, p0)));\n";
  }
  o << "}\n";
  return o.str();
}

std::string storage_type(dtype t) { return ew::type_name(t); }

std::mutex g_mutex;
std::unordered_map<std::string, CUfunction>& cache() {
  static auto* m = new std::unordered_map<std::string, CUfunction>();
  return *m;
}

CUfunction lookup(const spec& s, const variant& v, int device) {
  std::string key;
  key.reserve(512);
  for (const std::string* part : {&s.name, &s.preamble, &s.acc, &s.in_compute, &s.out_compute, &s.map, &s.combine,
                                  &s.post, &s.identity, &v.in_storage, &v.out_storage, &v.per_output_type}) {
    key += *part;
    key += '\x1f';
  }
  key += std::to_string(static_cast<int>(v.m)) + ',' + std::to_string(v.group) + ',' + std::to_string(v.kd) + ',' +
         std::to_string(v.rd) + ',' + std::to_string(device) + ',';
  for (bool b : {v.index64, v.mask, v.per_output, v.partial_out, v.partial_in, s.sequential}) key += b ? '1' : '0';
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = cache().find(key);
    if (it != cache().end()) return it->second;
  }
  std::string kname = "cuarray_reduce_" + s.name;
  jit::compile_request req;
  req.source = generate(s, v, kname);
  req.name = kname + ".cu";
  req.headers = ew::jit_headers();
  req.arch = jit::device_arch(device);
  auto code = jit::compile_cached(req);
  CUfunction f = jit::get_function(code, kname, device);
  std::lock_guard<std::mutex> lock(g_mutex);
  cache().emplace(std::move(key), f);
  return f;
}

// A merged group of axes: shapes and each operand's strides in bytes (inputs, then the mask).
struct dims {
  std::vector<std::int64_t> shape;
  std::vector<std::vector<std::int64_t>> stride;  // [operand][axis]
  std::int64_t size() const {
    std::int64_t n = 1;
    for (auto x : shape) n *= x;
    return n;
  }
  static dims of(std::size_t nops) {
    dims d;
    d.stride.resize(nops);
    return d;
  }
};

// Drops length-1 axes and merges neighbours whose strides chain for every operand.
dims merge(const dims& d) {
  dims m = dims::of(d.stride.size());
  for (std::size_t i = 0; i < d.shape.size(); ++i) {
    if (d.shape[i] == 1) continue;
    if (!m.shape.empty()) {
      std::size_t j = m.shape.size() - 1;
      bool chain = true;
      for (std::size_t k = 0; k < d.stride.size() && chain; ++k) chain = m.stride[k][j] == d.stride[k][i] * d.shape[i];
      if (chain) {
        m.shape[j] *= d.shape[i];
        for (std::size_t k = 0; k < d.stride.size(); ++k) m.stride[k][j] = d.stride[k][i];
        continue;
      }
    }
    m.shape.push_back(d.shape[i]);
    for (std::size_t k = 0; k < d.stride.size(); ++k) m.stride[k].push_back(d.stride[k][i]);
  }
  return m;
}

int sm_count(int device) {
  thread_local int counts[64] = {};
  if (device < 0 || device >= 64) return jit::device_sm_count(device);
  if (!counts[device]) counts[device] = jit::device_sm_count(device);
  return counts[device];
}

struct launch_plan {
  variant v;
  unsigned grid_x = 1, grid_y = 1;
  std::int64_t chunk = 0;
};

void launch(const spec& s, const launch_plan& p, const dims& kept, const dims& red, const std::vector<const void*>& ptrs,
            const void* mu, void* out, std::int64_t M, std::int64_t R, std::int64_t nfull, double p0, int device) {
  CUstream stream = reinterpret_cast<CUstream>(detail::enter_device(device));
  CUfunction f = lookup(s, p.v, device);
  int kd = std::max(p.v.kd, 1), rd = std::max(p.v.rd, 1);
  std::size_t nops = ptrs.size();
  std::size_t w8 = p.v.index64 ? 8 : 4;
  std::vector<unsigned char> layout((static_cast<std::size_t>(kd) + static_cast<std::size_t>(rd)) * (1 + nops) * w8, 0);
  std::size_t slot = 0;
  auto put = [&](std::int64_t x) {
    if (p.v.index64) {
      std::memcpy(layout.data() + slot * 8, &x, 8);
    } else {
      auto y = static_cast<std::int32_t>(x);
      std::memcpy(layout.data() + slot * 4, &y, 4);
    }
    ++slot;
  };
  auto put_all = [&](const std::vector<std::int64_t>& xs, int n) {
    for (int i = 0; i < n; ++i) put(i < static_cast<int>(xs.size()) ? xs[static_cast<std::size_t>(i)] : 0);
  };
  put_all(kept.shape, kd);
  for (std::size_t k = 0; k < nops; ++k) put_all(k < kept.stride.size() ? kept.stride[k] : std::vector<std::int64_t>{}, kd);
  put_all(red.shape, rd);
  for (std::size_t k = 0; k < nops; ++k) put_all(k < red.stride.size() ? red.stride[k] : std::vector<std::int64_t>{}, rd);
  std::vector<const void*> ptr_block(ptrs);
  const void* mu_p = mu;
  void* out_p = out;
  long long M64 = M, R64 = R, C64 = p.chunk, n64 = nfull;
  int M32 = static_cast<int>(M), R32 = static_cast<int>(R), C32 = static_cast<int>(p.chunk);
  void* args[] = {ptr_block.data(), &mu_p, &out_p,
                  p.v.index64 ? static_cast<void*>(&M64) : static_cast<void*>(&M32),
                  p.v.index64 ? static_cast<void*>(&R64) : static_cast<void*>(&R32),
                  p.v.index64 ? static_cast<void*>(&C64) : static_cast<void*>(&C32),
                  &n64, &p0, layout.data()};
  jit::launch_2d(f, p.grid_x, p.grid_y, block_threads, 0, stream, args);
}

std::int64_t span(const dims& d, std::size_t itemsize) {
  std::int64_t s = static_cast<std::int64_t>(itemsize);
  for (std::size_t i = 0; i < d.shape.size(); ++i) {
    std::int64_t widest = 0;
    for (const auto& st : d.stride) widest = std::max<std::int64_t>(widest, std::llabs(st[i]));
    s += (d.shape[i] > 0 ? d.shape[i] - 1 : 0) * widest;
  }
  return s;
}

// Thread mapping and split count for M outputs of R elements each.
launch_plan plan(const spec& s, const dims& kept, const dims& red, std::int64_t M, std::int64_t R, bool force_one_pass,
                 int device) {
  launch_plan p;
  p.v.kd = static_cast<int>(kept.shape.size());
  p.v.rd = static_cast<int>(red.shape.size());
  if (s.sequential) {
    p.v.m = mode::sequential;
    p.v.group = 1;
    p.grid_x = static_cast<unsigned>((M + block_threads - 1) / block_threads);
    p.chunk = std::max<std::int64_t>(R, 1);
    return p;
  }
  bool rows = kept.shape.empty() || std::llabs(red.stride[0].back()) <= std::llabs(kept.stride[0].back());
  std::int64_t per_block, lanes;
  int target = sm_count(device) * 8;
  if (rows) {
    p.v.m = mode::rows;
    p.v.group = M >= 2 * target ? 32 : block_threads;
    per_block = block_threads / p.v.group;
    lanes = p.v.group;
  } else {
    p.v.m = mode::columns;
    p.v.group = column_lanes;
    per_block = 32;
    lanes = column_lanes;
  }
  std::int64_t bx = (M + per_block - 1) / per_block;
  std::int64_t splits = 1;
  if (!force_one_pass && bx < target) {
    splits = (target + bx - 1) / bx;
    splits = std::min<std::int64_t>(splits, std::max<std::int64_t>(1, R / (lanes * 16)));
    splits = std::min<std::int64_t>(splits, 1024);
  }
  p.chunk = std::max<std::int64_t>(1, (R + splits - 1) / splits);
  splits = std::max<std::int64_t>(1, (R + p.chunk - 1) / p.chunk);
  p.grid_x = static_cast<unsigned>(bx);
  p.grid_y = static_cast<unsigned>(splits);
  return p;
}

}  // namespace

array run(const spec& s, const call& c) {
  const array& a = c.in;
  int nd = a.ndim();
  if (c.extra.size() != s.extra_compute.size()) throw value_error("reduction: one type per extra input");
  std::vector<const array*> ops{&a};
  for (const auto& x : c.extra) {
    if (x.shape() != a.shape()) throw value_error("reduction: extra inputs must have the input's shape");
    ops.push_back(&x);
  }
  if (c.mask.defined()) ops.push_back(&c.mask);
  std::vector<bool> reduced(static_cast<std::size_t>(nd), false);
  for (int ax : c.axes) reduced[static_cast<std::size_t>(ax)] = true;
  dims kept_raw = dims::of(ops.size()), red_raw = dims::of(ops.size());
  shape_t out_shape;
  for (int i = 0; i < nd; ++i) {
    dims& d = reduced[static_cast<std::size_t>(i)] ? red_raw : kept_raw;
    d.shape.push_back(a.shape()[i]);
    for (std::size_t k = 0; k < ops.size(); ++k) d.stride[k].push_back(ops[k]->strides()[i]);
    if (!reduced[static_cast<std::size_t>(i)]) out_shape.push_back(a.shape()[i]);
  }
  int device = a.device();
  array out = detail::new_array(c.out_type, out_shape, order::C, device);
  std::int64_t M = kept_raw.size(), R = red_raw.size();
  if (M == 0) return out;
  dims kept = merge(kept_raw), red = merge(red_raw);
  if (R == 0 || red.shape.empty()) {
    red = dims::of(ops.size());
    red.shape.push_back(R == 0 ? 0 : 1);
    for (auto& st : red.stride) st.push_back(0);
  }
  std::size_t widest = a.itemsize();
  for (const array* x : ops) widest = std::max(widest, x->itemsize());
  bool big = M >= (std::int64_t{1} << 31) || R >= (std::int64_t{1} << 31) ||
             span(kept, widest) + span(red, widest) >= (std::int64_t{1} << 31);

  launch_plan p = plan(s, kept, red, M, R, false, device);
  p.v.index64 = big;
  p.v.in_storage = storage_type(a.type());
  for (const auto& x : c.extra) p.v.extra_storage.push_back(storage_type(x.type()));
  p.v.out_storage = storage_type(c.out_type);
  p.v.mask = c.mask.defined();
  p.v.per_output = c.per_output.defined();
  if (p.v.per_output) p.v.per_output_type = storage_type(c.per_output.type());
  std::vector<const void*> ptrs;
  for (const array* x : ops) ptrs.push_back(x->data());
  const void* mu = c.per_output.defined() ? c.per_output.data() : nullptr;
  if (p.grid_y == 1) {
    launch(s, p, kept, red, ptrs, mu, out.data(), M, R, R, c.p0, device);
    return out;
  }
  // Two passes: accumulator partials [S, M], then their fold (Note [reduction kernels]).
  std::int64_t S = p.grid_y;
  array partial = detail::new_array(dtype::uint8, shape_t{S * M * static_cast<std::int64_t>(s.acc_bytes)}, order::C,
                                    device);
  p.v.partial_out = true;
  launch(s, p, kept, red, ptrs, mu, partial.data(), M, R, R, c.p0, device);
  auto ab = static_cast<std::int64_t>(s.acc_bytes);
  dims kept2 = dims::of(1), red2 = dims::of(1);
  if (M > 1) {
    kept2.shape.push_back(M);
    kept2.stride[0].push_back(ab);
  }
  red2.shape.push_back(S);
  red2.stride[0].push_back(M * ab);
  launch_plan q = plan(s, kept2, red2, M, S, true, device);
  q.v.index64 = S * M * ab >= (std::int64_t{1} << 31) || M >= (std::int64_t{1} << 31);
  q.v.in_storage = p.v.in_storage;
  q.v.out_storage = p.v.out_storage;
  q.v.partial_in = true;
  launch(s, q, kept2, red2, {partial.data()}, nullptr, out.data(), M, S, R, c.p0, device);
  return out;
}

std::string source_for_test(const spec& s, const test_variant& t) {
  variant v;
  v.in_storage = storage_type(t.in_storage);
  for (dtype d : t.extra_storage) v.extra_storage.push_back(storage_type(d));
  v.out_storage = storage_type(t.out_storage);
  v.m = s.sequential ? mode::sequential : (t.rows ? mode::rows : mode::columns);
  v.group = s.sequential ? 1 : (t.rows ? t.group : column_lanes);
  v.kd = t.kept_ndim;
  v.rd = t.red_ndim;
  v.index64 = t.index64;
  v.mask = t.mask;
  v.per_output = t.per_output;
  v.per_output_type = t.per_output ? storage_type(t.per_output_type) : "";
  v.partial_out = t.partial_out;
  v.partial_in = t.partial_in;
  return generate(s, v, "cuarray_reduce_" + s.name);
}

}  // namespace cuarray::red
