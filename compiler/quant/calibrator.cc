#include "compiler/quant/calibrator.h"
#include "compiler/quant/custom_op_plugins.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <set>
#include <unordered_map>

#include <stb_image.h>

#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "runtime/core/npy.h"
#include "runtime/core/profiler.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {
namespace {

// "d.txt:3: " (or "sample 3: " for samples not read from a file).
std::string Where(const DatasetSample& sample, size_t index) {
  if (!sample.file.empty()) return sample.file + ":" + std::to_string(sample.line) + ": ";
  return "sample " + std::to_string(index + 1) + ": ";
}

// One model input's data for one sample, owned until the run.
struct InputData {
  std::vector<uint8_t> bytes;
  InputArg arg;
};

// A batch-N input (--batch-size) gets the sample in every slot: ranges are per tensor, so N copies of
// one frame measure what the frame alone does. `bytes` holds N frames, the first one filled.
void ReplicateFrame(size_t frame_bytes, std::vector<uint8_t>* bytes) {
  for (size_t at = frame_bytes; at + frame_bytes <= bytes->size(); at += frame_bytes) {
    std::copy(bytes->begin(), bytes->begin() + static_cast<std::ptrdiff_t>(frame_bytes),
              bytes->begin() + static_cast<std::ptrdiff_t>(at));
  }
}

Status LoadImage(const std::string& path, const Model& model, uint32_t index, bool swap_red_blue, InputData* out) {
  const IoDesc& io = model.inputs()[index];
  const TensorDesc& t = model.tensors()[io.tensor];
  if (t.shape.size() != 4 || io.fmt != Layout::kNHWC) {
    return NPURT_ERROR(kParamInvalid, "not an image input (%s); give a .npy file", ShapeToString(t.shape).c_str());
  }
  const int64_t n = t.shape[0], c = t.shape[1], h = t.shape[2], w = t.shape[3];
  if (c != 1 && c != 3) {
    return NPURT_ERROR(kParamInvalid, "%lld channels; images feed 1- or 3-channel inputs only (give a .npy file)",
                       static_cast<long long>(c));
  }
  if (n < 1 || h <= 0 || w <= 0 || h > (1 << 20) || w > (1 << 20)) {
    return NPURT_ERROR(kParamInvalid, "%s is not an image size", ShapeToString(t.shape).c_str());
  }
  int iw = 0, ih = 0, ic = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &iw, &ih, &ic, static_cast<int>(c));
  if (pixels == nullptr) {
    const char* reason = stbi_failure_reason();
    return NPURT_ERROR(kParamInvalid, "cannot decode '%s': %s", path.c_str(), reason ? reason : "unknown error");
  }
  const size_t frame = static_cast<size_t>(h * w * c);
  out->bytes.resize(frame * static_cast<size_t>(n));
  if (iw == w && ih == h) {
    std::copy(pixels, pixels + frame, out->bytes.begin());
  } else {
    ResizeBilinearU8(pixels, iw, ih, static_cast<int>(c), out->bytes.data(), static_cast<int>(w),
                     static_cast<int>(h));
  }
  stbi_image_free(pixels);
  if (swap_red_blue && c == 3) {
    for (size_t at = 0; at + 2 < frame; at += 3) std::swap(out->bytes[at], out->bytes[at + 2]);
  }
  ReplicateFrame(frame, &out->bytes);
  out->arg.buffer.dtype = DataType::kUint8;
  out->arg.buffer.fmt = Layout::kNHWC;
  out->arg.normalize = true;
  return Status::Ok();
}

Status LoadNpy(const std::string& path, const Model& model, uint32_t index, InputData* out) {
  const TensorDesc& t = model.tensors()[model.inputs()[index].tensor];
  npy::NpyArray array;
  Status s;
  try {  // the .npy reader parses numbers with the standard library, which may throw
    s = npy::ReadNpy(path, &array);
  } catch (const std::exception& e) {
    s = NPURT_ERROR(kParamInvalid, "'%s' is not a valid .npy file (%s)", path.c_str(), e.what());
  }
  NPURT_RETURN_IF_ERROR(s);
  if (array.dtype != DataType::kFloat32) {
    return NPURT_ERROR(kParamInvalid, "'%s' holds %s data; calibration .npy files must be float32", path.c_str(),
                       DataTypeName(array.dtype));
  }
  const int64_t have = NumElements(array.shape), need = NumElements(t.shape);
  // A batch-N input also takes one frame, copied into every slot.
  const int64_t batch = t.shape.empty() ? 1 : t.shape[0];
  const bool one_frame = batch > 1 && have * batch == need;
  if (have != need && !one_frame) {
    return NPURT_ERROR(kParamInvalid, "'%s' %s holds %lld values, the input %s needs %lld", path.c_str(),
                       ShapeToString(array.shape).c_str(), static_cast<long long>(have),
                       ShapeToString(t.shape).c_str(), static_cast<long long>(need));
  }
  out->bytes = std::move(array.data);
  if (one_frame) {
    const size_t frame = out->bytes.size();
    out->bytes.resize(frame * static_cast<size_t>(batch));
    ReplicateFrame(frame, &out->bytes);
  }
  out->arg.buffer.dtype = DataType::kFloat32;
  out->arg.buffer.fmt = Layout::kNCHW;
  out->arg.normalize = false;
  return Status::Ok();
}

