#include "tools/npurt/convert_options.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "compiler/emit/target_platform.h"

namespace npurt {
namespace cli {
namespace {

bool ParseInt(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *v = x;
  return true;
}

bool ParseFloat(const std::string& s, float* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const float x = std::strtof(s.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(x)) return false;
  *v = x;
  return true;
}

bool ParseBool(const std::string& s, bool* v) {
  std::string l;
  for (char c : s) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "1" || l == "true" || l == "yes" || l == "on") return *v = true, true;
  if (l == "0" || l == "false" || l == "no" || l == "off") return *v = false, true;
  return false;
}

Shape ParseShape(const std::string& what, const std::string& text) {
  Shape shape;
  for (const std::string& p : SplitList(text)) {
    int64_t d = 0;
    if (!ParseInt(p, &d) || d <= 0) throw Failure{what + ": bad dim '" + p + "' in '" + text + "' (want positive integers)"};
    shape.push_back(d);
  }
  if (shape.empty()) throw Failure{what + ": empty shape"};
  return shape;
}

std::vector<float> ParseFloats(const std::string& what, const std::string& text) {
  std::vector<float> values;
  for (const std::string& p : SplitList(text)) {
    float v = 0;
    if (!ParseFloat(p, &v)) throw Failure{what + ": bad number '" + p + "' in '" + text + "'"};
    values.push_back(v);
  }
  if (values.empty()) throw Failure{what + ": no values in '" + text + "'"};
  return values;
}

// "NAME:1,3,640,640"; the name may itself contain ':' (TensorFlow names), the dims never do.
void AddInputShape(const std::string& text, compiler::CompileOptions* o) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    throw Failure{"--input-shapes: expected NAME:d0,d1,... (e.g. x:1,3,640,640), got '" + text + "'"};
  }
  const std::string name = text.substr(0, colon);
  o->input_shapes[name] = ParseShape("--input-shapes " + name, text.substr(colon + 1));
}

// ---- YAML (--config) ----

std::string YamlWhere(const std::string& file, const std::string& key) { return file + ": '" + key + "'"; }

std::string ScalarOf(const YAML::Node& n, const std::string& where) {
  if (!n.IsScalar()) throw Failure{where + " must be a single value"};
  return n.as<std::string>();
}

std::vector<std::string> StringList(const YAML::Node& n, const std::string& where) {
  std::vector<std::string> out;
  if (n.IsNull()) return out;
  if (n.IsScalar()) return SplitList(n.as<std::string>());
  if (!n.IsSequence()) throw Failure{where + " must be a list of names"};
  for (const YAML::Node& e : n) out.push_back(ScalarOf(e, where));
  return out;
}

// A per-input list of number lists: [[a,b,c],[d,e,f]], or [a,b,c] / "a,b,c" for one input.
std::vector<std::string> PerInputLists(const YAML::Node& n, const std::string& where) {
  std::vector<std::string> out;
  if (n.IsNull()) return out;
  if (n.IsScalar()) return {n.as<std::string>()};
  if (!n.IsSequence()) throw Failure{where + " must be a list"};
  bool nested = false;
  for (const YAML::Node& e : n) nested |= e.IsSequence();
  if (!nested) {
    // Flat: one list of numbers (one input), or a list of "a,b,c" strings (one per input).
    bool strings = false;
    for (const YAML::Node& e : n) strings |= e.IsScalar() && e.as<std::string>().find(',') != std::string::npos;
    if (strings) {
      for (const YAML::Node& e : n) out.push_back(ScalarOf(e, where));
      return out;
    }
    std::string joined;
    for (const YAML::Node& e : n) joined += ScalarOf(e, where) + ",";
    return {joined};
  }
  for (const YAML::Node& e : n) {
    std::string joined;
    if (e.IsSequence()) {
      for (const YAML::Node& v : e) joined += ScalarOf(v, where) + ",";
    } else {
      joined = ScalarOf(e, where);
    }
    out.push_back(joined);
  }
  return out;
}

