// cuarray::fft_plan, the public face of the user plans of src/fft/cufft.cpp (Note [user fft plans]): parameter
// and operand checks, so that C++ callers and the Python binding get the same errors.
#include "cuarray/fft_plan.hpp"

#include <string>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/fft/cufft.hpp"

namespace cuarray {

namespace dfft = detail::fft;

namespace {

bool halved_input(int t) { return t == cufft_type::c2r || t == cufft_type::z2d; }
bool halved_output(int t) { return t == cufft_type::r2c || t == cufft_type::d2z; }

dtype in_type(int t) {
  switch (t) {
    case cufft_type::c2c:
    case cufft_type::c2r: return dtype::complex64;
    case cufft_type::z2z:
    case cufft_type::z2d: return dtype::complex128;
    case cufft_type::r2c: return dtype::float32;
    default: return dtype::float64;
  }
}

dtype out_type(int t) {
  switch (t) {
    case cufft_type::c2c:
    case cufft_type::r2c: return dtype::complex64;
    case cufft_type::z2z:
    case cufft_type::d2z: return dtype::complex128;
    case cufft_type::c2r: return dtype::float32;
    default: return dtype::float64;
  }
}

// The number of elements one side of the plan reaches (the last one's index plus one), so that an execution
// never reads or writes past the arrays it is given.
std::int64_t span(const dfft::user_plan& p, bool input) {
  const dfft::plan_layout& l = p.layout;
  bool halved = input ? halved_input(p.type) : halved_output(p.type);
  long long len[3], embed[3];
  for (int k = 0; k < l.rank; ++k) {
    len[k] = k == l.rank - 1 && halved ? l.n[k] / 2 + 1 : l.n[k];
    embed[k] = p.basic_layout ? len[k] : (input ? l.inembed[k] : l.onembed[k]);
  }
  long long stride = p.basic_layout ? 1 : (input ? l.istride : l.ostride);
  long long per = 1;
  for (int k = 0; k < l.rank; ++k) per *= len[k];
  long long dist = p.basic_layout ? per : (input ? l.idist : l.odist);
  long long last = (l.batch - 1) * dist;
  long long inner = 1;
  for (int k = l.rank - 1; k >= 0; --k) {
    last += (len[k] - 1) * stride * inner;
    inner *= embed[k];
  }
  return last + 1;
}

void check_operand(const dfft::user_plan& p, const array& a, bool input) {
  const char* what = input ? "input" : "output";
  dtype want = input ? in_type(p.type) : out_type(p.type);
  if (a.type() != want) {
    throw value_error(std::string("cuFFT plan dtype mismatch: the ") + what + " must be " + std::string(name(want)) +
                      ", not " + std::string(name(a.type())));
  }
  if (!a.is_c_contiguous() && a.size() > 1) {
    throw value_error(std::string("the ") + what + " of a cuFFT plan must be C-contiguous");
  }
  if (a.device() != p.device) throw value_error(std::string("the ") + what + " is on another device than the plan");
  std::int64_t need = span(p, input);
  if (a.size() < need) {
    throw value_error(std::string("the ") + what + " has " + std::to_string(a.size()) +
                      " elements, fewer than the plan reaches (" + std::to_string(need) + ")");
  }
}

}  // namespace

fft_plan::fft_plan(const std::vector<long long>& n, int type, long long batch,
                   const std::optional<fft_embedding>& embedding) {
  if (n.empty() || n.size() > 3) throw value_error("a cuFFT plan has 1 to 3 dimensions");
  for (long long x : n) {
    if (x < 1) throw value_error("Invalid number of FFT data points (" + std::to_string(x) + ") specified.");
  }
  if (batch < 1) throw value_error("batch must be positive, not " + std::to_string(batch));
  dfft::plan_layout l;
  l.rank = static_cast<int>(n.size());
  for (int k = 0; k < l.rank; ++k) l.n[k] = n[k];
  l.batch = batch;
  if (embedding) {
    const fft_embedding& e = *embedding;
    if (e.inembed.size() != n.size() || e.onembed.size() != n.size()) {
      throw value_error("inembed and onembed must have one entry per transformed dimension");
    }
    if (e.istride < 1 || e.ostride < 1 || e.idist < 1 || e.odist < 1) {
      throw value_error("strides and distances must be positive");
    }
    for (int k = 0; k < l.rank; ++k) {
      l.inembed[k] = e.inembed[k];
      l.onembed[k] = e.onembed[k];
    }
    l.istride = e.istride;
    l.idist = e.idist;
    l.ostride = e.ostride;
    l.odist = e.odist;
  }
  impl_ = dfft::make_user_plan(current_device(), l, type, !embedding.has_value());
}

void fft_plan::execute(const array& in, const array& out, int direction) const {
  check_operand(*impl_, in, true);
  check_operand(*impl_, out, false);
  if (direction != -1 && direction != 1) {
    throw value_error("direction must be CUFFT_FORWARD (-1) or CUFFT_INVERSE (1), not " + std::to_string(direction));
  }
  dfft::execute_user_plan(*impl_, in.data(), out.data(), direction);
}

std::size_t fft_plan::work_size() const { return impl_->work_size; }
int fft_plan::handle() const { return impl_->handle; }
int fft_plan::device() const { return impl_->device; }
int fft_plan::type() const { return impl_->type; }
dtype fft_plan::input_type() const { return in_type(impl_->type); }
dtype fft_plan::output_type() const { return out_type(impl_->type); }
void fft_plan::make_current() const { dfft::set_current_plan(impl_); }
void fft_plan::clear_current() { dfft::set_current_plan(nullptr); }
bool fft_plan::has_current() { return static_cast<bool>(dfft::current_plan()); }

}  // namespace cuarray
