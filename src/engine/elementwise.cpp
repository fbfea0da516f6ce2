// The elementwise engine: layout merging, kernel specialisation, the packed-key kernel cache, and launch.
#include "src/engine/elementwise.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/core/internal.hpp"
#include "src/engine/cache.hpp"
#include "src/engine/kernel.hpp"
#include "src/engine/kernel_cache.hpp"
#include "src/engine/launch_policy.hpp"

namespace cuarray::ew {

// Note [elementwise specialisation]
// A kernel is specialised on: the body (spec.id), each operand's storage and computation dtype and whether
// it is a scalar, the number of dimensions left after merging (0 means "all arrays contiguous in the same
// order": a flat loop), 32- or 64-bit indexing, and whether a `where` mask is present. These fit in a POD
// key that is hashed without touching strings, so a warm launch costs a hash lookup. Merging (Note [loop
// layout] in src/core/internal.hpp, extended here to any number of operands) turns C-to-C, F-to-F and
// broadcast-scalar cases into the flat loop.

namespace {

constexpr int max_operands = 12;
constexpr int max_kernel_ndim = 32;  // merged dimensions beyond this are packed first (never seen in practice)

struct kernel_key {
  const void* id;
  int device;
  std::uint8_t nin, nout, ndim, flags;  // flags: 1 = 64-bit index, 2 = where mask, 4 = vectorised, 8 = C order,
                                        // 16 = strided runs (Note [strided runs])
  std::uint8_t storage[max_operands];
  std::uint8_t compute[max_operands];
  std::uint8_t scalar_mask[max_operands];
  std::uint8_t raw_mask[max_operands];
  std::uint8_t pad[(8 - (16 + 4 * max_operands) % 8) % 8];
  bool operator==(const kernel_key& o) const { return std::memcmp(this, &o, sizeof(kernel_key)) == 0; }
};

// The warm path is a hash of the key and one comparison (Note [kernel lookup] in kernel_cache.hpp).
jit::kernel_cache<kernel_key>& cache() {
  static auto* c = new jit::kernel_cache<kernel_key>();  // never destroyed: threads may launch at exit
  return *c;
}
using policy = jit::elementwise_policy;

const char* storage_name(dtype t) { return type_name(t); }

// The merged iteration space over all array operands (outputs first).
struct merged_layout {
  int ndim = 0;
  std::int64_t shape[64];
  std::int64_t strides[max_operands][64];
};

void merge(const shape_t& shape, const strides_t* const* strides, int nstrides, bool c_order, merged_layout& m) {
  m.ndim = 0;
  int axes[64];
  int n = 0;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) axes[n++] = i;
  }
  const strides_t& lead = *strides[0];
  if (!c_order) {
    // A stable insertion sort by decreasing stride: n is small, and std::stable_sort would allocate a buffer
    // on every call.
    for (int j = 1; j < n; ++j) {
      int ax = axes[j];
      int k = j;
      for (; k > 0 && std::llabs(lead[axes[k - 1]]) < std::llabs(lead[ax]); --k) axes[k] = axes[k - 1];
      axes[k] = ax;
    }
  }
  auto k = static_cast<std::size_t>(nstrides);
  for (int j = 0; j < n; ++j) {
    int ax = axes[j];
    if (m.ndim > 0) {
      int last = m.ndim - 1;
      bool chain = true;
      for (std::size_t o = 0; o < k && chain; ++o) chain = m.strides[o][last] == (*strides[o])[ax] * shape[ax];
      if (chain) {
        m.shape[last] *= shape[ax];
        for (std::size_t o = 0; o < k; ++o) m.strides[o][last] = (*strides[o])[ax];
        continue;
      }
    }
    m.shape[m.ndim] = shape[ax];
    for (std::size_t o = 0; o < k; ++o) m.strides[o][m.ndim] = (*strides[o])[ax];
    ++m.ndim;
  }
}

// Elements per thread in the vectorised flat loop: 16 bytes of the widest array operand.
int vector_width(const kernel_key& key) {
  std::size_t widest = 1;
  for (int op = 0; op < key.nin + key.nout; ++op) {
    if (!key.scalar_mask[op]) widest = std::max(widest, itemsize(static_cast<dtype>(key.storage[op])));
  }
  return static_cast<int>(policy::vector_bytes / widest);
}

