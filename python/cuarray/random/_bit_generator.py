"""The BitGenerator base class and CuPy's XORWOW and MRG32k3a bit generators: cuRAND's recurrences run by cuarray's own kernels on per-thread states."""
import math
import operator

import numpy

# Note [per-thread bit generators]: CuPy keeps `size` cuRAND states on the device, state i initialised with
# curand_init(seed, subsequence=i). cuRAND reaches subsequence i by a jump-ahead with precomputed matrices; here
# state i takes instead cuRAND's seeding of a seed of its own, SplitMix64(key ^ SplitMix64(i)), which gives
# independent-looking streams without the tables. Each state then runs cuRAND's recurrence unchanged. A draw of
# n values uses min(n, size) states, state t producing outputs t, t + T, t + 2T, ... (T the states used), and
# keeps its place for the next draw. So the numbers depend on the seed, `size` and the sequence of draw sizes,
# never on the device or the launch.
_SOURCE = r"""
typedef unsigned int u32;
typedef unsigned long long u64;

__device__ __forceinline__ u64 ca_splitmix64(u64 x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__device__ __forceinline__ u64 ca_thread_seed(u64 key, long long t) {
  return ca_splitmix64(key ^ ca_splitmix64((u64)t));
}

// cuRAND's XORWOW seeding (curand_init without the jump-ahead): state v[0..4], Weyl counter d.
extern "C" __global__ void ca_xorwow_init(u32* st, u64 key, long long n) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  u64 seed = ca_thread_seed(key, t);
  u32 s0 = ((u32)seed) ^ 0xaad26b49u;
  u32 s1 = ((u32)(seed >> 32)) ^ 0xf7dcefddu;
  u32 t0 = 1099087573u * s0;
  u32 t1 = 2591861531u * s1;
  u32* s = st + 6 * t;
  s[0] = 123456789u + t0;
  s[1] = 362436069u ^ t0;
  s[2] = 521288629u + t1;
  s[3] = 88675123u ^ t1;
  s[4] = 5783321u + t0;
  s[5] = 6615241u + t1 + t0;
}

// Marsaglia's xorwow as cuRAND's curand(): 32 random bits per step.
extern "C" __global__ void ca_xorwow_raw(u32* st, long long used, u64* out, long long n) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= used) return;
  u32* s = st + 6 * t;
  u32 v0 = s[0], v1 = s[1], v2 = s[2], v3 = s[3], v4 = s[4], d = s[5];
  for (long long i = t; i < n; i += used) {
    u32 x = v0 ^ (v0 >> 2);
    v0 = v1;
    v1 = v2;
    v2 = v3;
    v3 = v4;
    v4 = (v4 ^ (v4 << 4)) ^ (x ^ (x << 1));
    d += 362437u;
    if (out) out[i] = (u64)(v4 + d);
  }
  s[0] = v0; s[1] = v1; s[2] = v2; s[3] = v3; s[4] = v4; s[5] = d;
}

#define CA_MRG_M1 4294967087ull
#define CA_MRG_M2 4294944443ull

// cuRAND's MRG32k3a seeding: all six words 12345, scaled by the seed's halves modulo m1 / m2.
extern "C" __global__ void ca_mrg32k3a_init(u32* st, u64 key, long long n) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  u64 seed = ca_thread_seed(key, t);
  u64 x1 = (u64)(((u32)seed) ^ 0x55555555u);
  u64 x2 = (u64)(((u32)(seed >> 32)) ^ 0xaaaaaaaau);
  u32* s = st + 6 * t;
  s[0] = (u32)((x1 * 12345ull) % CA_MRG_M1);
  s[1] = (u32)((x2 * 12345ull) % CA_MRG_M1);
  s[2] = (u32)((x1 * 12345ull) % CA_MRG_M1);
  s[3] = (u32)((x2 * 12345ull) % CA_MRG_M2);
  s[4] = (u32)((x1 * 12345ull) % CA_MRG_M2);
  s[5] = (u32)((x2 * 12345ull) % CA_MRG_M2);
  // A component of all zeros would stay zero forever; the recurrence needs a nonzero word in each.
  if ((s[0] | s[1] | s[2]) == 0) s[0] = 12345u;
  if ((s[3] | s[4] | s[5]) == 0) s[3] = 12345u;
}

// L'Ecuyer's MRG32k3a as cuRAND's: z in [1, m1], scaled to 32 bits as curand() does.
extern "C" __global__ void ca_mrg32k3a_raw(u32* st, long long used, u64* out, long long n) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= used) return;
  u32* s = st + 6 * t;
  long long a0 = s[0], a1 = s[1], a2 = s[2], b0 = s[3], b1 = s[4], b2 = s[5];
  const long long m1 = (long long)CA_MRG_M1, m2 = (long long)CA_MRG_M2;
  for (long long i = t; i < n; i += used) {
    long long p1 = (1403580ll * a1 - 810728ll * a0) % m1;
    if (p1 < 0) p1 += m1;
    a0 = a1; a1 = a2; a2 = p1;
    long long p2 = (527612ll * b2 - 1370589ll * b0) % m2;
    if (p2 < 0) p2 += m2;
    b0 = b1; b1 = b2; b2 = p2;
    double z = (double)(p1 > p2 ? p1 - p2 : p1 - p2 + m1);
    double bits = z * 1.000000048662;
    if (out) out[i] = (u64)(bits >= 4294967295.0 ? 4294967295.0 : bits);
  }
  s[0] = (u32)a0; s[1] = (u32)a1; s[2] = (u32)a2; s[3] = (u32)b0; s[4] = (u32)b1; s[5] = (u32)b2;
}
"""

