// Dynamic-shape models (rknn-toolkit2's dynamic_input, `npurt convert
// --dynamic-input`): RKNN_QUERY_INPUT_DYNAMIC_RANGE, rknn_set_input_shapes /
// rknn_set_input_shape, RKNN_QUERY_CURRENT_*, runs on every shape set through
// the copying and the zero-copy API, and the errors. The model is
// DynamicConvReluPoolModel (sets x[1,3,4,4], x[1,3,8,6] -- the largest -- and
// x[1,3,2,2]); the oracle computes its two outputs for any size by hand.
#include "api_test_util.h"

namespace apitest {
namespace {

struct Size {
  uint32_t h, w;
};
const Size kSets[] = {{4, 4}, {8, 6}, {2, 2}};

// x[c][h][w] as float NCHW, distinct per position and seed, in [0, 25].
std::vector<float> InputFor(Size s, uint32_t seed) {
  std::vector<float> x(3 * s.h * s.w);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7 + seed * 3) % 26);
  return x;
}

// y[o] = relu((o + 1) * 0.1 * sum_c x[c] + bias[o]) per pixel (the centre tap only), z[c] = mean of x[c].
void Oracle(Size s, const std::vector<float>& x, std::vector<float>* y, std::vector<float>* z) {
  const float bias[2] = {0.5f, -100.0f};
  const uint32_t plane = s.h * s.w;
  y->assign(2 * plane, 0.0f);
  z->assign(3, 0.0f);
  for (uint32_t p = 0; p < plane; ++p) {
    const float sum = x[p] + x[plane + p] + x[2 * plane + p];
    for (int o = 0; o < 2; ++o) (*y)[o * plane + p] = std::max(0.0f, (o + 1) * 0.1f * sum + bias[o]);
    for (int c = 0; c < 3; ++c) (*z)[c] += x[c * plane + p] / static_cast<float>(plane);
  }
}

rknn_tensor_attr InputAttr(rknn_context ctx, rknn_query_cmd cmd) { return QueryTensorAttr(ctx, cmd, 0); }
rknn_tensor_attr OutputAttr(rknn_context ctx, rknn_query_cmd cmd, uint32_t index) {
  return QueryTensorAttr(ctx, cmd, index);
}

std::vector<uint32_t> Dims(const rknn_tensor_attr& a) { return std::vector<uint32_t>(a.dims, a.dims + a.n_dims); }

// Selects set `s` the way the vendor's demo does: the input attr with the range's dims (NHWC).
int SelectSet(rknn_context ctx, Size s) {
  rknn_tensor_attr attr = InputAttr(ctx, RKNN_QUERY_INPUT_ATTR);
  attr.dims[1] = s.h;
  attr.dims[2] = s.w;
  return rknn_set_input_shapes(ctx, 1, &attr);
}

// Both outputs as float32 (NCHW), copied out, whatever the set's sizes; with `frame_id`, their frame.
int GetOutputs(rknn_context ctx, std::vector<float>* y, std::vector<float>* z, uint64_t* frame_id = nullptr) {
  std::vector<std::vector<float>> out;
  const int ret = GetAllFloatOutputs(ctx, 2, &out, frame_id);
  if (ret != RKNN_SUCC) return ret;
  *y = std::move(out[0]);
  *z = std::move(out[1]);
  return RKNN_SUCC;
}

void ExpectNearAll(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4f) << what << " at " << i;
}

class DynamicShapeTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }
  ScopedContext ctx_{npurt::testing::DynamicConvReluPoolModel()};
};

TEST_F(DynamicShapeTest, DynamicRangeListsEverySetInTheAttrLayout) {
  rknn_input_range range;
  std::memset(&range, 0, sizeof(range));
  range.index = 0;
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_INPUT_DYNAMIC_RANGE, &range, sizeof(range)), RKNN_SUCC);
  EXPECT_EQ(range.index, 0u);
  EXPECT_EQ(range.shape_number, 3u);
  EXPECT_EQ(range.fmt, RKNN_TENSOR_NHWC);
  EXPECT_EQ(range.n_dims, 4u);
  EXPECT_STREQ(range.name, "x");
  for (uint32_t s = 0; s < 3; ++s) {
    EXPECT_EQ(std::vector<uint32_t>(range.dyn_range[s], range.dyn_range[s] + 4),
              (std::vector<uint32_t>{1, kSets[s].h, kSets[s].w, 3}))
        << "set " << s;
  }
  range.index = 1;
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_INPUT_DYNAMIC_RANGE, &range, sizeof(range)), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_query(ctx(), RKNN_QUERY_INPUT_DYNAMIC_RANGE, &range, sizeof(range) - 1), RKNN_ERR_PARAM_INVALID);

  ScopedContext static_model(ConvReluPoolModel());
  range.index = 0;
  EXPECT_EQ(rknn_query(static_model.get(), RKNN_QUERY_INPUT_DYNAMIC_RANGE, &range, sizeof(range)),
            RKNN_ERR_MODEL_INVALID);
}

