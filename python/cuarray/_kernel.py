"""User CUDA code: RawModule and RawKernel over the C++ raw_module / raw_kernel (NVRTC, memory and disk cache)."""
from cuarray import _core


def _check_backend(backend, translate_cucomplex, jitify):
    if backend != "nvrtc":
        raise ValueError(f"backend must be 'nvrtc' (cuarray compiles with NVRTC only), got {backend!r}")
    if translate_cucomplex:
        raise ValueError("translate_cucomplex=True is not supported: include cuComplex.h yourself")
    if jitify:
        raise ValueError("jitify=True is not supported: NVRTC compiles the source as given")


class RawKernel(_core._RawKernel):
    """A CUDA kernel from source: ``kernel(grid, block, args, *, shared_mem=0, stream=None)``.

    The call is the C++ type slot of the base class (Note [RawKernel call] in python/src/raw.cpp): no Python
    code runs per launch. Attributes (``num_regs``, ``max_dynamic_shared_size_bytes``...) are C++ properties.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False):
        _check_backend(backend, translate_cucomplex, jitify)
        options = tuple(options)
        super().__init__(code, name, list(options), bool(enable_cooperative_groups))
        self.code = code
        self.name = name
        self.options = options
        self.backend = backend
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self.file_path = None

    @classmethod
    def _from_module(cls, module, name):
        k = cls.__new__(cls)
        _core._RawKernel.__init__(k, module._m, name)
        k.code = module.code
        k.name = name
        k.options = module.options
        k.backend = module.backend
        k.enable_cooperative_groups = module.enable_cooperative_groups
        k.file_path = module.file_path
        return k

    def compile(self, log_stream=None):
        """Compile and load on the current device now (errors raise here instead of at the first launch)."""
        super().compile()


class RawModule:
    """A CUDA module from source (compiled by NVRTC) or from a .cubin/.ptx/.fatbin file."""

    def __init__(self, code=None, path=None, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        _check_backend(backend, translate_cucomplex, jitify)
        if (code is None) == (path is None):
            raise TypeError("RawModule needs exactly one of code and path")
        self.code = code
        self.path = self.file_path = None if path is None else str(path)
        self.options = tuple(options)
        self.backend = backend
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self.name_expressions = tuple(name_expressions) if name_expressions else ()
        self._m = _core._RawModule(code, self.path, list(self.options), list(self.name_expressions),
                                   self.enable_cooperative_groups)

    def get_function(self, name):
        return RawKernel._from_module(self, name)

    def get_global(self, name):
        return self._m.get_global(name)

    def compile(self, log_stream=None):
        self._m.compile()