// A path written in the config file: relative ones are relative to the file's directory.
std::string NextToConfig(const std::string& config, const std::string& path) {
  const std::filesystem::path p(path);
  if (path.empty() || p.is_absolute()) return path;
  return (std::filesystem::path(config).parent_path() / p).lexically_normal().string();
}

// Settings from the YAML file. Accepts flat keys (target_platform, mean_values,
// std_values, quant_img_RGB2BGR, custom_string, remove_weight, inputs, outputs,
// input_size_list, input_shapes, model, output) and rknn_convert's layout
// (models: {model_file_path, subgraphs: {...}, configs: {...}}).
void ApplyYamlMap(const YAML::Node& map, const std::string& file, const char* command, ConvertArgs* args,
                  std::vector<std::string>* size_list) {
  for (const auto& kv : map) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    const std::string where = YamlWhere(file, key);
    if (key == "models" || key == "subgraphs" || key == "configs") {
      if (!v.IsMap()) throw Failure{where + " must be a mapping"};
      ApplyYamlMap(v, file, command, args, size_list);
    } else if (key == "target_platform") {
      args->target_platform = v.IsSequence() && v.size() > 0 ? ScalarOf(v[0], where) : ScalarOf(v, where);
    } else if (key == "mean_values") {
      args->mean_values = PerInputLists(v, where);
    } else if (key == "std_values") {
      args->std_values = PerInputLists(v, where);
    } else if (key == "quant_img_RGB2BGR") {
      args->quant_img_rgb2bgr = StringList(v, where);
    } else if (key == "reorder_channels") {
      args->reorder_channels = StringList(v, where);
    } else if (key == "custom_string") {
      args->custom_string = ScalarOf(v, where);
    } else if (key == "float_dtype") {
      args->float_dtype = ScalarOf(v, where);
    } else if (key == "dynamic_input") {
      // rknn-toolkit2's layout: a list of shape sets, each a list of one shape per input.
      const std::string form = where + " must be a list of shape sets, e.g. [[[1,3,224,224]], [[1,3,160,160]]]";
      if (!v.IsSequence()) throw Failure{form};
      args->dynamic_input.clear();
      for (const YAML::Node& set : v) {
        if (!set.IsSequence()) throw Failure{form};
        std::string text;
        for (const YAML::Node& shape : set) {
          if (!shape.IsSequence()) throw Failure{form};
          std::string dims;
          for (const YAML::Node& d : shape) dims += (dims.empty() ? "" : ",") + ScalarOf(d, where);
          text += (text.empty() ? "" : ";") + dims;
        }
        args->dynamic_input.push_back(text);
      }
    } else if (key == "rknn_batch_size" || key == "batch_size") {
      const std::string text = ScalarOf(v, where);
      char* end = nullptr;
      const long long n = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || n < 1) throw Failure{where + " must be a positive integer, got '" + text + "'"};
      args->batch_size = n;
    } else if (key == "inputs") {
      args->inputs = StringList(v, where);
    } else if (key == "outputs") {
      args->outputs = StringList(v, where);
    } else if (key == "input_size_list") {
      *size_list = PerInputLists(v, where);
    } else if (key == "input_shapes") {
      if (!v.IsMap()) throw Failure{where + " must map input names to shapes"};
      for (const auto& s : v) {
        std::string dims;
        if (s.second.IsSequence()) {
          for (const YAML::Node& d : s.second) dims += ScalarOf(d, where) + ",";
        } else {
          dims = ScalarOf(s.second, where);
        }
        args->input_shapes.push_back(s.first.as<std::string>() + ":" + dims);
      }
    } else if (key == "model" || key == "model_file_path") {
      if (args->model.empty()) args->model = NextToConfig(file, ScalarOf(v, where));
    } else if (key == "name") {
      args->name = ScalarOf(v, where);
    } else if (key == "platform") {
      const std::string platform = ScalarOf(v, where);
      if (platform != "onnx") throw Failure{where + ": platform '" + platform + "': npurt converts ONNX models only"};
    } else if (key == "output" || key == "output_path") {
      if (args->output.empty()) args->output = ScalarOf(v, where);
    } else if (key == "custom_ops") {
      args->custom_ops = StringList(v, where);
    } else if (key == "custom_op_plugins") {
      for (const std::string& p : StringList(v, where)) args->custom_op_plugins.push_back(NextToConfig(file, p));
    } else if (key == "remove_weight") {
      if (!ParseBool(ScalarOf(v, where), &args->remove_weight)) throw Failure{where + " must be true or false"};
    } else if (key == "quantize" || key == "do_quantization") {
      if (!ParseBool(ScalarOf(v, where), &args->quantize)) throw Failure{where + " must be true or false"};
    } else if (key == "dataset") {
      args->dataset = NextToConfig(file, ScalarOf(v, where));
    } else if (key == "quantized_algorithm") {
      args->quantized_algorithm = ScalarOf(v, where);
    } else if (key == "quantized_method") {
      args->quantized_method = ScalarOf(v, where);
    } else if (key == "quantized_dtype") {
      const std::string dtype = ScalarOf(v, where);
      if (dtype != "w8a8" && dtype != "asymmetric_quantized-8") {
        throw Failure{where + ": quantized_dtype '" + dtype + "' is not supported (npurt: w8a8)"};
      }
    } else if (key == "float_layers") {
      args->float_layers = StringList(v, where);
    } else if (key == "int16_layers") {
      args->int16_layers = StringList(v, where);
    } else if (key == "auto_hybrid") {
      const std::string value = ScalarOf(v, where);
      bool on = false;
      if (ParseBool(value, &on)) {
        args->auto_hybrid = on ? compiler::kDefaultAutoHybridThreshold : -1.0;
      } else {
        try {
          args->auto_hybrid = std::stod(value);
        } catch (const std::exception&) {
          throw Failure{where + " must be true, false or a cosine threshold"};
        }
      }
    } else if (key == "int16_headroom") {
      try {
        args->int16_headroom = std::stod(ScalarOf(v, where));
      } catch (const std::exception&) {
        throw Failure{where + " must be a number"};
      }
    } else if (key == "smooth_activations") {
      args->smooth_activations = ScalarOf(v, where);
    } else if (key == "bias_correction") {
      args->bias_correction = ScalarOf(v, where);
    } else if (key == "weight_rounding") {
      args->weight_rounding = ScalarOf(v, where);
    } else if (key == "int16_mac_budget") {
      try {
        args->int16_mac_budget = std::stod(ScalarOf(v, where));
      } catch (const std::exception&) {
        throw Failure{where + " must be a number"};
      }
    } else {
      std::fprintf(stderr, "npurt %s: warning: %s: ignoring key '%s'\n", command, file.c_str(), key.c_str());
    }
  }
}