// Before any rknn_set_input_shapes the context runs the largest set, which the plain queries report.
TEST_F(DynamicShapeTest, PlainAttrsReportTheLargestSetAndCurrentOnesFollowTheChoice) {
  EXPECT_EQ(Dims(InputAttr(ctx(), RKNN_QUERY_INPUT_ATTR)), (std::vector<uint32_t>{1, 8, 6, 3}));
  EXPECT_EQ(Dims(InputAttr(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR)), (std::vector<uint32_t>{1, 8, 6, 3}));
  ASSERT_EQ(SelectSet(ctx(), kSets[2]), RKNN_SUCC);
  EXPECT_EQ(Dims(InputAttr(ctx(), RKNN_QUERY_INPUT_ATTR)), (std::vector<uint32_t>{1, 8, 6, 3}));
  const rknn_tensor_attr in = InputAttr(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR);
  EXPECT_EQ(Dims(in), (std::vector<uint32_t>{1, 2, 2, 3}));
  EXPECT_EQ(in.n_elems, 12u);
  EXPECT_EQ(Dims(OutputAttr(ctx(), RKNN_QUERY_CURRENT_OUTPUT_ATTR, 0)), (std::vector<uint32_t>{1, 2, 2, 2}));
  EXPECT_EQ(Dims(OutputAttr(ctx(), RKNN_QUERY_OUTPUT_ATTR, 0)), (std::vector<uint32_t>{1, 2, 8, 6}));
  // The native views follow the set too (rows padded to the platform's width alignment).
  const rknn_tensor_attr native = InputAttr(ctx(), RKNN_QUERY_CURRENT_NATIVE_INPUT_ATTR);
  EXPECT_EQ(Dims(native), (std::vector<uint32_t>{1, 2, 2, 3}));
  EXPECT_GE(native.w_stride, 2u);
  EXPECT_EQ(Dims(OutputAttr(ctx(), RKNN_QUERY_CURRENT_NATIVE_OUTPUT_ATTR, 0)).size(), 5u);  // NC1HWC2
}

TEST_F(DynamicShapeTest, EverySetRunsThroughTheCopyingApi) {
  for (uint32_t round = 0; round < 2; ++round) {  // back and forth: each switch rebinds cleanly
    for (uint32_t s = 0; s < 3; ++s) {
      ASSERT_EQ(SelectSet(ctx(), kSets[s]), RKNN_SUCC) << "set " << s;
      std::vector<float> x = InputFor(kSets[s], s + round);
      rknn_input in = MakeInput(x.data(), static_cast<uint32_t>(x.size() * sizeof(float)), RKNN_TENSOR_FLOAT32,
                                RKNN_TENSOR_NCHW);
      ASSERT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_SUCC) << "set " << s;
      ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC) << "set " << s;
      std::vector<float> y, z, want_y, want_z;
      ASSERT_EQ(GetOutputs(ctx(), &y, &z), RKNN_SUCC);
      Oracle(kSets[s], x, &want_y, &want_z);
      ExpectNearAll(y, want_y, "y");
      ExpectNearAll(z, want_z, "z");
    }
  }
}

TEST_F(DynamicShapeTest, AShapeChangeNeedsNewInputsAndLeavesNoOutputs) {
  std::vector<float> x = InputFor(kSets[1], 0);
  rknn_input in =
      MakeInput(x.data(), static_cast<uint32_t>(x.size() * sizeof(float)), RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW);
  ASSERT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  ASSERT_EQ(SelectSet(ctx(), kSets[0]), RKNN_SUCC);
  std::vector<float> y, z;
  EXPECT_EQ(GetOutputs(ctx(), &y, &z), RKNN_ERR_FAIL) << "the old shape's outputs are gone";
  EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_ERR_INPUT_INVALID) << "inputs of the old shape do not carry over";
  // A buffer of the new size works (a larger one would too: inputs_set reads what the shape needs).
  std::vector<float> small = InputFor(kSets[0], 0);
  in = MakeInput(small.data(), static_cast<uint32_t>(small.size() * sizeof(float)), RKNN_TENSOR_FLOAT32,
                 RKNN_TENSOR_NCHW);
  ASSERT_EQ(rknn_inputs_set(ctx(), 1, &in), RKNN_SUCC);
  EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
}

