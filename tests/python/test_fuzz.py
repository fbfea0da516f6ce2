"""Fuzz tests: cuarray against NumPy call by call, with hypothesis-generated cases (generators in _fuzz.py).

GPU part (marked ``gpu``): one test per function family; hypothesis (derandomized, no shrinking, no database)
draws the cases, a worker process runs each one with NumPy and cuarray (CUARRAY_CHECK_INDEX=1 set there), so a
crash fails the test naming the case instead of killing pytest. Every mismatch of a family is collected and
reported at once. ``CUARRAY_FUZZ_EXAMPLES`` sets the examples per family (default 100).

CPU part (no GPU needed, runs in CI): the harness against NumPy itself; argument checking of the creation
functions (their errors must come before any device use); broadcast_shapes; ufunc type resolution with dtype=
and Python ints beyond int64; ElementwiseKernel definitions and argument checks with NVRTC compiling the
generated source; RawKernel sources (valid or broken) through NVRTC; NumPy's dtype queries; and tools/fuzz.py
end to end (NumPy against itself, with injected worker crashes). ``CUARRAY_FUZZ_CPU_EXAMPLES`` scales them.

The standalone driver with more cases, crash bisection and a JSON report is tools/fuzz.py. A mismatch that is
filed and waiting for a fix can be parked in _fuzz.KNOWN_MISMATCHES (then reported as 'known', not failing).
"""
import os
import warnings

import numpy
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import cuarray as cp
import _fuzz

EXAMPLES = int(os.environ.get('CUARRAY_FUZZ_EXAMPLES', '100'))
CPU_EXAMPLES = int(os.environ.get('CUARRAY_FUZZ_CPU_EXAMPLES', '150'))


def _settings(n):
    # Fixed examples (derandomize), no shrinking (every mismatch is reported, not one minimal one), no database.
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck),
                    print_blob=False)


def _report(records, title, total, limit=30):
    unique = list({rec['desc']: rec for rec in records}.values())  # hypothesis may draw a case twice
    lines = ['{}: {} of {} cases do not match NumPy'.format(title, len(records), total)]
    for rec in unique[:limit]:
        lines.append(_fuzz.format_record(rec))
    if len(unique) > limit:
        lines.append('... and {} more'.format(len(unique) - limit))
    return '\n'.join(lines)


# ---------------------------------------------------------------------------------------------------------------
# GPU: every family against NumPy, in a worker process
# ---------------------------------------------------------------------------------------------------------------

@pytest.fixture(scope='module')
def fuzz_worker():
    w = _fuzz.Worker(timeout=120.0)
    yield w
    w.close()


@pytest.mark.gpu
@pytest.mark.parametrize('family', _fuzz.FAMILIES)
def test_family_matches_numpy(family, fuzz_worker):
    """Hypothesis-drawn calls of one family give NumPy's results or NumPy's exception classes (see _fuzz.compare);
    the failure message lists every mismatch with its call, NumPy's outcome and cuarray's."""
    bad = []
    count = [0]

    @_settings(EXAMPLES)
    @given(st.data())
    def run(data):
        case = _fuzz.generate(family, _fuzz.HypothesisSource(data))
        count[0] += 1
        case.cid = '{}#{}'.format(family, count[0])
        rec = fuzz_worker.run(case)
        if rec['outcome'] not in _fuzz.OK_OUTCOMES:
            bad.append(rec)

    run()
    assert count[0] > 0
    assert not bad, _report(bad, family, count[0])


