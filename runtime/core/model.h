// Model: a loaded, fully verified npurt model file, shared read-only by every
// context made from it (rknn_dup_context shares weights through it).
// Loading maps the file (path), copies the caller's buffer, or reads it in place
// (RKNN_FLAG_MODEL_BUFFER_ZERO_COPY), then checks the
// container (format/model_file), and every index, bound and plan offset, so
// that contexts and kernels can trust what they read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/attributes.h"
#include "runtime/core/status.h"
#include "runtime/core/types.h"

namespace npurt {

struct OpDef;

// kShared: a constant of a remove_weight model, whose bytes are another context's (RKNN_FLAG_SHARE_WEIGHT_MEM;
// the context resolves it by TensorDesc::content_hash at rknn_init).
enum class Storage : int { kConstant = 0, kArena = 1, kInput = 2, kOutput = 3, kShared = 4 };

struct TensorDesc {
  std::string name;
  Shape shape;
  DataType dtype = DataType::kFloat32;
  Storage storage = Storage::kArena;
  uint64_t offset = 0;  // bytes into the weights/arena, or the I/O buffer number
  uint64_t size = 0;    // bytes
  QuantInfo quant;
  // Loading only: the file stores this float32 constant as fp16 (fb::Tensor::stored_as); Model::Load
  // widens it, after which every TensorDesc is float32 in memory and this is false.
  bool stored_half = false;
  // Constants of kShareableConstantBytes or more: the hash of their bytes as the file stores them (0: none).
  uint64_t content_hash = 0;

  bool is_constant() const { return storage == Storage::kConstant || storage == Storage::kShared; }
};

struct OpDesc {
  const OpDef* def = nullptr;
  std::string name;
  Attributes attrs;
  std::vector<int> inputs;  // -1: omitted optional input
  std::vector<int> outputs;
};

// An application-visible input or output (what rknn_query reports).
struct IoDesc {
  int tensor = 0;
  Layout fmt = Layout::kUndefined;
  DataType dtype = DataType::kFloat32;
  Layout native_fmt = Layout::kUndefined;
  DataType native_dtype = DataType::kFloat32;
  int native_c2 = 1;
  int native_w_align = 1;
  std::vector<float> mean;
  std::vector<float> std;
  std::vector<int> channel_order;
};

// One runnable graph: a static model's only one, or one input shape set of a
// dynamic-shape model (all of them share the model's weights).
struct ModelGraph {
  std::vector<TensorDesc> tensors;
  std::vector<OpDesc> ops;
  std::vector<IoDesc> inputs;
  std::vector<IoDesc> outputs;
  uint64_t arena_size = 0;

  uint64_t io_bytes(bool is_input, size_t index) const {
    return tensors[static_cast<size_t>((is_input ? inputs : outputs)[index].tensor)].size;
  }
};

class Model {
 public:
  // `size == 0`: `data` is a NUL-terminated path, mapped read-only.
  // Otherwise the `size` bytes are copied; the caller may free them afterwards.
  static Status Load(const void* data, size_t size, std::shared_ptr<const Model>* out);
  // The `size` bytes at `data` (64-byte aligned) are read in place, never copied, and must stay valid and
  // unchanged while the model lives; `keep_alive` (may be null) is held until then.
  static Status LoadInPlace(const void* data, size_t size, std::shared_ptr<void> keep_alive,
                            std::shared_ptr<const Model>* out);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // The graph a context starts with (a dynamic-shape model's largest shape set).
  const ModelGraph& graph() const { return graph_; }
  const std::vector<TensorDesc>& tensors() const { return graph_.tensors; }
  const std::vector<OpDesc>& ops() const { return graph_.ops; }
  const std::vector<IoDesc>& inputs() const { return graph_.inputs; }
  const std::vector<IoDesc>& outputs() const { return graph_.outputs; }
  uint64_t arena_size() const { return graph_.arena_size; }
  const uint8_t* weights() const { return weights_; }
  uint64_t weights_size() const { return weights_size_; }

  // Dynamic-shape models: every input shape set, in conversion order (empty for static models).
  bool dynamic() const { return !shape_sets_.empty(); }
  const std::vector<ModelGraph>& shape_sets() const { return shape_sets_; }
  // The root graph, then every shape set.
  std::vector<const ModelGraph*> all_graphs() const {
    std::vector<const ModelGraph*> graphs = {&graph_};
    for (const ModelGraph& g : shape_sets_) graphs.push_back(&g);
    return graphs;
  }
  // What a context allocates so that every graph fits: the largest arena, and per input and
  // output the largest buffer.
  uint64_t max_arena_size() const;
  uint64_t max_io_bytes(bool is_input, size_t index) const;
  const std::string& toolkit_version() const { return toolkit_version_; }
  const std::string& target_platform() const { return target_platform_; }
  const std::string& framework() const { return framework_; }
  const std::string& custom_string() const { return custom_string_; }
  uint32_t format_version() const { return format_version_; }
  // kFloat16: every float op's output is rounded to fp16 as the NPU stores it (Model.float_dtype).
  DataType float_dtype() const { return float_dtype_; }
  size_t file_size() const { return file_size_; }
  // The model file's bytes as the runtime holds them (its copy, its mapping, or the caller's buffer).
  const uint8_t* file_data() const { return bytes_; }
  // The weights are the caller's memory (LoadInPlace): no context allocates them.
  bool weights_in_caller_memory() const { return borrowed_ && widened_weights_ == nullptr; }
  // The weights stay valid while this Model lives: false only for a model read in place from application
  // memory that nothing of the runtime keeps alive (RKNN_FLAG_MODEL_BUFFER_ZERO_COPY on the caller's own buffer).
  bool weights_outlive_caller() const { return !borrowed_ || keep_alive_ != nullptr || widened_weights_ != nullptr; }
  // Converted with remove_weight: some constants are Storage::kShared (another context's weights).
  bool has_shared_constants() const { return has_shared_constants_; }

 private:
  Model() = default;
  Status Parse();  // the container, graph and checks, over bytes_ / file_size_
  Status Decode(const void* fb_model);
  Status Verify() const;
  // Widens the constants stored as fp16 into an owned float32 weight section (weights_ then points there).
  Status WidenHalfConstants();
  Status VerifyGraph(const ModelGraph& g) const;

  // Backing bytes: an mmap of the file, an owned aligned copy, or the caller's (borrowed_).
  uint8_t* bytes_ = nullptr;
  size_t file_size_ = 0;
  bool mapped_ = false;
  bool borrowed_ = false;
  std::shared_ptr<void> keep_alive_;

  const uint8_t* weights_ = nullptr;
  uint8_t* widened_weights_ = nullptr;  // owned (aligned_alloc) when the file stores fp16 constants
  uint64_t weights_size_ = 0;
  uint32_t format_version_ = 0;
  DataType float_dtype_ = DataType::kFloat32;
  bool has_shared_constants_ = false;
  std::string toolkit_version_, target_platform_, framework_, custom_string_;
  ModelGraph graph_;
  std::vector<ModelGraph> shape_sets_;
};

}  // namespace npurt
