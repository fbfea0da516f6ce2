"""cuarray.vectorize: a Python scalar function compiled by cuarray.jit into one elementwise kernel."""
import numpy


def _input_dtype(arg):
    if hasattr(arg, "dtype"):
        return numpy.dtype(arg.dtype)
    return numpy.dtype(type(arg))


class vectorize:
    """NumPy's ``vectorize`` run as one GPU kernel: ``pyfunc`` (arithmetic, comparisons, ``if``/loops, ``math``
    and cuarray ufuncs on scalars) is compiled by :mod:`cuarray.jit` (in its 'numpy' mode: Python ints and floats
    are int64 and float64) into an elementwise kernel per input dtypes; inputs broadcast. The output dtype is
    inferred from the function, or ``otypes`` (the result is cast to it). ``excluded`` and ``signature`` are not
    supported (NotImplementedError, as in CuPy); ``cache`` is accepted and has no effect (kernels are always
    cached per input dtypes)."""

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        self.pyfunc = pyfunc
        self.__doc__ = doc or pyfunc.__doc__
        self.excluded = excluded
        self.cache = cache
        self.signature = signature
        self._kernels = {}
        self.otypes = None
        if otypes is not None:
            if isinstance(otypes, str):
                self.otypes = "".join(numpy.dtype(c).char for c in otypes)
            else:
                self.otypes = "".join(numpy.dtype(t).char for t in otypes)
        if excluded is not None:
            raise NotImplementedError("cuarray.vectorize does not support the `excluded` option")
        if signature is not None:
            raise NotImplementedError("cuarray.vectorize does not support the `signature` option")

    def _kernel(self, dtypes):
        from cuarray import ElementwiseKernel
        from cuarray.jit import _compile
        from cuarray.jit import _types as T
        in_types = [T.Scalar(d) for d in dtypes]
        code, name, ret = _compile.generate_device(self.pyfunc, "numpy", in_types)
        if not isinstance(ret, T.Scalar):
            raise TypeError(f"vectorize: {getattr(self.pyfunc, '__name__', self.pyfunc)} must return a scalar "
                            f"(it returns {ret})")
        out_dtype = ret.dtype
        if self.otypes is not None:
            if len(self.otypes) != 1:
                raise ValueError(f"vectorize: otypes has {len(self.otypes)} types but the function returns one "
                                 f"value")
            out_dtype = numpy.dtype(self.otypes[0])
        in_params = ", ".join(f"{numpy.dtype(d).name} in{i}" for i, d in enumerate(dtypes))
        args = ", ".join(f"in{i}" for i in range(len(dtypes)))
        call = f"{name}({args})"
        if T.norm_dtype(out_dtype) != ret.dtype:
            call = f"ca_cast<{T.Scalar(out_dtype).ctype}>({call})"
        return ElementwiseKernel(in_params, f"{out_dtype.name} out0", f"out0 = {call};", "cuarray_vectorize",
                                 preamble=code)

    def __call__(self, *args):
        if not args:
            raise TypeError("vectorize: the function needs at least one argument")
        dtypes = tuple(_input_dtype(a) for a in args)
        kern = self._kernels.get(dtypes)
        if kern is None:
            kern = self._kernels[dtypes] = self._kernel(dtypes)
        return kern(*args)
