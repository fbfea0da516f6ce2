// The C++ elementwise API: one function per ufunc (from the generated list) and call by name (elementwise_kernel
// is in custom_kernel.cpp).
#include <stdexcept>
#include <string>
#include <utility>

#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"
#include "src/engine/ufunc.hpp"

namespace cuarray {

namespace {

const ufunc_def& def_of(const char* name) {
  const ufunc_def* u = find_ufunc(name);
  // The list and the table come from one generator run; a miss means they went out of step.
  if (!u) throw std::logic_error(std::string("ufunc table has no '") + name + "': rerun tools/gen_ufunc_table.py");
  return *u;
}

bool is_default(const ufunc_options& o) {
  return o.out.empty() && !o.dtype_ && o.rule == casting::same_kind && !o.where.defined() && o.out_order == order::K;
}

// Plain calls take the ufunc engine's hot path (no vectors); keywords go through call_ufunc.
array call1(const ufunc_def& u, const ufunc_arg* args, int n, const ufunc_options& o) {
  if (is_default(o)) return call_ufunc1(u, args, n);
  return std::move(call_ufunc(u, std::vector<ufunc_arg>(args, args + n), o)[0]);
}

std::pair<array, array> call2(const ufunc_def& u, const ufunc_arg* args, int n, const ufunc_options& o) {
  std::vector<array> r = call_ufunc(u, std::vector<ufunc_arg>(args, args + n), o);
  return {std::move(r[0]), std::move(r[1])};
}

}  // namespace

std::vector<array> call_ufunc(std::string_view name, const std::vector<ufunc_arg>& args, const ufunc_options& options) {
  const ufunc_def* u = find_ufunc(name);
  if (!u) throw value_error("no ufunc named '" + std::string(name) + "'");
  return call_ufunc(*u, args, options);
}

#define CUARRAY_UFUNC_DEF_1_1(fn, target)                                                                              \
  array fn(const ufunc_arg& x, const ufunc_options& o) {                                                               \
    static const ufunc_def& u = def_of(#target);                                                                       \
    return call1(u, &x, 1, o);                                                                                         \
  }
#define CUARRAY_UFUNC_DEF_2_1(fn, target)                                                                              \
  array fn(const ufunc_arg& x1, const ufunc_arg& x2, const ufunc_options& o) {                                         \
    static const ufunc_def& u = def_of(#target);                                                                       \
    const ufunc_arg args[2] = {x1, x2};                                                                                \
    return call1(u, args, 2, o);                                                                                       \
  }
#define CUARRAY_UFUNC_DEF_1_2(fn, target)                                                                              \
  std::pair<array, array> fn(const ufunc_arg& x, const ufunc_options& o) {                                             \
    static const ufunc_def& u = def_of(#target);                                                                       \
    return call2(u, &x, 1, o);                                                                                         \
  }
#define CUARRAY_UFUNC_DEF_2_2(fn, target)                                                                              \
  std::pair<array, array> fn(const ufunc_arg& x1, const ufunc_arg& x2, const ufunc_options& o) {                       \
    static const ufunc_def& u = def_of(#target);                                                                       \
    const ufunc_arg args[2] = {x1, x2};                                                                                \
    return call2(u, args, 2, o);                                                                                       \
  }
#define CUARRAY_UFUNC_DECL(name, nin, nout) CUARRAY_UFUNC_DEF_##nin##_##nout(name, name)
#define CUARRAY_UFUNC_ALIAS_DECL(alias, name, nin, nout) CUARRAY_UFUNC_DEF_##nin##_##nout(alias, name)
#include "cuarray/ufunc_list.inc"
#undef CUARRAY_UFUNC_DECL
#undef CUARRAY_UFUNC_ALIAS_DECL

}  // namespace cuarray
