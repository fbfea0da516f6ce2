"""Tests of cuarray.cuda.Device and the cuarray.cuda.runtime functions."""

import threading

import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

runtime = cp.cuda.runtime


def test_device_count_is_positive():
    n = runtime.getDeviceCount()
    assert isinstance(n, int) and n >= 1


def test_is_available_is_true_with_a_device():
    assert cp.is_available() is True
    assert cp.cuda.is_available() is True


def test_is_hip_is_false():
    assert runtime.is_hip is False


def test_get_device_and_set_device():
    assert runtime.getDevice() == 0
    runtime.setDevice(0)
    assert runtime.getDevice() == 0


def test_device_default_is_current_device():
    assert cp.cuda.Device().id == runtime.getDevice() == 0


def test_device_id_and_int():
    d = cp.cuda.Device(0)
    assert d.id == 0
    assert isinstance(d.id, int)
    assert int(d) == 0


def test_device_from_device_object():
    assert cp.cuda.Device(cp.cuda.Device(0)).id == 0


def test_device_equality():
    assert cp.cuda.Device(0) == cp.cuda.Device(0)
    assert not (cp.cuda.Device(0) != cp.cuda.Device(0))


def test_device_repr_mentions_id():
    assert '0' in repr(cp.cuda.Device(0))


def test_device_use_makes_it_current():
    cp.cuda.Device(0).use()
    assert cp.cuda.Device().id == 0


def test_device_context_manager_restores_current_device():
    with cp.cuda.Device(0) as d:
        assert isinstance(d, cp.cuda.Device)
        assert cp.cuda.Device().id == 0
        with cp.cuda.Device(0):
            assert runtime.getDevice() == 0
    assert cp.cuda.Device().id == 0


def test_device_synchronize_after_work():
    a = cp.arange(1000, dtype=cp.float32)
    a.fill(2)
    cp.cuda.Device(0).synchronize()
    cp.cuda.Device().synchronize()
    runtime.deviceSynchronize()
    assert float(a[999]) == 2.0


def test_compute_capability_string_matches_properties():
    cc = cp.cuda.Device(0).compute_capability
    assert isinstance(cc, str)
    assert cc.isdigit() and len(cc) >= 2
    props = runtime.getDeviceProperties(0)
    assert cc == '{}{}'.format(props['major'], props['minor'])
    assert int(cc) >= 35


def test_device_attributes_dict():
    attrs = cp.cuda.Device(0).attributes
    assert isinstance(attrs, dict) and len(attrs) > 10
    assert all(isinstance(k, str) for k in attrs)
    assert all(isinstance(v, int) for v in attrs.values())
    props = runtime.getDeviceProperties(0)
    assert attrs['MaxThreadsPerBlock'] == props['maxThreadsPerBlock'] >= 1
    assert attrs['MultiProcessorCount'] == props['multiProcessorCount']
    assert attrs['WarpSize'] == 32
    assert attrs['ComputeCapabilityMajor'] == props['major']


def test_device_mem_info():
    free, total = cp.cuda.Device(0).mem_info
    assert isinstance(free, int) and isinstance(total, int)
    assert 0 < free <= total
    assert total == runtime.getDeviceProperties(0)['totalGlobalMem']


def test_mem_info_reflects_large_allocation():
    # Allocating outside the pool (no pooling) lowers the free memory. Other test processes share the device and
    # may free memory between the two reads, so one of several tries must show the drop.
    old = cp.cuda.get_allocator()
    cp.cuda.set_allocator(None)
    size = 256 << 20
    try:
        drops = []
        for _ in range(10):
            free0, _ = cp.cuda.Device(0).mem_info
            a = cp.empty(size, dtype=cp.uint8)
            free1, _ = cp.cuda.Device(0).mem_info
            del a
            drops.append(free0 - free1)
            if free0 - free1 >= size - (4 << 20):
                break
        assert max(drops) >= size - (4 << 20), drops
    finally:
        cp.cuda.set_allocator(old)


def test_get_device_properties_keys():
    props = runtime.getDeviceProperties(0)
    assert isinstance(props, dict)
    assert isinstance(props['name'], bytes) and len(props['name']) > 0
    assert isinstance(props['totalGlobalMem'], int)
    assert props['totalGlobalMem'] > (1 << 30)
    assert props['major'] >= 3 and props['minor'] >= 0
    assert props['multiProcessorCount'] >= 1


def test_versions_are_positive_ints():
    rv = runtime.runtimeGetVersion()
    dv = runtime.driverGetVersion()
    assert isinstance(rv, int) and rv > 0
    assert isinstance(dv, int) and dv > 0
    # CUDA encodes 12.4 as 12040
    assert rv >= 11000 and dv >= 11000


def test_invalid_device_use_raises_and_keeps_current():
    with pytest.raises(runtime.CUDARuntimeError) as ei:
        cp.cuda.Device(1000).use()
    assert isinstance(ei.value, RuntimeError)
    assert isinstance(ei.value.status, int) and ei.value.status != 0
    assert str(ei.value)
    assert cp.cuda.Device().id == 0
    # the error state must not leak into the next call
    a = cp.arange(4)
    assert a.get().tolist() == [0, 1, 2, 3]


def test_invalid_device_context_raises():
    with pytest.raises(runtime.CUDARuntimeError):
        with cp.cuda.Device(1000):
            pass
    assert cp.cuda.Device().id == 0


def test_invalid_device_properties_raise():
    with pytest.raises(runtime.CUDARuntimeError):
        runtime.getDeviceProperties(1000)
    with pytest.raises(runtime.CUDARuntimeError):
        runtime.setDevice(1000)
    assert runtime.getDevice() == 0


def test_device_in_thread_is_usable():
    result = {}

    def work():
        try:
            with cp.cuda.Device(0):
                result['sum'] = cp.arange(10).get().sum()
            result['id'] = cp.cuda.Device().id
        except BaseException as e:  # report to the main thread
            result['error'] = e

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert 'error' not in result, result.get('error')
    assert result['sum'] == 45 and result['id'] == 0


def test_array_device_attribute():
    a = cp.zeros(3)
    assert a.device.id == 0
    assert a.device == cp.cuda.Device(0)