_module = None
_BLOCK = 256


def _kernel(name):
    global _module
    if _module is None:
        from cuarray import RawModule
        _module = RawModule(code=_SOURCE)
    return _module.get_function(name)


def _seed_sequence(seed):
    """NumPy's SeedSequence of a seed: None (OS entropy), an int, a sequence of ints, a cuarray array of ints
    (read to the host, as CuPy does) or a SeedSequence itself."""
    if isinstance(seed, numpy.random.SeedSequence):
        return seed
    if hasattr(seed, '__cuda_array_interface__'):
        import cuarray
        seed = cuarray.asnumpy(seed)
    return numpy.random.SeedSequence(seed)


class BitGenerator:
    """Base class of cuarray.random's bit generators (CuPy's and NumPy's ``BitGenerator``): Philox4x3210,
    XORWOW, MRG32k3a and Philox derive from it, and ``Generator`` takes any of them.

    It keeps the ``numpy.random.SeedSequence`` a subclass derives its state from (``seed``: None for OS
    entropy, an int, a sequence of ints, a cuarray array of ints or a SeedSequence) and gives ``seed_seq``,
    ``spawn`` and the device check. A subclass draws with ``random_raw(size=None, output=True)``. Like NumPy's,
    the base class has no stream of its own, so it cannot be instantiated (NotImplementedError, NumPy's type).
    """

    _seed_seq = None
    _device_id = None  # the device holding the state, once there is one

    def __init__(self, seed=None):
        if type(self) is BitGenerator:
            raise NotImplementedError('BitGenerator is a base class and cannot be instantized')
        self._seed_seq = _seed_sequence(seed)

    @property
    def seed_seq(self):
        """The SeedSequence the state was derived from (None for a Philox made from a key)."""
        return self._seed_seq

    def spawn(self, n_children):
        """`n_children` independent bit generators of the same kind, seeded from children of seed_seq
        (NumPy's BitGenerator.spawn)."""
        if self._seed_seq is None:
            raise TypeError('The underlying SeedSequence does not implement spawning.')
        return [self._spawned(s) for s in self._seed_seq.spawn(n_children)]

    def _spawned(self, seed_seq):
        return type(self)(seed_seq)

    def _state_size(self):
        """The most values one launch draws in parallel (CuPy's; 0 where the state is not per thread)."""
        return 0

    def _check_device(self):
        """RuntimeError when the state lives on another device than the current one (as CuPy's)."""
        if self._device_id is not None:
            from cuarray import _core
            if _core.get_device_id() != self._device_id:
                raise RuntimeError('This Generator state is allocated in a different device')


