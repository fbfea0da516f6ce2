"""The reduction engine's generated kernels, compiled for the host and run thread by thread, against NumPy (no GPU).

A shim stands in for CUDA's built-ins. Threads run one after another, so only groups of one thread per output
can be emulated (a wider group's shared-memory tree needs its threads to run together): that is the rows mapping
the engine picks for many short rows, and with it CI checks the vector rows loop (Note [vector rows] in
src/engine/reduction.cpp) on the engine's own source text: whole vectors four at a time and one at a time, the
element tail, split ranges with their partials folded by a second pass, several inputs, the reduced index `_j`
that argmax reads, and 32- and 64-bit indexing.
"""
import ctypes

import numpy
import pytest

import cuarray as cp
from _host_kernels import build

BLOCK = 256  # policy::block_threads

SUM = dict(name="sum", preamble="", acc="double", computes=["double"], out_compute="double",
           map="m = ca_cast<acc_t>(x);", combine="r = a + b;", post="y = ca_cast<out_t>(a);",
           identity="ca_cast<acc_t>(0)", acc_bytes=8)
DOT = dict(SUM, name="dot", acc="long long", computes=["long long", "long long"], out_compute="long long",
           map="m = x * x1;", identity="0LL")
ARGMAX = dict(name="argmax", preamble="struct ca_arg { float v; long long i; };", acc="ca_arg", computes=["float"],
              out_compute="long long", map="m.v = x; m.i = _j;",
              combine="bool tb = b.v > a.v || (!(a.v > b.v) && b.i < a.i); r = tb ? b : a;",
              post="y = a.i;", identity="ca_arg{-3.0e38f, 9223372036854775807LL}", acc_bytes=16)
# The engine's own one-pass var (Welford's step per element, Chan's merge for partials; Note [one-pass var]).
# On the host the step divides exactly where the GPU takes the hardware reciprocal.
VAR32 = cp._core._var_spec(numpy.float32, numpy.float32, False)
VAR64 = cp._core._var_spec(numpy.float64, numpy.float64, False)
VARC64 = cp._core._var_spec(numpy.complex64, numpy.float32, False)

# (spec, input storage types, output storage, vec, index64, chunk): chunk None is one pass.
CASES = [
    ("sum-f32", SUM, ["float32"], "float64", True, False, None),
    ("sum-f32-elements", SUM, ["float32"], "float64", False, False, None),
    ("sum-f32-split", SUM, ["float32"], "float64", True, False, 12),
    ("sum-f32-index64", SUM, ["float32"], "float64", True, True, 20),
    ("sum-u8", SUM, ["uint8"], "float64", True, False, None),
    ("sum-f64", SUM, ["float64"], "float64", True, False, 6),
    ("dot-i16", DOT, ["int16", "int16"], "int64", True, False, None),
    ("dot-i16-split", DOT, ["int16", "int16"], "int64", True, False, 16),
    ("argmax-f32", ARGMAX, ["float32"], "int64", True, False, None),
    ("argmax-f32-split", ARGMAX, ["float32"], "int64", True, False, 8),
    ("var-f32", VAR32, ["float32"], "float32", True, False, None),
    ("var-f32-split", VAR32, ["float32"], "float32", True, False, 12),
    ("var-f64-elements", VAR64, ["float64"], "float64", False, False, None),
    ("var-c64", VARC64, ["complex64"], "float32", True, False, None),
]


def _source(k, spec, storages, out, vec, index64, partial_out, partial_in):
    name = f"{spec['name']}{k}{'p' if partial_out else ''}{'f' if partial_in else ''}"
    args = dict(spec, name=name)
    if partial_in:
        storages = storages[:1]
        args["computes"] = spec["computes"][:1]
    src = cp._core.reduction_source(**args, storages=[numpy.dtype(s) for s in storages], out_storage=numpy.dtype(out),
                                    rows=True, group=1, kept_ndim=1, red_ndim=1, index64=index64, vec=vec,
                                    partial_out=partial_out, partial_in=partial_in)
    return name, src.replace('#include "ca_ufuncs.cuh"', "")


def _launcher(tag, kname, index64, nops):
    idx = "long long" if index64 else "int"
    return (f'extern "C" void launch_{tag}(const char** p, const char* mu, char* out, {idx} M, {idx} R, {idx} chunk,\n'
            f"    long long nfull, double p0, const void* layout, unsigned gx, unsigned gy) {{\n"
            f"  {tag}::ca_ptrs P; for (int k = 0; k < {nops}; ++k) P.p[k] = p[k];\n"
            f"  {tag}::ca_rlayout L; __builtin_memcpy(&L, layout, sizeof(L));\n"
            f"  gridDim.x = gx; gridDim.y = gy; blockDim.x = {BLOCK};\n"
            f"  for (unsigned y = 0; y < gy; ++y) for (unsigned b = 0; b < gx; ++b) for (unsigned t = 0; t < {BLOCK}; ++t) {{\n"
            f"    blockIdx.x = b; blockIdx.y = y; threadIdx.x = t;\n"
            f"    {tag}::{kname}(P, mu, out, M, R, chunk, nfull, p0, L);\n  }}\n}}\n")


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    parts = []
    for k, (_, spec, storages, out, vec, index64, chunk) in enumerate(CASES):
        passes = [(False, False)] if chunk is None else [(True, False), (False, True)]
        for partial_out, partial_in in passes:
            name, src = _source(k, spec, storages, out, vec, index64, partial_out, partial_in)
            tag = f"k{name}"
            parts.append(f"namespace {tag} {{\n{src}\n}}")
            parts.append(_launcher(tag, f"cuarray_reduce_{name}", index64, 1 if partial_in else len(storages)))
    return build(parts, tmp_path_factory.mktemp("reduction_host"))