Status LoadSample(const DatasetSample& sample, size_t sample_index, const Model& model,
                  std::vector<InputData>* inputs) {
  const size_t count = model.inputs().size();
  if (sample.paths.size() != count) {
    return NPURT_ERROR(kParamInvalid, "%s%zu %s for a model with %zu %s", Where(sample, sample_index).c_str(),
                       sample.paths.size(), sample.paths.size() == 1 ? "path" : "paths", count,
                       count == 1 ? "input" : "inputs");
  }
  inputs->resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    InputData& in = (*inputs)[i];
    in = InputData();
    const std::string& path = sample.paths[i];
    SampleKind kind = SampleKind::kNpy;
    Status s;
    if (!DatasetSampleKind(path, &kind)) {
      s = NPURT_ERROR(kParamInvalid, "'%s' has an unknown extension (expected .jpg, .jpeg, .png, .bmp or .npy)",
                      path.c_str());
    } else {
      const bool swap = i < sample.swap_red_blue.size() && sample.swap_red_blue[i];
      s = kind == SampleKind::kImage ? LoadImage(path, model, i, swap, &in) : LoadNpy(path, model, i, &in);
    }
    if (!s.ok()) {
      const std::string& name = model.tensors()[model.inputs()[i].tensor].name;
      return Status(s.code(),
                    Where(sample, sample_index) + "input " + std::to_string(i) + " '" + name + "': " + s.message());
    }
    in.arg.index = i;
    in.arg.buffer.data = in.bytes.data();
    in.arg.buffer.size = in.bytes.size();
  }
  return Status::Ok();
}

// Records the tensors of one run into the statistics (see the header).
class StatsObserver final : public Profiler {
 public:
  StatsObserver(std::set<std::string> model_inputs, std::map<std::string, TensorStats>* stats)
      : model_inputs_(std::move(model_inputs)), stats_(stats) {}

  // Pass 1 records min/max, pass 2 histograms (over the ranges of pass 1).
  void StartPass(int pass) {
    pass_ = pass;
    if (pass != 2) return;
    for (auto& entry : slots_) {
      Slot& slot = entry.second;
      TensorStats& s = *slot.stats;
      if (s.count == 0) continue;
      s.hist_min = s.min;
      s.hist_max = s.max;
      s.histogram.assign(kHistogramBins, 0);
      slot.lo = s.min;
      slot.inv_width = s.max > s.min ? kHistogramBins / (static_cast<double>(s.max) - s.min) : 0.0;
    }
  }
  void StartRun() { ++run_; }

  void BeginOp(int, const OpNode& node) override {
    for (const Tensor* t : node.inputs) {
      if (t != nullptr && !t->constant && model_inputs_.count(t->name) != 0) Record(*t);
    }
  }
  void EndOp(int, const OpNode& node) override {
    for (const Tensor* t : node.outputs) Record(*t);
  }

 private:
  struct Slot {
    TensorStats* stats = nullptr;
    uint64_t last_run = 0;
    double lo = 0, inv_width = 0;  // pass 2
  };

