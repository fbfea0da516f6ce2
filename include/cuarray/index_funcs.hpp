// Index-producing functions and diagonals/triangles: diagonal, diag, tril/triu, indices, ravel/unravel, select, choose.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/indexing.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

// Operands that may be arrays or scalars are `ufunc_arg`s (cuarray/ufunc.hpp): C++ numbers are weak like Python
// scalars under NEP 50, `scalar`s keep their dtype. Index results are int64 (NumPy's intp).

// ---- diagonals ------------------------------------------------------------------------------------------------

/// NumPy's diagonal: a view (sharing a's storage) with axes axis1 and axis2 removed and the diagonal appended
/// last; offsets past the matrix give length 0. value_error below two dimensions or for axis1 == axis2,
/// axis_error for axes out of range.
array diagonal(const array& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// NumPy's diag: 1-D v -> a new square matrix with v on diagonal k; 2-D v -> a copy of diagonal k (NumPy's is
/// a read-only view, CuPy's a copy). value_error for other ranks.
array diag(const array& v, std::int64_t k = 0);
/// diag of the flattened input.
array diagflat(const array& v, std::int64_t k = 0);
/// NumPy's fill_diagonal, in place: a.flat[:end:step] = val with val's elements (C order) cycled, cast unsafely
/// to a's dtype. `wrap` lets the diagonal of a tall matrix restart every ncols + 1 rows. value_error below two
/// dimensions or, above two, for unequal dimensions.
void fill_diagonal(const array& a, const array& val, bool wrap = false);
void fill_diagonal(const array& a, const scalar& val, bool wrap = false);

// ---- triangles ------------------------------------------------------------------------------------------------

/// Lower triangle of the last two axes (elements above diagonal k zeroed); a 1-D input of length n is broadcast
/// to (n, n) as NumPy's. A new C-ordered array of m's dtype; type_error for 0-d input.
array tril(const array& m, std::int64_t k = 0);
/// Upper triangle (elements below diagonal k zeroed).
array triu(const array& m, std::int64_t k = 0);
/// Row and column indices of the lower triangle of an (n, m) matrix (m defaults to n), row by row; negative
/// extents give empty arrays, as NumPy's.
std::pair<array, array> tril_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt);
std::pair<array, array> triu_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt);
/// The indices for a 2-D array's shape (value_error "input array must be 2-d" otherwise).
std::pair<array, array> tril_indices_from(const array& arr, std::int64_t k = 0);
std::pair<array, array> triu_indices_from(const array& arr, std::int64_t k = 0);

// ---- index grids and conversions -------------------------------------------------------------------------------

/// NumPy's indices, dense: one array of shape (len(dimensions),) + dimensions; grid[i] holds the index along
/// axis i. type_error for bool when an extent exceeds 2 (as NumPy's arange).
array indices(const shape_t& dimensions, dtype t = int64);
/// Sparse: one array per axis, of shape (1, ..., dimensions[i], ..., 1).
std::vector<array> indices_sparse(const shape_t& dimensions, dtype t = int64);
/// NumPy's ix_: each 1-D argument reshaped (a view) to be broadcast along its own axis; bool arguments become
/// their nonzero indices first (one synchronisation each). value_error for arguments that are not 1-D.
std::vector<array> ix_(const std::vector<array>& args);
/// NumPy's ravel_multi_index: the flat index of each coordinate tuple (coordinates broadcast together; integer
/// or bool dtypes, else type_error). `modes` holds one mode for all dimensions or one per dimension; raise
/// mode checks the coordinates on the device and synchronises once to report value_error. Order C or F.
array ravel_multi_index(const std::vector<array>& multi_index, const shape_t& dims,
                        const std::vector<index_mode>& modes = {index_mode::raise}, order o = order::C);
/// NumPy's unravel_index: one int64 array of indices' shape per dimension. value_error "index i is out of
/// bounds for array with size n" for the first offending index in C order (one synchronisation).
std::vector<array> unravel_index(const array& indices, const shape_t& shape, order o = order::C);

// ---- selection by index ---------------------------------------------------------------------------------------

/// NumPy's select: where condlist[0] take choicelist[0], else where condlist[1] ..., else `default_`. Result
/// dtype: NEP 50 result_type of the choices and the default; shape: everything broadcast. value_error for
/// length mismatch or empty lists, type_error for non-bool conditions.
array select(const std::vector<array>& condlist, const std::vector<ufunc_arg>& choicelist,
             const ufunc_arg& default_ = ufunc_arg(0));
/// NumPy's choose: out[i] = choices[a[i]][i] with a and the choices broadcast together, in one pass whatever
/// the number of choices. `a` must cast safely to int64 (type_error otherwise); result dtype: NEP 50
/// result_type of the choices; raise mode synchronises once to report value_error. With `out`, the result is
/// written there (cast unsafely; its shape must be the broadcast shape) and returned.
array choose(const array& a, const std::vector<ufunc_arg>& choices, const array& out = array(),
             index_mode mode = index_mode::raise);

namespace detail {
/// A run-time compiled kernel behind these functions with the operand layout of one of its uses, for tests
/// (CI compiles every one with NVRTC).
struct index_funcs_kernel {
  std::string name;
  std::string source;
};
std::vector<index_funcs_kernel> index_funcs_kernels();
}  // namespace detail

}  // namespace cuarray
