#include "runtime/core/profiler.h"

#include <cstdio>
#include <ctime>

#include <cctype>
#include <cstdlib>
#include <cstring>

#include "runtime/core/log.h"
#include "runtime/core/npy.h"
#include "runtime/kernels/ref/cast.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/ops/op.h"

namespace npurt {

int64_t NowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void OpTimeProfiler::BeginOp(int index, const OpNode&) { begin_ns_[index] = NowNs(); }
void OpTimeProfiler::EndOp(int index, const OpNode&) { elapsed_ns_[index] = NowNs() - begin_ns_[index]; }

LayerDebugProfiler::LayerDebugProfiler(size_t num_ops)
    : OpTimeProfiler(num_ops), dump_(LogEnabled(LogLevel::kDump)) {
  const char* dir = std::getenv("RKNN_DUMP_DIR");
  dump_dir_ = dir != nullptr && *dir != '\0' ? dir : ".";
}

void LayerDebugProfiler::EndOp(int index, const OpNode& node) {
  OpTimeProfiler::EndOp(index, node);
  NPURT_LOG(kLayer, "layer %d %s '%s': %.3f ms", index + 1, node.def->name, node.name.c_str(),
            elapsed_ns()[index] / 1e6);
  if (!dump_) return;
  for (const Tensor* t : node.outputs) {
    npy::NpyArray a;
    a.dtype = DataType::kFloat32;
    a.shape = t->shape;
    a.data.resize(static_cast<size_t>(t->num_elements()) * sizeof(float));
    cast__ref({t->dtype, DataType::kFloat32, static_cast<size_t>(t->num_elements())}, t->data, a.data.data());
    // Quantized tensors are dumped as the real values they stand for, comparable with a float model's dump.
    if (!t->quant.empty()) {
      float* v = reinterpret_cast<float*>(a.data.data());
      const QuantInfo& q = t->quant;
      int64_t inner = t->num_elements();
      int64_t channels = 1;
      if (q.axis >= 0) {
        channels = t->shape[static_cast<size_t>(q.axis)];
        inner = 1;
        for (size_t d = static_cast<size_t>(q.axis) + 1; d < t->shape.size(); ++d) inner *= t->shape[d];
      }
      for (int64_t i = 0; i < t->num_elements(); ++i) {
        const size_t c = static_cast<size_t>((i / inner) % channels);
        const int32_t zp = q.zero_point.empty() ? 0 : q.zero_point[c];
        v[i] = DequantizeValue(static_cast<int32_t>(v[i]), q.scale[c], zp);
      }
    }
    std::string name = t->name;
    for (char& c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
    }
    const std::string path = dump_dir_ + "/" + std::to_string(index + 1) + "_" + name + ".npy";
    const Status s = npy::WriteNpy(path, a);
    if (!s.ok()) NPURT_LOG(kWarning, "layer dump: %s", s.message().c_str());
  }
}

std::string FormatPerfTable(const std::vector<OpNode>& nodes, const std::vector<int64_t>& elapsed_ns) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof(line), "%-5s %-20s %-8s %-6s %-24s %-24s %10s  %-36s %s\n", "ID", "OpType", "DataType",
                "Target", "InputShape", "OutputShape", "Time(us)", "Kernel", "FullName");
  const std::string rule(std::string(line).size() - 1, '-');
  out += rule + "\n" + line + rule + "\n";
  int64_t total = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const OpNode& n = nodes[i];
    const Tensor* in = n.inputs.empty() ? nullptr : n.inputs[0];
    const Tensor* o = n.outputs.empty() ? nullptr : n.outputs[0];
    const int64_t us = i < elapsed_ns.size() ? elapsed_ns[i] / 1000 : 0;
    total += i < elapsed_ns.size() ? elapsed_ns[i] : 0;
    std::snprintf(line, sizeof(line), "%-5zu %-20s %-8s %-6s %-24s %-24s %10lld  %-36s %s\n", i + 1, n.def->name,
                  o ? DataTypeName(o->dtype) : "-", "CPU", in ? ShapeToString(in->shape).c_str() : "-",
                  o ? ShapeToString(o->shape).c_str() : "-", static_cast<long long>(us), n.kernel.c_str(),
                  n.name.c_str());
    out += line;
  }
  out += rule + "\n";
  std::snprintf(line, sizeof(line), "Total Operator Elapsed Time(us): %lld\n", static_cast<long long>(total / 1000));
  out += line;
  out += rule + "\n";
  return out;
}

}  // namespace npurt
