"""RawKernel and RawModule: compile with NVRTC, launch with arrays and scalars, attributes, errors."""
import numpy
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

SAXPY = r'''
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
'''


def test_raw_kernel_runs_with_arrays_and_scalars():
    k = cp.RawKernel(SAXPY, "saxpy")
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    k((4,), (256,), (numpy.float32(2.0), x, y, 1000))
    numpy.testing.assert_array_equal(y.get(), 2 * numpy.arange(1000, dtype=numpy.float32) + 1)


def test_raw_kernel_attributes():
    k = cp.RawKernel(SAXPY, "saxpy")
    assert k.max_threads_per_block >= 256
    assert k.num_regs > 0
    assert k.binary_version >= 80
    k.max_dynamic_shared_size_bytes = 1024
    assert k.max_dynamic_shared_size_bytes == 1024


def test_raw_module_templates_and_globals():
    code = r'''
    __device__ int counter = 7;
    template <class T> __global__ void fill(T* out, T v, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = v + counter;
    }
    '''
    mod = cp.RawModule(code=code, options=("-std=c++17",), name_expressions=["fill<float>", "fill<int>"])
    out = cp.zeros(10, dtype=cp.float32)
    mod.get_function("fill<float>")((1,), (32,), (out, numpy.float32(1.5), numpy.int32(10)))
    numpy.testing.assert_array_equal(out.get(), numpy.full(10, 8.5, numpy.float32))
    g = mod.get_global("counter")
    assert g.ptr != 0
    outi = cp.zeros(4, dtype=cp.int32)
    mod.get_function("fill<int>")((1,), (32,), (outi, numpy.int32(1), numpy.int32(4)))
    numpy.testing.assert_array_equal(outi.get(), numpy.full(4, 8, numpy.int32))


def test_compile_error_raises_compile_exception_with_log():
    bad = 'extern "C" __global__ void broken(float* x) { x[0] = undefined_name; }'
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        cp.RawKernel(bad, "broken").compile()
    assert "undefined_name" in str(info.value)
    assert info.value.log


def test_raw_module_from_ptx_file(tmp_path):
    code = 'extern "C" __global__ void one(int* x) { x[threadIdx.x] = 1; }'
    ptx = cp._core.compile_to_ptx(code, "one.cu")
    path = tmp_path / "one.ptx"
    path.write_text(ptx)
    mod = cp.RawModule(path=str(path))
    x = cp.zeros(8, dtype=cp.int32)
    mod.get_function("one")((1,), (8,), (x,))
    numpy.testing.assert_array_equal(x.get(), numpy.ones(8, numpy.int32))


def test_unsupported_backend_options_raise_value_error():
    with pytest.raises(ValueError):
        cp.RawKernel(SAXPY, "saxpy", backend="nvcc")


CUCOMPLEX_KERNEL = r'''
#include <cuComplex.h>
extern "C" __global__ void cplx(const cuFloatComplex* a, const cuFloatComplex* b, cuFloatComplex* f,
                                const cuDoubleComplex* c, const cuDoubleComplex* d, cuDoubleComplex* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f[i] = cuCaddf(cuCdivf(cuCmulf(a[i], cuConjf(b[i])), b[i]), make_cuComplex(cuCabsf(a[i]), 0.f));
    g[i] = cuCfma(c[i], d[i], cuComplexFloatToDouble(f[i]));
  }
}
'''


def test_translate_cucomplex_runs_cucomplex_code():
    rng = numpy.random.default_rng(0)
    a, b = (rng.standard_normal(64) + 1j * rng.standard_normal(64)).astype(numpy.complex64), \
        (rng.standard_normal(64) + 1j * rng.standard_normal(64)).astype(numpy.complex64)
    c, d = rng.standard_normal(64) + 1j * rng.standard_normal(64), rng.standard_normal(64) + 1j * rng.standard_normal(64)
    k = cp.RawKernel(CUCOMPLEX_KERNEL, "cplx", translate_cucomplex=True)
    f, g = cp.empty(64, cp.complex64), cp.empty(64, cp.complex128)
    k((1,), (64,), (cp.asarray(a), cp.asarray(b), f, cp.asarray(c), cp.asarray(d), g, numpy.int32(64)))
    want_f = a * numpy.conj(b) / b + numpy.abs(a)
    numpy.testing.assert_allclose(f.get(), want_f, rtol=1e-5)
    numpy.testing.assert_allclose(g.get(), c * d + want_f.astype(numpy.complex128), rtol=1e-5)



