"""Testing helpers for cuarray (the counterpart of ``cupy.testing``).

The NumPy-comparison decorators (``numpy_cuarray_equal``,
``numpy_cuarray_allclose``), dtype/order parametrisation helpers, array
factories and assertions that accept cuarray arrays. See ``_harness``.
"""

from ._harness import (  # NOQA
    ALL_DTYPES,
    assert_allclose,
    assert_array_almost_equal,
    assert_array_equal,
    for_all_dtypes,
    for_all_dtypes_combination,
    for_complex_dtypes,
    for_dtypes,
    for_dtypes_combination,
    for_float_dtypes,
    for_int_dtypes,
    for_orders,
    for_signed_dtypes,
    for_unsigned_dtypes,
    numpy_cuarray_allclose,
    numpy_cuarray_array_equal,
    numpy_cuarray_equal,
    numpy_cupy_allclose,
    numpy_cupy_array_equal,
    numpy_cupy_equal,
    shaped_arange,
    shaped_random,
    shaped_reverse_arange,
)
