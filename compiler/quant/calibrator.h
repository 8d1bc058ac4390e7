// Calibration: runs the float model on the dataset and records, for every
// float32 tensor the runtime computes (every op output) and every float32
// model input, its range and the histogram of its values. The range
// estimators (range_estimator.h) turn these statistics into quantization
// ranges.
//
// Samples are fed through the runtime's own input path (Context::SetInputs),
// exactly as an application feeds them with rknn_inputs_set:
//   - an image (.jpg/.jpeg/.png/.bmp) is decoded with stb to the input's
//     channel count (grey for 1-channel inputs, RGB for 3-channel ones; any
//     other input is an error), resized to the input's H x W if needed
//     (bilinear with half-pixel centres, as OpenCV's INTER_LINEAR, rounded to
//     uint8), and set as uint8 NHWC data, so the model's channel reorder and
//     mean/std apply exactly as at run time. The input must be a 4-D image
//     input (reported NHWC); with batch N > 1 (--batch-size) the image fills
//     every slot.
//   - a .npy file must hold float32 values, as many as the input has (its
//     shape may differ, e.g. without the batch dim), or one frame's worth of
//     a batch-N input (copied into every slot); it is set as float32
//     NCHW (the ONNX layout) with no channel reorder and no mean/std: it is
//     the value the model's first op reads.
//
// Recording: the run's observer (Context::Run(Profiler*)) sees every op's
// outputs in EndOp, before the arena reuses them, and the model inputs in
// BeginOp of the first op reading them (a model input that no op reads is
// not recorded). Non-finite values (NaN, +-inf) are not recorded.
//
// Two passes over the dataset when histograms are on, as TensorRT's and ONNX
// Runtime's histogram calibrators do: the first finds min/max of each
// tensor, the second fills a kHistogramBins-bin histogram over exactly
// [min, max], so the bins cover the observed range with no guess and no
// re-binning. Images are decoded again in the second pass (nothing is kept
// in memory between samples).
//
// Progress: with options.progress and stderr a terminal (isatty(2)), one line
// on stderr updated in place with '\r': pass, a bar, samples done / total,
// samples per second and the estimated time left; a final newline. Nothing is
// printed otherwise.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/quant/dataset.h"
#include "runtime/core/status.h"

namespace npurt {

class Context;
class Profiler;

namespace compiler {

constexpr int kHistogramBins = 2048;

struct TensorStats {  // one per float tensor of the model, by tensor name
  float min = std::numeric_limits<float>::infinity();
  float max = -std::numeric_limits<float>::infinity();
  // Histogram of values over [hist_min, hist_max] (= [min, max] of the first
  // pass) with kHistogramBins equal bins, filled in the second pass. Bin k
  // covers [hist_min + k*w, hist_min + (k+1)*w), w = (hist_max - hist_min) /
  // bins; hist_max falls in the last bin. When hist_min == hist_max every
  // value is in bin 0. Empty when histograms are off.
  float hist_min = 0, hist_max = 0;
  std::vector<uint64_t> histogram;
  uint64_t count = 0;  // finite values seen (over all samples), in the first pass
  // max |x| per channel (axis 1) of a tensor of rank >= 3, over all samples, in the first pass; else empty.
  std::vector<float> channel_absmax;
  // The same channels' sums and counts of finite values (bias correction needs their means).
  std::vector<double> channel_sum;
  std::vector<uint64_t> channel_count;

  // The mean of channel c, or 0 when it has no values.
  double ChannelMean(size_t c) const {
    return c < channel_count.size() && channel_count[c] > 0 ? channel_sum[c] / static_cast<double>(channel_count[c])
                                                            : 0.0;
  }
};

struct CalibrationOptions {
  bool histograms = true;  // second pass (needed by mmse and kl_divergence)
  bool progress = true;    // bar on stderr, only if isatty(2)
};

// Runs the float model (npurt model-file bytes, as EmitModel / CompileOnnxFile
// produce) through the runtime's Context on every sample and records every op
// output and every model input (by tensor name); `stats` is cleared first.
// Errors name the sample and the input ("d.txt:3: input 0 'x': cannot decode
// 'a.png': ...", "d.txt:5: input 1 'y': 'b.npy' [600] holds 600 values, the
// input [1,3,8,8] needs 192"), or the failing op ("d.txt:5: op 'conv' ...").
Status Calibrate(const std::vector<uint8_t>& float_model, const std::vector<DatasetSample>& samples,
                 const CalibrationOptions& options, std::map<std::string, TensorStats>* stats);

// Sets one sample as the inputs of `context`, exactly as calibration feeds it
// (see above); `sample_index` (0-based) names samples that have no file:line.
// The accuracy analysis feeds its samples through this too, so both models
// see what calibration saw. Errors as Calibrate's.
Status FeedSample(const DatasetSample& sample, size_t sample_index, Context* context);

// A runtime context over model-file bytes, as rknn_init makes one; a failure's message is `error_prefix`
// followed by the runtime's ("calibration: cannot load the float model: ...").
Status OpenModel(const std::vector<uint8_t>& bytes, const std::string& error_prefix, std::unique_ptr<Context>* context);

// FeedSample, then one run of `context` seen by `observer`; a failing run names the sample as FeedSample's
// errors do ("d.txt:5: op 'conv' ...").
Status RunSample(const DatasetSample& sample, size_t sample_index, Context* context, Profiler* observer);

// Bilinear resize of interleaved uint8 pixels (half-pixel centres, clamped at
// the borders, rounded to nearest), as the calibrator resizes images.
void ResizeBilinearU8(const uint8_t* src, int src_w, int src_h, int channels, uint8_t* dst, int dst_w, int dst_h);

}  // namespace compiler
}  // namespace npurt
