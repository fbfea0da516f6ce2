// Host-side layout planning of cuFFT transforms (Note [fft layouts]).
#include "src/fft/fft_layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace cuarray::detail::fft {

std::int64_t plan_layout::loop_count() const {
  std::int64_t c = 1;
  for (std::int64_t e : loop_extent) c *= e;
  return c;
}

std::pair<std::int64_t, std::int64_t> plan_layout::loop_offsets(std::int64_t i) const {
  std::int64_t in = 0, out = 0;
  for (int d = static_cast<int>(loop_extent.size()) - 1; d >= 0; --d) {
    std::int64_t idx = i % loop_extent[d];
    i /= loop_extent[d];
    in += idx * loop_in_stride[d];
    out += idx * loop_out_stride[d];
  }
  return {in, out};
}

bool loop_keeps_alignment(const plan_layout& p, std::size_t in_item, std::size_t out_item, std::size_t align) {
  auto a = static_cast<std::int64_t>(align);
  for (std::size_t d = 0; d < p.loop_extent.size(); ++d) {
    if (p.loop_extent[d] <= 1) continue;
    if ((p.loop_in_stride[d] * static_cast<std::int64_t>(in_item)) % a != 0 ||
        (p.loop_out_stride[d] * static_cast<std::int64_t>(out_item)) % a != 0)
      return false;
  }
  return true;
}

bool loop_is_cheap(std::int64_t loops, std::int64_t elements_per_exec, std::size_t item) {
  // A cuFFT execution costs about 6 us of launches and host work; the alternative is two copies of all the data
  // (read + write each, ~1.5 TB/s) plus their launches. Below a few iterations the loop always wins.
  if (loops <= 4) return true;
  double loop_s = 6e-6 * static_cast<double>(loops);
  double bytes = static_cast<double>(loops) * static_cast<double>(elements_per_exec) * static_cast<double>(item);
  double copy_s = 4.0 * bytes / 1.5e12 + 10e-6;
  return loop_s <= copy_s;
}

namespace {

struct batch_dim {
  std::int64_t extent, in_stride, out_stride;
};

bool element_stride(std::int64_t bytes, std::size_t item, std::int64_t& out) {
  auto it = static_cast<std::int64_t>(item);
  if (bytes % it != 0) return false;
  out = bytes / it;
  return true;
}

// The plan's strides and embeddings of one array: the axes must chain from the innermost outwards.
bool chain(const shape_t& shape, const strides_t& strides, std::size_t item, const std::vector<int>& axes,
           long long& stride, long long* embed) {
  int rank = static_cast<int>(axes.size());
  std::int64_t s[3];
  for (int k = 0; k < rank; ++k) {
    if (!element_stride(strides[axes[k]], item, s[k]) || s[k] <= 0) return false;
  }
  stride = s[rank - 1];
  embed[0] = shape[axes[0]];
  for (int k = rank - 2; k >= 0; --k) {
    if (s[k] % s[k + 1] != 0) return false;
    std::int64_t ratio = s[k] / s[k + 1];
    if (ratio < shape[axes[k + 1]]) return false;
    embed[k + 1] = ratio;
  }
  return true;
}

}  // namespace

