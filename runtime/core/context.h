// Context: one loaded model ready to run (what rknn_context names). Created in
// rknn_init: binds every tensor to weights, the arena or an I/O buffer,
// prepares every op, and allocates everything a run needs. Not thread-safe by
// itself; the API layer serializes calls on one context.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/core/io_convert.h"
#include "runtime/core/model.h"
#include "runtime/core/native_layout.h"
#include "runtime/core/profiler.h"
#include "runtime/device/dma_buffer.h"
#include "runtime/ops/op.h"

namespace npurt {

struct ContextOptions {
  bool collect_perf = false;     // RKNN_FLAG_COLLECT_PERF_MASK
  bool model_info_only = false;  // RKNN_FLAG_COLLECT_MODEL_INFO_ONLY: no buffers, sizes only
  bool shares_weights = false;   // a duplicate: the weights are counted once, by the first context
};

struct InputArg {
  uint32_t index = 0;
  HostBuffer buffer;
  bool pass_through = false;
  // false: convert element type and layout only, without the input's channel
  // reorder and mean/std (the data is already what the model's first op reads,
  // e.g. calibration .npy files). Ignored with pass_through.
  bool normalize = true;
};

// Memory the application bound with rknn_set_io_mem: a bound input is read
// from it at every run (converted from its type and layout, as
// rknn_inputs_set would), a bound output written to it after every run.
struct IoBinding {
  HostBuffer buffer;                 // data (writable for outputs), size, type and layout
  bool pass_through = false;         // inputs: the bytes are already the native layout and type
  std::shared_ptr<void> keep_alive;  // the buffer's owner, held while bound (null: the caller's memory)
};

struct MemorySizes {
  uint64_t weights = 0;
  uint64_t internal = 0;       // arena, excluding inputs and outputs
  uint64_t total_allocated = 0;
};

class Context {
 public:
  static Status Create(std::shared_ptr<const Model> model, const ContextOptions& options,
                       std::unique_ptr<Context>* out);
  ~Context();

  // A new context on the same model: shares the weights, owns its arena.
  Status Duplicate(std::unique_ptr<Context>* out) const;

  const Model& model() const { return *model_; }
  std::mutex& mutex() { return mutex_; }

  Status SetInputs(const std::vector<InputArg>& inputs);
  // Binds (replaces) the memory of input or output `index`; checks its size, type and layout now.
  Status BindIo(bool is_input, uint32_t index, IoBinding binding);
  Status Run() { return Run(nullptr); }
  // The same, with `observer` (nullptr: none; borrowed for this call only)
  // called around every op, outside the context's own profiler (so its time is
  // not counted in the per-op table). Its EndOp sees the op's output tensors
  // before the arena reuses their memory; its BeginOp sees the op's inputs,
  // model inputs included. The compiler's calibration records ranges this way.
  Status Run(Profiler* observer);
  // Converts output `index` into `dst` (want_float: float32, else the reported type; NCHW order).
  Status GetOutput(uint32_t index, bool want_float, void* dst, size_t dst_size) const;
  // Bytes GetOutput writes for this output and want_float.
  uint64_t OutputBytes(uint32_t index, bool want_float) const;

  // Buffers handed to the application by rknn_outputs_get (is_prealloc = 0).
  void* AllocateUserOutput(size_t bytes);
  // False when `buf` was not handed out by this context (or was already freed).
  bool FreeUserOutput(void* buf);

  MemorySizes memory_sizes() const;
  bool has_run() const { return has_run_; }
  int64_t last_run_us() const { return last_run_us_; }
  // The per-op table of the last run (collect_perf); formatted on request so
  // that rknn_run itself allocates nothing.
  const std::string& perf_detail();
  const ContextOptions& options() const { return options_; }

 private:
  Context(std::shared_ptr<const Model> model, const ContextOptions& options);
  Status Init();
  Status ImportOne(const InputArg& in);

  std::shared_ptr<const Model> model_;
  ContextOptions options_;
  std::mutex mutex_;

  uint8_t* arena_ = nullptr;
  std::vector<uint8_t*> input_buffers_;
  std::vector<uint8_t*> output_buffers_;
  std::vector<Tensor> tensors_;
  std::vector<OpNode> nodes_;
  std::vector<bool> input_set_;
  bool has_run_ = false;
  int64_t last_run_us_ = 0;
  std::unique_ptr<OpTimeProfiler> profiler_;
  std::string perf_detail_;
  bool perf_detail_stale_ = true;
  std::set<void*> user_outputs_;
  std::vector<IoBinding> input_bindings_, output_bindings_;  // buffer.data == nullptr: not bound
  DmaReservation device_memory_;                             // arena, I/O buffers and (unless shared) weights
};

}  // namespace npurt
