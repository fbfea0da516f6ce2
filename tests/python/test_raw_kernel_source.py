"""RawKernel source handling that needs no GPU: translate_cucomplex's header compiles under NVRTC."""
import pytest

import cuarray as cp
from cuarray import _kernel

CODE = r'''
#include <cuComplex.h>
extern "C" __global__ void k(cuFloatComplex* a, cuDoubleComplex* b) {
  a[0] = cuCdivf(cuCmulf(a[1], cuConjf(a[2])), make_cuComplex(cuCabsf(a[3]), cuCimagf(a[4])));
  b[0] = cuCfma(b[1], b[2], cuComplexFloatToDouble(a[0]));
  b[1] = cuCsub(cuCadd(b[0], cuConj(b[1])), make_cuDoubleComplex(cuCabs(b[2]), cuCreal(b[3])));
  a[5] = cuComplexDoubleToFloat(cuCdiv(b[1], b[4]));
}
'''


@pytest.mark.parametrize("include", ["#include <cuComplex.h>", '#include "cuComplex.h"', "  #  include <cuComplex.h>"])
def test_translate_cucomplex_source_compiles(include):
    code = _kernel._translate_cucomplex(CODE.replace("#include <cuComplex.h>", include))
    assert "cuComplex.h" not in code.split("#line 1")[-1]
    assert cp._core.nvrtc_compile(code, "k.cu", 90, []) > 0


def test_translate_cucomplex_keeps_the_users_line_numbers_in_errors():
    bad = "#include <cuComplex.h>\nextern \"C\" __global__ void k(float* x) { x[0] = undefined_name; }\n"
    with pytest.raises(cp.cuda.compiler.CompileException, match=r"k\.cu\(2\)"):
        cp._core.nvrtc_compile(_kernel._translate_cucomplex(bad), "k.cu", 90, [])


def test_source_without_cucomplex_is_unchanged():
    assert _kernel._translate_cucomplex("int x;") == "int x;"
