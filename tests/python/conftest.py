"""Pytest configuration: the ``gpu`` marker, GPU skipping and the pool leak check."""

import gc
import os

import pytest


def _cuarray_status():
    """(available, reason): whether GPU tests can run here."""
    try:
        import cuarray
    except Exception as e:  # the import tests report this as a failure
        return False, 'cuarray failed to import: {}: {}'.format(
            type(e).__name__, e)
    try:
        available = bool(cuarray.is_available())
    except Exception as e:
        return False, 'cuarray.is_available() raised {}: {}'.format(
            type(e).__name__, e)
    if not available:
        return False, 'no CUDA device'
    return True, ''


def pytest_configure(config):
    config.addinivalue_line(
        'markers', 'gpu: the test needs a CUDA device (skipped without one)')
    config.addinivalue_line(
        'markers',
        'no_leak_check: the test may leave memory in the default pool')


def pytest_collection_modifyitems(config, items):
    if not any(item.get_closest_marker('gpu') for item in items):
        return
    available, reason = _cuarray_status()
    if available:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if item.get_closest_marker('gpu') is not None:
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # Keep each phase's report on the item so fixtures can see whether the
    # test body failed (a failing test's traceback keeps its arrays alive, so
    # the leak check would only add noise).
    outcome = yield
    rep = outcome.get_result()
    setattr(item, '_cuarray_rep_' + rep.when, rep)


@pytest.fixture(autouse=True)
def check_pool_leak(request):
    """For ``gpu`` tests: the default pool's used bytes must return to the
    value they had before the test.

    A full ``gc.collect()`` is slow with thousands of collected tests, so it
    runs only when the cheap check finds more memory in use than before
    (reference cycles, e.g. through ``pytest.raises`` tracebacks, can keep
    arrays alive until the collector runs).
    """
    node = request.node
    # CUARRAY_NO_LEAK_CHECK=1: the sanitizer step of tools/gpu_check.sh, where memory checks are the
    # sanitizer's and the pool's figures are not compared.
    if (os.environ.get('CUARRAY_NO_LEAK_CHECK') == '1'
            or node.get_closest_marker('gpu') is None
            or node.get_closest_marker('no_leak_check') is not None):
        yield
        return
    import cuarray
    cuarray.cuda.Device().synchronize()
    pool = cuarray.get_default_memory_pool()
    before = pool.used_bytes()
    yield
    rep = getattr(node, '_cuarray_rep_call', None)
    if rep is not None and not rep.passed:
        return
    after = pool.used_bytes()
    if after > before:
        gc.collect()
        cuarray.cuda.Device().synchronize()
        after = pool.used_bytes()
    if after > before:
        pytest.fail(
            'device memory leak: the default memory pool uses {} bytes more '
            'after the test than before ({} -> {} bytes)'.format(
                after - before, before, after), pytrace=False)
