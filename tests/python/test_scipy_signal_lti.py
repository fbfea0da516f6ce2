"""cuarray.scipy.signal's LTI systems, time/frequency responses, conversions, pole placement and partial fractions
against scipy.signal.

Each case runs on the GPU (marked gpu) and, without a GPU, through the host emulation (NumPy in place of cuarray:
_signal_host_spectral.py, extended here to the LTI modules).
"""
import contextlib
import warnings

import numpy
import pytest
import scipy
import scipy.signal as ss

import cuarray as cp
import cuarray.scipy.signal as csig
from cuarray.scipy.signal import _lti, _lti_conversion, _place_poles, _residues

from _signal_host import _numpy_namespace, compiler
from _signal_host_spectral import host_signal_all

gpu = pytest.mark.gpu
needs_cxx = pytest.mark.skipif(compiler() is None, reason="no host C++ compiler")
RNG = numpy.random.default_rng(21)


@contextlib.contextmanager
def host_lti():
    mods = (_lti, _lti_conversion, _place_poles, _residues)
    saved = [(m, m._cp) for m in mods]
    try:
        ns = _numpy_namespace()
        for m in mods:
            m._cp = ns
        with host_signal_all() as sig:
            yield sig
    finally:
        for m, v in saved:
            m._cp = v


# -- systems used by the cases ---------------------------------------------------------------------------------
def _stable(n, m, p, seed, dt=None):
    r = numpy.random.default_rng(seed)
    A = r.standard_normal((n, n))
    if dt is None:
        A = A - (numpy.max(numpy.real(numpy.linalg.eigvals(A))) + 0.5) * numpy.eye(n)
    else:
        A = 0.9 * A / numpy.max(numpy.abs(numpy.linalg.eigvals(A)))
    return A, r.standard_normal((n, m)), r.standard_normal((p, n)), r.standard_normal((p, m))


SS1 = _stable(3, 1, 1, 1)
SS2 = _stable(4, 2, 3, 2)
DS1 = _stable(3, 1, 1, 3, dt=1)
DS2 = _stable(5, 2, 2, 4, dt=1)
DS8 = _stable(8, 1, 2, 5, dt=1)
TF = ([1., 3., 3.], [1., 2., 1., 0.5])
ZPK = ([-1., -2.], [-0.5 + 1j, -0.5 - 1j, -3.], 2.0)
DTF = ([0.5, -0.2], [1., -1.1, 0.3])
DZPK = ([0.3], [0.5, -0.4 + 0.2j, -0.4 - 0.2j], 1.5)


def _attrs(obj, names):
    return tuple(getattr(obj, n) for n in names)


