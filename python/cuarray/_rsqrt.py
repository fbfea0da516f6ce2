"""rsqrt: the reciprocal of the square root, elementwise (CuPy's cupyx.rsqrt)."""
import numpy

from cuarray import _core

_LOOPS = ("float16", "float32", "float64", "complex64", "complex128")
_kernels = {}


def _kernel(dtype):
    k = _kernels.get(dtype)
    if k is None:
        from cuarray._elementwise import ElementwiseKernel
        op = {"float16": "y = ca_half(rsqrtf((float)x))", "float32": "y = rsqrtf(x)",
              "float64": "y = rsqrt(x)"}[dtype]
        k = _kernels[dtype] = ElementwiseKernel(f"{dtype} x", f"{dtype} y", op, name=f"cuarray_rsqrt_{dtype}")
    return k


def rsqrt(x, out=None):
    """``1 / sqrt(x)`` elementwise, in one kernel for real floating types; integers and booleans compute in
    the smallest floating type that holds them exactly (float16, float32 or float64), as a ufunc's loops
    would choose."""
    import cuarray
    if not isinstance(x, _core.ndarray):
        x = cuarray.asarray(x)
    for t in _LOOPS:
        if numpy.can_cast(x.dtype, t):
            break
    else:
        raise TypeError(f"ufunc 'rsqrt' not supported for the input type {x.dtype}")
    if t.startswith("complex"):
        y = cuarray.reciprocal(cuarray.sqrt(x.astype(t, copy=False)))
    else:
        y = _kernel(t)(x.astype(t, copy=False))
    if out is None:
        return y
    if not isinstance(out, _core.ndarray):
        raise TypeError("out must be a cuarray.ndarray")
    if not numpy.can_cast(y.dtype, out.dtype, casting="same_kind"):
        raise TypeError(f"Cannot cast ufunc 'rsqrt' output from {y.dtype} to {out.dtype} with casting rule "
                        f"'same_kind'")
    out[...] = y
    return out
