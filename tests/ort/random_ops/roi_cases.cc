// Region pooling and unpooling: RoiAlign (opsets 10 and 16, avg and max, fixed and adaptive
// sampling, boxes partly outside the map), MaxRoiPool, and MaxPool's Indices (both storage
// orders, 1-D to 3-D, pads, strides, dilations) fed to MaxUnpool, with and without output_shape.
#include <algorithm>
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {
namespace {

// `count` boxes [x1, y1, x2, y2] (or [batch, x1, y1, x2, y2]) over an h x w map seen at
// 1 / scale, some reaching past its edges and some degenerate.
Floats Boxes(Rng* rng, int count, int64_t batch, float h, float w, float scale, bool with_batch) {
  Floats v;
  for (int i = 0; i < count; ++i) {
    if (with_batch) v.push_back(static_cast<float>(rng->Int(0, static_cast<int>(batch) - 1)));
    const float x1 = rng->Uniform(-2.0f, w / scale), y1 = rng->Uniform(-2.0f, h / scale);
    const bool tiny = rng->Chance(0.15);
    const float x2 = tiny ? x1 : x1 + rng->Uniform(0.5f, w / scale);
    const float y2 = tiny ? y1 : y1 + rng->Uniform(0.5f, h / scale);
    v.insert(v.end(), {x1, y1, x2, y2});
  }
  return v;
}

void AddRoiAlign(Rng* rng, Suite* suite, int index) {
  const int opset = index % 3 == 0 ? 10 : 16;
  const bool max_mode = index % 2 == 1;
  const int64_t batch = rng->Int(1, 3), channels = rng->Int(1, 5), h = rng->Int(4, 14), w = rng->Int(4, 14);
  const float scale = rng->Pick(std::vector<float>{1.0f, 0.5f, 0.25f, 0.125f});
  const int64_t out_h = rng->Int(1, 5), out_w = rng->Int(1, 5);
  const int64_t sampling = rng->Int(0, 3);
  const int count = rng->Int(1, 6);
  std::string transform = opset == 16 ? rng->Pick(std::vector<std::string>{"", "half_pixel", "output_half_pixel"}) : "";
  Ints batch_indices;
  for (int i = 0; i < count; ++i) batch_indices.push_back(rng->Int(0, static_cast<int>(batch) - 1));
  Case c("roialign" + std::to_string(opset) + (max_mode ? "_max" : "_avg") + (transform.empty() ? "" : "_" + transform) +
             "_o" + std::to_string(out_h) + "x" + std::to_string(out_w) + "_sr" + std::to_string(sampling) + "_sc" +
             Num(scale) + "_r" + std::to_string(count) + "_" + ShapeTag({batch, channels, h, w}),
         opset, rng);
  Attrs attrs = {AttrInt("output_height", out_h), AttrInt("output_width", out_w), AttrInt("sampling_ratio", sampling),
                 AttrFloat("spatial_scale", scale)};
  if (max_mode || rng->Chance(0.3)) attrs.push_back(AttrString("mode", max_mode ? "max" : "avg"));
  if (!transform.empty()) attrs.push_back(AttrString("coordinate_transformation_mode", transform));
  const std::string x = c.Input({batch, channels, h, w});
  const std::string rois = c.Constant({count, 4}, Boxes(rng, count, batch, static_cast<float>(h),
                                                        static_cast<float>(w), scale, false));
  c.Output(c.Node("RoiAlign", {x, rois, c.Int64Constant({count}, batch_indices)}, attrs));
  suite->Add("RoiAlign", c);
}

void AddMaxRoiPool(Rng* rng, Suite* suite) {
  const int64_t batch = rng->Int(1, 3), channels = rng->Int(1, 4), h = rng->Int(3, 12), w = rng->Int(3, 12);
  const float scale = rng->Pick(std::vector<float>{1.0f, 0.5f, 0.25f});
  const int64_t ph = rng->Int(1, 4), pw = rng->Int(1, 4);
  const int count = rng->Int(1, 5);
  Case c("maxroipool_p" + std::to_string(ph) + "x" + std::to_string(pw) + "_sc" + Num(scale) + "_r" +
             std::to_string(count) + "_" + ShapeTag({batch, channels, h, w}),
         1, rng);
  const std::string rois =
      c.Constant({count, 5}, Boxes(rng, count, batch, static_cast<float>(h), static_cast<float>(w), scale, true));
  c.Output(c.Node("MaxRoiPool", {c.Input({batch, channels, h, w}), rois},
                  {AttrInts("pooled_shape", {ph, pw}), AttrFloat("spatial_scale", scale)}));
  suite->Add("MaxRoiPool", c);
}

// MaxPool -> (Y, Indices) -> MaxUnpool: the two halves of a SegNet-style encoder / decoder.
void AddPoolUnpool(Rng* rng, Suite* suite, int spatial, int index) {
  const bool column_major = index % 2 == 1;
  const bool with_output_shape = index % 3 == 2;
  Ints in_shape = {rng->Int(1, 2), rng->Int(1, 4)};
  Ints kernel, strides, pads(static_cast<size_t>(2 * spatial), 0), dilations;
  const bool dilated = index % 4 == 3;
  for (int i = 0; i < spatial; ++i) {
    kernel.push_back(rng->Int(1, 3));
    strides.push_back(rng->Int(1, 3));
    dilations.push_back(dilated ? rng->Int(1, 2) : 1);
    if (with_output_shape) {
      pads[i] = rng->Int(0, static_cast<int>(kernel.back()) - 1);
      pads[i + spatial] = rng->Int(0, static_cast<int>(kernel.back()) - 1);
      const int64_t extent = (kernel.back() - 1) * dilations.back() + 1;
      in_shape.push_back(rng->Int(static_cast<int>(extent), static_cast<int>(extent) + (spatial == 3 ? 4 : 8)));
    } else {
      // MaxUnpool's default output, (pooled - 1) * stride + kernel, is then the pooled input's shape.
      in_shape.push_back((rng->Int(1, spatial == 3 ? 3 : 5) - 1) * strides.back() + kernel.back());
    }
  }
  Case c("maxpool_indices" + std::to_string(spatial) + "d_k" + Join(kernel) + "_s" + Join(strides) +
             (dilated ? "_d" + Join(dilations) : "") + "_p" + Join(pads) + (column_major ? "_colmajor" : "") +
             (with_output_shape ? "_unpool_shape" : "_unpool") + "_" + ShapeTag(in_shape),
         12, rng);
  const std::string x = c.Input(in_shape);
  Attrs pool = {AttrInts("kernel_shape", kernel), AttrInts("strides", strides), AttrInts("pads", pads)};
  if (dilated) pool.push_back(AttrInts("dilations", dilations));
  if (column_major || rng->Chance(0.3)) pool.push_back(AttrInt("storage_order", column_major ? 1 : 0));
  const std::vector<std::string> y = c.NodeN("MaxPool", {x}, pool, 2);
  c.Output(y[0]);
  c.Output(y[1], onnx::TensorProto::INT64);
  // MaxUnpool places the values back where MaxPool found them (row-major indices only: it has
  // no storage_order; its kernel_shape, strides and pads are MaxPool's, without dilations).
  if (!column_major && !dilated) {
    Attrs unpool = {AttrInts("kernel_shape", kernel), AttrInts("strides", strides), AttrInts("pads", pads)};
    std::vector<std::string> inputs = {y[0], y[1]};
    if (with_output_shape) inputs.push_back(c.Int64Constant({static_cast<int64_t>(in_shape.size())}, in_shape));
    c.Output(c.Node("MaxUnpool", inputs, unpool));
  }
  suite->Add("MaxPool+MaxUnpool", c);
}

}  // namespace

void AddRoiCases(Rng* rng, Suite* suite) {
  for (int i = 0; i < 12; ++i) AddRoiAlign(rng, suite, i);
  for (int i = 0; i < 6; ++i) AddMaxRoiPool(rng, suite);
  for (int i = 0; i < 3; ++i) AddPoolUnpool(rng, suite, 1, i);
  for (int i = 0; i < 8; ++i) AddPoolUnpool(rng, suite, 2, i);
  for (int i = 0; i < 3; ++i) AddPoolUnpool(rng, suite, 3, i);
}

}  // namespace random_ops