def _cases():
    c = []
    # Conversions.
    c += [('tf2ss', lambda m, d: m.tf2ss(*TF), 1e-10),
          ('tf2ss-mimo', lambda m, d: m.tf2ss(numpy.array([[0., 1, 2], [1, 0, 3]]), [1., 4, 5]), 1e-10),
          ('tf2ss-static', lambda m, d: m.tf2ss([3.], [2.]), 1e-12),
          ('tf2ss-lead-zero', lambda m, d: m.tf2ss([0., 1., 2.], [1., 2., 3.]), 1e-12),
          ('tf2ss-int', lambda m, d: m.tf2ss([1, 2], [1, 3, 2]), 1e-12),
          ('ss2tf', lambda m, d: m.ss2tf(*(d(x) for x in SS1)), 1e-8),
          ('ss2tf-input1', lambda m, d: m.ss2tf(*SS2, input=1), 1e-8),
          ('ss2tf-complex', lambda m, d: m.ss2tf(SS1[0] + 1j * numpy.eye(3), *SS1[1:]), 1e-8),
          ('ss2zpk', lambda m, d: m.ss2zpk(*SS1), 1e-7),
          ('zpk2ss', lambda m, d: m.zpk2ss(*ZPK), 1e-10),
          ('abcd_normalize', lambda m, d: m.abcd_normalize(SS2[0], SS2[1], SS2[2]), 0),
          ('abcd_normalize-D', lambda m, d: m.abcd_normalize(B=[[1.], [2.]], D=[[3.]]), 0),
          ('abcd_normalize-int', lambda m, d: m.abcd_normalize([[1, 2], [3, 4]], [[1], [0]], [[0, 1]], [[0]]), 0)]
    for meth in ('zoh', 'foh', 'impulse', 'bilinear', 'tustin', 'euler', 'forward_diff', 'backward_diff'):
        sysc = SS2 if meth != 'impulse' else (SS2[0], SS2[1], SS2[2], numpy.zeros((3, 2)))
        c.append((f'cont2discrete-ss-{meth}', lambda m, d, me=meth, s=sysc: m.cont2discrete(s, 0.1, me), 1e-9))
        if meth != 'impulse':
            c.append((f'cont2discrete-tf-{meth}', lambda m, d, me=meth: m.cont2discrete(TF, 0.05, me), 1e-8))
            c.append((f'cont2discrete-zpk-{meth}', lambda m, d, me=meth: m.cont2discrete(ZPK, 0.05, me), 1e-8))
    for a in (0.0, 0.3, 1.0):
        c.append((f'cont2discrete-gbt-{a}', lambda m, d, a=a: m.cont2discrete(SS1, 0.2, 'gbt', alpha=a), 1e-9))
    c.append(('cont2discrete-zoh-bigdt', lambda m, d: m.cont2discrete(SS2, 7.5), 1e-9))

    # System objects: properties and conversions.
    c += [('TransferFunction', lambda m, d: _attrs(m.TransferFunction(*TF), ('num', 'den', 'inputs', 'outputs',
                                                                               'dt')), 1e-12),
          ('TransferFunction-poles', lambda m, d: _attrs(m.TransferFunction(*TF), ('poles', 'zeros')), 1e-8),
          ('TransferFunction-to_ss', lambda m, d: _attrs(m.TransferFunction(*TF).to_ss(), 'ABCD'), 1e-10),
          ('TransferFunction-to_zpk', lambda m, d: _attrs(m.TransferFunction(*TF).to_zpk(),
                                                          ('zeros', 'poles', 'gain')), 1e-8),
          ('TransferFunction-dt', lambda m, d: _attrs(m.TransferFunction(*DTF, dt=0.1), ('num', 'den', 'dt')),
           1e-12),
          ('ZerosPolesGain', lambda m, d: _attrs(m.ZerosPolesGain(*ZPK).to_tf(), ('num', 'den')), 1e-10),
          ('ZerosPolesGain-to_ss', lambda m, d: _attrs(m.ZerosPolesGain(*ZPK).to_ss(), 'ABCD'), 1e-10),
          ('StateSpace', lambda m, d: _attrs(m.StateSpace(*SS2), ('A', 'B', 'C', 'D', 'inputs', 'outputs')), 0),
          ('StateSpace-to_tf', lambda m, d: _attrs(m.StateSpace(*SS2).to_tf(input=1), ('num', 'den')), 1e-8),
          ('StateSpace-to_zpk', lambda m, d: _attrs(m.StateSpace(*SS1).to_zpk(), ('zeros', 'poles', 'gain')),
           1e-7),
          ('StateSpace-from-tf', lambda m, d: _attrs(m.StateSpace(m.lti(*TF)), 'ABCD'), 1e-10),
          ('lti-tf', lambda m, d: _attrs(m.lti(*TF), ('num', 'den')), 1e-12),
          ('lti-zpk', lambda m, d: _attrs(m.lti(*ZPK), ('zeros', 'poles', 'gain')), 1e-12),
          ('lti-ss', lambda m, d: _attrs(m.lti(*SS1), 'ABCD'), 0),
          ('dlti-ss', lambda m, d: _attrs(m.dlti(*DS1, dt=0.5), ('A', 'dt')), 0),
          ('dlti-default-dt', lambda m, d: m.dlti(*DTF).dt, 0),
          ('to_discrete-tf', lambda m, d: _attrs(m.lti(*TF).to_discrete(0.1), ('num', 'den', 'dt')), 1e-8),
          ('to_discrete-zpk', lambda m, d: _attrs(m.lti(*ZPK).to_discrete(0.1, 'bilinear'),
                                                  ('zeros', 'poles', 'gain', 'dt')), 1e-8),
          ('to_discrete-ss', lambda m, d: _attrs(m.lti(*SS2).to_discrete(0.1, 'foh'), 'ABCD'), 1e-9)]
    # StateSpace arithmetic: series (4 states, 2 in, 3 out after 2 states, 1 in, 2 out), parallel, gains.
    o_ser, o_par = _stable(2, 1, 2, 9), _stable(2, 2, 3, 10)
    ops = [('mul', lambda m, a: a * m.StateSpace(*o_ser)), ('add', lambda m, a: a + m.StateSpace(*o_par)),
           ('sub', lambda m, a: a - m.StateSpace(*o_par)), ('neg', lambda m, a: -a),
           ('mul-scalar', lambda m, a: a * 2.5), ('rmul-scalar', lambda m, a: 2.5 * a),
           ('rmul-array', lambda m, a: numpy.array([[1., 2, 0], [0, 1, 3]]) * a),
           ('mul-array', lambda m, a: a * numpy.array([[1., 2], [0, 1]])), ('div', lambda m, a: a / 4),
           ('add-array', lambda m, a: a + numpy.ones((3, 2))), ('radd', lambda m, a: numpy.ones((3, 2)) + a),
           ('rsub', lambda m, a: 1.0 - a[0] if isinstance(a, tuple) else numpy.ones((3, 2)) - a),
           ('int-mul', lambda m, a: a * 3)]
    for name, op in ops:
        c.append((f'StateSpace-{name}', lambda m, d, op=op: _attrs(op(m, m.StateSpace(*SS2)), 'ABCD'), 1e-12))
    c.append(('StateSpace-mul-discrete', lambda m, d: _attrs(
        m.StateSpace(*DS1, dt=0.1) * m.StateSpace(*DS1, dt=0.1), ('A', 'B', 'C', 'D', 'dt')), 1e-12))

    # Continuous-time responses.
    T = numpy.linspace(0, 5, 301)
    U1 = numpy.sin(3 * T) + 0.3 * RNG.standard_normal(T.size)
    U2 = numpy.stack([numpy.cos(T), numpy.sign(numpy.sin(2 * T))], axis=1)
    for interp in (True, False):
        c.append((f'lsim-{interp}', lambda m, d, i=interp: m.lsim(SS1, d(U1), d(T), interp=i), 1e-8))
        c.append((f'lsim-mimo-{interp}', lambda m, d, i=interp: m.lsim(SS2, d(U2), d(T), X0=numpy.arange(4.),
                                                                         interp=i), 1e-8))
        c.append((f'lsim-tf-{interp}', lambda m, d, i=interp: m.lsim(m.lti(*TF), d(U1), d(T), interp=i), 1e-8))
    c += [('lsim-T0', lambda m, d: m.lsim(SS1, d(U1), d(T + 0.5), X0=[1., 2., 3.]), 1e-8),
          ('lsim-noinput', lambda m, d: m.lsim(SS2, None, d(T), X0=[1., 0., -1., 2.]), 1e-8),
          ('lsim-zero', lambda m, d: m.lsim(SS1, 0., d(T), X0=[1., 0., 0.]), 1e-8),
          ('lsim-one-step', lambda m, d: m.lsim(SS1, d(numpy.array([2.0])), d(numpy.array([0.])), X0=[1., 1, 1]),
           1e-10),
          ('lsim-complex-A', lambda m, d: m.lsim((SS1[0] + 0.5j * numpy.eye(3), *SS1[1:]), d(U1), d(T)), 1e-8),
          ('lsim-long', lambda m, d: m.lsim(m.lti(*ZPK), d(numpy.sin(numpy.arange(20000) * 0.01)),
                                            d(numpy.arange(20000) * 0.001)), 1e-8),
          ('impulse', lambda m, d: m.impulse(SS1), 1e-8),
          ('impulse-tf', lambda m, d: m.impulse(TF, N=50), 1e-8),
          ('impulse-T-X0', lambda m, d: m.impulse(m.lti(*ZPK), X0=[[0.1], [0.2], [0.3]], T=d(T)), 1e-8),
          ('step', lambda m, d: m.step(SS1), 1e-8),
          ('step-tf', lambda m, d: m.step(m.lti(*TF), T=d(T)), 1e-8),
          ('step-zpk-N', lambda m, d: m.step(ZPK, N=40), 1e-8),
          ('lti.output', lambda m, d: m.lti(*TF).output(d(U1), d(T)), 1e-8),
          ('lti.impulse', lambda m, d: m.lti(*TF).impulse(), 1e-8),
          ('lti.step', lambda m, d: m.lti(*SS1).step(N=30), 1e-8),
          ('freqresp-tf', lambda m, d: m.freqresp(TF), 1e-8),
          ('freqresp-zpk', lambda m, d: m.freqresp(m.lti(*ZPK), w=d(numpy.logspace(-2, 2, 50))), 1e-8),
          ('freqresp-ss', lambda m, d: m.freqresp(SS1, n=64), 1e-7),
          ('bode-tf', lambda m, d: m.bode(TF), 1e-8),
          ('bode-zpk', lambda m, d: m.bode(m.lti(*ZPK), n=70), 1e-8),
          ('bode-w', lambda m, d: m.lti(*TF).bode(w=d(numpy.logspace(-1, 1, 20))), 1e-8),
          ('lti.freqresp', lambda m, d: m.lti(*ZPK).freqresp(n=33), 1e-8)]

    # Discrete-time responses.
    u1 = RNG.standard_normal(500)
    u2 = RNG.standard_normal((700, 2))
    t_off = numpy.sort(RNG.uniform(0.2, 20, 50))
    c += [('dlsim-ss', lambda m, d: m.dlsim(m.dlti(*DS1), d(u1)), 1e-8),
          ('dlsim-ss-x0', lambda m, d: m.dlsim(m.dlti(*DS2, dt=0.5), d(u2), x0=numpy.arange(5.)), 1e-8),
          ('dlsim-tuple-ss', lambda m, d: m.dlsim(DS1 + (0.1,), d(u1)), 1e-8),
          ('dlsim-tf', lambda m, d: m.dlsim(DTF + (1,), d(u1)), 1e-8),
          ('dlsim-zpk', lambda m, d: m.dlsim(m.dlti(*DZPK), d(u1)), 1e-8),
          ('dlsim-t', lambda m, d: m.dlsim(m.dlti(*DS1, dt=0.1), d(u1[:100]),
                                            t=d(numpy.linspace(0, 12.3, 100))), 1e-8),
          ('dlsim-t-offset', lambda m, d: m.dlsim(m.dlti(*DS2, dt=0.25), d(u2[:50]),
                                                   t=t_off), 1e-8),
          ('dlsim-one', lambda m, d: m.dlsim(m.dlti(*DS1), d(u1[:1]), x0=[1., 2., 3.]), 1e-10),
          ('dlsim-int-input', lambda m, d: m.dlsim(m.dlti(*DS1), d(numpy.arange(40) % 3)), 1e-8),
          ('dlsim-complex-input', lambda m, d: m.dlsim(m.dlti(*DS1), d(u1 + 1j * u1[::-1])), 1e-8),
          ('dlsim-8-states', lambda m, d: m.dlsim(m.dlti(*DS8), d(u1)), 1e-8),
          ('dlsim-long', lambda m, d: m.dlsim(m.dlti(*DS8), d(numpy.sin(numpy.arange(70001) * 0.003))), 1e-8),
          ('dlsim-long-siso', lambda m, d: m.dlsim(DTF + (1,), d(numpy.cos(numpy.arange(100000) * 0.01))), 1e-8),
          ('dlsim-integrator', lambda m, d: m.dlsim(([1.], [1., -1.], 1), d(numpy.ones(5000))), 1e-10),
          ('dimpulse', lambda m, d: m.dimpulse(m.dlti(*DS2)), 1e-8),
          ('dimpulse-tf-n', lambda m, d: m.dimpulse(DTF + (0.1,), n=30), 1e-8),
          ('dimpulse-t-x0', lambda m, d: m.dimpulse(m.dlti(*DS1, dt=0.2), x0=[1., 0., 0.],
                                                    t=numpy.arange(25) * 0.2), 1e-8),
          ('dstep', lambda m, d: m.dstep(m.dlti(*DS2)), 1e-8),
          ('dstep-zpk', lambda m, d: m.dstep(DZPK + (0.5,), n=60), 1e-8),
          ('dlti.output', lambda m, d: m.dlti(*DTF).output(d(u1), None), 1e-8),
          ('dlti.impulse', lambda m, d: m.dlti(*DZPK).impulse(n=20), 1e-8),
          ('dlti.step', lambda m, d: m.dlti(*DTF, dt=0.3).step(), 1e-8),
          ('dfreqresp-tf', lambda m, d: m.dfreqresp(m.dlti(*DTF)), 1e-8),
          ('dfreqresp-zpk', lambda m, d: m.dfreqresp(m.dlti(*DZPK), n=100, whole=True), 1e-8),
          ('dfreqresp-ss', lambda m, d: m.dfreqresp(m.dlti(*DS1), w=d(numpy.linspace(0, 3, 40))), 1e-7),
          ('dfreqresp-tuple', lambda m, d: m.dfreqresp(DTF + (0.1,), n=50), 1e-8),
          ('dbode-tf', lambda m, d: m.dbode(m.dlti(*DTF, dt=0.1)), 1e-8),
          ('dbode-zpk', lambda m, d: m.dbode(DZPK + (0.5,), n=64), 1e-8),
          ('dlti.bode', lambda m, d: m.dlti(*DTF).bode(w=d(numpy.linspace(0.01, 3, 30))), 1e-8),
          ('dlti.freqresp', lambda m, d: m.dlti(*DZPK).freqresp(n=10), 1e-8)]

    # Pole placement.
    A = numpy.array([[1.380, -0.2077, 6.715, -5.676], [-0.5814, -4.290, 0, 0.6750],
                     [1.067, 4.273, -6.654, 5.893], [0.0480, 4.273, 1.343, -2.104]])
    B = numpy.array([[0, 5.679], [1.136, 1.136], [0, 0], [-3.146, 0]])
    for meth in ('YT', 'KNV0'):
        for pl in ([-0.5, -1., -2., -3.], [-0.2, -0.5, -5.0566, -8.6659]):
            c.append((f'place_poles-{meth}-{pl[0]}', lambda m, d, me=meth, pl=pl: _attrs(
                m.place_poles(A, B, pl, method=me), ('gain_matrix', 'computed_poles', 'requested_poles', 'X',
                                                     'nb_iter')), 1e-6))
    c += [('place_poles-YT-complex', lambda m, d: _attrs(m.place_poles(A, B, [-1 + 1j, -1 - 1j, -2., -3.]),
                                                         ('gain_matrix', 'computed_poles', 'X', 'rtol')), 1e-6),
          ('place_poles-YT-2pairs', lambda m, d: _attrs(m.place_poles(A, B, [-1 + 1j, -1 - 1j, -2 + 2j, -2 - 2j]),
                                                        ('gain_matrix', 'computed_poles')), 1e-6),
          ('place_poles-rank1', lambda m, d: _attrs(m.place_poles(A, B[:, :1], [-1., -2., -3., -4.]),
                                                    ('gain_matrix', 'computed_poles', 'X')), 1e-6),
          ('place_poles-full-rank', lambda m, d: _attrs(m.place_poles(A[:2, :2], numpy.eye(2), [-1 + 2j, -1 - 2j]),
                                                        ('gain_matrix', 'computed_poles', 'X')), 1e-10),
          ('place_poles-3-mixed', lambda m, d: _attrs(m.place_poles(
              _stable(3, 2, 1, 11)[0], _stable(3, 2, 1, 11)[1], [-1., -2 + 1j, -2 - 1j]),
              ('gain_matrix', 'computed_poles', 'X', 'nb_iter')), 1e-6),
          ('place_poles-5', lambda m, d: _attrs(m.place_poles(
              _stable(5, 2, 1, 7)[0], _stable(5, 2, 1, 7)[1], [-1., -2., -3., -4., -5.]),
              ('gain_matrix', 'computed_poles')), 1e-6),
          ('place_poles-5-complex', lambda m, d: _attrs(m.place_poles(
              _stable(5, 3, 1, 8)[0], _stable(5, 3, 1, 8)[1], [-1., -2 + 1j, -2 - 1j, -3 + .5j, -3 - .5j]),
              ('gain_matrix', 'computed_poles')), 1e-6)]

    # Partial fractions.
    for b, a in (([1., 2.], [1., 3., 2.]), ([2., 0, 1, 5], [1., 3., 2.]), ([1.], [1., -2., 1.]),
                 ([1., 0, 0, 1], [1., -3, 3, -1]), ([1j, 2.], [1., 0., 1.]), ([0., 0.], [1., 1.]),
                 ([1, 2], [1, 4, 5]), ([-4., 8], [1., 6, 8])):
        c.append((f'residue-{b}-{a}', lambda m, d, b=b, a=a: m.residue(d(numpy.array(b)), a), 1e-8))
        c.append((f'residuez-{b}-{a}', lambda m, d, b=b, a=a: m.residuez(b, d(numpy.array(a))), 1e-8))
    c.append(('residue-tol-max', lambda m, d: m.residue([1.], [1., -2.0001, 1.0001], tol=1e-2, rtype='max'), 1e-6))
    for r, p, k in (([1., 2.], [-1., -2.], []), ([1., 2., 3.], [1., 1., 2.], [1., 0.]),
                    ([1 + 1j, 1 - 1j], [1j, -1j], [2.]), ([0.5], [0.2], [0., 0., 1.])):
        c.append((f'invres-{r}-{p}', lambda m, d, r=r, p=p, k=k: m.invres(d(numpy.array(r)), p, k), 1e-10))
        c.append((f'invresz-{r}-{p}', lambda m, d, r=r, p=p, k=k: m.invresz(r, d(numpy.array(p)), k), 1e-10))
    c.append(('invres-rtype', lambda m, d: m.invres([1., 2.], [1., 1.0001], [], tol=1e-2, rtype='max'), 1e-10))
    for rt in ('min', 'max', 'avg', 'mean', 'minimum', 'maximum'):
        pr = [2., 2.0004, 1., 1.0005 + 1e-4j, 3.]
        c.append((f'unique_roots-{rt}', lambda m, d, rt=rt, pr=pr: m.unique_roots(d(numpy.array(pr)), 1e-3, rt),
                  1e-12))
    c.append(('unique_roots-default', lambda m, d: m.unique_roots([1., 1.01, 1.02, 3.], tol=0.015), 1e-12))
    return c


