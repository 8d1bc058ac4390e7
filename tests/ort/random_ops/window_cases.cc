// Pooling (MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool; MaxPool's Indices are in
// roi_cases.cc) and Resize / Upsample cases. Not generated because npurt does not support them
// (docs/supported_ops.md, runtime/ops/resize.cc): LpPool, AveragePool dilations (opset 19),
// Resize cubic / tf_crop_and_resize / antialias / half_pixel_symmetric (opset 18+).
#include <algorithm>
#include <cmath>
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {
namespace {

// ------------------------------------------------------------ pooling

void AddPool(Rng* rng, Suite* suite, bool max, int spatial, int index) {
  static const std::vector<Ints> k1 = {{2}, {3}, {5}, {4}};
  static const std::vector<Ints> k2 = {{2, 2}, {3, 3}, {1, 3}, {3, 1}, {2, 3}, {5, 5}, {4, 2}, {3, 2}};
  static const std::vector<Ints> k3 = {{2, 2, 2}, {3, 2, 1}, {1, 3, 3}};
  const std::vector<Ints>& kernels = spatial == 1 ? k1 : spatial == 2 ? k2 : k3;
  const Ints kernel = kernels[static_cast<size_t>(index) % kernels.size()];
  static const char* const kAutoPad[] = {nullptr, nullptr, "SAME_UPPER", "SAME_LOWER", "VALID"};
  const int pad_mode = index % 5;  // 0: explicit pads, 1: none, else auto_pad
  const char* auto_pad = kAutoPad[pad_mode];
  // auto_pad VALID with ceil_mode 1: the ONNX text gives ceil((in - extent + 1) / stride),
  // which is the floor-mode size; ONNX Runtime adds a window that runs past the input.
  // npurt follows the text, so that pair is not generated.
  const bool ceil_mode = (index / 5) % 2 == 1 && (pad_mode != 4 || suite->known_issues());
  const bool count_include_pad = !max && (index / 10) % 2 == 1;

  Ints strides(static_cast<size_t>(spatial)), dilations(static_cast<size_t>(spatial), 1);
  Ints pads(static_cast<size_t>(2 * spatial), 0);
  Ints in_shape = {rng->Int(1, 2), rng->Int(1, 6)};
  // With auto_pad SAME_*, ONNX Runtime fails when the kernel is shorter than the stride
  // (negative padding), and pads for the undilated kernel where the ONNX text and npurt
  // use the dilated extent: neither is generated.
  const bool same = auto_pad != nullptr && auto_pad[0] == 'S';
  const bool coin = rng->Chance(0.4);
  const bool dilated = max && coin && (!same || suite->known_issues());
  for (int i = 0; i < spatial; ++i) {
    strides[i] = rng->Int(1, same ? static_cast<int>(std::min<int64_t>(3, kernel[i])) : 3);
    if (dilated) dilations[i] = rng->Int(1, 3);
    const int extent = static_cast<int>((kernel[i] - 1) * dilations[i] + 1);
    int lo = extent;
    if (pad_mode == 0) {
      // ONNX Runtime requires pads smaller than the kernel.
      pads[i] = rng->Int(0, static_cast<int>(kernel[i]) - 1);
      pads[i + spatial] = rng->Int(0, static_cast<int>(kernel[i]) - 1);
      lo = std::max<int>(1, extent - static_cast<int>(pads[i] + pads[i + spatial]));
    } else if (same) {
      lo = 1;
    }
    in_shape.push_back(rng->Int(lo, std::max(lo, extent) + (spatial == 3 ? 4 : 9)));
  }

  const std::string op = max ? "MaxPool" : "AveragePool";
  std::string name = std::string(max ? "maxpool" : "avgpool") + std::to_string(spatial) + "d_k" + Join(kernel) + "_s" +
                     Join(strides) + (dilated ? "_d" + Join(dilations) : "") + "_" +
                     (pad_mode == 0   ? "p" + Join(pads)
                      : pad_mode == 1 ? std::string("p0")
                      : pad_mode == 2 ? std::string("same_upper")
                      : pad_mode == 3 ? std::string("same_lower")
                                      : std::string("valid")) +
                     (ceil_mode ? "_ceil" : "") + (count_include_pad ? "_incpad" : "") + "_" + ShapeTag(in_shape);
  Case c(name, max ? 12 : 11, rng);
  Attrs attrs = {AttrInts("kernel_shape", kernel), AttrInts("strides", strides)};
  if (dilated) attrs.push_back(AttrInts("dilations", dilations));
  if (pad_mode == 0) attrs.push_back(AttrInts("pads", pads));
  if (auto_pad != nullptr) attrs.push_back(AttrString("auto_pad", auto_pad));
  if (ceil_mode || rng->Chance(0.2)) attrs.push_back(AttrInt("ceil_mode", ceil_mode ? 1 : 0));
  if (!max && (count_include_pad || rng->Chance(0.3))) {
    attrs.push_back(AttrInt("count_include_pad", count_include_pad ? 1 : 0));
  }
  c.Output(c.Node(op, {c.Input(in_shape)}, attrs));
  suite->Add(op, c);
}

void AddGlobalPools(Rng* rng, Suite* suite) {
  const std::vector<Ints> shapes = {{2, 5, 17}, {1, 7, 9, 11}, {2, 3, 4, 5, 6}};
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    for (const Ints& shape : shapes) {
      std::string name = op == std::string("GlobalMaxPool") ? "globalmaxpool_" : "globalavgpool_";
      Case c(name + ShapeTag(shape), 13, rng);
      c.Output(c.Node(op, {c.Input(shape)}));
      suite->Add(op, c);
    }
  }
}

// ------------------------------------------------------------ Resize

struct ResizeSpec {
  int opset = 13;
  std::string mode = "nearest";
  std::string coord;    // coordinate_transformation_mode; "" = default
  std::string nearest;  // nearest_mode; "" = default
  Ints in;
  Floats scales;  // one per dim, or empty
  Ints sizes;     // one per dim, or empty
};

std::string ResizeName(const ResizeSpec& s, const char* op) {
  std::string name = std::string(op) + std::to_string(s.opset) + "_" + s.mode;
  if (!s.coord.empty()) name += "_" + s.coord;
  if (!s.nearest.empty()) name += "_" + s.nearest;
  if (!s.scales.empty()) {
    name += "_scales";
    for (size_t i = 0; i < s.scales.size(); ++i) name += (i ? "x" : "") + Num(s.scales[i]);
  } else {
    name += "_sizes" + Join(s.sizes);
  }
  return name + "_" + ShapeTag(s.in);
}

// Where ONNX Runtime departs from the ONNX text with scales, npurt follows the text:
//  * ORT sizes the output as float32(in * scale): 20 * 0.7f rounds up to 14, while
//    floor(20 * 0.699999988) is 13 (ONNX shape inference agrees with npurt);
//  * ORT copies the input when the output has the input's shape, although a scale
//    other than 1 (7 * 1.1 -> 7) still moves the sampling points.
// Dims that would hit either become scale 1 (none does with the sizes used here).
void AvoidOrtScaleQuirks(ResizeSpec* s) {
  for (size_t i = 0; i < s->scales.size(); ++i) {
    const float f = s->scales[i];
    const double exact = std::floor(static_cast<double>(s->in[i]) * static_cast<double>(f));
    const float rounded = static_cast<float>(s->in[i]) * f;
    if (f != 1.0f && (exact != std::floor(rounded) || exact == static_cast<double>(s->in[i]))) s->scales[i] = 1.0f;
  }
}

void AddResize(Rng* rng, Suite* suite, ResizeSpec s) {
  if (!suite->known_issues()) AvoidOrtScaleQuirks(&s);
  Case c(ResizeName(s, "resize"), s.opset, rng);
  const std::string x = c.Input(s.in);
  Attrs attrs = {AttrString("mode", s.mode)};
  if (!s.coord.empty()) attrs.push_back(AttrString("coordinate_transformation_mode", s.coord));
  if (!s.nearest.empty()) attrs.push_back(AttrString("nearest_mode", s.nearest));
  const Ints rank = {static_cast<int64_t>(s.in.size())};
  std::vector<std::string> inputs = {x};
  if (s.opset == 10) {
    inputs.push_back(c.Constant(rank, s.scales));
  } else {
    // Opset 11-12: roi and scales are required inputs (empty tensors when unused); 13+: optional.
    const std::string empty = s.opset < 13 ? c.Constant({0}, {}) : "";
    inputs.push_back(empty);
    inputs.push_back(s.scales.empty() ? (s.opset < 13 ? c.Constant({0}, {}) : "") : c.Constant(rank, s.scales));
    if (!s.sizes.empty()) inputs.push_back(c.Int64Constant(rank, s.sizes));
  }
  c.Output(c.Node("Resize", inputs, attrs));
  suite->Add("Resize", c);
}

// Upsample: opset 7 takes scales as an attribute, opset 9 as an input.
void AddUpsample(Rng* rng, Suite* suite, const ResizeSpec& s) {
  Case c(ResizeName(s, "upsample"), s.opset, rng);
  const std::string x = c.Input(s.in);
  Attrs attrs = {AttrString("mode", s.mode)};
  std::vector<std::string> inputs = {x};
  if (s.opset < 9) {
    attrs.push_back(AttrFloats("scales", s.scales));
  } else {
    inputs.push_back(c.Constant({static_cast<int64_t>(s.scales.size())}, s.scales));
  }
  c.Output(c.Node("Upsample", inputs, attrs));
  suite->Add("Upsample", c);
}

// Spatial scale factors: integer and fractional, up and down.
const Floats kScales = {2.0f, 3.0f, 0.5f, 1.5f, 0.6f, 1.7f, 2.25f, 0.75f, 1.0f, 1.25f, 0.4f, 2.5f, 0.7f, 1.33f};

// A 4-D NCHW input resized on H and W, by scales or by sizes; `down` favours shrinking.
ResizeSpec RandomResize(Rng* rng, int opset, const std::string& mode, bool by_sizes, bool down) {
  ResizeSpec s;
  s.opset = opset;
  s.mode = mode;
  s.in = {rng->Int(1, 2), rng->Int(1, 3), rng->Int(2, 9), rng->Int(2, 9)};
  if (by_sizes) {
    s.sizes = {s.in[0], s.in[1]};
    for (int i = 2; i < 4; ++i) s.sizes.push_back(down ? rng->Int(1, static_cast<int>(s.in[i])) : rng->Int(1, 17));
  } else {
    s.scales = {1.0f, 1.0f};
    for (int i = 2; i < 4; ++i) {
      float f = rng->Pick(kScales);
      if (down && f > 1.0f) f = 1.0f / f;
      // floor(in * scale) must stay at least 1.
      while (std::floor(static_cast<float>(s.in[i]) * f) < 1.0f) f *= 2.0f;
      s.scales.push_back(f);
    }
  }
  return s;
}

}  // namespace

