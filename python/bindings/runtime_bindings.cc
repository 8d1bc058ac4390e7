// npurt._npurt.Runtime: one rknn_context, driven through librknnrt's public C
// API exactly as a board application drives it (rknn_init, rknn_query,
// rknn_inputs_set, rknn_run, rknn_outputs_get, rknn_outputs_release), so that
// Python inference is the C API's inference. A failed call raises
// npurt._npurt.RknnError carrying the RKNN code; the runtime's own log line
// (stderr, RKNN_LOG_LEVEL) says what was wrong.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "python/bindings/bindings.h"
#include "rknn_api.h"

namespace py = pybind11;

namespace npurt {
namespace python {
namespace {

const char* ErrorName(int code) {
  switch (code) {
    case RKNN_ERR_FAIL: return "RKNN_ERR_FAIL";
    case RKNN_ERR_TIMEOUT: return "RKNN_ERR_TIMEOUT";
    case RKNN_ERR_DEVICE_UNAVAILABLE: return "RKNN_ERR_DEVICE_UNAVAILABLE";
    case RKNN_ERR_MALLOC_FAIL: return "RKNN_ERR_MALLOC_FAIL";
    case RKNN_ERR_PARAM_INVALID: return "RKNN_ERR_PARAM_INVALID";
    case RKNN_ERR_MODEL_INVALID: return "RKNN_ERR_MODEL_INVALID";
    case RKNN_ERR_CTX_INVALID: return "RKNN_ERR_CTX_INVALID";
    case RKNN_ERR_INPUT_INVALID: return "RKNN_ERR_INPUT_INVALID";
    case RKNN_ERR_OUTPUT_INVALID: return "RKNN_ERR_OUTPUT_INVALID";
    case RKNN_ERR_DEVICE_UNMATCH: return "RKNN_ERR_DEVICE_UNMATCH";
    case RKNN_ERR_TARGET_PLATFORM_UNMATCH: return "RKNN_ERR_TARGET_PLATFORM_UNMATCH";
    default: return "RKNN error";
  }
}

[[noreturn]] void Raise(const char* call, int code) {
  RaiseRknnError(code, std::string(call) + " failed: " + ErrorName(code) + " (" + std::to_string(code) + ")");
}

void Check(const char* call, int code) {
  if (code != RKNN_SUCC) Raise(call, code);
}

py::dict AttrDict(const rknn_tensor_attr& a) {
  py::dict d;
  d["index"] = a.index;
  d["name"] = std::string(a.name);
  d["dims"] = std::vector<uint32_t>(a.dims, a.dims + a.n_dims);
  d["n_elems"] = a.n_elems;
  d["size"] = a.size;
  d["fmt"] = std::string(get_format_string(a.fmt));
  d["type"] = std::string(get_type_string(a.type));
  d["qnt_type"] = std::string(get_qnt_type_string(a.qnt_type));
  d["zp"] = a.zp;
  d["scale"] = a.scale;
  d["w_stride"] = a.w_stride;
  d["size_with_stride"] = a.size_with_stride;
  return d;
}

// The RKNN element type of a numpy array that can be passed as it is (others are converted to float32).
// dtype equality, not identity: unpickled or ctypes-made arrays carry equal but distinct dtype objects.
bool TensorTypeOf(const py::dtype& dt, rknn_tensor_type* type) {
  if (dt.equal(py::dtype::of<float>())) *type = RKNN_TENSOR_FLOAT32;
  else if (dt.equal(py::dtype::of<uint8_t>())) *type = RKNN_TENSOR_UINT8;
  else if (dt.equal(py::dtype::of<int8_t>())) *type = RKNN_TENSOR_INT8;
  else if (dt.equal(py::dtype::of<int16_t>())) *type = RKNN_TENSOR_INT16;
  else if (dt.equal(py::dtype::of<uint16_t>())) *type = RKNN_TENSOR_UINT16;
  else if (dt.equal(py::dtype::of<int32_t>())) *type = RKNN_TENSOR_INT32;
  else if (dt.equal(py::dtype::of<int64_t>())) *type = RKNN_TENSOR_INT64;
  else if (dt.equal(py::dtype::of<bool>())) *type = RKNN_TENSOR_BOOL;
  else if (dt.equal(py::dtype("float16"))) *type = RKNN_TENSOR_FLOAT16;
  else return false;
  return true;
}

class Runtime {
 public:
  Runtime(const py::bytes& model, uint32_t flags) {
    std::string bytes = model;  // rknn_init reads the buffer during the call only
    if (bytes.empty()) RaiseRknnError(RKNN_ERR_PARAM_INVALID, "rknn_init: the model is empty");
    if (bytes.size() > UINT32_MAX) RaiseRknnError(RKNN_ERR_MODEL_INVALID, "rknn_init: the model is over 4 GiB");
    int code = 0;
    {
      py::gil_scoped_release release;
      code = rknn_init(&ctx_, bytes.data(), static_cast<uint32_t>(bytes.size()), flags, nullptr);
    }
    if (code != RKNN_SUCC) {
      ctx_ = 0;
      Raise("rknn_init", code);
    }
    if ((flags & RKNN_FLAG_COLLECT_MODEL_INFO_ONLY) != 0) return;  // such a context answers MEM_SIZE only
    try {
      QueryIo();
    } catch (...) {
      Destroy();  // a constructor that throws gets no destructor
      throw;
    }
  }
  ~Runtime() { Destroy(); }  // the last reference is gone: no frame can be running
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // release(): waits (without the GIL) for a frame another thread runs on this context.
  void Release() {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mutex_);
    Destroy();
  }