const char* vector_type(std::size_t bytes) {
  switch (bytes) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "uint2";
    default: return "uint4";
  }
}

// One element's work in a generated loop: inputs loaded and cast to their computation types (scalars
// from their by-value parameters), the body, outputs cast and stored; `address(op)` gives the element's
// address expression for array operand `op`. Raw operands are indexed by the body itself.
template <class Address>
void emit_element(std::ostringstream& s, const kernel_spec& spec, const kernel_key& key, const char* indent,
                  const Address& address) {
  for (int op = 0; op < key.nin; ++op) {
    dtype c = static_cast<dtype>(key.compute[op]);
    if (key.raw_mask[op]) continue;
    if (key.scalar_mask[op]) {
      if (c == dtype::bool_) s << indent << "bool in" << op << " = v" << op << " != 0;\n";
      else s << indent << type_name(c) << " in" << op << " = v" << op << ";\n";
    } else {
      dtype st = static_cast<dtype>(key.storage[op]);
      s << indent << type_name(c) << " in" << op << " = ca_cast<" << type_name(c) << ">(ca_load<" << type_name(st)
        << ">(" << address(op) << "));\n";
    }
  }
  for (int j = 0; j < key.nout; ++j) {
    int op = key.nin + j;
    if (key.raw_mask[op]) continue;
    s << indent << type_name(static_cast<dtype>(key.compute[op])) << " out" << j << ";\n";
  }
  s << indent << "{ " << spec.body << " }\n";
  for (int j = 0; j < key.nout; ++j) {
    int op = key.nin + j;
    if (key.raw_mask[op]) continue;
    dtype st = static_cast<dtype>(key.storage[op]);
    s << indent << "ca_store<" << type_name(st) << ">(" << address(op) << ", ca_cast<" << type_name(st) << ">(out" << j
      << "));\n";
  }
}

// Joins by appending: GCC 12 reports a false -Wrestrict on `"literal" + std::string&&` (GCC bug 105329).
template <class... Parts> std::string concat(const Parts&... parts) {
  std::string r;
  (r.append(std::string_view(parts)), ...);
  return r;
}

