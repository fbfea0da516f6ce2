"""ElementwiseKernel and ReductionKernel as thin bindings of the C++ definitions (cuarray/custom_kernel.hpp):
parameter parsing, plans and argument errors, without a device."""
import numpy
import pytest

import cuarray as cp
from cuarray._elementwise import _FakeArray

F16 = numpy.dtype(numpy.float16)
F32 = numpy.dtype(numpy.float32)
F64 = numpy.dtype(numpy.float64)
I16 = numpy.dtype(numpy.int16)
I32 = numpy.dtype(numpy.int32)


def fake(dtype, shape=(3, 4)):
    return _FakeArray(dtype, shape)


# -- parameters -----------------------------------------------------------------------------------------------


def test_parameters_take_every_numpy_dtype_name():
    params = cp._core._parse_kernel_params("raw float32 a, longlong b, intc c, T d,, f e")
    assert params == [(True, "float32", "a", F32), (False, "longlong", "b", numpy.dtype(numpy.longlong)),
                      (False, "intc", "c", numpy.dtype(numpy.intc)), (False, "T", "d", None), (False, "f", "e", None)]


def test_parameters_from_sequences():
    k = cp.ElementwiseKernel(["T x", " T y "], ("T z",), "z = x + y", "seq")
    assert [(p.name, p.ctype) for p in k.params] == [("x", "T"), ("y", "T"), ("z", "T")]
    assert repr(k.params[0]) == "<ParameterInfo T x>"
    with pytest.raises(ValueError, match="Invalid parameter ''"):
        cp.ElementwiseKernel(["T x", ""], "T z", "z = x", "blank")
    with pytest.raises(ValueError, match="Invalid parameter 'T x, T y'"):
        cp.ElementwiseKernel(["T x, T y"], "T z", "z = x", "comma")  # one item is one parameter


def test_unsupported_dtype_names_are_type_errors():
    for name in ("object", "float128", "S10", "datetime64"):
        with pytest.raises(TypeError, match="does not support"):
            cp.ElementwiseKernel(f"{name} x", "T z", "z = 0", "bad")


# -- elementwise plans ----------------------------------------------------------------------------------------


def test_plan_roles_of_arguments():
    k = cp.ElementwiseKernel("T x, raw T y, float64 s", "T z",
                             "if (x > 0) z = x + y[_ind.size() - i - 1] + (T)y.size() * s", "roles")
    plan = k._def.plan((fake(F32), fake(F32, (5,)), 2.0, fake(F32)), _FakeArray)
    assert plan.shape_args == (0, 3) and plan.given_outs == (3,) and plan.alloc == ()
    assert plan.preload == (0,) and plan.raw_sizes == (1,)  # z is assigned under a condition; y.size() is read
    assert plan.out_types == [F32]
    assert "_ca_raw<float> y{_ca_r1, _ca_s1};" in plan.body
    assert cp._core.nvrtc_compile(plan.source(2), "roles.cu", 80) > 0
    plan = k._def.plan((fake(F64), fake(F64), 1), _FakeArray)
    assert plan.alloc == (0,) and plan.preload == () and plan.out_types == [F64]


def test_plans_are_kept_per_signature():
    k = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y", "kept")
    k._source(F32, F32)
    k._source(F32, 2.0)
    k._source(F32, F32)
    assert len(k._plans) == 2


# -- reduction kernels ---------------------------------------------------------------------------------------


def test_reduction_kernel_attributes():
    k = cp.ReductionKernel("T x, float32 w", "T y", "x * w", "a + b", "y = a", 0, "weighted")
    assert (k.nin, k.nout, k.nargs, k.name, k.identity) == (2, 1, 3, "weighted", "0")
    assert [p.name for p in k.in_params] == ["x", "w"] and k.out_params[0].ctype == "T"
    assert k.in_params[1].dtype == F32
    assert cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", None).identity is None


def test_reduction_kernel_plan_types_and_code():
    k = cp.ReductionKernel("T x, T m", "float64 y", "x * m", "a + b", "y = a", "0", "dot", reduce_type="float64")
    p = k._kernel._plan((fake(I32), fake(F32)), None, _FakeArray)  # the first array fixes T; the second is cast
    assert p["in_compute"] == ["int", "int"] and p["acc"] == "double" and p["out_type"] == F64
    assert p["preamble"] == "typedef int T;\n"
    assert p["map"] == ("const int _ca_v0 = x; const int _ca_v1 = x1; acc_t _ca_m; { const int& x = _ca_v0; "
                        "const int& m = _ca_v1; _ca_m = ca_cast<acc_t>(x * m); } m = _ca_m;")
    assert p["identity"] == "ca_cast<acc_t>(0)" and not p["sequential"]
    half = cp.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", None, "mx")._kernel._plan(
        (fake(F16),), None, _FakeArray)
    assert half["acc"] == "float" and half["acc_bytes"] == 4 and half["sequential"] and half["identity"] == "acc_t()"
    for rt in ("f", numpy.float32, "single"):
        p = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", reduce_type=rt)._kernel._plan(
            (fake(I16),), None, _FakeArray)
        assert p["acc_type"] == F32


def test_reduction_kernel_definition_errors():
    with pytest.raises(ValueError, match="exactly one output"):
        cp.ReductionKernel("T x", "T y, T z", "x", "a + b", "y = a", "0")
    with pytest.raises(ValueError, match="raw parameters are not supported"):
        cp.ReductionKernel("T x", "raw T y", "x", "a + b", "y = a", "0")
    with pytest.raises(ValueError, match="unique"):
        cp.ReductionKernel("T x, T x", "T y", "x", "a + b", "y = a", "0")
    with pytest.raises(ValueError, match="at least one input"):
        cp.ReductionKernel("", "T y", "x", "a + b", "y = a", "0")


def test_reduction_kernel_call_errors_before_any_device_use():
    k = cp.ReductionKernel("T x", "U y", "x", "a + b", "y = a", "0", "total")
    with pytest.raises(TypeError, match=r"total takes 1 inputs \(0 given\)"):
        k()
    with pytest.raises(TypeError, match="Unsupported type list"):
        k([1, 2])
    with pytest.raises(TypeError, match="Unsupported type NoneType"):
        k(None)
    with pytest.raises(TypeError, match="asarray"):
        k(numpy.zeros(3))
    with pytest.raises(TypeError, match="Cannot determine the output type 'U' of 'total': pass out="):
        k._kernel._plan((fake(F32),), None, _FakeArray)
    with pytest.raises(ValueError, match="given twice"):
        k._kernel._plan((fake(F32), fake(F64)), fake(F64), _FakeArray)
    with pytest.raises(TypeError, match="must be a cuarray.ndarray, not float"):
        k._kernel._plan((fake(F32),), 1.0, _FakeArray)
    assert k._kernel._plan((fake(F32), fake(F64)), None, _FakeArray)["out_type"] == F64  # positional output
    unknown = cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", reduce_type="nonsense")
    with pytest.raises(TypeError, match="data type 'nonsense' not understood"):
        unknown._kernel._plan((fake(F32),), None, _FakeArray)