  void Record(const Tensor& t) {
    if (t.dtype != DataType::kFloat32 || t.data == nullptr) return;
    auto it = slots_.find(&t);
    if (it == slots_.end()) {
      if (pass_ != 1) return;  // only tensors seen in pass 1 get histograms
      Slot slot;
      slot.stats = &(*stats_)[t.name];
      it = slots_.emplace(&t, slot).first;
    }
    Slot& slot = it->second;
    if (slot.last_run == run_) return;  // once per run (a model input read by several ops)
    slot.last_run = run_;
    const float* v = t.as<const float>();
    const int64_t n = t.num_elements();
    TensorStats& s = *slot.stats;
    if (pass_ == 1) {
      float lo = s.min, hi = s.max;
      uint64_t finite = 0;
      for (int64_t i = 0; i < n; ++i) {
        const float x = v[i];
        if (!std::isfinite(x)) continue;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        ++finite;
      }
      s.min = lo;
      s.max = hi;
      s.count += finite;
      // Per channel (axis 1 of an N x C x ... tensor): what activation smoothing needs.
      if (t.rank() >= 3 && t.shape[1] > 0) {
        const int64_t channels = t.shape[1];
        const int64_t inner = n / (t.shape[0] * channels);
        if (s.channel_absmax.empty()) {
          s.channel_absmax.assign(static_cast<size_t>(channels), 0.0f);
          s.channel_sum.assign(static_cast<size_t>(channels), 0.0);
          s.channel_count.assign(static_cast<size_t>(channels), 0);
        }
        // Element order, without a division per element.
        const float* p = v;
        for (int64_t b = 0; b < t.shape[0]; ++b) {
          for (size_t c = 0; c < static_cast<size_t>(channels); ++c) {
            float absmax = s.channel_absmax[c];
            double sum = s.channel_sum[c];
            uint64_t count = 0;
            for (int64_t i = 0; i < inner; ++i, ++p) {
              if (!std::isfinite(*p)) continue;
              absmax = std::max(absmax, std::fabs(*p));
              sum += *p;
              ++count;
            }
            s.channel_absmax[c] = absmax;
            s.channel_sum[c] = sum;
            s.channel_count[c] += count;
          }
        }
      }
      return;
    }
    if (s.histogram.empty()) return;
    uint64_t* bins = s.histogram.data();
    for (int64_t i = 0; i < n; ++i) {
      const float x = v[i];
      if (!std::isfinite(x)) continue;
      const double pos = (static_cast<double>(x) - slot.lo) * slot.inv_width;
      const int k = pos <= 0.0 ? 0 : pos >= kHistogramBins - 1 ? kHistogramBins - 1 : static_cast<int>(pos);
      ++bins[k];
    }
  }

  std::set<std::string> model_inputs_;
  std::map<std::string, TensorStats>* stats_;
  std::unordered_map<const Tensor*, Slot> slots_;
  int pass_ = 1;
  uint64_t run_ = 0;
};

// The progress line on stderr (see the header); inert unless enabled and stderr is a terminal.
class ProgressBar {
 public:
  ProgressBar(bool enabled, size_t samples, int passes)
      : enabled_(enabled && ::isatty(2) == 1), samples_(samples), passes_(passes),
        start_(std::chrono::steady_clock::now()) {}

