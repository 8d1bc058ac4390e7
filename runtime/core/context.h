// Context: one loaded model ready to run (what rknn_context names). Created in
// rknn_init: binds every tensor to weights, the arena or an I/O buffer,
// prepares every op, and allocates everything a run needs. Not thread-safe by
// itself; the API layer serializes calls on one context.
#pragma once

#include <condition_variable>
#include <map>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "runtime/core/io_convert.h"
#include "runtime/core/model.h"
#include "runtime/core/native_layout.h"
#include "runtime/core/profiler.h"
#include "runtime/device/dma_buffer.h"
#include "runtime/ops/custom_op.h"
#include "runtime/ops/op.h"

namespace npurt {

class Context;

struct ContextOptions {
  bool collect_perf = false;     // RKNN_FLAG_COLLECT_PERF_MASK
  bool model_info_only = false;  // RKNN_FLAG_COLLECT_MODEL_INFO_ONLY: no buffers, sizes only
  bool shares_weights = false;   // a duplicate: the weights are counted once, by the first context
  // RKNN_FLAG_MEM_ALLOC_OUTSIDE: the application gives the weight and internal memory
  // (SetWeightMemory, SetInternalMemory) before the first run; RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE: only
  // the internal memory.
  bool weights_outside = false;
  bool internal_outside = false;
  // RKNN_FLAG_ASYNC_MASK: Run() starts the frame on the context's worker thread and returns; outputs are
  // the previous frame's (see Run).
  bool async = false;
  // Every activation stays in the ONNX layout (NCHW), for callers that read intermediate
  // tensors through a Profiler observer (calibration, accuracy analysis).
  bool keep_onnx_layouts = false;
  // RKNN_FLAG_SHARE_WEIGHT_MEM: the context whose model holds this model's shared constants (a remove_weight
  // model's Storage::kShared tensors, found by content hash). Read during Create only.
  const Context* weights_from = nullptr;
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

  // Every call below that touches tensors first waits for a frame in flight (async).
  Status SetInputs(const std::vector<InputArg>& inputs);
  // Binds (replaces) the memory of input or output `index`; checks its size, type and layout now.
  Status BindIo(bool is_input, uint32_t index, IoBinding binding);
  // The application's memory for the arena (>= MemorySizes::internal bytes) or the weights (>=
  // MemorySizes::weights; the weights are copied into it), replacing what the context used. `keep_alive`
  // owns the memory (null: the caller keeps it valid while the context lives).
  Status SetInternalMemory(uint8_t* data, uint64_t size, std::shared_ptr<void> keep_alive);
  Status SetWeightMemory(uint8_t* data, uint64_t size, std::shared_ptr<void> keep_alive);
  // Synchronous: runs the frame. Async: waits for the frame in flight, keeps its outputs as "the
  // previous frame's" (what GetOutput returns from now on; zeros and frame 0 before any frame finished),
  // starts this frame on the worker and returns. A frame that fails reports its error here, at the next Run.
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

  // Waits for the frame in flight (async; no-op otherwise) and returns how it ended.
  Status WaitIdle();
  // The frame whose outputs GetOutput returns: the last run (sync), the previous frame (async; 0: none).
  uint64_t output_frame() const { return output_frame_; }

  // Dynamic-shape models: runs shape set `index` of the model from now on (rknn_set_input_shapes).
  // Inputs must be set and rknn_set_io_mem bindings made again, for the new sizes.
  Status SetShapeSet(size_t index);
  // The graph the context runs: the model's first, or the shape set chosen last.
  const ModelGraph& graph() const { return *graph_; }

  MemorySizes memory_sizes() const;
  bool has_run() const { return has_run_; }
  int64_t last_run_us() const { return last_run_us_; }
  // The per-op table of the last run (collect_perf); formatted on request so
  // that rknn_run itself allocates nothing.
  const std::string& perf_detail();
  const ContextOptions& options() const { return options_; }
  // The prepared ops of the bound graph, in execution order (their kernels: `npurt info`).
  const std::vector<OpNode>& nodes() const { return nodes_; }

  // The bytes of a constant of this context's model with `content_hash`, `size` and `dtype` (one of its own, or
  // one it shares from another), or nullptr; what a remove_weight model's context reads (weights_from).
  const uint8_t* FindConstant(uint64_t content_hash, uint64_t size, DataType dtype) const;