// As the vendor's zero-copy flow: memory of the largest size, bound again after each shape change.
TEST_F(DynamicShapeTest, ZeroCopyMemoryOfTheLargestSizeServesEverySet) {
  const rknn_tensor_attr largest_in = InputAttr(ctx(), RKNN_QUERY_INPUT_ATTR);
  rknn_tensor_mem* in_mem = rknn_create_mem(ctx(), 8 * 6 * 3 * sizeof(float));
  rknn_tensor_mem* y_mem = rknn_create_mem(ctx(), 2 * 8 * 6 * sizeof(float));
  ASSERT_NE(in_mem, nullptr);
  ASSERT_NE(y_mem, nullptr);
  EXPECT_EQ(largest_in.n_elems, 8u * 6 * 3);
  for (uint32_t s : {0u, 2u, 1u}) {
    ASSERT_EQ(SelectSet(ctx(), kSets[s]), RKNN_SUCC);
    EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_ERR_INPUT_INVALID) << "bindings are made again after a change";
    rknn_tensor_attr in_attr = InputAttr(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR);
    in_attr.type = RKNN_TENSOR_FLOAT32;
    in_attr.fmt = RKNN_TENSOR_NCHW;
    ASSERT_EQ(rknn_set_io_mem(ctx(), in_mem, &in_attr), RKNN_SUCC);
    rknn_tensor_attr y_attr = OutputAttr(ctx(), RKNN_QUERY_CURRENT_OUTPUT_ATTR, 0);
    y_attr.type = RKNN_TENSOR_FLOAT32;
    ASSERT_EQ(rknn_set_io_mem(ctx(), y_mem, &y_attr), RKNN_SUCC);
    const std::vector<float> x = InputFor(kSets[s], 7 + s);
    std::memcpy(in_mem->virt_addr, x.data(), x.size() * sizeof(float));
    ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
    std::vector<float> want_y, want_z;
    Oracle(kSets[s], x, &want_y, &want_z);
    const float* y = static_cast<const float*>(y_mem->virt_addr);
    ExpectNearAll(std::vector<float>(y, y + want_y.size()), want_y, "y (bound)");
  }
  EXPECT_EQ(rknn_destroy_mem(ctx(), in_mem), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx(), y_mem), RKNN_SUCC);
}

TEST_F(DynamicShapeTest, BadShapeRequestsAreRefusedAndTheSetStays) {
  ASSERT_EQ(SelectSet(ctx(), kSets[0]), RKNN_SUCC);
  EXPECT_EQ(SelectSet(ctx(), Size{5, 5}), RKNN_ERR_PARAM_INVALID) << "not one of the sets";
  EXPECT_EQ(Dims(InputAttr(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR)), (std::vector<uint32_t>{1, 4, 4, 3}));
  rknn_tensor_attr attrs[2];
  attrs[0] = InputAttr(ctx(), RKNN_QUERY_INPUT_ATTR);
  attrs[1] = attrs[0];
  EXPECT_EQ(rknn_set_input_shapes(ctx(), 2, attrs), RKNN_ERR_PARAM_INVALID) << "two shapes for one input";
  EXPECT_EQ(rknn_set_input_shapes(ctx(), 0, attrs), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_set_input_shapes(ctx(), 1, nullptr), RKNN_ERR_PARAM_INVALID);
  attrs[0].index = 3;
  EXPECT_EQ(rknn_set_input_shapes(ctx(), 1, attrs), RKNN_ERR_PARAM_INVALID) << "unknown input index";
  attrs[0] = InputAttr(ctx(), RKNN_QUERY_INPUT_ATTR);
  attrs[0].fmt = RKNN_TENSOR_NC1HWC2;
  EXPECT_EQ(rknn_set_input_shapes(ctx(), 1, attrs), RKNN_ERR_PARAM_INVALID) << "shapes are NHWC, NCHW or UNDEFINED";
  // NCHW dims name the same set as NHWC ones.
  attrs[0] = InputAttr(ctx(), RKNN_QUERY_INPUT_ATTR);
  attrs[0].fmt = RKNN_TENSOR_NCHW;
  const uint32_t nchw[4] = {1, 3, 2, 2};
  std::memcpy(attrs[0].dims, nchw, sizeof(nchw));
  EXPECT_EQ(rknn_set_input_shapes(ctx(), 1, attrs), RKNN_SUCC);
  EXPECT_EQ(Dims(InputAttr(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR)), (std::vector<uint32_t>{1, 2, 2, 3}));
  // The deprecated one-input form.
  rknn_tensor_attr one = InputAttr(ctx(), RKNN_QUERY_INPUT_ATTR);
  EXPECT_EQ(rknn_set_input_shape(ctx(), &one), RKNN_SUCC);
  EXPECT_EQ(Dims(InputAttr(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR)), (std::vector<uint32_t>{1, 8, 6, 3}));
  EXPECT_EQ(rknn_set_input_shape(ctx(), nullptr), RKNN_ERR_PARAM_INVALID);
}

