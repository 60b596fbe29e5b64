// peer_nanobind.cc: the nanobind peer of the Python benchmark.
#include <nanobind/nanobind.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

namespace nb = nanobind;

struct Obj {
  int64_t v = 1;
};

NB_MODULE(peer_nanobind, m) {
  nb::class_<Obj>(m, "Obj").def(nb::init<>());
  m.def("nop", []() {});
  m.def("add_one", [](int64_t x) { return x + 1; });
  m.def("f3", [](double a, double, double) { return a; });
  m.def("take_str", [](const std::string& s) { return static_cast<int64_t>(s.size()); });
  m.def("take_obj", [](const Obj& o) { return o.v; });
  m.def("ret_str", []() { return std::string("a short str"); });
  m.def("make_array", [](const std::vector<int64_t>& v) { return static_cast<int64_t>(v.size()); });
  m.def("call_cb", [](const std::function<int64_t()>& cb) { return cb(); });
}