CASES = _cases()


def _host(v):
    if isinstance(v, cp.ndarray):
        return v.get()
    if isinstance(v, (tuple, list)):
        return type(v)(_host(x) for x in v)
    return v


def _compare(got, want, tol, tag):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (tag, type(got))
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, tol, f'{tag}[{i}]')
        return
    if want is None or isinstance(want, (bool, str)):
        assert got == want, (tag, got, want)
        return
    g, w = numpy.asarray(got), numpy.asarray(want)
    assert g.shape == w.shape, (tag, g.shape, w.shape)
    if w.dtype.kind in 'fc' and w.size:
        assert g.dtype.kind == w.dtype.kind or (w.dtype.kind == 'f' and g.dtype.kind == 'f'), (tag, g.dtype,
                                                                                              w.dtype)
        finite = numpy.isfinite(w)
        assert numpy.array_equal(finite, numpy.isfinite(g)), tag
        scale = max(1.0, float(numpy.max(numpy.abs(w[finite]))) if finite.any() else 1.0)
        numpy.testing.assert_allclose(g[finite], w[finite], rtol=tol, atol=tol * scale, err_msg=tag)
    elif w.size:
        numpy.testing.assert_array_equal(g, w, err_msg=tag)


def _run(m, fn, dev, tol, cid):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        want = fn(ss, lambda a: a)
        got = _host(fn(m, dev))
    _compare(got, want, tol, cid)