std::string generate(const kernel_spec& spec, const kernel_key& key, const std::string& kname) {
  int nops = key.nin + key.nout;
  bool big = key.flags & 1, where = key.flags & 2;
  const char* idx = big ? "long long" : "int";
  std::ostringstream s;
  s << "#include \"ca_ufuncs.cuh\"\n" << spec.preamble << "\n";
  int narr = 0;
  for (int o = 0; o < nops; ++o) narr += (key.scalar_mask[o] || key.raw_mask[o]) ? 0 : 1;
  if (where) ++narr;
  if (key.ndim > 0) {
    s << "struct ca_layout { " << idx << " shape[" << int(key.ndim) << "]; " << idx << " strides[" << narr << "]["
      << int(key.ndim) << "]; };\n";
  }
  s << "extern \"C\" __global__ void " << kname << "(";
  // Parameters: outputs, inputs (arrays as pointers, scalars by value), the mask, the size, the layout.
  auto operand_index = [&](int o) { return o < key.nout ? key.nin + o : o - key.nout; };  // outputs first
  bool first = true;
  for (int o = 0; o < nops; ++o) {
    int op = operand_index(o);
    if (!first) s << ", ";
    first = false;
    bool is_out = op >= key.nin;
    if (key.scalar_mask[op]) {
      dtype c = static_cast<dtype>(key.compute[op]);
      s << (c == dtype::bool_ ? "unsigned char" : type_name(c)) << " v" << op;
    } else if (key.raw_mask[op]) {
      dtype c = static_cast<dtype>(key.compute[op]);
      s << (c == dtype::bool_ ? "unsigned char" : type_name(c)) << "* __restrict__ raw" << op;
    } else {
      s << (is_out ? "char* __restrict__ p" : "const char* __restrict__ p") << op;
    }
  }
  if (where) s << ", const char* __restrict__ pw";
  s << ", " << idx << " n";
  if (key.ndim > 0) s << ", ca_layout L";
  s << ") {\n";
  // Note [programmatic dependent launch] in kernel.cpp: the wait comes before anything that can touch global
  // memory (loop_prep and the body included); the trigger right after it lets the next kernel in the stream be
  // scheduled while this one runs, and that kernel waits in turn for this one's end.
  s << "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n"
       "  asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");\n"
       "  asm volatile(\"griddepcontrol.launch_dependents;\" ::: \"memory\");\n"
       "#endif\n";
  s << "  struct { " << idx << " s; __device__ " << idx << " size() const { return s; } } _ind{n};\n";
  s << "  " << spec.loop_prep << "\n";
  if (key.flags & 4) {
    // Note [vectorised flat loop]: every array operand is read and written with one aligned load or store
    // of `vec` elements (16 bytes for the widest operand); the remainder runs element by element below.
    int vec = vector_width(key);
    s << "  const " << idx << " stride = (" << idx << ")gridDim.x * blockDim.x;\n";
    s << "  const " << idx << " nvec = n / " << vec << ";\n";
    s << "  for (" << idx << " v = (" << idx << ")blockIdx.x * blockDim.x + threadIdx.x; v < nvec; v += stride) {\n";
    for (int op = 0; op < nops; ++op) {
      if (key.scalar_mask[op]) continue;
      dtype st = static_cast<dtype>(key.storage[op]);
      std::size_t bytes = itemsize(st) * static_cast<std::size_t>(vec);
      s << "    union { " << vector_type(bytes) << " v; unsigned char b[" << bytes << "]; } u" << op << ";\n";
      if (op < key.nin) {
        s << "    u" << op << ".v = reinterpret_cast<const " << vector_type(bytes) << "*>(p" << op << ")[v];\n";
      }
    }
    if (where)
      s << "    union { " << vector_type(static_cast<std::size_t>(vec)) << " v; unsigned char b[" << vec
        << "]; } uw; uw.v = reinterpret_cast<const " << vector_type(static_cast<std::size_t>(vec)) << "*>(pw)[v];\n";
    for (int j = 0; j < key.nout; ++j) {
      int op = key.nin + j;
      if (where) {
        dtype st = static_cast<dtype>(key.storage[op]);
        std::size_t bytes = itemsize(st) * static_cast<std::size_t>(vec);
        s << "    u" << op << ".v = reinterpret_cast<const " << vector_type(bytes) << "*>(p" << op << ")[v];\n";
      }
    }
    s << "    #pragma unroll\n    for (int e = 0; e < " << vec << "; ++e) {\n";
    if (where) s << "      if (!uw.b[e]) continue;\n";
    emit_element(s, spec, key, "      ", [&](int op) {
      return concat("u", std::to_string(op), ".b + e * ",
                    std::to_string(itemsize(static_cast<dtype>(key.storage[op]))));
    });
    s << "    }\n";
    for (int j = 0; j < key.nout; ++j) {
      int op = key.nin + j;
      dtype st = static_cast<dtype>(key.storage[op]);
      std::size_t bytes = itemsize(st) * static_cast<std::size_t>(vec);
      s << "    reinterpret_cast<" << vector_type(bytes) << "*>(p" << op << ")[v] = u" << op << ".v;\n";
    }
    s << "  }\n";
    s << "  for (" << idx << " i = nvec * " << vec << " + (" << idx
      << ")blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {\n";
  } else if (!(key.flags & 16)) {
    s << "  for (" << idx << " i = (" << idx << ")blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (" << idx
      << ")gridDim.x * blockDim.x) {\n";
  }
  // Byte offsets of each array operand.
  int a = 0;
  std::vector<int> slot(static_cast<std::size_t>(nops), -1);
  for (int o = 0; o < nops; ++o) {
    int op = operand_index(o);
    if (!key.scalar_mask[op] && !key.raw_mask[op]) slot[static_cast<std::size_t>(op)] = a++;
  }
  int where_slot = where ? a++ : -1;
  if (key.flags & 16) {
    // Note [strided runs]: a block takes a run of run_elements * blockDim.x consecutive elements of one row of
    // the innermost dimension, each thread run_elements of them spaced by blockDim.x (so a warp's accesses stay
    // coalesced), and splits the row index over the outer dimensions once for the whole run.
    const int nd = key.ndim, rv = policy::run_elements;
    s << "  const " << idx << " ca_inner = L.shape[" << nd - 1 << "];\n";
    s << "  const " << idx << " ca_span = (" << idx << ")blockDim.x * " << rv << ";\n";
    s << "  const " << idx << " ca_tiles = (ca_inner + ca_span - 1) / ca_span;\n";
    s << "  const " << idx << " ca_items = (n / ca_inner) * ca_tiles;\n";
    s << "  for (" << idx << " ca_w = blockIdx.x; ca_w < ca_items; ca_w += gridDim.x) {\n";
    s << "    " << idx << " ca_q = ca_tiles == 1 ? ca_w : ca_w / ca_tiles; " << idx
      << " ca_c = ca_w - ca_q * ca_tiles; " << idx << " ca_rem = ca_q;\n";
    for (int k = 0; k < narr; ++k) s << "    " << idx << " ca_r" << k << " = 0;\n";
    s << "    #pragma unroll\n    for (int d = " << nd - 2 << "; d >= 1; --d) {\n";
    s << "      " << idx << " ca_qq = ca_rem / L.shape[d]; " << idx
      << " ca_rd = ca_rem - ca_qq * L.shape[d]; ca_rem = ca_qq;\n";
    for (int k = 0; k < narr; ++k) s << "      ca_r" << k << " += ca_rd * L.strides[" << k << "][d];\n";
    s << "    }\n";
    for (int k = 0; k < narr; ++k) s << "    ca_r" << k << " += ca_rem * L.strides[" << k << "][0];\n";
    s << "    const " << idx << " ca_j0 = ca_c * ca_span + threadIdx.x;\n";
    // The run's loop is written after the element's code is known (below): twice, a whole run first.
  } else if (key.ndim > 0) {
    s << "    " << idx << " rem = i;\n";
    for (int k = 0; k < narr; ++k) s << "    " << idx << " o" << k << " = 0;\n";
    // The outermost coordinate is what remains after the inner divisions (i < n, the product of the shape), so
    // it needs no division: a 2-D broadcast (the common (m,1) op (1,n) case) divides once per element, not twice.
    s << "    #pragma unroll\n    for (int d = " << int(key.ndim) - 1 << "; d >= 1; --d) {\n";
    s << "      " << idx << " q = rem / L.shape[d]; " << idx << " r = rem - q * L.shape[d]; rem = q;\n";
    for (int k = 0; k < narr; ++k) s << "      o" << k << " += r * L.strides[" << k << "][d];\n";
    s << "    }\n";
    for (int k = 0; k < narr; ++k) s << "    o" << k << " += rem * L.strides[" << k << "][0];\n";
  }
  auto offset_expr = [&](int op) {
    int k = slot[static_cast<std::size_t>(op)];
    std::string st = storage_name(static_cast<dtype>(key.storage[op]));
    if (key.ndim > 0) return concat("o", std::to_string(k));
    return concat("i * (", idx, ")sizeof(",
                  key.storage[op] == static_cast<int>(dtype::bool_) ? std::string("unsigned char") : st, ")");
  };
  std::ostringstream element;
  if (where) {
    std::string off = key.ndim > 0 ? concat("o", std::to_string(where_slot)) : std::string("i");
    element << "    if (!pw[" << off << "]) continue;\n";
  }
  emit_element(element, spec, key, "    ",
               [&](int op) { return concat("p", std::to_string(op), " + ", offset_expr(op)); });
  if (key.flags & 16) {
    // Note [strided runs]: a whole run (every element inside the row) unrolls with no exit, so that the
    // compiler can issue all of its loads before the first store (the pointers are __restrict__); the run that
    // reaches past the row's end stops at it.
    const int nd = key.ndim, rv = policy::run_elements;
    std::ostringstream head;
    head << "    " << idx << " ca_j = ca_j0 + (" << idx << ")ca_e * blockDim.x;\n";
    head << "    " << idx << " i = ca_q * ca_inner + ca_j;\n";
    for (int k = 0; k < narr; ++k)
      head << "    " << idx << " o" << k << " = ca_r" << k << " + ca_j * L.strides[" << k << "][" << nd - 1 << "];\n";
    s << "    if (ca_j0 + (" << idx << ")" << rv - 1 << " * blockDim.x < ca_inner) {\n";
    s << "    #pragma unroll\n    for (int ca_e = 0; ca_e < " << rv << "; ++ca_e) {\n";
    s << head.str() << element.str() << "    }\n";
    s << "    } else {\n";
    s << "    #pragma unroll\n    for (int ca_e = 0; ca_e < " << rv << "; ++ca_e) {\n";
    s << "    if (ca_j0 + (" << idx << ")ca_e * blockDim.x >= ca_inner) break;\n";
    s << head.str() << element.str() << "    }\n";
    s << "    }\n";
  } else {
    s << element.str();
  }
  s << "  }\n  " << spec.after_loop << "\n}\n";
  return s.str();
}