std::optional<plan_layout> make_plan_layout(const shape_t& in_shape, const strides_t& in_strides, std::size_t in_item,
                                            const shape_t& out_shape, const strides_t& out_strides,
                                            std::size_t out_item, const std::vector<int>& axes, transform_kind kind) {
  int rank = static_cast<int>(axes.size());
  if (rank < 1 || rank > 3 || in_shape.size() != out_shape.size()) return std::nullopt;
  plan_layout p;
  p.rank = rank;
  for (int k = 0; k < rank; ++k) {
    bool halved = k == rank - 1 && kind != transform_kind::c2c;
    p.n[k] = halved && kind == transform_kind::c2r ? out_shape[axes[k]] : in_shape[axes[k]];
    if (!halved && in_shape[axes[k]] != out_shape[axes[k]]) return std::nullopt;
  }
  if (!chain(in_shape, in_strides, in_item, axes, p.istride, p.inembed)) return std::nullopt;
  if (!chain(out_shape, out_strides, out_item, axes, p.ostride, p.onembed)) return std::nullopt;

  std::vector<batch_dim> dims;
  for (int d = 0; d < in_shape.size(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) != axes.end()) continue;
    if (in_shape[d] != out_shape[d]) return std::nullopt;
    if (in_shape[d] == 1) continue;
    batch_dim b{in_shape[d], 0, 0};
    if (!element_stride(in_strides[d], in_item, b.in_stride) || !element_stride(out_strides[d], out_item, b.out_stride))
      return std::nullopt;
    dims.push_back(b);
  }
  // Outermost first by the output's strides, then merge neighbours whose strides chain in both arrays.
  std::stable_sort(dims.begin(), dims.end(), [](const batch_dim& a, const batch_dim& b) {
    return std::llabs(a.out_stride) > std::llabs(b.out_stride);
  });
  std::vector<batch_dim> merged;
  for (const batch_dim& b : dims) {
    if (!merged.empty()) {
      batch_dim& o = merged.back();
      if (o.in_stride == b.in_stride * b.extent && o.out_stride == b.out_stride * b.extent) {
        o = {o.extent * b.extent, b.in_stride, b.out_stride};
        continue;
      }
    }
    merged.push_back(b);
  }
  int chosen = -1;
  for (int i = 0; i < static_cast<int>(merged.size()); ++i) {
    if (merged[i].in_stride <= 0 || merged[i].out_stride <= 0) continue;
    // The longest dimension, and of equal ones the innermost: neighbouring transforms then read neighbouring
    // elements, which cuFFT's kernels coalesce.
    if (chosen < 0 || merged[i].extent > merged[chosen].extent ||
        (merged[i].extent == merged[chosen].extent && merged[i].in_stride < merged[chosen].in_stride))
      chosen = i;
  }
  std::int64_t per_transform = 1;
  for (int k = 0; k < rank; ++k) per_transform *= p.n[k];
  if (chosen >= 0) {
    p.batch = merged[chosen].extent;
    p.idist = merged[chosen].in_stride;
    p.odist = merged[chosen].out_stride;
  } else {
    // One transform per execution: the distances are never used, but cuFFT checks them.
    p.batch = 1;
    p.idist = p.inembed[0] * (rank > 1 ? p.inembed[1] : 1) * (rank > 2 ? p.inembed[2] : 1) * p.istride;
    p.odist = p.onembed[0] * (rank > 1 ? p.onembed[1] : 1) * (rank > 2 ? p.onembed[2] : 1) * p.ostride;
  }
  for (int i = 0; i < static_cast<int>(merged.size()); ++i) {
    if (i == chosen) continue;
    p.loop_extent.push_back(merged[i].extent);
    p.loop_in_stride.push_back(merged[i].in_stride);
    p.loop_out_stride.push_back(merged[i].out_stride);
  }
  std::int64_t loops = p.loop_count();
  if (loops > 1 && !loop_is_cheap(loops, p.batch * per_transform, out_item)) return std::nullopt;
  return p;
}

std::vector<std::vector<int>> group_axes(const std::vector<int>& axes, const shape_t& shape, const strides_t& strides,
                                         std::optional<int> innermost_axis) {
  // Memory order of the axes longer than 1 (a length-1 axis is an identity transform and its stride is arbitrary).
  std::vector<int> order;
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] != 1 || (innermost_axis && d == *innermost_axis)) order.push_back(d);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return std::llabs(strides[a]) > std::llabs(strides[b]); });
  std::vector<std::vector<int>> runs;
  bool in_run = false;
  for (int d : order) {
    bool transformed = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!transformed) {
      in_run = false;
      continue;
    }
    if (!in_run) runs.emplace_back();
    runs.back().push_back(d);
    in_run = true;
    if (innermost_axis && d == *innermost_axis) in_run = false;  // nothing chains inside the halved axis
  }
  std::vector<std::vector<int>> first, rest;
  for (auto r = runs.rbegin(); r != runs.rend(); ++r) {
    const std::vector<int>& run = *r;
    int end = static_cast<int>(run.size());
    while (end > 0) {
      int begin = std::max(0, end - 3);
      std::vector<int> chunk(run.begin() + begin, run.begin() + end);
      bool has_halved = innermost_axis && chunk.back() == *innermost_axis;
      (has_halved ? first : rest).push_back(std::move(chunk));
      end = begin;
    }
  }
  first.insert(first.end(), rest.begin(), rest.end());
  return first;
}

std::string describe(const plan_layout& p, int cufft_type) {
  auto tuple = [&](const long long* v) {
    std::string s = "(";
    for (int k = 0; k < p.rank; ++k) s += std::to_string(v[k]) + (p.rank == 1 || k + 1 < p.rank ? "," : "");
    return s + ")";
  };
  const char* type = "?";
  switch (cufft_type) {
    case 0x29: type = "C2C"; break;
    case 0x69: type = "Z2Z"; break;
    case 0x2a: type = "R2C"; break;
    case 0x6a: type = "D2Z"; break;
    case 0x2c: type = "C2R"; break;
    case 0x6c: type = "Z2D"; break;
  }
  return std::string(type) + " n=" + tuple(p.n) + " batch=" + std::to_string(p.batch) +
         " in(embed=" + tuple(p.inembed) + ", stride=" + std::to_string(p.istride) +
         ", dist=" + std::to_string(p.idist) + ") out(embed=" + tuple(p.onembed) +
         ", stride=" + std::to_string(p.ostride) + ", dist=" + std::to_string(p.odist) + ")";
}

}  // namespace cuarray::detail::fft