ERRORS = [
    ('lti-args', lambda m: m.lti([1.]), ValueError),
    ('dlti-args', lambda m: m.dlti([1.], [1.], [1.], [1.], [1.]), ValueError),
    ('LinearTimeInvariant', lambda m: m._lti.LinearTimeInvariant() if hasattr(m, '_lti')
     else m._ltisys.LinearTimeInvariant(), NotImplementedError),
    ('lti.to_discrete-base', lambda m: m.lti.to_discrete(m.lti([1.], [1., 1.]), 0.1), NotImplementedError),
    ('tf2ss-improper', lambda m: m.tf2ss([1., 2., 3.], [1., 2.]), ValueError),
    ('ss2tf-input', lambda m: m.ss2tf(*SS1, input=1), ValueError),
    ('abcd-none', lambda m: m.abcd_normalize(), ValueError),
    ('abcd-p', lambda m: m.abcd_normalize(A=numpy.eye(2), C=numpy.ones((1, 2))), ValueError),
    ('abcd-q', lambda m: m.abcd_normalize(A=numpy.eye(2), B=numpy.ones((2, 1))), ValueError),
    ('abcd-shape', lambda m: m.abcd_normalize(numpy.eye(2), numpy.ones((3, 1)), numpy.ones((1, 2)),
                                              numpy.ones((1, 1))), ValueError),
    ('cont2discrete-method', lambda m: m.cont2discrete(SS1, 0.1, 'nope'), ValueError),
    ('cont2discrete-gbt-alpha', lambda m: m.cont2discrete(SS1, 0.1, 'gbt'), ValueError),
    ('cont2discrete-gbt-range', lambda m: m.cont2discrete(SS1, 0.1, 'gbt', alpha=1.5), ValueError),
    ('cont2discrete-impulse-D', lambda m: m.cont2discrete(SS1, 0.1, 'impulse'), ValueError),
    ('cont2discrete-len', lambda m: m.cont2discrete(([1.],), 0.1), ValueError),
    ('lsim-dlti', lambda m: m.lsim(m.dlti(*DTF), [1., 2.], [0., 1.]), AttributeError),
    ('lsim-T-2d', lambda m: m.lsim(SS1, numpy.ones((2, 2)), numpy.ones((2, 2))), ValueError),
    ('lsim-T-neg', lambda m: m.lsim(SS1, numpy.ones(3), [-1., 0., 1.]), ValueError),
    ('lsim-uneven', lambda m: m.lsim(SS1, numpy.ones(3), [0., 1., 3.]), ValueError),
    ('lsim-U-rows', lambda m: m.lsim(SS1, numpy.ones(4), [0., 1., 2.]), ValueError),
    ('lsim-U-cols', lambda m: m.lsim(SS1, numpy.ones((3, 2)), [0., 1., 2.]), ValueError),
    ('impulse-dlti', lambda m: m.impulse(m.dlti(*DTF)), AttributeError),
    ('step-dlti', lambda m: m.step(m.dlti(*DTF)), AttributeError),
    ('freqresp-dlti', lambda m: m.freqresp(m.dlti(*DTF)), AttributeError),
    ('freqresp-mimo', lambda m: m.freqresp(SS2), ValueError),
    ('dlsim-lti', lambda m: m.dlsim(m.lti(*TF), [1., 2.]), AttributeError),
    ('dlsim-t-shape', lambda m: m.dlsim(m.dlti(*DS1), numpy.ones(5), t=numpy.arange(4.)), ValueError),
    ('dlsim-x0', lambda m: m.dlsim(m.dlti(*DS1), numpy.ones(5), x0=[1., 2.]), ValueError),
    ('dimpulse-lti', lambda m: m.dimpulse(m.lti(*TF)), AttributeError),
    ('dstep-lti', lambda m: m.dstep(m.lti(*TF)), AttributeError),
    ('dfreqresp-lti', lambda m: m.dfreqresp(m.lti(*TF)), AttributeError),
    ('dfreqresp-mimo', lambda m: m.dfreqresp(m.dlti(*DS2)), ValueError),
    ('ss-add-dt', lambda m: m.StateSpace(*DS1, dt=0.1) + m.StateSpace(*DS1, dt=0.2), TypeError),
    ('ss-add-kind', lambda m: m.StateSpace(*SS1) + m.StateSpace(*DS1, dt=0.2), TypeError),
    ('ss-mul-dt', lambda m: m.StateSpace(*DS1, dt=0.1) * m.StateSpace(*DS1, dt=0.2), TypeError),
    ('ss-add-shape', lambda m: m.StateSpace(*SS1) + numpy.ones((2, 2)), ValueError),
    ('ss-div-array', lambda m: m.StateSpace(*SS1) / numpy.ones(2), ValueError),
    ('ss-div-ss', lambda m: m.StateSpace(*SS1) / m.StateSpace(*SS1), TypeError),
    ('ss-add-str', lambda m: m.StateSpace(*SS1) + 'x', TypeError),
    ('place_poles-count', lambda m: m.place_poles(numpy.eye(3), numpy.ones((3, 2)), [-1., -2.]), ValueError),
    ('place_poles-many', lambda m: m.place_poles(numpy.eye(2), numpy.ones((2, 1)), [-1., -2., -3.]), ValueError),
    ('place_poles-conj', lambda m: m.place_poles(numpy.eye(2), numpy.eye(2), [-1 + 1j, -2.]), ValueError),
    ('place_poles-method', lambda m: m.place_poles(numpy.eye(2), numpy.eye(2), [-1., -2.], method='x'), ValueError),
    ('place_poles-knv0-complex', lambda m: m.place_poles(numpy.eye(2), numpy.eye(2), [-1 + 1j, -1 - 1j],
                                                         method='KNV0'), ValueError),
    ('place_poles-maxiter', lambda m: m.place_poles(numpy.eye(2), numpy.eye(2), [-1., -2.], maxiter=0), ValueError),
    ('place_poles-rtol', lambda m: m.place_poles(numpy.eye(2), numpy.eye(2), [-1., -2.], rtol=2), ValueError),
    ('place_poles-repeat', lambda m: m.place_poles(numpy.diag([1., 2, 3]), numpy.ones((3, 1)), [-1., -1., -2.]),
     ValueError),
    ('place_poles-square', lambda m: m.place_poles(numpy.ones((2, 3)), numpy.ones((2, 1)), [-1., -2.]),
     ValueError),
    ('place_poles-uncontrollable', lambda m: m.place_poles(numpy.diag([1., 2.]), numpy.array([[1.], [0.]]),
                                                           [-1., -2.]), ValueError),
    ('residue-zero', lambda m: m.residue([1.], [0.]), ValueError),
    ('residuez-zero', lambda m: m.residuez([1.], [0., 0.]), ValueError),
    ('residuez-lead', lambda m: m.residuez([1.], [0., 1.]), ValueError),
    ('residue-rtype', lambda m: m.residue([1.], [1., 2.], rtype='x'), ValueError),
    ('unique_roots-rtype', lambda m: m.unique_roots([1., 2.], rtype='x'), ValueError),
    ('invres-rtype', lambda m: m.invres([1.], [1.], [], rtype='x'), ValueError),
]


