// einsum and einsum_path: subscript parsing, NumPy's contraction-path search, and pairwise contraction by GEMM.
#include <algorithm>
#include <bitset>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/products.hpp"
#include "cuarray/reduction.hpp"
#include "src/core/internal.hpp"
#include "src/linalg/products_internal.hpp"

namespace cuarray {

einsum_optimize einsum_optimize::parse(std::string_view s) {
  if (s == "greedy") return einsum_optimize(greedy);
  if (s == "optimal") return einsum_optimize(optimal);
  throw value_error("Path name " + std::string(s) + " not found");
}

namespace {

// Note [einsum labels]: a label is a code: 0-25 for 'a'-'z', 26-51 for 'A'-'Z' (NumPy's einsum_symbols
// order), and 52 + j for the j-th broadcast (ellipsis) dimension counted from the right, so that ellipsis
// dimensions of different operands line up as broadcasting does. Sets of labels are bitsets.
constexpr int max_labels = 52 + 64;
using label_set = std::bitset<max_labels>;

const char* const symbols = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

int letter_code(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}

struct einsum_spec {
  std::vector<std::vector<int>> inputs;  ///< per operand, one label per dimension (repeats kept)
  std::vector<int> output;
  int n_ell = 0;            ///< broadcast dimensions
  std::vector<char> chars;  ///< label -> character for reports (ellipsis dims get unused letters)
};

// NumPy's C parser (einsum.c.src) for the messages; spaces are ignored.
einsum_spec parse(std::string_view subscripts_in, const std::vector<int>& ndims) {
  std::string s;
  for (char c : subscripts_in)
    if (c != ' ') s += c;
  std::string in_part = s, out_part;
  bool explicit_out = false;
  std::size_t arrow = s.find("->");
  if (arrow != std::string::npos) {
    in_part = s.substr(0, arrow);
    out_part = s.substr(arrow + 2);
    explicit_out = true;
  }
  auto bad_arrow = [](const std::string& x) {
    return x.find('-') != std::string::npos || x.find('>') != std::string::npos;
  };
  if (bad_arrow(in_part) || bad_arrow(out_part))
    throw value_error("einstein sum subscript string does not contain proper '->' output specified");

  std::vector<std::string> terms;
  {
    std::size_t start = 0;
    while (true) {
      std::size_t comma = in_part.find(',', start);
      terms.push_back(in_part.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (terms.size() > ndims.size())
    throw value_error("fewer operands provided to einstein sum function than specified in the subscripts string");
  if (terms.size() < ndims.size())
    throw value_error("more operands provided to einstein sum function than specified in the subscripts string");

  // Letters and the position of '...' in one term; value_error for anything else.
  auto scan = [](const std::string& term, std::vector<int>& letters, int& ell_at, const std::string& where) {
    ell_at = -1;
    for (std::size_t i = 0; i < term.size(); ++i) {
      char c = term[i];
      int code = letter_code(c);
      if (code >= 0) {
        letters.push_back(code);
      } else if (c == '.') {
        if (ell_at >= 0 || term.compare(i, 3, "...") != 0) {
          throw value_error("einstein sum subscripts string contains a '.' that is not part of an '...'" + where);
        }
        ell_at = static_cast<int>(letters.size());
        i += 2;
      } else {
        throw value_error(std::string("invalid subscript '") + c +
                          "' in einstein sum subscripts string, subscripts must be letters");
      }
    }
  };

  einsum_spec sp;
  sp.inputs.resize(terms.size());
  std::vector<int> ell_count(terms.size(), 0);
  std::vector<std::vector<int>> letters(terms.size());
  std::vector<int> ell_pos(terms.size(), -1);
  for (std::size_t t = 0; t < terms.size(); ++t) {
    scan(terms[t], letters[t], ell_pos[t], " in operand " + std::to_string(t));
    int nl = static_cast<int>(letters[t].size()), nd = ndims[t];
    if (nl > nd) {
      throw value_error("einstein sum subscripts string contains too many subscripts for operand " + std::to_string(t));
    }
    if (ell_pos[t] < 0 && nl < nd) {
      throw value_error("operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                        "provided to broadcast the extra dimensions.");
    }
    ell_count[t] = nd - nl;
    sp.n_ell = std::max(sp.n_ell, ell_count[t]);
  }
  if (sp.n_ell > 64) throw value_error("einsum: too many broadcast dimensions");
  for (std::size_t t = 0; t < terms.size(); ++t) {
    std::vector<int>& lab = sp.inputs[t];
    for (int i = 0; i < static_cast<int>(letters[t].size()); ++i) {
      if (i == ell_pos[t])
        for (int e = ell_count[t] - 1; e >= 0; --e) lab.push_back(52 + e);
      lab.push_back(letters[t][i]);
    }
    if (ell_pos[t] == static_cast<int>(letters[t].size()))
      for (int e = ell_count[t] - 1; e >= 0; --e) lab.push_back(52 + e);
  }

  int counts[max_labels] = {};
  for (const auto& lab : sp.inputs)
    for (int l : lab) ++counts[l];
  if (explicit_out) {
    std::vector<int> out_letters;
    int out_ell = -1;
    scan(out_part, out_letters, out_ell, " in the output");
    for (std::size_t i = 0; i < out_letters.size(); ++i) {
      int l = out_letters[i];
      char c = symbols[l];
      if (std::count(out_letters.begin(), out_letters.end(), l) > 1)
        throw value_error(std::string("einstein sum subscripts string includes output subscript '") + c +
                          "' multiple times");
      if (counts[l] == 0)
        throw value_error(std::string("einstein sum subscripts string included output subscript '") + c +
                          "' which never appeared in an input");
    }
    if (out_ell < 0 && sp.n_ell > 0) {
      throw value_error("output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                        "provided to broadcast the extra dimensions.");
    }
    for (int i = 0; i < static_cast<int>(out_letters.size()); ++i) {
      if (i == out_ell)
        for (int e = sp.n_ell - 1; e >= 0; --e) sp.output.push_back(52 + e);
      sp.output.push_back(out_letters[i]);
    }
    if (out_ell == static_cast<int>(out_letters.size()))
      for (int e = sp.n_ell - 1; e >= 0; --e) sp.output.push_back(52 + e);
  } else {
    // Implicit output: broadcast dimensions, then the labels seen once in character (ASCII) order.
    for (int e = sp.n_ell - 1; e >= 0; --e) sp.output.push_back(52 + e);
    for (int l = 26; l < 52; ++l)
      if (counts[l] == 1) sp.output.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (counts[l] == 1) sp.output.push_back(l);
  }

  // Characters for reports: letters as themselves, broadcast dimensions as the last unused letters.
  sp.chars.assign(max_labels, '?');
  for (int l = 0; l < 52; ++l) sp.chars[l] = symbols[l];
  std::string unused;
  for (int l = 0; l < 52; ++l)
    if (counts[l] == 0) unused += symbols[l];
  for (int e = 0; e < sp.n_ell && e < static_cast<int>(unused.size()); ++e)
    sp.chars[52 + e] = unused[unused.size() - 1 - e];
  return sp;
}

/// Label sizes with NumPy's broadcasting of extent-1 dimensions; value_error for a mismatch.
std::vector<std::int64_t> label_sizes(const einsum_spec& sp, const std::vector<shape_t>& shapes) {
  std::vector<std::int64_t> size(max_labels, -1);
  for (std::size_t t = 0; t < sp.inputs.size(); ++t) {
    for (std::size_t i = 0; i < sp.inputs[t].size(); ++i) {
      int l = sp.inputs[t][i];
      std::int64_t d = shapes[t][static_cast<int>(i)];
      if (size[l] < 0 || size[l] == 1) {
        size[l] = size[l] < 0 ? d : (d == 1 ? 1 : d);
      } else if (d != 1 && d != size[l]) {
        throw value_error("Size of label '" + std::string(1, sp.chars[l]) + "' for operand " + std::to_string(t) +
                          " (" + std::to_string(d) + ") does not match previous terms (" + std::to_string(size[l]) +
                          ").");
      }
    }
  }
  return size;
}

// ---------------------------------------------------------------------------------------------------------
// Contraction paths: NumPy's einsumfunc.py, step for step, so that einsum_path gives NumPy's paths.

struct path_ctx {
  const std::vector<std::int64_t>* size;
  double cost_of(const label_set& s) const {
    double r = 1;
    for (int l = 0; l < max_labels; ++l)
      if (s[l]) r *= static_cast<double>((*size)[l]);
    return r;
  }
};

struct contraction {
  label_set new_result, idx_removed, idx_contract;
  std::vector<label_set> remaining;
};

contraction find_contraction(const std::vector<int>& positions, const std::vector<label_set>& input_sets,
                             const label_set& output_set) {
  contraction c;
  label_set idx_remain = output_set;
  for (int i = 0; i < static_cast<int>(input_sets.size()); ++i) {
    if (std::find(positions.begin(), positions.end(), i) != positions.end()) {
      c.idx_contract |= input_sets[i];
    } else {
      c.remaining.push_back(input_sets[i]);
      idx_remain |= input_sets[i];
    }
  }
  c.new_result = idx_remain & c.idx_contract;
  c.idx_removed = c.idx_contract & ~c.new_result;
  c.remaining.push_back(c.new_result);
  return c;
}

double flop_count(const path_ctx& ctx, const label_set& idx_contraction, bool inner, int num_terms) {
  double overall = ctx.cost_of(idx_contraction);
  double op_factor = std::max(1, num_terms - 1);
  if (inner) op_factor += 1;
  return overall * op_factor;
}

using path_t = std::vector<std::vector<int>>;

path_t optimal_path(const path_ctx& ctx, const std::vector<label_set>& input_sets, const label_set& output_set,
                    double memory_limit) {
  struct state {
    double cost;
    path_t positions;
    std::vector<label_set> remaining;
  };
  std::vector<state> full{{0, {}, input_sets}};
  int n = static_cast<int>(input_sets.size());
  for (int iteration = 0; iteration < n - 1; ++iteration) {
    std::vector<state> iter;
    for (const state& cur : full) {
      int len = n - iteration;
      for (int x = 0; x < len; ++x) {
        for (int y = x + 1; y < len; ++y) {
          contraction c = find_contraction({x, y}, cur.remaining, output_set);
          if (ctx.cost_of(c.new_result) > memory_limit) continue;
          double total = cur.cost + flop_count(ctx, c.idx_contract, c.idx_removed.any(), 2);
          path_t pos = cur.positions;
          pos.push_back({x, y});
          iter.push_back({total, std::move(pos), std::move(c.remaining)});
        }
      }
    }
    if (!iter.empty()) {
      full = std::move(iter);
    } else {
      auto best = std::min_element(full.begin(), full.end(),
                                   [](const state& a, const state& b) { return a.cost < b.cost; });
      path_t path = best->positions;
      std::vector<int> rest;
      for (int i = 0; i < n - iteration; ++i) rest.push_back(i);
      path.push_back(rest);
      return path;
    }
  }
  if (full.empty()) {
    std::vector<int> all;
    for (int i = 0; i < n; ++i) all.push_back(i);
    return {all};
  }
  auto best = std::min_element(full.begin(), full.end(),
                               [](const state& a, const state& b) { return a.cost < b.cost; });
  return best->positions;
}

struct candidate {
  double neg_removed, cost;
  int x, y;
  std::vector<label_set> sets;
};

bool parse_possible(const path_ctx& ctx, int x, int y, const std::vector<label_set>& input_sets,
                    const label_set& output_set, double memory_limit, double path_cost, double naive_cost,
                    candidate& out) {
  contraction c = find_contraction({x, y}, input_sets, output_set);
  double new_size = ctx.cost_of(c.new_result);
  if (new_size > memory_limit) return false;
  double removed = ctx.cost_of(input_sets[x]) + ctx.cost_of(input_sets[y]) - new_size;
  double cost = flop_count(ctx, c.idx_contract, c.idx_removed.any(), 2);
  if (path_cost + cost > naive_cost) return false;
  out = candidate{-removed, cost, x, y, std::move(c.remaining)};
  return true;
}

path_t greedy_path(const path_ctx& ctx, std::vector<label_set> input_sets, const label_set& output_set,
                   double memory_limit) {
  int n = static_cast<int>(input_sets.size());
  if (n == 1) return {{0}};
  if (n == 2) return {{0, 1}};
  std::vector<int> all;
  for (int i = 0; i < n; ++i) all.push_back(i);
  contraction naive = find_contraction(all, input_sets, output_set);
  double naive_cost = flop_count(ctx, naive.idx_contract, naive.idx_removed.any(), n);

  std::vector<std::pair<int, int>> comb;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) comb.push_back({i, j});
  std::vector<candidate> known;
  double path_cost = 0;
  path_t path;
  for (int iteration = 0; iteration < n - 1; ++iteration) {
    for (auto [x, y] : comb) {
      if ((input_sets[x] & input_sets[y]).none()) continue;  // outer products only when nothing else is left
      candidate c;
      if (parse_possible(ctx, x, y, input_sets, output_set, memory_limit, path_cost, naive_cost, c))
        known.push_back(std::move(c));
    }
    if (known.empty()) {
      int len = static_cast<int>(input_sets.size());
      for (int x = 0; x < len; ++x) {
        for (int y = x + 1; y < len; ++y) {
          candidate c;
          if (parse_possible(ctx, x, y, input_sets, output_set, memory_limit, path_cost, naive_cost, c))
            known.push_back(std::move(c));
        }
      }
      if (known.empty()) {
        std::vector<int> rest;
        for (int i = 0; i < len; ++i) rest.push_back(i);
        path.push_back(rest);
        break;
      }
    }
    // Python's min over (-removed_size, cost): the first of the smallest.
    std::size_t bi = 0;
    for (std::size_t i = 1; i < known.size(); ++i) {
      const candidate &a = known[i], &b = known[bi];
      if (a.neg_removed < b.neg_removed || (a.neg_removed == b.neg_removed && a.cost < b.cost)) bi = i;
    }
    candidate best = known[bi];
    // _update_other_results: keep the candidates disjoint from the chosen pair, renumbered.
    std::vector<candidate> mod;
    int bx = best.x, by = best.y;
    for (candidate& c : known) {
      if (c.x == bx || c.x == by || c.y == bx || c.y == by) continue;
      int x = c.x, y = c.y;
      c.sets.erase(c.sets.begin() + (by - (by > x) - (by > y)));
      c.sets.erase(c.sets.begin() + (bx - (bx > x) - (bx > y)));
      c.sets.insert(c.sets.end() - 1, best.sets.back());
      c.x = x - (x > bx) - (x > by);
      c.y = y - (y > bx) - (y > by);
      mod.push_back(std::move(c));
    }
    known = std::move(mod);
    input_sets = best.sets;
    int new_pos = static_cast<int>(input_sets.size()) - 1;
    comb.clear();
    for (int i = 0; i < new_pos; ++i) comb.push_back({i, new_pos});
    path.push_back({bx, by});
    path_cost += best.cost;
  }
  return path;
}

struct path_info {
  path_t path;
  std::string report;
};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

/// NumPy's einsum_path over the parsed subscripts; `report` builds the printed table.
path_info compute_path(const einsum_spec& sp, const std::vector<shape_t>& shapes, const einsum_optimize& opt,
                       bool report) {
  std::vector<std::int64_t> size = label_sizes(sp, shapes);
  path_ctx ctx{&size};
  int n = static_cast<int>(sp.inputs.size());
  std::vector<label_set> input_sets(n);
  label_set output_set, indices;
  for (int t = 0; t < n; ++t)
    for (int l : sp.inputs[t]) input_sets[t].set(l), indices.set(l);
  for (int l : sp.output) output_set.set(l);
  // Sizes of the terms as written (a repeated label counts twice, as NumPy's string product does).
  double max_size = 0;
  for (int t = 0; t <= n; ++t) {
    const std::vector<int>& lab = t < n ? sp.inputs[t] : sp.output;
    double s = 1;
    for (int l : lab) s *= static_cast<double>(size[l]);
    max_size = std::max(max_size, s);
  }
  double memory_limit = opt.memory_limit >= 0 ? opt.memory_limit : max_size;
  path_info info;
  std::vector<int> all;
  for (int i = 0; i < n; ++i) all.push_back(i);
  if (opt.kind == einsum_optimize::explicit_path) {
    info.path = opt.path;
  } else if (opt.kind == einsum_optimize::none || n == 1 || n == 2 || indices == output_set) {
    info.path = {all};
  } else if (opt.kind == einsum_optimize::greedy) {
    info.path = greedy_path(ctx, input_sets, output_set, memory_limit);
  } else {
    info.path = optimal_path(ctx, input_sets, output_set, memory_limit);
  }

  // Validate the path and build NumPy's report.
  auto term_str = [&](const std::vector<int>& lab) {
    std::string s;
    for (int l : lab) s += sp.chars[l];
    return s;
  };
  std::vector<std::string> input_list;
  for (const auto& lab : sp.inputs) input_list.push_back(term_str(lab));
  std::string output_str = term_str(sp.output);
  std::vector<double> costs, scales, sizes;
  std::vector<std::string> lines;
  std::vector<label_set> sets = input_sets;
  for (std::size_t cnum = 0; cnum < info.path.size(); ++cnum) {
    std::vector<int> inds = info.path[cnum];
    std::sort(inds.rbegin(), inds.rend());
    for (std::size_t i = 0; i < inds.size(); ++i) {
      if (inds[i] < 0 || inds[i] >= static_cast<int>(sets.size()) || (i > 0 && inds[i] == inds[i - 1]))
        throw value_error("Invalid einsum_path: contraction " + std::to_string(cnum) +
                          " names operands that do not exist");
    }
    contraction c = find_contraction(inds, sets, output_set);
    costs.push_back(flop_count(ctx, c.idx_contract, c.idx_removed.any(), static_cast<int>(inds.size())));
    scales.push_back(static_cast<double>(c.idx_contract.count()));
    sizes.push_back(ctx.cost_of(c.new_result));
    sets = c.remaining;
    std::vector<std::string> tmp;
    for (int x : inds) {
      tmp.push_back(input_list[x]);
      input_list.erase(input_list.begin() + x);
    }
    std::string idx_result;
    if (cnum + 1 == info.path.size()) {
      idx_result = output_str;
    } else {
      std::vector<std::pair<std::int64_t, char>> sr;
      for (int l = 0; l < max_labels; ++l)
        if (c.new_result[l]) sr.push_back({size[l], sp.chars[l]});
      std::sort(sr.begin(), sr.end());
      for (auto& p : sr) idx_result += p.second;
    }
    input_list.push_back(idx_result);
    if (report) {
      std::string einsum_str;
      for (std::size_t i = 0; i < tmp.size(); ++i) einsum_str += (i ? "," : "") + tmp[i];
      einsum_str += "->" + idx_result;
      std::string remaining;
      for (std::size_t i = 0; i < input_list.size(); ++i) remaining += (i ? "," : "") + input_list[i];
      remaining += "->" + output_str;
      char buf[512];
      std::snprintf(buf, sizeof buf, "\n%4d    %24s %40s", static_cast<int>(scales.back()), einsum_str.c_str(),
                    remaining.c_str());
      lines.push_back(buf);
    }
  }
  if (input_list.size() != 1) {
    throw value_error("Invalid einsum_path is specified: " + std::to_string(input_list.size() - 1) +
                      " more operands has to be contracted.");
  }
  if (!report) return info;
  std::string overall;
  for (int t = 0; t < n; ++t) overall += (t ? "," : "") + term_str(sp.inputs[t]);
  overall += "->" + output_str;
  int sum_unique = 0;
  for (const label_set& s : input_sets) sum_unique += static_cast<int>(s.count());
  bool inner_product = sum_unique - static_cast<int>(indices.count()) > 0;
  double naive_cost = flop_count(ctx, indices, inner_product, n);
  double opt_cost = 1;
  for (double c : costs) opt_cost += c;
  double max_i = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
  double max_scale = scales.empty() ? 0 : *std::max_element(scales.begin(), scales.end());
  std::string r;
  r += "  Complete contraction:  " + overall + "\n";
  r += "         Naive scaling:  " + std::to_string(indices.count()) + "\n";
  r += "     Optimized scaling:  " + std::to_string(static_cast<int>(max_scale)) + "\n";
  r += "      Naive FLOP count:  " + fmt("%.3e", naive_cost) + "\n";
  r += "  Optimized FLOP count:  " + fmt("%.3e", opt_cost) + "\n";
  r += "   Theoretical speedup:  " + fmt("%3.3f", naive_cost / opt_cost) + "\n";
  r += "  Largest intermediate:  " + fmt("%.3e", max_i) + " elements\n";
  r += std::string(74, '-') + "\n";
  char hdr[128];
  std::snprintf(hdr, sizeof hdr, "%6s %24s %40s\n", "scaling", "current", "remaining");
  r += hdr;
  r += std::string(74, '-');
  for (const std::string& l : lines) r += l;
  info.report = r;
  return info;
}

// ---------------------------------------------------------------------------------------------------------
// Execution

struct term {
  array arr;
  std::vector<int> labels;  ///< distinct, one per dimension
};

/// Repeated labels of one operand become one dimension (a diagonal view: the strides add up).
term take_diagonals(const array& a, const std::vector<int>& labels, std::size_t operand) {
  term t;
  descriptor d;
  d.type = a.type();
  d.offset = a.offset();
  for (int i = 0; i < a.ndim(); ++i) {
    int l = labels[i];
    auto it = std::find(t.labels.begin(), t.labels.end(), l);
    if (it == t.labels.end()) {
      t.labels.push_back(l);
      d.shape.push_back(a.shape()[i]);
      d.strides.push_back(a.strides()[i]);
    } else {
      int j = static_cast<int>(it - t.labels.begin());
      if (d.shape[j] != a.shape()[i]) {
        throw value_error("dimensions in operand " + std::to_string(operand) + " for collapsing index '" +
                          std::string(1, symbols[l % 52]) + "' don't match (" + std::to_string(d.shape[j]) +
                          " != " + std::to_string(a.shape()[i]) + ")");
      }
      d.strides[j] += a.strides()[i];
    }
  }
  t.arr = array(a.storage(), d);
  return t;
}

int index_of(const std::vector<int>& v, int l) {
  auto it = std::find(v.begin(), v.end(), l);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

/// Sum out the labels of `t` that are not in `keep` (logical or for bool).
term sum_out(const term& t, const label_set& keep) {
  std::vector<int> axes;
  term r;
  for (int i = 0; i < static_cast<int>(t.labels.size()); ++i) {
    if (keep[t.labels[i]]) r.labels.push_back(t.labels[i]);
    else axes.push_back(i);
  }
  if (axes.empty()) return t;
  reduce_options ro;
  ro.axis = axes;
  if (t.arr.type() == dtype::bool_) {
    r.arr = any(t.arr, ro);
  } else {
    ro.dtype_ = t.arr.type();
    r.arr = sum(t.arr, ro);
  }
  return r;
}

/// `t`'s array with its dimensions in the order of `labels` (labels it lacks become extent-1 axes).
array arrange(const term& t, const std::vector<int>& labels) {
  descriptor d;
  d.type = t.arr.type();
  d.offset = t.arr.offset();
  for (int l : labels) {
    int i = index_of(t.labels, l);
    d.shape.push_back(i < 0 ? 1 : t.arr.shape()[i]);
    d.strides.push_back(i < 0 ? 0 : t.arr.strides()[i]);
  }
  return array(t.arr.storage(), d);
}

std::int64_t extent(const term& t, int l) {
  int i = index_of(t.labels, l);
  return i < 0 ? 1 : t.arr.shape()[i];
}

/// Note [pairwise contraction]: labels only one side has and no later term needs are summed first (so
/// 'ij,jk->k' contracts as (sum_i A_ij) then a vector-matrix product); then the shared labels that stay are a
/// batch, the shared ones that go are contracted, and the rest are rows (A) or columns (B) of one batched GEMM.
/// Without contracted labels the product is an elementwise multiply; with neither rows nor columns, a
/// multiply and a sum (a batched dot product through GEMM would run one tiny matrix per batch element).
term contract_pair(const term& a_in, const term& b_in, const label_set& keep) {
  label_set la, lb;
  for (int l : a_in.labels) la.set(l);
  for (int l : b_in.labels) lb.set(l);
  term a = sum_out(a_in, keep | lb), b = sum_out(b_in, keep | la);
  std::vector<int> batch, con, rows, cols;
  for (int l : a.labels) {
    if (index_of(b.labels, l) >= 0) (keep[l] ? batch : con).push_back(l);
    else rows.push_back(l);
  }
  for (int l : b.labels)
    if (index_of(a.labels, l) < 0) cols.push_back(l);
  // Broadcast extents: an extent of 1 (or a label the term lacks) yields to the other, so 0 beats 1.
  auto ext = [&](int l) {
    std::int64_t x = extent(a, l), y = extent(b, l);
    return x == 1 ? y : x;
  };
  std::int64_t nb = 1, m = 1, n = 1, k = 1;
  shape_t batch_shape, rows_shape, cols_shape, con_shape;
  for (int l : batch) nb *= ext(l), batch_shape.push_back(ext(l));
  for (int l : rows) m *= ext(l), rows_shape.push_back(ext(l));
  for (int l : cols) n *= ext(l), cols_shape.push_back(ext(l));
  for (int l : con) k *= ext(l), con_shape.push_back(ext(l));
  term r;
  r.labels = batch;
  r.labels.insert(r.labels.end(), rows.begin(), rows.end());
  r.labels.insert(r.labels.end(), cols.begin(), cols.end());
  bool con_trivial = true;
  for (int l : con) con_trivial = con_trivial && extent(a, l) == 1 && extent(b, l) == 1;

  if (con_trivial) {
    // Elementwise: A as (batch, rows, 1...), B as (batch, 1..., cols); extent-1 contracted labels drop out.
    array av = arrange(a, r.labels), bv = arrange(b, r.labels);
    r.arr = multiply(ufunc_arg(av), ufunc_arg(bv));
    return r;
  }
  if (rows.empty() && cols.empty() && nb > 1) {
    std::vector<int> order = batch;
    order.insert(order.end(), con.begin(), con.end());
    array p = multiply(ufunc_arg(arrange(a, order)), ufunc_arg(arrange(b, order)));
    term pt{p, order};
    label_set kb;
    for (int l : batch) kb.set(l);
    r = sum_out(pt, kb);
    return r;
  }
  // GEMM: A (batch, rows, con) and B (batch, con, cols), broadcast to the pair's extents, merged to 3-D.
  std::vector<int> oa = batch, ob = batch;
  oa.insert(oa.end(), rows.begin(), rows.end());
  oa.insert(oa.end(), con.begin(), con.end());
  ob.insert(ob.end(), con.begin(), con.end());
  ob.insert(ob.end(), cols.begin(), cols.end());
  shape_t fa = batch_shape, fb = batch_shape;
  for (std::int64_t v : rows_shape) fa.push_back(v);
  for (std::int64_t v : con_shape) fa.push_back(v), fb.push_back(v);
  for (std::int64_t v : cols_shape) fb.push_back(v);
  array av = arrange(a, oa).broadcast_to(fa), bv = arrange(b, ob).broadcast_to(fb);
  // Rows and columns merge into one axis each (a view when their strides chain), the batch through merge_batch.
  shape_t sa = batch_shape, sb = batch_shape;
  sa.push_back(m), sa.push_back(k);
  sb.push_back(k), sb.push_back(n);
  array a3 = detail::merge_batch(av.reshape(sa)), b3 = detail::merge_batch(bv.reshape(sb));
  array c = detail::batched_matmul(a3, b3);
  shape_t rs = batch_shape;
  for (std::int64_t v : rows_shape) rs.push_back(v);
  for (std::int64_t v : cols_shape) rs.push_back(v);
  r.arr = c.reshape_view(rs);
  return r;
}

term contract_many(std::vector<term> terms, const label_set& keep) {
  if (terms.size() == 1) return sum_out(terms[0], keep);
  term cur = terms[0];
  for (std::size_t i = 1; i < terms.size(); ++i) {
    label_set k = keep;
    for (std::size_t j = i + 1; j < terms.size(); ++j)
      for (int l : terms[j].labels) k.set(l);
    cur = contract_pair(cur, terms[i], k);
  }
  return cur;
}

}  // namespace

array einsum(std::string_view subscripts, const std::vector<array>& operands, const einsum_options& o) {
  if (operands.empty()) throw value_error("No input operands");
  std::vector<int> ndims;
  std::vector<shape_t> shapes;
  for (const array& x : operands) ndims.push_back(x.ndim()), shapes.push_back(x.shape());
  einsum_spec sp = parse(subscripts, ndims);
  // A repeated label within one operand is a diagonal: its extents must agree exactly (no broadcasting).
  for (std::size_t t = 0; t < operands.size(); ++t) {
    const std::vector<int>& lab = sp.inputs[t];
    for (std::size_t i = 0; i < lab.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (lab[j] == lab[i] && shapes[t][static_cast<int>(j)] != shapes[t][static_cast<int>(i)]) {
          throw value_error("dimensions in operand " + std::to_string(t) + " for collapsing index '" +
                            std::string(1, sp.chars[lab[i]]) + "' don't match (" +
                            std::to_string(shapes[t][static_cast<int>(j)]) +
                            " != " + std::to_string(shapes[t][static_cast<int>(i)]) + ")");
        }
      }
    }
  }
  label_sizes(sp, shapes);  // checks the extents across operands
  dtype t = operands[0].type();
  for (const array& x : operands) t = promote_types(t, x.type());
  if (o.dtype_) t = *o.dtype_;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const array& x = operands[i];
    if (!can_cast(x.type(), t, o.rule)) {
      throw type_error("Iterator operand " + std::to_string(i) + " dtype could not be cast from " +
                       detail::dtype_str(x.type()) + " to " + detail::dtype_str(t) + " according to the rule '" +
                       casting_name(o.rule) + "'");
    }
  }
  if (o.out.defined() && !can_cast(t, o.out.type(), o.rule)) {
    throw type_error("Iterator requested dtype could not be cast from " + detail::dtype_str(t) + " to " +
                     detail::dtype_str(o.out.type()) + ", the operand 0 dtype, according to the rule '" +
                     casting_name(o.rule) + "'");
  }
  // With out= and no dtype=, NumPy's iterator computes in the output's dtype when it is wider.
  if (o.out.defined() && !o.dtype_) t = promote_types(t, o.out.type());
  shape_t out_shape;
  {
    std::vector<std::int64_t> size = label_sizes(sp, shapes);
    for (int l : sp.output) out_shape.push_back(size[l]);
  }
  if (o.out.defined() && o.out.shape() != out_shape) {
    throw value_error("einsum: output operand has shape " + shape_to_string(o.out.shape()) + ", expected " +
                      shape_to_string(out_shape));
  }
  std::vector<term> terms;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    terms.push_back(take_diagonals(detail::as_type(operands[i], t), sp.inputs[i], i));
  }
  label_set out_set;
  for (int l : sp.output) out_set.set(l);

  // optimize=False runs the greedy path too: the result is the same, and a naive order can build huge
  // intermediates (NumPy's naive loop has none, but runs on the CPU without GEMMs).
  einsum_optimize opt = o.optimize;
  if (opt.kind == einsum_optimize::none) opt.kind = einsum_optimize::greedy;
  path_t path = compute_path(sp, shapes, opt, false).path;
  for (const std::vector<int>& step : path) {
    std::vector<int> inds = step;
    std::sort(inds.rbegin(), inds.rend());
    std::vector<term> chosen;
    for (int x : inds) {
      chosen.push_back(terms[x]);
      terms.erase(terms.begin() + x);
    }
    label_set keep = out_set;
    for (const term& tm : terms)
      for (int l : tm.labels) keep.set(l);
    // NumPy pops the highest position first; contracting in the written order keeps GEMM operands natural.
    std::reverse(chosen.begin(), chosen.end());
    terms.push_back(contract_many(std::move(chosen), keep));
  }
  if (terms.size() != 1) throw value_error("Invalid einsum_path: operands left uncontracted");
  term r = sum_out(terms[0], out_set);
  // Output order; a label whose term kept extent 1 while others were larger broadcasts.
  descriptor d;
  d.type = r.arr.type();
  d.offset = r.arr.offset();
  for (std::size_t i = 0; i < sp.output.size(); ++i) {
    int j = index_of(r.labels, sp.output[i]);
    d.shape.push_back(j < 0 ? 1 : r.arr.shape()[j]);
    d.strides.push_back(j < 0 ? 0 : r.arr.strides()[j]);
  }
  array result = array(r.arr.storage(), d);
  if (result.shape() != out_shape) result = result.broadcast_to(out_shape).copy(order::C);
  if (o.out.defined()) {
    array out = o.out;
    out.assign(result);
    return out;
  }
  if (o.out_order == order::C && !result.is_c_contiguous()) return result.copy(order::C);
  if (o.out_order == order::F && !result.is_f_contiguous()) return result.copy(order::F);
  if (o.out_order == order::A && !result.is_contiguous()) return result.copy(order::C);
  return result;
}

std::pair<std::vector<std::vector<int>>, std::string>
einsum_path(std::string_view subscripts, const std::vector<shape_t>& shapes, const einsum_optimize& optimize) {
  if (shapes.empty()) throw value_error("No input operands");
  std::vector<int> ndims;
  for (const shape_t& s : shapes) ndims.push_back(s.size());
  einsum_spec sp = parse(subscripts, ndims);
  path_info info = compute_path(sp, shapes, optimize, true);
  return {info.path, info.report};
}

}  // namespace cuarray