void LoadConfig(const std::string& file, const char* command, ConvertArgs* args) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) throw Failure{"config '" + file + "' is a directory, not a YAML file"};
  std::ifstream in(file);
  if (!in) throw Failure{"cannot open config '" + file + "': " + std::strerror(errno)};
  YAML::Node root;
  try {
    root = YAML::Load(in);
  } catch (const YAML::Exception& e) {
    throw Failure{"config '" + file + "' is not valid YAML: " + e.what()};
  } catch (const std::exception& e) {  // a read error (std::ios_base::failure)
    throw Failure{"cannot read config '" + file + "': " + e.what()};
  }
  if (root.IsNull()) return;
  if (!root.IsMap()) throw Failure{"config '" + file + "' must be a YAML mapping of settings"};
  std::vector<std::string> size_list;
  try {
    ApplyYamlMap(root, file, command, args, &size_list);
  } catch (const YAML::Exception& e) {
    throw Failure{"config '" + file + "': " + e.what()};
  }
  if (!size_list.empty()) {
    if (args->inputs.size() != size_list.size()) {
      throw Failure{file + ": input_size_list has " + std::to_string(size_list.size()) +
                    " entries; 'inputs' must name the same number of inputs (it has " +
                    std::to_string(args->inputs.size()) + ")"};
    }
    for (size_t i = 0; i < size_list.size(); ++i) args->input_shapes.push_back(args->inputs[i] + ":" + size_list[i]);
  }
}

}  // namespace

// Splits on commas (and spaces), dropping empty pieces.
std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',' || c == ' ' || c == '\t' || c == '[' || c == ']') {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return parts;
}

