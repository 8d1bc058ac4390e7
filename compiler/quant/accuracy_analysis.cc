#include "compiler/quant/accuracy_analysis.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <numeric>
#include <set>
#include <unordered_map>
#include <utility>

#include "compiler/quant/calibrator.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "runtime/core/npy.h"
#include "runtime/core/op_macs.h"
#include "runtime/core/profiler.h"
#include "runtime/kernels/ref/quantize.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {
namespace {

const char* PrecisionName(DataType type) {
  switch (type) {
    case DataType::kFloat32: return "float32";
    case DataType::kFloat16: return "float16";
    case DataType::kInt8: return "int8";
    case DataType::kUint8: return "uint8";
    case DataType::kInt16: return "int16";
    case DataType::kUint16: return "uint16";
    default: return DataTypeName(type);
  }
}

bool IsQuantizedType(DataType type) {
  return type == DataType::kInt8 || type == DataType::kUint8 || type == DataType::kInt16 || type == DataType::kUint16;
}

// Tensors whose values the analysis can read and write as real numbers.
bool Comparable(DataType type, const QuantInfo& quant) {
  return type == DataType::kFloat32 || (IsQuantizedType(type) && !quant.empty());
}

// [outer, axis, inner] view of `t` along its quantization axis (axis 1 for per-tensor).
QuantizeParams AxisView(const Tensor& t) {
  QuantizeParams p{t.dtype, t.num_elements(), 1, 1};
  const QuantInfo& q = t.quant;
  if (q.axis >= 0 && q.axis < t.rank() && q.scale.size() > 1) {
    p.outer = 1;
    for (int d = 0; d < q.axis; ++d) p.outer *= t.shape[static_cast<size_t>(d)];
    p.axis_size = t.shape[static_cast<size_t>(q.axis)];
    p.inner = 1;
    for (int d = q.axis + 1; d < t.rank(); ++d) p.inner *= t.shape[static_cast<size_t>(d)];
  }
  return p;
}

template <typename T>
void DequantizeTo(const Tensor& t, float* out) {
  const QuantizeParams p = AxisView(t);
  const T* x = t.as<const T>();
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t a = 0; a < p.axis_size; ++a) {
      const size_t k = p.axis_size == 1 ? 0 : static_cast<size_t>(a);
      const float scale = t.quant.scale[k];
      const int32_t zp = t.quant.zero_point.empty() ? 0 : t.quant.zero_point[k];
      const int64_t base = (o * p.axis_size + a) * p.inner;
      for (int64_t i = 0; i < p.inner; ++i) out[base + i] = DequantizeValue(x[base + i], scale, zp);
    }
  }
}

template <typename T>
void QuantizeFrom(const float* values, const Tensor& t) {
  const QuantizeParams p = AxisView(t);
  QuantRange range{};
  QuantizedRange(t.dtype, &range);
  T* y = t.as<T>();
  for (int64_t o = 0; o < p.outer; ++o) {
    for (int64_t a = 0; a < p.axis_size; ++a) {
      const size_t k = p.axis_size == 1 ? 0 : static_cast<size_t>(a);
      const float scale = t.quant.scale[k];
      const int32_t zp = t.quant.zero_point.empty() ? 0 : t.quant.zero_point[k];
      const int64_t base = (o * p.axis_size + a) * p.inner;
      for (int64_t i = 0; i < p.inner; ++i) {
        y[base + i] = static_cast<T>(QuantizeValue(values[base + i], scale, zp, static_cast<int32_t>(range.min),
                                                   static_cast<int32_t>(range.max)));
      }
    }
  }
}

// The real values of a comparable tensor into `out` (resized).
void ReadReal(const Tensor& t, std::vector<float>* out) {
  out->resize(static_cast<size_t>(t.num_elements()));
  switch (t.dtype) {
    case DataType::kFloat32: std::memcpy(out->data(), t.data, out->size() * sizeof(float)); break;
    case DataType::kInt8: DequantizeTo<int8_t>(t, out->data()); break;
    case DataType::kUint8: DequantizeTo<uint8_t>(t, out->data()); break;
    case DataType::kInt16: DequantizeTo<int16_t>(t, out->data()); break;
    case DataType::kUint16: DequantizeTo<uint16_t>(t, out->data()); break;
    default: break;  // not comparable; never called
  }
}

