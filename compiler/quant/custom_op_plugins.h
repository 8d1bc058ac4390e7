// The implementations of custom ops (rknn_custom_op.h) that the converter runs where it runs a model --
// calibration, weight rounding, accuracy analysis: plugin libraries in the vendor's form, each exporting
// `rknn_custom_op* get_rknn_custom_op()` (the form rknn_server loads on the board). Without them a model
// with custom ops converts in float only, since the converter has no code of the application's to run.
#pragma once

#include <string>
#include <vector>

#include "rknn_custom_op.h"
#include "runtime/core/context.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

// Loads the plugin at `path` (once per path for the process; libraries stay loaded) and adds its op to the
// set every context the converter opens registers. Fails with kParamInvalid naming the file and the problem.
Status UseCustomOpPlugin(const std::string& path);

// Whether a loaded plugin implements `op_type`.
bool HasCustomOpImplementation(const std::string& op_type);

// Registers on `context` the loaded implementations of the custom op types its model has.
Status RegisterCustomOpImplementations(Context* context);

}  // namespace compiler
}  // namespace npurt