void AddConversionOptions(CLI::App* cmd, ConvertArgs* args, bool quantize_flag) {
  std::string platforms;
  for (const std::string& n : compiler::TargetPlatformNames()) platforms += (platforms.empty() ? "" : ", ") + n;
  cmd->add_option("-t,--target-platform", args->target_platform,
                  "Target platform: " + platforms + " (default rk3588); sets native C2 and width alignment");
  cmd->add_option("--input-shapes", args->input_shapes,
                  "NAME:d0,d1,... fixes an input's shape (required for dynamic or named dims); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--inputs", args->inputs, "Cut a subgraph: these tensors become the inputs (comma-separated, in order)")
      ->allow_extra_args(false);
  cmd->add_option("--outputs", args->outputs, "Cut a subgraph: these tensors become the outputs (comma-separated)")
      ->allow_extra_args(false);
  cmd->add_option("--mean-values", args->mean_values,
                  "Per input, in input order: comma-separated per-channel means subtracted from the input "
                  "(in the model's channel order); repeat for each input")
      ->allow_extra_args(false);
  cmd->add_option("--std-values", args->std_values,
                  "Per input, in input order: comma-separated per-channel divisors; repeat for each input")
      ->allow_extra_args(false);
  cmd->add_option("--reorder-channels", args->reorder_channels,
                  "Per input: true to reverse the channel order (RGB <-> BGR) when inputs are set (stored in "
                  "the model, as rknn-toolkit 1's reorder_channel); comma-separated or repeated, in input order. "
                  "Without a value: every 4-D float input")
      ->expected(0, 1)
      ->allow_extra_args(false);
  cmd->add_option("--quant-img-rgb2bgr", args->quant_img_rgb2bgr,
                  "Per input: true to decode calibration images as BGR (rknn-toolkit2's quant_img_RGB2BGR: for a "
                  "model that takes BGR; the model is unchanged, .npy samples are used as they are); "
                  "comma-separated or repeated, in input order")
      ->allow_extra_args(false);
  cmd->add_option("--custom-string", args->custom_string, "Free text stored in the model (RKNN_QUERY_CUSTOM_STRING)");
  cmd->add_option("--custom-op", args->custom_ops,
                  "An op type whose nodes are custom ops (rknn_custom_op.h) even in ONNX's domain, e.g. cstSoftmax "
                  "(nodes of other domains always are); comma-separated or repeated")
      ->allow_extra_args(false);
  cmd->add_option("--custom-op-plugin", args->custom_op_plugins,
                  "A library exporting get_rknn_custom_op() (the vendor's custom op plugin form) whose op the "
                  "converter runs where it runs the model: calibration with --quantize, npurt accuracy; repeated "
                  "for several")
      ->allow_extra_args(false);
  cmd->add_flag("--remove-weight", args->remove_weight,
                "Leave out the weights (constants of 1 KiB or more): the model takes them at rknn_init from a "
                "context of this model converted without the flag (RKNN_FLAG_SHARE_WEIGHT_MEM, extend->ctx); "
                "rknn-toolkit2's remove_weight");
  cmd->add_option("--float-dtype", args->float_dtype,
                  "float16 (default, as the NPU: float weights, inputs and every float op's output stored in fp16, "
                  "which overflows beyond 65504) or float32 (ONNX Runtime's numbers); for float models and the "
                  "float layers of quantized ones (rknn-toolkit2's float_dtype)");
  cmd->add_option("--dynamic-input", args->dynamic_input,
                  "rknn-toolkit2's dynamic_input: one input shape set, a full shape per input in input order "
                  "separated by ';' (e.g. 1,3,224,224 or 1,3,224,224;1,10); repeat for each set. The application "
                  "picks a set with rknn_set_input_shapes")
      ->allow_extra_args(false);
  cmd->add_option("--batch-size", args->batch_size,
                  "rknn-toolkit2's rknn_batch_size: frames per run; every input's first dim (1 in the model) "
                  "becomes this, and every output's must follow");
  if (quantize_flag) {
    cmd->add_flag("--quantize", args->quantize,
                  "Quantize to int8 (w8a8: asymmetric per-tensor activations, symmetric per-channel weights), "
                  "calibrating on --dataset");
  }
  cmd->add_option("--dataset", args->dataset,
                  "Calibration dataset file as in rknn-toolkit2: one sample per line, one image (jpg/png/bmp) or "
                  ".npy path per input, separated by spaces");
  cmd->add_option("--quantized-algorithm", args->quantized_algorithm,
                  "Activation range: normal (min/max, default), mmse, kl_divergence");
  cmd->add_option("--quantized-method", args->quantized_method, "Weights: channel (per output channel, default) or layer");
  cmd->add_option("--float-layers", args->float_layers, "Node names kept in float (comma-separated or repeated)")
      ->allow_extra_args(false);
  cmd->add_option("--int16-layers", args->int16_layers,
                  "Node names whose activations are stored in int16 (comma-separated or repeated)")
      ->allow_extra_args(false);
  cmd->add_option("--auto-hybrid", args->auto_hybrid_text,
                  "Move every layer whose single-layer cosine (as npurt accuracy) is below THRESH to int16, and to "
                  "float if int16 is not enough (THRESH defaults to 0.98, as in rknn-toolkit2)")
      ->expected(0, 1);
  cmd->add_option("--int16-headroom", args->int16_headroom,
                  "int16 ranges are this many times the calibrated range (>= 1, default 1): room for inputs "
                  "beyond the calibration set's at the cost of precision");
  cmd->add_option("--smooth-activations", args->smooth_activations,
                  "true: divide each int8 tensor read by convolutions per channel and move the factors into their "
                  "weights (SmoothQuant), where an exact rewrite exists");
  cmd->add_option("--bias-correction", args->bias_correction,
                  "empirical (default, or true): each convolution's bias absorbs the mean error per channel that its "
                  "layer adds, measured on the quantized model; weights: only its int8 weights' rounding, from the "
                  "calibration set's input means; false: none");
  cmd->add_option("--weight-rounding", args->weight_rounding,
                  "gptq (default): the int8 weights of each convolution / matrix product output channel round one at "
                  "a time, each rounding error moved onto the weights not yet rounded as the calibration inputs "
                  "correlate (GPTQ); nearest: each weight to its nearest code");
  cmd->add_option("--int16-mac-budget", args->int16_mac_budget,
                  "Hybrid int16: every layer without multiply-accumulates computes on int16 activations, and so do "
                  "the cheapest layers with MACs while they stay within this share of the model's MACs (0 to 1); "
                  "the multiply-heavy layers read int8");
  cmd->add_option("--config", args->config,
                  "YAML file with the same settings (keys as in rknn-toolkit2: target_platform, mean_values, "
                  "std_values, quant_img_RGB2BGR, custom_string, remove_weight, inputs, outputs, input_size_list); "
                  "options on the command line override it");
}