// Stores real values into a comparable tensor, quantizing with its own parameters.
void WriteReal(const float* values, const Tensor& t) {
  switch (t.dtype) {
    case DataType::kFloat32: std::memcpy(t.data, values, static_cast<size_t>(t.num_elements()) * sizeof(float)); break;
    case DataType::kInt8: QuantizeFrom<int8_t>(values, t); break;
    case DataType::kUint8: QuantizeFrom<uint8_t>(values, t); break;
    case DataType::kInt16: QuantizeFrom<int16_t>(values, t); break;
    case DataType::kUint16: QuantizeFrom<uint16_t>(values, t); break;
    default: break;
  }
}

using References = std::unordered_map<std::string, std::vector<float>>;

// Run 1: keeps the float value of every wanted tensor (op inputs in BeginOp, so
// model inputs are seen after the runtime's input conversion; outputs in EndOp).
class ReferenceRecorder final : public Profiler {
 public:
  ReferenceRecorder(const std::set<std::string>& wanted, References* refs) : wanted_(wanted), refs_(refs) {}
  void BeginOp(int, const OpNode& node) override {
    for (const Tensor* t : node.inputs) {
      if (t != nullptr && !t->constant) Record(*t);
    }
  }
  void EndOp(int, const OpNode& node) override {
    for (const Tensor* t : node.outputs) Record(*t);
  }

 private:
  void Record(const Tensor& t) {
    if (t.dtype != DataType::kFloat32 || wanted_.count(t.name) == 0 || refs_->count(t.name) != 0) return;
    const float* v = t.as<const float>();
    (*refs_)[t.name].assign(v, v + t.num_elements());
  }
  const std::set<std::string>& wanted_;
  References* refs_;
};

// Where each quantized-model op output goes in the report.
struct Pairing {
  std::unordered_map<std::string, std::string> reference_of;  // quantized tensor name -> float tensor name
  std::vector<std::vector<int>> row_of;                       // [op][output] -> row, or -1
};

// AccuracyOptions::dump_dir: one .npy per compared layer and side, named after its report row.
class LayerDumper {
 public:
  static Status Create(const std::string& dir, std::unique_ptr<LayerDumper>* out) {
    std::error_code ec;
    for (const char* side : {"golden", "simulator"}) {
      std::filesystem::create_directories(std::filesystem::path(dir) / side, ec);
      if (ec) return NPURT_ERROR(kParamInvalid, "cannot create '%s/%s': %s", dir.c_str(), side, ec.message().c_str());
    }
    out->reset(new LayerDumper(dir));
    return Status::Ok();
  }

  Status Dump(int row, const Tensor& t, const float* reference, const float* quantized) {
    std::string file = std::to_string(row) + "_";
    for (char c : t.name) file += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
    file += ".npy";
    npy::NpyArray a;
    a.shape = t.shape;
    const size_t bytes = static_cast<size_t>(t.num_elements()) * sizeof(float);
    for (int side = 0; side < 2; ++side) {
      const float* values = side == 0 ? reference : quantized;
      a.data.assign(reinterpret_cast<const uint8_t*>(values), reinterpret_cast<const uint8_t*>(values) + bytes);
      NPURT_RETURN_IF_ERROR(npy::WriteNpy(dir_ + (side == 0 ? "/golden/" : "/simulator/") + file, a));
    }
    map_ += t.name + " " + file + "\n";
    return Status::Ok();
  }

  Status Finish() {
    std::ofstream out(dir_ + "/map_name_to_file.txt", std::ios::binary | std::ios::trunc);
    out << map_;
    out.close();
    if (!out) return NPURT_ERROR(kParamInvalid, "cannot write '%s/map_name_to_file.txt'", dir_.c_str());
    return Status::Ok();
  }

