// Input/output conversion at the API boundary against hand-computed layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "runtime/core/io_convert.h"

namespace npurt {
namespace {

Tensor MakeTensor(Shape shape, std::vector<float>* storage) {
  Tensor t;
  t.shape = std::move(shape);
  storage->assign(static_cast<size_t>(NumElements(t.shape)), -1.0f);
  t.data = storage->data();
  t.bytes = storage->size() * 4;
  return t;
}

TEST(ImportInput, NhwcUint8WithMeanStdAndChannelOrder) {
  // 1x3x1x2 internal; the application gives NHWC RGB, the model wants BGR normalized.
  std::vector<float> storage;
  Tensor t = MakeTensor({1, 3, 1, 2}, &storage);
  const uint8_t nhwc[] = {10, 20, 30, 40, 50, 60};  // pixel0 RGB, pixel1 RGB
  IoDesc io;
  io.mean = {1, 2, 3};
  io.std = {2, 4, 8};
  io.channel_order = {2, 1, 0};
  HostBuffer src;
  src.data = nhwc;
  src.size = sizeof(nhwc);
  src.dtype = DataType::kUint8;
  src.fmt = Layout::kNHWC;
  ASSERT_TRUE(ImportInput(src, io, true, &t).ok());
  // channel 0 = B: (30-1)/2, (60-1)/2; channel 1 = G: (20-2)/4, (50-2)/4; channel 2 = R: (10-3)/8, (40-3)/8
  const std::vector<float> want = {14.5f, 29.5f, 4.5f, 12.0f, 0.875f, 4.625f};
  EXPECT_EQ(storage, want);
}

// An int8 tensor with per-tensor parameters scale 0.5, zero point -3.
Tensor MakeQuantizedTensor(Shape shape, std::vector<int8_t>* storage) {
  Tensor t;
  t.shape = std::move(shape);
  t.dtype = DataType::kInt8;
  storage->assign(static_cast<size_t>(NumElements(t.shape)), 99);
  t.data = storage->data();
  t.bytes = storage->size();
  t.quant.scale = {0.5f};
  t.quant.zero_point = {-3};
  return t;
}

TEST(ImportInput, QuantizesNormalizedUint8IntoAnInt8Input) {
  std::vector<int8_t> storage;
  Tensor t = MakeQuantizedTensor({1, 2, 1, 2}, &storage);
  const uint8_t nhwc[] = {10, 200, 11, 0};  // pixel0 (c0, c1), pixel1 (c0, c1)
  IoDesc io;
  io.mean = {0, 100};
  io.std = {2, 1};
  HostBuffer src;
  src.data = nhwc;
  src.size = sizeof(nhwc);
  src.dtype = DataType::kUint8;
  src.fmt = Layout::kNHWC;
  ASSERT_TRUE(ImportInput(src, io, true, &t).ok());
  // c0: 10/2 = 5 -> 5/0.5 - 3 = 7; 11/2 = 5.5 -> 11 - 3 = 8.
  // c1: 200-100 = 100 -> 200 - 3 saturates to 127; 0-100 = -100 -> -200 - 3 saturates to -128.
  EXPECT_EQ(storage, (std::vector<int8_t>{7, 8, 127, -128}));
}

// uint8 images take a per-channel lookup table: check it against a per-element oracle written here, for
// every layout an application may give (rows padded to w_stride), channel order, mean/std, and int8 /
// float destinations. The quantization oracle: round half to even, add the zero point, saturate.
// Where the model tensor holds (n, c, h, w): NCHW, or NHWC for a channels-last input (the layout pass).
uint64_t ModelOffset(bool channels_last, const Shape& s, int64_t n, int64_t c, int64_t h, int64_t w) {
  return static_cast<uint64_t>(channels_last ? ((n * s[2] + h) * s[3] + w) * s[1] + c : ((n * s[1] + c) * s[2] + h) * s[3] + w);
}

TEST(ImportInput, Uint8ImagesInEveryLayoutMatchAPerElementOracle) {
  const int64_t N = 2, C = 3, H = 3, W = 5;
  const uint32_t ws = 7;  // padded rows
  IoDesc io;
  io.mean = {123.675f, 116.28f, 103.53f};
  io.std = {58.395f, 57.12f, 57.375f};
  io.channel_order = {2, 0, 1};
  for (Layout fmt : {Layout::kNHWC, Layout::kNCHW}) {
    for (bool channels_last : {false, true}) {
      HostBuffer src;
      src.dtype = DataType::kUint8;
      src.fmt = fmt;
      src.w_stride = ws;
      std::vector<uint8_t> bytes(static_cast<size_t>(HostBufferBytes({N, C, H, W}, src)));
      for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>((i * 97 + 13) & 0xff);
      src.data = bytes.data();
      src.size = bytes.size();
      auto at = [&](int64_t n, int64_t c, int64_t h, int64_t w) -> float {
        const uint64_t off = fmt == Layout::kNHWC ? ((n * H + h) * ws + w) * C + c : ((n * C + c) * H + h) * ws + w;
        return bytes[off];
      };
      std::vector<float> f;
      Tensor tf = MakeTensor({N, C, H, W}, &f);
      tf.channels_last = channels_last;
      ASSERT_TRUE(ImportInput(src, io, true, &tf).ok());
      std::vector<int8_t> q;
      Tensor tq = MakeQuantizedTensor({N, C, H, W}, &q);
      tq.channels_last = channels_last;
      tq.quant.scale = {0.02f};
      tq.quant.zero_point = {5};
      ASSERT_TRUE(ImportInput(src, io, true, &tq).ok());
      for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
          for (int64_t h = 0; h < H; ++h)
            for (int64_t w = 0; w < W; ++w) {
              const size_t i = ModelOffset(channels_last, tf.shape, n, c, h, w);
              const float real = (at(n, io.channel_order[c], h, w) - io.mean[c]) / io.std[c];
              ASSERT_EQ(f[i], real) << i << (channels_last ? " channels-last" : " NCHW");
              const float code = std::nearbyint(real / 0.02f) + 5.0f;
              ASSERT_EQ(q[i], static_cast<int8_t>(std::min(127.0f, std::max(-128.0f, code)))) << i;
            }
    }
  }
}

TEST(ImportInput, FloatImagesReachAChannelsLastInputInEveryLayout) {
  // Plain (copied as is when the layouts agree) and normalized, from NCHW and NHWC, into both model layouts.
  const int64_t N = 1, C = 3, H = 2, W = 3;
  for (bool normalize : {false, true}) {
    IoDesc io;
    if (normalize) {
      io.mean = {1, 2, 3};
      io.std = {2, 4, 8};
    }
    for (Layout fmt : {Layout::kNHWC, Layout::kNCHW}) {
      for (bool channels_last : {false, true}) {
        std::vector<float> values(static_cast<size_t>(N * C * H * W));
        for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i * 7 % 11) - 3.0f;
        HostBuffer src;
        src.data = values.data();
        src.size = values.size() * sizeof(float);
        src.fmt = fmt;
        std::vector<float> model;
        Tensor t = MakeTensor({N, C, H, W}, &model);
        t.channels_last = channels_last;
        ASSERT_TRUE(ImportInput(src, io, normalize, &t).ok());
        for (int64_t c = 0; c < C; ++c)
          for (int64_t h = 0; h < H; ++h)
            for (int64_t w = 0; w < W; ++w) {
              const float x = values[ModelOffset(fmt == Layout::kNHWC, t.shape, 0, c, h, w)];
              const float want = normalize ? (x - io.mean[c]) / io.std[c] : x;
              ASSERT_EQ(model[ModelOffset(channels_last, t.shape, 0, c, h, w)], want)
                  << "c" << c << " h" << h << " w" << w << (channels_last ? " channels-last" : " NCHW");
            }
      }
    }
  }
}

TEST(ImportInput, Int8BufferHoldsCodesForAnInt8Input) {
  std::vector<int8_t> storage;
  Tensor t = MakeQuantizedTensor({1, 2, 1, 1}, &storage);
  const int8_t codes[] = {-128, 42};
  IoDesc io;
  io.mean = {50, 50};  // not applied to codes
  HostBuffer src;
  src.data = codes;
  src.size = sizeof(codes);
  src.dtype = DataType::kInt8;
  src.fmt = Layout::kNCHW;
  ASSERT_TRUE(ImportInput(src, io, true, &t).ok());
  EXPECT_EQ(storage, (std::vector<int8_t>{-128, 42}));
}

TEST(ExportOutput, DequantizesForFloatAndCopiesCodesForInt8) {
  std::vector<int8_t> storage;
  Tensor t = MakeQuantizedTensor({3}, &storage);
  storage = {-3, 7, -128};
  t.data = storage.data();
  float real[3] = {};
  HostBuffer as_float;
  as_float.data = real;
  as_float.size = sizeof(real);
  as_float.dtype = DataType::kFloat32;
  as_float.fmt = Layout::kUndefined;
  ASSERT_TRUE(ExportOutput(t, as_float).ok());
  EXPECT_EQ(std::vector<float>(real, real + 3), (std::vector<float>{0.0f, 5.0f, -62.5f}));
  int8_t codes[3] = {};
  HostBuffer as_int8 = as_float;
  as_int8.data = codes;
  as_int8.size = sizeof(codes);
  as_int8.dtype = DataType::kInt8;
  ASSERT_TRUE(ExportOutput(t, as_int8).ok());
  EXPECT_EQ(std::vector<int8_t>(codes, codes + 3), (std::vector<int8_t>{-3, 7, -128}));
}

TEST(ExportOutput, EveryInt8AndUint8CodeDequantizes) {
  for (DataType type : {DataType::kInt8, DataType::kUint8}) {
    std::vector<uint8_t> codes(256);
    for (int v = 0; v < 256; ++v) codes[static_cast<size_t>(v)] = static_cast<uint8_t>(v);
    Tensor t;
    t.shape = {1, 256};
    t.dtype = type;
    t.data = codes.data();
    t.bytes = codes.size();
    t.quant.scale = {0.125f};
    t.quant.zero_point = {type == DataType::kInt8 ? -7 : 130};
    std::vector<float> out(256, -1.0f);
    HostBuffer dst;
    dst.data = out.data();
    dst.size = out.size() * sizeof(float);
    dst.dtype = DataType::kFloat32;
    ASSERT_TRUE(ExportOutput(t, dst).ok());
    for (int v = 0; v < 256; ++v) {
      const int code = type == DataType::kInt8 ? static_cast<int8_t>(v) : v;
      EXPECT_EQ(out[static_cast<size_t>(v)], (code - t.quant.zero_point[0]) * 0.125f) << DataTypeName(type) << " " << v;
    }
  }
}

TEST(ImportInput, PassThroughSkipsNormalization) {
  std::vector<float> storage;
  Tensor t = MakeTensor({1, 2, 1, 1}, &storage);
  const float nchw[] = {3.0f, 5.0f};
  IoDesc io;
  io.mean = {1, 1};
  HostBuffer src;
  src.data = nchw;
  src.size = sizeof(nchw);
  src.dtype = DataType::kFloat32;
  src.fmt = Layout::kNCHW;
  ASSERT_TRUE(ImportInput(src, io, false, &t).ok());
  EXPECT_EQ(storage, (std::vector<float>{3.0f, 5.0f}));
}

TEST(ImportInput, RejectsShortBuffer) {
  std::vector<float> storage;
  Tensor t = MakeTensor({1, 3, 2, 2}, &storage);
  std::vector<uint8_t> data(11);
  HostBuffer src;
  src.data = data.data();
  src.size = data.size();
  src.dtype = DataType::kUint8;
  src.fmt = Layout::kNHWC;
  const Status s = ImportInput(src, IoDesc(), true, &t);
  EXPECT_EQ(s.code(), StatusCode::kInputInvalid);
  EXPECT_NE(s.message().find("needs 12"), std::string::npos) << s.message();
}

TEST(ExportOutput, Nc1hwc2WithRowPadding) {
  // C=3, C2=2 -> C1=2; W=3 padded to w_stride 4; values = NCHW index.
  std::vector<float> storage;
  Tensor t = MakeTensor({1, 3, 2, 3}, &storage);
  for (size_t i = 0; i < storage.size(); ++i) storage[i] = static_cast<float>(i);
  HostBuffer dst;
  std::vector<float> out(2 * 2 * 4 * 2, -7.0f);
  dst.data = out.data();
  dst.size = out.size() * 4;
  dst.dtype = DataType::kFloat32;
  dst.fmt = Layout::kNC1HWC2;
  dst.w_stride = 4;
  dst.c2 = 2;
  ASSERT_TRUE(ExportOutput(t, dst).ok());
  auto at = [&](int c1, int h, int w, int c2) { return out[((c1 * 2 + h) * 4 + w) * 2 + c2]; };
  auto src = [&](int c, int h, int w) { return static_cast<float>((c * 2 + h) * 3 + w); };
  EXPECT_EQ(at(0, 1, 2, 1), src(1, 1, 2));
  EXPECT_EQ(at(1, 0, 1, 0), src(2, 0, 1));
  EXPECT_EQ(at(1, 0, 1, 1), 0.0f);  // channel 3 does not exist: zero padding
  EXPECT_EQ(at(0, 0, 3, 0), 0.0f);  // padded column
}

TEST(ExportOutput, Float16Conversion) {
  std::vector<float> storage;
  Tensor t = MakeTensor({3}, &storage);
  storage = {1.0f, -2.0f, 0.5f};
  t.data = storage.data();
  std::vector<uint16_t> out(3);
  HostBuffer dst;
  dst.data = out.data();
  dst.size = 6;
  dst.dtype = DataType::kFloat16;
  dst.fmt = Layout::kUndefined;
  ASSERT_TRUE(ExportOutput(t, dst).ok());
  EXPECT_EQ(out, (std::vector<uint16_t>{0x3c00, 0xc000, 0x3800}));
  dst.size = 4;
  EXPECT_EQ(ExportOutput(t, dst).code(), StatusCode::kOutputInvalid);
}

}  // namespace
}  // namespace npurt