 private:
  void QueryIo() {
    rknn_input_output_num num{};
    Check("rknn_query(RKNN_QUERY_IN_OUT_NUM)", rknn_query(ctx_, RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)));
    for (uint32_t i = 0; i < num.n_input; ++i) inputs_.push_back(QueryAttr(RKNN_QUERY_INPUT_ATTR, i));
    for (uint32_t i = 0; i < num.n_output; ++i) outputs_.push_back(QueryAttr(RKNN_QUERY_OUTPUT_ATTR, i));
    if (num.n_input > 0) {
      rknn_input_range range{};
      range.index = 0;
      dynamic_ = rknn_query(ctx_, RKNN_QUERY_INPUT_DYNAMIC_RANGE, &range, sizeof(range)) == RKNN_SUCC &&
                 range.shape_number > 1;
    }
  }

 public:

  py::list InputAttrs() const { return AttrList(inputs_); }
  // RKNN_QUERY_NATIVE_INPUT_ATTR: the layout inputs_pass_through data must have.
  py::list NativeInputAttrs() {
    Context();
    py::list l;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      l.append(AttrDict(QueryAttr(RKNN_QUERY_NATIVE_INPUT_ATTR, static_cast<uint32_t>(i))));
    }
    return l;
  }
  py::list OutputAttrs() const { return AttrList(outputs_); }

  void SetCoreMask(int mask) {
    Context();
    Check("rknn_set_core_mask", rknn_set_core_mask(ctx_, static_cast<rknn_core_mask>(mask)));
  }