std::vector<std::string> GivenConversionOptions(const CLI::App& cmd) {
  std::vector<std::string> given;
  for (const char* name : {"--target-platform", "--input-shapes", "--inputs", "--outputs", "--mean-values",
                           "--std-values", "--reorder-channels", "--custom-string", "--float-dtype", "--remove-weight", "--custom-op",
                           "--custom-op-plugin",
                           "--batch-size",
                           "--dynamic-input", "--quantize",
                           "--dataset", "--quant-img-rgb2bgr",
                           "--quantized-algorithm", "--quantized-method", "--float-layers", "--int16-layers",
                           "--int16-mac-budget", "--auto-hybrid", "--smooth-activations",
                           "--bias-correction", "--weight-rounding", "--int16-headroom"}) {
    if (cmd.get_option_no_throw(name) != nullptr && cmd.count(name) > 0) given.push_back(name);
  }
  return given;
}

ConvertArgs FixBareReorderChannels(const CLI::App& cmd, ConvertArgs a) {
  if (cmd.count("--reorder-channels") == 0) return a;
  std::vector<std::string> flags;
  for (const std::string& v : a.reorder_channels) {
    bool b = false;
    if (v.empty()) continue;  // CLI11 records a bare occurrence as an empty value
    if (a.model.empty() && !SplitList(v).empty() && !ParseBool(SplitList(v)[0], &b)) {
      a.model = v;
    } else {
      flags.push_back(v);
    }
  }
  a.reorder_channels = flags.empty() ? std::vector<std::string>{"all"} : flags;
  return a;
}

