// Profiling hook around each op in the executor (TFLite Micro's
// MicroProfilerInterface). Always compiled in; costs one branch per op when no
// profiler is attached. OpTimeProfiler backs RKNN_QUERY_PERF_DETAIL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurt {

struct OpNode;

class Profiler {
 public:
  virtual ~Profiler() = default;
  virtual void BeginOp(int index, const OpNode& node) = 0;
  virtual void EndOp(int index, const OpNode& node) = 0;
};

class OpTimeProfiler : public Profiler {
 public:
  explicit OpTimeProfiler(size_t num_ops) : begin_ns_(num_ops, 0), elapsed_ns_(num_ops, 0) {}
  void BeginOp(int index, const OpNode& node) override;
  void EndOp(int index, const OpNode& node) override;
  const std::vector<int64_t>& elapsed_ns() const { return elapsed_ns_; }

 private:
  std::vector<int64_t> begin_ns_;
  std::vector<int64_t> elapsed_ns_;
};

// RKNN_LOG_LEVEL >= 4: logs each op's time as it finishes; >= 5 also writes
// its outputs as <RKNN_DUMP_DIR or .>/<index>_<tensor>.npy (float32 values)
// before the arena reuses their memory.
class LayerDebugProfiler : public OpTimeProfiler {
 public:
  explicit LayerDebugProfiler(size_t num_ops);
  void EndOp(int index, const OpNode& node) override;

 private:
  bool dump_;
  std::string dump_dir_;
};

int64_t NowNs();

// The per-op table returned by RKNN_QUERY_PERF_DETAIL and printed by `npurt run`.
std::string FormatPerfTable(const std::vector<OpNode>& nodes, const std::vector<int64_t>& elapsed_ns);

}  // namespace npurt
