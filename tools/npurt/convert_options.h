// The conversion settings shared by `npurt convert` and `npurt accuracy`: the
// options of rknn-toolkit2's config()/load_onnx()/build(), on the command line
// or in a YAML file (--config; the command line overrides the file), turned
// into compiler::CompileOptions and an optimized graph. Every bad value throws
// a Failure whose message is one line naming the problem.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/ir/graph.h"

namespace npurt {
namespace cli {

struct ConvertArgs {
  std::string model;
  std::string output;
  std::string name;  // rknn_convert's `name:` (the output file's stem); "" without

  std::string config;
  std::string target_platform;
  std::vector<std::string> input_shapes;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> mean_values;
  std::vector<std::string> std_values;
  std::vector<std::string> reorder_channels;
  std::vector<std::string> quant_img_rgb2bgr;  // per input true/false: calibration images decoded as BGR
  std::string custom_string;
  std::string float_dtype;  // "": not given (float16, as the board)
  bool remove_weight = false;
  std::vector<std::string> custom_ops;  // op types that are custom ops in any domain (comma-separated or repeated)
  std::vector<std::string> custom_op_plugins;  // libraries exporting get_rknn_custom_op(): custom ops the converter runs
  int64_t batch_size = -1;  // -1: not given
  std::vector<std::string> dynamic_input;  // one shape set each: "d0,d1,...[;d0,d1,...]" (one shape per input)
  bool quantize = false;
  std::string dataset;
  std::string quantized_algorithm;
  std::string quantized_method;
  std::vector<std::string> float_layers;
  std::vector<std::string> int16_layers;
  double int16_mac_budget = -1.0;  // < 0: not given
  double auto_hybrid = -1.0;       // < 0: not given; --auto-hybrid alone: 0.98
  std::string auto_hybrid_text;    // the command line's value ("" for a bare --auto-hybrid)
  std::string smooth_activations;  // "": not given
  std::string bias_correction;     // "": not given
  std::string weight_rounding;     // "": not given
  double int16_headroom = -1.0;    // < 0: not given
};

// The error of a failed conversion step: one line, no trailing newline.
struct Failure {
  std::string message;
};

// Splits on commas (and spaces), dropping empty pieces.
std::vector<std::string> SplitList(const std::string& s);

// Registers every conversion option except the model path and -o on `cmd`;
// `quantize_flag` adds --quantize (`accuracy` always quantizes).
void AddConversionOptions(CLI::App* cmd, ConvertArgs* args, bool quantize_flag);

// The conversion options given on the command line of `cmd`, and a copy of
// `args` where a bare --reorder-channels (which may have swallowed the model
// path that followed it) is fixed up: the path goes back to `model` and the
// flags become {"all"}.
std::vector<std::string> GivenConversionOptions(const CLI::App& cmd);
ConvertArgs FixBareReorderChannels(const CLI::App& cmd, ConvertArgs args);

// Loads args.config (if any) and lets the options in `given` override it. As rknn_convert does, the
// config's relative model and dataset paths are relative to the config file's directory.
// `command` ("convert") prefixes the warnings printed for unknown YAML keys.
ConvertArgs MergeConfig(ConvertArgs args, const std::vector<std::string>& given, const char* command);

// The compile options of `args`. `reorder_all` is set for a bare
// --reorder-channels, which ImportGraph applies to every 4-D float input.
compiler::CompileOptions ToCompileOptions(const ConvertArgs& args, bool* reorder_all);

// The conversion itself (`npurt convert`, rknn_convert, the Python toolkit's build): the model file's
// bytes and the build report; returns the compile options it used. Throws Failure.
compiler::CompileOptions ConvertModel(const ConvertArgs& args, std::vector<uint8_t>* bytes,
                                      compiler::BuildReport* report);

// compiler::ImportAndOptimize, plus the bare --reorder-channels.
void ImportGraph(const std::string& model, const compiler::CompileOptions& options, bool reorder_all,
                 compiler::Graph* graph);

}  // namespace cli
}  // namespace npurt