  // inputs: arrays in model input order; formats: "nhwc", "nchw" or "" (rank-4 inputs; "" = nhwc, the
  // vendor's default); pass_through: 0 / 1 per input. Returns the outputs as float32 arrays.
  py::list Inference(const std::vector<py::array>& inputs, const std::vector<std::string>& formats,
                     const std::vector<int>& pass_through) {
    // One frame at a time per context (two Python threads may share this object): the lock is taken
    // without the GIL, so a thread holding it can always get the GIL back.
    std::unique_lock<std::mutex> run_lock;
    {
      py::gil_scoped_release release;
      run_lock = std::unique_lock<std::mutex>(mutex_);
    }
    Context();
    if (inputs.size() != inputs_.size()) {
      RaiseRknnError(RKNN_ERR_INPUT_INVALID, "the model has " + std::to_string(inputs_.size()) + " input(s), got " +
                                                 std::to_string(inputs.size()));
    }
    const bool any_through = std::any_of(pass_through.begin(), pass_through.end(), [](int p) { return p != 0; });
    if (dynamic_ && !any_through) SelectShapeSet(inputs, formats);  // native data's shape is padded
    std::vector<py::array> held;  // contiguous (converted) arrays, alive until rknn_inputs_set returns
    std::vector<rknn_input> in(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const rknn_tensor_attr& attr = inputs_[i];
      rknn_tensor_type type = RKNN_TENSOR_FLOAT32;
      py::array a = inputs[i];
      if (!TensorTypeOf(a.dtype(), &type)) {
        a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
        type = RKNN_TENSOR_FLOAT32;
      }
      a = py::array::ensure(a, py::array::c_style);
      if (!a) RaiseRknnError(RKNN_ERR_INPUT_INVALID, "input " + std::to_string(i) + " is not an array");
      const bool through = i < pass_through.size() && pass_through[i] != 0;
      // Pass-through data is in the native layout (row padding included): rknn_inputs_set checks its size.
      if (!through && static_cast<uint64_t>(a.size()) != attr.n_elems) {
        std::string dims;
        for (uint32_t d = 0; d < attr.n_dims; ++d) dims += (d ? "," : "") + std::to_string(attr.dims[d]);
        RaiseRknnError(RKNN_ERR_INPUT_INVALID, "input " + std::to_string(i) + " '" + attr.name + "' has " +
                                                   std::to_string(a.size()) + " elements, the model wants " +
                                                   std::to_string(attr.n_elems) + " ([" + dims + "])");
      }
      const std::string fmt = i < formats.size() ? formats[i] : std::string();
      if (!fmt.empty() && fmt != "nhwc" && fmt != "nchw") {
        RaiseRknnError(RKNN_ERR_PARAM_INVALID, "data_format '" + fmt + "' (input " + std::to_string(i) +
                                                   "): expected 'nhwc' or 'nchw'");
      }
      if (static_cast<uint64_t>(a.nbytes()) > UINT32_MAX) {
        RaiseRknnError(RKNN_ERR_INPUT_INVALID, "input " + std::to_string(i) + " is over 4 GiB");
      }
      in[i].index = static_cast<uint32_t>(i);
      in[i].buf = const_cast<void*>(a.data());
      in[i].size = static_cast<uint32_t>(a.nbytes());
      in[i].pass_through = through;
      in[i].type = type;
      in[i].fmt = attr.n_dims != 4 ? RKNN_TENSOR_UNDEFINED : (fmt == "nchw" ? RKNN_TENSOR_NCHW : RKNN_TENSOR_NHWC);
      held.push_back(a);
    }
    std::vector<rknn_output> out(outputs_.size());
    for (size_t i = 0; i < out.size(); ++i) {
      out[i].index = static_cast<uint32_t>(i);
      out[i].want_float = 1;
    }
    int code = 0;
    const char* failed = nullptr;
    {
      py::gil_scoped_release release;
      code = rknn_inputs_set(ctx_, static_cast<uint32_t>(in.size()), in.data());
      if (code != RKNN_SUCC) failed = "rknn_inputs_set";
      if (code == RKNN_SUCC) {
        code = rknn_run(ctx_, nullptr);
        if (code != RKNN_SUCC) failed = "rknn_run";
      }
      if (code == RKNN_SUCC) {
        code = rknn_outputs_get(ctx_, static_cast<uint32_t>(out.size()), out.data(), nullptr);
        if (code != RKNN_SUCC) failed = "rknn_outputs_get";
      }
    }
    if (failed != nullptr) Raise(failed, code);
    // The outputs go back to the runtime however this ends (a MemoryError making an array included).
    struct Outputs {
      rknn_context ctx;
      std::vector<rknn_output>* out;
      ~Outputs() { rknn_outputs_release(ctx, static_cast<uint32_t>(out->size()), out->data()); }
    } release_outputs{ctx_, &out};
    py::list results;
    for (size_t i = 0; i < out.size(); ++i) {
      const rknn_tensor_attr& attr = outputs_[i];
      std::vector<py::ssize_t> shape(attr.dims, attr.dims + attr.n_dims);
      py::array_t<float> a(shape);
      if (static_cast<uint64_t>(a.nbytes()) != out[i].size) {
        RaiseRknnError(RKNN_ERR_OUTPUT_INVALID, "output " + std::to_string(i) + ": the runtime returned " +
                                                    std::to_string(out[i].size) + " bytes for " +
                                                    std::to_string(a.nbytes()));
      }
      std::memcpy(a.mutable_data(), out[i].buf, out[i].size);
      results.append(a);
    }
    return results;
  }