def test_names_exported():
    for n in ('lti', 'dlti', 'StateSpace', 'TransferFunction', 'ZerosPolesGain', 'lsim', 'dlsim', 'impulse',
              'dimpulse', 'step', 'dstep', 'bode', 'dbode', 'freqresp', 'dfreqresp', 'abcd_normalize',
              'cont2discrete', 'place_poles', 'ss2tf', 'ss2zpk', 'tf2ss', 'zpk2ss', 'invres', 'invresz', 'residue',
              'residuez', 'unique_roots'):
        assert n in csig.__all__ and callable(getattr(csig, n)), n


def test_class_dispatch_without_device():
    # Constructors pick the continuous/discrete subclass from the arguments, as SciPy's do.
    with host_lti() as m:
        assert type(m.lti(*TF)).__name__ == 'TransferFunctionContinuous'
        assert type(m.dlti(*ZPK, dt=0.1)).__name__ == 'ZerosPolesGainDiscrete'
        assert type(m.StateSpace(*SS1, dt=0.1)).__name__ == 'StateSpaceDiscrete'
        assert isinstance(m.TransferFunction(m.StateSpace(*SS1)), m.TransferFunction)
        assert isinstance(m.lti(*SS1), m.lti) and not isinstance(m.lti(*SS1), m.dlti)
        s = m.TransferFunction(*TF)
        t = s.to_tf()
        t.num[0] = 99.0
        assert s.num[0] == 1.0          # to_tf copies
        assert 'TransferFunctionContinuous(' in repr(s)