def _inputs(case, storages, rows, width, pitch, seed):
    """Rows of `width` elements at a pitch of `pitch` elements (16-byte aligned rows, a tail past the vectors)."""
    rng = numpy.random.default_rng(seed)
    out = []
    for s in storages:
        if case.startswith("var"):  # a common offset 1000 times the spread: a cancelling formula would show
            base = (1000 + rng.standard_normal((rows, pitch)) + (1j * rng.standard_normal((rows, pitch))
                                                                 if numpy.dtype(s).kind == "c" else 0)).astype(s)
        elif case.startswith("argmax"):
            base = rng.integers(0, 4, (rows, pitch)).astype(s)  # ties: the first index must win
        elif numpy.dtype(s).kind in "iu":
            base = rng.integers(-50 if numpy.dtype(s).kind == "i" else 0, 50, (rows, pitch)).astype(s)
        else:
            base = rng.standard_normal((rows, pitch)).astype(s)
        out.append(base[:, :width])
    return out


def _layout(idx, kept_shape, kept_strides, red_shape, red_strides):
    """ca_rlayout: kshape, kstride per operand, rshape, rstride per operand."""
    words = [kept_shape] + list(kept_strides) + [red_shape] + list(red_strides)
    return numpy.array(words, dtype=idx)


def _run(lib, tag, ptrs, out, M, R, chunk, nfull, layout, gy, index64, keep):
    idx = ctypes.c_longlong if index64 else ctypes.c_int
    p = (ctypes.c_void_p * len(ptrs))(*ptrs)
    keep.append(p)
    fn = getattr(lib, f"launch_{tag}")
    fn(p, None, ctypes.c_void_p(out.ctypes.data), idx(M), idx(R), idx(chunk), ctypes.c_longlong(nfull),
       ctypes.c_double(0.0), ctypes.c_void_p(layout.ctypes.data), ctypes.c_uint((M + BLOCK - 1) // BLOCK),
       ctypes.c_uint(gy))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
@pytest.mark.parametrize("width", [61, 64, 3])
def test_vector_rows_on_host_match_numpy(library, k, width):
    case, spec, storages, out_t, vec, index64, chunk = CASES[k]
    rows = 300  # more than one block of outputs
    xs = _inputs(case, storages, rows, width, 80, k)  # a pitch of 80 elements: 16-byte aligned rows
    idx = numpy.int64 if index64 else numpy.int32
    keep = []
    ptrs = [x.ctypes.data for x in xs]
    layout = _layout(idx, rows, [x.strides[0] for x in xs], width, [x.strides[1] for x in xs])
    name = f"{spec['name']}{k}"
    if chunk is None:
        res = numpy.zeros(rows, dtype=out_t)
        _run(library, f"k{name}", ptrs, res, rows, width, width, width, layout, 1, index64, keep)
    else:
        s_count = (width + chunk - 1) // chunk
        partial = numpy.zeros(s_count * rows * spec["acc_bytes"], dtype=numpy.uint8)
        _run(library, f"k{name}p", ptrs, partial, rows, width, chunk, width, layout, s_count, index64, keep)
        res = numpy.zeros(rows, dtype=out_t)
        ab = spec["acc_bytes"]
        lay2 = _layout(idx, rows, [ab], s_count, [rows * ab])
        _run(library, f"k{name}f", [partial.ctypes.data], res, rows, s_count, s_count, width, lay2, 1, index64,
             keep)
    if case.startswith("argmax"):
        numpy.testing.assert_array_equal(res, numpy.argmax(xs[0], axis=1))
    elif case.startswith("var"):
        want = numpy.var(xs[0].astype(numpy.complex128 if xs[0].dtype.kind == "c" else numpy.float64), axis=1)
        # The inputs round to 1 ulp of 1000 (6e-5 in float32) and so do deviations from a float32 mean: about
        # 1e-4 of the spread. Summing squares (1e6 each) and subtracting n * mean**2 would be off by 0.06.
        if out_t == "float64":
            numpy.testing.assert_allclose(res, want, rtol=1e-9)
        else:
            numpy.testing.assert_allclose(res, want, rtol=1e-5, atol=2e-4)
    elif case.startswith("dot"):
        numpy.testing.assert_array_equal(res, (xs[0].astype(numpy.int64) * xs[1]).sum(axis=1))
    else:
        numpy.testing.assert_allclose(res, xs[0].astype(numpy.float64).sum(axis=1), rtol=1e-12, atol=1e-9)
