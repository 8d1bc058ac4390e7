// rknn_inputs_set / rknn_outputs_get / rknn_outputs_release: argument checks,
// input types and layouts, pass-through, output types, prealloc buffers,
// index order, release semantics.
#include "api_test_util.h"

namespace apitest {
namespace {

class IoTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }

  // Runs the model with `in` and checks both float outputs against pattern `seed`.
  void ExpectRunMatches(rknn_input in, uint32_t seed, const std::string& what) {
    ASSERT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_SUCC) << what;
    ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC) << what;
    std::vector<float> y, z;
    ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC) << what;
    EXPECT_TRUE(OutputsMatch(y, z, seed)) << what;
  }

  void RunDefault(uint32_t seed = 0) {
    ASSERT_EQ(SetDefaultInput(ctx(), seed), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  }

  ScopedContext ctx_{ConvReluPoolModel()};
};

rknn_output Output(uint32_t index, bool want_float, void* buf = nullptr, uint32_t size = 0) {
  rknn_output o;
  std::memset(&o, 0, sizeof(o));
  o.index = index;
  o.want_float = want_float ? 1 : 0;
  o.is_prealloc = buf != nullptr ? 1 : 0;
  o.buf = buf;
  o.size = size;
  return o;
}

// ------------------------------------------------------------ inputs_set args

TEST_F(IoTest, NullInputsIsParamInvalid) { EXPECT_EQ(rknn_inputs_set(ctx(), 1, nullptr), RKNN_ERR_PARAM_INVALID); }

TEST_F(IoTest, InputCountZeroOrTooManyIsParamInvalid) {
  std::vector<uint8_t> x = InputNhwcU8();
  rknn_input in[2] = {MakeInput(x.data(), 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC, 0),
                      MakeInput(x.data(), 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC, 0)};
  EXPECT_EQ(rknn_inputs_set(ctx(), 0, in), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_inputs_set(ctx(), 2, in), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_inputs_set(ctx(), 0xffffffffu, in), RKNN_ERR_PARAM_INVALID);
  // The failed calls did not mark the input as set.
  EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_ERR_INPUT_INVALID);
}

TEST_F(IoTest, NullBufferIsParamInvalid) {
  rknn_input in = MakeInput(nullptr, 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_PARAM_INVALID);
}

TEST_F(IoTest, BadInputIndexIsParamInvalid) {
  std::vector<uint8_t> x = InputNhwcU8();
  for (uint32_t index : {1u, 2u, 0xffffffffu}) {
    rknn_input in = MakeInput(x.data(), 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC, index);
    EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_PARAM_INVALID) << "index " << index;
  }
}

TEST_F(IoTest, TooSmallInputIsInputInvalid) {
  std::vector<uint8_t> u8 = InputNhwcU8();
  rknn_input in = MakeInput(u8.data(), 47, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID);
  in.size = 0;
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID);
  // 48 float32 values need 192 bytes; 96 (the FP16 size) is not enough.
  std::vector<float> f32 = InputNchwF32();
  in = MakeInput(f32.data(), 96, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW);
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID);
  in.size = 191;
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID);
  EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_ERR_INPUT_INVALID) << "a rejected input is not set";
}

TEST_F(IoTest, LargerInputBufferIsAccepted) {
  std::vector<uint8_t> x = InputNhwcU8(2);
  x.resize(1000, 0xff);
  ExpectRunMatches(MakeInput(x.data(), static_cast<uint32_t>(x.size()), RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC), 2,
                   "oversized buffer");
}

TEST_F(IoTest, BadTypeOrFormatIsInputInvalid) {
  std::vector<float> x = InputNchwF32();
  const uint32_t size = static_cast<uint32_t>(x.size() * sizeof(float));
  // Values inside the enums' value ranges (so this C++ code stays defined) but not types/formats.
  for (int type : {static_cast<int>(RKNN_TENSOR_TYPE_MAX), 13, 15}) {
    rknn_input in = MakeInput(x.data(), size, static_cast<rknn_tensor_type>(type), RKNN_TENSOR_NCHW);
    EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID) << "type " << type;
  }
  for (int fmt : {static_cast<int>(RKNN_TENSOR_FORMAT_MAX), 5, 7}) {
    rknn_input in = MakeInput(x.data(), size, RKNN_TENSOR_FLOAT32, static_cast<rknn_tensor_format>(fmt));
    EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID) << "fmt " << fmt;
  }
}

