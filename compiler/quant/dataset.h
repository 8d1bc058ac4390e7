// The calibration dataset file of rknn-toolkit2 (`rknn.build(dataset=...)`,
// `npurt convert --quantize --dataset FILE`).
//
// One sample per line; each line holds one path per model input, in model
// input order, separated by spaces or tabs (so paths cannot contain blanks,
// as in rknn-toolkit2). A path is an image (.jpg/.jpeg/.png/.bmp, decoded with
// stb and fed as the application would feed it: uint8 NHWC RGB, see
// calibrator.h) or a .npy file (float32, in the ONNX input's own layout and
// shape, e.g. 1x3x48x320, fed without normalization). Extensions are matched
// case-insensitively. Relative paths are relative to the dataset file's
// directory. Blank lines and lines whose first non-blank character is '#' are
// skipped; a trailing '\r' (Windows line ends) is ignored.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

enum class SampleKind { kImage, kNpy };

struct DatasetSample {
  std::vector<std::string> paths;  // one per model input, resolved against the dataset's directory
  int line = 0;                    // 1-based line in the dataset file
  std::string file;                // the dataset file, as given (for "file:line:" in later errors)
  // Per input (empty: none): decode its image as BGR, rknn-toolkit2's quant_img_RGB2BGR -- for
  // calibration only, the model is unchanged; .npy samples are used as they are.
  std::vector<bool> swap_red_blue;
};

// Reads `path` into `samples` (replacing their contents). Errors (kParamInvalid
// unless noted), each one line naming the problem:
//   cannot open dataset 'd.txt': No such file or directory
//   d.txt:7: 2 paths for a model with 1 input
//   d.txt:3: 'a.gif' has an unknown extension (expected .jpg, .jpeg, .png, .bmp or .npy)
//   d.txt:4: cannot read 'img/x.png': No such file or directory   (checked here, before any model runs)
//   dataset 'd.txt' has no samples
Status ReadDatasetFile(const std::string& path, size_t num_inputs, std::vector<DatasetSample>* samples);

// One sample line of that format (no comment or blank handling): its paths
// checked as ReadDatasetFile checks them, relative ones resolved against
// `base_dir` ("" for the working directory). Errors are the same messages
// without the "d.txt:7: " prefix ("2 paths for a model with 1 input",
// "cannot read 'x.png': No such file or directory"). `line` and `file` of the
// sample are left empty for the caller.
Status ParseDatasetLine(const std::string& line, const std::string& base_dir, size_t num_inputs,
                        DatasetSample* sample);

// The kind of a dataset path by its extension; false for an unknown extension.
bool DatasetSampleKind(const std::string& path, SampleKind* kind);

}  // namespace compiler
}  // namespace npurt