ConvertArgs MergeConfig(ConvertArgs args, const std::vector<std::string>& given, const char* command) {
  auto was_given = [&given](const char* name) {
    for (const std::string& g : given) {
      if (g == name) return true;
    }
    return false;
  };
  ConvertArgs cli = args;
  if (!args.config.empty()) {
    ConvertArgs from_file;
    from_file.model = args.model;
    from_file.output = args.output;
    LoadConfig(args.config, command, &from_file);
    args = from_file;
    args.config = cli.config;
    if (was_given("--target-platform")) args.target_platform = cli.target_platform;
    if (was_given("--input-shapes")) {
      args.input_shapes.insert(args.input_shapes.end(), cli.input_shapes.begin(), cli.input_shapes.end());
    }
    if (was_given("--inputs")) args.inputs = cli.inputs;
    if (was_given("--outputs")) args.outputs = cli.outputs;
    if (was_given("--mean-values")) args.mean_values = cli.mean_values;
    if (was_given("--std-values")) args.std_values = cli.std_values;
    if (was_given("--reorder-channels")) args.reorder_channels = cli.reorder_channels;
    if (was_given("--quant-img-rgb2bgr")) args.quant_img_rgb2bgr = cli.quant_img_rgb2bgr;
    if (was_given("--custom-string")) args.custom_string = cli.custom_string;
    if (was_given("--float-dtype")) args.float_dtype = cli.float_dtype;
    if (was_given("--remove-weight")) args.remove_weight = cli.remove_weight;
    if (was_given("--custom-op")) args.custom_ops = cli.custom_ops;
    if (was_given("--custom-op-plugin")) args.custom_op_plugins = cli.custom_op_plugins;
    if (was_given("--batch-size")) args.batch_size = cli.batch_size;
    if (was_given("--dynamic-input")) args.dynamic_input = cli.dynamic_input;
    if (was_given("--quantize")) args.quantize = cli.quantize;
    if (was_given("--dataset")) args.dataset = cli.dataset;
    if (was_given("--quantized-algorithm")) args.quantized_algorithm = cli.quantized_algorithm;
    if (was_given("--quantized-method")) args.quantized_method = cli.quantized_method;
    if (was_given("--float-layers")) args.float_layers = cli.float_layers;
    if (was_given("--int16-layers")) args.int16_layers = cli.int16_layers;
    if (was_given("--int16-mac-budget")) args.int16_mac_budget = cli.int16_mac_budget;
    if (was_given("--smooth-activations")) args.smooth_activations = cli.smooth_activations;
    if (was_given("--bias-correction")) args.bias_correction = cli.bias_correction;
    if (was_given("--weight-rounding")) args.weight_rounding = cli.weight_rounding;
    if (was_given("--int16-headroom")) args.int16_headroom = cli.int16_headroom;
  }
  // A bare --auto-hybrid has no value to store: its presence decides (with or without a config file).
  if (was_given("--auto-hybrid")) {
    if (cli.auto_hybrid_text.empty()) {
      args.auto_hybrid = compiler::kDefaultAutoHybridThreshold;
    } else {
      try {
        args.auto_hybrid = std::stod(cli.auto_hybrid_text);
      } catch (const std::exception&) {
        throw Failure{"--auto-hybrid takes a cosine threshold, got '" + cli.auto_hybrid_text + "'"};
      }
    }
  }
  return args;
}