 private:
  explicit LayerDumper(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
  std::string map_;
};

// Runs 2 and 3: compares each op output with its reference; in single mode
// first overwrites each op's activation inputs with their references.
class CompareObserver final : public Profiler {
 public:
  // `channel_sums` (may be nullptr): per row, per channel, the sum of (x - ref) and the count.
  // `dumper` (may be nullptr) receives every compared output with its reference.
  CompareObserver(const Pairing& pairing, const References& refs, bool single, std::vector<ErrorSums>* sums,
                  std::vector<std::vector<std::pair<double, uint64_t>>>* channel_sums = nullptr,
                  LayerDumper* dumper = nullptr)
      : pairing_(pairing), refs_(refs), single_(single), sums_(sums), channel_sums_(channel_sums), dumper_(dumper) {}

  const Status& status() const { return status_; }

  void BeginOp(int, const OpNode& node) override {
    if (!single_ || !status_.ok()) return;
    for (const Tensor* t : node.inputs) {
      if (t == nullptr || t->constant || !Comparable(t->dtype, t->quant)) continue;
      const std::vector<float>* ref = Find(*t);
      if (ref != nullptr) WriteReal(ref->data(), *t);
    }
  }

  void EndOp(int index, const OpNode& node) override {
    if (!status_.ok()) return;
    const std::vector<int>& rows = pairing_.row_of[static_cast<size_t>(index)];
    for (size_t j = 0; j < node.outputs.size() && j < rows.size(); ++j) {
      if (rows[j] < 0) continue;
      const Tensor& t = *node.outputs[j];
      const std::vector<float>* ref = Find(t);
      if (ref == nullptr) {
        if (status_.ok()) status_ = NPURT_ERROR(kFail, "internal error: no float value for tensor '%s'", t.name.c_str());
        return;
      }
      ReadReal(t, &scratch_);
      (*sums_)[static_cast<size_t>(rows[j])].Add(ref->data(), scratch_.data(), t.num_elements());
      if (dumper_ != nullptr) {
        const Status s = dumper_->Dump(rows[j], t, ref->data(), scratch_.data());
        if (!s.ok()) {
          status_ = s;
          return;
        }
      }
      if (channel_sums_ != nullptr && t.rank() >= 3 && t.shape[0] > 0 && t.shape[1] > 0) {
        auto& channels = (*channel_sums_)[static_cast<size_t>(rows[j])];
        const int64_t c_count = t.shape[1], inner = t.num_elements() / (t.shape[0] * c_count);
        channels.resize(static_cast<size_t>(c_count));
        for (int64_t i = 0; i < t.num_elements(); ++i) {
          auto& c = channels[static_cast<size_t>((i / inner) % c_count)];
          c.first += static_cast<double>(scratch_[static_cast<size_t>(i)]) - (*ref)[static_cast<size_t>(i)];
          ++c.second;
        }
      }
    }
  }

 private:
  // The reference of `t`, checked for size; nullptr (and an error) when absent or mismatched.
  const std::vector<float>* Find(const Tensor& t) {
    auto name = pairing_.reference_of.find(t.name);
    if (name == pairing_.reference_of.end()) return nullptr;
    auto it = refs_.find(name->second);
    if (it == refs_.end()) return nullptr;
    if (static_cast<int64_t>(it->second.size()) != t.num_elements()) {
      if (status_.ok()) {
        status_ = NPURT_ERROR(kModelInvalid, "tensor '%s' %s has %lld values, its float counterpart '%s' %zu",
                              t.name.c_str(), ShapeToString(t.shape).c_str(),
                              static_cast<long long>(t.num_elements()), name->second.c_str(), it->second.size());
      }
      return nullptr;
    }
    return &it->second;
  }

