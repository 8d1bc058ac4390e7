// One model behind an rknn_context: the RKNN C API calls a board application
// makes (rknn_init, rknn_query, rknn_inputs_set, rknn_run, rknn_outputs_get,
// rknn_outputs_release, rknn_destroy), each return code checked.
#pragma once

#include <string>
#include <vector>

#include "rknn_api.h"

namespace ppocr {

class RknnModel {
 public:
  RknnModel() = default;
  ~RknnModel();
  RknnModel(const RknnModel&) = delete;
  RknnModel& operator=(const RknnModel&) = delete;

  // Loads the model and queries its input and output attributes. The OCR
  // models have one input and one output; anything else is an error.
  bool Load(const std::string& path, std::string* error);

  const rknn_tensor_attr& input_attr() const { return input_; }
  const rknn_tensor_attr& output_attr() const { return output_; }
  // Input image geometry, whichever layout (NHWC or NCHW) the model reports.
  int input_height() const;
  int input_width() const;
  int input_channels() const;

  // Sets the input from `data` (`type` elements in `fmt` layout; the runtime
  // converts and normalizes), runs, and copies the output as float32.
  bool Run(const void* data, size_t bytes, rknn_tensor_type type, rknn_tensor_format fmt, std::vector<float>* output,
           std::string* error);

 private:
  bool Fail(const char* call, int ret, std::string* error) const;

  rknn_context ctx_ = 0;
  std::string path_;
  rknn_tensor_attr input_{};
  rknn_tensor_attr output_{};
};

}  // namespace ppocr