// Async: the frame in flight at a shape change is dropped; the next outputs_get starts over at frame 0.
TEST(DynamicShapeAsync, AShapeChangeStartsTheFramesOver) {
  ScopedContext async(npurt::testing::DynamicConvReluPoolModel(), RKNN_FLAG_ASYNC_MASK);
  ASSERT_EQ(async.init_result(), RKNN_SUCC);
  rknn_context ctx = async.get();
  auto run_with = [&](Size s, uint32_t seed, std::vector<float>* y, std::vector<float>* z, uint64_t* frame_id) {
    std::vector<float> x = InputFor(s, seed);
    rknn_input in =
        MakeInput(x.data(), static_cast<uint32_t>(x.size() * sizeof(float)), RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW);
    ASSERT_EQ(rknn_inputs_set(ctx, 1, &in), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx, nullptr), RKNN_SUCC);
    ASSERT_EQ(GetOutputs(ctx, y, z, frame_id), RKNN_SUCC);
  };
  std::vector<float> y, z, want_y, want_z;
  uint64_t frame = 0;
  run_with(kSets[1], 0, &y, &z, &frame);
  run_with(kSets[1], 1, &y, &z, &frame);
  EXPECT_EQ(frame, 1u);
  ASSERT_EQ(SelectSet(ctx, kSets[2]), RKNN_SUCC);
  run_with(kSets[2], 2, &y, &z, &frame);
  EXPECT_EQ(frame, 0u) << "no frame of the new shape has finished yet";
  EXPECT_EQ(y, std::vector<float>(2 * 2 * 2, 0.0f));
  run_with(kSets[2], 3, &y, &z, &frame);
  EXPECT_GT(frame, 0u);
  Oracle(kSets[2], InputFor(kSets[2], 2), &want_y, &want_z);
  ExpectNearAll(y, want_y, "y of the first frame after the change");
}

TEST(DynamicShapeStatic, StaticModelsRefuseShapeChanges) {
  ScopedContext static_model(ConvReluPoolModel());
  ASSERT_EQ(static_model.init_result(), RKNN_SUCC);
  rknn_tensor_attr attr = InputAttr(static_model.get(), RKNN_QUERY_INPUT_ATTR);
  EXPECT_EQ(rknn_set_input_shapes(static_model.get(), 1, &attr), RKNN_ERR_FAIL);
  EXPECT_EQ(rknn_set_input_shape(static_model.get(), &attr), RKNN_ERR_FAIL);
  ScopedContext two_inputs(AddMulModel());
  ASSERT_EQ(two_inputs.init_result(), RKNN_SUCC);
  EXPECT_EQ(rknn_set_input_shape(two_inputs.get(), &attr), RKNN_ERR_PARAM_INVALID) << "one-input form, two inputs";
}

// The arena and I/O memory cover the largest set; duplicates share the weights and pick sets on their own.
TEST_F(DynamicShapeTest, MemoryCoversEverySetAndDuplicatesChooseIndependently) {
  rknn_mem_size mem;
  ASSERT_EQ(rknn_query(ctx(), RKNN_QUERY_MEM_SIZE, &mem, sizeof(mem)), RKNN_SUCC);
  const uint64_t io = (8 * 6 * 3 + 2 * 8 * 6 + 3) * sizeof(float);  // largest input, y and z
  EXPECT_EQ(mem.total_dma_allocated_size, mem.total_weight_size + mem.total_internal_size + io);
  rknn_context dup = 0;
  rknn_context orig = ctx();
  ASSERT_EQ(rknn_dup_context(&orig, &dup), RKNN_SUCC);
  ASSERT_EQ(SelectSet(ctx(), kSets[2]), RKNN_SUCC);
  EXPECT_EQ(Dims(InputAttr(dup, RKNN_QUERY_CURRENT_INPUT_ATTR)), (std::vector<uint32_t>{1, 8, 6, 3}));
  ASSERT_EQ(SelectSet(dup, kSets[0]), RKNN_SUCC);
  std::vector<float> x = InputFor(kSets[0], 5);
  rknn_input in =
      MakeInput(x.data(), static_cast<uint32_t>(x.size() * sizeof(float)), RKNN_TENSOR_FLOAT32, RKNN_TENSOR_NCHW);
  ASSERT_EQ(rknn_inputs_set(dup, 1, &in), RKNN_SUCC);
  ASSERT_EQ(rknn_run(dup, nullptr), RKNN_SUCC);
  std::vector<float> y, z, want_y, want_z;
  ASSERT_EQ(GetOutputs(dup, &y, &z), RKNN_SUCC);
  Oracle(kSets[0], x, &want_y, &want_z);
  ExpectNearAll(y, want_y, "y (duplicate)");
  EXPECT_EQ(Dims(InputAttr(ctx(), RKNN_QUERY_CURRENT_INPUT_ATTR)), (std::vector<uint32_t>{1, 2, 2, 3}));
  EXPECT_EQ(rknn_destroy(dup), RKNN_SUCC);
}

}  // namespace
}  // namespace apitest