CUfunction lookup(const kernel_spec& spec, const kernel_key& key) {
  return cache().get(key, [&] {
    // Kernel names are made unique so that a user's kernel name can never clash with a CUDA built-in.
    std::string kname = "cuarray_" + (spec.name.empty() ? std::string("kernel") : std::string(spec.name)) + "_ew";
    jit::compile_request req;
    req.source = generate(spec, key, kname);
    req.name = kname + ".cu";
    req.headers = jit_headers();
    req.arch = jit::device_arch(key.device);
    auto code = jit::compile_cached(req);
    return jit::get_function(code, kname, key.device);
  });
}

}  // namespace

const char* type_name(dtype t) {
  switch (t) {
    case dtype::bool_: return "bool";
    case dtype::int8: return "signed char";
    case dtype::int16: return "short";
    case dtype::int32: return "int";
    case dtype::int64: return "long long";
    case dtype::uint8: return "unsigned char";
    case dtype::uint16: return "unsigned short";
    case dtype::uint32: return "unsigned int";
    case dtype::uint64: return "unsigned long long";
    case dtype::float16: return "ca_half";
    case dtype::float32: return "float";
    case dtype::float64: return "double";
    case dtype::complex64: return "ca_complex64";
    case dtype::complex128: return "ca_complex128";
  }
  return "void";
}

