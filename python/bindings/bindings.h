// The pieces of the npurt._npurt extension module (module.cc puts them together).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace npurt {
namespace python {

// Raises npurt._npurt.Error (a RuntimeError): a conversion, configuration or file problem.
[[noreturn]] void RaiseError(const std::string& message);
// Raises npurt._npurt.RknnError (an Error) whose args are (message, code): a C API call failed.
[[noreturn]] void RaiseRknnError(int code, const std::string& message);

void BindCompiler(pybind11::module_& m);
void BindRuntime(pybind11::module_& m);

}  // namespace python
}  // namespace npurt