def test_block_scan_matches_sequential_recurrence():
    # Note [state-space block scan], every recursion level: small block length, unstable and complex M.
    r = numpy.random.default_rng(3)
    for n, N, dtype in ((1, 1, float), (1, 2, float), (2, 7, float), (3, 300, complex), (4, 1000, float),
                        (0, 5, float), (1, 70000, float)):
        M = r.standard_normal((n, n)) * (0.5 if n > 2 else 1.05)
        if N == 70000:
            M = numpy.array([[0.999]])      # three recursion levels of blocks
        if dtype is complex:
            M = M + 0.3j * r.standard_normal((n, n))
        W = r.standard_normal((N - 1, n)).astype(dtype)
        x0 = r.standard_normal(n).astype(dtype)
        want = numpy.zeros((N, n), dtype)
        want[0] = x0
        for k in range(1, N):
            want[k] = want[k - 1] @ M + W[k - 1]
        with host_lti():
            got = _lti._scan(M.astype(dtype), W, x0, dtype)
        numpy.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9 * numpy.abs(want).max(initial=1))


def test_expm_matches_scipy():
    import scipy.linalg as sl
    r = numpy.random.default_rng(4)
    for scale in (1e-3, 0.1, 1, 5, 40):
        for n in (1, 3, 6):
            A = r.standard_normal((n, n)) * scale
            numpy.testing.assert_allclose(_lti_conversion._expm(A), sl.expm(A), rtol=1e-10,
                                          atol=1e-12 * numpy.abs(sl.expm(A)).max())
            Ac = A + 1j * r.standard_normal((n, n))
            numpy.testing.assert_allclose(_lti_conversion._expm(Ac), sl.expm(Ac), rtol=1e-10,
                                          atol=1e-12 * numpy.abs(sl.expm(Ac)).max())
    assert _lti_conversion._expm(numpy.zeros((0, 0))).shape == (0, 0)