# ---------------------------------------------------------------------------------------------------------------
# CPU: no device needed
# ---------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('family', _fuzz.FAMILIES)
def test_harness_agrees_with_numpy_itself(family):
    """The generators and the comparison, with NumPy on both sides: every case matches (or is skipped), so a
    mismatch the GPU tests report comes from cuarray, not from a nondeterministic case or a comparison bug."""
    bad = []
    count = [0]

    @_settings(max(20, CPU_EXAMPLES // 3))
    @given(st.data())
    def run(data):
        case = _fuzz.generate(family, _fuzz.HypothesisSource(data))
        count[0] += 1
        rec = _fuzz.compare(case, cu=numpy)
        if rec['outcome'] not in _fuzz.OK_OUTCOMES:
            bad.append(rec)

    run()
    assert not bad, _report(bad, family + ' (numpy against numpy)', count[0])


def _needs_upload(case):
    """Whether the case uploads an array (impossible without a device)."""
    return any(isinstance(v, _fuzz.Arr) and not v.host for v in _fuzz._leaves(case.args) +
               _fuzz._leaves(list(case.kwargs.values())))


def test_creation_argument_checks_match_numpy():
    """Creation functions with shapes, dtypes, orders, counts and fill values of every kind: where NumPy raises,
    cuarray raises a compatible exception before touching the device; without a GPU a call NumPy accepts stops at
    the first device use; with one, it gives NumPy's result."""
    no_device = not cp.is_available()
    bad = []
    count = [0]

    @_settings(CPU_EXAMPLES)
    @given(st.data())
    def run(data):
        case = _fuzz.generate('creation', _fuzz.HypothesisSource(data))
        if no_device and _needs_upload(case):
            return
        count[0] += 1
        rec = _fuzz.compare(case, cu=cp, no_device=no_device)
        if rec['outcome'] not in _fuzz.OK_OUTCOMES:
            bad.append(rec)

    run()
    assert count[0] > 0
    assert not bad, _report(bad, 'creation arguments', count[0])


def _shape_item(draw, negative):
    kind = draw(st.sampled_from(['tuple'] * 6 + ['int'] * 2))
    if kind == 'int':
        return draw(st.integers(-1 if negative else 0, 6))
    dims = draw(st.lists(st.sampled_from([0, 1, 1, 1, 2, 3, 3, 4] + ([-1] if negative else [])), max_size=4))
    return tuple(dims)


_ODD_SHAPES = [2.0, None, 'x', (2.0,), (2 ** 40,), (2 ** 63,), (2 ** 64,), [3, 1], numpy.int64(3),
               (numpy.int32(2), 1), (True, 2), (1, 2 ** 31)]


def test_broadcast_shapes_matches_numpy():
    bad = []

    @_settings(CPU_EXAMPLES * 2)
    @given(st.data())
    def run(data):
        # At most one kind of invalid item per call: NumPy's order of checks is not part of the contract.
        flaw = data.draw(st.sampled_from(['none'] * 6 + ['negative', 'odd', 'odd']))
        shapes = [_shape_item(data.draw, flaw == 'negative') for _ in range(data.draw(st.integers(0, 4)))]
        if flaw == 'odd':
            shapes.insert(data.draw(st.integers(0, len(shapes))), data.draw(st.sampled_from(_ODD_SHAPES)))
        case = _fuzz.Case('cpu', 'f:broadcast_shapes', shapes)
        rec = _fuzz.compare(case, cu=cp)
        if rec['outcome'] not in _fuzz.OK_OUTCOMES:
            bad.append(rec)

    run()
    assert not bad, _report(bad, 'broadcast_shapes', CPU_EXAMPLES * 2)


_UFUNCS = sorted(n for n in set(cp._core.ufunc_names()) if isinstance(getattr(numpy, n, None), numpy.ufunc)
                 and getattr(numpy, n).nin <= 2 and n not in ('isnat',))
_CHARS = '?bhilBHILefdFD'
_SCALARS = [0, 1, -1, 3, 200, 300, -129, 2 ** 31, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 70, -2 ** 63,
            -2 ** 63 - 1, -2 ** 70, 0.5, -2.0, 1e300, float('nan'), 1j, True, False, numpy.float32(2),
            numpy.int8(-3), numpy.uint64(7), numpy.float16(1), numpy.complex64(1j), numpy.bool_(False)]


def _resolution(name, operands, dtype):
    """NumPy's output dtypes for `operands` (a numpy.dtype stands for an array of ones of that dtype), or the
    exception type."""
    u = getattr(numpy, name)
    args = [numpy.ones(2, dtype=o) if isinstance(o, numpy.dtype) else o for o in operands]
    kw = {} if dtype is None else {'dtype': dtype}
    with warnings.catch_warnings(), numpy.errstate(all='ignore'):
        warnings.simplefilter('ignore')
        try:
            r = u(*args, **kw)
        except Exception as e:  # noqa: BLE001 - compared by class
            return type(e)
    return tuple(numpy.asarray(x).dtype for x in (r if isinstance(r, tuple) else (r,)))


def _ours(name, operands, dtype):
    try:
        return tuple(numpy.dtype(d) for d in cp._core.ufunc_resolve(name, list(operands), dtype=dtype)[2])
    except Exception as e:  # noqa: BLE001
        return type(e)


def test_ufunc_resolution_with_dtype_and_big_scalars_matches_numpy():
    """Ufunc loop resolution (no device needed) for random operands, Python and NumPy scalars of every size and
    an optional dtype=: the output dtypes or the exception class NumPy gives."""
    bad = []

    @_settings(CPU_EXAMPLES * 4)
    @given(st.data())
    def run(data):
        name = data.draw(st.sampled_from(_UFUNCS))
        nin = getattr(numpy, name).nin
        dtype = data.draw(st.sampled_from([None, None, None] + list(_CHARS)))
        # With dtype=, scalars that fit every type: one error at a time (NumPy's order of checks is not a contract).
        scalars = _SCALARS if dtype is None else [0, 1, 0.5, True, numpy.float32(2), numpy.int8(3)]
        ops = []
        for _ in range(nin):
            if data.draw(st.integers(0, 2)) == 0:
                ops.append(data.draw(st.sampled_from(scalars)))
            else:
                ops.append(numpy.dtype(data.draw(st.sampled_from(_CHARS))))
        if not any(isinstance(o, numpy.dtype) for o in ops):
            ops[0] = numpy.dtype(data.draw(st.sampled_from(_CHARS)))
        if name == 'ldexp' and not all(isinstance(o, numpy.dtype) for o in ops):
            return  # NumPy's ldexp takes Python ints as int64 without NEP 50's value check
        want = _resolution(name, ops, dtype)
        if name in ('power', 'pow') and want is ValueError:
            return  # integer ** negative: NumPy checks the value; a kernel cannot (README)
        got = _ours(name, ops, dtype)
        if isinstance(want, tuple):
            ok = got == want
        else:
            ok = isinstance(got, type) and issubclass(got, _fuzz.reference_exception(want))
        if not ok:
            bad.append({'family': 'ufunc resolution', 'case': None, 'desc': '{}({}{})'.format(
                name, ', '.join(_fuzz._fmt(o) for o in ops), '' if dtype is None else ", dtype='{}'".format(dtype)),
                'numpy': str(want), 'cuarray': str(got), 'detail': ''})

    run()
    assert not bad, _report(bad, 'ufunc resolution', CPU_EXAMPLES * 4)


# ---- ElementwiseKernel definitions: parameter parsing, argument checks, and the generated source compiles ------

_NAMES = ['x', 'y', 'z', 'a1', 'out', 'val', 'in0', 'acc']
_BAD_NAMES = ['i', 'n', '_x', 'int', 'for', '1x', 'x-y']
_TYPES = ['T', 'T', 'U', 'float32', 'int8', 'float64', 'uint16', 'bool', 'TT']


def _param_list(draw, count, used, outputs):
    """(param strings, the error parsing them raises or None, whether a name repeats) for `count` parameters."""
    params, err, dup = [], None, False
    for _ in range(count):
        kinds = ['ok'] * 8 + ['badname', 'dup', 'unsupported', 'garbage'] + ([] if outputs else ['raw'])
        kind = draw(st.sampled_from(kinds))
        ctype = draw(st.sampled_from(_TYPES))
        name = draw(st.sampled_from([n for n in _NAMES if n not in used] or ['q']))
        if kind == 'badname':
            name = draw(st.sampled_from(_BAD_NAMES))
            err = err or ValueError
        elif kind == 'dup' and used:
            name = draw(st.sampled_from(sorted(used)))
            dup = True  # found after every parameter parsed
        elif kind == 'unsupported':
            ctype = draw(st.sampled_from(['object', 'float128', 'datetime64']))
            err = err or TypeError
        elif kind == 'garbage':
            params.append(draw(st.sampled_from(['x', 'T', 'T x y', 'T, x', 'raw T'])))
            err = err or ValueError
            continue
        raw = 'raw ' if kind == 'raw' else ''
        used.add(name)
        params.append('{}{} {}'.format(raw, ctype, name))
    return params, err, dup


def test_elementwise_kernel_definitions_and_argument_checks():
    """ElementwiseKernel(in_params, out_params, ...): invalid parameter lists raise ValueError (or TypeError for a
    dtype cuarray does not support) when the kernel is made; a valid kernel checks its call's arguments (count,
    host arrays, other objects, placeholder dtypes) with TypeError before any device use, and the CUDA source it
    generates for consistent arguments compiles with NVRTC."""
    bad = []

    @_settings(max(25, CPU_EXAMPLES // 3))
    @given(st.data())
    def run(data):
        used = set()
        nin = data.draw(st.integers(1, 3))
        nout = data.draw(st.integers(1, 2))
        ins, err_in, dup_in = _param_list(data.draw, nin, used, False)
        outs, err_out, dup_out = _param_list(data.draw, nout, used, True)
        expected = err_in or err_out or (ValueError if dup_in or dup_out else None)
        ins_s, outs_s = ', '.join(ins), ', '.join(outs)
        # The operation assigns every output from the sum of the (non-raw) inputs.
        names = [p.split()[-1] for p in ins if len(p.split()) >= 2 and not p.startswith('raw')]
        onames = [p.split()[-1] for p in outs if len(p.split()) >= 2]
        expr = ' + '.join(names) or '0'
        op = ' '.join('{} = {};'.format(o, expr) for o in onames)
        desc = 'ElementwiseKernel({!r}, {!r}, {!r})'.format(ins_s, outs_s, op)
        k = _attempt(bad, desc, expected, lambda: cp.ElementwiseKernel(ins_s, outs_s, op, 'fuzz_kernel'))
        if k is _FAILED:
            return
        # Valid kernel: argument checks (no device needed).
        params = [p.split() for p in ins + outs]
        fixed = [p[-2] if p[-2] not in ('T', 'U', 'TT') else None for p in params]
        dt = numpy.dtype(data.draw(st.sampled_from(['float32', 'int16', 'float64', 'uint8', 'bool'])))
        good = [numpy.dtype(f) if f else dt for f in fixed][:nin]
        call = data.draw(st.sampled_from(['ok', 'ok', 'count', 'host', 'str']))
        args = list(good)
        want = None
        if call == 'count':
            args = args + [dt] * (nout + 1) if data.draw(st.booleans()) else args[:-1]
            want = TypeError
        elif call == 'host':
            args[0] = numpy.zeros(4, dtype=good[0])
            want = TypeError
        elif call == 'str':
            args[-1] = 'x'
            want = TypeError
        unbound = {p[-2] for p in params if p[-2] in ('T', 'U', 'TT')} - \
            {p[-2] for p in params[:nin] if p[-2] in ('T', 'U', 'TT')}
        if want is None and unbound:
            want = TypeError  # an output placeholder no input fixes
        cdesc = '{}._source({})'.format(desc, ', '.join(_fuzz._fmt(a) for a in args))
        src = _attempt(bad, cdesc, want, lambda: k._source(*args))
        if src is _FAILED:
            return
        try:
            size = cp._core.nvrtc_compile(src, 'fuzz_kernel.cu', 80, [])
        except Exception as e:  # noqa: BLE001
            bad.append(_rec(cdesc + ' (NVRTC)', None, e))
            return
        if not size > 0:
            bad.append(_rec(cdesc + ' (NVRTC)', None, 'empty cubin'))

    run()
    assert not bad, _report(bad, 'ElementwiseKernel definitions', max(25, CPU_EXAMPLES // 3))


_FAILED = object()


def _attempt(bad, desc, want, fn):
    """fn()'s value when it succeeds as expected (`want` None); else _FAILED, with a record in `bad` unless it
    raised the expected exception class `want`."""
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001
        if want is None or not isinstance(e, want):
            bad.append(_rec(desc, want, e))
        return _FAILED
    if want is not None:
        bad.append(_rec(desc, want, None))
        return _FAILED
    return value


def _rec(desc, expected, got):
    return {'family': 'kernels (CPU)', 'case': None, 'desc': desc,
            'numpy': 'expected ' + (expected.__name__ if expected else 'success'),
            'cuarray': 'success' if got is None else (got if isinstance(got, str) else '{}: {}'.format(
                type(got).__name__, _fuzz._short(str(got), 200))), 'detail': ''}


_RAW_OK = r'''
extern "C" __global__ void {name}(const {T}* x, {T}* y, long long n) {{
  long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
  if (i < n) y[i] = {expr};
}}
'''
_RAW_BREAK = [('undefined', lambda s: s.replace('y[i] =', 'y[i] = undefined_name +')),
              ('semicolon', lambda s: s.replace(';\n}', '\n}')),
              ('type', lambda s: s.replace('long long n', 'no_such_type n')),
              ('brace', lambda s: s.rstrip()[:-1])]


def test_raw_kernel_sources_compile_or_raise_compile_exception():
    """RawKernel/RawModule code goes through NVRTC without a device: valid sources give a cubin; broken ones and
    invalid options raise CompileException (never another error, never a crash) that names the source file."""
    bad = []

    @_settings(max(20, CPU_EXAMPLES // 5))
    @given(st.data())
    def run(data):
        T = data.draw(st.sampled_from(['float', 'double', 'int', 'unsigned char', 'long long', 'short']))
        expr = data.draw(st.sampled_from(['x[i] * 2', 'x[i] + x[i]', 'x[n - 1 - i]', 'x[i] > 0 ? x[i] : 0']))
        name = data.draw(st.sampled_from(['k', 'twice', 'fuzz_kernel']))
        code = _RAW_OK.format(name=name, T=T, expr=expr)
        broken = data.draw(st.sampled_from([None, None] + [b for b, _ in _RAW_BREAK] + ['option']))
        options = []
        if broken == 'option':
            options = [data.draw(st.sampled_from(['--bogus-option', '-arch=sm_1', '--std=c++99x']))]
        elif broken is not None:
            code = dict(_RAW_BREAK)[broken](code)
        desc = 'nvrtc_compile({} kernel, T={}, expr={!r}, options={})'.format(broken or 'valid', T, expr, options)
        try:
            size = cp._core.nvrtc_compile(code, 'fuzz_raw.cu', 80, options)
        except cp.cuda.compiler.CompileException as e:
            if broken is None:
                bad.append(_rec(desc, None, e))
            elif broken not in (None, 'option') and 'fuzz_raw.cu' not in str(e):
                bad.append(_rec(desc, cp.cuda.compiler.CompileException, 'message does not name the source: ' +
                                _fuzz._short(str(e), 200)))
            return
        except Exception as e:  # noqa: BLE001
            bad.append(_rec(desc, cp.cuda.compiler.CompileException, e))
            return
        if broken is not None:
            bad.append(_rec(desc, cp.cuda.compiler.CompileException, None))
        elif not size > 0:
            bad.append(_rec(desc, None, 'empty cubin'))

    run()
    assert not bad, _report(bad, 'RawKernel sources', max(20, CPU_EXAMPLES // 5))


_DTYPE_SPECS = ['int8', 'uint64', 'float16', 'f4', '<c16', 'bool', '?', 'l', 'Q', 'e', 'object', 'U3', 'M8[s]',
                'longdouble', 'V4', numpy.float32, int, float, complex, bool, 'int7', 'foo', None]


def test_dtype_queries_are_numpys():
    """cuarray.dtype, result_type, can_cast, promote_types and min_scalar_type answer as NumPy does (cuarray keeps
    NumPy's type system), errors included."""
    bad = []

    @_settings(CPU_EXAMPLES)
    @given(st.data())
    def run(data):
        a = data.draw(st.sampled_from(_DTYPE_SPECS))
        b = data.draw(st.sampled_from(_DTYPE_SPECS))
        v = data.draw(st.sampled_from([0, -1, 300, 2 ** 40, 2 ** 70, 1.5, 1e300, 1j, True]))
        for fn, args in (('dtype', [a]), ('result_type', [a, b]), ('promote_types', [a, b]),
                         ('can_cast', [a, b]), ('can_cast', [a, b, 'same_kind']), ('min_scalar_type', [v]),
                         ('result_type', [v, a])):
            rec = _fuzz.compare(_fuzz.Case('cpu', 'f:' + fn, args), cu=cp)
            if rec['outcome'] not in _fuzz.OK_OUTCOMES:
                bad.append(rec)

    run()
    assert not bad, _report(bad, 'dtype queries', CPU_EXAMPLES)


def test_driver_finds_crashing_cases_and_writes_its_report(tmp_path):
    """tools/fuzz.py end to end without a GPU (NumPy against itself), with two injected worker crashes: one case
    that crashes alone, one that crashes only after an earlier case of its batch. Both are reported as crashes
    naming the case (and the earlier one), the other cases match, and the closing line has the promised form."""
    import json
    import re
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, CUARRAY_FUZZ_TEST_CRASH='3:4:getitem,3:6:takeput>3:10:random')
    r = subprocess.run([sys.executable, os.path.join(root, 'tools', 'fuzz.py'), '--against-numpy', '--cases', '24',
                        '--seed', '3', '--batch', '12', '--jobs', '2', '--out', str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=300)
    assert r.returncode == 1, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r'fuzz: 24 cases, 2 crashes, 0 wrong results, 0 silent successes, 0 wrong exception '
                        r'types, 0 errors where NumPy succeeds \(per family: .*\)', last), last
    report = json.loads((tmp_path / 'fuzz_report.json').read_text())
    crashes = {m['case']: m for m in report['mismatches'] if m['outcome'] == 'crash'}
    assert set(crashes) == {'3:4:getitem', '3:10:random'}
    assert 'reproduced alone' in crashes['3:4:getitem']['detail']
    detail = crashes['3:10:random']['detail']
    assert 'after the 4 case(s) before it' in detail and '3:6:takeput' in detail
    assert report['cases_run'] == 24 and report['counts'].get('match', 0) + report['counts'].get('skip', 0) == 22
    assert (tmp_path / 'fuzz_summary.txt').read_text().strip().splitlines()[-1] == last
