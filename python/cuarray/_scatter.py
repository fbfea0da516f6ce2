"""scatter_add, scatter_max, scatter_min (CuPy's cupyx functions and ndarray methods): a[slices] op= value,
with repeated indices accumulating instead of the last write winning."""
import numpy

from cuarray import _core

# Atomic update of one element per index for the dtypes CUDA has atomics of (floats' max/min by a CAS loop);
# other dtypes go through ufunc.at, which applies repeated indices one after another.
_FLOAT_MINMAX = r"""
template <class T, class I> __device__ void _ca_cas_minmax(T* p, T v, bool is_max) {
  I* ip = reinterpret_cast<I*>(p);
  I old = *ip, assumed;
  do {
    assumed = old;
    T cur;
    memcpy(&cur, &assumed, sizeof(T));
    T nv;
    if (cur != cur) return;      // NaN already there: it stays (NumPy's maximum/minimum propagate NaN)
    if (v != v) nv = v;
    else nv = is_max ? (v > cur ? v : cur) : (v < cur ? v : cur);
    I bits;
    memcpy(&bits, &nv, sizeof(T));
    if (bits == assumed) return;
    old = atomicCAS(ip, assumed, bits);
  } while (old != assumed);
}
"""

_ATOMIC = {
    ("add", "float32"): "atomicAdd(&a[idx], v)",
    ("add", "float64"): "atomicAdd(&a[idx], v)",
    ("add", "int32"): "atomicAdd(&a[idx], v)",
    ("add", "uint32"): "atomicAdd(&a[idx], v)",
    ("add", "uint64"): "atomicAdd(&a[idx], v)",
    ("add", "int64"): "atomicAdd((unsigned long long*)&a[idx], (unsigned long long)v)",
    ("max", "int32"): "atomicMax(&a[idx], v)",
    ("max", "uint32"): "atomicMax(&a[idx], v)",
    ("max", "int64"): "atomicMax(&a[idx], v)",
    ("max", "uint64"): "atomicMax(&a[idx], v)",
    ("min", "int32"): "atomicMin(&a[idx], v)",
    ("min", "uint32"): "atomicMin(&a[idx], v)",
    ("min", "int64"): "atomicMin(&a[idx], v)",
    ("min", "uint64"): "atomicMin(&a[idx], v)",
    ("max", "float32"): "_ca_cas_minmax<float, int>(&a[idx], v, true)",
    ("max", "float64"): "_ca_cas_minmax<double, unsigned long long>(&a[idx], v, true)",
    ("min", "float32"): "_ca_cas_minmax<float, int>(&a[idx], v, false)",
    ("min", "float64"): "_ca_cas_minmax<double, unsigned long long>(&a[idx], v, false)",
}
_kernels = {}


def _kernel(op, dtype):
    key = (op, dtype)
    k = _kernels.get(key)
    if k is None:
        from cuarray._elementwise import ElementwiseKernel
        # int64 and uint64 as the 64-bit types CUDA's atomics take.
        ctype = {"int64": "long long", "uint64": "unsigned long long"}.get(dtype)
        body = _ATOMIC[key]
        if ctype is not None and op != "add":
            body = body.replace("&a[idx]", f"({ctype}*)&a[idx]").replace(", v)", f", ({ctype})v)")
        k = _kernels[key] = ElementwiseKernel(
            f"int64 idx, {dtype} v, raw {dtype} a", "", body, name=f"cuarray_scatter_{op}_{dtype}",
            preamble=_FLOAT_MINMAX if "_ca_cas" in body else "", no_return=True)
    return k


def _scatter(a, slices, value, op):
    import cuarray
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"scatter_{op} takes a cuarray.ndarray, not {type(a).__name__}")
    # The linear position of every selected element, by cuarray's own indexing rules (slices, integer and
    # boolean arrays, newaxis, Ellipsis), duplicates included.
    lin = cuarray.arange(a.size, dtype=numpy.int64).reshape(a.shape)[slices]
    if not isinstance(lin, _core.ndarray):
        lin = cuarray.asarray(lin)
    v = value if isinstance(value, _core.ndarray) else cuarray.asarray(value)
    v = cuarray.broadcast_to(v, lin.shape)
    if lin.size == 0:
        return
    target = a if a.flags.c_contiguous else cuarray.ascontiguousarray(a)
    dt = numpy.dtype(a.dtype).name
    if (op, dt) in _ATOMIC:
        _kernel(op, dt)(lin, v.astype(a.dtype, copy=False), target)
    else:
        ufunc = {"add": cuarray.add, "max": cuarray.maximum, "min": cuarray.minimum}[op]
        ufunc.at(target.reshape(-1), lin.reshape(-1), v.reshape(-1))
    if target is not a:
        a[...] = target


def scatter_add(a, slices, value):
    """Add ``value`` to ``a[slices]`` in place, accumulating at repeated indices (``numpy.add.at`` with
    any index). ``value`` is broadcast to the shape of ``a[slices]``. Out-of-bounds integer indices wrap
    around as in CuPy's integer array indexing (``CUARRAY_CHECK_INDEX=1`` makes them raise IndexError)."""
    _scatter(a, slices, value, "add")


def scatter_max(a, slices, value):
    """``a[slices] = maximum(a[slices], value)`` in place, with repeated indices taking the maximum of all."""
    _scatter(a, slices, value, "max")


def scatter_min(a, slices, value):
    """``a[slices] = minimum(a[slices], value)`` in place, with repeated indices taking the minimum of all."""
    _scatter(a, slices, value, "min")