# -- CPU: host emulation ---------------------------------------------------------------------------------------
@needs_cxx
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_host_emulation_matches_scipy(cid, fn, tol):
    with host_lti() as m:
        _run(m, fn, lambda a: a, tol, cid)


@needs_cxx
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_host_errors_match_scipy(eid, fn, exc):
    with pytest.raises(exc):
        fn(ss)
    with host_lti() as m, pytest.raises(exc):
        fn(m)


@needs_cxx
def test_host_place_poles_warns_like_scipy():
    A = numpy.array([[1.380, -0.2077, 6.715, -5.676], [-0.5814, -4.290, 0, 0.6750],
                     [1.067, 4.273, -6.654, 5.893], [0.0480, 4.273, 1.343, -2.104]])
    B = numpy.array([[0, 5.679], [1.136, 1.136], [0, 0], [-3.146, 0]])
    with pytest.warns(UserWarning, match='Convergence'):
        ss.place_poles(A, B, [-0.5, -1., -2., -3.], rtol=1e-12, maxiter=1)
    with host_lti() as m, pytest.warns(UserWarning, match='Convergence'):
        m.place_poles(A, B, [-0.5, -1., -2., -3.], rtol=1e-12, maxiter=1)


# SciPy 1.18 made abcd_normalize promote A, B, C, D (and the zero matrices it fills in) to one floating dtype: NumPy's
# promotion of the given ones with a weak float. cuarray follows that; with an older SciPy (each matrix kept its own
# dtype, fills were float64) the values are still compared and the dtypes checked against the rule.
SCIPY_PROMOTES_ABCD = tuple(int(v) for v in scipy.__version__.split('.')[:2]) >= (1, 18)
ABCD_DTYPES = [
    (([[1, 2], [3, 4]], [[1], [0]], [[0, 1]], [[0]]), numpy.float64),
    ((numpy.eye(2, dtype=numpy.float32), None, None, 2.5), numpy.float32),
    ((numpy.eye(2, dtype=numpy.float32), numpy.ones((2, 1)), None, 1), numpy.float64),
    ((numpy.eye(2, dtype=bool), None, numpy.ones((1, 2), numpy.complex64), 0), numpy.complex64),
    ((numpy.arange(4, dtype=numpy.int8).reshape(2, 2), numpy.ones((2, 1), numpy.float16), None, 0), numpy.float16),
    ((2, 3, 4, 5), numpy.float64),
]


