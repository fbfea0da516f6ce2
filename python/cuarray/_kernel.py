"""User CUDA code: RawModule and RawKernel over the C++ raw_module / raw_kernel (NVRTC, memory and disk cache)."""
from cuarray import _core


import re

# cuComplex.h's API on float2/double2 (NVRTC knows the vector types but cannot find the toolkit's header):
# what translate_cucomplex=True puts in place of `#include <cuComplex.h>`. Division scales by |re| + |im| of
# the divisor first, as the toolkit's does, so that it neither overflows nor underflows early.
_CUCOMPLEX = r"""
typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
#define CA_CUC static __host__ __device__ __forceinline__
CA_CUC float cuCrealf(cuFloatComplex x) { return x.x; }
CA_CUC float cuCimagf(cuFloatComplex x) { return x.y; }
CA_CUC cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex z; z.x = r; z.y = i; return z; }
CA_CUC cuFloatComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
CA_CUC cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
CA_CUC cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x + b.x, a.y + b.y); }
CA_CUC cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x - b.x, a.y - b.y); }
CA_CUC cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
CA_CUC cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
  float s = fabsf(b.x) + fabsf(b.y), ars = a.x / s, ais = a.y / s, brs = b.x / s, bis = b.y / s;
  float d = brs * brs + bis * bis;
  return make_cuFloatComplex((ars * brs + ais * bis) / d, (ais * brs - ars * bis) / d);
}
CA_CUC float cuCabsf(cuFloatComplex x) { return hypotf(x.x, x.y); }
CA_CUC cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
  return cuCaddf(cuCmulf(x, y), d);
}
CA_CUC double cuCreal(cuDoubleComplex x) { return x.x; }
CA_CUC double cuCimag(cuDoubleComplex x) { return x.y; }
CA_CUC cuDoubleComplex make_cuDoubleComplex(double r, double i) { cuDoubleComplex z; z.x = r; z.y = i; return z; }
CA_CUC cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
CA_CUC cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x + b.x, a.y + b.y); }
CA_CUC cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x - b.x, a.y - b.y); }
CA_CUC cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
CA_CUC cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
  double s = fabs(b.x) + fabs(b.y), ars = a.x / s, ais = a.y / s, brs = b.x / s, bis = b.y / s;
  double d = brs * brs + bis * bis;
  return make_cuDoubleComplex((ars * brs + ais * bis) / d, (ais * brs - ars * bis) / d);
}
CA_CUC double cuCabs(cuDoubleComplex x) { return hypot(x.x, x.y); }
CA_CUC cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  return cuCadd(cuCmul(x, y), d);
}
CA_CUC cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }
CA_CUC cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) { return make_cuFloatComplex((float)c.x, (float)c.y); }
#undef CA_CUC
"""
_CUCOMPLEX_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]cuComplex\.h[>"][^\n]*$', re.M)


def _translate_cucomplex(code):
    """The source with `#include <cuComplex.h>` replaced by cuarray's definitions of the same API (once)."""
    out, n = _CUCOMPLEX_INCLUDE.subn("", code)
    return (_CUCOMPLEX + "#line 1\n" + out) if n else code


def _check_backend(backend, jitify):
    if backend != "nvrtc":
        raise ValueError(f"backend must be 'nvrtc' (cuarray compiles with NVRTC only), got {backend!r}")
    if jitify:
        raise ValueError("jitify=True is not supported: NVRTC compiles the source as given")


class RawKernel(_core._RawKernel):
    """A CUDA kernel from source: ``kernel(grid, block, args, *, shared_mem=0, stream=None)``.

    The call is the C++ type slot of the base class (Note [RawKernel call] in python/src/raw.cpp): no Python
    code runs per launch. Attributes (``num_regs``, ``max_dynamic_shared_size_bytes``...) are C++ properties.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False):
        _check_backend(backend, jitify)
        options = tuple(options)
        compiled = _translate_cucomplex(code) if translate_cucomplex else code
        super().__init__(compiled, name, list(options), bool(enable_cooperative_groups))
        self.code = code
        self.name = name
        self.options = options
        self.backend = backend
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self.file_path = None

    @classmethod
    def _from_module(cls, module, name):
        k = cls.__new__(cls)
        _core._RawKernel.__init__(k, module._m, name)
        k.code = module.code
        k.name = name
        k.options = module.options
        k.backend = module.backend
        k.enable_cooperative_groups = module.enable_cooperative_groups
        k.file_path = module.file_path
        return k

    def compile(self, log_stream=None):
        """Compile and load on the current device now (errors raise here instead of at the first launch)."""
        super().compile()


class RawModule:
    """A CUDA module from source (compiled by NVRTC) or from a .cubin/.ptx/.fatbin file."""

    def __init__(self, code=None, path=None, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        _check_backend(backend, jitify)
        if (code is None) == (path is None):
            raise TypeError("RawModule needs exactly one of code and path")
        self.code = code
        self.path = self.file_path = None if path is None else str(path)
        self.options = tuple(options)
        self.backend = backend
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self.name_expressions = tuple(name_expressions) if name_expressions else ()
        compiled = _translate_cucomplex(code) if translate_cucomplex and code is not None else code
        self._m = _core._RawModule(compiled, self.path, list(self.options), list(self.name_expressions),
                                   self.enable_cooperative_groups)

    def get_function(self, name):
        return RawKernel._from_module(self, name)

    def get_global(self, name):
        return self._m.get_global(name)

    def compile(self, log_stream=None):
        self._m.compile()
