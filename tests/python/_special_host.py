"""Runs cuarray.scipy.special's ufunc loops without a GPU: each loop body and its preamble compiled for the host.

One shared library per distinct preamble holds one C function per (ufunc, loop): a plain loop over contiguous
NumPy arrays that declares in0.., runs the loop's body text and stores out0... A small shim stands in for
CUDA's built-ins and for the CUDA math functions the host C library lacks (erfcx, normcdfinv, sinpi,
cyl_bessel_i0...), so the arithmetic of the device functions (series, continued fractions, iterations, special
cases) is checked against SciPy in CI; the GPU run then checks the device's own math library.
"""
import ctypes
import hashlib
import pathlib

import numpy

from _host_build import compiler, load_library  # noqa: F401 (compiler: the tests' skip markers)

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADERS = ROOT / "src" / "engine" / "device"
CTYPE = {"?": "bool", "b": "signed char", "h": "short", "i": "int", "l": "long long", "q": "long long",
         "B": "unsigned char", "H": "unsigned short", "I": "unsigned int", "L": "unsigned long long",
         "f": "float", "d": "double", "F": "ca_complex<float>", "D": "ca_complex<double>"}

SHIM = r"""
#include <cmath>
#include <cstring>
#include <math.h>
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
struct ca_dim3 { unsigned x, y, z; };
static ca_dim3 blockIdx, threadIdx, gridDim, blockDim;
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
#include "ca_ufuncs.cuh"
using std::isnan; using std::isinf; using std::isfinite; using std::signbit;
inline double __longlong_as_double(long long v) { double d; memcpy(&d, &v, 8); return d; }
inline double __dadd_rn(double a, double b) { volatile double r = a + b; return r; }
inline double __dsub_rn(double a, double b) { volatile double r = a - b; return r; }
inline double __dmul_rn(double a, double b) { volatile double r = a * b; return r; }
inline double sinpi(double x) {
  double r = std::remainder(x, 2.0);  // in [-1, 1], exact
  if (r == 0 || r == 1 || r == -1) return std::copysign(0.0, x) * (r == 0 ? 1.0 : -1.0);
  if (r > 0.5) r = 1.0 - r;
  else if (r < -0.5) r = -1.0 - r;
  return std::sin(M_PI * r);
}
inline double cyl_bessel_i0(double x) { return std::cyl_bessel_i(0.0, std::fabs(x)); }
inline double cyl_bessel_i1(double x) { double r = std::cyl_bessel_i(1.0, std::fabs(x)); return x < 0 ? -r : r; }
// erfcx: exp(x^2) erfc(x) directly while it is representable, the continued fraction (Laplace) beyond
inline double erfcx(double x) {
  if (x < 25.0) return std::exp(x * x) * std::erfc(x);
  double t = 0.0;
  for (int k = 60; k >= 1; --k) t = (k * 0.5) / (x + t);
  return 1.0 / (std::sqrt(M_PI) * (x + t));
}
inline float erfcxf(float x) { return (float)erfcx(x); }
// erfinv by Newton's method on erf (host stand-in only)
inline double erfinv(double y) {
  if (y <= -1) return y == -1 ? -INFINITY : NAN;
  if (y >= 1) return y == 1 ? INFINITY : NAN;
  double x = 0.0;
  for (int i = 0; i < 100; ++i) {
    double dx = (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
    x -= dx;
    if (std::fabs(dx) < 1e-17 * (1 + std::fabs(x))) break;
  }
  return x;
}
inline double erfcinv(double y) { return erfinv(1.0 - y); }
inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2.0 * p); }
inline float erfinvf(float y) { return (float)erfinv(y); }
inline float erfcinvf(float y) { return (float)erfcinv(y); }
inline float normcdfinvf(float p) { return (float)normcdfinv(p); }
"""

_libs = {}


def _fn_name(u, k):
    return f"ca_host_{u.__name__}_{k}"


def _wrapper(u, k):
    ins, outs, body = u._loops[k]
    params = [f"const char* p{j}" for j in range(len(ins))] + [f"char* q{j}" for j in range(len(outs))]
    loads = " ".join(f"{CTYPE[t.char]} in{j}; memcpy(&in{j}, p{j} + i * {t.itemsize}, {t.itemsize});"
                     for j, t in enumerate(ins))
    decls = " ".join(f"{CTYPE[t.char]} out{j};" for j, t in enumerate(outs))
    stores = " ".join(f"memcpy(q{j} + i * {t.itemsize}, &out{j}, {t.itemsize});" for j, t in enumerate(outs))
    return (f'extern "C" void {_fn_name(u, k)}(long long n, {", ".join(params)}) {{\n'
            f"  for (long long i = 0; i < n; ++i) {{ {loads} {decls}\n {body}\n {stores} }}\n}}\n")


def library(ufuncs):
    """Compiles every loop of `ufuncs` (all sharing one preamble); returns the ctypes library."""
    pre = ufuncs[0]._preamble
    src = SHIM + pre + "\n" + "".join(_wrapper(u, k) for u in ufuncs for k in range(len(u._loops)))
    key = hashlib.sha1(src.encode()).hexdigest()
    lib = _libs.get(key)
    if lib is None:
        lib = _libs[key] = load_library(src, ("-ffp-contract=off", f"-I{HEADERS}"))
    return lib


def call(lib, u, *args, dtype=None):
    """u(*args) on the host: the loop the GPU would take for these NumPy arrays (broadcast, cast to the loop's
    input types); returns one array or a tuple as the ufunc does."""
    keys = tuple(numpy.asarray(a).dtype if isinstance(a, numpy.ndarray) or isinstance(a, numpy.generic)
                 else type(a) for a in args)
    k = u._resolve(keys, None if dtype is None else numpy.dtype(dtype), "same_kind")
    ins, outs, _ = u._loops[k]
    arrs = numpy.broadcast_arrays(*[numpy.asarray(a) for a in args])
    shape = arrs[0].shape if arrs else ()
    cins = [numpy.ascontiguousarray(a, dtype=t) for a, t in zip(arrs, ins)]
    couts = [numpy.empty(shape, dtype=t) for t in outs]
    fn = getattr(lib, _fn_name(u, k))
    n = int(numpy.prod(shape))
    fn(ctypes.c_longlong(n), *[ctypes.c_void_p(a.ctypes.data) for a in cins + couts])
    return couts[0] if len(couts) == 1 else tuple(couts)
