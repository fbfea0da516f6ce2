// Helpers shared by the C++ tests: data-less arrays for checks that never touch memory, and error-text checks.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"

/// Skips a test that needs a device where there is none (CI has no GPU).
#define REQUIRE_GPU()                                                                                                  \
  if (!::cuarray::is_available()) GTEST_SKIP() << "no CUDA device"

namespace cuarray::test {

/// An array over no memory (C-contiguous unless `strides` are given): enough for checks that never touch data.
inline array shape_only(dtype t, shape_t shape, strides_t strides = {}) {
  if (strides.empty() && !shape.empty()) strides = contiguous_strides(shape, itemsize(t));
  return array(make_external_storage(nullptr, 0, 0, {}), descriptor{t, std::move(shape), std::move(strides), 0});
}

/// f() throws an E whose message contains `text`.
template <class E, class F> void expect_throw_with(F&& f, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one with: " << text;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

/// `source` compiles with NVRTC for sm_80 with the elementwise headers (no device needed); a failure names
/// `what` and shows the log and the source.
inline void expect_compiles(const std::string& what, const std::string& source, const std::string& name = "kernel.cu") {
  jit::compile_request req;
  req.source = source;
  req.name = name;
  req.headers = ew::jit_headers();
  req.arch = 80;
  try {
    (void)jit::compile(req);
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": " << e.what() << "\n" << source;
  }
}

/// An array's elements on the host, in C order.
template <class T> std::vector<T> host(const array& a) {
  std::vector<T> h(static_cast<std::size_t>(a.size()));
  a.copy_to_host(h);
  return h;
}

/// A device array of `h` (1-D unless `shape` is given).
template <class T> array dev(const std::vector<T>& h, dtype t, shape_t shape = {}) {
  if (shape.size() == 0) shape = shape_t{static_cast<std::int64_t>(h.size())};
  return from_host(h.data(), t, shape);
}

}  // namespace cuarray::test