std::string kernel_source(const kernel_spec& spec, const std::vector<operand_layout>& inputs,
                          const std::vector<operand_layout>& outputs, int ndim, bool index64, bool where,
                          bool vectorized, const std::string& kernel_name, bool runs) {
  if (inputs.size() + outputs.size() > max_operands - 1)
    throw value_error("too many operands for an elementwise kernel");
  kernel_key key;
  std::memset(&key, 0, sizeof(key));
  key.id = spec.id;
  key.nin = static_cast<std::uint8_t>(inputs.size());
  key.nout = static_cast<std::uint8_t>(outputs.size());
  key.ndim = static_cast<std::uint8_t>(ndim);
  if (runs && ndim < 2) throw value_error("the strided run loop needs at least two dimensions");
  key.flags = static_cast<std::uint8_t>((index64 ? 1 : 0) | (where ? 2 : 0) | (vectorized ? 4 : 0) |
                                        (spec.c_order_index ? 8 : 0) | (runs ? 16 : 0));
  for (std::size_t i = 0; i < inputs.size() + outputs.size(); ++i) {
    const operand_layout& o = i < inputs.size() ? inputs[i] : outputs[i - inputs.size()];
    key.storage[i] = static_cast<std::uint8_t>(o.scalar ? o.compute : o.storage);
    key.compute[i] = static_cast<std::uint8_t>(o.compute);
    key.scalar_mask[i] = o.scalar ? 1 : 0;
    key.raw_mask[i] = o.raw ? 1 : 0;
  }
  return generate(spec, key, kernel_name);
}

