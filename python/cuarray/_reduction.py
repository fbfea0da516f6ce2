"""ReductionKernel: user-defined reductions (map, associative reduce, post-map) on the reduction engine (CuPy's API)."""

from cuarray import _core
from cuarray._elementwise import _Param


class ReductionKernel(_core._ReductionKernel):
    """A reduction over given axes: ``ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0',
    'l2norm')``. ``map_expr`` maps each input element (the input parameters by name) to the reduction type,
    ``reduce_expr`` combines two mapped values ``a`` and ``b`` and must be associative (an ``identity`` of
    ``None`` folds each output in order instead of in a tree), ``post_map_expr`` assigns the output parameter
    from the reduced value ``a``. Single-letter types are placeholders resolved from the arguments."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="", options=()):
        # Parsing, checks, type resolution and code generation are cuarray::reduction_kernel's
        # (Note [custom kernel definition] in src/engine/custom_kernel.cpp).
        super().__init__(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name, reduce_type,
                         preamble)
        params = tuple(_Param(*p) for p in self.params)
        self.in_params = params[:-1]
        self.out_params = params[-1:]
        self.nin = len(self.in_params)
        self.nout = 1
        self.nargs = self.nin + 1
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.name = name
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)

    @property
    def _kernel(self):
        """The C++ reduction_kernel binding: the instance itself (its methods _plan and _call)."""
        return self

    # __call__ is _ReductionKernel's call slot: out=, axis= and a bool keepdims= run from C++ without this
    # frame; stream= or anything else comes here (python/src/elementwise_kernel.cpp, reduction_call_slot).
    def _call_slow(self, *args, out=None, axis=None, keepdims=False, stream=None):
        if stream is not None:
            with stream:
                return self._call(args, out, axis, bool(keepdims))
        return self._call(args, out, axis, bool(keepdims))

    def __repr__(self):
        return f"<ReductionKernel {self.name!r}>"


# The slow path's errors (an unexpected keyword) name the call the user made.
ReductionKernel._call_slow.__qualname__ = "ReductionKernel.__call__"
