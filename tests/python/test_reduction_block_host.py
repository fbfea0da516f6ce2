"""The reduction engine's block-wide combines (src/engine/reduction.cpp) run on the host without a GPU: the columns
mapping, element and 16-byte vector columns (Note [vector columns]) for 1-, 2-, 4- and 8-byte storage, split ranges
with their fold pass, var's struct accumulator (Welford's step, Note [one-pass var]) and argmax's index `_j`; and
the rows mapping's groups of 4, 32 and 256 threads; against NumPy. The threads of a block run as OS threads with a
barrier for __syncthreads (_host_kernels.THREADED_SHIM), so the block's shared-memory combine runs as on the GPU."""
import ctypes

import numpy
import pytest

import cuarray as cp
from _host_kernels import build

BLOCK = 256  # policy::block_threads
COLUMN_OUTPUTS = 32  # policy::column_outputs

SUM = dict(name="sum", preamble="", acc="double", computes=["double"], out_compute="double",
           map="m = ca_cast<acc_t>(x);", combine="r = a + b;", post="y = ca_cast<out_t>(a);",
           identity="ca_cast<acc_t>(0)", acc_bytes=8)
ARGMAX = dict(name="argmax", preamble="struct ca_arg { float v; long long i; };", acc="ca_arg", computes=["float"],
              out_compute="long long", map="m.v = x; m.i = _j;",
              combine="bool tb = b.v > a.v || (!(a.v > b.v) && b.i < a.i); r = tb ? b : a;",
              post="y = a.i;", identity="ca_arg{-3.0e38f, 9223372036854775807LL}", acc_bytes=16)
VAR32 = cp._core._var_spec(numpy.float32, numpy.float32, False)

# (name, spec, input storage, output storage, vector columns, chunk of a split range or None for one pass)
CASES = [
    ("sum-f32-vec", SUM, "float32", "float64", True, None),
    ("sum-f32-vec-split", SUM, "float32", "float64", True, 7),
    ("sum-f32-elements", SUM, "float32", "float64", False, None),
    ("sum-f32-elements-split", SUM, "float32", "float64", False, 9),
    ("sum-i8-vec", SUM, "int8", "float64", True, None),
    ("sum-f16-vec-split", SUM, "float16", "float64", True, 5),
    ("sum-f64-vec", SUM, "float64", "float64", True, None),
    ("argmax-f32-vec", ARGMAX, "float32", "int64", True, None),
    ("argmax-f32-vec-split", ARGMAX, "float32", "int64", True, 6),
    ("var-f32-vec", VAR32, "float32", "float32", True, None),
    ("var-f32-vec-split", VAR32, "float32", "float32", True, 5),
]
ROWS, COLS, PITCH = 37, 96, 112  # COLS divisible by every V (2 to 16); a pitch of 16-byte multiples; a tail row


def _source(name, spec, storage, out, vec, partial_out, partial_in):
    args = dict(spec, name=name)
    src = cp._core.reduction_source(**args, storages=[numpy.dtype(storage)], out_storage=numpy.dtype(out), rows=False,
                                    group=8, kept_ndim=1, red_ndim=1, index64=False, vec=vec and not partial_in,
                                    partial_out=partial_out, partial_in=partial_in)
    return src.replace('#include "ca_ufuncs.cuh"', "")


def _launcher(tag, kname):
    return (f'extern "C" void launch_{tag}(const char** p, const char* mu, char* out, int M, int R, int chunk,\n'
            f"    long long nfull, double p0, const void* layout, unsigned gx, unsigned gy) {{\n"
            f"  {tag}::ca_ptrs P; P.p[0] = p[0];\n"
            f"  {tag}::ca_rlayout L; __builtin_memcpy(&L, layout, sizeof(L));\n"
            f"  gridDim.x = gx; gridDim.y = gy; blockDim.x = {BLOCK};\n"
            f"  for (unsigned y = 0; y < gy; ++y) for (unsigned b = 0; b < gx; ++b)\n"
            f"    ca_run_block(b, y, {BLOCK}, [&] {{ {tag}::{kname}(P, mu, out, M, R, chunk, nfull, p0, L); }});\n}}\n")


# Rows groups (policy::row_group): narrow (4 threads an output), a warp (__syncwarp), the whole block.
ROW_GROUPS = [4, 32, 256]
ROW_SPECS = [("sum", SUM, "float32", "float64"), ("argmax", ARGMAX, "float32", "int64"), ("var", VAR32, "float32",
                                                                                          "float32")]
R_OUT, R_WIDTH, R_PITCH = 20, 301, 304  # outputs, elements a row (a tail past the vectors), row pitch


def _row_source(name, spec, storage, out, group):
    src = cp._core.reduction_source(**dict(spec, name=name), storages=[numpy.dtype(storage)],
                                    out_storage=numpy.dtype(out), rows=True, group=group, kept_ndim=1, red_ndim=1,
                                    index64=False, vec=True, partial_out=False, partial_in=False)
    return src.replace('#include "ca_ufuncs.cuh"', "")


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    parts = []
    for g in ROW_GROUPS:
        for what, spec, storage, out in ROW_SPECS:
            name = f"{what}r{g}"
            parts.append(f"namespace k{name} {{\n{_row_source(name, spec, storage, out, g)}\n}}")
            parts.append(_launcher(f"k{name}", f"cuarray_reduce_{name}"))
    for k, (_, spec, storage, out, vec, chunk) in enumerate(CASES):
        passes = [(False, False)] if chunk is None else [(True, False), (False, True)]
        for partial_out, partial_in in passes:
            name = f"{spec['name']}{k}{'p' if partial_out else ''}{'f' if partial_in else ''}"
            parts.append(f"namespace k{name} {{\n{_source(name, spec, storage, out, vec, partial_out, partial_in)}\n}}")
            parts.append(_launcher(f"k{name}", f"cuarray_reduce_{name}"))
    return build(parts, tmp_path_factory.mktemp("reduction_block_host"), threads=True)