  const Pairing& pairing_;
  const References& refs_;
  bool single_;
  std::vector<ErrorSums>* sums_;
  std::vector<std::vector<std::pair<double, uint64_t>>>* channel_sums_;
  LayerDumper* dumper_;
  std::vector<float> scratch_;
  Status status_;
};

Status LoadContext(const char* what, const std::vector<uint8_t>& bytes, std::unique_ptr<Context>* context) {
  if (bytes.empty()) return NPURT_ERROR(kParamInvalid, "accuracy analysis: the %s model is empty", what);
  return OpenModel(bytes, std::string("accuracy analysis: the ") + what + " model: ", context);
}

// Pairs the quantized model's tensors with the float model's and lays out the report rows.
Status PairTensors(const Model& fm, const Model& qm, Pairing* pairing, AccuracyReport* report) {
  if (fm.inputs().size() != qm.inputs().size()) {
    return NPURT_ERROR(kParamInvalid, "accuracy analysis: the float model has %zu inputs, the quantized one %zu",
                       fm.inputs().size(), qm.inputs().size());
  }
  for (size_t i = 0; i < fm.inputs().size(); ++i) {
    const TensorDesc& a = fm.tensors()[static_cast<size_t>(fm.inputs()[i].tensor)];
    const TensorDesc& b = qm.tensors()[static_cast<size_t>(qm.inputs()[i].tensor)];
    if (a.shape != b.shape) {
      return NPURT_ERROR(kParamInvalid, "accuracy analysis: input %zu is '%s' %s in the float model but '%s' %s in "
                         "the quantized one", i, a.name.c_str(), ShapeToString(a.shape).c_str(), b.name.c_str(),
                         ShapeToString(b.shape).c_str());
    }
  }
  std::set<std::string> float_names;
  for (const TensorDesc& t : fm.tensors()) {
    if (!t.is_constant() && t.dtype == DataType::kFloat32) float_names.insert(t.name);
  }
  for (const IoDesc& io : qm.inputs()) {
    const std::string& name = qm.tensors()[static_cast<size_t>(io.tensor)].name;
    if (float_names.count(name)) pairing->reference_of[name] = name;
  }
  pairing->row_of.assign(qm.ops().size(), {});
  for (size_t k = 0; k < qm.ops().size(); ++k) {
    const OpDesc& op = qm.ops()[k];
    const std::string type = op.def->name;
    const bool boundary = type == "QuantizeLinear" || type == "DequantizeLinear";
    std::vector<const Shape*> in_shapes;
    for (int i : op.inputs) in_shapes.push_back(i < 0 ? nullptr : &qm.tensors()[static_cast<size_t>(i)].shape);
    for (size_t j = 0; j < op.outputs.size(); ++j) {
      const TensorDesc& t = qm.tensors()[static_cast<size_t>(op.outputs[j])];
      std::string ref;
      if (boundary && !op.inputs.empty() && op.inputs[0] >= 0) {
        auto it = pairing->reference_of.find(qm.tensors()[static_cast<size_t>(op.inputs[0])].name);
        if (it != pairing->reference_of.end()) ref = it->second;
      } else if (float_names.count(t.name)) {
        ref = t.name;
      }
      pairing->row_of[k].push_back(-1);
      if (ref.empty() || !Comparable(t.dtype, t.quant)) continue;
      pairing->reference_of[t.name] = ref;
      pairing->row_of[k][j] = static_cast<int>(report->layers.size());
      LayerAccuracy row;
      row.op_index = static_cast<int>(k);
      row.node = op.name;
      row.op_type = type;
      row.tensor = t.name;
      row.reference = ref;
      // An fp16 model's float tensors hold fp16 values (in float32 containers).
      row.precision = PrecisionName(t.dtype == DataType::kFloat32 ? qm.float_dtype() : t.dtype);
      row.macs = j == 0 ? OpMacs(type, op.attrs, in_shapes, t.shape) : 0;
      report->layers.push_back(std::move(row));
    }
  }
  return Status::Ok();
}

// Per-layer accumulation over samples (see the header for how metrics are averaged).
struct Accumulated {
  double cosine = 0.0, euclidean = 0.0, ref_sq = 0.0, err_sq = 0.0;
  ErrorSums range;  // nonfinite and the reference's range, pooled
  void Add(const ErrorSums& s) {
    const ErrorMetrics m = s.Metrics();
    cosine += m.cosine;
    euclidean += m.euclidean;
    ref_sq += s.ref_sq;
    err_sq += s.err_sq;
    range.nonfinite += s.nonfinite;
    range.ref_min = std::min(range.ref_min, s.ref_min);
    range.ref_max = std::max(range.ref_max, s.ref_max);
  }
  ErrorMetrics Mean(size_t samples) const {
    ErrorMetrics m = range.Metrics();
    m.cosine = cosine / static_cast<double>(samples);
    m.euclidean = euclidean / static_cast<double>(samples);
    m.sqnr_db = SqnrDb(ref_sq, err_sq);
    return m;
  }
};

}  // namespace

