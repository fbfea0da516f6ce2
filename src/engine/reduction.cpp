// The reduction kernel generator and planner: merged layouts, row/column thread mappings, split passes.
#include "src/engine/reduction.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/shape.hpp"
#include "src/core/internal.hpp"
#include "src/engine/cache.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/kernel.hpp"
#include "src/engine/kernel_cache.hpp"
#include "src/engine/launch_policy.hpp"

namespace cuarray::red {

// Note [reduction kernels]
// The input is seen as M outputs (the kept axes, C order, merged where strides chain) by R reduced elements
// (the reduced axes in their C order, merged likewise, never reordered: `_j` is the C-order index that
// argmax reports). Two thread mappings read memory coalesced:
//  - rows (the innermost reduced axis has the smallest stride): a group of G threads (a warp, or the whole
//    256-thread block when outputs are few or rows long; down to one thread for many short rows, so that a
//    lane keeps four loads: policy::row_group, Note [long rows]) strides along each output's elements, in
//    16-byte vectors where the rows allow (Note [vector rows]); a short innermost run between kept axes takes
//    two passes (Note [inner reduced run]);
//  - columns (a kept axis is innermost): 32 consecutive outputs per block, 8 lanes per output along the
//    reduced axes; with 16-byte vectors, 32 groups of V consecutive outputs (Note [vector columns]).
// Each thread folds its elements four loads at a time, then the group combines its partial values in
// shared memory in a fixed tree. When the outputs alone cannot fill the GPU (a full reduction, few long
// rows, a short wide column reduction), the reduced range is split over gridDim.y blocks that write
// accumulator-typed partials; a second launch folds those (a [S, M] reduction of the accumulator type). The
// split count fills whole waves of resident blocks (Note [whole waves] in launch_policy.hpp).
// The splits depend only on the shape and the device's multiprocessor count, so results are the same bits
// on every run. Non-associative combines (`sequential`) fold each output in order in one thread.

namespace {

using policy = jit::reduction_policy;
constexpr int block_threads = policy::block_threads;
constexpr int column_lanes = policy::column_lanes;
constexpr int column_outputs = policy::column_outputs;
constexpr int unroll = policy::unroll;

enum class mode : std::uint8_t { rows, columns, sequential };

/// Further inputs a kernel may take beyond the first (the key holds their storage types inline).
constexpr std::size_t max_extra = 18;

// What one kernel specialises on beyond the spec; every field is an input of generate().
struct variant {
  dtype in_storage = dtype::float32;  ///< loaded as ca_load<in_storage> then cast, unless partial_in
  std::uint8_t nextra = 0;            ///< further inputs (their storage types below)
  dtype extra_storage[max_extra] = {};
  dtype out_storage = dtype::float32;  ///< stored as ca_store<out_storage>, unless partial_out
  mode m = mode::rows;
  int group = 32;
  int kd = 0, rd = 1;
  bool index64 = false, mask = false, per_output = false, partial_out = false, partial_in = false;
  bool vec = false;                      ///< rows read as 16-byte vectors (Note [vector rows])
  bool stream = false;                   ///< those vectors loaded with ld.global.cs (Note [streaming loads])
  dtype per_output_type = dtype::bool_;  ///< read only when per_output
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
  o << "typedef " << (v.per_output ? ew::type_name(v.per_output_type) : "int") << " mu_t;\n";
  std::size_t nx = v.partial_in ? 0 : v.nextra;
  for (std::size_t k = 0; k < nx; ++k) o << "typedef " << s.extra_compute[k] << " in" << k + 1 << "_t;\n";
  int nops = 1 + static_cast<int>(nx) + (v.mask ? 1 : 0);  // inputs, then the mask
  int wop = static_cast<int>(nx) + 1;                      // the mask's operand index
  o << "CA_FN acc_t ca_identity() { return " << s.identity << "; }\n";
  o << "CA_FN acc_t ca_combine(const acc_t& a, const acc_t& b) { acc_t r; " << s.combine << " return r; }\n";
  std::string extra_params, extra_args_unused;
  for (std::size_t k = 0; k < nx; ++k)
    extra_params += ", const in" + std::to_string(k + 1) + "_t& x" + std::to_string(k + 1);
  o << "CA_FN acc_t ca_map(const in_t& x" << extra_params
    << ", long long _j, const mu_t& mu) { (void)_j; (void)mu; acc_t m; "
    << (v.partial_in ? std::string("m = x;") : s.map) << " return m; }\n";
  // Note [element fold]: each thread's loop adds one element at a time to its accumulator through ca_fold,
  // which is the map then the combine unless the spec gives its own (var's Welford step: no struct of one
  // element and no division by its count of 1). Partials of other threads and passes always take the combine.
  std::string fold_args = "x";
  for (std::size_t k = 0; k < nx; ++k) fold_args += ", x" + std::to_string(k + 1);
  o << "CA_FN void ca_fold(acc_t& a, const in_t& x" << extra_params
    << ", long long _j, const mu_t& mu) { (void)_j; (void)mu; "
    << (s.fold.empty() || v.partial_in ? "a = ca_combine(a, ca_map(" + fold_args + ", _j, mu));" : s.fold) << " }\n";
  o << "CA_FN out_t ca_post(const acc_t& a, long long _n, double p0) { (void)_n; (void)p0; out_t y; " << s.post
    << " return y; }\n";
  o << "struct ca_rlayout { " << I << " kshape[" << kd << "]; " << I << " kstride[" << nops << "][" << kd << "]; " << I
    << " rshape[" << rd << "]; " << I << " rstride[" << nops << "][" << rd << "]; };\n";
  o << "struct ca_ptrs { const char* p[" << nops << "]; };\n";
  o << "extern \"C\" __global__ void __launch_bounds__(" << block_threads << ") " << kname
    << "(ca_ptrs P, const char* __restrict__ mup, char* __restrict__ out, " << I << " M, " << I << " R, " << I
    << " chunk, long long nfull, double p0, ca_rlayout L) {\n";
  o << "  const int t = threadIdx.x;\n";
  int step = 1;
  // Note [vector columns]: a columns thread takes CV consecutive outputs, one 16-byte vector of each operand per
  // reduced element, with CV accumulators.
  const bool cvec = v.vec && v.m == mode::columns;
  const int sz = static_cast<int>(itemsize(v.in_storage)), V = 16 / sz, CV = cvec ? V : 1;
  if (v.m == mode::rows) {
    o << "  const int lane = t % " << v.group << ", grp = t / " << v.group << ";\n";
    o << "  const " << I << " o = (" << I << ")blockIdx.x * " << block_threads / v.group << " + grp;\n";
    step = v.group;
  } else if (v.m == mode::columns) {
    o << "  const int lane = t / " << column_outputs << ";\n";
    o << "  const " << I << " o = ((" << I << ")blockIdx.x * " << column_outputs << " + t % " << column_outputs
      << ") * " << CV << ";\n";
    step = column_lanes;
  } else {
    o << "  const int lane = 0;\n";
    o << "  const " << I << " o = (" << I << ")blockIdx.x * " << block_threads << " + t;\n";
  }
  o << "  const bool active = o < M;\n";
  o << "  const " << I << " rb = (" << I << ")blockIdx.y * chunk;\n";
  o << "  const " << I << " re = rb + chunk < R ? rb + chunk : R;\n";
  if (cvec) {
    o << "  acc_t acc[" << CV << "];\n  #pragma unroll\n  for (int e = 0; e < " << CV
      << "; ++e) acc[e] = ca_identity();\n";
  } else {
    o << "  acc_t acc = ca_identity();\n";
  }
  if (v.m == mode::sequential) o << "  bool has = false;\n";
  o << "  if (active) {\n";
  o << "    " << I << " base[" << nops << "] = {};\n";
  if (v.kd > 0) {
    o << "    { " << I << " rem = o;\n      #pragma unroll\n      for (int d = " << v.kd - 1 << "; d >= 0; --d) { " << I
      << " q = rem / L.kshape[d]; " << I << " c = rem - q * L.kshape[d]; rem = q;\n        #pragma unroll\n"
      << "        for (int k = 0; k < " << nops << "; ++k) base[k] += c * L.kstride[k][d]; } }\n";
  }
  o << "    const char* in = P.p[0] + base[0];\n";
  for (std::size_t k = 0; k < nx; ++k)
    o << "    const char* in" << k + 1 << " = P.p[" << k + 1 << "] + base[" << k + 1 << "];\n";
  if (v.mask)
    o << "    const unsigned char* w = reinterpret_cast<const unsigned char*>(P.p[" << wop << "]) + base[" << wop
      << "];\n";
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
    std::string args = "ca_cast<in_t>(ca_load<" + std::string(ew::type_name(v.in_storage)) + ">(in + " + off + "[0]))";
    for (std::size_t k = 0; k < nx; ++k) {
      args += ", ca_cast<in" + std::to_string(k + 1) + "_t>(ca_load<" + ew::type_name(v.extra_storage[k]) + ">(in" +
              std::to_string(k + 1) + " + " + off + "[" + std::to_string(k + 1) + "]))";
    }
    return args;
  };
  auto masked = [&](const std::string& off) { return "w[" + off + "[" + std::to_string(wop) + "]]"; };
  // The map takes every input's value: `load` gives the argument list, or the partial for a second pass.
  auto mapped = [&](const std::string& args, const std::string& r) {
    return v.partial_in ? args : "ca_map(" + args + ", " + r + ", mu)";
  };
  // One element into `acc` (Note [element fold]); a second pass's partial is combined as it is.
  auto folded = [&](const std::string& args, const std::string& r) {
    return v.partial_in ? "acc = ca_combine(acc, " + args + ");" : "ca_fold(acc, " + args + ", " + r + ", mu);";
  };
  // Element e of the vector q<u>_<k> (operand k, unroll step u), for every operand: ca_map's or ca_fold's inputs.
  auto vec_args = [&](int u, int e) {
    std::string args = "ca_cast<in_t>(ca_load<" + std::string(ew::type_name(v.in_storage)) +
                       ">(reinterpret_cast<const char*>(&q" + std::to_string(u) + "_0) + " + std::to_string(e * sz) +
                       "))";
    for (std::size_t k = 0; k < nx; ++k) {
      args += ", ca_cast<in" + std::to_string(k + 1) + "_t>(ca_load<" + ew::type_name(v.extra_storage[k]) +
              ">(reinterpret_cast<const char*>(&q" + std::to_string(u) + "_" + std::to_string(k + 1) + ") + " +
              std::to_string(e * sz) + "))";
    }
    return args;
  };
  if (v.m == mode::sequential) {
    o << "    for (" << I << " _r = rb; _r < re; ++_r) {\n      " << offsets("_r", "off") << "\n";
    if (v.mask) o << "      if (!" << masked("off") << ") continue;\n";
    o << "      acc_t m = " << mapped(load("off"), "_r") << ";\n";
    o << "      acc = has ? ca_combine(acc, m) : m; has = true;\n    }\n";
  } else if (cvec) {
    // Note [vector columns]: each reduced element gives one 16-byte vector of every operand, CV outputs wide;
    // `unroll` elements' vectors are in flight, and element e of a vector folds into acc[e].
    auto col_loads = [&](int u, const std::string& off) {
      for (std::size_t k = 0; k <= nx; ++k) {
        std::string name = k == 0 ? std::string("in") : "in" + std::to_string(k);
        o << "      const uint4 q" << u << "_" << k << " = *reinterpret_cast<const uint4*>(" << name << " + " << off
          << "[" << k << "]);\n";
      }
    };
    auto col_folds = [&](int u, const std::string& r) {
      for (int e = 0; e < CV; ++e) o << "      ca_fold(acc[" << e << "], " << vec_args(u, e) << ", " << r << ", mu);\n";
    };
    o << "    " << I << " _r = rb + lane;\n";
    o << "    for (; _r + " << (unroll - 1) * step << " < re; _r += " << unroll * step << ") {\n";
    for (int u = 0; u < unroll; ++u) {
      std::string r = "(_r + " + std::to_string(u * step) + ")", off = "off" + std::to_string(u);
      o << "      " << offsets(r, off) << "\n";
      col_loads(u, off);
    }
    for (int u = 0; u < unroll; ++u) col_folds(u, "(_r + " + std::to_string(u * step) + ")");
    o << "    }\n";
    o << "    for (; _r < re; _r += " << step << ") {\n      " << offsets("_r", "off") << "\n";
    col_loads(0, "off");
    col_folds(0, "_r");
    o << "    }\n";
  } else if (v.vec && v.m == mode::rows && v.rd <= 1 && !v.mask && !v.partial_in) {
    // Note [vector rows]: every operand's row is contiguous and 16-byte aligned, so a lane reads whole
    // 16-byte vectors (`unroll` of them per operand in flight) and folds their V elements in order; the
    // elements past the last whole vector of the range take the scalar loop. With `stream`, the vectors are
    // loaded evict-first (Note [streaming loads]).
    auto vec_loads = [&](int u, const std::string& at) {
      for (std::size_t k = 0; k <= nx; ++k) {
        std::string name = k == 0 ? std::string("in") : "in" + std::to_string(k);
        o << "      const uint4 q" << u << "_" << k << " = " << (v.stream ? "__ldcs(" : "*")
          << "reinterpret_cast<const uint4*>(" << name << " + (" << at << ") * 16)" << (v.stream ? ")" : "") << ";\n";
      }
    };
    auto vec_folds = [&](int u, const std::string& at) {
      for (int e = 0; e < V; ++e) {
        o << "      ca_fold(acc, " << vec_args(u, e) << ", (" << at << ") * " << V << " + " << e << ", mu);\n";
      }
    };
    o << "    const " << I << " vb = rb / " << V << ", ve = re / " << V << ";\n";
    o << "    " << I << " _v = vb + lane;\n";
    o << "    for (; _v + " << (unroll - 1) * step << " < ve; _v += " << unroll * step << ") {\n";
    for (int u = 0; u < unroll; ++u) vec_loads(u, "_v + " + std::to_string(u * step));
    for (int u = 0; u < unroll; ++u) vec_folds(u, "_v + " + std::to_string(u * step));
    o << "    }\n";
    o << "    for (; _v < ve; _v += " << step << ") {\n";
    vec_loads(0, "_v");
    vec_folds(0, "_v");
    o << "    }\n";
    o << "    for (" << I << " _r = ve * " << V << " + lane; _r < re; _r += " << step << ") {\n      "
      << offsets("_r", "off") << "\n";
    o << "      " << folded(load("off"), "_r") << "\n    }\n";
  } else {
    // `unroll` elements' loads are issued before their combines (memory parallelism); the order of the
    // combines is fixed, so the result does not depend on timing.
    o << "    " << I << " _r = rb + lane;\n";
    o << "    for (; _r + " << (unroll - 1) * step << " < re; _r += " << unroll * step << ") {\n";
    std::vector<std::string> folds;
    for (int u = 0; u < unroll; ++u) {
      std::string r = "(_r + " + std::to_string(u * step) + ")";
      std::string off = "off" + std::to_string(u);
      o << "      " << offsets(r, off) << "\n";
      if (v.mask) o << "      const bool w" << u << " = " << masked(off) << " != 0;\n";
      // The loaded values (or the partial) are kept, and folded below in order.
      std::string args;
      if (v.partial_in) {
        o << "      const acc_t m" << u << " = " << load(off) << ";\n";
        args = "m" + std::to_string(u);
      } else {
        for (std::size_t k = 0; k <= nx; ++k) {
          std::string ty = k == 0 ? std::string("in_t") : "in" + std::to_string(k) + "_t";
          std::string nm = "x" + std::to_string(u) + "_" + std::to_string(k);
          std::string src = k == 0 ? std::string("in") : "in" + std::to_string(k);
          std::string st = ew::type_name(k == 0 ? v.in_storage : v.extra_storage[k - 1]);
          o << "      const " << ty << " " << nm << " = ca_cast<" << ty << ">(ca_load<" << st << ">(" << src << " + "
            << off << "[" << k << "]));\n";
          args += (k == 0 ? "" : ", ") + nm;
        }
      }
      folds.push_back((v.mask ? "if (w" + std::to_string(u) + ") " : std::string()) + folded(args, r));
    }
    for (const std::string& f : folds) o << "      " << f << "\n";
    o << "    }\n";
    o << "    for (; _r < re; _r += " << step << ") {\n      " << offsets("_r", "off") << "\n";
    if (v.mask) o << "      if (!" << masked("off") << ") continue;\n";
    o << "      " << folded(load("off"), "_r") << "\n    }\n";
  }
  o << "  }\n";
  // The group's partial values combine in shared memory (a thread's acc[e], with vector columns, at
  // sh[e * block_threads + t]); lane 0 then stores the output (or the split's partial) of each of its CV outputs.
  std::string value = "acc";
  if (v.m != mode::sequential) {
    o << "  __shared__ __align__(16) unsigned char ca_sh_raw[" << block_threads * CV << " * sizeof(acc_t)];\n";
    o << "  acc_t* sh = reinterpret_cast<acc_t*>(ca_sh_raw);\n";
    // A rows group within one warp combines with warp barriers only.
    const char* bar = v.m == mode::rows && v.group <= 32 ? "__syncwarp()" : "__syncthreads()";
    if (cvec) {
      o << "  #pragma unroll\n  for (int e = 0; e < " << CV << "; ++e) sh[e * " << block_threads << " + t] = acc[e];\n";
    } else {
      o << "  sh[t] = acc;\n";
    }
    o << "  " << bar << ";\n";
    const int width = v.m == mode::rows ? v.group : column_lanes, apart = v.m == mode::rows ? 1 : column_outputs;
    o << "  #pragma unroll\n  for (int s = " << width / 2 << "; s > 0; s >>= 1) {\n";
    o << "    if (lane < s) {\n      #pragma unroll\n      for (int e = 0; e < " << CV
      << "; ++e) { acc_t* q = sh + e * " << block_threads << " + t; *q = ca_combine(*q, q[" << apart
      << " * s]); }\n    }\n    " << bar << ";\n  }\n";
    o << "  if (lane != 0 || !active) return;\n";
    value = "sh[e * " + std::to_string(block_threads) + " + t]";
  } else {
    o << "  if (!active) return;\n";
  }
  o << "  #pragma unroll\n  for (int e = 0; e < " << CV << "; ++e) {\n";
  if (v.partial_out) {
    o << "    reinterpret_cast<acc_t*>(out)[(long long)blockIdx.y * M + o + e] = " << value << ";\n";
  } else {
    const char* st = ew::type_name(v.out_storage);
    o << "    ca_store<" << st << ">(out + (long long)(o + e) * sizeof(" << st << "), ca_cast<" << st << ">(ca_post("
      << value << ", nfull, p0)));\n";
  }
  o << "  }\n";
  o << "}\n";
  return o.str();
}

// Note [reduction key]
// A warm call finds its kernel by this POD key (Note [kernel lookup] in kernel_cache.hpp) and builds no
// string: the source is generated only on a miss, so the key must determine generate()'s output
// completely. generate()'s inputs, one by one, and where the key holds each:
//  - spec.name (the kernel's name), preamble, acc, in_compute, extra_compute[k], out_compute, map, combine,
//    fold, post, identity: `spec`, the spec's id when it has one (red::intern: equal ids, equal text), else a
//    128-bit hash of every text, each with its length, and of acc_bytes and sequential (not read by
//    generate(), but cheap, and a spec is then its fields);
//  - spec.sequential: also through `mode` (it selects the sequential mapping);
//  - variant.in_storage, out_storage, per_output_type: `in_storage`, `out_storage`, `per_output_type`;
//  - variant.nextra and extra_storage[k]: `nextra`, `extra_storage` (unused entries zero);
//  - variant.m, group, kd, rd: `mode`, `group`, `kd`, `rd`;
//  - variant.index64, mask, per_output, partial_out, partial_in, vec, stream: bits of `flags`;
//  - the launch policy's numbers printed into the source (block_threads, column_outputs, column_lanes,
//    unroll) and the headers (ew::jit_headers()): fixed for a build;
//  - the device's architecture (compile option): `device`, which also says where the module is loaded.
// A field generate() ignores for this variant (in_storage of a partial_in pass, say) only splits the cache
// further; a missing input would reuse a wrong kernel. test_reduction_key.cpp changes each input alone.
struct reduction_key {
  std::uint64_t spec[2];
  std::int32_t device;
  std::uint16_t group;
  std::uint8_t mode, kd, rd, in_storage, out_storage, per_output_type;
  std::uint8_t flags;  ///< 1 index64, 2 mask, 4 per_output, 8 partial_out, 16 partial_in, 32 spec is an id, 64 vec,
                       ///< 128 stream
  std::uint8_t nextra;
  std::uint8_t extra_storage[max_extra];
};
static_assert(sizeof(reduction_key) % 8 == 0 && std::has_unique_object_representations_v<reduction_key>,
              "the key has no padding: it is hashed and compared as bytes");

// Two independent lanes over 64-bit words: each step is a bijection of the lane for a fixed word and of the
// word for a fixed lane, so equal-length texts differing in one word never collide.
struct text_hash {
  std::uint64_t a = 0x9e3779b97f4a7c15ull, b = 0xc2b2ae3d27d4eb4full;
  void word(std::uint64_t w) {
    a = (a ^ w) * 0xff51afd7ed558ccdull;
    a ^= a >> 32;
    b = (b ^ w) * 0xc4ceb9fe1a85ec53ull;
    b ^= b >> 29;
  }
  void text(std::string_view t) {
    word(t.size());
    std::size_t i = 0;
    for (; i + 8 <= t.size(); i += 8) {
      std::uint64_t w;
      std::memcpy(&w, t.data() + i, 8);
      word(w);
    }
    if (i < t.size()) {
      std::uint64_t w = 0;
      std::memcpy(&w, t.data() + i, t.size() - i);
      word(w);
    }
  }
};

// The spec's part of the key: its id, or a hash of every field (see Note [reduction key]).
void spec_identity(const spec& s, std::uint64_t out[2], bool& is_id) {
  if (s.id) {
    out[0] = reinterpret_cast<std::uintptr_t>(s.id);
    out[1] = 0;
    is_id = true;
    return;
  }
  text_hash h;
  for (const std::string* t : {&s.name, &s.preamble, &s.acc, &s.in_compute, &s.out_compute, &s.map, &s.combine, &s.fold,
                               &s.post, &s.identity}) {
    h.text(*t);
  }
  h.word(s.extra_compute.size());
  for (const std::string& t : s.extra_compute) h.text(t);
  h.word(s.acc_bytes);
  h.word(s.sequential ? 1 : 0);
  out[0] = h.a;
  out[1] = h.b;
  is_id = false;
}

struct spec_ref {
  std::uint64_t id[2];
  bool is_id;
  explicit spec_ref(const spec& s) { spec_identity(s, id, is_id); }
};

reduction_key make_key(const spec_ref& sr, const variant& v, int device) {
  reduction_key k;
  std::memset(&k, 0, sizeof(k));
  k.spec[0] = sr.id[0];
  k.spec[1] = sr.id[1];
  k.device = device;
  k.group = static_cast<std::uint16_t>(v.group);
  k.mode = static_cast<std::uint8_t>(v.m);
  k.kd = static_cast<std::uint8_t>(v.kd);
  k.rd = static_cast<std::uint8_t>(v.rd);
  k.in_storage = static_cast<std::uint8_t>(v.in_storage);
  k.out_storage = static_cast<std::uint8_t>(v.out_storage);
  k.per_output_type = static_cast<std::uint8_t>(v.per_output_type);
  k.flags = static_cast<std::uint8_t>((v.index64 ? 1 : 0) | (v.mask ? 2 : 0) | (v.per_output ? 4 : 0) |
                                      (v.partial_out ? 8 : 0) | (v.partial_in ? 16 : 0) | (sr.is_id ? 32 : 0) |
                                      (v.vec ? 64 : 0) | (v.stream ? 128 : 0));
  k.nextra = v.nextra;
  for (std::size_t i = 0; i < v.nextra; ++i) k.extra_storage[i] = static_cast<std::uint8_t>(v.extra_storage[i]);
  return k;
}

jit::kernel_cache<reduction_key>& cache() {
  static auto* c = new jit::kernel_cache<reduction_key>();  // never destroyed: threads may launch at exit
  return *c;
}

CUfunction lookup(const spec& s, const spec_ref& sr, const variant& v, int device) {
  return cache().get(make_key(sr, v, device), [&] {
    std::string kname = "cuarray_reduce_" + s.name;
    jit::compile_request req;
    req.source = generate(s, v, kname);
    req.name = kname + ".cu";
    req.headers = ew::jit_headers();
    req.arch = jit::device_arch(device);
    auto code = jit::compile_cached(req);
    return jit::get_function(code, kname, device);
  });
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

struct launch_plan {
  variant v;
  unsigned grid_x = 1, grid_y = 1;
  std::int64_t chunk = 0;
};

void launch(const spec& s, const spec_ref& sr, const launch_plan& p, const dims& kept, const dims& red,
            const std::vector<const void*>& ptrs, const void* mu, void* out, std::int64_t M, std::int64_t R,
            std::int64_t nfull, double p0, int device) {
  CUstream stream = reinterpret_cast<CUstream>(detail::enter_device(device));
  CUfunction f = lookup(s, sr, p.v, device);
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
  for (std::size_t k = 0; k < nops; ++k)
    put_all(k < kept.stride.size() ? kept.stride[k] : std::vector<std::int64_t>{}, kd);
  put_all(red.shape, rd);
  for (std::size_t k = 0; k < nops; ++k)
    put_all(k < red.stride.size() ? red.stride[k] : std::vector<std::int64_t>{}, rd);
  std::vector<const void*> ptr_block(ptrs);
  const void* mu_p = mu;
  void* out_p = out;
  long long M64 = M, R64 = R, C64 = p.chunk, n64 = nfull;
  int M32 = static_cast<int>(M), R32 = static_cast<int>(R), C32 = static_cast<int>(p.chunk);
  void* args[] = {ptr_block.data(),
                  &mu_p,
                  &out_p,
                  p.v.index64 ? static_cast<void*>(&M64) : static_cast<void*>(&M32),
                  p.v.index64 ? static_cast<void*>(&R64) : static_cast<void*>(&R32),
                  p.v.index64 ? static_cast<void*>(&C64) : static_cast<void*>(&C32),
                  &n64,
                  &p0,
                  layout.data()};
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

// Note [vector rows]
// A rows reduction whose operands all have one storage size of 1, 2, 4 or 8 bytes, a single reduced axis of
// unit stride, and rows that start on 16-byte boundaries (pointers and every kept stride) reads whole 16-byte
// vectors: each lane has `unroll` vectors of every operand in flight instead of `unroll` elements, which
// takes row sums, fused row dot products and norms along the last axis from 0.66-0.90 to the copy rate.
// Splits of the reduced range are then multiples of the vector, so every vector is whole. The mask (one
// byte a flag) and partials (accumulator-typed) keep the element loop.
//
// Note [streaming loads]
// Where the operands of a whole-block vector-rows reduction (few outputs: full reductions, a few long rows)
// together exceed the L2 cache, their vectors are loaded with ld.global.cs (evict-first): each byte is read
// once, and nothing read could still be in L2 for the next call. Smaller inputs keep the plain load, so that a
// repeated reduction of an array that fits finds it in L2. tools/diag/norm23.py (H200, the engine's own norm
// kernel over 8192² float32 at its own grid of 1024 blocks, with the same fold): 65.5 µs against 65.9 plain,
// and 66.6 against 67.1 on another machine; replicas of the same loop 64.9-65.1 against 65.7.
// Narrower groups keep the plain load: with rows of 16 floats (sum(axis=2) of 4096x4096x16, one lane a row)
// the streaming load took 279 µs against 265 (the quick benchmark, one machine each), probably because a
// lane's 64 bytes are half a 128-byte line whose other half another lane reads in another instruction, and an
// evict-first line may be gone by then (not measured further).
//
// Elements per vector of one operand of item size `isz` read at `stride` from `p`, or 0 where it cannot be.
int vector_width(const void* p, std::int64_t isz, std::int64_t stride) {
  if ((isz != 1 && isz != 2 && isz != 4 && isz != 8) || stride != isz) return 0;
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 ? static_cast<int>(16 / isz) : 0;
}

// Elements per vector for `ops` read along `red` with `kept` as row starts, or 0 where the rule above fails.
int vector_elems(const std::vector<const array*>& ops, const dims& kept, const dims& red) {
  if (red.shape.size() != 1) return 0;
  const int v = vector_width(ops[0]->data(), static_cast<std::int64_t>(ops[0]->itemsize()), red.stride[0][0]);
  for (std::size_t k = 0; k < ops.size() && v != 0; ++k) {
    if (ops[k]->itemsize() != ops[0]->itemsize() ||
        vector_width(ops[k]->data(), static_cast<std::int64_t>(ops[k]->itemsize()), red.stride[k][0]) != v)
      return 0;
    for (std::int64_t st : kept.stride[k]) {
      if (st % 16 != 0) return 0;
    }
  }
  return v;
}

// Note [vector columns]
// A columns reduction whose operands all have one storage size of 1, 2, 4 or 8 bytes, a unit-stride innermost
// kept axis whose length is a multiple of the vector's V elements, and 16-byte-aligned pointers, reduced strides
// and outer kept strides, gives each thread V consecutive outputs: per reduced element it loads one 16-byte
// vector of every operand (`unroll` in flight) instead of one element. sum(axis=0) of 16384² float32 read 4 bytes
// a load at 0.93 of the copy rate and 0.93x PyTorch's. Each thread keeps V accumulators and the block
// V x 256 of them in shared memory, so accumulators wider than 128 / V bytes keep the element loop, and so do
// masks and per-output operands (one value per output).
// Outputs per vector for `ops` over `kept` (columns) and `red`, or 0 where the rule above fails.
int column_vector_elems(const std::vector<const array*>& ops, const dims& kept, const dims& red,
                        std::size_t acc_bytes) {
  if (kept.shape.empty() || acc_bytes == 0) return 0;
  const auto isz = static_cast<std::int64_t>(ops[0]->itemsize());
  if (isz != 1 && isz != 2 && isz != 4 && isz != 8) return 0;
  const std::int64_t v = 16 / isz;
  if (kept.shape.back() % v != 0 || static_cast<std::size_t>(v) * acc_bytes > 128) return 0;
  for (std::size_t k = 0; k < ops.size(); ++k) {
    if (static_cast<std::int64_t>(ops[k]->itemsize()) != isz || kept.stride[k].back() != isz ||
        reinterpret_cast<std::uintptr_t>(ops[k]->data()) % 16 != 0)
      return 0;
    for (std::size_t i = 0; i + 1 < kept.stride[k].size(); ++i) {
      if (kept.stride[k][i] % 16 != 0) return 0;
    }
    for (std::int64_t st : red.stride[k]) {
      if (st % 16 != 0) return 0;
    }
  }
  return static_cast<int>(v);
}

// Thread mapping and split count for M outputs of R elements each; `vec` elements per vector where the
// operands allow vector rows (Note [vector rows]), `cvec` outputs per vector where they allow vector columns
// (Note [vector columns]), else 0.
launch_plan plan(const spec& s, const dims& kept, const dims& red, std::int64_t M, std::int64_t R, bool force_one_pass,
                 int device, int vec = 0, int cvec = 0) {
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
  std::int64_t per_block, lanes, units = R, align = 1;
  int target = policy::target_blocks(device);
  if (rows) {
    p.v.m = mode::rows;
    if (vec > 1) {
      p.v.vec = true;
      units = R / vec;
      align = vec;
    }
    p.v.group = policy::row_group(M, units, target);
    per_block = block_threads / p.v.group;
    lanes = p.v.group;
  } else {
    p.v.m = mode::columns;
    p.v.group = column_lanes;
    per_block = column_outputs;
    lanes = column_lanes;
    if (cvec > 1) {
      p.v.vec = true;
      per_block *= cvec;
    }
  }
  std::int64_t bx = (M + per_block - 1) / per_block;
  std::int64_t splits = 1;
  if (!force_one_pass) splits = policy::splits(bx, units, lanes, target);
  p.chunk = std::max<std::int64_t>(1, (R + splits - 1) / splits);
  p.chunk = (p.chunk + align - 1) / align * align;
  splits = std::max<std::int64_t>(1, (R + p.chunk - 1) / p.chunk);
  p.grid_x = static_cast<unsigned>(bx);
  p.grid_y = static_cast<unsigned>(splits);
  return p;
}

// One kept plan of run_small_full (Note [small plan cache]): the interned spec, its packed inputs, the kernel.
struct small_plan {
  const void* id;
  std::uint64_t packed;
  CUfunction f;
};
constexpr std::size_t small_plan_slots = 8;
// Zero-initialised and trivially constructible: a thread's first access needs no initialisation guard.
thread_local small_plan tls_small_plans[small_plan_slots] = {};

// Note [small full reduction]
// A full reduction of a short array (a.sum() of 1024 elements) is one launch whose cost is the host's, so
// this path does what run() below does for it (same plan, variant, key and arguments, hence the same
// kernel and the same bits) without the dims vectors, layout buffers and pointer lists: one operand that
// merges to a single reduced axis (any 1-d array, or a C-contiguous one), 32-bit indexing, one pass. It
// repeats plan()'s rows mapping for M = 1: keep the two in step. Returns false where run() must decide.
bool run_small_full(const spec& s, const array& a, dtype out_type, double p0, array& result) {
  // `result`, where defined on entry, is the 0-d output to write (run()'s checked c.out).
  int nd = a.ndim();
  if (s.sequential) return false;
  const std::int64_t R = a.size();
  if (R <= 0) return false;
  std::int64_t stride;
  if (R == 1) {
    stride = 0;  // run() drops length-1 axes and reads the one element with a zero stride
  } else if (nd == 1) {
    stride = a.strides()[0];
  } else if (a.is_c_contiguous()) {
    stride = static_cast<std::int64_t>(a.itemsize());
  } else {
    return false;
  }
  const auto isz = static_cast<std::int64_t>(a.itemsize());
  const std::int64_t limit = std::int64_t{1} << 31;  // run()'s `big`: M = 1, the kept span one item
  if (R >= limit || isz + isz + (R - 1) * std::llabs(stride) >= limit) return false;
  const int device = current_device();  // Note [peer operands] (src/cuda/runtime.cpp)
  if (a.device() != device) require_peer_access(device, a.device());
  const std::int64_t vec = vector_width(a.data(), isz, stride);  // plan()'s vector rows (Note [vector rows])
  const std::int64_t units = vec > 1 ? R / vec : R;
  // Note [small plan cache]: an interned spec (s.id) with the same units, vector width, storage types and
  // device gets the same variant, hence the same kernel: the thread's last few are kept, keyed on exactly
  // those, so that a repeated small call skips the variant's policy and the kernel cache's key and hash
  // (about 7% of a small a.sum()'s host time). Only plans that passed the one-split test below are kept.
  const std::uint64_t packed = static_cast<std::uint64_t>(units) | static_cast<std::uint64_t>(vec) << 32 |
                               static_cast<std::uint64_t>(a.type()) << 40 | static_cast<std::uint64_t>(out_type) << 48 |
                               static_cast<std::uint64_t>(device) << 56;
  small_plan& slot = tls_small_plans[(reinterpret_cast<std::uintptr_t>(s.id) >> 4) % small_plan_slots];
  const bool kept = s.id != nullptr && slot.id == s.id && slot.packed == packed;
  variant v;
  if (!kept) {
    const int target = policy::target_blocks(device);
    v.m = mode::rows;
    v.vec = vec > 1;
    v.group = policy::row_group(1, units, target);
    if (policy::splits(1, units, v.group, target) != 1) return false;
    v.kd = 0;
    v.rd = 1;
    v.in_storage = a.type();
    v.out_storage = out_type;
  }
  if (!result.defined()) result = detail::new_array(out_type, shape_t{}, order::C, device);
  CUstream stream = reinterpret_cast<CUstream>(detail::enter_device(device));
  CUfunction f = kept ? slot.f : lookup(s, spec_ref(s), v, device);
  if (!kept && s.id != nullptr) slot = small_plan{s.id, packed, f};
  // ca_rlayout with kd = rd = 1 and one operand: kshape, kstride, rshape, rstride (32-bit).
  std::int32_t layout[4] = {0, 0, static_cast<std::int32_t>(R), static_cast<std::int32_t>(stride)};
  const void* ptrs[1] = {a.data()};
  const void* mu_p = nullptr;
  void* out_p = result.data();
  int M32 = 1, R32 = static_cast<int>(R), C32 = static_cast<int>(R);
  long long n64 = R;
  void* args[] = {ptrs, &mu_p, &out_p, &M32, &R32, &C32, &n64, &p0, layout};
  jit::launch_2d(f, 1, 1, block_threads, 0, stream, args);
  return true;
}

// Whether call::out can take the kernel's output: the result's shape and type, C-contiguous, on the current
// device, no shared memory with an operand (a one-pass kernel writes outputs while other blocks still read).
bool usable_out(const call& c) {
  const array& o = c.out;
  if (!o.defined() || o.type() != c.out_type || !o.is_c_contiguous() || o.device() != current_device()) return false;
  if (o.ndim() != c.in.ndim() - static_cast<int>(c.axes.size())) return false;
  for (int i = 0, k = 0; i < c.in.ndim(); ++i) {
    if (std::find(c.axes.begin(), c.axes.end(), i) == c.axes.end() && o.shape()[k++] != c.in.shape()[i]) return false;
  }
  for (const array* x : {&c.in, &c.mask, &c.per_output}) {
    if (x->defined() && detail::may_overlap(o, *x)) return false;
  }
  for (const array& x : c.extra) {
    if (detail::may_overlap(o, x)) return false;
  }
  return true;
}

}  // namespace

bool run_full(const spec& s, const array& in, dtype out_type, array& result) {
  return run_small_full(s, in, out_type, 0, result);
}

array run(const spec& s, const call& c) {
  const array& a = c.in;
  int nd = a.ndim();
  if (c.extra.size() != s.extra_compute.size()) throw value_error("reduction: one type per extra input");
  if (c.extra.size() > max_extra) {
    throw value_error("reduction: at most " + std::to_string(max_extra + 1) + " inputs, got " +
                      std::to_string(c.extra.size() + 1));
  }
  const bool into_out = usable_out(c);
  if (array small = into_out ? c.out : array(); c.extra.empty() && !c.mask.defined() && !c.per_output.defined() &&
                                                static_cast<int>(c.axes.size()) == nd &&
                                                run_small_full(s, a, c.out_type, c.p0, small)) {
    return small;  // Note [small full reduction]
  }
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
  // CuPy: the current device computes and holds the result; inputs of another device are read over peer
  // access (Note [peer operands] in src/cuda/runtime.cpp).
  const int device = current_device();
  for (const array* x : ops) {
    if (x->device() != device) require_peer_access(device, x->device());
  }
  if (c.per_output.defined() && c.per_output.device() != device) require_peer_access(device, c.per_output.device());
  array out = into_out ? c.out : detail::new_array(c.out_type, out_shape, order::C, device);
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

  std::vector<const void*> ptrs;
  for (const array* x : ops) ptrs.push_back(x->data());
  const spec_ref sr(s);
  auto set_operands = [&](variant& v) {
    v.index64 = big;
    v.in_storage = a.type();
    v.nextra = static_cast<std::uint8_t>(c.extra.size());
    for (std::size_t k = 0; k < c.extra.size(); ++k) v.extra_storage[k] = c.extra[k].type();
    v.out_storage = c.out_type;
    v.mask = c.mask.defined();
    v.per_output = c.per_output.defined();
    if (v.per_output) v.per_output_type = c.per_output.type();
  };
  const auto ab = static_cast<std::int64_t>(s.acc_bytes);

  // Note [inner reduced run]: where the rows mapping would walk a short innermost reduced run (fewer elements
  // than a warp) with kept axes between it and the outer reduced axes (mean(axis=(0, 2)) of (4096, 4096, 16):
  // runs of 16 floats, 256 KiB apart), the first pass reduces only the outer axes, keeping the run as an
  // innermost output axis (the coalesced columns mapping, at the copy rate), into accumulator partials
  // [S, M, E]; the second folds each output's S x E partials. The map's `_j` would count the outer axes only,
  // so specs that read it (argmax) and per-output operands keep the one-pass mapping, and so do layouts whose
  // partials would take more than a quarter of the input's bytes (short outer axes: (2, 2**28, 16) over (0, 2)).
  const bool inner_run = !s.sequential && !c.per_output.defined() && red.shape.size() >= 2 && !kept.shape.empty() &&
                         red.shape.back() < policy::row_group_small && s.map.find("_j") == std::string::npos &&
                         std::llabs(red.stride[0].back()) <= std::llabs(kept.stride[0].back());
  const std::int64_t E = inner_run ? red.shape.back() : 1, M1 = M * E, R1 = R / E;
  dims kept1 = kept, red1 = dims::of(ops.size());
  launch_plan p1;
  if (inner_run) {
    kept1.shape.push_back(E);
    red1.shape.assign(red.shape.begin(), red.shape.end() - 1);
    for (std::size_t k = 0; k < ops.size(); ++k) {
      kept1.stride[k].push_back(red.stride[k].back());
      red1.stride[k].assign(red.stride[k].begin(), red.stride[k].end() - 1);
    }
    kept1 = merge(kept1);
    p1 = plan(s, kept1, red1, M1, R1, false, device, 0,
              c.mask.defined() ? 0 : column_vector_elems(ops, kept1, red1, s.acc_bytes));
  }
  const auto in_bytes = static_cast<std::int64_t>(a.size()) * static_cast<std::int64_t>(a.itemsize());
  if (inner_run && static_cast<std::int64_t>(p1.grid_y) * M1 * ab <= in_bytes / 4) {
    set_operands(p1.v);
    p1.v.partial_out = true;
    const std::int64_t S1 = p1.grid_y;
    array partial = detail::new_array(dtype::uint8, shape_t{S1 * M1 * ab}, order::C, device);
    launch(s, sr, p1, kept1, red1, ptrs, nullptr, partial.data(), M1, R1, R1, c.p0, device);
    dims kept2 = dims::of(1), red2 = dims::of(1);
    if (M > 1) {
      kept2.shape.push_back(M);
      kept2.stride[0].push_back(E * ab);
    }
    red2.shape = {S1, E};
    red2.stride[0] = {M1 * ab, ab};
    red2 = merge(red2);
    launch_plan q = plan(s, kept2, red2, M, S1 * E, true, device);
    q.v.index64 = S1 * M1 * ab >= (std::int64_t{1} << 31) || M >= (std::int64_t{1} << 31);
    q.v.in_storage = a.type();
    q.v.out_storage = c.out_type;
    q.v.partial_in = true;
    launch(s, sr, q, kept2, red2, {partial.data()}, nullptr, out.data(), M, S1 * E, R, c.p0, device);
    return out;
  }

  const bool plain = !c.mask.defined() && !c.per_output.defined();
  launch_plan p = plan(s, kept, red, M, R, false, device, c.mask.defined() ? 0 : vector_elems(ops, kept, red),
                       plain ? column_vector_elems(ops, kept, red, s.acc_bytes) : 0);
  set_operands(p.v);
  if (p.v.vec && p.v.m == mode::rows && p.v.group == block_threads) {
    std::int64_t read = 0;
    for (const array* x : ops) read += static_cast<std::int64_t>(x->size()) * static_cast<std::int64_t>(x->itemsize());
    p.v.stream = policy::stream_loads(read, device);  // Note [streaming loads]
  }
  const void* mu = c.per_output.defined() ? c.per_output.data() : nullptr;
  if (p.grid_y == 1) {
    launch(s, sr, p, kept, red, ptrs, mu, out.data(), M, R, R, c.p0, device);
    return out;
  }
  // Two passes: accumulator partials [S, M], then their fold (Note [reduction kernels]).
  std::int64_t S = p.grid_y;
  array partial = detail::new_array(dtype::uint8, shape_t{S * M * static_cast<std::int64_t>(s.acc_bytes)}, order::C,
                                    device);
  p.v.partial_out = true;
  launch(s, sr, p, kept, red, ptrs, mu, partial.data(), M, R, R, c.p0, device);
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
  launch(s, sr, q, kept2, red2, {partial.data()}, nullptr, out.data(), M, S, R, c.p0, device);
  return out;
}

namespace {

variant variant_for_test(const spec& s, const test_variant& t) {
  if (t.extra_storage.size() > max_extra) throw value_error("reduction: too many extra inputs");
  variant v;
  v.in_storage = t.in_storage;
  v.nextra = static_cast<std::uint8_t>(t.extra_storage.size());
  for (std::size_t k = 0; k < t.extra_storage.size(); ++k) v.extra_storage[k] = t.extra_storage[k];
  v.out_storage = t.out_storage;
  v.m = s.sequential ? mode::sequential : (t.rows ? mode::rows : mode::columns);
  v.group = s.sequential ? 1 : (t.rows ? t.group : column_lanes);
  v.kd = t.kept_ndim;
  v.rd = t.red_ndim;
  v.index64 = t.index64;
  v.mask = t.mask;
  v.per_output = t.per_output;
  if (t.per_output) v.per_output_type = t.per_output_type;
  v.partial_out = t.partial_out;
  v.partial_in = t.partial_in;
  v.vec = t.vec;
  v.stream = t.stream;
  return v;
}

}  // namespace

std::string source_for_test(const spec& s, const test_variant& t) {
  return generate(s, variant_for_test(s, t), "cuarray_reduce_" + s.name);
}

std::string key_for_test(const spec& s, const test_variant& t, int device) {
  reduction_key k = make_key(spec_ref(s), variant_for_test(s, t), device);
  return std::string(reinterpret_cast<const char*>(&k), sizeof(k));
}

const void* intern(const spec& s) {
  static std::mutex m;
  static auto* ids = new std::unordered_map<std::string, std::unique_ptr<char>>();
  std::string k;
  auto put = [&](std::string_view t) {
    k += std::to_string(t.size());
    k += ':';
    k += t;
  };
  for (const std::string* t : {&s.name, &s.preamble, &s.acc, &s.in_compute, &s.out_compute, &s.map, &s.combine, &s.fold,
                               &s.post, &s.identity}) {
    put(*t);
  }
  put(std::to_string(s.extra_compute.size()));
  for (const std::string& t : s.extra_compute) put(t);
  put(std::to_string(s.acc_bytes));
  put(s.sequential ? "1" : "0");
  std::lock_guard<std::mutex> lock(m);
  auto& slot = (*ids)[k];
  if (!slot) slot = std::make_unique<char>(0);
  return slot.get();
}

}  // namespace cuarray::red