  void Update(int pass, size_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const bool last = done == samples_;
    if (!last && drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    drawn_ = true;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const size_t steps = static_cast<size_t>(pass - 1) * samples_ + done;
    const size_t total = static_cast<size_t>(passes_) * samples_;
    const double rate = elapsed > 0 ? steps / elapsed : 0.0;
    const double eta = rate > 0 ? (total - steps) / rate : 0.0;
    constexpr int kWidth = 24;
    const int filled = samples_ == 0 ? kWidth : static_cast<int>(kWidth * done / samples_);
    char bar[kWidth + 1];
    for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '#' : '.';
    bar[kWidth] = '\0';
    char eta_text[32] = "--:--";
    if (steps > 0) {
      const long eta_s = static_cast<long>(eta + 0.5);
      std::snprintf(eta_text, sizeof(eta_text), "%ld:%02ld", eta_s / 60, eta_s % 60);
    }
    std::fprintf(stderr, "\rcalibrating, pass %d/%d (%s) [%s] %zu/%zu  %.1f samples/s  ETA %s   ", pass, passes_,
                 pass == 1 ? "ranges" : "histograms", bar, done, samples_, rate, eta_text);
    std::fflush(stderr);
  }

  void Finish() {
    if (enabled_ && drawn_) {
      std::fputc('\n', stderr);
      std::fflush(stderr);
    }
    drawn_ = false;
  }

  ~ProgressBar() { Finish(); }

 private:
  bool enabled_;
  size_t samples_;
  int passes_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

}  // namespace

void ResizeBilinearU8(const uint8_t* src, int src_w, int src_h, int channels, uint8_t* dst, int dst_w, int dst_h) {
  // Source coordinate and weight of each destination column / row.
  auto axis = [](int src_size, int dst_size, std::vector<int>* i0, std::vector<float>* frac) {
    i0->resize(dst_size);
    frac->resize(dst_size);
    const float scale = static_cast<float>(src_size) / static_cast<float>(dst_size);
    for (int d = 0; d < dst_size; ++d) {
      float s = (static_cast<float>(d) + 0.5f) * scale - 0.5f;
      if (s < 0.0f) s = 0.0f;
      int k = static_cast<int>(s);
      float f = s - static_cast<float>(k);
      if (k >= src_size - 1) {
        k = src_size - 1;
        f = 0.0f;
      }
      (*i0)[d] = k;
      (*frac)[d] = f;
    }
  };
  std::vector<int> x0, y0;
  std::vector<float> fx, fy;
  axis(src_w, dst_w, &x0, &fx);
  axis(src_h, dst_h, &y0, &fy);
  const size_t row = static_cast<size_t>(src_w) * channels;
  for (int y = 0; y < dst_h; ++y) {
    const uint8_t* r0 = src + static_cast<size_t>(y0[y]) * row;
    const uint8_t* r1 = y0[y] + 1 < src_h ? r0 + row : r0;
    for (int x = 0; x < dst_w; ++x) {
      const size_t a = static_cast<size_t>(x0[x]) * channels;
      const size_t b = x0[x] + 1 < src_w ? a + channels : a;
      for (int c = 0; c < channels; ++c) {
        const float top = r0[a + c] + (r0[b + c] - r0[a + c]) * fx[x];
        const float bottom = r1[a + c] + (r1[b + c] - r1[a + c]) * fx[x];
        const float v = top + (bottom - top) * fy[y];
        const float r = std::nearbyint(v);
        dst[(static_cast<size_t>(y) * dst_w + x) * channels + c] =
            static_cast<uint8_t>(r < 0.0f ? 0.0f : r > 255.0f ? 255.0f : r);
      }
    }
  }
}

Status FeedSample(const DatasetSample& sample, size_t sample_index, Context* context) {
  std::vector<InputData> inputs;
  NPURT_RETURN_IF_ERROR(LoadSample(sample, sample_index, context->model(), &inputs));
  std::vector<InputArg> args;
  for (const InputData& in : inputs) args.push_back(in.arg);
  const Status s = context->SetInputs(args);
  if (!s.ok()) return Status(s.code(), Where(sample, sample_index) + s.message());
  return Status::Ok();
}

Status OpenModel(const std::vector<uint8_t>& bytes, const std::string& error_prefix, std::unique_ptr<Context>* context) {
  std::shared_ptr<const Model> model;
  Status s = Model::Load(bytes.data(), bytes.size(), &model);
  ContextOptions options;
  options.keep_onnx_layouts = true;  // observers read the intermediate tensors
  if (s.ok()) s = Context::Create(model, options, context);
  if (s.ok()) s = RegisterCustomOpImplementations(context->get());  // custom ops: the loaded plugins' code
  if (!s.ok()) return Status(s.code(), error_prefix + s.message());
  return Status::Ok();
}

Status RunSample(const DatasetSample& sample, size_t sample_index, Context* context, Profiler* observer) {
  NPURT_RETURN_IF_ERROR(FeedSample(sample, sample_index, context));  // names the sample itself
  const Status s = context->Run(observer);
  if (!s.ok()) return Status(s.code(), Where(sample, sample_index) + s.message());
  return Status::Ok();
}

Status Calibrate(const std::vector<uint8_t>& float_model, const std::vector<DatasetSample>& samples,
                 const CalibrationOptions& options, std::map<std::string, TensorStats>* stats) {
  stats->clear();
  if (float_model.empty()) return NPURT_ERROR(kParamInvalid, "calibration: the model is empty");
  if (samples.empty()) return NPURT_ERROR(kParamInvalid, "calibration: the dataset has no samples");
  std::unique_ptr<Context> context;
  NPURT_RETURN_IF_ERROR(OpenModel(float_model, "calibration: cannot load the float model: ", &context));
  const Model& model = context->model();
  std::set<std::string> input_names;
  for (const IoDesc& io : model.inputs()) input_names.insert(model.tensors()[io.tensor].name);
  StatsObserver observer(std::move(input_names), stats);
  const int passes = options.histograms ? 2 : 1;
  ProgressBar progress(options.progress, samples.size(), passes);
  for (int pass = 1; pass <= passes; ++pass) {
    observer.StartPass(pass);
    progress.Update(pass, 0);
    for (size_t k = 0; k < samples.size(); ++k) {
      observer.StartRun();
      NPURT_RETURN_IF_ERROR(RunSample(samples[k], k, context.get(), &observer));
      progress.Update(pass, k + 1);
    }
  }
  progress.Finish();
  return Status::Ok();
}

}  // namespace compiler
}  // namespace npurt