class _CurandLike(BitGenerator):
    """A bit generator of `size` per-thread states (Note [per-thread bit generators]); states are made on the
    device at the first draw."""
    _name = None
    _default_size = 1000 * 256

    def __init__(self, seed=None, *, size=-1):
        size = operator.index(size)
        if size == 0 or size < -1:
            raise ValueError('size must be a positive integer (or -1 for the default {})'.format(self._default_size))
        super().__init__(seed)
        self._size = self._default_size if size == -1 else size
        self._key = int(self._seed_seq.generate_state(1, numpy.uint64)[0])
        self._states = None
        self._engine = None  # the Philox engine of Generators over this bit generator (made by Generator)

    def _spawned(self, seed_seq):
        return type(self)(seed_seq, size=self._size)

    def _state_size(self):
        return self._size

    def _ensure_states(self):
        if self._states is None:
            import cuarray
            states = cuarray.empty((self._size, 6), dtype=numpy.uint32)
            blocks = (self._size + _BLOCK - 1) // _BLOCK
            _kernel(self._init_kernel)((blocks,), (_BLOCK,),
                                       (states, numpy.uint64(self._key), numpy.int64(self._size)))
            self._states = states
            self._device_id = states._device_id
        self._check_device()
        return self._states

    def state(self):
        """The device address of the per-thread states (CuPy's state(): a pointer usable from raw kernels)."""
        return self._ensure_states().data.ptr

    def random_raw(self, size=None, output=True):
        """Raw 32-bit outputs of the generator as uint64 (NumPy's random_raw convention); `output=False`
        advances the states without returning them."""
        import cuarray
        shape = () if size is None else ((operator.index(size),) if _is_index(size) else tuple(size))
        n = math.prod(shape)
        if n < 0 or any(operator.index(d) < 0 for d in shape):
            raise ValueError('negative dimensions are not allowed')
        states = self._ensure_states()
        out = cuarray.empty(shape, dtype=numpy.uint64) if output else None
        if n:
            used = min(n, self._size)
            blocks = (used + _BLOCK - 1) // _BLOCK
            dst = out if output else numpy.uint64(0)  # a null pointer: advance only
            _kernel(self._raw_kernel)((blocks,), (_BLOCK,), (states, numpy.int64(used), dst, numpy.int64(n)))
        return out

    def _philox_key(self):
        """The 64-bit key of the Philox stream a Generator over this bit generator draws its distributions
        from (a different mixing of the seed than Philox's own key)."""
        k = (self._key ^ self._salt) & 0xFFFFFFFFFFFFFFFF
        k = ((k ^ (k >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        k = ((k ^ (k >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return k ^ (k >> 31)

    def __repr__(self):
        return '{}(size={})'.format(self._name, self._size)


def _is_index(x):
    try:
        operator.index(x)
        return True
    except TypeError:
        return False


class XORWOW(_CurandLike):
    """BitGenerator of cuRAND's XORWOW recurrence (Marsaglia's xorshift with a Weyl sequence), ``size`` device
    states (default 1000 * 256). ``seed``: None, an int, a sequence of ints or a numpy.random.SeedSequence."""
    _name = 'XORWOW'
    _init_kernel = 'ca_xorwow_init'
    _raw_kernel = 'ca_xorwow_raw'
    _salt = 0x584F52574F57  # 'XORWOW'


class MRG32k3a(_CurandLike):
    """BitGenerator of cuRAND's MRG32k3a recurrence (L'Ecuyer's combined multiple recursive generator), ``size``
    device states (default 1000 * 256). ``seed``: None, an int, a sequence of ints or a SeedSequence."""
    _name = 'MRG32k3a'
    _init_kernel = 'ca_mrg32k3a_init'
    _raw_kernel = 'ca_mrg32k3a_raw'
    _salt = 0x4D524733326B3361  # 'MRG32k3a'