compiler::CompileOptions ToCompileOptions(const ConvertArgs& args, bool* reorder_all) {
  compiler::CompileOptions o;
  if (!args.target_platform.empty()) o.target_platform = args.target_platform;
  if (compiler::FindTargetPlatform(o.target_platform) == nullptr) {
    std::string names;
    for (const std::string& n : compiler::TargetPlatformNames()) names += (names.empty() ? "" : ", ") + n;
    throw Failure{"unknown target platform '" + o.target_platform + "' (known: " + names + ")"};
  }
  for (const std::string& s : args.input_shapes) AddInputShape(s, &o);
  for (const std::string& s : args.inputs) {
    for (const std::string& n : SplitList(s)) o.inputs.push_back(n);
  }
  for (const std::string& s : args.outputs) {
    for (const std::string& n : SplitList(s)) o.outputs.push_back(n);
  }
  for (size_t i = 0; i < args.mean_values.size(); ++i) {
    o.mean_values.push_back(ParseFloats("mean values of input " + std::to_string(i), args.mean_values[i]));
  }
  for (size_t i = 0; i < args.std_values.size(); ++i) {
    o.std_values.push_back(ParseFloats("std values of input " + std::to_string(i), args.std_values[i]));
  }
  // A bare --reorder-channels ("all") reverses the channels of every 4-D input.
  *reorder_all = args.reorder_channels.size() == 1 && args.reorder_channels[0] == "all";
  for (const std::string& s : args.reorder_channels) {
    if (*reorder_all) break;
    for (const std::string& p : SplitList(s)) {
      bool b = false;
      if (!ParseBool(p, &b)) throw Failure{"--reorder-channels: expected true/false per input, got '" + p + "'"};
      o.reorder_channels.push_back(b);
    }
  }
  for (const std::string& s : args.quant_img_rgb2bgr) {
    for (const std::string& p : SplitList(s)) {
      bool b = false;
      if (!ParseBool(p, &b)) throw Failure{"--quant-img-rgb2bgr: expected true/false per input, got '" + p + "'"};
      o.quant_img_rgb2bgr.push_back(b);
    }
  }
  o.custom_string = args.custom_string;
  if (args.float_dtype.empty() || args.float_dtype == "float16") {
    o.float_dtype = DataType::kFloat16;
  } else if (args.float_dtype == "float32") {
    o.float_dtype = DataType::kFloat32;
  } else {
    throw Failure{"--float-dtype must be float16 or float32, got '" + args.float_dtype + "'"};
  }
  for (size_t k = 0; k < args.dynamic_input.size(); ++k) {
    std::vector<Shape> set;
    std::string text = args.dynamic_input[k];
    for (size_t start = 0; start <= text.size();) {
      const size_t end = std::min(text.find(';', start), text.size());
      set.push_back(ParseShape("--dynamic-input set " + std::to_string(k), text.substr(start, end - start)));
      start = end + 1;
    }
    o.dynamic_input.push_back(std::move(set));
  }
  if (args.batch_size != -1) {
    if (args.batch_size < 1) throw Failure{"--batch-size must be at least 1, got " + std::to_string(args.batch_size)};
    o.batch_size = args.batch_size;
  }
  o.quantize = args.quantize;
  o.remove_weight = args.remove_weight;
  o.custom_op_plugins = args.custom_op_plugins;
  for (const std::string& s : args.custom_ops) {
    for (const std::string& type : SplitList(s)) {
      if (type.empty()) throw Failure{"--custom-op: empty op type"};
      o.custom_op_types.push_back(type);
    }
  }
  o.dataset = args.dataset;
  if (!args.quantized_algorithm.empty()) o.quantized_algorithm = args.quantized_algorithm;
  if (!args.quantized_method.empty()) o.quantized_method = args.quantized_method;
  for (const std::string& s : args.float_layers) {
    for (const std::string& name : SplitList(s)) o.float_layers.push_back(name);
  }
  for (const std::string& s : args.int16_layers) {
    for (const std::string& name : SplitList(s)) o.int16_layers.push_back(name);
  }
  if (args.int16_mac_budget >= 0.0) {
    if (!(args.int16_mac_budget <= 1.0)) throw Failure{"--int16-mac-budget must be between 0 and 1"};
    o.int16_mac_budget = args.int16_mac_budget;
  }
  if (args.int16_headroom >= 0.0) {
    if (!(args.int16_headroom >= 1.0 && args.int16_headroom <= 256.0)) {
      throw Failure{"--int16-headroom must be between 1 and 256"};
    }
    o.int16_headroom = static_cast<float>(args.int16_headroom);
  }
  if (!args.smooth_activations.empty()) {
    bool on = false;
    if (!ParseBool(args.smooth_activations, &on)) throw Failure{"--smooth-activations must be true or false"};
    o.smooth_activations = on;
  }
  if (!args.bias_correction.empty()) {
    bool on = false;
    if (args.bias_correction == "empirical" || (ParseBool(args.bias_correction, &on) && on)) {
      o.bias_correction = compiler::BiasCorrection::kEmpirical;
    } else if (args.bias_correction == "weights") {
      o.bias_correction = compiler::BiasCorrection::kWeights;
    } else if (ParseBool(args.bias_correction, &on)) {
      o.bias_correction = compiler::BiasCorrection::kNone;
    } else {
      throw Failure{"--bias-correction must be empirical, weights or false"};
    }
  }
  if (!args.weight_rounding.empty()) {
    if (args.weight_rounding == "nearest") {
      o.weight_rounding = compiler::WeightRounding::kNearest;
    } else if (args.weight_rounding == "gptq") {
      o.weight_rounding = compiler::WeightRounding::kGptq;
    } else {
      throw Failure{"--weight-rounding must be nearest or gptq"};
    }
  }
  if (args.auto_hybrid >= 0.0) {
    if (!(args.auto_hybrid > 0.0 && args.auto_hybrid <= 1.0)) throw Failure{"--auto-hybrid threshold must be in (0, 1]"};
    o.auto_hybrid_threshold = args.auto_hybrid;
  }
  o.progress = true;  // drawn only when stderr is a terminal
  // (--quant-img-rgb2bgr is not among them: like rknn-toolkit2, a float conversion has no images to decode.)
  if (!o.quantize && (!o.dataset.empty() || !args.quantized_algorithm.empty() || !args.quantized_method.empty() ||
                      !o.float_layers.empty() || !o.int16_layers.empty() || args.int16_mac_budget >= 0.0 ||
                      args.auto_hybrid >= 0.0 || args.int16_headroom >= 0.0 || !args.smooth_activations.empty() ||
                      !args.bias_correction.empty() || !args.weight_rounding.empty())) {
    throw Failure{"--dataset, --quantized-algorithm, --quantized-method, --float-layers, --int16-layers, "
                  "--int16-mac-budget, --int16-headroom, --auto-hybrid, --smooth-activations, --bias-correction "
                  "and --weight-rounding need --quantize"};
  }

  return o;
}

