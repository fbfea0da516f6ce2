"""ElementwiseKernel: user-defined elementwise operations, compiled at run time (CuPy's API)."""
import numpy

from cuarray import _core
from cuarray._core import ndarray


class _Param:
    """One parameter, ``[raw] TYPE NAME``, as the C++ parser read it; ``dtype`` is None for a type placeholder."""
    __slots__ = ("raw", "ctype", "name", "dtype")

    def __init__(self, raw, ctype, name, dtype):
        self.raw = raw
        self.ctype = ctype
        self.name = name
        self.dtype = dtype

    def __repr__(self):
        return f"<ParameterInfo {'raw ' if self.raw else ''}{self.ctype} {self.name}>"


def broadcast_shape(args, indices):
    """The broadcast shape of args[k] for k in indices (() for none), with NumPy's error message; the common
    case of equal shapes costs one comparison per argument."""
    if not indices:
        return ()
    shape = args[indices[0]].shape
    for k in indices:
        if args[k].shape != shape:
            shapes = [args[j].shape for j in indices]
            try:
                return numpy.broadcast_shapes(*shapes)
            except ValueError:
                raise ValueError(f"operands could not be broadcast together with shapes "
                                 f"{' '.join(str(s) for s in shapes)}") from None
    return shape


class _FakeArray:
    """An array argument of _source (no device needed): dtype and shape only."""
    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype = numpy.dtype(dtype)
        self.shape = tuple(shape)


class ElementwiseKernel(_core._ElementwiseCall):
    """A kernel that applies ``operation`` to each element: ``ElementwiseKernel('T x, T y', 'T z',
    'z = x + y', 'add')``. Single-letter types (and names that are not dtypes) are type placeholders resolved
    from the arguments (output arrays first, then input arrays, then scalars); ``raw`` parameters are passed
    whole and indexed with ``[]``; ``i`` is the element index and ``_ind.size()`` the number of elements."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=(), **kwargs):
        super().__init__()
        if kwargs:
            raise TypeError(f"ElementwiseKernel() got unexpected keyword arguments {sorted(kwargs)}")
        # Parsing, checks, type resolution and code generation are C++ (Note [custom kernel definition] in
        # src/engine/custom_kernel.cpp); this class keeps the plans per argument signature.
        self._def = _core._ElementwiseDefinition(in_params, out_params, operation, name, preamble, loop_prep,
                                                 after_loop, no_return)
        self.params = tuple(_Param(*p) for p in self._def.params)
        self.nin = self._def.nin
        self.nout = self._def.nout
        self.nargs = self.nin + self.nout
        self.in_params = self.params[:self.nin]
        self.out_params = self.params[self.nin:]
        self.operation = operation
        self.name = name
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.no_return = no_return
        self.return_tuple = return_tuple
        self._setup_call(self.nin, self.nout, no_return, return_tuple)
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)  # kept for CuPy compatibility; the engine compiles with its own options
        self.kwargs = {"options": self.options, "loop_prep": loop_prep, "after_loop": after_loop}
        self._plans = {}

    def _shape(self, plan, args, size):
        idx = plan.shape_args
        if size is not None:
            if idx:
                raise ValueError(f"size= cannot be given to {self.name!r} when non-raw array arguments are "
                                 f"given: their broadcast shape is the loop size")
            return (int(size),)
        if not idx:
            raise ValueError(f"Loop size is undecided for {self.name!r}: pass size= or a non-raw array argument")
        shape = broadcast_shape(args, idx)
        for k in plan.given_outs:
            if args[k].shape != shape:
                raise ValueError(f"Out shape is mismatched: output {self.params[k].name!r} has shape "
                                 f"{args[k].shape}, the broadcast shape of the arguments is {shape}")
        return shape

    def _prepare(self, args, size):
        # The key holds each argument's dtype or type, so checks run only when a new kind of call is planned.
        key = tuple(a.dtype if isinstance(a, (ndarray, _FakeArray)) else type(a) for a in args)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._def.plan(args, _FakeArray)
        return plan, self._shape(plan, args, size)

    # -- calling ---------------------------------------------------------------------------------------
    # __call__ is _ElementwiseCall's: a signature already planned runs from C++, anything else comes here
    # (Note [elementwise warm call] in python/src/elementwise_kernel.cpp).
    def _call_slow(self, *args, size=None, block_size=None, stream=None):
        plan, shape = self._prepare(args, size)
        outs = list(args[self.nin:]) if len(args) == self.nargs else [None] * self.nout
        for j in plan.alloc:
            outs[j] = _core.empty(shape, plan.out_types[j])
        ins = list(args[:self.nin])
        if plan.preload or plan.raw_sizes:
            ins += [outs[j] for j in plan.preload] + [
                (args[k] if k < self.nin else outs[k - self.nin]).size for k in plan.raw_sizes]
        if stream is not None:
            with stream:
                plan.run(ins, outs, shape)
        else:
            plan.run(ins, outs, shape)
            if size is None:
                self._register_call(args, plan)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def _source(self, *args, size=None, ndim=1):
        """The CUDA source a call with these arguments compiles, without a device (for tests): an array
        argument is given as its numpy.dtype; outputs left out are allocated."""
        fake = tuple(_FakeArray(a, (4,) * ndim) if isinstance(a, numpy.dtype) else a for a in args)
        plan, _ = self._prepare(fake, size)
        return plan.source(ndim)

    def __repr__(self):
        return f"<ElementwiseKernel {self.name!r}>"


# The slow path's errors (an unexpected keyword) name the call the user made.
ElementwiseKernel._call_slow.__qualname__ = "ElementwiseKernel.__call__"
