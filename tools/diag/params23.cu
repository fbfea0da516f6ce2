// What a kernel's parameter list costs cuLaunchKernel (issue 23's small a.sum(): the launch floor is an empty
// kernel with no parameters on 1 x 32 threads; the small full reduction launches 1 x 256 threads with nine
// parameters shaped like src/engine/reduction.cpp's). Host loops of launches, each timed to its last
// launch's completion, the forms interleaved round by round; prints each form's median per launch and its
// margin over the floor. Build and run on the GPU machine:
//   nvcc -O2 -std=c++17 -o /tmp/params23 tools/diag/params23.cu -lcuda && /tmp/params23 [rounds] [launches]
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct ptrs1 {
  const char* p[1];
};
struct rlayout1 {
  int kshape[1], kstride[1][1], rshape[1], rstride[1][1];
};
struct packed {
  ptrs1 P;
  const char* mup;
  char* out;
  int M, R, chunk;
  long long nfull;
  double p0;
  rlayout1 L;
};

extern "C" __global__ void floor0() {}
extern "C" __global__ void nine(ptrs1, const char*, char*, int, int, int, long long, double, rlayout1) {}
extern "C" __global__ void one(packed) {}
extern "C" __global__ void three(const char*, char*, int) {}

static void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(r));
    std::exit(1);
  }
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 15;
  const int n = argc > 2 ? std::atoi(argv[2]) : 20000;
  cudaFree(nullptr);
  CUfunction f0, f9, f1, f3;
  const void* syms[] = {(const void*)floor0, (const void*)nine, (const void*)one, (const void*)three};
  CUfunction* fs[] = {&f0, &f9, &f1, &f3};
  for (int i = 0; i < 4; ++i) {
    if (cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t*>(fs[i]), syms[i]) != cudaSuccess) {
      std::fprintf(stderr, "cudaGetFuncBySymbol failed\n");
      return 1;
    }
  }
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  char* buf;
  cudaMalloc(&buf, 4096);
  ptrs1 P{{buf}};
  const char* mup = nullptr;
  char* out = buf + 1024;
  int M = 1, R = 1024, C = 1024;
  long long nf = 1024;
  double p0 = 0;
  rlayout1 L{{0}, {{0}}, {1024}, {{4}}};
  void* a9[] = {&P, &mup, &out, &M, &R, &C, &nf, &p0, &L};
  packed pk{P, mup, out, M, R, C, nf, p0, L};
  void* a1[] = {&pk};
  void* a3[] = {&mup, &out, &M};
  struct form {
    const char* name;
    CUfunction f;
    unsigned block;
    void** args;
    std::vector<double> t;
  };
  std::vector<form> forms = {{"floor: no parameters, 1 x 32", f0, 32, nullptr, {}},
                             {"no parameters, 1 x 256", f0, 256, nullptr, {}},
                             {"nine parameters (the small reduction's), 1 x 256", f9, 256, a9, {}},
                             {"the same bytes in one struct, 1 x 256", f1, 256, a1, {}},
                             {"three parameters, 1 x 256", f3, 256, a3, {}}};
  for (int r = 0; r < rounds + 1; ++r) {
    for (auto& fm : forms) {
      cudaStreamSynchronize(s);
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i)
        check(cuLaunchKernel(fm.f, 1, 1, 1, fm.block, 1, 1, 0, s, fm.args, nullptr), "launch");
      cudaStreamSynchronize(s);
      auto t1 = std::chrono::steady_clock::now();
      if (r > 0) fm.t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / n);
    }
  }
  double floor_med = 0;
  for (auto& fm : forms) {
    std::sort(fm.t.begin(), fm.t.end());
    const double med = fm.t[fm.t.size() / 2];
    if (fm.f == f0 && fm.block == 32) floor_med = med;
    std::printf("%-52s median %.3f us  (min %.3f, max %.3f)  floor + %.3f us\n", fm.name, med, fm.t.front(),
                fm.t.back(), med - floor_med);
  }
  return 0;
}
