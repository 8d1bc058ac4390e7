#include "rknn_model.h"

#include <cstring>

namespace ppocr {

RknnModel::~RknnModel() {
  if (ctx_ != 0) rknn_destroy(ctx_);
}

bool RknnModel::Fail(const char* call, int ret, std::string* error) const {
  *error = std::string(call) + " failed for '" + path_ + "': error " + std::to_string(ret);
  return false;
}

bool RknnModel::Load(const std::string& path, std::string* error) {
  path_ = path;
  // size 0: `model` is a file path. rknn_init takes a non-const pointer.
  std::vector<char> model_path(path.begin(), path.end());
  model_path.push_back('\0');
  int ret = rknn_init(&ctx_, model_path.data(), 0, 0, nullptr);
  if (ret != RKNN_SUCC) {
    ctx_ = 0;
    return Fail("rknn_init", ret, error);
  }
  rknn_input_output_num io{};
  ret = rknn_query(ctx_, RKNN_QUERY_IN_OUT_NUM, &io, sizeof(io));
  if (ret != RKNN_SUCC) return Fail("rknn_query(IN_OUT_NUM)", ret, error);
  if (io.n_input != 1 || io.n_output != 1) {
    *error = "'" + path + "' has " + std::to_string(io.n_input) + " inputs and " + std::to_string(io.n_output) +
             " outputs; the OCR models have one of each";
    return false;
  }
  std::memset(&input_, 0, sizeof(input_));
  input_.index = 0;
  ret = rknn_query(ctx_, RKNN_QUERY_INPUT_ATTR, &input_, sizeof(input_));
  if (ret != RKNN_SUCC) return Fail("rknn_query(INPUT_ATTR)", ret, error);
  std::memset(&output_, 0, sizeof(output_));
  output_.index = 0;
  ret = rknn_query(ctx_, RKNN_QUERY_OUTPUT_ATTR, &output_, sizeof(output_));
  if (ret != RKNN_SUCC) return Fail("rknn_query(OUTPUT_ATTR)", ret, error);
  if (input_.n_dims != 4) {
    *error = "'" + path + "': expected a 4-D image input, got " + std::to_string(input_.n_dims) + " dims";
    return false;
  }
  return true;
}

int RknnModel::input_height() const { return static_cast<int>(input_.dims[input_.fmt == RKNN_TENSOR_NCHW ? 2 : 1]); }
int RknnModel::input_width() const { return static_cast<int>(input_.dims[input_.fmt == RKNN_TENSOR_NCHW ? 3 : 2]); }
int RknnModel::input_channels() const { return static_cast<int>(input_.dims[input_.fmt == RKNN_TENSOR_NCHW ? 1 : 3]); }

bool RknnModel::Run(const void* data, size_t bytes, rknn_tensor_type type, rknn_tensor_format fmt,
                    std::vector<float>* output, std::string* error) {
  rknn_input in{};
  in.index = 0;
  in.buf = const_cast<void*>(data);  // only read: rknn_inputs_set copies it
  in.size = static_cast<uint32_t>(bytes);
  in.type = type;
  in.fmt = fmt;
  int ret = rknn_inputs_set(ctx_, 1, &in);
  if (ret != RKNN_SUCC) return Fail("rknn_inputs_set", ret, error);
  ret = rknn_run(ctx_, nullptr);
  if (ret != RKNN_SUCC) return Fail("rknn_run", ret, error);
  rknn_output out{};
  out.index = 0;
  out.want_float = 1;
  ret = rknn_outputs_get(ctx_, 1, &out, nullptr);
  if (ret != RKNN_SUCC) return Fail("rknn_outputs_get", ret, error);
  const float* values = static_cast<const float*>(out.buf);
  output->assign(values, values + out.size / sizeof(float));
  ret = rknn_outputs_release(ctx_, 1, &out);
  if (ret != RKNN_SUCC) return Fail("rknn_outputs_release", ret, error);
  return true;
}

}  // namespace ppocr
