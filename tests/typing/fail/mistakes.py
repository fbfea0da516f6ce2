"""Mistakes the type check must catch (tools/check_types.sh): each line marked `# E` must get a mypy error, no other."""
import cuarray as cp
import cuarray.scipy.sparse as sp

a = cp.arange(10)
cp.sinn(a)  # E
cp.sum(a, 0, None, None, False, 1, 2, 3, 4)  # E
a.trnspose()  # E
cp.linalg.sovle(a, a)  # E
cp.fft.fft(a, 4, 0, "ortho", None, 9, 9)  # E
cp.random.normal(0, 1, 3, 4, 5)  # E
cp.cuda.Stream(True, False, 0, False, 7)  # E
cp.cuda.Device(0).synchronize(1)  # E
sp.csr_matrix(a).tocsc(1, 2, 3)  # E
cp.get_default_memory_pool().used_bytes(3)  # E
cp.ElementwiseKernel("T x", "T y")  # E
cp.cuda.runtime.getDeviceCount(1)  # E
cp.cuda.Stream.nul  # E
cp.sin(a)
