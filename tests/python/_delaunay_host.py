"""Runs cuarray.scipy.spatial.Delaunay and the triangulation interpolators without a GPU: their kernels compiled
for the host, NumPy in place of cuarray (the scheme of _scipy_extra_host.py, which this extends)."""
import contextlib

from _scipy_extra_host import _Kern, _ns, host_modules


@contextlib.contextmanager
def host_delaunay():
    """Yields (spatial, interpolate) with Delaunay, LinearNDInterpolator and CloughTocher2DInterpolator on the
    host."""
    from cuarray.scipy.interpolate import _ndinterp
    from cuarray.scipy.spatial import _delaunay, _delaunay_kernels
    ns = _ns()
    saved = [(m, '_cp', m._cp) for m in (_delaunay, _ndinterp)]
    saved.append((_delaunay_kernels, 'kernel', _delaunay_kernels.kernel))
    with host_modules() as (spatial, _, interpolate):
        try:
            for m in (_delaunay, _ndinterp):
                m._cp = ns
            _delaunay_kernels.kernel = lambda name: _Kern(_delaunay_kernels.source(), name)
            yield spatial, interpolate
        finally:
            for m, n, v in saved:
                setattr(m, n, v)