  std::string PerfDetail() {
    Context();
    rknn_perf_detail detail{};
    Check("rknn_query(RKNN_QUERY_PERF_DETAIL)", rknn_query(ctx_, RKNN_QUERY_PERF_DETAIL, &detail, sizeof(detail)));
    return detail.perf_data != nullptr ? std::string(detail.perf_data, detail.data_len) : std::string();
  }

  int64_t PerfRunMicroseconds() {
    Context();
    rknn_perf_run run{};
    Check("rknn_query(RKNN_QUERY_PERF_RUN)", rknn_query(ctx_, RKNN_QUERY_PERF_RUN, &run, sizeof(run)));
    return run.run_duration;
  }

  py::dict MemSize() {
    Context();
    rknn_mem_size mem{};
    Check("rknn_query(RKNN_QUERY_MEM_SIZE)", rknn_query(ctx_, RKNN_QUERY_MEM_SIZE, &mem, sizeof(mem)));
    py::dict d;
    d["total_weight_size"] = mem.total_weight_size;
    d["total_internal_size"] = mem.total_internal_size;
    d["total_dma_allocated_size"] = mem.total_dma_allocated_size;
    return d;
  }

  py::tuple SdkVersion() {
    Context();
    rknn_sdk_version v{};
    Check("rknn_query(RKNN_QUERY_SDK_VERSION)", rknn_query(ctx_, RKNN_QUERY_SDK_VERSION, &v, sizeof(v)));
    return py::make_tuple(std::string(v.api_version), std::string(v.drv_version));
  }

 private:
  void Destroy() {
    if (ctx_ != 0) rknn_destroy(ctx_);
    ctx_ = 0;
  }