void ImportGraph(const std::string& model, const compiler::CompileOptions& options, bool reorder_all,
                 compiler::Graph* graph) {
  Status s = compiler::ImportAndOptimize(model, options, graph);
  if (!s.ok()) throw Failure{s.message()};
  if (!reorder_all) return;
  for (compiler::IrInput& in : graph->inputs()) {
    const compiler::IrTensor& t = graph->tensors()[in.tensor];
    if (t.shape.size() != 4 || t.dtype != DataType::kFloat32) continue;
    in.channel_order.clear();
    for (int64_t c = t.shape[1]; c-- > 0;) in.channel_order.push_back(static_cast<int>(c));
  }
}

}  // namespace cli
}  // namespace npurt

namespace npurt {
namespace cli {

compiler::CompileOptions ConvertModel(const ConvertArgs& args, std::vector<uint8_t>* bytes,
                                      compiler::BuildReport* report) {
  bool reorder_all = false;
  const compiler::CompileOptions o = ToCompileOptions(args, &reorder_all);
  Status s;
  if (o.dynamic_input.empty()) {
    // CompileOnnxFile's steps, with the bare --reorder-channels applied between them.
    compiler::Graph graph;
    ImportGraph(args.model, o, reorder_all, &graph);
    s = compiler::Build(o, &graph, bytes, report);
  } else {
    if (reorder_all) {
      throw Failure{"--dynamic-input needs --reorder-channels with a value per input (true/false), not bare"};
    }
    s = compiler::CompileOnnxFile(args.model, o, bytes, report);
  }
  if (!s.ok()) throw Failure{s.message()};
  return o;
}

}  // namespace cli
}  // namespace npurt