stats get_stats() {
  jit::kernel_cache_stats c = cache().stats();
  return stats{c.hits, c.misses};
}

const void* intern(const kernel_spec& spec) {
  static std::mutex m;
  static auto* ids = new std::unordered_map<std::string, std::unique_ptr<char>>();
  const std::string sep(1, '\x1f');
  std::string k;
  for (std::string_view part : {spec.name, spec.body, spec.preamble, spec.loop_prep, spec.after_loop}) {
    k.append(part);
    k += sep;
  }
  k += spec.c_order_index ? "1" : "0";
  std::lock_guard<std::mutex> lock(m);
  auto& slot = (*ids)[k];
  if (!slot) slot = std::make_unique<char>(0);
  return slot.get();
}

void run(const kernel_spec& spec, const std::vector<operand>& inputs, const std::vector<operand>& outputs,
         const shape_t& shape, const array& where) {
  run(spec, inputs.data(), static_cast<int>(inputs.size()), outputs.data(), static_cast<int>(outputs.size()), shape,
      where);
}

void run(const kernel_spec& spec, const operand* inputs, int nin, const operand* outputs, int nout,
         const shape_t& shape, const array& where) {
  if (nin + nout > max_operands - 1) throw value_error("too many operands for an elementwise kernel");
  operand_ref ins[max_operands], outs[max_operands];
  auto ref = [](const operand& o) {
    return operand_ref{o.is_scalar() ? nullptr : &o.arr, o.value.bytes, o.compute, o.raw};
  };
  for (int i = 0; i < nin; ++i) ins[i] = ref(inputs[i]);
  for (int j = 0; j < nout; ++j) outs[j] = ref(outputs[j]);
  run(spec, ins, nin, outs, nout, shape, where.defined() ? &where : nullptr);
}