  // A model with shape sets (rknn-toolkit2's dynamic_input) runs the set whose input shapes the arrays
  // have, as the vendor's inference does: rknn_set_input_shapes when they differ from the current one.
  void SelectShapeSet(const std::vector<py::array>& inputs, const std::vector<std::string>& formats) {
    std::vector<rknn_tensor_attr> wanted = inputs_;
    bool same = true;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const py::array& a = inputs[i];
      rknn_tensor_attr& attr = wanted[i];
      if (static_cast<uint32_t>(a.ndim()) != attr.n_dims) return;  // not a full shape: the current set decides
      const bool nchw = i < formats.size() && formats[i] == "nchw";
      attr.fmt = attr.n_dims != 4 ? RKNN_TENSOR_UNDEFINED : (nchw ? RKNN_TENSOR_NCHW : RKNN_TENSOR_NHWC);
      for (uint32_t d = 0; d < attr.n_dims; ++d) attr.dims[d] = static_cast<uint32_t>(a.shape(d));
      if (attr.n_dims == 4 && nchw != (inputs_[i].fmt == RKNN_TENSOR_NCHW)) {
        same = false;  // compared in the model's layout by the runtime
      } else {
        same = same && std::equal(attr.dims, attr.dims + attr.n_dims, inputs_[i].dims);
      }
    }
    if (same) return;
    Check("rknn_set_input_shapes", rknn_set_input_shapes(ctx_, static_cast<uint32_t>(wanted.size()), wanted.data()));
    for (size_t i = 0; i < inputs_.size(); ++i) {
      inputs_[i] = QueryAttr(RKNN_QUERY_CURRENT_INPUT_ATTR, static_cast<uint32_t>(i));
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
      outputs_[i] = QueryAttr(RKNN_QUERY_CURRENT_OUTPUT_ATTR, static_cast<uint32_t>(i));
    }
  }

  void Context() const {
    if (ctx_ == 0) RaiseRknnError(RKNN_ERR_CTX_INVALID, "the runtime was released");
  }

  rknn_tensor_attr QueryAttr(rknn_query_cmd cmd, uint32_t index) {
    rknn_tensor_attr attr{};
    attr.index = index;
    Check("rknn_query(tensor attributes)", rknn_query(ctx_, cmd, &attr, sizeof(attr)));
    return attr;
  }

  static py::list AttrList(const std::vector<rknn_tensor_attr>& attrs) {
    py::list l;
    for (const rknn_tensor_attr& a : attrs) l.append(AttrDict(a));
    return l;
  }

  std::mutex mutex_;  // one frame (inputs_set .. outputs_get) at a time, and no release during it
  rknn_context ctx_ = 0;
  bool dynamic_ = false;
  std::vector<rknn_tensor_attr> inputs_, outputs_;
};

}  // namespace

void BindRuntime(py::module_& m) {
  py::class_<Runtime>(m, "Runtime", "One rknn_context over librknnrt's C API")
      .def(py::init<const py::bytes&, uint32_t>(), py::arg("model"), py::arg("flags") = 0,
           "rknn_init on the model file's bytes")
      .def("input_attrs", &Runtime::InputAttrs, "rknn_query(RKNN_QUERY_INPUT_ATTR) of every input, as dicts")
      .def("native_input_attrs", &Runtime::NativeInputAttrs,
           "rknn_query(RKNN_QUERY_NATIVE_INPUT_ATTR): the layout pass-through inputs have")
      .def("output_attrs", &Runtime::OutputAttrs, "rknn_query(RKNN_QUERY_OUTPUT_ATTR) of every output, as dicts")
      .def("set_core_mask", &Runtime::SetCoreMask, py::arg("mask"))
      .def("inference", &Runtime::Inference, py::arg("inputs"), py::arg("formats"), py::arg("pass_through"),
           "rknn_inputs_set + rknn_run + rknn_outputs_get(want_float): float32 arrays")
      .def("perf_detail", &Runtime::PerfDetail, "RKNN_QUERY_PERF_DETAIL (needs flag RKNN_FLAG_COLLECT_PERF_MASK)")
      .def("perf_run_us", &Runtime::PerfRunMicroseconds, "RKNN_QUERY_PERF_RUN: the last run, microseconds")
      .def("mem_size", &Runtime::MemSize, "RKNN_QUERY_MEM_SIZE")
      .def("sdk_version", &Runtime::SdkVersion, "RKNN_QUERY_SDK_VERSION: (api_version, drv_version)")
      .def("release", &Runtime::Release, "rknn_destroy (also when the object is collected)");
  m.attr("RKNN_FLAG_COLLECT_PERF_MASK") = static_cast<uint32_t>(RKNN_FLAG_COLLECT_PERF_MASK);
  m.attr("RKNN_FLAG_COLLECT_MODEL_INFO_ONLY") = static_cast<uint32_t>(RKNN_FLAG_COLLECT_MODEL_INFO_ONLY);
  m.attr("RKNN_FLAG_ASYNC_MASK") = static_cast<uint32_t>(RKNN_FLAG_ASYNC_MASK);
}

}  // namespace python
}  // namespace npurt
