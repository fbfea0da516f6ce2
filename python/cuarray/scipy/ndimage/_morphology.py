"""cuarray.scipy.ndimage morphology: structuring elements, binary and grey morphology, Euclidean distance transform."""
import operator
import warnings

import numpy

import cuarray as _cp
from cuarray.scipy.ndimage import _filters, _morph_kernels, _util

_THREADS = 256


def _is_array(x):
    return isinstance(x, _util._core.ndarray)


def _blocks(n):
    return min((n + _THREADS - 1) // _THREADS, 1 << 30)


def _null():
    return numpy.uint64(0)


def _i64(*vals):
    return [numpy.int64(v) for v in vals]


def _reverse(a):
    return a[(slice(None, None, -1),) * a.ndim]


# -- structuring elements --------------------------------------------------------------------------------
def _host_structure(rank, connectivity):
    if connectivity < 1:
        connectivity = 1
    if rank < 1:
        return numpy.array(True)
    dist = numpy.abs(numpy.indices((3,) * rank) - 1).sum(axis=0)
    return dist <= connectivity


def generate_binary_structure(rank, connectivity):
    """The 3 x ... x 3 structure of elements within ``connectivity`` city-block steps of the centre
    (scipy.ndimage.generate_binary_structure); a device array, as CuPy's."""
    return _cp.asarray(_host_structure(rank, connectivity))


def iterate_structure(structure, iterations, origin=None):
    """``structure`` dilated by itself ``iterations - 1`` times (scipy.ndimage.iterate_structure)."""
    s = _util.host_array(structure)
    if iterations < 2:
        res = s.copy()
    else:
        ni = iterations - 1
        grown = numpy.zeros([n + ni * (n - 1) for n in s.shape], bool)
        grown[tuple(slice(ni * (n // 2), ni * (n // 2) + n) for n in s.shape)] = s != 0
        res = _host_binary(grown, s, ni, invert=True)
    res = _cp.asarray(res)
    if origin is None:
        return res
    return res, [iterations * o for o in _util.normalize_sequence(origin, s.ndim)]


def _host_binary(x, structure, iterations, invert):
    """Small host-side dilation (iterate_structure's): repeated shifts of a padded mask."""
    st = _reverse(numpy.asarray(structure, bool)) if invert else numpy.asarray(structure, bool)
    cur = x.copy()
    centre = numpy.array([n // 2 for n in st.shape])
    for _ in range(iterations):
        nxt = numpy.zeros_like(cur)
        for p in numpy.argwhere(st):
            off = p - centre
            src = tuple(slice(max(0, o), n + min(0, o)) for o, n in zip(off, cur.shape))
            dst = tuple(slice(max(0, -o), n - max(0, o)) for o, n in zip(off, cur.shape))
            nxt[dst] |= cur[src]
        cur = nxt
    return cur


# -- binary morphology -----------------------------------------------------------------------------------
def _mask_u8(x):
    """x != 0 as a C-contiguous boolean array (what the binary kernels read)."""
    return _cp.ascontiguousarray(x != 0) if x.dtype != numpy.bool_ else _cp.ascontiguousarray(x)


def _binary_erosion(input, structure, iterations, mask, output, border_value, origin, invert, brute_force, axes):
    try:
        iterations = operator.index(iterations)
    except TypeError as e:
        raise TypeError('iterations parameter should be an integer') from e
    input = _util.check_input(input)
    if input.dtype.kind == 'c':
        raise TypeError('Complex type not supported')
    axes = _util.check_axes(axes, input.ndim)
    if structure is None:
        structure = _host_structure(len(axes), 1)
    else:
        structure = _util.host_array(structure, dtype=bool)
    if input.ndim > len(axes):
        structure = _util.expand_footprint(input.ndim, axes, structure, 'structure')
    if structure.ndim != input.ndim:
        raise RuntimeError('structure and input must have same dimensionality')
    if structure.size < 1:
        raise RuntimeError('structure must not be empty')
    if mask is not None:
        shape = getattr(mask, 'shape', None)
        if shape is not None and tuple(shape) != input.shape:
            raise RuntimeError('mask and input must have equal sizes')
        # The mask is image data like the input: a host array is refused, as CuPy's kernels refuse it (after the
        # shape check, in CuPy's order), rather than copied to the device behind the caller's back.
        if not _is_array(mask):
            raise TypeError(f"mask must be a cuarray.ndarray, not {type(mask).__name__}")
    origins = _util.expand_origin(input.ndim, axes, _util.normalize_sequence(origin, len(axes)))
    cit = bool(structure[tuple(o + n // 2 for n, o in zip(structure.shape, origins))])
    if output is not None and _is_array(output):
        if output.dtype.kind == 'c':
            raise TypeError('Complex output type not supported')
        if output.shape != input.shape:
            raise RuntimeError('output shape not correct')
    res = _erode(input, structure, origins, iterations, mask, int(bool(border_value)), invert, cit)
    if output is not None and _is_array(output):
        output[...] = res
        return output
    return res


def _erode(input, structure, origins, iterations, mask, border, invert, cit):
    """Erosion (invert 0) or dilation (invert 1, structure already reflected), repeated ``iterations`` times or
    until nothing changes when iterations < 1; every pass reads the previous one's result."""
    shape = input.shape
    x = _mask_u8(input)
    if x.ndim == 0:
        x = x.reshape(1)
    if x.size == 0:
        return _cp.zeros(shape, bool)
    m = _mask_u8(mask).reshape(x.shape) if mask is not None else None
    pos = numpy.argwhere(structure)
    centre = numpy.array([n // 2 for n in structure.shape], numpy.int64) + numpy.array(origins, numpy.int64)
    offs = (pos - centre).astype(numpy.int32) if structure.ndim else numpy.zeros((len(pos), 1), numpy.int32)
    od = _cp.asarray(numpy.ascontiguousarray(offs)) if len(pos) else _null()
    kern = _morph_kernels.erode_kernel(x.ndim)
    flag = _cp.zeros(1, numpy.int32)
    k = 0
    cur = x
    while True:
        y = _cp.empty(x.shape, bool)
        flag[...] = 0
        kern((_blocks(x.size),), (_THREADS,),
             (cur, m if m is not None else _null(), y, od, numpy.int32(len(pos)), numpy.int32(border),
              numpy.int32(invert), numpy.int32(cit), flag, numpy.int64(x.size), *_i64(*x.shape)))
        cur = y
        k += 1
        if iterations >= 1 and k >= iterations:
            break
        # Converged passes change nothing more: stop (this also ends the iterations < 1 form).
        if not int(flag[0]):
            break
    return cur.reshape(shape)


def binary_erosion(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                   brute_force=False, *, axes=None):
    """Binary erosion (scipy.ndimage.binary_erosion)."""
    return _binary_erosion(input, structure, iterations, mask, output, border_value, origin, 0, brute_force, axes)


def _reflected(structure, origin, nax):
    if structure is None:
        structure = _host_structure(nax, 1)
    structure = _reverse(_util.host_array(structure))
    origin = list(_util.normalize_sequence(origin, nax))
    for k in range(len(origin)):
        origin[k] = -origin[k]
        if not structure.shape[k] & 1:
            origin[k] -= 1
    return structure, origin


def binary_dilation(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                    brute_force=False, *, axes=None):
    """Binary dilation (scipy.ndimage.binary_dilation)."""
    input = _util.check_input(input)
    axes = _util.check_axes(axes, input.ndim)
    structure, origin = _reflected(structure, origin, len(axes))
    return _binary_erosion(input, structure, iterations, mask, output, border_value, origin, 1, brute_force, axes)


def binary_opening(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """Binary opening: erosion then dilation (scipy.ndimage.binary_opening)."""
    input = _util.check_input(input)
    axes = _util.check_axes(axes, input.ndim)
    if structure is None:
        structure = _host_structure(len(axes), 1)
    tmp = binary_erosion(input, structure, iterations, mask, None, border_value, origin, brute_force, axes=axes)
    return binary_dilation(tmp, structure, iterations, mask, output, border_value, origin, brute_force, axes=axes)


def binary_closing(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """Binary closing: dilation then erosion (scipy.ndimage.binary_closing)."""
    input = _util.check_input(input)
    axes = _util.check_axes(axes, input.ndim)
    if structure is None:
        structure = _host_structure(len(axes), 1)
    tmp = binary_dilation(input, structure, iterations, mask, None, border_value, origin, brute_force, axes=axes)
    return binary_erosion(tmp, structure, iterations, mask, output, border_value, origin, brute_force, axes=axes)


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0, origin2=None, *,
                       axes=None):
    """Pixels where structure1 fits the foreground and structure2 the background
    (scipy.ndimage.binary_hit_or_miss)."""
    input = _util.check_input(input)
    axes = _util.check_axes(axes, input.ndim)
    if structure1 is None:
        structure1 = _host_structure(len(axes), 1)
    else:
        structure1 = _util.host_array(structure1)
    if structure2 is None:
        structure2 = numpy.logical_not(structure1)
    origin1 = _util.normalize_sequence(origin1, len(axes))
    origin2 = origin1 if origin2 is None else _util.normalize_sequence(origin2, len(axes))
    fit = _binary_erosion(input, structure1, 1, None, None, 0, origin1, 0, False, axes)
    miss = _binary_erosion(input, structure2, 1, None, None, 0, origin2, 1, False, axes)
    res = _cp.logical_and(fit, _cp.logical_not(miss))
    if output is not None and _is_array(output):
        output[...] = res
        return None
    return res


def binary_propagation(input, structure=None, mask=None, output=None, border_value=0, origin=0, *, axes=None):
    """Dilation repeated until nothing changes, within ``mask`` (scipy.ndimage.binary_propagation)."""
    return binary_dilation(input, structure, -1, mask, output, border_value, origin, axes=axes)


def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """Fill the background regions not connected to the border (scipy.ndimage.binary_fill_holes)."""
    input = _util.check_input(input)
    mask = _cp.logical_not(input)
    seed = _cp.zeros(mask.shape, bool)
    outside = binary_dilation(seed, structure, -1, mask, None, 1, origin, axes=axes)
    res = _cp.logical_not(outside)
    if output is not None and _is_array(output):
        output[...] = res
        return None
    return res


# -- grey morphology -------------------------------------------------------------------------------------
def _grey_structure(input, size, footprint, structure, output, mode, cval, origin, minimum, axes):
    """min of (input - structure) or max of (input + structure) over the footprint, in double (SciPy's)."""
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=4)
    structure = _util.host_array(structure, dtype=numpy.float64)
    footprint = numpy.ones(structure.shape, bool) if footprint is None else _util.host_array(footprint, bool)
    input = _util.check_input(input)
    if input.dtype.kind == 'c':
        raise TypeError("Complex type not supported")
    dt, out = _util.output_dtype(output, input)
    axes = _util.check_axes(axes, input.ndim)
    footprint = _util.expand_footprint(input.ndim, axes, footprint)
    origins = _util.expand_origin(input.ndim, axes, origin)
    fshape = [s for s in footprint.shape if s > 0]
    if len(fshape) != input.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) ({len(axes)})")
    for o, lenf in zip(origins, fshape):
        if lenf // 2 + o < 0 or lenf // 2 + o >= lenf:
            raise ValueError("invalid origin")
    if structure.ndim != len(axes):
        raise RuntimeError("structure array has incorrect shape")
    if len(axes) != input.ndim:
        structure = numpy.expand_dims(structure, tuple(ax for ax in range(input.ndim) if ax not in axes))
    if structure.shape != footprint.shape:
        raise RuntimeError("structure array has incorrect shape")
    if _util.is_sequence(mode):
        raise RuntimeError("A sequence of modes is not supported for non-separable footprints")
    m = _util.mode_code(mode)
    _util.check_dtype(dt)
    pos = numpy.argwhere(footprint)
    centre = numpy.array([s // 2 for s in footprint.shape], numpy.int64) + numpy.array(origins, numpy.int64)
    x = input if input.ndim else input.reshape(1)
    offs = (pos - centre).astype(numpy.int32) if input.ndim else numpy.zeros((len(pos), 1), numpy.int32)
    y = _cp.empty(x.shape, dt)
    if y.size:
        xs, strides = _filters._strided(x)
        kern = _morph_kernels.grey_kernel(xs.ndim, m, xs.dtype, dt, minimum)
        sv = _cp.asarray(numpy.ascontiguousarray(structure[footprint], numpy.float64))
        kern((_blocks(y.size),), (_THREADS,),
             (xs, y, sv, _cp.asarray(numpy.ascontiguousarray(offs)), numpy.int32(len(pos)), numpy.float64(cval),
              numpy.int64(y.size), *_i64(*xs.shape), *_i64(*strides)))
    return _filters._finish(y.reshape(input.shape), out)


def _grey(input, size, footprint, structure, output, mode, cval, origin, minimum, axes):
    if structure is None:
        return _filters._min_or_max_filter(input, size, footprint, output, mode, cval, origin, minimum, axes)
    return _grey_structure(input, size, footprint, structure, output, mode, cval, origin, minimum, axes)


def grey_erosion(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """Grey-scale erosion (scipy.ndimage.grey_erosion)."""
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    return _grey(input, size, footprint, structure, output, mode, cval, origin, True, axes)


def grey_dilation(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                  origin=0, *, axes=None):
    """Grey-scale dilation (scipy.ndimage.grey_dilation)."""
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    if structure is not None:
        structure = _reverse(_util.host_array(structure))
    if footprint is not None:
        footprint = _reverse(_util.host_array(footprint))
    input = _util.check_input(input)
    axes = _util.check_axes(axes, input.ndim)
    origin = list(_util.normalize_sequence(origin, len(axes)))
    for k in range(len(origin)):
        origin[k] = -origin[k]
        if footprint is not None:
            sz = footprint.shape[k]
        elif structure is not None:
            sz = structure.shape[k]
        elif numpy.isscalar(size):
            sz = size
        else:
            sz = size[k]
        if not sz & 1:
            origin[k] -= 1
    return _grey(input, size, footprint, structure, output, mode, cval, origin, False, axes)


def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)


def grey_opening(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """Grey-scale opening: erosion then dilation (scipy.ndimage.grey_opening)."""
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def grey_closing(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """Grey-scale closing: dilation then erosion (scipy.ndimage.grey_closing)."""
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                           cval=0.0, origin=0, *, axes=None):
    """Dilation minus erosion (scipy.ndimage.morphological_gradient)."""
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    if output is not None and _is_array(output):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin, axes=axes)
        return _cp.subtract(tmp, output, output)
    return tmp - grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                          cval=0.0, origin=0, *, axes=None):
    """Dilation plus erosion minus twice the input (scipy.ndimage.morphological_laplace)."""
    input = _util.check_input(input)
    tmp1 = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    if output is not None and _is_array(output):
        res = output
        grey_erosion(input, size, footprint, structure, res, mode, cval, origin, axes=axes)
    else:
        res = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    _cp.add(tmp1, res, res)
    _cp.subtract(res, input, res)
    _cp.subtract(res, input, res)
    return res


def _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, white):
    input = _util.check_input(input)
    _warn_size(size, footprint)
    first, second = (grey_erosion, grey_dilation) if white else (grey_dilation, grey_erosion)
    tmp = first(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    tmp = second(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)
    if input.dtype == numpy.bool_ and tmp.dtype == numpy.bool_:
        _cp.bitwise_xor(input, tmp, out=tmp)
    elif white:
        _cp.subtract(input, tmp, out=tmp)
    else:
        _cp.subtract(tmp, input, out=tmp)
    return tmp


def white_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """Input minus its grey opening (scipy.ndimage.white_tophat)."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, True)


def black_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """Grey closing minus the input (scipy.ndimage.black_tophat)."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, False)


# -- distance transform ----------------------------------------------------------------------------------
def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False, distances=None,
                           indices=None):
    """Exact Euclidean distance to the nearest zero element, and/or its indices
    (scipy.ndimage.distance_transform_edt; Note [morphology kernels])."""
    ft_inplace = indices is not None and _is_array(indices)
    dt_inplace = distances is not None and _is_array(distances)
    msgs = []
    if not return_distances and not return_indices:
        msgs.append('at least one of return_distances/return_indices must be True')
    if dt_inplace and not return_distances:
        msgs.append('return_distances must be True if distances is supplied')
    if ft_inplace and not return_indices:
        msgs.append('return_indices must be True if indices is supplied')
    if msgs:
        raise RuntimeError(', '.join(msgs))
    input = _util.check_input(input)
    fg = input != 0
    if fg.ndim == 0:
        fg = fg.reshape(1)
    fg = _cp.ascontiguousarray(fg)
    ndim, shape = fg.ndim, fg.shape
    samp = None
    if sampling is not None:
        samp = numpy.asarray(_util.normalize_sequence(sampling, ndim), dtype=numpy.float64)
    if ft_inplace:
        if indices.shape != (ndim,) + shape:
            raise RuntimeError('indices array has wrong shape')
        if indices.dtype != numpy.int32:
            raise RuntimeError('indices array must be int32')
    if dt_inplace:
        if distances.shape != shape:
            raise RuntimeError('distances array has wrong shape')
        if distances.dtype != numpy.float64:
            raise RuntimeError('distances array must be float64')
    total = fg.size
    dist = _cp.empty(shape, numpy.float64) if return_distances else None
    ind = _cp.empty((ndim,) + shape, numpy.int32) if return_indices else None
    if total:
        pass_k, final_k = _morph_kernels.edt_kernels(ndim)
        f = _cp.where(fg, numpy.inf, 0.0)
        ft = None
        vbuf = _cp.empty(total, numpy.int64)
        zbuf = _cp.empty(max(total // n * (n + 1) for n in shape), numpy.float64)
        for axis in range(ndim):
            nlines = total // shape[axis]
            g = _cp.empty(shape, numpy.float64)
            gt = _cp.empty(shape, numpy.int64)
            w = 1.0 if samp is None else float(samp[axis]) ** 2
            pass_k((_blocks(nlines),), (_THREADS,),
                   (f, ft if ft is not None else _null(), g, gt, vbuf, zbuf, numpy.int32(axis), numpy.float64(w),
                    numpy.int64(nlines), *_i64(*shape)))
            f, ft = g, gt
        sd = _cp.asarray(samp) if samp is not None else _null()
        final_k((_blocks(total),), (_THREADS,),
                (ft, dist if dist is not None else _null(), ind if ind is not None else _null(), sd,
                 numpy.int64(total), *_i64(*shape)))
    result = []
    if return_distances:
        if dt_inplace:
            distances[...] = dist
        else:
            result.append(dist)
    if return_indices:
        if ft_inplace:
            indices[...] = ind
        else:
            result.append(ind)
    if len(result) == 2:
        return tuple(result)
    if len(result) == 1:
        return result[0]
    return None