TEST_F(IoTest, ArbitraryIntsInEnumFieldsFromCAreInputInvalid) {
  // A C caller may store any int in the enum fields (C enums are ints); write
  // them as raw bytes, exactly as a C program's struct would hold them.
  std::vector<float> x = InputNchwF32();
  const uint32_t size = static_cast<uint32_t>(x.size() * sizeof(float));
  for (int32_t raw : {99, -1, 0x7fffffff}) {
    rknn_input in = MakeInput(x.data(), size, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW);
    std::memcpy(&in.type, &raw, sizeof(raw));
    EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID) << "type " << raw;
    in = MakeInput(x.data(), size, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW);
    std::memcpy(&in.fmt, &raw, sizeof(raw));
    EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID) << "fmt " << raw;
  }
}

TEST_F(IoTest, Nc1hwc2WithoutPassThroughIsInputInvalid) {
  std::vector<uint16_t> x(1024, 0);
  rknn_input in = MakeInput(x.data(), 2048, RKNN_TENSOR_FLOAT16, RKNN_TENSOR_NC1HWC2);
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID);
}

TEST_F(IoTest, PassThroughWithWrongTypeIsInputInvalid) {
  std::vector<uint8_t> x(2048, 1);
  rknn_input in = MakeInput(x.data(), 2048, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
  in.pass_through = 1;  // pass-through data must already be the native type, FP16
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID);
}

// ------------------------------------------------------------ input conversion

TEST_F(IoTest, AllInputTypesAndLayoutsGiveTheSameOutputs) {
  const uint32_t seed = 1;
  std::vector<uint8_t> u8 = InputNhwcU8(seed);
  ExpectRunMatches(MakeInput(u8.data(), 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC), seed, "uint8 NHWC");
  std::vector<float> nchw = InputNchwF32(seed);
  ExpectRunMatches(MakeInput(nchw.data(), 192, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW), seed, "float32 NCHW");
  std::vector<float> nhwc = InputNhwcF32(seed);
  ExpectRunMatches(MakeInput(nhwc.data(), 192, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NHWC), seed, "float32 NHWC");
  std::vector<uint16_t> f16 = InputNhwcF16(seed);
  ExpectRunMatches(MakeInput(f16.data(), 96, RKNN_TENSOR_FLOAT16, RKNN_TENSOR_NHWC), seed, "float16 NHWC");
  std::vector<uint8_t> u8_nchw(48);
  for (uint32_t i = 0; i < 48; ++i) u8_nchw[i] = static_cast<uint8_t>(nchw[i]);
  ExpectRunMatches(MakeInput(u8_nchw.data(), 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NCHW), seed, "uint8 NCHW");
}

TEST_F(IoTest, NhwcAndNchwAreNotConfused) {
  // Feeding NHWC bytes but declaring NCHW must give different (wrong) outputs:
  // proves the runtime honours fmt rather than ignoring it.
  std::vector<uint8_t> u8 = InputNhwcU8(0);
  rknn_input in = MakeInput(u8.data(), 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NCHW);
  ASSERT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
  EXPECT_FALSE(OutputsMatch(y, z, 0));
}

TEST_F(IoTest, PassThroughNativeFp16WithRowStride) {
  rknn_tensor_attr native;
  std::memset(&native, 0, sizeof(native));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_NATIVE_INPUT_ATTR, &native, sizeof(native)), RKNN_SUCC);
  ASSERT_EQ(native.fmt, RKNN_TENSOR_NHWC);
  ASSERT_EQ(native.type, RKNN_TENSOR_FLOAT16);
  ASSERT_EQ(native.w_stride, 16u);
  // [H][w_stride][C] halves; the padding columns hold +inf, which must be ignored.
  std::vector<uint16_t> buf(native.size_with_stride / 2, 0x7c00);
  const uint32_t seed = 2;
  for (uint32_t h = 0; h < kH; ++h)
    for (uint32_t w = 0; w < kW; ++w)
      for (uint32_t c = 0; c < kC; ++c) buf[(h * native.w_stride + w) * kC + c] = FloatToHalf(XValue(c, h, w, seed));
  rknn_input in = MakeInput(buf.data(), native.size_with_stride, RKNN_TENSOR_FLOAT16, RKNN_TENSOR_NHWC);
  in.pass_through = 1;
  ExpectRunMatches(in, seed, "pass-through native FP16");

  in.size = native.size;  // the unpadded size is too small for the strided layout
  EXPECT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_ERR_INPUT_INVALID);
}