  // rknn_register_custom_ops: adds the op types (after checking every entry) and runs `init` for each
  // node of them. A type whose init fails is not registered (the nodes it had started are destroyed).
  Status RegisterCustomOps(const rknn_custom_op* ops, uint32_t count);
  // The custom op types the model's graph runs, each once (what rknn_register_custom_ops must cover).
  std::vector<std::string> CustomOpTypes() const;

  // Threads the context's ops may split their work over (rknn_set_core_mask); waits for a frame in flight.
  void SetThreads(int threads);
  int threads() const { return threads_; }

 private:
  Context(std::shared_ptr<const Model> model, const ContextOptions& options);
  // Create, with the custom op types registered before the ops are prepared (Duplicate).
  static Status Create(std::shared_ptr<const Model> model, const ContextOptions& options, CustomOpTable custom_ops,
                       std::unique_ptr<Context>* out);
  Status Init();
  // Points the tensors at the weights, the arena and the I/O buffers as `g` lays them out and prepares its ops.
  Status BindGraph(const ModelGraph& g);
  Status BindScratch();  // gives the prepared nodes the scratch they asked for
  // Resolves every Storage::kShared constant of the model's graphs in options_.weights_from.
  Status ResolveSharedConstants(const Context* owner);
  Status ImportOne(const InputArg& in);
  // Pass-through data takes the native layout (its type must be the native one); NC1HWC2 needs it.
  // Errors carry `error` (kInputInvalid for rknn_inputs_set, kParamInvalid for rknn_set_io_mem).
  Status ResolveInputLayout(uint32_t index, bool pass_through, StatusCode error, HostBuffer* b) const;
  Status RunFrame(Profiler* observer);  // the ops, on the calling thread (async: the worker)
  Status ExportBoundOutputs();          // the output tensors into rknn_set_io_mem memory
  void WorkerLoop();

  std::shared_ptr<const Model> model_;
  ContextOptions options_;
  std::mutex mutex_;
  const ModelGraph* graph_ = nullptr;
  const uint8_t* weights_ = nullptr;  // the model's weights, or the application's copy (SetWeightMemory)
  // fp16 models: the rounding kernel of fp16 storage (ops' outputs, float inputs); nullptr for float32 ones.
  int64_t (*round_to_half_)(float* x, int64_t n) = nullptr;

  uint8_t* arena_ = nullptr;
  uint8_t* scratch_ = nullptr;  // the ops' scratch (OpNode::scratch), the largest any shape set asks for
  uint64_t scratch_bytes_ = 0;
  std::vector<uint8_t*> input_buffers_;
  std::vector<uint8_t*> output_buffers_;
  // RKNN_FLAG_SHARE_WEIGHT_MEM: per graph of the model, the bytes of each kShared tensor (nullptr for the
  // others), and the models those bytes belong to, kept alive while this context lives.
  std::map<const ModelGraph*, std::vector<const uint8_t*>> shared_constants_;
  std::vector<std::shared_ptr<const Model>> weight_models_;
  CustomOpTable custom_ops_;  // before nodes_: their states point into it until they are destroyed
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
  DmaReservation device_memory_;                             // I/O buffers and (unless shared or outside) weights
  DmaReservation arena_memory_;                              // the arena, unless the application gives it
  bool arena_owned_ = false;                                 // arena_ is the context's own mapping
  bool weights_set_ = false, internal_set_ = false;
  std::shared_ptr<void> weight_owner_, internal_owner_;
  uint64_t frames_ = 0, output_frame_ = 0;
  uint64_t jobs_ = 0;  // runs attempted (NPURT_FAULT counts them)
  int threads_ = 1;
  Status unusable_;  // not ok: a failed shape switch left the ops unprepared (Run refuses)
  bool frame_in_tensors_ = false;  // async: a started frame whose outputs were not kept apart yet

  // Async: one worker thread runs one frame at a time; the previous frame's outputs are kept apart.
  std::thread worker_;
  std::mutex job_mutex_;
  std::condition_variable job_cv_;
  bool job_pending_ = false, job_running_ = false, stopping_ = false;
  Status job_status_;
  std::vector<std::vector<uint8_t>> previous_outputs_;
  std::vector<Tensor> previous_tensors_;  // views of previous_outputs_ with the outputs' shapes and types
};

}  // namespace npurt