void AddResizeCases(Rng* rng, Suite* suite) {
  // Nearest: every nearest_mode with every coordinate mode, alternating opset 11 / 13,
  // scales / sizes and up / down.
  const std::vector<std::string> nearest_modes = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  // (tf_half_pixel_for_nearest: ONNX Runtime 1.30 refuses it.)
  const std::vector<std::string> nearest_coords = {"half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"};
  int k = 0;
  for (const std::string& nm : nearest_modes) {
    for (const std::string& coord : nearest_coords) {
      ResizeSpec s = RandomResize(rng, k % 2 ? 11 : 13, "nearest", (k / 2) % 2 == 1, (k / 4) % 2 == 1);
      s.coord = coord;
      s.nearest = nm;
      AddResize(rng, suite, s);
      ++k;
    }
  }
  // Linear: each coordinate mode, up / down, scales / sizes.
  for (const std::string coord : {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"}) {
    for (int v = 0; v < 3; ++v) {
      ResizeSpec s = RandomResize(rng, v % 2 ? 11 : 13, "linear", v == 2, v == 1);
      s.coord = coord;
      AddResize(rng, suite, s);
    }
  }
  // Defaults (half_pixel, round_prefer_floor) and other ranks.
  AddResize(rng, suite, RandomResize(rng, 13, "nearest", false, false));
  AddResize(rng, suite, RandomResize(rng, 13, "linear", true, false));
  ResizeSpec s;
  s.in = {2, 3, 7};  // 3-D, last dim only
  s.coord = "asymmetric";
  s.nearest = "floor";
  s.scales = {1.0f, 1.0f, 2.5f};
  AddResize(rng, suite, s);
  s.in = {1, 2, 3, 4, 5};  // 5-D nearest on three dims
  s.coord = "half_pixel";
  s.nearest = "round_prefer_ceil";
  s.scales = {1.0f, 1.0f, 2.0f, 0.5f, 1.5f};
  AddResize(rng, suite, s);
  s.mode = "linear";  // trilinear
  s.nearest.clear();
  s.scales = {1.0f, 1.0f, 1.5f, 2.0f, 0.6f};
  AddResize(rng, suite, s);
  s = ResizeSpec();
  s.in = {1, 3, 4, 5};  // nearest also scales N and C
  s.nearest = "round_prefer_floor";
  s.coord = "asymmetric";
  s.scales = {2.0f, 0.67f, 1.0f, 2.0f};
  AddResize(rng, suite, s);
  s = ResizeSpec();
  s.in = {1, 2, 5, 6};  // align_corners onto a single row / column
  s.mode = "linear";
  s.coord = "align_corners";
  s.sizes = {1, 2, 1, 9};
  AddResize(rng, suite, s);
  if (suite->known_issues()) {  // the two scale quirks of ONNX Runtime above
    for (float f : {0.7f, 1.1f}) {
      s = ResizeSpec();
      s.in = {1, 2, f < 1.0f ? 20 : 7, 7};
      s.mode = "linear";
      s.scales = {1.0f, 1.0f, f, f};
      AddResize(rng, suite, s);
    }
  }
  // Opset 10: asymmetric coordinates and the simple nearest rule, down and up.
  for (const char* mode : {"nearest", "linear"}) {
    for (bool down : {false, true}) {
      ResizeSpec r = RandomResize(rng, 10, mode, false, down);
      AddResize(rng, suite, r);
    }
  }
  // Upsample (lowered to opset-10 Resize): opset 7 attribute and opset 9 input.
  for (int opset : {7, 9}) {
    for (const char* mode : {"nearest", "linear"}) {
      ResizeSpec u;
      u.opset = opset;
      u.mode = mode;
      u.in = {rng->Int(1, 2), rng->Int(1, 3), rng->Int(2, 6), rng->Int(2, 6)};
      u.scales = {1.0f, 1.0f, rng->Pick(Floats{1.0f, 2.0f, 3.0f, 1.5f}), rng->Pick(Floats{2.0f, 2.5f, 4.0f})};
      AddUpsample(rng, suite, u);
    }
  }
}

void AddPoolCases(Rng* rng, Suite* suite) {
  for (bool max : {true, false}) {
    for (int i = 0; i < 3; ++i) AddPool(rng, suite, max, 1, i);
    for (int i = 0; i < (max ? 15 : 20); ++i) AddPool(rng, suite, max, 2, i);  // MaxPool: no count_include_pad
    for (int i = 0; i < 2; ++i) AddPool(rng, suite, max, 3, i);
  }
  AddGlobalPools(rng, suite);
}

}  // namespace random_ops