# Issue 14: CuPy's launch arguments. `args` is a tuple (a list is a TypeError, not taken silently); grid and
# block are an int or a tuple of ints (TypeError otherwise) with extents of at least 1 (ValueError, before
# the driver would refuse the launch). Nothing is launched, so y keeps its values.
@pytest.mark.parametrize("grid,block,args_kind,error", [
    ((4,), (256,), "list", TypeError),
    ((4,), (256,), "int", TypeError),
    (1.5, (256,), "tuple", TypeError),
    ([4], (256,), "tuple", TypeError),
    ((4,), [256], "tuple", TypeError),
    ((4,), "a", "tuple", TypeError),
    (None, (256,), "tuple", TypeError),
    ((4, 1.0), (256,), "tuple", TypeError),
    ((0,), (256,), "tuple", ValueError),
    (0, (256,), "tuple", ValueError),
    ((4,), -1, "tuple", ValueError),
    ((4, 0), (256,), "tuple", ValueError),
    ((4,), (256, 1, -2), "tuple", ValueError),
    ((4,), (2 ** 40,), "tuple", ValueError),
    ((), (256,), "tuple", ValueError),
    ((1, 1, 1, 1), (256,), "tuple", ValueError),
])
def test_raw_kernel_launch_argument_errors(grid, block, args_kind, error):
    k = cp.RawKernel(SAXPY, "saxpy")
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    values = (numpy.float32(2.0), x, y, 1000)
    args = {"tuple": values, "list": list(values), "int": 5}[args_kind]
    with pytest.raises(error):
        k(grid, block, args)
    numpy.testing.assert_array_equal(y.get(), numpy.ones(1000, dtype=numpy.float32))


# CuPy converts shared_mem (a size_t) when the call's signature is parsed, before grid, block and args are looked
# at: shared_mem=None is a TypeError, and it comes first when grid or the args are bad too (the fuzz model in
# _fuzz._op_raw follows this order). Nothing here touches the device.
@pytest.mark.parametrize("grid,args_kind", [((4,), "tuple"), ((1, 1, 1, 1), "tuple"), (1.5, "tuple"),
                                            ((4,), "list"), ((0,), "list")])
def test_raw_kernel_shared_mem_none_is_a_type_error_checked_first(grid, args_kind):
    k = cp.RawKernel(SAXPY, "saxpy")
    values = (numpy.float32(2.0), 0, 0, 1000)
    args = values if args_kind == "tuple" else list(values)
    with pytest.raises(TypeError, match="shared_mem must be an int"):
        k(grid, (256,), args, shared_mem=None)
    with pytest.raises(TypeError, match="shared_mem must be an int"):
        k(grid, (256,), args, shared_mem=1.0)


def test_raw_kernel_int_grid_and_block_still_launch():
    k = cp.RawKernel(SAXPY, "saxpy")
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    k(4, 256, (numpy.float32(2.0), x, y, 1000))
    numpy.testing.assert_allclose(y.get(), 2 * numpy.arange(1000, dtype=numpy.float32) + 1)


# Issue 15: CuPy's RawKernel.__call__(grid, block, args, *, shared_mem=0, stream=None) takes its first three
# arguments by position or by keyword, for RawKernel and for RawModule's functions alike.
@pytest.mark.parametrize("form", ["keywords", "mixed", "module"])
def test_raw_kernel_call_by_keyword(form):
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    args = (numpy.float32(2.0), x, y, 1000)
    if form == "module":
        k = cp.RawModule(code=SAXPY).get_function("saxpy")
        k(grid=(4,), block=(256,), args=args, shared_mem=0, stream=None)
    elif form == "keywords":
        cp.RawKernel(SAXPY, "saxpy")(args=args, block=(256,), grid=(4,))
    else:
        cp.RawKernel(SAXPY, "saxpy")((4,), block=256, args=args, shared_mem=16)
    numpy.testing.assert_allclose(y.get(), 2 * numpy.arange(1000, dtype=numpy.float32) + 1)


@pytest.mark.parametrize("call,match", [
    (lambda k, a: k((4,), (256,)), "missing required argument 'args'"),
    (lambda k, a: k(block=(256,), args=a), "missing required argument 'grid'"),
    (lambda k, a: k((4,), (256,), a, grid=(4,)), "multiple values for argument 'grid'"),
    (lambda k, a: k((4,), (256,), a, (0,)), "takes 3 positional arguments"),
    (lambda k, a: k((4,), (256,), a, sharedmem=0), "unexpected keyword argument 'sharedmem'"),
])
def test_raw_kernel_call_form_errors(call, match):
    k = cp.RawKernel(SAXPY, "saxpy")
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    with pytest.raises(TypeError, match=match):
        call(k, (numpy.float32(2.0), x, y, 1000))
    numpy.testing.assert_array_equal(y.get(), numpy.ones(1000, dtype=numpy.float32))


def test_raw_kernel_has_no_numba_style_launch():
    # CuPy's RawKernel offers no kernel[grid, block](...) form; neither does cuarray's.
    k = cp.RawKernel(SAXPY, "saxpy")
    with pytest.raises(TypeError):
        k[4, 256]
