"""ndarray.flat: NumPy's flat iterator over a cuarray array, reading and writing in C order."""
import cuarray


class flatiter:
    """The object of ``a.flat``: ``a.flat[i]``, ``a.flat[idx] = v`` (v repeated as needed, as NumPy), ``len``, and
    NumPy's iterator protocol: ``iter(f) is f``, ``next(f)`` in C order, ``index`` (the next flat position) and
    ``coords`` (its N-d index). Reads return new arrays (NumPy's flat reads copy too); integers and ``next`` give
    0-d arrays, as CuPy, so that no element is read to the host unless asked for."""

    def __init__(self, base):
        self._base = base
        self._index = 0

    @property
    def base(self):
        return self._base

    @property
    def index(self):
        return self._index

    @property
    def coords(self):
        shape = self._base.shape
        if self._base.size == 0:
            return (0,) * len(shape)
        # C order; past the end the first coordinate keeps counting, as NumPy's (shape (2, 3), index 6: (2, 0)).
        i, out = self._index, []
        for n in reversed(shape[1:]):
            i, r = divmod(i, n)
            out.append(r)
        if shape:
            out.append(i)
        return tuple(reversed(out))

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._base.size:
            raise StopIteration
        element = self._base[self.coords].copy()  # a 0-d view of the element, detached
        self._index += 1
        return element

    def copy(self):
        return self._base.flatten()

    def __getitem__(self, key):
        flat = self._base.ravel()
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        if key is None:  # NumPy's flat iterator takes no new axis
            raise IndexError("only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are valid "
                             "indices")
        got = flat[key]
        # ravel() is a view of a contiguous array: the read must not alias the array.
        return got.copy() if got._same_storage(self._base) else got

    def __setitem__(self, key, value):
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        positions = cuarray.arange(self._base.size, dtype=cuarray.int64)[key]
        cuarray.put(self._base, positions.reshape(-1), value, mode="wrap")

    def __repr__(self):
        return f"<cuarray.flatiter of array with shape {self._base.shape}>"


def _get_flat(self):
    return flatiter(self)


def _set_flat(self, value):
    flatiter(self)[...] = value


cuarray.ndarray.flat = property(_get_flat, _set_flat, doc="A flat iterator over the array (NumPy's ndarray.flat).")