TEST_F(IoTest, InputIsCopiedDuringInputsSet) {
  std::vector<uint8_t> x = InputNhwcU8(3);
  rknn_input in = MakeInput(x.data(), 48, RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
  ASSERT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_SUCC);
  std::memset(x.data(), 0, x.size());  // the caller may reuse the buffer right away
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 3));
}

TEST_F(IoTest, LaterInputsSetReplacesEarlier) {
  ASSERT_EQ(SetDefaultInput(ctx(), 0), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(ctx(), 4), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 4));
}

// ------------------------------------------------------------ outputs_get args

TEST_F(IoTest, OutputsGetBeforeRunFails) {
  rknn_output out[2] = {Output(0, true), Output(1, true)};
  EXPECT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_ERR_FAIL);
  EXPECT_EQ(out[0].buf, nullptr);
  ASSERT_EQ(SetDefaultInput(ctx()), RKNN_SUCC);
  EXPECT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_ERR_FAIL) << "inputs_set is not a run";
}

TEST_F(IoTest, NullOutputsIsParamInvalid) {
  RunDefault();
  EXPECT_EQ(rknn_outputs_get(ctx(), 2, nullptr, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, nullptr), RKNN_ERR_PARAM_INVALID);
}

TEST_F(IoTest, OutputCountZeroOrTooManyIsParamInvalid) {
  RunDefault();
  rknn_output out[3] = {Output(0, true), Output(1, true), Output(0, true)};
  EXPECT_EQ(rknn_outputs_get(ctx(), 0, out, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_outputs_get(ctx(), 3, out, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(out[0].buf, nullptr);
}

TEST_F(IoTest, BadOutputIndexIsParamInvalid) {
  RunDefault();
  for (uint32_t index : {2u, 100u, 0xffffffffu}) {
    rknn_output out[2] = {Output(0, true), Output(index, true)};
    EXPECT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_ERR_PARAM_INVALID) << "index " << index;
    EXPECT_EQ(out[0].buf, nullptr) << "a failed get hands out nothing";
  }
}

TEST_F(IoTest, PreallocNullBufferIsParamInvalid) {
  RunDefault();
  rknn_output out = Output(0, true);
  out.is_prealloc = 1;
  out.size = 128;
  EXPECT_EQ(rknn_outputs_get(ctx(), 1, &out, nullptr), RKNN_ERR_PARAM_INVALID);
}

TEST_F(IoTest, PreallocTooSmallIsOutputInvalid) {
  RunDefault();
  std::vector<uint8_t> buf(256, 0xee);
  // y: 32 floats = 128 bytes, or 32 halves = 64 bytes; z: 3 floats = 12 bytes.
  const std::tuple<uint32_t, bool, uint32_t> cases[] = {
      {0, true, 127}, {0, true, 64}, {0, false, 63}, {1, true, 11}, {1, false, 5}, {0, true, 0}};
  for (const auto& c : cases) {
    rknn_output out = Output(std::get<0>(c), std::get<1>(c), buf.data(), std::get<2>(c));
    EXPECT_EQ(rknn_outputs_get(ctx(), 1, &out, nullptr), RKNN_ERR_OUTPUT_INVALID)
        << "index " << std::get<0>(c) << " want_float " << std::get<1>(c) << " size " << std::get<2>(c);
  }
  EXPECT_EQ(buf, std::vector<uint8_t>(256, 0xee)) << "a rejected buffer is not written";
}

// ------------------------------------------------------------ output values

TEST_F(IoTest, WantFloatGivesFloat32Nchw) {
  RunDefault(5);
  rknn_output out[2] = {Output(0, true), Output(1, true)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_SUCC);
  ASSERT_NE(out[0].buf, nullptr);
  ASSERT_NE(out[1].buf, nullptr);
  EXPECT_EQ(out[0].size, 32u * sizeof(float));
  EXPECT_EQ(out[1].size, 3u * sizeof(float));
  EXPECT_EQ(out[0].is_prealloc, 0);
  const ConvReluPoolExpected e = Oracle(5);
  EXPECT_TRUE(AllNear(static_cast<float*>(out[0].buf), e.y, "y"));
  EXPECT_TRUE(AllNear(static_cast<float*>(out[1].buf), e.z, "z"));
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);
}

TEST_F(IoTest, FixtureValuesByHand) {
  // Pattern 0 spelled out: pixel p = h*4+w has x = {10p+20, 10p+50, 10p+80}, sum 30p+150.
  RunDefault(0);
  std::vector<float> y, z;
  ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
  EXPECT_NEAR(y[0], 15.5f, 1e-3f);          // 0.1 * 150 + 0.5
  EXPECT_NEAR(y[15], 60.5f, 1e-2f);         // 0.1 * 600 + 0.5
  EXPECT_NEAR(y[16 + 0], 0.0f, 1e-6f);      // relu(0.2 * 150 - 100)
  EXPECT_NEAR(y[16 + 11], 0.0f, 1e-6f);     // relu(0.2 * 480 - 100)
  EXPECT_NEAR(y[16 + 12], 2.0f, 1e-2f);     // relu(0.2 * 510 - 100)
  EXPECT_NEAR(y[16 + 15], 20.0f, 1e-1f);    // relu(0.2 * 600 - 100)
  EXPECT_NEAR(z[0], 95.0f, 0.1f);           // mean of 10p + 20
  EXPECT_NEAR(z[1], 125.0f, 0.15f);
  EXPECT_NEAR(z[2], 155.0f, 0.2f);
}

TEST_F(IoTest, NoWantFloatGivesFp16LikeTheBoard) {
  rknn_tensor_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_OUTPUT_ATTR, &attr, sizeof(attr)), RKNN_SUCC);
  ASSERT_EQ(attr.type, RKNN_TENSOR_FLOAT16);
  RunDefault(6);
  rknn_output out[2] = {Output(0, false), Output(1, false)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_SUCC);
  EXPECT_EQ(out[0].size, 32u * 2);
  EXPECT_EQ(out[1].size, 3u * 2);
  const ConvReluPoolExpected e = Oracle(6);
  const std::vector<float> y = DecodeHalves(out[0].buf, 32);
  const std::vector<float> z = DecodeHalves(out[1].buf, 3);
  EXPECT_TRUE(AllNear(y.data(), e.y, "y(fp16)"));
  EXPECT_TRUE(AllNear(z.data(), e.z, "z(fp16)"));
  // Exactly representable results must come back exactly.
  for (size_t i = 0; i < y.size(); ++i) {
    if (e.y[i] == 0.0f) {
      EXPECT_EQ(static_cast<const uint16_t*>(out[0].buf)[i], 0u) << "y[" << i << "]";
    }
  }
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);
}

