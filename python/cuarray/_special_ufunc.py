"""A NumPy-style ufunc built from device code and type signatures on ElementwiseKernel (SciPy's modules use it)."""
import numpy

from cuarray._core import ndarray

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
# A weak Python scalar fits a loop whose input is of its kind or a higher one (NEP 50).
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_PY_KIND = {bool: 0, int: 1, float: 2, complex: 3}
# NumPy 2.5 (seen with SciPy 1.17 on the GPU host) resolves to the smallest safe loop, NumPy 2.4 to the first
_SMALLEST_SAFE_LOOP = tuple(int(v) for v in numpy.__version__.split(".")[:2]) >= (2, 5)
_PY_DEFAULT = {bool: numpy.dtype(bool), int: numpy.dtype(numpy.int64), float: numpy.dtype(numpy.float64),
               complex: numpy.dtype(numpy.complex128)}


def _arg_key(a):
    if isinstance(a, ndarray):
        return a.dtype
    t = type(a)
    if t in _PY_KIND:
        return t
    if isinstance(a, numpy.generic):
        return a.dtype
    if isinstance(a, bool):
        return bool
    if isinstance(a, int):
        return int
    if isinstance(a, float):
        return float
    if isinstance(a, complex):
        return complex
    if isinstance(a, numpy.ndarray):
        raise TypeError("Unsupported type numpy.ndarray: move host data to the device with cuarray.asarray()")
    if hasattr(a, "__cuda_array_interface__"):
        return None  # converted by the caller
    raise TypeError(f"Unsupported type {type(a).__name__}")


