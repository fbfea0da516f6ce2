"""The engine's generated kernels, compiled for the host and run thread by thread, against NumPy (no GPU).

A small shim stands in for CUDA's built-ins (blockIdx, threadIdx, uint4...), so CI checks what the GPU run
would: the generator's flat, vectorised, strided and run loops, negative and zero (broadcast) strides, `where`
masks, scalar operands, several outputs and 64-bit indexing, on the engine's own source text.
"""
import ctypes
import itertools

import numpy
import pytest

import cuarray as cp
from cuarray.testing import _ufunc_cases as cases
from _host_kernels import build

CTYPE = {"?": "bool", "b": "signed char", "h": "short", "i": "int", "l": "long long", "B": "unsigned char",
         "H": "unsigned short", "I": "unsigned int", "L": "unsigned long long", "e": "ca_half", "f": "float",
         "d": "double", "F": "ca_complex64", "D": "ca_complex128"}
BODIES = {(n, t): b for n, t, b in cases.table_loops()} if cases.TABLE.exists() else {}


def _case_arrays(name, types, layout, seed):
    """Inputs (arrays or Python scalars), outputs (NumPy views to be written) and a mask, for one layout."""
    ins, outs = types.split("->")
    rng = numpy.random.default_rng(seed)
    if layout in ("flat", "vector"):
        shape = (103,)
        inputs = [cases.values(c, 103, k + 1, name) for k, c in enumerate(ins)]
        outputs = [numpy.zeros(shape, dtype=c) for c in outs]
        return inputs, outputs, None
    # The run loop (Note [strided runs]) launched with 8 threads a block takes runs of 64 elements: rows of 150
    # give two whole runs and a partial one.
    rows, cols = (3, 150) if layout.startswith("runs") else (5, 7)
    shape = (rows, cols)
    inputs = []
    for k, c in enumerate(ins):
        base = cases.values(c, (rows + 1) * 2 * cols, k + 1, name).reshape(rows + 1, 2 * cols)
        if layout == "scalar" and k == len(ins) - 1:
            inputs.append(base[0, 0].item())
        elif k == 0:
            inputs.append(base[:rows, ::-2])  # negative stride
        else:
            inputs.append(numpy.broadcast_to(base[2, 1:cols + 1], shape))  # zero stride
    outputs = [numpy.zeros((cols, rows), dtype=c).T for c in outs]  # F-ordered output
    mask = rng.integers(0, 2, (rows, 1)).astype(bool) if layout in ("where", "runs_where") else None
    if mask is not None:
        mask = numpy.broadcast_to(mask, shape)
    return inputs, outputs, mask


LAYOUTS = ["flat", "vector", "strided", "index64", "scalar", "where", "runs", "runs_where"]
LOOPS = [("add", "ff->f"), ("add", "bb->b"), ("multiply", "DD->D"), ("add", "ee->e"), ("divmod", "ll->ll"),
         ("isnan", "d->?"), ("less", "lL->?"), ("frexp", "f->fi"), ("sin", "F->F"), ("maximum", "dd->d"),
         ("left_shift", "hh->h"), ("logical_xor", "BB->?")]
CASES = [(n, t, lay) for (n, t), lay in itertools.product(LOOPS, LAYOUTS)
         if not (lay == "scalar" and len(t.split("->")[0]) < 2)]


