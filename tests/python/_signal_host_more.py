"""Host emulation (see _signal_host.py) extended to the CZT, B-spline, FIR/IIR design, filter and wavelet modules."""
import contextlib
import importlib

import numpy

from _signal_host import _HostKernel, _numpy_namespace
from _signal_host_spectral import host_signal_all

MODULES = ('_czt', '_bsplines', '_filters_more', '_wavelets', 'windows._kbd', '_filter_design_more')


@contextlib.contextmanager
def host_signal_more():
    """cuarray.scipy.signal with the device calls of every module (old and new) on the host."""
    mods = [importlib.import_module('cuarray.scipy.signal.' + n) for n in MODULES]
    ns = _numpy_namespace()
    saved = [(m, '_cp', m._cp) for m in mods]
    saved += [(m, '_fft', m._fft) for m in mods if hasattr(m, '_fft')]
    saved += [(m, 'kernel', m.kernel) for m in mods if hasattr(m, 'kernel')]
    try:
        for m in mods:
            m._cp = ns
            if hasattr(m, '_fft'):
                m._fft = numpy.fft
            if hasattr(m, 'kernel'):
                m.kernel = lambda name, dt, m=m: _HostKernel(m.source(dt), name)
        with host_signal_all() as sig:
            yield sig
    finally:
        for m, n, v in saved:
            setattr(m, n, v)
