"""Tests that cuarray imports without a GPU and reports a missing GPU clearly."""

import os
import subprocess
import sys

import numpy
import pytest

import cuarray as cp


SCALAR_TYPE_NAMES = [
    'bool_', 'int8', 'int16', 'int32', 'int64',
    'uint8', 'uint16', 'uint32', 'uint64',
    'float16', 'float32', 'float64', 'complex64', 'complex128',
    'byte', 'ubyte', 'short', 'ushort', 'intc', 'uintc', 'intp', 'uintp',
    'longlong', 'ulonglong', 'int_', 'uint', 'half', 'single', 'double',
    'csingle', 'cdouble',
    'generic', 'number', 'integer', 'signedinteger', 'unsignedinteger',
    'inexact', 'floating', 'complexfloating',
] + (['bool'] if hasattr(numpy, 'bool') else [])


def _env():
    """Environment for a child Python that imports the same cuarray."""
    env = dict(os.environ)
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(
        cp.__file__)))
    env['PYTHONPATH'] = os.pathsep.join(
        [pkg_parent] + [p for p in [env.get('PYTHONPATH')] if p])
    return env


def _run_python(*args, code=None, extra_env=None, timeout=300):
    env = _env()
    if extra_env:
        env.update(extra_env)
    cmd = [sys.executable] + list(args)
    if code is not None:
        cmd += ['-c', code]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=env, timeout=timeout)


def test_import_in_fresh_process_succeeds():
    r = _run_python(code='import cuarray; print("ok")')
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith('ok')


def test_is_available_returns_bool():
    assert isinstance(cp.is_available(), bool)
    assert cp.is_available() is cp.is_available()


def test_first_device_use_without_gpu_raises_clear_error():
    if cp.is_available():
        a = cp.zeros(3)
        assert isinstance(a, cp.ndarray)
        return
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError) as ei:
        cp.zeros(3)
    assert 'no cuda device' in str(ei.value).lower()


def test_first_device_use_without_gpu_raises_in_fresh_process():
    code = '\n'.join([
        'import cuarray',
        'if cuarray.is_available():',
        '    print("available")',
        'else:',
        '    try:',
        '        cuarray.arange(3)',
        '    except cuarray.cuda.runtime.CUDARuntimeError as e:',
        '        print("raised:", e)',
    ])
    r = _run_python(code=code)
    assert r.returncode == 0, r.stderr
    out = r.stdout.lower()
    assert 'available' in out or ('raised:' in out and 'no cuda device' in out)


@pytest.mark.parametrize('name', SCALAR_TYPE_NAMES)
def test_scalar_types_are_numpy_types(name):
    assert getattr(cp, name) is getattr(numpy, name)


def test_bool_alias_and_dtype_are_numpy_objects():
    assert cp.bool_ is numpy.bool_
    assert cp.dtype is numpy.dtype


def test_constants_match_numpy():
    assert cp.newaxis is None
    assert cp.pi == numpy.pi and cp.e == numpy.e
    assert cp.inf == numpy.inf and numpy.isnan(cp.nan)


def test_ndarray_type_exists():
    assert isinstance(cp.ndarray, type)
    assert cp.ndarray is not numpy.ndarray


def test_get_array_module_of_numpy_is_numpy():
    assert cp.get_array_module(numpy.zeros(1)) is numpy
    assert cp.get_array_module(numpy.zeros(1), 1.0, [1]) is numpy
    assert cp.get_array_module() is numpy


def test_exception_classes_exist():
    assert issubclass(cp.cuda.runtime.CUDARuntimeError, RuntimeError)
    assert issubclass(cp.cuda.memory.OutOfMemoryError, MemoryError)


def test_get_device_count_does_not_crash():
    # In a child process, so that a crash is reported instead of killing
    # the test run.
    code = '\n'.join([
        'import cuarray',
        'try:',
        '    n = cuarray.cuda.runtime.getDeviceCount()',
        'except cuarray.cuda.runtime.CUDARuntimeError as e:',
        '    print("raised")',
        'else:',
        '    assert isinstance(n, int), type(n)',
        '    print("count", n)',
    ])
    r = _run_python(code=code)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.split()
    if cp.is_available():
        assert out[0] == 'count' and int(out[1]) >= 1
    else:
        assert out == ['raised'] or out == ['count', '0']


def test_get_device_count_in_process():
    try:
        n = cp.cuda.runtime.getDeviceCount()
    except cp.cuda.runtime.CUDARuntimeError:
        assert not cp.is_available()
        return
    assert isinstance(n, int)
    assert (n >= 1) == cp.is_available()


def test_python_m_cuarray_reports_device_state():
    r = _run_python('-m', 'cuarray')
    output = r.stdout + r.stderr
    if cp.is_available():
        assert r.returncode == 0, output
        assert output.strip(), 'python -m cuarray printed nothing'
    else:
        assert r.returncode != 0, output
        lower = output.lower()
        assert 'cuda' in lower or 'gpu' in lower, output
        assert 'Traceback' not in output, output
