// npurt._npurt: the compiler (compiler_bindings.cc) and the runtime (runtime_bindings.cc) for the
// Python packages npurt, rknn and rknnlite. Errors surface as exceptions of two types, never as a
// crash: Error (conversion, configuration, files) and RknnError (a C API call, with its RKNN code).
#include <pybind11/pybind11.h>

#include <string>
#include <utility>

#include "python/bindings/bindings.h"

namespace py = pybind11;

namespace npurt {
namespace python {
namespace {

// The exception types, created once when the module loads.
PyObject* g_error = nullptr;
PyObject* g_rknn_error = nullptr;

// Plain C++ data (no Python object), so it may be thrown and destroyed without the GIL; the translator
// builds the exception's args.
struct PendingError {
  PyObject* type;
  std::string message;
  bool has_code;
  int code;
};

}  // namespace

void RaiseError(const std::string& message) { throw PendingError{g_error, message, false, 0}; }

void RaiseRknnError(int code, const std::string& message) { throw PendingError{g_rknn_error, message, true, code}; }

}  // namespace python
}  // namespace npurt

PYBIND11_MODULE(_npurt, m) {
  using npurt::python::g_error;
  using npurt::python::g_rknn_error;
  m.doc() = "npurt's compiler and runtime for the npurt, rknn and rknnlite Python packages";
  static py::exception<std::runtime_error> error(m, "Error", PyExc_RuntimeError);
  static py::exception<std::runtime_error> rknn_error(m, "RknnError", error.ptr());
  g_error = error.ptr();
  g_rknn_error = rknn_error.ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const npurt::python::PendingError& e) {
      const py::tuple args = e.has_code ? py::make_tuple(e.message, e.code) : py::make_tuple(e.message);
      PyErr_SetObject(e.type, args.ptr());
    }
  });
  npurt::python::BindCompiler(m);
  npurt::python::BindRuntime(m);
}
