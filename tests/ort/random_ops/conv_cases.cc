// Conv (1-D, 2-D, 3-D) and ConvTranspose cases. The categorical choices
// (kernel, padding mode, group kind) cycle with the case index so every value
// appears; the rest (strides, dilations, pads, channels, sizes, bias) is drawn
// at random. Inputs are uniform in [-1, 1] and weights in
// [-1, 1] / sqrt(fan_in), so outputs are O(1).
#include <algorithm>
#include <cmath>
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {
namespace {

enum class PadMode { kExplicit, kNone, kSameUpper, kSameLower, kValid, kOutputShape };

std::string PadTag(PadMode mode, const Ints& pads) {
  switch (mode) {
    case PadMode::kExplicit: return "p" + Join(pads);
    case PadMode::kNone: return "p0";
    case PadMode::kSameUpper: return "same_upper";
    case PadMode::kSameLower: return "same_lower";
    case PadMode::kValid: return "valid";
    case PadMode::kOutputShape: return "";
  }
  return "";
}

void AddAutoPad(PadMode mode, Attrs* attrs) {
  if (mode == PadMode::kSameUpper) attrs->push_back(AttrString("auto_pad", "SAME_UPPER"));
  if (mode == PadMode::kSameLower) attrs->push_back(AttrString("auto_pad", "SAME_LOWER"));
  if (mode == PadMode::kValid) attrs->push_back(AttrString("auto_pad", "VALID"));
}

// Channels and groups: 0 = plain (group 1), 1 = depthwise (group = C, multiplier 1 or 2),
// 2 = grouped (2 to 4 groups of 1 to 4 channels). Channel counts are mostly not multiples of 8.
struct Channels {
  int64_t c, m, group;
};

Channels PickChannels(Rng* rng, int kind, int max_c) {
  switch (kind) {
    case 0: return {rng->Int(1, max_c), rng->Int(1, max_c), 1};
    case 1: {
      const int64_t c = rng->Int(2, max_c);
      return {c, c * rng->Int(1, 2), c};
    }
    default: {
      const int64_t g = rng->Int(2, 4);
      return {g * rng->Int(1, std::max(1, max_c / 4)), g * rng->Int(1, 3), g};
    }
  }
}

std::string GroupTag(const Channels& ch) {
  if (ch.group > 1 && ch.group == ch.c) return "dw" + std::to_string(ch.group);
  return "g" + std::to_string(ch.group);
}

const std::vector<Ints>& Kernels(int spatial) {
  static const std::vector<Ints> k1 = {{1}, {3}, {5}, {2}, {7}, {4}};
  static const std::vector<Ints> k2 = {{1, 1}, {3, 3}, {5, 5}, {1, 3}, {3, 1}, {7, 1},
                                       {1, 7}, {2, 2}, {3, 5}, {4, 3}, {2, 5}, {3, 3}};
  static const std::vector<Ints> k3 = {{1, 1, 1}, {3, 3, 3}, {1, 3, 3}, {3, 1, 2}, {2, 2, 2}};
  return spatial == 1 ? k1 : spatial == 2 ? k2 : k3;
}

// Strides 1 to 3 (asymmetric ones included), dilations 1 to 3 (1 half the time).
Ints PickStrides(Rng* rng, int spatial) {
  Ints s(static_cast<size_t>(spatial));
  const int mode = rng->Int(0, 3);  // same in every dim, or independent
  const int64_t common = rng->Int(1, 3);
  for (int64_t& v : s) v = mode == 0 ? rng->Int(1, 3) : common;
  return s;
}

Ints PickDilations(Rng* rng, int spatial) {
  Ints d(static_cast<size_t>(spatial), 1);
  if (rng->Chance(0.5)) return d;
  for (int64_t& v : d) v = rng->Int(1, 3);
  return d;
}

void AddConv(Rng* rng, Suite* suite, int spatial, int index) {
  const std::vector<Ints>& kernels = Kernels(spatial);
  const Ints kernel = kernels[static_cast<size_t>(index) % kernels.size()];
  const PadMode mode = static_cast<PadMode>(index % 5);
  const Channels ch = PickChannels(rng, (index / 5) % 3, spatial == 3 ? 6 : 13);
  const Ints strides = PickStrides(rng, spatial);
  // ONNX Runtime refuses auto_pad SAME_* with dilations ("Dilation not supported").
  const bool same = mode == PadMode::kSameUpper || mode == PadMode::kSameLower;
  const Ints dilations = same ? Ints(static_cast<size_t>(spatial), 1) : PickDilations(rng, spatial);
  const int max_extra = spatial == 3 ? 4 : 10;

  Ints in_shape = {rng->Int(1, 2), ch.c};
  Ints pads(static_cast<size_t>(2 * spatial), 0);
  for (int i = 0; i < spatial; ++i) {
    const int extent = static_cast<int>((kernel[i] - 1) * dilations[i] + 1);
    int lo = extent;
    if (mode == PadMode::kExplicit) {
      pads[i] = rng->Int(0, extent - 1);
      pads[i + spatial] = rng->Int(0, extent - 1);
      lo = std::max<int>(1, extent - static_cast<int>(pads[i] + pads[i + spatial]));
    } else if (same) {
      lo = 1;
    }
    in_shape.push_back(rng->Int(lo, std::max(lo, extent) + max_extra));
  }
  const bool bias = rng->Chance(0.6);

  std::string name = "conv" + std::to_string(spatial) + "d_k" + Join(kernel) + "_s" + Join(strides) + "_d" +
                     Join(dilations) + "_" + PadTag(mode, pads) + "_" + GroupTag(ch) + (bias ? "" : "_nobias") + "_" +
                     ShapeTag(in_shape) + "_m" + std::to_string(ch.m);
  Case c(name, 13, rng);
  const std::string x = c.Input(in_shape);
  Ints w_shape = {ch.m, ch.c / ch.group};
  int64_t fan_in = ch.c / ch.group;
  for (int64_t k : kernel) {
    w_shape.push_back(k);
    fan_in *= k;
  }
  std::vector<std::string> inputs = {x, c.Weight(w_shape, 1.0f / std::sqrt(static_cast<float>(fan_in)))};
  if (bias) inputs.push_back(c.Weight({ch.m}, 0.5f));
  Attrs attrs = {AttrInts("strides", strides), AttrInts("dilations", dilations)};
  if (ch.group != 1 || rng->Chance(0.3)) attrs.push_back(AttrInt("group", ch.group));
  if (rng->Chance(0.5)) attrs.push_back(AttrInts("kernel_shape", kernel));
  if (mode == PadMode::kExplicit) attrs.push_back(AttrInts("pads", pads));
  AddAutoPad(mode, &attrs);
  c.Output(c.Node("Conv", inputs, attrs));
  suite->Add("Conv", c);
}

void AddConvTranspose(Rng* rng, Suite* suite, int spatial, int index) {
  static const std::vector<Ints> k1 = {{1}, {2}, {3}, {4}, {5}};
  static const std::vector<Ints> k2 = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {3, 1}, {1, 3}, {5, 3}, {2, 3}};
  static const std::vector<Ints> k3 = {{2, 2, 2}, {3, 3, 3}, {1, 2, 3}};
  const std::vector<Ints>& kernels = spatial == 1 ? k1 : spatial == 2 ? k2 : k3;
  const Ints kernel = kernels[static_cast<size_t>(index) % kernels.size()];
  static const PadMode kModes[] = {PadMode::kExplicit,  PadMode::kNone,      PadMode::kOutputShape,
                                   PadMode::kSameUpper, PadMode::kSameLower, PadMode::kValid};
  const PadMode mode = kModes[index % 6];
  const Channels ch = PickChannels(rng, (index / 6) % 3, spatial == 3 ? 5 : 10);
  Ints strides = PickStrides(rng, spatial);
  const Ints dilations = PickDilations(rng, spatial);
  const bool same = mode == PadMode::kSameUpper || mode == PadMode::kSameLower;

  Ints in_shape = {rng->Int(1, 2), ch.c};
  Ints pads(static_cast<size_t>(2 * spatial), 0), output_padding(static_cast<size_t>(spatial), 0), output_shape;
  bool use_output_padding = false;
  for (int i = 0; i < spatial; ++i) {
    const int64_t in = rng->Int(1, spatial == 3 ? 4 : 8);
    in_shape.push_back(in);
    const int64_t extent = (kernel[i] - 1) * dilations[i] + 1;
    // auto_pad SAME_*: the ONNX text makes the output in * stride, with negative padding
    // when the kernel extent is below the stride; ONNX Runtime then outputs the unpadded
    // size instead (npurt follows the text). Only extents >= stride are generated.
    if (same && !suite->known_issues()) strides[i] = std::min(strides[i], extent);
    // output_padding must stay below the stride; not with auto_pad SAME (the output is then in * stride).
    if (strides[i] > 1 && !same && rng->Chance(0.5)) {
      output_padding[i] = rng->Int(1, static_cast<int>(strides[i]) - 1);
      use_output_padding = true;
    }
    const int64_t full = (in - 1) * strides[i] + output_padding[i] + extent;
    if (mode == PadMode::kExplicit) {
      pads[i] = rng->Int(0, static_cast<int>(extent - 1));
      pads[i + spatial] = rng->Int(0, static_cast<int>(extent - 1));
      while (full - pads[i] - pads[i + spatial] < 1) pads[i] > 0 ? --pads[i] : --pads[i + spatial];
    } else if (mode == PadMode::kOutputShape) {
      // At most the unpadded size (ONNX Runtime rejects larger ones), down to the kernel extent less.
      int64_t out = rng->Int(static_cast<int>(std::max<int64_t>(1, full - extent + 1)), static_cast<int>(full));
      output_shape.push_back(out);
    }
  }
  const bool bias = rng->Chance(0.6);

  std::string name = "convtranspose" + std::to_string(spatial) + "d_k" + Join(kernel) + "_s" + Join(strides) + "_d" +
                     Join(dilations) + "_" +
                     (mode == PadMode::kOutputShape ? "os" + Join(output_shape) : PadTag(mode, pads)) +
                     (use_output_padding ? "_op" + Join(output_padding) : "") + "_" + GroupTag(ch) +
                     (bias ? "" : "_nobias") + "_" + ShapeTag(in_shape) + "_m" + std::to_string(ch.m);
  Case c(name, 13, rng);
  const std::string x = c.Input(in_shape);
  Ints w_shape = {ch.c, ch.m / ch.group};
  int64_t fan_in = ch.c / ch.group;
  for (int i = 0; i < spatial; ++i) {
    w_shape.push_back(kernel[i]);
    fan_in *= std::max<int64_t>(1, kernel[i] / strides[i]);  // taps that reach one output, roughly
  }
  std::vector<std::string> inputs = {x, c.Weight(w_shape, 1.0f / std::sqrt(static_cast<float>(fan_in)))};
  if (bias) inputs.push_back(c.Weight({ch.m}, 0.5f));
  Attrs attrs = {AttrInts("strides", strides), AttrInts("dilations", dilations), AttrInt("group", ch.group)};
  if (rng->Chance(0.5)) attrs.push_back(AttrInts("kernel_shape", kernel));
  if (mode == PadMode::kExplicit) attrs.push_back(AttrInts("pads", pads));
  if (mode == PadMode::kOutputShape) attrs.push_back(AttrInts("output_shape", output_shape));
  if (use_output_padding) attrs.push_back(AttrInts("output_padding", output_padding));
  AddAutoPad(mode, &attrs);
  c.Output(c.Node("ConvTranspose", inputs, attrs));
  suite->Add("ConvTranspose", c);
}

}  // namespace

void AddConvCases(Rng* rng, Suite* suite) {
  for (int i = 0; i < 10; ++i) AddConv(rng, suite, 1, i);
  for (int i = 0; i < 36; ++i) AddConv(rng, suite, 2, i);
  for (int i = 0; i < 6; ++i) AddConv(rng, suite, 3, i);
}

void AddConvTransposeCases(Rng* rng, Suite* suite) {
  for (int i = 0; i < 4; ++i) AddConvTranspose(rng, suite, 1, i);
  for (int i = 0; i < 24; ++i) AddConvTranspose(rng, suite, 2, i);
  for (int i = 0; i < 2; ++i) AddConvTranspose(rng, suite, 3, i);
}

}  // namespace random_ops
