// `npurt info model.rknn`: what a model file holds — I/O attributes (normal and
// native), operators in execution order, the memory plan and sizes.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "runtime/core/native_layout.h"
#include "runtime/core/op_macs.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/ops/op.h"
#include "tools/npurt/commands.h"

namespace npurt {
namespace cli {
namespace {

// Shortest text that reads back as the same float ("0.485", "58.395").
std::string FormatNumber(float v) {
  char buf[32];
  for (int precision = 6; precision <= 9; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, static_cast<double>(v));
    if (std::strtof(buf, nullptr) == v) break;
  }
  return buf;
}

const char* StorageName(Storage s) {
  switch (s) {
    case Storage::kConstant: return "weights";
    case Storage::kShared: return "shared weights";
    case Storage::kArena: return "arena";
    case Storage::kInput: return "input";
    case Storage::kOutput: return "output";
  }
  return "?";
}

void PrintAttr(const char* label, const IoAttr& a) {
  std::printf("    %-14s dims=%s fmt=%s type=%s size=%llu w_stride=%u size_with_stride=%llu\n", label,
              ShapeToString(a.dims).c_str(), LayoutName(a.fmt), DataTypeName(a.dtype),
              static_cast<unsigned long long>(a.size), a.w_stride, static_cast<unsigned long long>(a.size_with_stride));
}

int Info(const std::string& path) {
  std::shared_ptr<const Model> m;
  Status s = Model::Load(path.c_str(), 0, &m);
  if (!s.ok()) {
    std::fprintf(stderr, "npurt info: %s\n", s.message().c_str());
    return 1;
  }
  std::printf("Model: %s\n", path.c_str());
  std::printf("  format version %u, toolkit '%s', target platform %s, framework %s\n", m->format_version(),
              m->toolkit_version().c_str(), m->target_platform().c_str(), m->framework().c_str());
  std::printf("  custom string: '%s'\n", m->custom_string().c_str());
  std::printf("  float values stored in %s\n", m->float_dtype() == DataType::kFloat16
                                                   ? "float16 (every float op's output rounded, as the NPU)"
                                                   : "float32");
  std::printf("  file %zu bytes, weights %llu bytes, arena %llu bytes\n", m->file_size(),
              static_cast<unsigned long long>(m->weights_size()), static_cast<unsigned long long>(m->arena_size()));
  // A dynamic-shape model: what rknn_set_input_shapes can choose (the sections below show the largest set).
  for (size_t k = 0; k < m->shape_sets().size(); ++k) {
    const ModelGraph& g = m->shape_sets()[k];
    std::string inputs;
    for (const IoDesc& io : g.inputs) inputs += (inputs.empty() ? "" : ", ") + ShapeToString(g.tensors[io.tensor].shape);
    std::printf("  shape set %zu: inputs %s, arena %llu bytes\n", k, inputs.c_str(),
                static_cast<unsigned long long>(g.arena_size));
  }
  std::printf("\n");
  for (int pass = 0; pass < 2; ++pass) {
    const bool is_input = pass == 0;
    const auto& list = is_input ? m->inputs() : m->outputs();
    std::printf("%s (%zu):\n", is_input ? "Inputs" : "Outputs", list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      const IoDesc& io = list[i];
      const TensorDesc& t = m->tensors()[io.tensor];
      std::printf("  [%zu] %s  model shape %s %s\n", i, t.name.c_str(), ShapeToString(t.shape).c_str(),
                  DataTypeName(t.dtype));
      PrintAttr("attr", DescribeIo(*m, is_input, static_cast<int>(i), AttrView::kNormal));
      PrintAttr("native", DescribeIo(*m, is_input, static_cast<int>(i), AttrView::kNative));
      PrintAttr("native NHWC", DescribeIo(*m, is_input, static_cast<int>(i), AttrView::kNativeNhwc));
      if (!io.mean.empty() || !io.std.empty() || !io.channel_order.empty()) {
        std::string pre;
        auto list = [](const std::vector<float>& v) {
          std::string s;
          for (float x : v) s += (s.empty() ? "" : ",") + FormatNumber(x);
          return s;
        };
        if (!io.channel_order.empty()) {
          std::string order;
          for (int c : io.channel_order) order += (order.empty() ? "" : ",") + std::to_string(c);
          pre += " channel_order=[" + order + "]";
        }
        if (!io.mean.empty()) pre += " mean=[" + list(io.mean) + "]";
        if (!io.std.empty()) pre += " std=[" + list(io.std) + "]";
        std::printf("    preprocess    %s\n", pre.c_str());
      }
    }
    std::printf("\n");
  }
  // The kernels rknn_init chooses on this CPU (runtime/kernels/dispatch.h).
  std::unique_ptr<Context> context;
  const Status init = Context::Create(m, ContextOptions(), &context);
  std::printf("Operators (%zu, execution order; precision = the type of the first input; kernel = what rknn_init "
              "chooses on this CPU, target %s):\n",
              m->ops().size(), CpuTargetName(ActiveCpuTarget()));
  if (!init.ok()) std::printf("  (kernels unknown: rknn_init fails: %s)\n", init.message().c_str());
  const bool kernels_known = init.ok() && context->nodes().size() == m->ops().size();
  // MACs per precision: how much of the model's arithmetic runs in int8.
  std::map<std::string, int64_t> macs_by_precision;
  int64_t total_macs = 0;
  for (size_t k = 0; k < m->ops().size(); ++k) {
    const OpDesc& op = m->ops()[k];
    std::string ins, outs;
    std::vector<const Shape*> shapes;
    for (int i : op.inputs) {
      ins += (ins.empty() ? "" : ", ") + (i < 0 ? std::string("-") : m->tensors()[i].name);
      shapes.push_back(i < 0 ? nullptr : &m->tensors()[i].shape);
    }
    for (int o : op.outputs) {
      outs += (outs.empty() ? "" : ", ") + m->tensors()[o].name + ShapeToString(m->tensors()[o].shape);
    }
    const char* precision = op.inputs.empty() || op.inputs[0] < 0 ? "-" : DataTypeName(m->tensors()[op.inputs[0]].dtype);
    const int64_t macs = op.outputs.empty() ? 0 : OpMacs(op.def->name, op.attrs, shapes, m->tensors()[op.outputs[0]].shape);
    if (macs > 0) {
      macs_by_precision[precision] += macs;
      total_macs += macs;
    }
    std::printf("  %3zu %-18s %-8s %-28s (%s) -> %s  [%s]\n", k, op.def->name, precision, op.name.c_str(), ins.c_str(),
                outs.c_str(), kernels_known ? context->nodes()[k].kernel.c_str() : "?");
  }
  if (total_macs > 0) {
    std::printf("\nMACs: %.3f G", static_cast<double>(total_macs) * 1e-9);
    for (const auto& [precision, macs] : macs_by_precision) {
      std::printf(", %s %.1f%%", precision.c_str(), 100.0 * static_cast<double>(macs) / static_cast<double>(total_macs));
    }
    std::printf("\n");
  }
  std::printf("\nMemory plan (tensor, storage, offset, bytes):\n");
  for (const TensorDesc& t : m->tensors()) {
    std::printf("  %-36s %-8s %10llu %10llu\n", t.name.c_str(), StorageName(t.storage),
                static_cast<unsigned long long>(t.offset), static_cast<unsigned long long>(t.size));
  }
  return 0;
}

}  // namespace

void AddInfoCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("info", "Show a model's I/O attributes, operators, memory plan and sizes");
  static std::string model;
  cmd->add_option("model", model, "npurt model file (.rknn)")->required()->check(CLI::ExistingFile);
  cmd->callback([exit_code]() { *exit_code = Info(model); });
}

}  // namespace cli
}  // namespace npurt
