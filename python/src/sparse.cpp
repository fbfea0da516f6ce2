// Bindings of the cuSPARSE primitives (the submodule _core.sparse) that cuarray.scipy.sparse is built on.
#include <nanobind/stl/string.h>

#include <string>

#include "args.hpp"
#include "common.hpp"
#include "cuarray/sparse.hpp"

namespace cuarray::py {

namespace {

sparse::csr_view to_csr(std::int64_t rows, std::int64_t cols, nb::handle indptr, nb::handle indices, nb::handle data) {
  return sparse::csr_view{rows, cols, args::to_array(indptr, "sparse"), args::to_array(indices, "sparse"),
                          args::to_array(data, "sparse")};
}

sparse::operation to_operation(const std::string& op) {
  if (op == "N") return sparse::operation::none;
  if (op == "T") return sparse::operation::transpose;
  if (op == "H") return sparse::operation::conjugate_transpose;
  throw value_error("op must be 'N', 'T' or 'H', not '" + op + "'");
}

nb::tuple wrap_csr(sparse::csr_arrays c) {
  return nb::make_tuple(wrap(std::move(c.indptr)), wrap(std::move(c.indices)), wrap(std::move(c.data)));
}

}  // namespace

void init_sparse(nb::module_& m) {
  nb::module_ s = m.def_submodule("sparse", "Sparse matrix primitives over cuSPARSE");
  s.def(
      "spmm",
      [](std::int64_t rows, std::int64_t cols, nb::handle indptr, nb::handle indices, nb::handle data, nb::handle x,
         nb::handle out, const std::string& op, bool accumulate) {
    array o = args::to_array(out, "sparse");
    sparse::spmm(to_csr(rows, cols, indptr, indices, data), args::to_array(x, "sparse"), o, to_operation(op),
                 accumulate);
      },
      nb::arg("rows"), nb::arg("cols"), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("x"),
      nb::arg("out"), nb::arg("op") = "N", nb::arg("accumulate") = false,
      "out = op(A) @ x (or out += op(A) @ x) for the CSR matrix A; x and out 1-D (SpMV) or 2-D C-contiguous (SpMM).");
  s.def(
      "spmm_buffer_size",
      [](std::int64_t rows, std::int64_t cols, nb::handle indptr, nb::handle indices, nb::handle data, nb::handle x,
         nb::handle out, const std::string& op) {
    return sparse::spmm_buffer_size(to_csr(rows, cols, indptr, indices, data), args::to_array(x, "sparse"),
                                    args::to_array(out, "sparse"), to_operation(op));
      },
      nb::arg("rows"), nb::arg("cols"), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("x"),
      nb::arg("out"), nb::arg("op") = "N", "Bytes of work area cuSPARSE asks for the product spmm would run.");
  s.def(
      "spgemm",
      [](std::int64_t a_rows, std::int64_t a_cols, nb::handle a_indptr, nb::handle a_indices, nb::handle a_data,
         std::int64_t b_cols, nb::handle b_indptr, nb::handle b_indices, nb::handle b_data) {
    return wrap_csr(sparse::spgemm(to_csr(a_rows, a_cols, a_indptr, a_indices, a_data),
                                   to_csr(a_cols, b_cols, b_indptr, b_indices, b_data)));
      },
      nb::arg("a_rows"), nb::arg("a_cols"), nb::arg("a_indptr"), nb::arg("a_indices"), nb::arg("a_data"),
      nb::arg("b_cols"), nb::arg("b_indptr"), nb::arg("b_indices"), nb::arg("b_data"),
      "(indptr, indices, data) of the CSR product A @ B (int32 indices).");
  s.def(
      "csr_transpose",
      [](std::int64_t rows, std::int64_t cols, nb::handle indptr, nb::handle indices, nb::handle data) {
    return wrap_csr(sparse::csr_transpose(to_csr(rows, cols, indptr, indices, data)));
      },
      nb::arg("rows"), nb::arg("cols"), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"),
      "(indptr, indices, data) of the CSR form of A^T (int32 indices; row indices sorted).");
  s.def(
      "cusparse_path", [] { return std::string(sparse::cusparse_path()); },
      "The path of the loaded cuSPARSE library (loads it).");
  s.def(
      "csrlsvqr",
      [](std::int64_t n, nb::handle indptr, nb::handle indices, nb::handle data, nb::handle b, nb::handle x, double tol,
         int reorder) {
    array o = args::to_array(x, "sparse");
    return sparse::csrlsvqr(to_csr(n, n, indptr, indices, data), args::to_array(b, "sparse"), o, tol, reorder);
      },
      nb::arg("n"), nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("b"), nb::arg("x"),
      nb::arg("tol") = 0.0, nb::arg("reorder") = 1,
      "Solve A x = b for the square CSR A (int32, canonical) by cuSOLVER's sparse QR, per column of the "
      "F-contiguous b (n,) or (n, k), into x; -1, or the singularity index when A is singular.");
  s.def(
      "load_cusolver_sp", [] { sparse::load_cusolver_sp(); },
      "Load cuSOLVER's sparse QR routines (no device needed); CUDARuntimeError naming what is missing.");
}

}  // namespace cuarray::py
