"""CSR and CSC in common: construction, canonical form, products over cuSPARSE, elementwise ops, indexing."""
import numpy

import cuarray as xp
from cuarray.scipy.sparse import _base, _mixed, _util
from cuarray.scipy.sparse._base import _cls, issparse

# Tests set this to force the row-blocked product of Note [blocked products] at a given block height.
_FORCE_BLOCK_ROWS = None


class _compressed(_base._spbase):
    """A matrix compressed along its major axis (rows for CSR, columns for CSC)."""

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        from cuarray.scipy.sparse._coo import _coo_from_dense
        if shape is not None:
            shape = _util.check_shape(shape)
        if issparse(arg1):
            src = arg1.asformat(self.format)
            if dtype is not None:
                src = src.astype(dtype, copy=False)
            self._init_arrays(src.data, src.indices, src.indptr, src.shape, copy)
            self._canonical = getattr(src, '_canonical', None)
        elif _is_scipy_sparse(arg1):
            s = arg1.asformat(self.format)
            if dtype is not None:
                s = s.astype(_util.coerce_dtype(dtype))
            dt = _util.coerce_dtype(s.dtype)
            idt = _util.index_dtype(maxval=max(s.nnz, max(s.shape)))
            self._init_arrays(xp.asarray(s.data.astype(dt, copy=False)),
                              xp.asarray(s.indices.astype(idt, copy=False)),
                              xp.asarray(s.indptr.astype(idt, copy=False)), s.shape, False)
            self._canonical = True if s.has_canonical_format else None
        elif isinstance(arg1, tuple) and len(arg1) == 2 and _util.isintlike(arg1[0]) and _util.isintlike(arg1[1]):
            shape = _util.check_shape(arg1)
            major, _ = self._swap(shape)
            dt = _util.coerce_dtype(dtype if dtype is not None else numpy.float64)
            self._init_arrays(xp.empty(0, dtype=dt), xp.empty(0, dtype=numpy.int32),
                              xp.zeros(major + 1, dtype=numpy.int32), shape, False)
            self._canonical = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            coo = _cls('coo', self._is_array)(arg1, shape=shape, dtype=dtype, copy=copy)
            src = coo.asformat(self.format)
            self._init_arrays(src.data, src.indices, src.indptr, src.shape, False)
            self._canonical = True
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = arg1
            data, indices, indptr = (xp.asarray(data), xp.asarray(indices), xp.asarray(indptr))
            if indices.ndim != 1 or indptr.ndim != 1 or data.ndim != 1:
                raise ValueError('data, indices, and indptr should be 1-D')
            if indptr.size == 0:
                raise ValueError('index pointer size (0) should be (1)')
            if shape is None:
                n_major = indptr.size - 1
                n_minor = int(indices.max()) + 1 if indices.size else 0
                shape = self._swap((n_major, n_minor))
            dt = _util.coerce_dtype(dtype if dtype is not None else data.dtype)
            idt = _util.index_dtype(indices, indptr, maxval=max(shape), check_contents=True)
            if indices.dtype.kind not in 'iu' or indptr.dtype.kind not in 'iu':
                raise ValueError('indices and indptr should have integer dtype')
            self._init_arrays(data.astype(dt, copy=copy), indices.astype(idt, copy=copy),
                              indptr.astype(idt, copy=copy), shape, False)
            self._canonical = None
            self._check_format()
        elif _util.isdense(arg1) or isinstance(arg1, (numpy.ndarray, list)):
            if isinstance(arg1, numpy.ndarray):
                arg1 = xp.asarray(arg1)
            elif isinstance(arg1, list):
                arg1 = xp.asarray(numpy.asarray(arg1))
            if arg1.ndim == 1:
                arg1 = arg1[None, :]
            if arg1.ndim != 2:
                raise ValueError('expected dimension <= 2 array or matrix')
            coo = _coo_from_dense(arg1, dtype, self._is_array)
            src = coo.asformat(self.format)
            self._init_arrays(src.data, src.indices, src.indptr, src.shape, False)
            self._canonical = True
        else:
            raise TypeError('unrecognized {} constructor usage'.format(type(self).__name__))
        if shape is not None and tuple(shape) != self._shape:
            raise ValueError('shape {} does not match the data shape {}'.format(shape, self._shape))

    def _init_arrays(self, data, indices, indptr, shape, copy):
        self.data = data.copy() if copy else data
        self.indices = indices.copy() if copy else indices
        self.indptr = indptr.copy() if copy else indptr
        self._shape = _util.check_shape(shape)

    @classmethod
    def _from_arrays(cls, data, indices, indptr, shape, canonical=None):
        self = cls.__new__(cls)
        self._init_arrays(data, indices, indptr, shape, False)
        self._canonical = canonical
        return self

    def _with_data(self, data, copy=True):
        return type(self)._from_arrays(data, self.indices.copy() if copy else self.indices,
                                       self.indptr.copy() if copy else self.indptr, self._shape, self._canonical)

    def _check_format(self):
        major, minor = self._swap(self._shape)
        if self.indptr.size != major + 1:
            raise ValueError('index pointer size ({}) should be ({})'.format(self.indptr.size, major + 1))
        if self.indices.size != self.data.size:
            raise ValueError('indices and data should have the same size')
        if self.indices.size:
            ends = _util.to_host(self.indptr[xp.asarray([0, -1])])
            if int(ends[0]) != 0:
                raise ValueError('index pointer should start with 0')
            if int(ends[1]) != self.indices.size:
                raise ValueError('Last value of index pointer should be less than the size of index and data '
                                 'arrays')
            if bool((xp.diff(self.indptr) < 0).any()):
                raise ValueError('index pointer values must form a non-decreasing sequence')
            if bool((self.indices < 0).any()) or bool((self.indices >= minor).any()):
                raise ValueError('indices out of range for the matrix shape')

    def _nnz(self):
        return self.data.size

    def getnnz(self, axis=None):
        if axis is None:
            return self.nnz
        axis = self._axis(axis)
        major_axis = 1 if self.format == 'csr' else 0
        if axis == major_axis:
            return xp.diff(self.indptr)
        n_minor = self._swap(self._shape)[1]
        return xp.bincount(self.indices, minlength=n_minor)[:n_minor]

    # -- canonical form -----------------------------------------------------------------------------------------
    def _major_index(self):
        return _util.expand_ptr(self.indptr, self._swap(self._shape)[0], self.indices.size)

    def _order_flags(self):
        """(sorted, canonical) of the stored indices."""
        if self.indices.size < 2:
            return True, True
        major = self._major_index()
        same = major[1:] == major[:-1]
        d = self.indices[1:].astype(numpy.int64) - self.indices[:-1]
        return not bool((same & (d < 0)).any()), not bool((same & (d <= 0)).any())

    @property
    def has_sorted_indices(self):
        if self._canonical:
            return True  # canonical implies sorted: skip the device scan and its host synchronisation
        return self._order_flags()[0]

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        if not value:
            self._canonical = False

    @property
    def has_canonical_format(self):
        if self._canonical is None:
            self._canonical = self._order_flags()[1]
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)

    def sort_indices(self):
        if self.has_sorted_indices:
            return
        major = self._major_index()
        order = xp.lexsort(xp.stack([self.indices.astype(numpy.int64), major.astype(numpy.int64)]))
        self.indices = self.indices[order]
        self.data = self.data[order]

    def sorted_indices(self):
        a = self.copy()
        a.sort_indices()
        return a

    def sum_duplicates(self):
        if self._canonical:
            return
        major_n, minor_n = self._swap(self._shape)
        data, major, minor = _canonical_triplets(self.data, self._major_index(), self.indices, major_n, minor_n)
        idt = self.indices.dtype
        self.indices = minor.astype(idt)
        self.data = data
        self.indptr = _util.make_indptr(major, major_n, idt)
        self._canonical = True

    def eliminate_zeros(self):
        keep = self.data != 0
        major_n = self._swap(self._shape)[0]
        major = self._major_index()[keep]
        self.data = self.data[keep]
        self.indices = self.indices[keep]
        self.indptr = _util.make_indptr(major, major_n, self.indptr.dtype)

    def prune(self):
        n = self.data.size
        self.indices = self.indices[:n]

    def _stored_mask(self):
        coo = self.tocoo()
        mask = xp.zeros(self.shape, dtype=bool)
        if coo.row.size:
            mask[coo.row, coo.col] = True
        return mask

    def copy(self):
        return type(self)._from_arrays(self.data.copy(), self.indices.copy(), self.indptr.copy(), self._shape,
                                       self._canonical)

    # -- conversions --------------------------------------------------------------------------------------------
    def tocoo(self, copy=False):
        major = self._major_index()
        minor = self.indices.copy() if copy else self.indices
        row, col = (major, minor) if self.format == 'csr' else (minor, major)
        return _cls('coo', self._is_array)._from_arrays(self.data.copy() if copy else self.data, row, col,
                                                        self._shape, self._canonical if self.format == 'csr' else None)

    def _transposed_arrays(self):
        """(data, indices, indptr) of the other compressed format (the transpose of the stored major/minor)."""
        n_major, n_minor = self._swap(self._shape)
        if (self.indptr.dtype == numpy.int32 and self.dtype in _util.SUPPORTED and self.data.size
                and n_major and n_minor):
            indptr, indices, data = _util.prims().csr_transpose(
                n_major, n_minor, xp.ascontiguousarray(self.indptr), xp.ascontiguousarray(self.indices),
                xp.ascontiguousarray(self.data))
            return data, indices, indptr
        major = self._major_index()
        order = xp.lexsort(xp.stack([major.astype(numpy.int64), self.indices.astype(numpy.int64)]))
        new_major = self.indices[order]
        return (self.data[order], major[order].astype(self.indices.dtype),
                _util.make_indptr(new_major, n_minor, self.indptr.dtype))

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse matrices do not support an 'axes' parameter because swapping dimensions "
                             "is the only logical permutation.")
        other = 'csc' if self.format == 'csr' else 'csr'
        M, N = self._shape
        return _cls(other, self._is_array)._from_arrays(
            self.data.copy() if copy else self.data, self.indices.copy() if copy else self.indices,
            self.indptr.copy() if copy else self.indptr, (N, M), self._canonical)

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(order=order, out=out)

    def get(self, stream=None):
        import scipy.sparse
        cls = getattr(scipy.sparse, self.format + ('_array' if self._is_array else '_matrix'))
        return cls((_util.to_host(self.data), _util.to_host(self.indices), _util.to_host(self.indptr)),
                   shape=self._shape)

    # -- products -----------------------------------------------------------------------------------------------
    def _csr_args(self):
        """(rows, cols, indptr, indices, data, op) for the CSR operand cuSPARSE sees: a CSC matrix is the CSR of
        its transpose, multiplied with op 'T'."""
        n_major, n_minor = self._swap(self._shape)
        return n_major, n_minor, self.indptr, self.indices, self.data, ('N' if self.format == 'csr' else 'T')

    def _mul_vector(self, x):
        return self._mul_dense(x)

    def _mul_multivector(self, x):
        return self._mul_dense(x)

    def _mul_dense(self, x, op_override=None):
        M, N = self._shape
        dt = _util.upcast(self.dtype, x.dtype)
        rows, cols, indptr, indices, data, op = self._csr_args()
        if op_override is not None:
            op = op_override
        out_shape = (M,) + tuple(x.shape[1:])
        out = xp.zeros(out_shape, dtype=dt) if self.data.size == 0 or x.size == 0 else xp.empty(out_shape, dtype=dt)
        if out.size == 0 or self.data.size == 0 or x.size == 0:
            return out
        if x.ndim == 1 and _mixed.supported(data.dtype, dt):
            # A narrower matrix times a float64/complex128 vector: SciPy's upcast product, computed from the stored
            # values (no float64 copy of the matrix per product; see python/cuarray/scipy/sparse/_mixed.py).
            return _mixed.product(indptr, indices, data, xp.ascontiguousarray(x.astype(dt, copy=False)), out,
                                  scatter=(op != 'N'))
        if indptr.dtype != indices.dtype:
            indptr = indptr.astype(indices.dtype)
        x = xp.ascontiguousarray(x.astype(dt, copy=False))
        data = data.astype(dt, copy=False)
        spmm_blocked(rows, cols, indptr, indices, data, x, out, op)
        return out

    def _spgemm(self, other):
        M, K = self._shape
        N = other.shape[1]
        a = self.tocsr()
        b = other.tocsr()
        dt = _util.upcast(a.dtype, b.dtype)
        if a.data.size == 0 or b.data.size == 0 or M == 0 or N == 0:
            return _cls('csr', self._is_array)((M, N), dtype=dt)
        # cuSPARSE wants sorted column indices; a matrix known to be sorted (canonical) is used as is, not copied.
        a = a.astype(dt, copy=False)
        b = b.astype(dt, copy=False)
        a = a if a.has_sorted_indices else a.sorted_indices()
        b = b if b.has_sorted_indices else b.sorted_indices()
        if max(a.data.size, b.data.size, M + 1, K + 1, N + 1) <= _util._INT32_MAX:
            ai, ap, bi, bp = (a.indices.astype(numpy.int32, copy=False), a.indptr.astype(numpy.int32, copy=False),
                              b.indices.astype(numpy.int32, copy=False), b.indptr.astype(numpy.int32, copy=False))
            try:
                indptr, indices, data = _util.prims().spgemm(M, K, ap, ai, xp.ascontiguousarray(a.data), N, bp,
                                                             bi, xp.ascontiguousarray(b.data))
                return _cls('csr', self._is_array)._from_arrays(data, indices, indptr, (M, N), True)
            except ValueError:
                pass  # the product's nnz overflows int32: expand below
        return _spgemm_expand(a, b, self._is_array)

    # -- reductions ---------------------------------------------------------------------------------------------
    def _sum_rows(self):
        ones = xp.ones(self.shape[1], dtype=self.dtype)
        return self._mul_dense(ones)

    def _sum_columns(self):
        return self.transpose()._mul_dense(xp.ones(self.shape[0], dtype=self.dtype))

    def _reduce_major(self, ufunc, n_major, n_minor, explicit):
        """ufunc over each major line of a canonical matrix, implicit zeros included unless `explicit`."""
        counts = xp.diff(self.indptr)
        res = xp.zeros(n_major, dtype=self.dtype)
        nonempty = counts > 0
        if self.data.size:
            starts = self.indptr[:-1][nonempty]
            res[nonempty] = ufunc.reduceat(self.data, starts.astype(numpy.int64))
        if not explicit:
            res = xp.where(counts < n_minor, ufunc(res, xp.zeros((), dtype=self.dtype)), res)
        return res

    # -- elementwise binary operations --------------------------------------------------------------------------
    def _add_sparse(self, other, sign):
        a = self.tocoo()
        b = other.tocoo()
        dt = _util.upcast(a.dtype, b.dtype)
        bdata = b.data.astype(dt) if sign > 0 else -b.data.astype(dt)
        row = xp.concatenate([a.row.astype(numpy.int64), b.row.astype(numpy.int64)])
        col = xp.concatenate([a.col.astype(numpy.int64), b.col.astype(numpy.int64)])
        data = xp.concatenate([a.data.astype(dt), bdata])
        return _cls('coo', self._is_array)((data, (row, col)), shape=self.shape).tocsr()

    def _multiply_sparse(self, other):
        a = self.tocsr(copy=True)
        a.sum_duplicates()
        b = other.tocsr(copy=True)
        b.sum_duplicates()
        dt = _util.upcast(a.dtype, b.dtype)
        M, N = self.shape
        ka = a._major_index().astype(numpy.int64) * N + a.indices
        kb = b._major_index().astype(numpy.int64) * N + b.indices
        keys = xp.concatenate([ka, kb])
        vals = xp.concatenate([a.data.astype(dt), b.data.astype(dt)])
        order = xp.argsort(keys, kind='stable')
        keys = keys[order]
        vals = vals[order]
        match = keys[1:] == keys[:-1]
        k = keys[:-1][match]
        v = vals[:-1][match] * vals[1:][match]
        return _cls('csr', self._is_array)._from_arrays(
            v, (k % N).astype(a.indices.dtype) if N else k.astype(a.indices.dtype),
            _util.make_indptr(k // N if N else k, M, a.indptr.dtype), (M, N), True)

    def _multiply_dense(self, other):
        M, N = self.shape
        if other.ndim > 2:
            raise ValueError('inconsistent shapes')
        try:
            bshape = xp.broadcast_shapes(other.shape, self.shape)
        except ValueError:
            raise ValueError('inconsistent shapes') from None
        if bshape != self.shape:
            # SciPy densifies when the dense operand broadcasts the sparse one
            return self.toarray() * other
        coo = self.tocoo()
        full = xp.broadcast_to(other, self.shape)
        dt = _util.upcast(self.dtype, other.dtype)
        vals = coo.data.astype(dt) * full[coo.row, coo.col].astype(dt)
        return _cls('coo', self._is_array)._from_arrays(vals, coo.row, coo.col, self.shape, None).tocsr()

    def _binary_union(self, other, ufunc):
        if _util.isscalarlike(other):
            if ufunc(xp.zeros((), dtype=self.dtype), other) != 0:
                return ufunc(self.toarray(), other)
            a = self.tocsr(copy=True)
            a.sum_duplicates()
            return a._with_data(ufunc(a.data, other))
        if _util.isdense(other):
            return ufunc(self.toarray(), other)
        if not issparse(other):
            raise TypeError('operands could not be broadcast together')
        self._check_same_shape(other)
        M, N = self.shape
        a = self.tocsr(copy=True)
        a.sum_duplicates()
        b = other.tocsr(copy=True)
        b.sum_duplicates()
        dt = _util.upcast(a.dtype, b.dtype)
        ka = a._major_index().astype(numpy.int64) * N + a.indices
        kb = b._major_index().astype(numpy.int64) * N + b.indices
        keys = xp.concatenate([ka, kb])
        # each key once per operand: pair it with the other operand's value or an implicit zero
        uk = xp.unique(keys)
        va = xp.zeros(uk.size, dtype=dt)
        vb = xp.zeros(uk.size, dtype=dt)
        va[xp.searchsorted(uk, ka)] = a.data.astype(dt)
        vb[xp.searchsorted(uk, kb)] = b.data.astype(dt)
        v = ufunc(va, vb)
        res = _cls('csr', self._is_array)._from_arrays(
            v, (uk % N).astype(a.indices.dtype) if N else uk.astype(a.indices.dtype),
            _util.make_indptr(uk // N if N else uk, M, a.indptr.dtype), (M, N), True)
        res.eliminate_zeros()
        return res

    # -- indexing -----------------------------------------------------------------------------------------------
    def _select_major(self, idx):
        """The lines `idx` (int64 array, in range) of the major axis, as the same format."""
        counts = xp.diff(self.indptr).astype(numpy.int64)
        sel = counts[idx]
        new_indptr = xp.zeros(idx.size + 1, dtype=numpy.int64)
        if idx.size:
            new_indptr[1:] = xp.cumsum(sel)
        total = int(new_indptr[-1]) if idx.size else 0
        starts = self.indptr[idx].astype(numpy.int64) - new_indptr[:-1]
        pos = _util.repeat_counts(starts, sel, total) + xp.arange(total, dtype=numpy.int64)
        n_major, n_minor = self._swap(self._shape)
        idt = _util.index_dtype(maxval=max(total, n_minor))
        shape = self._swap((idx.size, n_minor))
        return type(self)._from_arrays(self.data[pos], self.indices[pos].astype(idt), new_indptr.astype(idt),
                                       shape, None)

    def _major_minor_keys(self, key):
        if isinstance(key, tuple):
            if len(key) == 1:
                key = (key[0], slice(None))
            elif len(key) != 2:
                raise IndexError('invalid number of indices')
        else:
            key = (key, slice(None))
        row, col = key
        if issparse(row) or issparse(col):
            raise IndexError('Indexing with sparse matrices is not supported except boolean indexing where matrix '
                             'and index are equal shapes.')
        return (row, col) if self.format == 'csr' else (col, row)

    def __getitem__(self, key):
        M, N = self.shape
        maj, mnr = self._major_minor_keys(key)
        n_major, n_minor = self._swap(self._shape)
        maj_int, mnr_int = _util.isintlike(maj), _util.isintlike(mnr)
        if maj_int and mnr_int:
            i = _normalize_int(maj, n_major, 'row' if self.format == 'csr' else 'column')
            j = _normalize_int(mnr, n_minor, 'column' if self.format == 'csr' else 'row')
            s, e = (int(v) for v in _util.to_host(self.indptr[i:i + 2]))
            hit = self.indices[s:e] == j
            return (self.data[s:e] * hit).sum() if e > s else xp.zeros((), dtype=self.dtype)
        maj_arr = _index_array(maj, n_major)
        mnr_arr = _index_array(mnr, n_minor)
        if (not isinstance(maj_arr, slice) and not isinstance(mnr_arr, slice) and not maj_int and not mnr_int
                and maj_arr.ndim == 1 and mnr_arr.ndim == 1):
            # paired fancy indices: one element per pair, as SciPy's A[[i0, i1], [j0, j1]]
            return self._get_pairs(maj_arr, mnr_arr)
        res = self
        if not (isinstance(maj, slice) and maj == slice(None)):
            res = res._select_major(_as_index_array(maj_arr, n_major))
        if not (isinstance(mnr, slice) and mnr == slice(None)):
            other = res.tocsc() if self.format == 'csr' else res.tocsr()
            other = other._select_major(_as_index_array(mnr_arr, n_minor))
            res = other.asformat(self.format)
        return res

    def _get_pairs(self, maj, mnr):
        if maj.shape != mnr.shape:
            raise IndexError('shape mismatch: indexing arrays could not be broadcast together')
        a = self.copy()
        a.sum_duplicates()
        n_minor = self._swap(self._shape)[1]
        keys = a._major_index().astype(numpy.int64) * n_minor + a.indices
        q = maj * n_minor + mnr
        pos = xp.searchsorted(keys, q)
        posc = xp.minimum(pos, max(keys.size - 1, 0))
        if keys.size:
            found = keys[posc] == q
            vals = xp.where(found, a.data[posc], xp.zeros((), dtype=self.dtype))
        else:
            vals = xp.zeros(q.size, dtype=self.dtype)
        # SciPy gives a dense result: a 1 x n matrix for spmatrix, a 1-D array for sparray
        return vals if self._is_array else vals[None, :]

    def __setitem__(self, key, value):
        dense = self.toarray()
        if issparse(value):
            value = value.toarray()
        row, col = (key if isinstance(key, tuple) else (key, slice(None)))
        dense[row, col] = value
        new = _cls(self.format, self._is_array)(dense)
        # entries stored before stay stored (SciPy keeps explicit zeros it already had)
        self._set_self(new)

    def _swap(self, x):
        return x if self.format == 'csr' else (x[1], x[0])


def _is_scipy_sparse(x):
    mod = type(x).__module__
    if not mod.startswith('scipy.sparse'):
        return False
    import scipy.sparse
    return scipy.sparse.issparse(x)


def _normalize_int(i, n, what):
    i = int(i)
    if i < -n or i >= n:
        raise IndexError('{} index ({}) out of range'.format(what, i))
    return i + n if i < 0 else i


def _index_array(key, n):
    """A slice (kept), or a 1-D int64 cuarray array of in-range indices."""
    if isinstance(key, slice):
        return key
    if _util.isintlike(key):
        return xp.asarray([_normalize_int(key, n, 'index')], dtype=numpy.int64)
    if isinstance(key, (list, numpy.ndarray)):
        key = xp.asarray(numpy.asarray(key))
    elif not _util.isdense(key):
        raise IndexError('invalid index')
    if key.dtype == numpy.bool_:
        if key.ndim != 1 or key.size != n:
            raise IndexError('boolean index did not match indexed array along dimension; dimension is {} but '
                             'corresponding boolean dimension is {}'.format(n, key.size))
        return xp.flatnonzero(key).astype(numpy.int64)
    if key.dtype.kind not in 'iu':
        raise IndexError('arrays used as indices must be of integer (or boolean) type')
    key = key.astype(numpy.int64).ravel()
    if key.size:
        if bool(((key < -n) | (key >= n)).any()):
            raise IndexError('index out of range')
        key = xp.where(key < 0, key + n, key)
    return key


def _as_index_array(key, n):
    if isinstance(key, slice):
        return xp.arange(*key.indices(n), dtype=numpy.int64)
    return key


def _canonical_triplets(data, major, minor, n_major, n_minor):
    """Entries sorted by (major, minor) with duplicates summed: (data, major, minor)."""
    if data.size == 0:
        return data, major.astype(numpy.int64), minor
    if n_major * n_minor < 2 ** 62:
        keys = major.astype(numpy.int64) * n_minor + minor.astype(numpy.int64)
        order = xp.argsort(keys, kind='stable')
        keys = keys[order]
        first = xp.ones(keys.size, dtype=bool)
        first[1:] = keys[1:] != keys[:-1]
    else:
        order = xp.lexsort(xp.stack([minor.astype(numpy.int64), major.astype(numpy.int64)]))
        mj, mn = major[order], minor[order]
        first = xp.ones(mj.size, dtype=bool)
        first[1:] = (mj[1:] != mj[:-1]) | (mn[1:] != mn[:-1])
    group = xp.cumsum(first) - 1
    n = int(group[-1]) + 1
    sorted_data = data[order]
    if n == data.size:
        summed = sorted_data
    else:
        summed = _util.segment_sum(group, sorted_data, n, data.dtype)
    starts = xp.flatnonzero(first)
    return summed, major[order][starts].astype(numpy.int64), minor[order][starts]


def _spgemm_expand(a, b, is_array):
    """A @ B without cuSPARSE (int64-sized operands): every product a_ik * b_kj, then duplicates summed."""
    M, K = a.shape
    N = b.shape[1]
    arow = a._major_index().astype(numpy.int64)
    bcounts = xp.diff(b.indptr).astype(numpy.int64)
    counts = bcounts[a.indices]
    total = int(counts.sum())
    offsets = xp.cumsum(counts) - counts
    # One gather map from each product slot to its A entry serves every repeat below.
    src = _util.repeat_counts(xp.arange(counts.size, dtype=numpy.int64), counts, total)
    pos = (xp.arange(total, dtype=numpy.int64) - offsets[src] + b.indptr[a.indices].astype(numpy.int64)[src])
    row = arow[src]
    col = b.indices[pos].astype(numpy.int64)
    data = a.data[src] * b.data[pos]
    return _cls('coo', is_array)((data, (row, col)), shape=(M, N)).tocsr()


# Note [blocked products]: cuSPARSE's SpMV/SpMM work area (and the casts around it) may exceed what the pool can
# give under its limit. Rather than fail, the product is retried on blocks of rows of the stored CSR operand:
# each block is itself a CSR matrix (its indptr rebased to 0, its indices and data views of the originals), so
# only the block's work area is live at a time. For op 'N' a block fills its own rows of the output; for 'T'/'H'
# every block contributes to the whole output, so the first block writes and the rest accumulate (beta = 1).
# Block heights halve until one fits; a single row that still does not fit raises OutOfMemoryError.
def spmm_blocked(rows, cols, indptr, indices, data, x, out, op='N'):
    """out = op(A) @ x for the CSR arrays of A (rows x cols), in row blocks when one shot does not fit."""
    p = _util.prims()
    oom = _util.out_of_memory_error()
    if _FORCE_BLOCK_ROWS is None:
        try:
            p.spmm(rows, cols, indptr, indices, data, x, out, op, False)
            return
        except oom:
            if rows <= 1:
                raise
        height = max(1, rows // 2)
    else:
        height = max(1, int(_FORCE_BLOCK_ROWS))
    host_ptr = _util.to_host(indptr)
    r0 = 0
    first = True
    while r0 < rows:
        r1 = min(rows, r0 + height)
        s, e = int(host_ptr[r0]), int(host_ptr[r1])
        bptr = indptr[r0:r1 + 1] - indptr.dtype.type(s)
        bx = x if op == 'N' else x[r0:r1]
        bout = out[r0:r1] if op == 'N' else out
        try:
            p.spmm(r1 - r0, cols, bptr, indices[s:e], data[s:e], bx, bout, op, (op != 'N') and not first)
        except oom:
            if height == 1:
                raise
            height = max(1, height // 2)
            continue
        first = False
        r0 = r1