TEST_F(IoTest, OutputsInAnyIndexOrder) {
  RunDefault(7);
  const ConvReluPoolExpected e = Oracle(7);
  rknn_output out[2] = {Output(1, true), Output(0, true)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_SUCC);
  EXPECT_EQ(out[0].size, 12u);
  EXPECT_EQ(out[1].size, 128u);
  EXPECT_TRUE(AllNear(static_cast<float*>(out[0].buf), e.z, "z"));
  EXPECT_TRUE(AllNear(static_cast<float*>(out[1].buf), e.y, "y"));
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);

  rknn_output only_z = Output(1, true);
  ASSERT_EQ(rknn_outputs_get(ctx(), 1, &only_z, nullptr), RKNN_SUCC);
  EXPECT_TRUE(AllNear(static_cast<float*>(only_z.buf), e.z, "z alone"));
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &only_z), RKNN_SUCC);

  // Mixed: z as FP16, y as float, in reverse order.
  rknn_output mixed[2] = {Output(1, false), Output(0, true)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, mixed, nullptr), RKNN_SUCC);
  EXPECT_EQ(mixed[0].size, 6u);
  EXPECT_TRUE(AllNear(DecodeHalves(mixed[0].buf, 3).data(), e.z, "z(fp16)"));
  EXPECT_TRUE(AllNear(static_cast<float*>(mixed[1].buf), e.y, "y"));
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, mixed), RKNN_SUCC);
}