void run(const kernel_spec& spec, const operand_ref* inputs, int nin, const operand_ref* outputs, int nout,
         const shape_t& shape, const array* where) {
  std::int64_t n = shape_size(shape);
  if (n == 0) return;
  if (nin + nout > max_operands - 1) throw value_error("too many operands for an elementwise kernel");
  // The device of the first output runs it, or the current one with spec.on_current_device. Callers allocate
  // outputs on the current device, as CuPy does; internal steps of an operation that runs on its input's device
  // keep running there, on that device's stream, so they stay ordered with the operation's other kernels.
  // Operands of another device are used in place over peer access (Note [peer operands] in src/cuda/runtime.cpp).
  const int device = nout == 0 || spec.on_current_device ? current_device() : outputs[0].arr->device();

  // The array operands as seen over `shape` (outputs first, so that they lead the axis order), then the mask.
  // Operands of the full shape are used in place; others get a broadcast view in `bviews`.
  const array* views[max_operands];
  array_slots<max_operands> bviews;  // broadcast views, made only when needed
  int nviews = 0;
  int view_of[max_operands];
  for (int j = 0; j < nout; ++j) {
    const operand_ref& o = outputs[j];
    view_of[nin + j] = -1;
    if (o.arr->device() != device) require_peer_access(device, o.arr->device());
    if (o.raw) {
      if (!o.arr->is_c_contiguous()) throw value_error("raw output arrays must be C-contiguous");
      continue;
    }
    if (o.arr->shape() != shape) {
      throw value_error("output shape " + shape_to_string(o.arr->shape()) + " does not match the broadcast shape " +
                        shape_to_string(shape));
    }
    view_of[nin + j] = nviews;
    views[nviews++] = o.arr;
  }
  for (int i = 0; i < nin; ++i) {
    const operand_ref& in = inputs[i];
    view_of[i] = -1;
    if (in.is_scalar()) continue;
    if (in.arr->device() != device) require_peer_access(device, in.arr->device());
    if (in.raw) continue;
    view_of[i] = nviews;
    if (in.arr->shape() == shape) {
      views[nviews++] = in.arr;
    } else {
      views[nviews++] = bviews.add(in.arr->broadcast_to(shape));
    }
  }
  if (where) {
    if (where->device() != device) require_peer_access(device, where->device());
    if (where->shape() == shape) {
      views[nviews++] = where;
    } else {
      views[nviews++] = bviews.add(where->broadcast_to(shape));
    }
  }

  // Arrays that are all C-contiguous (or all F-contiguous, where the body does not read the C index) are
  // visited in the same order by one flat index, with no layout analysis at all: the common case.
  bool all_c = true, all_f = !spec.c_order_index;
  for (int k = 0; k < nviews; ++k) {
    all_c = all_c && views[k]->is_c_contiguous();
    all_f = all_f && views[k]->is_f_contiguous();
  }
  bool flat = all_c || all_f;

  // Elements are loaded with their natural alignment: an unaligned view (possible through view() with a
  // larger itemsize, or foreign memory) would fault on the device, so it is refused here. (A flat loop
  // steps by the itemsize, so only the addresses matter then.)
  for (int k = 0; k < nviews; ++k) {
    std::uintptr_t bits = reinterpret_cast<std::uintptr_t>(views[k]->data());
    if (!flat) {
      for (std::int64_t st : views[k]->strides()) bits |= static_cast<std::uintptr_t>(st);
    }
    if ((bits & (views[k]->itemsize() - 1)) != 0) {  // itemsizes are powers of two (no division here)
      throw value_error("cuarray cannot compute on an unaligned " + std::string(name(views[k]->type())) +
                        " array (its address or strides are not multiples of its itemsize); copy it first");
    }
  }
  merged_layout m;
  if (!flat) {
    const strides_t* stride_ptrs[max_operands];
    for (int k = 0; k < nviews; ++k) stride_ptrs[k] = &views[k]->strides();
    merge(shape, stride_ptrs, nviews, spec.c_order_index, m);
    flat = m.ndim <= 1;
    for (int k = 0; k < nviews && flat; ++k) {
      if (m.ndim == 1 && m.strides[k][0] != static_cast<std::int64_t>(views[k]->itemsize())) flat = false;
    }
  }

  kernel_key key;
  std::memset(&key, 0, sizeof(key));
  key.id = spec.id;
  key.device = device;
  key.nin = static_cast<std::uint8_t>(nin);
  key.nout = static_cast<std::uint8_t>(nout);
  bool any_raw = false;
  for (int i = 0; i < nin + nout; ++i) {
    const operand_ref& op = i < nin ? inputs[i] : outputs[i - nin];
    key.compute[i] = static_cast<std::uint8_t>(op.compute);
    key.scalar_mask[i] = op.is_scalar() ? 1 : 0;
    key.raw_mask[i] = op.raw ? 1 : 0;
    any_raw = any_raw || op.raw;
    key.storage[i] = static_cast<std::uint8_t>(op.is_scalar() ? op.compute : op.arr->type());
  }
  if (where) key.flags |= 2;
  if (spec.c_order_index) key.flags |= 8;
  // 64-bit indexing only when a byte offset or the element count can pass 2^31.
  bool big = n >= (std::int64_t{1} << 31);
  for (int k = 0; k < nviews && !big; ++k) {
    if (flat && n * static_cast<std::int64_t>(views[k]->itemsize()) >= (std::int64_t{1} << 31)) big = true;
    if (!flat) {
      std::int64_t lo, hi;
      byte_extent(views[k]->shape(), views[k]->strides(), views[k]->itemsize(), lo, hi);
      if (hi - lo >= (std::int64_t{1} << 31) || -lo >= (std::int64_t{1} << 31)) big = true;
    }
  }
  if (big) key.flags |= 1;
  if (!flat && m.ndim > max_kernel_ndim) throw value_error("too many dimensions for an elementwise kernel");
  key.ndim = flat ? 0 : static_cast<std::uint8_t>(m.ndim);
  const int vw = vector_width(key);
  if (flat && !spec.c_order_index && !any_raw && vw > 1 && n >= policy::min_vectors * vw) {
    bool aligned = true;
    for (int k = 0; k < nviews && aligned; ++k) {
      std::size_t bytes = views[k]->itemsize() * static_cast<std::size_t>(vw);
      aligned = (reinterpret_cast<std::uintptr_t>(views[k]->data()) & (bytes - 1)) == 0;  // bytes: a power of two
    }
    if (aligned) key.flags |= 4;
  }

  // Note [strided runs]: rows of the innermost dimension long enough to fill a block take the run loop.
  std::int64_t run_items = 0;
  if (!flat && m.ndim >= 2 && m.shape[m.ndim - 1] >= policy::block_threads) {
    key.flags |= 16;
    const std::int64_t inner = m.shape[m.ndim - 1], span = std::int64_t{policy::block_threads} * policy::run_elements;
    run_items = (n / inner) * ((inner + span - 1) / span);
  }

  CUstream stream = reinterpret_cast<CUstream>(detail::enter_device(device));
  CUfunction f = lookup(spec, key);

  // Argument buffer: every parameter lives in `storage` (pointers, scalars of up to 16 bytes, the size) or
  // `layout`, and `args` points at each.
  alignas(16) unsigned char storage[max_operands * 16 + 16];
  void* ptrs[max_operands + 2];
  void* args[max_operands + 4];
  int na = 0;
  for (int o = 0; o < nin + nout; ++o) {
    int op = o < nout ? nin + o : o - nout;  // kernel order: outputs, then inputs
    const operand_ref& x = op < nin ? inputs[op] : outputs[op - nin];
    if (x.is_scalar()) {
      std::memcpy(storage + 16 * o, x.value, 16);
      args[na++] = storage + 16 * o;
    } else if (x.raw) {
      ptrs[o] = x.arr->data();
      args[na++] = &ptrs[o];
    } else {
      ptrs[o] = views[view_of[op]]->data();
      args[na++] = &ptrs[o];
    }
  }
  if (where) {
    ptrs[max_operands] = views[nviews - 1]->data();
    args[na++] = &ptrs[max_operands];
  }
  long long n64 = n;
  int n32 = static_cast<int>(n);
  args[na++] = big ? static_cast<void*>(&n64) : static_cast<void*>(&n32);
  // Layout parameter (shape, then each array's strides in kernel order: outputs, array inputs, the mask;
  // `views` is in that order by construction).
  alignas(8) unsigned char layout[8 * max_kernel_ndim * (max_operands + 1)];
  if (!flat) {
    auto put = [&](std::size_t slot, std::int64_t v) {
      if (big) {
        std::memcpy(layout + slot * 8, &v, 8);
      } else {
        auto w = static_cast<std::int32_t>(v);
        std::memcpy(layout + slot * 4, &w, 4);
      }
    };
    auto nd = static_cast<std::size_t>(m.ndim);
    for (std::size_t d = 0; d < nd; ++d) put(d, m.shape[d]);
    for (int k = 0; k < nviews; ++k)
      for (std::size_t d = 0; d < nd; ++d) put(nd * (1 + static_cast<std::size_t>(k)) + d, m.strides[k][d]);
    args[na++] = layout;
  }
  // Note [flat grids]: a flat loop without per-thread setup gets a thread per item (each thread's loop runs
  // once); strided loops keep the capped grid, whose threads amortise their layout setup over many items.
  unsigned grid;
  if (key.flags & 16) {
    grid = policy::capped_blocks(run_items, device);
  } else if (flat) {
    std::int64_t items = (key.flags & 4) ? n >> __builtin_ctz(static_cast<unsigned>(vw)) : n;  // vw: a power of two
    grid = spec.loop_prep.empty() && spec.after_loop.empty() ? policy::flat_grid(items) : policy::grid(items, device);
  } else {
    grid = policy::grid(n, device);
  }
  // Every kernel from generate() opens with griddepcontrol.wait (Note [programmatic dependent launch]); the
  // legacy stream keeps plain launches (its implicit synchronisation with other streams is left untouched).
  bool legacy = stream == nullptr || stream == CU_STREAM_LEGACY;
  if (!legacy && jit::dependent_launch_enabled(device)) {
    jit::launch_dependent(f, grid, policy::block_threads, 0, stream, args);
  } else {
    jit::launch(f, grid, policy::block_threads, 0, stream, args);
  }
}

}  // namespace cuarray::ew
