#include "runtime/core/model.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <map>
#include <new>
#include <set>
#include <string>
#include <tuple>

#include "format/model_file.h"
#include "format/model_generated.h"
#include "runtime/ops/op.h"
#include "runtime/planner/greedy_memory_planner.h"

namespace npurt {
namespace {

// Kernels index scales and zero points per channel without further checks.
Status VerifyQuantInfo(const TensorDesc& t) {
  const QuantInfo& q = t.quant;
  const char* name = t.name.c_str();
  if (q.empty()) {
    if (!q.zero_point.empty()) return NPURT_ERROR(kModelInvalid, "tensor '%s' has zero points but no scale", name);
    return Status::Ok();
  }
  for (float s : q.scale) {
    if (!std::isfinite(s) || s <= 0.0f) return NPURT_ERROR(kModelInvalid, "tensor '%s' has quant scale %g", name, s);
  }
  if (q.axis < 0) {
    if (q.axis != -1 || q.scale.size() != 1) {
      return NPURT_ERROR(kModelInvalid, "tensor '%s': per-tensor quantization needs one scale, has %zu (axis %d)",
                         name, q.scale.size(), q.axis);
    }
  } else if (static_cast<size_t>(q.axis) >= t.shape.size() ||
             static_cast<int64_t>(q.scale.size()) != t.shape[static_cast<size_t>(q.axis)]) {
    return NPURT_ERROR(kModelInvalid, "tensor '%s' %s: %zu scales along axis %d", name,
                       ShapeToString(t.shape).c_str(), q.scale.size(), q.axis);
  }
  if (!q.zero_point.empty() && q.zero_point.size() != q.scale.size()) {
    return NPURT_ERROR(kModelInvalid, "tensor '%s' has %zu zero points for %zu scales", name, q.zero_point.size(),
                       q.scale.size());
  }
  QuantRange range{};
  if (!QuantizedRange(t.dtype, &range)) {
    return NPURT_ERROR(kModelInvalid, "tensor '%s' of type %s cannot carry quantization parameters", name,
                       DataTypeName(t.dtype));
  }
  for (int32_t zp : q.zero_point) {
    if (zp < range.min || zp > range.max) {
      return NPURT_ERROR(kModelInvalid, "tensor '%s': zero point %d is outside %s", name, zp, DataTypeName(t.dtype));
    }
  }
  return Status::Ok();
}

constexpr int kMaxRank = 16;                          // RKNN_MAX_DIMS
constexpr unsigned kMaxShapeSets = 512;               // RKNN_MAX_DYNAMIC_SHAPE_NUM
constexpr uint64_t kMaxArenaBytes = 16ull << 30;       // a sanity bound, far above any real model

std::string Str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

// The FlatBuffers verifier only checks that a vector's length word is 4-byte
// aligned; a crafted file can place 8-byte elements off their alignment.
// Builders never do, so such a file is rejected rather than read.
bool ElementsAligned(const flatbuffers::Vector<int64_t>* v) {
  return v == nullptr || v->size() == 0 || reinterpret_cast<uintptr_t>(v->Data()) % alignof(int64_t) == 0;
}

Status MapFile(const char* path, uint8_t** bytes, size_t* size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NPURT_ERROR(kModelInvalid, "cannot open model file '%s': %s", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return NPURT_ERROR(kModelInvalid, "model path '%s' is not a regular file", path);
  }
  if (st.st_size == 0) {
    ::close(fd);
    return NPURT_ERROR(kModelInvalid, "model file '%s' is empty", path);
  }
  void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return NPURT_ERROR(kMallocFail, "cannot map model file '%s': %s", path, std::strerror(errno));
  *bytes = static_cast<uint8_t*>(p);
  *size = static_cast<size_t>(st.st_size);
  return Status::Ok();
}

Status DecodeAttributes(const flatbuffers::Vector<flatbuffers::Offset<fb::Attribute>>* list, Attributes* out) {
  if (list == nullptr) return Status::Ok();
  for (const fb::Attribute* a : *list) {
    Attribute attr;
    attr.name = a->name()->str();
    switch (a->type()) {
      case fb::AttrType::INT: attr.type = AttrType::kInt; attr.i = a->i(); break;
      case fb::AttrType::FLOAT: attr.type = AttrType::kFloat; attr.f = a->f(); break;
      case fb::AttrType::INTS:
        attr.type = AttrType::kInts;
        if (!ElementsAligned(a->ints())) return NPURT_ERROR(kModelInvalid, "attribute '%s' is misaligned", attr.name.c_str());
        if (a->ints()) attr.ints.assign(a->ints()->begin(), a->ints()->end());
        break;
      case fb::AttrType::FLOATS:
        attr.type = AttrType::kFloats;
        if (a->floats()) attr.floats.assign(a->floats()->begin(), a->floats()->end());
        break;
      case fb::AttrType::STRING: attr.type = AttrType::kString; attr.s = Str(a->s()); break;
      default: return NPURT_ERROR(kModelInvalid, "attribute '%s' has unknown type %d", attr.name.c_str(),
                                  static_cast<int>(a->type()));
    }
    out->Add(std::move(attr));
  }
  return Status::Ok();
}

bool ValidLayout(int v) { return v >= 0 && v <= 3; }

Status DecodeIo(const fb::IoTensor* io, IoDesc* out) {
  out->tensor = io->tensor();
  const int fmt = static_cast<int>(io->fmt()), nfmt = static_cast<int>(io->native_fmt());
  if (!ValidLayout(fmt) || !ValidLayout(nfmt)) return NPURT_ERROR(kModelInvalid, "I/O tensor has an unknown layout");
  const int dt = static_cast<int>(io->dtype()), ndt = static_cast<int>(io->native_dtype());
  if (!IsValidDataType(dt) || !IsValidDataType(ndt)) return NPURT_ERROR(kModelInvalid, "I/O tensor has an unknown type");
  out->fmt = static_cast<Layout>(fmt);
  out->native_fmt = static_cast<Layout>(nfmt);
  out->dtype = static_cast<DataType>(dt);
  out->native_dtype = static_cast<DataType>(ndt);
  out->native_c2 = io->native_c2();
  out->native_w_align = io->native_w_align();
  if (io->mean()) out->mean.assign(io->mean()->begin(), io->mean()->end());
  if (io->std()) out->std.assign(io->std()->begin(), io->std()->end());
  if (io->channel_order()) out->channel_order.assign(io->channel_order()->begin(), io->channel_order()->end());
  return Status::Ok();
}

}  // namespace

Model::~Model() {
  std::free(widened_weights_);
  if (bytes_ == nullptr || borrowed_) return;
  if (mapped_) {
    ::munmap(bytes_, file_size_);
  } else {
    std::free(bytes_);
  }
}

Status Model::Load(const void* data, size_t size, std::shared_ptr<const Model>* out) {
  if (data == nullptr) return NPURT_ERROR(kParamInvalid, "model is NULL");
  std::shared_ptr<Model> model(new (std::nothrow) Model());
  if (!model) return NPURT_ERROR(kMallocFail, "out of memory");
  if (size == 0) {
    NPURT_RETURN_IF_ERROR(MapFile(static_cast<const char*>(data), &model->bytes_, &model->file_size_));
    model->mapped_ = true;
  } else {
    // 64-byte aligned copy: the FlatBuffers payload and weights need alignment.
    const size_t padded = (size + 63) / 64 * 64;
    model->bytes_ = static_cast<uint8_t*>(std::aligned_alloc(64, padded));
    if (model->bytes_ == nullptr) return NPURT_ERROR(kMallocFail, "cannot allocate %zu bytes for the model", size);
    std::memcpy(model->bytes_, data, size);
    model->file_size_ = size;
  }
  NPURT_RETURN_IF_ERROR(model->Parse());
  *out = std::move(model);
  return Status::Ok();
}

Status Model::LoadInPlace(const void* data, size_t size, std::shared_ptr<void> keep_alive,
                          std::shared_ptr<const Model>* out) {
  if (data == nullptr) return NPURT_ERROR(kParamInvalid, "model is NULL");
  if (size == 0) return NPURT_ERROR(kParamInvalid, "model size is 0 (a model read in place is a buffer, not a path)");
  if (reinterpret_cast<uintptr_t>(data) % 64 != 0) {
    return NPURT_ERROR(kParamInvalid, "model at %p is not 64-byte aligned: its weights are read in place (memory "
                                      "of rknn_create_mem is page aligned; keep real_model_offset a multiple of 64)",
                       data);
  }
  std::shared_ptr<Model> model(new (std::nothrow) Model());
  if (!model) return NPURT_ERROR(kMallocFail, "out of memory");
  // Never written: the model's bytes are only read (fp16 constants widen into an owned section).
  model->bytes_ = static_cast<uint8_t*>(const_cast<void*>(data));
  model->file_size_ = size;
  model->borrowed_ = true;
  model->keep_alive_ = std::move(keep_alive);
  NPURT_RETURN_IF_ERROR(model->Parse());
  *out = std::move(model);
  return Status::Ok();
}

Status Model::Parse() {
  ModelFileView view;
  NPURT_RETURN_IF_ERROR(ParseModelFile(bytes_, file_size_, &view));
  weights_ = view.weights;
  weights_size_ = view.weights_size;
  format_version_ = view.format_version;
  NPURT_RETURN_IF_ERROR(Decode(view.model));
  NPURT_RETURN_IF_ERROR(WidenHalfConstants());
  return Verify();
}

namespace {

// The graph tables of the root (fb::Model) or of a shape set (fb::ShapeSet): the same fields.
template <typename Table>
Status DecodeGraph(const Table* m, ModelGraph* g) {
  if (m->plan() == nullptr) return NPURT_ERROR(kModelInvalid, "model has no memory plan");
  g->arena_size = m->plan()->arena_size();
  if (m->tensors()) {
    for (const fb::Tensor* t : *m->tensors()) {
      TensorDesc d;
      d.name = Str(t->name());
      if (!ElementsAligned(t->shape())) return NPURT_ERROR(kModelInvalid, "tensor '%s' has a misaligned shape", d.name.c_str());
      if (t->shape()) d.shape.assign(t->shape()->begin(), t->shape()->end());
      const int dt = static_cast<int>(t->dtype());
      if (!IsValidDataType(dt)) return NPURT_ERROR(kModelInvalid, "tensor '%s' has unknown type %d", d.name.c_str(), dt);
      d.dtype = static_cast<DataType>(dt);
      const int st = static_cast<int>(t->storage());
      if (st < 0 || st > 4) return NPURT_ERROR(kModelInvalid, "tensor '%s' has unknown storage %d", d.name.c_str(), st);
      d.storage = static_cast<Storage>(st);
      d.offset = t->offset();
      d.size = t->size();
      d.content_hash = t->content_hash();
      if (d.storage == Storage::kShared && d.content_hash == 0) {
        return NPURT_ERROR(kModelInvalid, "tensor '%s' is another model's weight but has no content hash",
                           d.name.c_str());
      }
      const int stored = static_cast<int>(t->stored_as());
      if (stored != static_cast<int>(DataType::kFloat32)) {
        if (stored != static_cast<int>(DataType::kFloat16) || !d.is_constant() ||
            d.dtype != DataType::kFloat32) {
          return NPURT_ERROR(kModelInvalid, "tensor '%s' (%s, storage %d) claims to be stored as type %d; only "
                             "float32 constants may be stored as fp16", d.name.c_str(), DataTypeName(d.dtype), st,
                             stored);
        }
        d.stored_half = true;
      }
      if (const fb::QuantParams* q = t->quant()) {
        if (q->scale()) d.quant.scale.assign(q->scale()->begin(), q->scale()->end());
        if (q->zero_point()) d.quant.zero_point.assign(q->zero_point()->begin(), q->zero_point()->end());
        d.quant.axis = q->axis();
      }
      g->tensors.push_back(std::move(d));
    }
  }
  if (m->ops()) {
    for (const fb::Op* o : *m->ops()) {
      OpDesc d;
      d.name = Str(o->name());
      d.def = FindOp(o->type()->str());
      if (d.def == nullptr) {
        return NPURT_ERROR(kModelInvalid, "op '%s' has type '%s', which this runtime does not support",
                           d.name.c_str(), o->type()->c_str());
      }
      if (o->inputs()) d.inputs.assign(o->inputs()->begin(), o->inputs()->end());
      if (o->outputs()) d.outputs.assign(o->outputs()->begin(), o->outputs()->end());
      NPURT_RETURN_IF_ERROR(DecodeAttributes(o->attributes(), &d.attrs));
      g->ops.push_back(std::move(d));
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    const auto* list = pass == 0 ? m->inputs() : m->outputs();
    if (list == nullptr) continue;
    for (const fb::IoTensor* io : *list) {
      IoDesc d;
      NPURT_RETURN_IF_ERROR(DecodeIo(io, &d));
      (pass == 0 ? g->inputs : g->outputs).push_back(std::move(d));
    }
  }
  return Status::Ok();
}

// What the application sees of an input or output must not change with the shape set: only shapes may.
bool SameIoContract(const IoDesc& a, const IoDesc& b) {
  return a.fmt == b.fmt && a.dtype == b.dtype && a.native_fmt == b.native_fmt && a.native_dtype == b.native_dtype &&
         a.native_c2 == b.native_c2 && a.native_w_align == b.native_w_align && a.mean == b.mean && a.std == b.std &&
         a.channel_order == b.channel_order;
}

}  // namespace

Status Model::Decode(const void* fb_model_ptr) {
  const fb::Model* m = static_cast<const fb::Model*>(fb_model_ptr);
  toolkit_version_ = Str(m->toolkit_version());
  target_platform_ = Str(m->target_platform());
  framework_ = Str(m->framework());
  custom_string_ = Str(m->custom_string());
  float_dtype_ = static_cast<DataType>(m->float_dtype());
  if (float_dtype_ != DataType::kFloat32 && float_dtype_ != DataType::kFloat16) {
    return NPURT_ERROR(kModelInvalid, "model float type is %s; only FP32 and FP16 are defined",
                       DataTypeName(float_dtype_));
  }
  if (m->weights_size() != weights_size_) {
    return NPURT_ERROR(kModelInvalid, "model records %llu weight bytes but the file holds %llu",
                       static_cast<unsigned long long>(m->weights_size()),
                       static_cast<unsigned long long>(weights_size_));
  }
  NPURT_RETURN_IF_ERROR(DecodeGraph(m, &graph_));
  if (m->shape_sets()) {
    if (m->shape_sets()->size() > kMaxShapeSets) {
      return NPURT_ERROR(kModelInvalid, "model has %u shape sets, at most %u are allowed", m->shape_sets()->size(),
                         kMaxShapeSets);
    }
    for (const fb::ShapeSet* set : *m->shape_sets()) {
      ModelGraph g;
      NPURT_RETURN_IF_ERROR(DecodeGraph(set, &g));
      shape_sets_.push_back(std::move(g));
    }
  }
  return Status::Ok();
}

uint64_t Model::max_arena_size() const {
  uint64_t size = graph_.arena_size;
  for (const ModelGraph& g : shape_sets_) size = std::max(size, g.arena_size);
  return size;
}

uint64_t Model::max_io_bytes(bool is_input, size_t index) const {
  uint64_t size = graph_.io_bytes(is_input, index);
  for (const ModelGraph& g : shape_sets_) size = std::max(size, g.io_bytes(is_input, index));
  return size;
}

Status Model::WidenHalfConstants() {
  std::vector<TensorDesc*> constants;
  bool any_half = false;
  std::vector<ModelGraph*> graphs = {&graph_};
  for (ModelGraph& set : shape_sets_) graphs.push_back(&set);
  for (ModelGraph* g : graphs) {
    for (TensorDesc& t : g->tensors) {
      if (t.storage == Storage::kShared) {
        // Its bytes are another model's, widened there: this model describes the float32 values.
        has_shared_constants_ = true;
        const int64_t n = NumElements(t.shape);
        if (t.stored_half && n >= 0 && n <= (int64_t{1} << 40) && t.size == static_cast<uint64_t>(n) * 2) t.size *= 2;
        t.stored_half = false;
        continue;
      }
      if (t.storage != Storage::kConstant) continue;
      constants.push_back(&t);
      any_half |= t.stored_half;
    }
  }
  if (!any_half) return Status::Ok();
  // Every constant moves into one new section (shape sets share constants: one copy per stored range).
  using Range = std::tuple<uint64_t, uint64_t, bool>;  // (offset, stored size, fp16)
  std::map<Range, uint64_t> placed;                    // -> its offset in the new section
  uint64_t total = 0;
  for (TensorDesc* t : constants) {
    const int64_t n = NumElements(t->shape);
    if (t->stored_half && (n < 0 || n > (int64_t{1} << 40) || t->size != static_cast<uint64_t>(n) * 2)) {
      return NPURT_ERROR(kModelInvalid, "constant '%s' stored as fp16 records %llu bytes, its shape %s needs %lld",
                         t->name.c_str(), static_cast<unsigned long long>(t->size), ShapeToString(t->shape).c_str(),
                         static_cast<long long>(n < 0 ? -1 : n * 2));
    }
    if (t->offset > weights_size_ || t->size > weights_size_ - t->offset || t->offset % 8 != 0) {
      return NPURT_ERROR(kModelInvalid, "constant '%s' [%llu, +%llu) is misaligned or outside the weights",
                         t->name.c_str(), static_cast<unsigned long long>(t->offset),
                         static_cast<unsigned long long>(t->size));
    }
    const uint64_t bytes = t->stored_half ? t->size * 2 : t->size;
    if (placed.emplace(Range(t->offset, t->size, t->stored_half), total).second) {
      total += (bytes + kWeightAlignment - 1) / kWeightAlignment * kWeightAlignment;
    }
  }
  widened_weights_ = static_cast<uint8_t*>(std::aligned_alloc(kWeightAlignment, std::max<uint64_t>(total, 64)));
  if (widened_weights_ == nullptr) {
    return NPURT_ERROR(kMallocFail, "cannot allocate %llu bytes for the widened fp16 weights",
                       static_cast<unsigned long long>(total));
  }
  std::memset(widened_weights_, 0, std::max<uint64_t>(total, 64));
  std::set<Range> written;
  for (TensorDesc* t : constants) {
    const Range key(t->offset, t->size, t->stored_half);
    const uint64_t to = placed[key];
    if (written.insert(key).second) {
      if (t->stored_half) {
        const uint8_t* from = weights_ + t->offset;
        float* out = reinterpret_cast<float*>(widened_weights_ + to);
        for (uint64_t i = 0; i < t->size / 2; ++i) {
          uint16_t h;
          std::memcpy(&h, from + 2 * i, sizeof(h));
          out[i] = HalfToFloat(h);
        }
      } else {
        std::memcpy(widened_weights_ + to, weights_ + t->offset, t->size);
      }
    }
    t->offset = to;
    if (t->stored_half) t->size *= 2;
    t->stored_half = false;
  }
  weights_ = widened_weights_;
  weights_size_ = total;
  return Status::Ok();
}

Status Model::Verify() const {
  NPURT_RETURN_IF_ERROR(VerifyGraph(graph_));
  for (size_t k = 0; k < shape_sets_.size(); ++k) {
    const ModelGraph& g = shape_sets_[k];
    Status s = VerifyGraph(g);
    if (!s.ok()) return Status(s.code(), "shape set " + std::to_string(k) + ": " + s.message());
    if (g.inputs.size() != graph_.inputs.size() || g.outputs.size() != graph_.outputs.size()) {
      return NPURT_ERROR(kModelInvalid, "shape set %zu has %zu inputs and %zu outputs, the model %zu and %zu", k,
                         g.inputs.size(), g.outputs.size(), graph_.inputs.size(), graph_.outputs.size());
    }
    for (int pass = 0; pass < 2; ++pass) {
      const auto& mine = pass == 0 ? g.inputs : g.outputs;
      const auto& root = pass == 0 ? graph_.inputs : graph_.outputs;
      for (size_t i = 0; i < mine.size(); ++i) {
        const TensorDesc& a = g.tensors[static_cast<size_t>(mine[i].tensor)];
        const TensorDesc& b = graph_.tensors[static_cast<size_t>(root[i].tensor)];
        if (!SameIoContract(mine[i], root[i]) || a.name != b.name || a.dtype != b.dtype ||
            a.shape.size() != b.shape.size() || a.quant.scale != b.quant.scale ||
            a.quant.zero_point != b.quant.zero_point) {
          return NPURT_ERROR(kModelInvalid, "shape set %zu: %s %zu ('%s') differs from the model's in more than its shape",
                             k, pass == 0 ? "input" : "output", i, a.name.c_str());
        }
      }
    }
  }
  return Status::Ok();
}

Status Model::VerifyGraph(const ModelGraph& g) const {
  const std::vector<TensorDesc>& tensors = g.tensors;
  const std::vector<OpDesc>& ops = g.ops;
  const std::vector<IoDesc>& inputs = g.inputs;
  const std::vector<IoDesc>& outputs = g.outputs;
  const uint64_t arena_size = g.arena_size;
  const int num_tensors = static_cast<int>(tensors.size());
  if (inputs.empty() || outputs.empty()) return NPURT_ERROR(kModelInvalid, "model has no inputs or no outputs");
  if (arena_size > kMaxArenaBytes) {
    return NPURT_ERROR(kModelInvalid, "arena of %llu bytes is implausibly large",
                       static_cast<unsigned long long>(arena_size));
  }
  // Tensors: shapes, sizes and storage bounds.
  for (const TensorDesc& t : tensors) {
    const char* name = t.name.c_str();
    if (t.shape.size() > kMaxRank) return NPURT_ERROR(kModelInvalid, "tensor '%s' has rank %zu > %d", name, t.shape.size(), kMaxRank);
    const int64_t n = NumElements(t.shape);
    if (n < 0) return NPURT_ERROR(kModelInvalid, "tensor '%s' has invalid shape %s", name, ShapeToString(t.shape).c_str());
    const uint64_t bytes = static_cast<uint64_t>(n) * DataTypeSize(t.dtype);
    if (static_cast<uint64_t>(n) > (1ull << 40) || bytes != t.size) {
      return NPURT_ERROR(kModelInvalid, "tensor '%s' records %llu bytes, its shape %s of %s needs %llu", name,
                         static_cast<unsigned long long>(t.size), ShapeToString(t.shape).c_str(),
                         DataTypeName(t.dtype), static_cast<unsigned long long>(bytes));
    }
    if (!t.is_constant() && t.size > kMaxArenaBytes) {
      return NPURT_ERROR(kModelInvalid, "tensor '%s' of %llu bytes is implausibly large", name,
                         static_cast<unsigned long long>(t.size));
    }
    switch (t.storage) {
      case Storage::kConstant:
        if (t.offset > weights_size_ || t.size > weights_size_ - t.offset || t.offset % 8 != 0) {
          return NPURT_ERROR(kModelInvalid, "constant '%s' [%llu, +%llu) is misaligned or outside the weights", name,
                             static_cast<unsigned long long>(t.offset), static_cast<unsigned long long>(t.size));
        }
        break;
      case Storage::kShared: break;  // resolved against the sharing context's model at rknn_init
      case Storage::kArena:
        if (t.offset > arena_size || t.size > arena_size - t.offset || t.offset % 8 != 0) {
          return NPURT_ERROR(kModelInvalid, "tensor '%s' [%llu, +%llu) is misaligned or outside the %llu-byte arena",
                             name, static_cast<unsigned long long>(t.offset), static_cast<unsigned long long>(t.size),
                             static_cast<unsigned long long>(arena_size));
        }
        break;
      case Storage::kInput:
        if (t.offset >= inputs.size() || inputs[t.offset].tensor != &t - tensors.data()) {
          return NPURT_ERROR(kModelInvalid, "tensor '%s' claims input slot %llu, which is not its own", name,
                             static_cast<unsigned long long>(t.offset));
        }
        break;
      case Storage::kOutput:
        if (t.offset >= outputs.size() || outputs[t.offset].tensor != &t - tensors.data()) {
          return NPURT_ERROR(kModelInvalid, "tensor '%s' claims output slot %llu, which is not its own", name,
                             static_cast<unsigned long long>(t.offset));
        }
        break;
    }
    NPURT_RETURN_IF_ERROR(VerifyQuantInfo(t));
  }
  // I/O records point at tensors of the matching storage.
  for (int pass = 0; pass < 2; ++pass) {
    const auto& list = pass == 0 ? inputs : outputs;
    const Storage want = pass == 0 ? Storage::kInput : Storage::kOutput;
    for (size_t i = 0; i < list.size(); ++i) {
      const IoDesc& io = list[i];
      if (io.tensor < 0 || io.tensor >= num_tensors || tensors[io.tensor].storage != want ||
          tensors[io.tensor].offset != i) {
        return NPURT_ERROR(kModelInvalid, "%s %zu points at tensor %d, which is not that %s", pass ? "output" : "input",
                           i, io.tensor, pass ? "output" : "input");
      }
      const Shape& shape = tensors[io.tensor].shape;
      const int64_t channels = shape.size() == 4 ? shape[1] : 0;
      if (io.native_c2 < 1 || io.native_c2 > 64 || io.native_w_align < 1 || io.native_w_align > 64) {
        return NPURT_ERROR(kModelInvalid, "I/O tensor %d has native C2 %d / width alignment %d", io.tensor,
                           io.native_c2, io.native_w_align);
      }
      if ((!io.mean.empty() && static_cast<int64_t>(io.mean.size()) != channels) ||
          (!io.std.empty() && static_cast<int64_t>(io.std.size()) != channels)) {
        return NPURT_ERROR(kModelInvalid, "input %zu: mean/std need one value per channel (%lld)", i,
                           static_cast<long long>(channels));
      }
      for (float s : io.std) {
        if (!std::isfinite(s) || s == 0.0f) return NPURT_ERROR(kModelInvalid, "input %zu: std value %g", i, s);
      }
      if (!io.channel_order.empty()) {
        if (static_cast<int64_t>(io.channel_order.size()) != channels) {
          return NPURT_ERROR(kModelInvalid, "input %zu: channel order needs %lld entries", i, static_cast<long long>(channels));
        }
        std::vector<bool> seen(io.channel_order.size(), false);
        for (int c : io.channel_order) {
          if (c < 0 || c >= channels || seen[c]) return NPURT_ERROR(kModelInvalid, "input %zu: channel order is not a permutation", i);
          seen[c] = true;
        }
      }
    }
  }
  // Ops: indices, arity, and that every tensor is written once before it is read.
  std::vector<int> producer(num_tensors, -1);
  std::vector<int> last_use(num_tensors, -1);
  for (int t = 0; t < num_tensors; ++t) {
    if (tensors[t].is_constant() || tensors[t].storage == Storage::kInput) producer[t] = -2;
  }
  for (size_t k = 0; k < ops.size(); ++k) {
    const OpDesc& op = ops[k];
    const int n_in = static_cast<int>(op.inputs.size()), n_out = static_cast<int>(op.outputs.size());
    if (n_in < op.def->min_inputs || n_in > op.def->max_inputs || n_out < op.def->min_outputs ||
        n_out > op.def->max_outputs) {
      return NPURT_ERROR(kModelInvalid, "op '%s' (%s) has %d inputs and %d outputs", op.name.c_str(), op.def->name,
                         n_in, n_out);
    }
    for (int i : op.inputs) {
      if (i == -1) continue;
      if (i < -1 || i >= num_tensors) return NPURT_ERROR(kModelInvalid, "op '%s' reads tensor %d of %d", op.name.c_str(), i, num_tensors);
      if (producer[i] == -1) {
        return NPURT_ERROR(kModelInvalid, "op '%s' reads tensor '%s' before anything writes it", op.name.c_str(),
                           tensors[i].name.c_str());
      }
      last_use[i] = static_cast<int>(k);
    }
    for (int o : op.outputs) {
      if (o < 0 || o >= num_tensors) return NPURT_ERROR(kModelInvalid, "op '%s' writes tensor %d of %d", op.name.c_str(), o, num_tensors);
      if (producer[o] != -1) {
        return NPURT_ERROR(kModelInvalid, "op '%s' writes tensor '%s', which is a constant, an input or already written",
                           op.name.c_str(), tensors[o].name.c_str());
      }
      producer[o] = static_cast<int>(k);
      last_use[o] = std::max(last_use[o], static_cast<int>(k));
    }
  }
  for (const IoDesc& io : outputs) {
    if (producer[io.tensor] < 0) return NPURT_ERROR(kModelInvalid, "output '%s' is never written", tensors[io.tensor].name.c_str());
  }
  // The plan must never place two simultaneously live arena tensors on the same
  // bytes, and never asks for more than all of them side by side. A view op's
  // output planned exactly on its input's bytes (OpDef::view) is one buffer with
  // its input, live from the first write to the last read of either.
  std::vector<int> root(num_tensors);
  for (int t = 0; t < num_tensors; ++t) root[t] = t;
  auto find = [&root](int t) {
    while (root[t] != t) t = root[t] = root[root[t]];
    return t;
  };
  for (const OpDesc& op : ops) {
    if (!op.def->view || op.inputs.empty() || op.inputs[0] < 0) continue;
    const TensorDesc& x = tensors[op.inputs[0]];
    const TensorDesc& y = tensors[op.outputs[0]];
    if (x.storage == Storage::kArena && y.storage == Storage::kArena && x.offset == y.offset && x.size == y.size) {
      root[find(op.outputs[0])] = find(op.inputs[0]);
    }
  }
  std::vector<int> buffer_of(num_tensors, -1);
  std::vector<PlannedBuffer> buffers;
  uint64_t unshared = 0;
  for (int t = 0; t < num_tensors; ++t) {
    if (tensors[t].storage != Storage::kArena || producer[t] < 0) continue;
    int& index = buffer_of[find(t)];
    if (index >= 0) {
      PlannedBuffer& b = buffers[static_cast<size_t>(index)];
      b.first_use = std::min(b.first_use, producer[t]);
      b.last_use = std::max(b.last_use, last_use[t]);
      continue;
    }
    index = static_cast<int>(buffers.size());
    PlannedBuffer b;
    b.offset = tensors[t].offset;
    b.size = tensors[t].size;
    b.first_use = producer[t];
    b.last_use = last_use[t];
    buffers.push_back(b);
    unshared += (b.size + 63) / 64 * 64;
  }
  if (arena_size > unshared) {
    return NPURT_ERROR(kModelInvalid, "arena of %llu bytes is larger than all its %llu tensor bytes together",
                       static_cast<unsigned long long>(arena_size), static_cast<unsigned long long>(unshared));
  }
  std::string what;
  if (PlanHasOverlap(buffers, arena_size, &what)) return NPURT_ERROR(kModelInvalid, "memory plan is invalid: %s", what.c_str());
  return Status::Ok();
}

}  // namespace npurt