TEST_F(IoTest, PreallocBuffers) {
  RunDefault(8);
  const ConvReluPoolExpected e = Oracle(8);
  // Exact-size y, oversized z with a guard area that must stay untouched.
  std::vector<float> y(32, -1.0f);
  std::vector<uint8_t> z(64, 0xee);
  rknn_output out[2] = {Output(0, true, y.data(), 128), Output(1, true, z.data(), 64)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_SUCC);
  EXPECT_EQ(out[0].buf, y.data()) << "the caller's buffer is used, not replaced";
  EXPECT_EQ(out[1].buf, z.data());
  EXPECT_EQ(out[1].size, 64u) << "is_prealloc size is the caller's";
  EXPECT_TRUE(AllNear(y.data(), e.y, "y"));
  float zf[3];
  std::memcpy(zf, z.data(), sizeof(zf));
  EXPECT_TRUE(AllNear(zf, e.z, "z"));
  for (size_t i = 12; i < z.size(); ++i) EXPECT_EQ(z[i], 0xee) << "byte " << i << " past the output written";
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);
  EXPECT_EQ(out[0].buf, y.data()) << "release leaves caller buffers alone";
  EXPECT_TRUE(AllNear(y.data(), e.y, "y after release"));

  // FP16 into a preallocated buffer of exactly 64 bytes.
  std::vector<uint16_t> yh(32, 0xffff);
  rknn_output half = Output(0, false, yh.data(), 64);
  ASSERT_EQ(rknn_outputs_get(ctx(), 1, &half, nullptr), RKNN_SUCC);
  EXPECT_TRUE(AllNear(DecodeHalves(yh.data(), 32).data(), e.y, "y(fp16 prealloc)"));
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &half), RKNN_SUCC);
}

TEST_F(IoTest, MixedPreallocAndRuntimeBuffers) {
  RunDefault(9);
  const ConvReluPoolExpected e = Oracle(9);
  std::vector<float> y(32, 0.0f);
  rknn_output out[2] = {Output(0, true, y.data(), 128), Output(1, true)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_SUCC);
  ASSERT_NE(out[1].buf, nullptr);
  EXPECT_TRUE(AllNear(y.data(), e.y, "y"));
  EXPECT_TRUE(AllNear(static_cast<float*>(out[1].buf), e.z, "z"));
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);
  EXPECT_EQ(out[0].buf, y.data());
}

TEST_F(IoTest, OutputsGetTwiceGivesSameValuesAndSeparateBuffers) {
  RunDefault(10);
  rknn_output a[2] = {Output(0, true), Output(1, true)};
  rknn_output b[2] = {Output(0, true), Output(1, true)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, a, nullptr), RKNN_SUCC);
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, b, nullptr), RKNN_SUCC);
  EXPECT_NE(a[0].buf, b[0].buf);
  EXPECT_EQ(std::memcmp(a[0].buf, b[0].buf, 128), 0);
  EXPECT_EQ(std::memcmp(a[1].buf, b[1].buf, 12), 0);
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, a), RKNN_SUCC);
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, b), RKNN_SUCC);
}

TEST_F(IoTest, OutputsGetExtendReportsFrameId) {
  ASSERT_EQ(SetDefaultInput(ctx()), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  rknn_run_extend run_ext;
  std::memset(&run_ext, 0, sizeof(run_ext));
  ASSERT_EQ(rknn_run(ctx(), &run_ext), RKNN_SUCC);
  rknn_output_extend out_ext;
  out_ext.frame_id = 999;
  rknn_output out = Output(1, true);
  ASSERT_EQ(rknn_outputs_get(ctx(), 1, &out, &out_ext), RKNN_SUCC);
  EXPECT_EQ(out_ext.frame_id, run_ext.frame_id);
  EXPECT_EQ(run_ext.frame_id, 2u);
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &out), RKNN_SUCC);
}

// ------------------------------------------------------------ release

TEST_F(IoTest, ReleaseSameStructTwiceIsNoOp) {
  RunDefault();
  rknn_output out[2] = {Output(0, true), Output(1, true)};
  ASSERT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_SUCC);
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);
  EXPECT_EQ(out[0].buf, nullptr) << "release clears the runtime's pointer";
  EXPECT_EQ(out[1].buf, nullptr);
  EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);
}

TEST_F(IoTest, ReleaseForeignPointerIsParamInvalid) {
  RunDefault();
  int not_ours = 0;
  rknn_output foreign = Output(0, true);
  foreign.buf = &not_ours;  // is_prealloc = 0 but the runtime never handed this out
  foreign.size = 4;
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &foreign), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(not_ours, 0);
}

TEST_F(IoTest, ReleasingAStaleCopyIsParamInvalid) {
  RunDefault();
  rknn_output out = Output(0, true);
  ASSERT_EQ(rknn_outputs_get(ctx(), 1, &out, nullptr), RKNN_SUCC);
  const rknn_output copy = out;
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &out), RKNN_SUCC);
  rknn_output stale = copy;  // same pointer, already freed: must be detected, not freed again
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &stale), RKNN_ERR_PARAM_INVALID);
}