def _check_abcd_dtype(m, dev, args, dtype):
    want = ss.abcd_normalize(*args)
    if SCIPY_PROMOTES_ABCD:
        assert [w.dtype for w in want] == [numpy.dtype(dtype)] * 4
    got = _host(m.abcd_normalize(*(dev(numpy.asarray(a)) if isinstance(a, numpy.ndarray) else a for a in args)))
    assert [g.dtype for g in got] == [numpy.dtype(dtype)] * 4
    for g, w in zip(got, want):
        numpy.testing.assert_array_equal(g, w)


@needs_cxx
@pytest.mark.parametrize('k', range(len(ABCD_DTYPES)))
def test_host_abcd_normalize_dtype(k):
    with host_lti() as m:
        _check_abcd_dtype(m, lambda a: a, *ABCD_DTYPES[k])


# -- GPU ------------------------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize('k', range(len(ABCD_DTYPES)))
def test_abcd_normalize_dtype(k):
    _check_abcd_dtype(csig, cp.asarray, *ABCD_DTYPES[k])


@gpu
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_matches_scipy(cid, fn, tol):
    _run(csig, fn, cp.asarray, tol, cid)


@gpu
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_match_scipy(eid, fn, exc):
    with pytest.raises(exc):
        fn(csig)


@gpu
def test_results_are_device_arrays():
    t, y, x = csig.dlsim(csig.dlti(*DS1), cp.asarray(numpy.ones(50)))
    assert all(isinstance(v, cp.ndarray) for v in (t, y, x))
    s = csig.lti(*TF)
    assert isinstance(s.num, cp.ndarray) and isinstance(s.to_ss().A, cp.ndarray)
    assert isinstance(csig.place_poles(numpy.eye(2), numpy.eye(2), [-1., -2.]).gain_matrix, cp.ndarray)


@gpu
def test_dlsim_long_float32_input():
    u = RNG.standard_normal(1 << 18).astype(numpy.float32)
    want = ss.dlsim(ss.dlti(*DS8), u)
    got = csig.dlsim(csig.dlti(*DS8), cp.asarray(u))
    for g, w in zip(got, want):
        assert g.dtype == numpy.float64
        numpy.testing.assert_allclose(g.get(), w, rtol=1e-8, atol=1e-8 * numpy.abs(w).max())
