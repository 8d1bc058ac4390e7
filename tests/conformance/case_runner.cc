#include "tests/conformance/case_runner.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "compiler/compile.h"
#include "onnx/onnx_pb.h"
#include "rknn_api.h"
#include "tests/conformance/tensor_data.h"

namespace conformance {
namespace {

namespace fs = std::filesystem;
using onnx::TensorProto;

CaseResult Failed(std::string reason) {
  CaseResult r;
  r.outcome = Outcome::kFailed;
  r.reason = std::move(reason);
  return r;
}

CaseResult Unsupported(std::string what, std::string reason) {
  CaseResult r;
  r.outcome = Outcome::kUnsupported;
  r.unsupported = std::move(what);
  r.reason = std::move(reason);
  return r;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string FormatFloat(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

// ------------------------------------------------------------ model scope

void CollectOpTypes(const onnx::GraphProto& g, std::set<std::string>* ops) {
  for (const onnx::NodeProto& n : g.node()) {
    ops->insert(n.op_type());
    for (const onnx::AttributeProto& a : n.attribute()) {
      if (a.has_g()) CollectOpTypes(a.g(), ops);
      for (const onnx::GraphProto& sub : a.graphs()) CollectOpTypes(sub, ops);
    }
  }
}

// What npurt does not model at all, decided from the model itself: non-tensor
// values (sequences, optionals, maps), string/complex tensors and training-mode
// ops. Returns an empty string when the model is in scope.
std::string OutOfScope(const onnx::ModelProto& model) {
  const onnx::GraphProto& g = model.graph();
  auto value_kind = [](const onnx::ValueInfoProto& v) -> std::string {
    if (!v.has_type()) return "";
    const onnx::TypeProto& t = v.type();
    switch (t.value_case()) {
      case onnx::TypeProto::kSequenceType: return "<sequence type>";
      case onnx::TypeProto::kOptionalType: return "<optional type>";
      case onnx::TypeProto::kMapType: return "<map type>";
      case onnx::TypeProto::kSparseTensorType: return "<sparse tensor type>";
      case onnx::TypeProto::kTensorType: {
        const int32_t e = t.tensor_type().elem_type();
        if (e == TensorProto::STRING || e == TensorProto::COMPLEX64 || e == TensorProto::COMPLEX128) {
          return "<" + OnnxTypeName(e) + " tensor>";
        }
        return "";
      }
      default: return "";
    }
  };
  for (const onnx::ValueInfoProto& v : g.input()) {
    std::string k = value_kind(v);
    if (!k.empty()) return k;
  }
  for (const onnx::ValueInfoProto& v : g.output()) {
    std::string k = value_kind(v);
    if (!k.empty()) return k;
  }
  for (const onnx::NodeProto& n : g.node()) {
    if (n.domain() == "ai.onnx.preview.training") return n.op_type() + " (training)";
    if (n.op_type() == "BatchNormalization") {
      for (const onnx::AttributeProto& a : n.attribute()) {
        if (a.name() == "training_mode" && a.i() != 0) return "BatchNormalization (training mode)";
      }
    }
  }
  return "";
}

// Where an unsupported-op refusal from CompileOnnxFile says so, e.g.
//   node 'n': unsupported operator 'Loop' (domain '', opset 16); supported ...
//   node 'n' (ReduceSum, opset 13): unsupported operator use: input 1 ('axes') is computed at run time ...
// An op refusing an element type it does not implement (uint8 Add, int8 Clip,
// uint64 or bfloat16 tensors) is also an unsupported case, not a wrong result:
//   node 'n' (Add, opset 14): Add: input type UINT8 is not supported
//   node 'n' (Clip, opset 13): Clip: input 0 has type INT8, expected FP32
// npos for any other conversion error (which is a failure).
size_t UnsupportedOpPhrase(const std::string& message) {
  const std::string m = Lower(message);
  for (const char* phrase : {"unsupported op", "op not supported", "operator not supported", "is not supported",
                             "unsupported model", " has type ", "unsupported element type"}) {
    const size_t pos = m.find(phrase);
    if (pos != std::string::npos) return pos;
  }
  return std::string::npos;
}

// Where `op` appears in `message` at or after `from`: quoted ('Op' / "Op"),
// as a node label "(Op" / "Op)", or else as a whole word. npos if nowhere.
size_t FindOpType(const std::string& message, const std::string& op, size_t from, bool whole_word) {
  size_t best = std::string::npos;
  if (!whole_word) {
    for (const std::string& pattern : {"'" + op + "'", "\"" + op + "\"", "(" + op + ",", "(" + op + ")"}) {
      best = std::min(best, message.find(pattern, from));
    }
    return best;
  }
  for (size_t pos = message.find(op, from); pos != std::string::npos; pos = message.find(op, pos + 1)) {
    const bool left = pos == 0 || !std::isalnum(static_cast<unsigned char>(message[pos - 1]));
    const size_t end = pos + op.size();
    const bool right = end == message.size() || !std::isalnum(static_cast<unsigned char>(message[end]));
    if (left && right) return pos;
  }
  return std::string::npos;
}

// What the refusal is about: the model op type it names (first after the
// phrase, else the node label before it, else any mention), with a qualifier
// when the op itself is supported but not this use of it. "?" if no op type
// of the model is named.
std::string UnsupportedKey(const std::string& message, size_t phrase, const std::set<std::string>& op_types) {
  std::string op;
  for (int pass = 0; pass < 3 && op.empty(); ++pass) {
    const size_t from = pass == 0 ? phrase : 0;
    const bool whole_word = pass == 2;
    size_t best = std::string::npos;
    for (const std::string& t : op_types) {
      const size_t pos = FindOpType(message, t, from, whole_word);
      if (pos != std::string::npos && (best == std::string::npos || pos < best || (pos == best && t.size() > op.size()))) {
        best = pos;
        op = t;
      }
    }
  }
  if (op.empty()) return "?";
  const std::string m = Lower(message.substr(phrase));
  if (m.rfind("unsupported operator use", 0) == 0) return op + " (non-constant input)";
  if (m.rfind("unsupported operator output", 0) == 0) return op + " (extra output)";
  if (m.find("on run-time values") != std::string::npos) return op + " (run-time inputs)";
  return op;
}

// ------------------------------------------------------------ test data

struct DataSet {
  std::string dir;
  std::vector<HostTensor> inputs;
  std::vector<HostTensor> outputs;
};

// input_0.pb, input_1.pb, ... (prefix "input_" or "output_") in index order.
bool ReadNumbered(const std::string& dir, const std::string& prefix, std::vector<HostTensor>* out,
                  std::string* error) {
  std::map<int, std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind(prefix, 0) != 0 || f.size() <= prefix.size() + 3 || f.substr(f.size() - 3) != ".pb") continue;
    const std::string num = f.substr(prefix.size(), f.size() - prefix.size() - 3);
    if (num.empty() || !std::all_of(num.begin(), num.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      continue;
    }
    files[std::stoi(num)] = e.path().string();
  }
  int expect = 0;
  for (const auto& kv : files) {
    if (kv.first != expect++) {
      *error = dir + ": " + prefix + "N.pb files are not numbered 0..n-1";
      return false;
    }
    HostTensor t;
    if (!ReadTensorFile(kv.second, &t, error)) return false;
    out->push_back(std::move(t));
  }
  return true;
}

// ------------------------------------------------------------ C API side

std::vector<int64_t> AttrDimsNchw(const rknn_tensor_attr& a) {
  std::vector<int64_t> d(a.dims, a.dims + std::min<uint32_t>(a.n_dims, RKNN_MAX_DIMS));
  if (d.size() == 4 && a.fmt == RKNN_TENSOR_NHWC) d = {d[0], d[3], d[1], d[2]};
  return d;
}

size_t RknnTypeSize(rknn_tensor_type t) {
  switch (t) {
    case RKNN_TENSOR_INT8:
    case RKNN_TENSOR_UINT8:
    case RKNN_TENSOR_BOOL: return 1;
    case RKNN_TENSOR_FLOAT16:
    case RKNN_TENSOR_INT16:
    case RKNN_TENSOR_UINT16:
    case RKNN_TENSOR_BFLOAT16: return 2;
    case RKNN_TENSOR_FLOAT32:
    case RKNN_TENSOR_INT32:
    case RKNN_TENSOR_UINT32: return 4;
    case RKNN_TENSOR_INT64: return 8;
    default: return 0;
  }
}

bool IsRknnFloat(rknn_tensor_type t) {
  return t == RKNN_TENSOR_FLOAT32 || t == RKNN_TENSOR_FLOAT16 || t == RKNN_TENSOR_BFLOAT16;
}

int64_t LoadRknnInt(const void* buf, rknn_tensor_type t, int64_t i) {
  const uint8_t* p = static_cast<const uint8_t*>(buf) + static_cast<size_t>(i) * RknnTypeSize(t);
  switch (t) {
    case RKNN_TENSOR_INT8: { int8_t v; std::memcpy(&v, p, 1); return v; }
    case RKNN_TENSOR_UINT8: return *p;
    case RKNN_TENSOR_BOOL: return *p != 0 ? 1 : 0;
    case RKNN_TENSOR_INT16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case RKNN_TENSOR_UINT16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case RKNN_TENSOR_INT32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case RKNN_TENSOR_UINT32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case RKNN_TENSOR_INT64: { int64_t v; std::memcpy(&v, p, 8); return v; }
    default: return 0;
  }
}

// The input buffer handed to rknn_inputs_set: the data in its own type when
// the C API has that type; DOUBLE and BFLOAT16 as FLOAT32, UINT64 as INT64.
struct Feed {
  rknn_tensor_type type = RKNN_TENSOR_FLOAT32;
  std::vector<uint8_t> bytes;
};

bool MakeFeed(const HostTensor& t, Feed* f, std::vector<std::string>* notes) {
  const int64_t n = t.NumElements();
  auto as_float32 = [&]() {
    f->type = RKNN_TENSOR_FLOAT32;
    f->bytes.resize(static_cast<size_t>(n) * 4);
    for (int64_t i = 0; i < n; ++i) {
      const float v = static_cast<float>(ElementAsDouble(t, i));
      std::memcpy(f->bytes.data() + i * 4, &v, 4);
    }
  };
  f->bytes = t.bytes;
  switch (t.onnx_type) {
    case TensorProto::FLOAT: f->type = RKNN_TENSOR_FLOAT32; return true;
    case TensorProto::FLOAT16: f->type = RKNN_TENSOR_FLOAT16; return true;
    case TensorProto::INT8: f->type = RKNN_TENSOR_INT8; return true;
    case TensorProto::UINT8: f->type = RKNN_TENSOR_UINT8; return true;
    case TensorProto::INT16: f->type = RKNN_TENSOR_INT16; return true;
    case TensorProto::UINT16: f->type = RKNN_TENSOR_UINT16; return true;
    case TensorProto::INT32: f->type = RKNN_TENSOR_INT32; return true;
    case TensorProto::UINT32: f->type = RKNN_TENSOR_UINT32; return true;
    case TensorProto::INT64: f->type = RKNN_TENSOR_INT64; return true;
    case TensorProto::BOOL: f->type = RKNN_TENSOR_BOOL; return true;
    case TensorProto::UINT64:
      f->type = RKNN_TENSOR_INT64;
      notes->push_back("UINT64 input fed as INT64");
      return true;
    case TensorProto::DOUBLE:
    case TensorProto::BFLOAT16:
      as_float32();
      notes->push_back(OnnxTypeName(t.onnx_type) + " input fed as FLOAT32 (npurt has no such type)");
      return true;
    default: return false;
  }
}

std::string FormatRel(double rtol, double atol) {
  return "rtol " + FormatFloat(rtol) + ", atol " + FormatFloat(atol);
}

// Compares one output element-wise; returns "" when it matches, else the reason.
std::string CompareFloat(const std::string& name, const HostTensor& expected, const float* actual,
                         const Tolerance& tol) {
  const int64_t n = expected.NumElements();
  int64_t bad = 0, worst = -1;
  double worst_diff = -1.0;
  for (int64_t i = 0; i < n; ++i) {
    const double e = static_cast<double>(static_cast<float>(ElementAsDouble(expected, i)));
    const double a = actual[i];
    bool ok;
    double diff;
    if (std::isnan(e) || std::isnan(a)) {
      ok = std::isnan(e) && std::isnan(a);
      diff = ok ? 0.0 : INFINITY;
    } else if (std::isinf(e) || std::isinf(a)) {
      ok = a == e;
      diff = ok ? 0.0 : INFINITY;
    } else {
      diff = std::fabs(a - e);
      ok = diff <= tol.atol + tol.rtol * std::fabs(e);
    }
    if (!ok) {
      ++bad;
      if (diff > worst_diff) {
        worst_diff = diff;
        worst = i;
      }
    }
  }
  if (bad == 0) return "";
  std::ostringstream s;
  s << "output '" << name << "' " << DimsToString(expected.dims) << ": " << bad << " of " << n << " values off ("
    << FormatRel(tol.rtol, tol.atol) << "); max abs diff " << FormatFloat(worst_diff) << " at "
    << IndexToString(expected.dims, worst) << " (got " << FormatFloat(actual[worst]) << ", expected "
    << FormatFloat(static_cast<float>(ElementAsDouble(expected, worst))) << ")";
  return s.str();
}

constexpr double kFp16SmallestNormal = 6.103515625e-05;  // 2^-14
const std::string kBeyondFp16 = "beyond fp16: ";  // CompareCosine's reason for Outcome::kBeyondFp16

// Compares one output as a whole (real models): cosine similarity and the
// largest error relative to the largest reference magnitude. The measurement
// goes to `notes` either way.
std::string CompareCosine(const std::string& name, const HostTensor& expected, const float* actual,
                          const Tolerance& tol, std::vector<std::string>* notes) {
  const int64_t n = expected.NumElements();
  double dot = 0.0, ee = 0.0, aa = 0.0, max_ref = 0.0, max_diff = 0.0;
  bool finite = true;
  for (int64_t i = 0; i < n; ++i) {
    const double e = static_cast<float>(ElementAsDouble(expected, i));
    const double a = actual[i];
    if (!std::isfinite(e) || !std::isfinite(a)) finite = finite && (e == a);
    dot += e * a;
    ee += e * e;
    aa += a * a;
    max_ref = std::max(max_ref, std::fabs(e));
    max_diff = std::max(max_diff, std::fabs(a - e));
  }
  // Two all-zero tensors are identical; one all-zero tensor against a non-zero one is not.
  const double cosine = (ee == 0.0 && aa == 0.0) ? 1.0 : (ee == 0.0 || aa == 0.0) ? 0.0 : dot / std::sqrt(ee * aa);
  const double rel = max_ref > 0.0 ? max_diff / max_ref : (max_diff > 0.0 ? INFINITY : 0.0);
  std::ostringstream m;
  m << "output '" << name << "' " << DimsToString(expected.dims) << ": cosine " << std::setprecision(9) << cosine
    << ", max abs diff " << FormatFloat(max_diff) << " = " << FormatFloat(rel) << " x max|ref| ("
    << FormatFloat(max_ref) << ")";
  notes->push_back(m.str());
  if (finite && cosine >= tol.min_cosine && rel <= tol.max_abs_rel) return "";
  if (tol.float16 && (!finite || max_ref < kFp16SmallestNormal)) {
    return kBeyondFp16 + m.str() + (finite ? ": below fp16's smallest normal" : ": fp16 overflowed inside the model");
  }
  return m.str() + (finite ? "" : ", non-finite values differ") + "; required cosine >= " +
         FormatFloat(tol.min_cosine) + " and max abs diff <= " + FormatFloat(tol.max_abs_rel) + " x max|ref|";
}

// A float output stored quantized at `scale`: how many values equal the expected (within a hundredth of a
// step) and how many lie within one step.
std::string CompareSteps(const std::string& name, const HostTensor& expected, const float* actual, float scale,
                         const Tolerance& tol, std::vector<std::string>* notes) {
  const int64_t n = expected.NumElements();
  int64_t exact = 0, within = 0;
  double worst = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double steps = std::fabs(actual[i] - static_cast<float>(ElementAsDouble(expected, i))) / scale;
    exact += steps <= 0.01;
    within += steps <= 1.01;
    if (!(steps <= worst)) worst = steps;  // NaN counts as the worst
  }
  const double exact_share = n > 0 ? static_cast<double>(exact) / n : 1.0;
  const double within_share = n > 0 ? static_cast<double>(within) / n : 1.0;
  std::ostringstream m;
  m << "output '" << name << "' in steps of " << FormatFloat(scale) << ": " << std::setprecision(5)
    << 100.0 * exact_share << "% exact, " << 100.0 * within_share << "% within one step, max " << worst << " steps";
  notes->push_back(m.str());
  if (within_share >= tol.min_within_step) return "";
  return m.str() + "; required " + FormatFloat(100.0 * tol.min_within_step) + "% within one step";
}

std::string CompareExact(const std::string& name, const HostTensor& expected, const void* actual,
                         rknn_tensor_type type) {
  const int64_t n = expected.NumElements();
  int64_t bad = 0, worst = -1;
  double worst_diff = -1.0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t e = ElementAsInt64(expected, i);
    const int64_t a = LoadRknnInt(actual, type, i);
    if (a != e) {
      ++bad;
      const double diff = std::fabs(static_cast<double>(a) - static_cast<double>(e));
      if (diff > worst_diff) {
        worst_diff = diff;
        worst = i;
      }
    }
  }
  if (bad == 0) return "";
  std::ostringstream s;
  s << "output '" << name << "' " << DimsToString(expected.dims) << ": " << bad << " of " << n
    << " values differ (exact compare); max abs diff " << FormatFloat(worst_diff) << " at "
    << IndexToString(expected.dims, worst) << " (got " << LoadRknnInt(actual, type, worst) << ", expected "
    << ElementAsInt64(expected, worst) << ")";
  return s.str();
}

std::string ApiError(const char* call, int ret) {
  return std::string(call) + " failed (" + std::to_string(ret) + ")";
}

class ContextGuard {
 public:
  ~ContextGuard() {
    if (ctx != 0) rknn_destroy(ctx);
  }
  rknn_context ctx = 0;
};

// Runs one data set through a converted model; "" on success, else the reason.
std::string RunDataSet(std::vector<uint8_t>* model_bytes, const std::vector<std::string>& input_names,
                       const std::vector<std::string>& output_names, const DataSet& ds,
                       const Tolerance& tolerance, std::vector<std::string>* notes) {
  ContextGuard g;
  int ret = rknn_init(&g.ctx, model_bytes->data(), static_cast<uint32_t>(model_bytes->size()), 0, nullptr);
  if (ret != RKNN_SUCC) {
    g.ctx = 0;
    return ApiError("rknn_init", ret);
  }
  rknn_input_output_num io{};
  ret = rknn_query(g.ctx, RKNN_QUERY_IN_OUT_NUM, &io, sizeof(io));
  if (ret != RKNN_SUCC) return ApiError("rknn_query(IN_OUT_NUM)", ret);

  // Inputs, matched by name to the model's graph inputs.
  std::vector<Feed> feeds(io.n_input);
  std::vector<rknn_input> inputs(io.n_input);
  static uint8_t empty_buffer[8];
  std::set<size_t> fed;
  for (uint32_t i = 0; i < io.n_input; ++i) {
    rknn_tensor_attr a{};
    a.index = i;
    ret = rknn_query(g.ctx, RKNN_QUERY_INPUT_ATTR, &a, sizeof(a));
    if (ret != RKNN_SUCC) return ApiError("rknn_query(INPUT_ATTR)", ret);
    const std::string name = a.name;
    const auto it = std::find(input_names.begin(), input_names.end(), name);
    if (it == input_names.end()) return "model input " + std::to_string(i) + " '" + name + "' is not a graph input";
    const size_t k = static_cast<size_t>(it - input_names.begin());
    fed.insert(k);
    const HostTensor& t = ds.inputs[k];
    const std::vector<int64_t> dims = AttrDimsNchw(a);
    if (dims != t.dims) {
      return "input '" + name + "': the model has shape " + DimsToString(dims) + ", the data " + DimsToString(t.dims);
    }
    if (!MakeFeed(t, &feeds[i], notes)) return "input '" + name + "': cannot feed " + OnnxTypeName(t.onnx_type);
    rknn_input& in = inputs[i];
    in.index = i;
    in.buf = feeds[i].bytes.empty() ? static_cast<void*>(empty_buffer) : feeds[i].bytes.data();
    in.size = static_cast<uint32_t>(feeds[i].bytes.size());
    in.pass_through = 0;
    in.type = feeds[i].type;
    in.fmt = t.dims.size() == 4 ? RKNN_TENSOR_NCHW : RKNN_TENSOR_UNDEFINED;
  }
  for (size_t k = 0; k < input_names.size(); ++k) {
    if (fed.count(k) == 0) notes->push_back("graph input '" + input_names[k] + "' is not a model input (folded)");
  }
  if (io.n_input > 0) {
    ret = rknn_inputs_set(g.ctx, io.n_input, inputs.data());
    if (ret != RKNN_SUCC) return ApiError("rknn_inputs_set", ret);
  }
  ret = rknn_run(g.ctx, nullptr);
  if (ret != RKNN_SUCC) return ApiError("rknn_run", ret);

  // Outputs, matched by name to the graph outputs.
  if (io.n_output != output_names.size()) {
    return "the model has " + std::to_string(io.n_output) + " outputs, the graph " +
           std::to_string(output_names.size());
  }
  std::vector<rknn_tensor_attr> attrs(io.n_output);
  std::vector<size_t> which(io.n_output);
  std::vector<rknn_output> outs(io.n_output);
  for (uint32_t i = 0; i < io.n_output; ++i) {
    rknn_tensor_attr& a = attrs[i];
    a.index = i;
    ret = rknn_query(g.ctx, RKNN_QUERY_OUTPUT_ATTR, &a, sizeof(a));
    if (ret != RKNN_SUCC) return ApiError("rknn_query(OUTPUT_ATTR)", ret);
    const std::string name = a.name;
    const auto it = std::find(output_names.begin(), output_names.end(), name);
    if (it == output_names.end()) return "model output " + std::to_string(i) + " '" + name + "' is not a graph output";
    which[i] = static_cast<size_t>(it - output_names.begin());
    const HostTensor& e = ds.outputs[which[i]];
    const std::vector<int64_t> dims = AttrDimsNchw(a);
    if (dims != e.dims) {
      return "output '" + name + "': shape " + DimsToString(dims) + ", expected " + DimsToString(e.dims);
    }
    // A float output the model stores quantized (a QDQ model's int8 output, as on the board) is read with
    // want_float, which dequantizes it.
    const bool want_float = IsFloatType(e.onnx_type);
    if (want_float != IsRknnFloat(a.type) && !(want_float && a.qnt_type == RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC)) {
      return "output '" + name + "': type " + get_type_string(a.type) + ", expected " + OnnxTypeName(e.onnx_type);
    }
    if (!want_float && RknnTypeSize(a.type) == 0) {
      return "output '" + name + "': unexpected type " + get_type_string(a.type);
    }
    outs[i].index = i;
    outs[i].want_float = want_float ? 1 : 0;
    outs[i].is_prealloc = 0;
    if (e.onnx_type == TensorProto::DOUBLE) notes->push_back("DOUBLE output '" + name + "' compared in float32");
  }
  if (io.n_output == 0) return "";
  ret = rknn_outputs_get(g.ctx, io.n_output, outs.data(), nullptr);
  if (ret != RKNN_SUCC) return ApiError("rknn_outputs_get", ret);
  std::string failure;
  for (uint32_t i = 0; i < io.n_output && failure.empty(); ++i) {
    const HostTensor& e = ds.outputs[which[i]];
    const std::string name = attrs[i].name;
    const int64_t n = e.NumElements();
    const size_t esize = outs[i].want_float ? 4 : RknnTypeSize(attrs[i].type);
    if (outs[i].size != static_cast<uint64_t>(n) * esize) {
      failure = "output '" + name + "': rknn_outputs_get returned " + std::to_string(outs[i].size) + " bytes, " +
                DimsToString(e.dims) + " needs " + std::to_string(n * static_cast<int64_t>(esize));
    } else if (n > 0 && outs[i].buf == nullptr) {
      failure = "output '" + name + "': rknn_outputs_get returned a NULL buffer";
    } else if (outs[i].want_float) {
      failure = tolerance.min_cosine > 0.0
                    ? CompareCosine(name, e, static_cast<const float*>(outs[i].buf), tolerance, notes)
                    : CompareFloat(name, e, static_cast<const float*>(outs[i].buf), tolerance);
      if (failure.empty() && tolerance.min_within_step > 0.0 && !IsRknnFloat(attrs[i].type) && attrs[i].scale > 0.0f) {
        failure = CompareSteps(name, e, static_cast<const float*>(outs[i].buf), attrs[i].scale, tolerance, notes);
      }
    } else {
      failure = CompareExact(name, e, outs[i].buf, attrs[i].type);
    }
  }
  ret = rknn_outputs_release(g.ctx, io.n_output, outs.data());
  if (failure.empty() && ret != RKNN_SUCC) failure = ApiError("rknn_outputs_release", ret);
  return failure;
}

}  // namespace

