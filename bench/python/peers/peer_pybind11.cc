// peer_pybind11.cc: the pybind11 peer of the Python benchmark.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;

struct Obj {
  int64_t v = 1;
};

PYBIND11_MODULE(peer_pybind11, m) {
  py::class_<Obj>(m, "Obj").def(py::init<>());
  m.def("nop", []() {});
  m.def("add_one", [](int64_t x) { return x + 1; });
  m.def("f3", [](double a, double, double) { return a; });
  m.def("take_str", [](const std::string& s) { return static_cast<int64_t>(s.size()); });
  m.def("take_obj", [](const Obj& o) { return o.v; });
  m.def("ret_str", []() { return std::string("a short str"); });
  m.def("make_array", [](const std::vector<int64_t>& v) { return static_cast<int64_t>(v.size()); });
  m.def("call_cb", [](const std::function<int64_t()>& cb) { return cb(); });
}