void ErrorSums::Add(const float* ref, const float* x, int64_t n) {
  double dot_sum = 0.0, r2 = 0.0, x2 = 0.0, e2 = 0.0;
  double lo = ref_min, hi = ref_max;
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double r = ref[i], v = x[i], e = r - v;
    dot_sum += r * v;
    r2 += r * r;
    x2 += v * v;
    e2 += e * e;
    lo = std::min(lo, r);
    hi = std::max(hi, r);
    bad += std::isfinite(r) && !std::isfinite(v);
  }
  ref_min = lo;
  ref_max = hi;
  nonfinite += bad;
  dot += dot_sum;
  ref_sq += r2;
  x_sq += x2;
  err_sq += e2;
}

double SqnrDb(double ref_sq, double err_sq) {
  if (err_sq == 0.0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(ref_sq / err_sq);
}

ErrorMetrics ErrorSums::Metrics() const {
  ErrorMetrics m;
  if (ref_sq == 0.0 && x_sq == 0.0) {
    m.cosine = 1.0;  // both all zero: identical
  } else if (ref_sq == 0.0 || x_sq == 0.0) {
    m.cosine = 0.0;
  } else {
    m.cosine = dot / (std::sqrt(ref_sq) * std::sqrt(x_sq));
  }
  m.euclidean = std::sqrt(err_sq);
  m.sqnr_db = SqnrDb(ref_sq, err_sq);
  m.nonfinite = nonfinite;
  if (ref_min <= ref_max) {
    m.ref_min = ref_min;
    m.ref_max = ref_max;
  }
  return m;
}

ErrorMetrics CompareValues(const float* ref, const float* x, int64_t n) {
  ErrorSums s;
  s.Add(ref, x, n);
  return s.Metrics();
}

Status AnalyzeAccuracy(const std::vector<uint8_t>& float_model, const std::vector<uint8_t>& quant_model,
                       const std::vector<DatasetSample>& samples, const AccuracyOptions& options,
                       AccuracyReport* report) {
  *report = AccuracyReport();
  if (samples.empty()) return NPURT_ERROR(kParamInvalid, "accuracy analysis: no samples");
  std::unique_ptr<Context> fc, qc;
  NPURT_RETURN_IF_ERROR(LoadContext("float", float_model, &fc));
  NPURT_RETURN_IF_ERROR(LoadContext("quantized", quant_model, &qc));
  Pairing pairing;
  NPURT_RETURN_IF_ERROR(PairTensors(fc->model(), qc->model(), &pairing, report));
  std::set<std::string> wanted;
  for (const auto& entry : pairing.reference_of) wanted.insert(entry.second);

  const size_t rows = report->layers.size();
  std::vector<Accumulated> entire(rows), single(rows);
  std::vector<std::vector<std::pair<double, uint64_t>>> channel_sums(options.channel_bias ? rows : 0);
  References refs;
  std::vector<ErrorSums> sums;
  std::unique_ptr<LayerDumper> dumper;
  if (!options.dump_dir.empty() && options.entire) NPURT_RETURN_IF_ERROR(LayerDumper::Create(options.dump_dir, &dumper));
  for (size_t k = 0; k < samples.size(); ++k) {
    const std::string where = samples[k].file.empty() ? "sample " + std::to_string(k + 1) + ": "
                                                       : samples[k].file + ":" + std::to_string(samples[k].line) + ": ";
    refs.clear();
    NPURT_RETURN_IF_ERROR(FeedSample(samples[k], k, fc.get()));
    ReferenceRecorder recorder(wanted, &refs);
    Status s = fc->Run(&recorder);
    if (!s.ok()) return Status(s.code(), where + "float model: " + s.message());
    NPURT_RETURN_IF_ERROR(FeedSample(samples[k], k, qc.get()));
    for (int pass = 0; pass < 2; ++pass) {
      const bool is_single = pass == 1;
      if (!(is_single ? options.single : options.entire)) continue;
      sums.assign(rows, ErrorSums());
      CompareObserver observer(pairing, refs, is_single, &sums,
                               is_single && options.channel_bias ? &channel_sums : nullptr,
                               !is_single && k == 0 ? dumper.get() : nullptr);
      s = qc->Run(&observer);
      if (s.ok()) s = observer.status();
      if (!s.ok()) return Status(s.code(), where + "quantized model: " + s.message());
      std::vector<Accumulated>& acc = is_single ? single : entire;
      for (size_t r = 0; r < rows; ++r) acc[r].Add(sums[r]);
    }
  }
  if (dumper) NPURT_RETURN_IF_ERROR(dumper->Finish());
  report->samples = samples.size();
  for (size_t r = 0; r < rows; ++r) {
    if (options.entire) report->layers[r].entire = entire[r].Mean(samples.size());
    if (options.single) report->layers[r].single = single[r].Mean(samples.size());
    if (r < channel_sums.size()) {
      for (const auto& [sum, count] : channel_sums[r]) {
        report->layers[r].single_channel_bias.push_back(count > 0 ? sum / static_cast<double>(count) : 0.0);
      }
    }
  }
  for (const IoDesc& io : qc->model().outputs()) {
    OutputAccuracy out;
    out.name = qc->model().tensors()[static_cast<size_t>(io.tensor)].name;
    for (const LayerAccuracy& layer : report->layers) {
      if (layer.tensor == out.name) out.metrics = layer.entire;
    }
    report->outputs.push_back(std::move(out));
  }
  return Status::Ok();
}

int FirstNonFiniteLayer(const AccuracyReport& report) {
  for (size_t i = 0; i < report.layers.size(); ++i) {
    if (report.layers[i].entire.nonfinite > 0) return static_cast<int>(i);
  }
  return -1;
}

int FirstLayerBelow(const AccuracyReport& report, double threshold) {
  for (size_t i = 0; i < report.layers.size(); ++i) {
    if (!(report.layers[i].entire.cosine >= threshold)) return static_cast<int>(i);
  }
  return -1;
}

std::string DescribeFirstDepartures(const AccuracyReport& report, double threshold) {
  std::string out;
  char line[512];
  const int overflow = FirstNonFiniteLayer(report);
  if (overflow >= 0) {
    const LayerAccuracy& l = report.layers[static_cast<size_t>(overflow)];
    std::snprintf(line, sizeof(line),
                  "first overflow: layer '%s' (%s, %s): %lld values inf or NaN where float32 has finite ones; "
                  "float32 range [%.6g, %.6g]%s\n",
                  l.node.c_str(), l.op_type.c_str(), l.precision.c_str(), static_cast<long long>(l.entire.nonfinite),
                  l.entire.ref_min, l.entire.ref_max,
                  std::max(std::fabs(l.entire.ref_min), std::fabs(l.entire.ref_max)) > 65504.0
                      ? " (beyond fp16's 65504)" : "");
    out += line;
  }
  const int below = FirstLayerBelow(report, threshold);
  if (below >= 0) {
    const LayerAccuracy& l = report.layers[static_cast<size_t>(below)];
    std::snprintf(line, sizeof(line), "first layer below cosine %g: '%s' (%s, %s): cosine %.6f\n", threshold,
                  l.node.c_str(), l.op_type.c_str(), l.precision.c_str(), l.entire.cosine);
    out += line;
  }
  return out;
}

std::vector<size_t> WorstLayers(const AccuracyReport& report, size_t count) {
  std::vector<size_t> order(report.layers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  // NaN (a reference or output with NaN values) ranks as the worst.
  auto key = [&](size_t i) {
    const double c = report.layers[i].single.cosine;
    return std::isnan(c) ? -std::numeric_limits<double>::infinity() : c;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  if (order.size() > count) order.resize(count);
  return order;
}

}  // namespace compiler
}  // namespace npurt