def _kernel(k, name, types, layout):
    """(source, parameter kinds) of the engine's kernel for this case, renamed to be unique."""
    ins, outs = types.split("->")
    in_kinds = ["scalar" if layout == "scalar" and j == len(ins) - 1 else "array" for j in range(len(ins))]
    ndim = 0 if layout in ("flat", "vector") else 2
    src = cp._core.elementwise_source(
        f"case{k}", BODIES[(name, types)], "", "", "", False, [numpy.dtype(c) for c in ins], in_kinds,
        [numpy.dtype(c) for c in outs], [False] * len(outs), ndim, layout == "index64", layout == "vector",
        layout in ("where", "runs_where"), layout.startswith("runs"))
    return src.replace('#include "ca_ufuncs.cuh"', ""), in_kinds, ndim


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    if not BODIES:
        pytest.skip("no ufunc table")
    parts = []
    for k, (name, types, layout) in enumerate(CASES):
        src, in_kinds, ndim = _kernel(k, name, types, layout)
        ins, outs = types.split("->")
        idx = "long long" if layout == "index64" else "int"
        params = [f"*(char**)a[{j}]" for j in range(len(outs))]
        for j, c in enumerate(ins):
            params.append(f"*({CTYPE[c]}*)a[{len(params)}]" if in_kinds[j] == "scalar"
                          else f"*(const char**)a[{len(params)}]")
        if layout in ("where", "runs_where"):
            params.append(f"*(const char**)a[{len(params)}]")
        params.append(f"*({idx}*)a[{len(params)}]")
        if ndim:
            params.append(f"*(k{k}::ca_layout*)a[{len(params)}]")
        parts.append(f"namespace k{k} {{\n{src}\n}}")
        parts.append(f'extern "C" void launch{k}(void** a, unsigned grid, unsigned block) {{\n'
                     f"  gridDim.x = grid; blockDim.x = block;\n"
                     f"  for (unsigned b = 0; b < grid; ++b) for (unsigned t = 0; t < block; ++t) {{\n"
                     f"    blockIdx.x = b; threadIdx.x = t;\n"
                     f"    k{k}::cuarray_case{k}_ew({', '.join(params)});\n  }}\n}}")
    return build(parts, tmp_path_factory.mktemp("kernel_host"))


def _scalar_ctype(char, value):
    dt = numpy.dtype(char)
    buf = (ctypes.c_ubyte * dt.itemsize).from_buffer_copy(numpy.array(value, dtype=dt).tobytes())
    return buf


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{n}-{t}-{lay}" for n, t, lay in CASES])
def test_generated_kernel_matches_numpy_on_host(library, k):
    name, types, layout = CASES[k]
    ins, outs = types.split("->")
    inputs, outputs, mask = _case_arrays(name, types, layout, k)
    keep = []  # ctypes objects that must outlive the call

    def ptr(a):
        p = ctypes.c_void_p(a.__array_interface__["data"][0])
        keep.append(p)
        return ctypes.addressof(p)

    args = [ptr(o) for o in outputs]
    for j, x in enumerate(inputs):
        if isinstance(x, numpy.ndarray):
            args.append(ptr(x))
        else:
            buf = _scalar_ctype(ins[j], x)
            keep.append(buf)
            args.append(ctypes.addressof(buf))
    if mask is not None:
        args.append(ptr(mask))
    n = int(numpy.prod(outputs[0].shape))
    nval = (ctypes.c_longlong if layout == "index64" else ctypes.c_int)(n)
    keep.append(nval)
    args.append(ctypes.addressof(nval))
    if layout not in ("flat", "vector"):
        # The engine's layout parameter without dimension merging: the shape, then each array's byte
        # strides in kernel order (outputs, array inputs, the mask).
        arrays = list(outputs) + [x for x in inputs if isinstance(x, numpy.ndarray)] + ([mask] if mask is not None else [])
        words = list(outputs[0].shape) + [s for a in arrays for s in a.strides]
        lay = numpy.array(words, dtype=numpy.int64 if layout == "index64" else numpy.int32)
        keep.append(lay)
        args.append(lay.ctypes.data)
    argv = (ctypes.c_void_p * len(args))(*args)
    getattr(library, f"launch{k}")(argv, ctypes.c_uint(3), ctypes.c_uint(8))

    np_inputs = [x if isinstance(x, numpy.ndarray) else numpy.array(x, dtype=ins[j]) for j, x in enumerate(inputs)]
    want = cases.expected(name, np_inputs)
    for o, w in zip(outputs, want):
        w = numpy.asarray(w)
        if mask is not None:
            w = numpy.where(mask, w, numpy.zeros((), dtype=o.dtype))
        cases.compare(name, numpy.ascontiguousarray(o), numpy.ascontiguousarray(w).astype(o.dtype))