class ufunc:
    """A ufunc whose loops are CUDA expressions: ``ufunc('erf', 1, 1, [('f->f', 'out0 = erff(in0);'),
    ('d->d', 'out0 = erf(in0);')], preamble=...)``. The first loop the inputs cast to safely is taken (Python
    scalars are weak, as NEP 50 has them); ``dtype=`` picks the loop by its output type; ``out=`` arrays of
    another dtype get the result cast under ``casting``. One ElementwiseKernel per loop; a warm call is one dict
    lookup by the inputs' dtypes."""

    def __init__(self, name, nin, nout, loops, preamble="", doc=None):
        self.__name__ = name
        self.nin = nin
        self.nout = nout
        self.nargs = nin + nout
        self._loops = []
        for sig, body in loops:
            ins, outs = sig.split("->")
            if len(ins) != nin or len(outs) != nout:
                raise ValueError(f"{name}: loop {sig!r} does not have {nin} inputs and {nout} outputs")
            self._loops.append((tuple(numpy.dtype(c) for c in ins), tuple(numpy.dtype(c) for c in outs), body))
        self.types = [sig for sig, _ in loops]
        self.ntypes = len(self.types)
        self.identity = None
        self.signature = None
        self._preamble = preamble
        self._kernels = {}  # loop index -> ElementwiseKernel
        self._cache = {}  # (input keys, dtype) -> (loop index, kernel)
        self.__doc__ = doc or f"{name}: a ufunc with loops {', '.join(self.types)}."

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def _kernel(self, k):
        kern = self._kernels.get(k)
        if kern is None:
            from cuarray._elementwise import ElementwiseKernel
            ins, outs, body = self._loops[k]
            in_params = ", ".join(f"{d.name} in{j}" for j, d in enumerate(ins))
            out_params = ", ".join(f"{d.name} out{j}" for j, d in enumerate(outs))
            kern = self._kernels[k] = ElementwiseKernel(in_params, out_params, body, "cuarray_" + self.__name__,
                                                        preamble=self._preamble)
        return kern

    def _fits(self, keys, ins, casting):
        for key, t in zip(keys, ins):
            if isinstance(key, type):
                if casting == "exact":
                    return False  # a Python scalar's abstract type matches no loop exactly (NumPy's dispatch)
                if t.kind not in _KIND_RANK or _KIND_RANK[t.kind] < _PY_KIND[key]:
                    return False
            elif casting == "exact":
                if key != t:
                    return False
            elif not numpy.can_cast(key, t, casting):
                return False
        return True

    def _resolve(self, keys, dtype, casting):
        if all(isinstance(k, type) for k in keys):
            keys = tuple(_PY_DEFAULT[k] for k in keys)  # Python scalars alone take their default dtypes
        if dtype is not None:
            dt = numpy.dtype(dtype)
            for k, (ins, outs, _) in enumerate(self._loops):
                if all(o == dt for o in outs) and self._fits(keys, ins, "safe"):
                    return k
            for k, (ins, outs, _) in enumerate(self._loops):
                if all(o == dt for o in outs) and self._fits(keys, ins, "same_kind"):
                    return k
        else:
            # NumPy's dispatch: a loop of exactly the inputs' dtypes first, then the first safe one in order
            # (NumPy >= 2.5: the smallest safe one, e.g. float16/int8/bool take SciPy's 'f->f' before 'd->d')
            for k, (ins, outs, _) in enumerate(self._loops):
                if self._fits(keys, ins, "exact"):
                    return k
            safe = [k for k, (ins, _, _) in enumerate(self._loops) if self._fits(keys, ins, "safe")]
            if _SMALLEST_SAFE_LOOP:
                for k in safe:
                    if all(all(numpy.can_cast(a, b, "safe") for a, b in zip(self._loops[k][0], self._loops[j][0]))
                           for j in safe):
                        return k
            if safe:
                return safe[0]
        names = tuple(k.__name__ if isinstance(k, type) else str(k) for k in keys)
        raise TypeError(f"ufunc '{self.__name__}' not supported for the input types {names}"
                        + (f" with dtype={numpy.dtype(dtype)}" if dtype is not None else "")
                        + f"; its loops are {', '.join(self.types)}")

    def _loop_for(self, args, dtype, casting):
        keys = tuple(_arg_key(a) for a in args)
        ck = (keys, dtype, casting)
        hit = self._cache.get(ck)
        if hit is None:
            k = self._resolve(keys, dtype, casting)
            hit = self._cache[ck] = (k, self._kernel(k))
        return hit

    def __call__(self, *args, out=None, dtype=None, casting="same_kind", where=True, order="K", subok=True,
                 signature=None):
        if len(args) == self.nargs and out is None:
            args, out = args[:self.nin], args[self.nin:]
        elif len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes from {self.nin} to {self.nargs} positional arguments but "
                            f"{len(args)} were given")
        if signature is not None:
            if dtype is not None:
                raise TypeError("cannot specify both 'signature' and 'dtype'")
            sig = signature if isinstance(signature, str) else None
            if sig is None or "->" not in sig:
                raise TypeError(f"{self.__name__}: signature must be a loop string such as 'd->d'")
            dtype = sig.split("->")[1][0]
        if casting not in _CASTINGS:
            raise ValueError(f"casting must be one of {', '.join(repr(c) for c in _CASTINGS)}")
        if order not in ("K", "A", "C", "F", None):
            raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
        if any(hasattr(a, "__cuda_array_interface__") and not isinstance(a, ndarray) for a in args):
            from cuarray import asarray
            args = tuple(asarray(a) if hasattr(a, "__cuda_array_interface__") else a for a in args)
        if dtype is not None:
            dtype = numpy.dtype(dtype)
        k, kern = self._loop_for(args, dtype, casting)
        if not any(isinstance(a, ndarray) for a in args):
            # Python/NumPy scalars alone: a 0-d device array gives the kernel its (empty) shape
            from cuarray import asarray
            args = (asarray(args[0], dtype=self._loops[k][0][0]),) + tuple(args[1:])
        if casting != "unsafe" and casting != "same_kind":
            ins = self._loops[k][0]
            for a, t in zip(args, ins):
                key = _arg_key(a)
                if not isinstance(key, type) and not numpy.can_cast(key, t, casting):
                    raise TypeError(f"Cannot cast ufunc '{self.__name__}' input from {key} to {t} with casting "
                                    f"rule {casting!r}")
        outs = self._outs(out)
        if outs is None and where is True:
            return kern(*args)
        out_types = self._loops[k][1]
        direct = []
        if outs is not None:
            for j, (o, t) in enumerate(zip(outs, out_types)):
                if o is None:
                    continue
                if not numpy.can_cast(t, o.dtype, casting):
                    raise TypeError(f"Cannot cast ufunc '{self.__name__}' output from {t} to {o.dtype} with "
                                    f"casting rule {casting!r}")
            direct = [o if (o is not None and o.dtype == t and where is True) else None
                      for o, t in zip(outs, out_types)]
        if direct and all(d is not None for d in direct):
            kern(*args, *direct)
            res = tuple(direct)
        else:
            res = kern(*args)
            if self.nout == 1:
                res = (res,)
            if outs is not None:
                final = []
                for o, r in zip(outs, res):
                    if o is None:
                        if where is not True:
                            raise TypeError("where= without out= leaves the output uninitialised; pass out=")
                        final.append(r)
                    else:
                        _core_copyto(o, r, where)
                        final.append(o)
                res = tuple(final)
            else:
                raise TypeError("where= without out= leaves the output uninitialised; pass out=")
        return res[0] if self.nout == 1 else res

    def _outs(self, out):
        if out is None:
            return None
        if isinstance(out, tuple):
            if len(out) != self.nout:
                raise ValueError(f"The 'out' tuple must have exactly {self.nout} entries: one per ufunc output")
            outs = out
        elif self.nout == 1:
            outs = (out,)
        else:
            raise TypeError(f"'out' must be a tuple of {self.nout} arrays for ufunc '{self.__name__}'")
        for o in outs:
            if o is not None and not isinstance(o, ndarray):
                raise TypeError(f"return arrays must be of ArrayType (cuarray.ndarray), not {type(o).__name__}")
        if all(o is None for o in outs):
            return None
        return outs


def _core_copyto(dst, src, where):
    import cuarray
    cuarray.copyto(dst, src, casting="unsafe", where=where)
