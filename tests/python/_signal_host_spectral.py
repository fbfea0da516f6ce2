"""Host emulation (see _signal_host.py) extended to the spectral, peak, waveform and filter-design modules."""
import contextlib

import numpy

from _signal_host import _HostKernel, _numpy_namespace, host_signal


@contextlib.contextmanager
def host_signal_all(chunk=None):
    """cuarray.scipy.signal with every module's device calls on the host (NumPy and host-compiled kernels)."""
    from cuarray.scipy.signal import _peaks, _spectral, _waveforms, _filter_design
    ns = _numpy_namespace()
    mods = (_peaks, _spectral, _waveforms, _filter_design)
    saved = [(m, '_cp', m._cp) for m in mods]
    saved += [(m, '_fft', m._fft) for m in mods if hasattr(m, '_fft')]
    saved += [(_peaks, 'kernel', _peaks.kernel)]
    try:
        for m in mods:
            m._cp = ns
            if hasattr(m, '_fft'):
                m._fft = numpy.fft
        _peaks.kernel = lambda name: _HostKernel(_peaks.source(), name)
        with host_signal(chunk) as sig:
            yield sig
    finally:
        for m, n, v in saved:
            setattr(m, n, v)
