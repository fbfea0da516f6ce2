"""Runs cuarray.scipy.{spatial,stats,interpolate} without a GPU: kernels compiled for the host, NumPy for cuarray.

Same scheme as _signal_host.py: every kernel is a grid-stride loop (the tiled distance kernel is compiled with
TILE=1, so one thread walks all tiles and __syncthreads is a no-op), launches run in order on one host thread,
and the modules' array calls go to NumPy through a namespace whose `ndarray` matches nothing.
"""
import contextlib

import numpy

from _signal_host import _HostKernel, _numpy_namespace, compiler  # NOQA

EXTRA = "#include <cmath>\nusing namespace std;\n#define __shared__ static\n#define __syncthreads()\n"


class _Kern(_HostKernel):
    def __init__(self, source, name):
        super().__init__(EXTRA + source, name)

    def __call__(self, grid, block, args, **kw):
        return super().__call__(grid, block, args)


def _ns():
    ns = _numpy_namespace()
    ns.asnumpy = numpy.asarray
    return ns


@contextlib.contextmanager
def host_modules():
    """Yields (spatial, stats, interpolate) with their device calls on the host."""
    import cuarray.scipy.spatial as spatial
    from cuarray.scipy.spatial import _kdtree, _kernels, distance
    mods = [distance, _kdtree]
    try:
        import cuarray.scipy.stats as stats
        from cuarray.scipy.stats import _stats
        mods.append(_stats)
    except ImportError:
        stats = None
    try:
        import cuarray.scipy.interpolate as interpolate
        from cuarray.scipy.interpolate import _kernels as ikern
        mods += list(interpolate._MODULES())
    except ImportError:
        interpolate = None
        ikern = None
    ns = _ns()
    saved = [(m, '_cp', m._cp) for m in mods]
    saved += [(_kernels, n, getattr(_kernels, n)) for n in ('dist_kernel', 'mahalanobis_kernel',
                                                            'ksmallest_kernel')]
    if ikern is not None:
        saved.append((ikern, 'kernel', ikern.kernel))
    try:
        for m in mods:
            m._cp = ns
        _kernels.dist_kernel = lambda metric: _Kern(_kernels.dist_source(metric, tile=1), 'ca_dist')
        _kernels.mahalanobis_kernel = lambda: _Kern(_kernels.mahalanobis_source(), 'ca_mahalanobis')
        _kernels.ksmallest_kernel = lambda: _Kern(_kernels.ksmallest_source(), 'ca_ksmallest')
        if ikern is not None:
            ikern.kernel = lambda key: _Kern(ikern.source(key), ikern.entry(key))
        yield spatial, stats, interpolate
    finally:
        for m, n, v in saved:
            setattr(m, n, v)
