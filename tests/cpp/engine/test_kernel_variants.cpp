// CI without a GPU: every built-in elementwise kernel variant the engine can generate compiles with NVRTC for
// sm_80 and sm_90.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/ufunc.hpp"

using namespace cuarray;

namespace {

// Note [variant coverage]
// Compiling every variant of every loop (about 14 kinds, 721 loops, two architectures) takes NVRTC about 10
// minutes on two cores. The parts of a kernel vary independently: the body depends on the loop, the code
// around it (loads, stores, offsets, vector accesses, the mask) only on the operand types and the path. So
// the test covers each part with every type it meets:
//  - every loop's body, in the flat loop with a mask and, for binary ufuncs, a scalar operand;
//  - every loop signature ("ff->f": the storage and computation types of all operands), with the body of one
//    loop of that signature, in every path: flat, vectorised (where the engine vectorises), strided ndim
//    1..3, the strided run loop, 64-bit indexing, masks and scalar operands in combination;
//  - every load and store cast between two of the fourteen dtypes (operands of another dtype than the loop's).
// Kernels are batched, many to a source (each in its own namespace, since each defines its layout struct),
// and both architectures compile at once (in two processes); a failing batch is recompiled kernel by kernel to
// name the culprit.

constexpr int archs[] = {80, 90};

struct variant {
  std::string what;
  const ew::kernel_spec* spec;
  std::vector<ew::operand_layout> in, out;
  int ndim = 0;
  bool index64 = false, where = false, vectorized = false, runs = false;
};

// Elements per vector access, as the engine computes it: 16 bytes of the widest array operand.
int vector_width(const variant& v) {
  std::size_t widest = 1;
  for (const auto* list : {&v.in, &v.out})
    for (const ew::operand_layout& o : *list)
      if (!o.scalar) widest = std::max(widest, itemsize(o.storage));
  return static_cast<int>(16 / widest);
}

std::string describe(const variant& v) {
  std::string s = v.what + (v.ndim == 0 ? " flat" : " ndim " + std::to_string(v.ndim));
  if (v.vectorized) s += " vectorised";
  if (v.runs) s += " runs";
  if (v.index64) s += " 64-bit";
  if (v.where) s += " where";
  for (std::size_t i = 0; i < v.in.size(); ++i)
    if (v.in[i].scalar) s += " scalar in" + std::to_string(i);
  return s;
}

std::string source_of(const std::vector<variant>& vs, std::size_t first, std::size_t count) {
  std::string src = "#include \"ca_ufuncs.cuh\"\n";
  for (std::size_t k = first; k < first + count; ++k) {
    const variant& v = vs[k];
    std::string name = "cuarray_variant_" + std::to_string(k);
    src += "// " + describe(v) + "\nnamespace " + name + "_ns {\n" +
           ew::kernel_source(*v.spec, v.in, v.out, v.ndim, v.index64, v.where, v.vectorized, name, v.runs) + "}\n";
  }
  return src;
}

/// Empty when it compiles, else NVRTC's message.
std::string try_compile(const std::string& source, const std::string& name, int arch) {
  jit::compile_request req;
  req.source = source;
  req.name = name;
  req.headers = ew::jit_headers();
  req.arch = arch;
  try {
    (void)jit::compile(req);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

/// Failures of `vs` on one architecture: the batch first, kernel by kernel only if the batch fails.
std::vector<std::string> failures_on(const std::vector<variant>& vs, const std::string& name, int arch) {
  std::string batch = try_compile(source_of(vs, 0, vs.size()), name + ".cu", arch);
  if (batch.empty()) return {};
  std::vector<std::string> failures;
  for (std::size_t k = 0; k < vs.size(); ++k) {
    std::string err = try_compile(source_of(vs, k, 1), name + ".cu", arch);
    if (!err.empty()) failures.push_back("sm_" + std::to_string(arch) + ", " + describe(vs[k]) + ":\n" + err);
  }
  if (failures.empty()) failures.push_back("sm_" + std::to_string(arch) + ", the batch:\n" + batch);
  return failures;
}

/// Compiles `vs` as one source per architecture, the architectures at once; returns the failures. NVRTC
/// serialises compilations within a process, so the other architectures run in forked children, which
/// send their failures back through a pipe (NUL-separated).
std::vector<std::string> compile_all(const std::vector<variant>& vs, const std::string& name) {
  (void)jit::nvrtc_version();  // NVRTC loaded before fork: children inherit it ready
  struct child {
    pid_t pid;
    int fd;
    int arch;
  };
  std::vector<child> children;
  for (std::size_t a = 1; a < std::size(archs); ++a) {
    int fds[2];
    if (::pipe(fds) != 0) return {"pipe failed"};
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      std::string out;
      for (const std::string& f : failures_on(vs, name, archs[a])) out += f + '\0';
      for (std::size_t done = 0; done < out.size();) {
        ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::_exit(0);
    }
    ::close(fds[1]);
    if (pid < 0) {
      ::close(fds[0]);
      return {"fork failed"};
    }
    children.push_back({pid, fds[0], archs[a]});
  }
  std::vector<std::string> all = failures_on(vs, name, archs[0]);
  for (const child& c : children) {
    std::string text;
    char buf[65536];
    for (ssize_t n; (n = ::read(c.fd, buf, sizeof(buf))) > 0;) text.append(buf, static_cast<std::size_t>(n));
    ::close(c.fd);
    int status = 0;
    ::waitpid(c.pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      all.push_back("the sm_" + std::to_string(c.arch) + " child died");
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\0', start);
      all.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }
  return all;
}

std::vector<ew::operand_layout> layouts(const std::vector<dtype>& types) {
  std::vector<ew::operand_layout> out;
  for (dtype t : types) out.push_back(ew::operand_layout{t, t, false, false});
  return out;
}

/// The kernel_spec the engine builds for a ufunc loop (src/engine/ufunc.cpp).
const ew::kernel_spec& spec_of(const ufunc_def& u, const ufunc_loop& l) {
  static std::map<const ufunc_loop*, ew::kernel_spec>* specs = new std::map<const ufunc_loop*, ew::kernel_spec>();
  auto it = specs->find(&l);
  if (it == specs->end()) it = specs->emplace(&l, ew::kernel_spec{&l, u.name, l.body, ""}).first;
  return it->second;
}

/// One loop per signature compiles the signature's full matrix: the loop of the cheapest ufunc for NVRTC (its
/// body is compiled up to nine times), else the first in table order.
const std::map<std::string, const ufunc_loop*>& signature_owners() {
  static const auto* owners = [] {
    static const char* cheap[] = {"positive", "negative",  "conjugate",   "add",           "subtract", "multiply",
                                  "equal",    "less",      "logical_not", "logical_and",   "isfinite", "maximum",
                                  "absolute", "square",    "sign",        "ldexp",         "frexp",    "modf",
                                  "divmod",   "remainder", "left_shift",  "bitwise_count", "signbit",  "copysign"};
    auto rank = [](const std::string& name) {
      for (std::size_t i = 0; i < std::size(cheap); ++i)
        if (name == cheap[i]) return i;
      return std::size(cheap);
    };
    auto* m = new std::map<std::string, const ufunc_loop*>();
    std::map<std::string, std::size_t> best;
    for (const ufunc_def* u : all_ufuncs()) {
      for (const ufunc_loop& l : u->loops) {
        auto it = best.find(l.types);
        if (it == best.end() || rank(u->name) < it->second) {
          best[l.types] = rank(u->name);
          (*m)[l.types] = &l;
        }
      }
    }
    return m;
  }();
  return *owners;
}

// Every loop's body, in the flat loop with a mask (and a scalar last input for binary ufuncs).
void add_body_variant(const ufunc_def& u, const ufunc_loop& l, std::vector<variant>& vs) {
  variant flat{u.name + " " + l.types, &spec_of(u, l), layouts(l.in), layouts(l.out)};
  flat.where = true;
  if (flat.in.size() == 2) flat.in[1].scalar = true;
  vs.push_back(std::move(flat));
}

// Every path of the engine for one signature.
void add_signature_variants(const ufunc_def& u, const ufunc_loop& l, std::vector<variant>& vs) {
  const ew::kernel_spec& spec = spec_of(u, l);
  variant base{u.name + " " + l.types, &spec, layouts(l.in), layouts(l.out)};
  auto with = [&](int ndim, bool index64, bool where, bool vectorized, int scalar_input) {
    variant v = base;
    v.ndim = ndim;
    v.index64 = index64;
    v.where = where;
    v.vectorized = vectorized;
    if (scalar_input >= 0 && scalar_input < static_cast<int>(v.in.size()))
      v.in[static_cast<std::size_t>(scalar_input)].scalar = true;
    vs.push_back(std::move(v));
  };
  with(0, false, false, false, -1);
  with(0, true, false, false, -1);
  with(1, false, false, false, -1);
  with(3, false, false, false, -1);
  with(3, true, true, false, -1);
  with(2, false, true, false, 0);  // a unary ufunc on a scalar: outputs only
  with(3, true, true, false, -1);
  vs.back().runs = true;  // Note [strided runs]
  if (vector_width(base) > 1) {
    with(0, false, false, true, -1);
    with(0, false, true, true, -1);
    with(0, true, false, true, static_cast<int>(base.in.size()) - 1);
  }
}

class UfuncVariants : public ::testing::TestWithParam<std::string> {};

TEST_P(UfuncVariants, CompileForSm80AndSm90) {
  const ufunc_def* u = find_ufunc(GetParam());
  ASSERT_NE(u, nullptr);
  std::vector<variant> vs;
  for (const ufunc_loop& l : u->loops) {
    if (signature_owners().at(l.types) == &l) add_signature_variants(*u, l, vs);
    else add_body_variant(*u, l, vs);
  }
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> failures = compile_all(vs, "variants_" + u->name);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %zu kernels x %zu architectures in %.1f s\n", u->name.c_str(), vs.size(), std::size(archs), s);
  for (std::size_t i = 0; i < failures.size() && i < 5; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty()) << failures.size() << " failure(s)";
}

std::vector<std::string> ufunc_names() {
  std::vector<std::string> names;
  for (const ufunc_def* u : all_ufuncs()) names.push_back(u->name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllUfuncs, UfuncVariants, ::testing::ValuesIn(ufunc_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace

TEST(KernelVariants, EverySignatureHasAnOwnerAndEveryLoopAType) {
  std::size_t loops = 0;
  for (const ufunc_def* u : all_ufuncs()) {
    loops += u->loops.size();
    for (const ufunc_loop& l : u->loops) {
      EXPECT_EQ(l.in.size(), static_cast<std::size_t>(u->nin)) << u->name << " " << l.types;
      EXPECT_EQ(l.out.size(), static_cast<std::size_t>(u->nout)) << u->name << " " << l.types;
      EXPECT_TRUE(signature_owners().count(l.types));
    }
  }
  EXPECT_GT(loops, 500u);
  EXPECT_GT(signature_owners().size(), 50u);
}

TEST(KernelVariants, EveryLoadAndStoreCastCompiles) {
  static const ew::kernel_spec copy{reinterpret_cast<const void*>(&copy), "cast", "out0 = in0;", ""};
  std::vector<variant> vs;
  for (int s = 0; s < num_dtypes; ++s) {
    for (int c = 0; c < num_dtypes; ++c) {
      auto st = static_cast<dtype>(s), ct = static_cast<dtype>(c);
      // Loads cast storage -> computation type, stores cast back: both directions of every pair.
      variant v{std::string("cast ") + std::string(name(st)) + " <-> " + std::string(name(ct)),
                &copy,
                {ew::operand_layout{st, ct, false, false}},
                {ew::operand_layout{st, ct, false, false}}};
      vs.push_back(v);
    }
  }
  std::vector<std::string> failures = compile_all(vs, "variants_casts");
  for (std::size_t i = 0; i < failures.size() && i < 5; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty());
}

TEST(KernelVariants, ElementwiseKernelStyleVariantsCompile) {
  // What elementwise_kernel generates: C-order index, raw operands indexed by `i`, loop_prep and after_loop.
  static const ew::kernel_spec spec{reinterpret_cast<const void*>(&spec),
                                    "user",
                                    "out0 = raw0[_ind.size() - 1 - i] + in1;",
                                    "__device__ float ca_test_scale = 2;",
                                    "long long first = 0;",
                                    "(void)first;",
                                    true};
  std::vector<variant> vs;
  for (int ndim : {0, 1, 3, -3}) {  // -3: three dimensions in the strided run loop
    for (bool index64 : {false, true}) {
      variant v{"user kernel",
                &spec,
                {ew::operand_layout{float32, float32, false, true}, ew::operand_layout{float64, float64, false, false}},
                {ew::operand_layout{float32, float64, false, false}}};
      v.ndim = ndim < 0 ? -ndim : ndim;
      v.runs = ndim < 0;
      v.index64 = index64;
      vs.push_back(v);
      v.in[1].scalar = true;
      vs.push_back(v);
    }
  }
  std::vector<std::string> failures = compile_all(vs, "variants_user");
  for (std::size_t i = 0; i < failures.size() && i < 5; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty());
}

TEST(KernelVariants, BrokenVariantIsNamed) {
  // The fallback that names a failing kernel in a batch works (a body that cannot compile).
  static const ew::kernel_spec bad{reinterpret_cast<const void*>(&bad), "bad", "out0 = not_declared;", ""};
  std::vector<variant> vs = {variant{"bad body", &bad, layouts({float32}), layouts({float32})}};
  std::vector<std::string> failures = compile_all(vs, "variants_bad");
  ASSERT_EQ(failures.size(), std::size(archs));
  EXPECT_NE(failures[0].find("bad body flat"), std::string::npos) << failures[0];
  EXPECT_NE(failures[0].find("not_declared"), std::string::npos) << failures[0];
}
