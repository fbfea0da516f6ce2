// The Array API's `device=` argument of the bindings: which CUDA device it names, and a scope making it current.
#pragma once

#include <optional>
#include <string>

#include "common.hpp"

namespace cuarray::py {

/// -1 for None (the current device); else the CUDA device id named by a cuarray.cuda.Device (through its
/// __index__), an int, "cuda" or "gpu" (the current device), or "cuda:N" / "gpu:N". Anything else, and an id no
/// device has, is a ValueError, as NumPy's is for a device it does not know. Without any device, a valid-looking
/// id is passed on, so that the first device use raises the clear no-device error.
inline int device_arg(nb::handle device) {
  if (device.is_none()) return -1;
  PyObject* o = device.ptr();
  auto not_understood = [&] {
    return value_error("Device not understood: " + nb::cast<std::string>(nb::repr(device)) +
                       " (cuarray takes None, a cuarray.cuda.Device, a device number, 'cuda' or 'cuda:N')");
  };
  long long id = -1;
  if (PyUnicode_Check(o)) {
    std::string s = nb::cast<std::string>(device);
    std::string rest;
    for (const char* prefix : {"cuda", "gpu"}) {
      std::string p(prefix);
      if (s == p) return current_device();
      if (s.size() > p.size() + 1 && s.compare(0, p.size() + 1, p + ":") == 0) rest = s.substr(p.size() + 1);
    }
    if (rest.empty() || rest.size() > 6 || rest.find_first_not_of("0123456789") != std::string::npos) {
      throw not_understood();
    }
    id = std::stoll(rest);
  } else if (PyBool_Check(o) || !PyIndex_Check(o)) {
    throw not_understood();
  } else {
    nb::object index = nb::steal(PyNumber_Index(o));
    if (!index.is_valid()) throw nb::python_error();
    int overflow = 0;
    id = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (id == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow != 0) throw not_understood();
  }
  if (id < 0) throw not_understood();
  int n = device_count();
  if (n == 0) {
    require_device();
  } else if (id >= n) {
    throw value_error("Device " + std::to_string(id) + " is not available: there " +
                      (n == 1 ? std::string("is 1 CUDA device") : "are " + std::to_string(n) + " CUDA devices"));
  }
  return static_cast<int>(id);
}

/// Makes the device of a `device=` argument current until the end of the scope (nothing for None or for the
/// device that is current already), so that what a creation function allocates lands there.
class device_arg_scope {
public:
  explicit device_arg_scope(nb::handle device) {
    int id = device_arg(device);
    if (id >= 0 && id != current_device()) guard_.emplace(id);
  }

private:
  std::optional<device_guard> guard_;
};

}  // namespace cuarray::py