def _input(case, storage, seed):
    rng = numpy.random.default_rng(seed)
    if case.startswith("argmax"):
        base = rng.integers(0, 3, (ROWS, PITCH)).astype(storage)  # ties: the first index must win
    elif case.startswith("var"):
        base = (1000 + rng.standard_normal((ROWS, PITCH))).astype(storage)  # an offset 1000 times the spread
    elif numpy.dtype(storage).kind in "iu":
        base = rng.integers(-50, 50, (ROWS, PITCH)).astype(storage)
    else:
        base = rng.standard_normal((ROWS, PITCH)).astype(storage)
    return base[:, :COLS]  # columns of a (ROWS, PITCH) array: 16-byte aligned rows


def _run(lib, tag, ptr, out, M, R, chunk, nfull, layout, gx, gy, keep):
    p = (ctypes.c_void_p * 1)(ptr)
    keep.append(p)
    getattr(lib, f"launch_{tag}")(p, None, ctypes.c_void_p(out.ctypes.data), ctypes.c_int(M), ctypes.c_int(R),
                                  ctypes.c_int(chunk), ctypes.c_longlong(nfull), ctypes.c_double(0.0),
                                  ctypes.c_void_p(layout.ctypes.data), ctypes.c_uint(gx), ctypes.c_uint(gy))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_columns_on_host_match_numpy(library, k):
    case, spec, storage, out_t, vec, chunk = CASES[k]
    x = _input(case, storage, k)
    assert x.ctypes.data % 16 == 0 and x.strides[0] % 16 == 0
    per_block = COLUMN_OUTPUTS * (16 // x.itemsize if vec else 1)
    gx = (COLS + per_block - 1) // per_block
    # ca_rlayout (32-bit): kshape, kstride, rshape, rstride; one kept axis (the columns), one reduced (the rows).
    layout = numpy.array([COLS, x.strides[1], ROWS, x.strides[0]], dtype=numpy.int32)
    name = f"{spec['name']}{k}"
    keep = []
    res = numpy.zeros(COLS, dtype=out_t)
    if chunk is None:
        _run(library, f"k{name}", x.ctypes.data, res, COLS, ROWS, ROWS, ROWS, layout, gx, 1, keep)
    else:
        splits = (ROWS + chunk - 1) // chunk
        ab = spec["acc_bytes"]
        partial = numpy.zeros(splits * COLS * ab, dtype=numpy.uint8)
        _run(library, f"k{name}p", x.ctypes.data, partial, COLS, ROWS, chunk, ROWS, layout, gx, splits, keep)
        # The fold pass: columns of the [S, M] partials (element columns: a partial is not a storage type).
        lay2 = numpy.array([COLS, ab, splits, COLS * ab], dtype=numpy.int32)
        _run(library, f"k{name}f", partial.ctypes.data, res, COLS, splits, splits, ROWS, lay2,
             (COLS + COLUMN_OUTPUTS - 1) // COLUMN_OUTPUTS, 1, keep)
    if case.startswith("argmax"):
        numpy.testing.assert_array_equal(res, numpy.argmax(x, axis=0))
    elif case.startswith("var"):
        numpy.testing.assert_allclose(res, x.astype(numpy.float64).var(axis=0), rtol=1e-5, atol=2e-4)
    else:
        numpy.testing.assert_allclose(res, x.astype(numpy.float64).sum(axis=0), rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("group", ROW_GROUPS)
@pytest.mark.parametrize("what", [s[0] for s in ROW_SPECS])
def test_row_groups_on_host_match_numpy(library, what, group):
    _, spec, storage, out_t = next(s for s in ROW_SPECS if s[0] == what)
    rng = numpy.random.default_rng(group)
    if what == "argmax":
        base = rng.integers(0, 3, (R_OUT, R_PITCH)).astype(storage)
    else:
        base = (1000 * (what == "var") + rng.standard_normal((R_OUT, R_PITCH))).astype(storage)
    x = base[:, :R_WIDTH]
    layout = numpy.array([R_OUT, x.strides[0], R_WIDTH, x.strides[1]], dtype=numpy.int32)
    res = numpy.zeros(R_OUT, dtype=out_t)
    keep = []
    per_block = BLOCK // group
    _run(library, f"k{what}r{group}", x.ctypes.data, res, R_OUT, R_WIDTH, R_WIDTH, R_WIDTH, layout,
         (R_OUT + per_block - 1) // per_block, 1, keep)
    if what == "argmax":
        numpy.testing.assert_array_equal(res, numpy.argmax(x, axis=1))
    elif what == "var":
        numpy.testing.assert_allclose(res, x.astype(numpy.float64).var(axis=1), rtol=1e-5, atol=2e-4)
    else:
        numpy.testing.assert_allclose(res, x.astype(numpy.float64).sum(axis=1), rtol=1e-12, atol=1e-9)