CaseResult RunCase(const std::string& test_dir, const Tolerance& tolerance) {
  const std::string model_path = test_dir + "/model.onnx";
  onnx::ModelProto model;
  {
    std::ifstream in(model_path, std::ios::binary);
    if (!in) return Failed("cannot open " + model_path);
    if (!model.ParseFromIstream(&in)) return Failed("cannot parse " + model_path);
  }
  const std::string scope = OutOfScope(model);
  if (!scope.empty()) return Unsupported(scope, "out of npurt's scope: " + scope);

  std::set<std::string> initializers;
  for (const TensorProto& t : model.graph().initializer()) initializers.insert(t.name());
  std::vector<std::string> input_names, output_names;
  for (const onnx::ValueInfoProto& v : model.graph().input()) {
    if (initializers.count(v.name()) == 0) input_names.push_back(v.name());
  }
  for (const onnx::ValueInfoProto& v : model.graph().output()) output_names.push_back(v.name());

  std::vector<DataSet> sets;
  std::vector<std::string> set_dirs;
  for (const fs::directory_entry& e : fs::directory_iterator(test_dir)) {
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) {
      set_dirs.push_back(e.path().string());
    }
  }
  std::sort(set_dirs.begin(), set_dirs.end());
  if (set_dirs.empty()) return Failed("no test_data_set_* directory");
  for (const std::string& d : set_dirs) {
    DataSet ds;
    ds.dir = d;
    std::string error;
    if (!ReadNumbered(d, "input_", &ds.inputs, &error) || !ReadNumbered(d, "output_", &ds.outputs, &error)) {
      return Failed(error);
    }
    if (ds.inputs.size() != input_names.size()) {
      return Failed(fs::path(d).filename().string() + " has " + std::to_string(ds.inputs.size()) +
                    " inputs, the graph " + std::to_string(input_names.size()));
    }
    if (ds.outputs.size() != output_names.size()) {
      return Failed(fs::path(d).filename().string() + " has " + std::to_string(ds.outputs.size()) +
                    " outputs, the graph " + std::to_string(output_names.size()));
    }
    sets.push_back(std::move(ds));
  }

  CaseResult result;
  std::map<std::string, npurt::Shape> compiled_shapes;
  std::vector<uint8_t> bytes;
  for (const DataSet& ds : sets) {
    npurt::compiler::CompileOptions options;
    options.float_dtype = tolerance.float16 ? npurt::DataType::kFloat16 : npurt::DataType::kFloat32;
    for (size_t k = 0; k < input_names.size(); ++k) options.input_shapes[input_names[k]] = ds.inputs[k].dims;
    if (bytes.empty() || options.input_shapes != compiled_shapes) {
      bytes.clear();
      npurt::Status s = npurt::compiler::CompileOnnxFile(model_path, options, &bytes);
      if (!s.ok()) {
        const size_t phrase = UnsupportedOpPhrase(s.message());
        if (phrase != std::string::npos) {
          std::set<std::string> ops;
          CollectOpTypes(model.graph(), &ops);
          return Unsupported(UnsupportedKey(s.message(), phrase, ops), s.message());
        }
        return Failed("conversion failed: " + s.message());
      }
      if (bytes.empty()) return Failed("conversion succeeded but produced no bytes");
      compiled_shapes = options.input_shapes;
    }
    std::string failure = RunDataSet(&bytes, input_names, output_names, ds, tolerance, &result.notes);
    if (!failure.empty()) {
      if (sets.size() > 1) failure = fs::path(ds.dir).filename().string() + ": " + failure;
      const bool beyond = failure.find(kBeyondFp16) != std::string::npos;
      result.outcome = beyond ? Outcome::kBeyondFp16 : Outcome::kFailed;
      result.reason = failure;
      return result;
    }
  }
  // Notes repeat per data set; keep each once.
  std::vector<std::string> unique;
  for (const std::string& n : result.notes) {
    if (std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(n);
  }
  result.notes = unique;
  result.outcome = Outcome::kPassed;
  return result;
}

}  // namespace conformance