TEST_F(IoTest, ReleaseOnAnotherContextIsParamInvalid) {
  ScopedContext other(ConvReluPoolModel());
  ASSERT_EQ(other.init_result(), RKNN_SUCC);
  RunDefault();
  rknn_output out = Output(0, true);
  ASSERT_EQ(rknn_outputs_get(ctx(), 1, &out, nullptr), RKNN_SUCC);
  rknn_output wrong = out;
  EXPECT_EQ(rknn_outputs_release(other.get(), 1, &wrong), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_outputs_release(ctx(), 1, &out), RKNN_SUCC);
}

TEST_F(IoTest, ReleaseZeroOutputsIsOk) {
  rknn_output out = Output(0, true);
  EXPECT_EQ(rknn_outputs_release(ctx(), 0, &out), RKNN_SUCC);
}

// ------------------------------------------------------------ two inputs

class TwoInputTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }
  ScopedContext ctx_{AddMulModel()};
  float a_[6] = {1.0f, -2.0f, 3.5f, 0.25f, -4.0f, 10.0f};
  float b_[6] = {0.5f, 2.0f, -1.5f, 8.0f, 4.0f, -3.0f};

  void ExpectOutputs() {
    rknn_output out[2];
    std::memset(out, 0, sizeof(out));
    out[0].index = 1;  // prod first
    out[0].want_float = 1;
    out[1].index = 0;
    out[1].want_float = 1;
    ASSERT_EQ(rknn_outputs_get(ctx(), 2, out, nullptr), RKNN_SUCC);
    ASSERT_EQ(out[0].size, 24u);
    ASSERT_EQ(out[1].size, 24u);
    const float* prod = static_cast<const float*>(out[0].buf);
    const float* sum = static_cast<const float*>(out[1].buf);
    for (int i = 0; i < 6; ++i) {
      const float s = a_[i] + b_[i];
      EXPECT_NEAR(sum[i], s, 1e-3f * std::max(1.0f, std::fabs(s))) << "sum[" << i << "]";
      EXPECT_NEAR(prod[i], s * a_[i], 1e-3f * std::max(1.0f, std::fabs(s * a_[i]))) << "prod[" << i << "]";
    }
    EXPECT_EQ(rknn_outputs_release(ctx(), 2, out), RKNN_SUCC);
  }
};

TEST_F(TwoInputTest, InputsInAnyOrderInOneCall) {
  rknn_input in[2] = {MakeInput(b_, 24, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_UNDEFINED, 1),
                      MakeInput(a_, 24, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_UNDEFINED, 0)};
  ASSERT_EQ(rknn_inputs_set(ctx(), 2, in), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  ExpectOutputs();
}

TEST_F(TwoInputTest, InputsInSeparateCalls) {
  rknn_input b = MakeInput(b_, 24, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW, 1);
  ASSERT_EQ(rknn_inputs_set(ctx(), 1, &b), RKNN_SUCC);
  EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_ERR_INPUT_INVALID) << "input 0 was never set";
  rknn_input a = MakeInput(a_, 24, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW, 0);
  ASSERT_EQ(rknn_inputs_set(ctx(), 1, &a), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  ExpectOutputs();
}

TEST_F(TwoInputTest, Fp16Inputs) {
  uint16_t ah[6], bh[6];
  for (int i = 0; i < 6; ++i) {
    ah[i] = FloatToHalf(a_[i]);
    bh[i] = FloatToHalf(b_[i]);
  }
  rknn_input in[2] = {MakeInput(ah, 12, RKNN_TENSOR_FLOAT16, RKNN_TENSOR_UNDEFINED, 0),
                      MakeInput(bh, 12, RKNN_TENSOR_FLOAT16, RKNN_TENSOR_UNDEFINED, 1)};
  ASSERT_EQ(rknn_inputs_set(ctx(), 2, in), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  ExpectOutputs();  // all values are exact in FP16
}

TEST_F(TwoInputTest, OneBadInputRejectsTheCall) {
  rknn_input in[2] = {MakeInput(a_, 24, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_UNDEFINED, 0),
                      MakeInput(b_, 23, RKNN_TENSOR_FLOAT32, RKNN_TENSOR_UNDEFINED, 1)};
  EXPECT_EQ(rknn_inputs_set(ctx(), 2, in), RKNN_ERR_INPUT_INVALID);
  in[1].size = 24;
  in[1].index = 2;
  EXPECT_EQ(rknn_inputs_set(ctx(), 2, in), RKNN_ERR_PARAM_INVALID);
  in[1].index = 1;
  in[1].buf = nullptr;
  EXPECT_EQ(rknn_inputs_set(ctx(), 2, in), RKNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace apitest
