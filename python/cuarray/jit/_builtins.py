"""The names kernels call inside cuarray.jit code (threadIdx, grid, syncthreads, atomics, shuffles...): markers
the compiler recognises; calling them from Python is an error."""


class BuiltinFunc:
    """A function that exists only inside cuarray.jit kernels."""

    def __init__(self, name, doc):
        self.__name__ = name
        self.__qualname__ = name
        self.__doc__ = doc

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"cuarray.jit.{self.__name__}() can be called only inside a cuarray.jit kernel")

    def __repr__(self):
        return f"<cuarray.jit function {self.__name__}>"


class Dim3:
    """A CUDA dim3 built-in variable (threadIdx, blockIdx, blockDim, gridDim) with .x, .y and .z."""

    def __init__(self, name):
        self._name = name
        self.__doc__ = f"dim3 {name}"

    def __repr__(self):
        return f"<cuarray.jit dim3 {self._name}>"


class Warpsize:
    """The number of threads in a warp (``warpSize``)."""

    def __repr__(self):
        return "<cuarray.jit warpsize>"


threadIdx = Dim3("threadIdx")
blockIdx = Dim3("blockIdx")
blockDim = Dim3("blockDim")
gridDim = Dim3("gridDim")
warpsize = Warpsize()

grid = BuiltinFunc("grid", "grid(ndim): the thread's index in the grid (threadIdx + blockIdx * blockDim per axis); "
                           "an int for ndim=1, a tuple for 2 or 3.")
gridsize = BuiltinFunc("gridsize", "gridsize(ndim): the number of threads in the grid (blockDim * gridDim per axis).")
laneid = BuiltinFunc("laneid", "laneid(): the lane of the calling thread in its warp, in [0, warpsize).")
range = BuiltinFunc("range", "``range(start, stop, step, *, unroll=None)``: range with loop unrolling "
                             "(unroll=True for full unrolling, an int for a factor).")
syncthreads = BuiltinFunc("syncthreads", "syncthreads(): __syncthreads().")
syncwarp = BuiltinFunc("syncwarp", "``syncwarp(*, mask=0xffffffff)``: ``__syncwarp(mask)``.")
shared_memory = BuiltinFunc(
    "shared_memory", "shared_memory(dtype, size, alignment=None): a 1-D array in shared memory; size=None declares "
                     "dynamic (extern) shared memory sized by the launch's shared_mem.")
shfl_sync = BuiltinFunc("shfl_sync", "``shfl_sync(mask, var, val_id, *, width=32)``: ``__shfl_sync``.")
shfl_up_sync = BuiltinFunc("shfl_up_sync", "``shfl_up_sync(mask, var, val_id, *, width=32)``: ``__shfl_up_sync``.")
shfl_down_sync = BuiltinFunc("shfl_down_sync", "``shfl_down_sync(mask, var, val_id, *, width=32)``: ``__shfl_down_sync``.")
shfl_xor_sync = BuiltinFunc("shfl_xor_sync", "``shfl_xor_sync(mask, var, val_id, *, width=32)``: ``__shfl_xor_sync``.")

_ATOMIC_DOC = ("``atomic_{0}(array, index, value)``: atomically updates ``array[index]`` (``{1}``) and returns the old "
               "value.")
atomic_add = BuiltinFunc("atomic_add", _ATOMIC_DOC.format("add", "+= value"))
atomic_sub = BuiltinFunc("atomic_sub", _ATOMIC_DOC.format("sub", "-= value"))
atomic_exch = BuiltinFunc("atomic_exch", _ATOMIC_DOC.format("exch", "= value"))
atomic_min = BuiltinFunc("atomic_min", _ATOMIC_DOC.format("min", "= min(array[index], value)"))
atomic_max = BuiltinFunc("atomic_max", _ATOMIC_DOC.format("max", "= max(array[index], value)"))
atomic_inc = BuiltinFunc("atomic_inc", _ATOMIC_DOC.format("inc", "= 0 if old >= value else old + 1"))
atomic_dec = BuiltinFunc("atomic_dec", _ATOMIC_DOC.format("dec", "= value if old == 0 or old > value else old - 1"))
atomic_cas = BuiltinFunc("atomic_cas", "atomic_cas(array, index, cond, value): array[index] = value if it equals "
                                       "cond; returns the old value.")
atomic_and = BuiltinFunc("atomic_and", _ATOMIC_DOC.format("and", "&= value"))
atomic_or = BuiltinFunc("atomic_or", _ATOMIC_DOC.format("or", "|= value"))
atomic_xor = BuiltinFunc("atomic_xor", _ATOMIC_DOC.format("xor", "^= value"))

this_thread_block = BuiltinFunc("this_thread_block", "cg.this_thread_block(): the thread block as a group.")
this_grid = BuiltinFunc("this_grid", "cg.this_grid(): the whole grid as a group; its sync() needs a cooperative "
                                     "launch, which cuarray.jit makes by itself for kernels that call it.")
