// rknn_custom_op.h: the application's operators, registered on a context and called by rknn_run.
//
// Fixture: x[1,3,4,5] -> Custom "cstSoftplus" (attrs beta = 2.0, tag = "demo", axes = [1, 2], count = 7)
// -> s[1,3,4,5]; y = Add(s, x). The callbacks below compute softplus(beta * x) / beta from the
// attribute they read; the oracle is the formula in double precision.
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "api_test_util.h"
#include "rknn_custom_op.h"

namespace apitest {
namespace {

constexpr uint32_t kElems = 1 * 3 * 4 * 5;

std::vector<uint8_t> SoftplusModel(const std::string& platform = "rk3588") {
  npurt::compiler::Graph g;
  const int x = g.AddTensor("x", {1, 3, 4, 5}, npurt::DataType::kFloat32);
  g.AddInput(x);
  npurt::Attributes a;
  a.SetFloat("beta", 2.0f);
  a.SetString("tag", "demo");
  a.SetInts("axes", {1, 2});
  a.SetInt("count", 7);
  a.SetString("npurt.op_type", "cstSoftplus");
  a.SetString("npurt.domain", "cst");
  a.SetInts("npurt.output_shapes", {4, 1, 3, 4, 5});
  a.SetInts("npurt.output_dtypes", {0});
  const int s = g.AddNode("Custom", {x}, a, 1, "softplus_node");
  g.tensors()[s].name = "s";
  const int y = g.AddNode("Add", {s, x}, {}, 1, "add");
  g.tensors()[y].name = "y";
  g.AddOutput(y);
  return npurt::testing::EmitOrDie(g, platform);
}

std::vector<float> Input() {
  std::vector<float> x(kElems);
  for (uint32_t i = 0; i < kElems; ++i) x[i] = -3.0f + 0.1f * static_cast<float>(i);
  return x;
}

// What the callbacks saw, for the assertions.
struct Seen {
  int init = 0, prepare = 0, compute = 0, destroy = 0;
  float beta = 0;
  std::string tag;
  std::vector<int64_t> axes;
  int64_t count = 0;
  uint32_t missing_elems = 99;
  rknn_tensor_attr in_attr{}, out_attr{};
  uint32_t n_inputs = 0, n_outputs = 0;
  void* priv_in_compute = nullptr;
  int compute_result = 0;
  int init_result = 0;
};
Seen g_seen;
constexpr int kThrow = 12345;  // compute_result: throw instead of returning

int SoftplusInit(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor*, uint32_t, rknn_custom_op_tensor*, uint32_t) {
  ++g_seen.init;
  if (g_seen.init_result != 0) return g_seen.init_result;
  op_ctx->priv_data = new int(42);
  return 0;
}

int SoftplusPrepare(rknn_custom_op_context*, rknn_custom_op_tensor*, uint32_t, rknn_custom_op_tensor*, uint32_t) {
  ++g_seen.prepare;
  return 0;
}

int SoftplusCompute(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                    rknn_custom_op_tensor* outputs, uint32_t n_outputs) {
  ++g_seen.compute;
  g_seen.n_inputs = n_inputs;
  g_seen.n_outputs = n_outputs;
  g_seen.in_attr = inputs[0].attr;
  g_seen.out_attr = outputs[0].attr;
  g_seen.priv_in_compute = op_ctx->priv_data;
  rknn_custom_op_attr attr;
  rknn_custom_op_get_op_attr(op_ctx, "beta", &attr);
  if (attr.dtype != RKNN_TENSOR_FLOAT32 || attr.n_elems != 1) return -1;
  g_seen.beta = static_cast<const float*>(attr.data)[0];
  rknn_custom_op_get_op_attr(op_ctx, "tag", &attr);
  if (attr.dtype == RKNN_TENSOR_UINT8) g_seen.tag.assign(static_cast<const char*>(attr.data), attr.n_elems);
  rknn_custom_op_get_op_attr(op_ctx, "axes", &attr);
  if (attr.dtype == RKNN_TENSOR_INT64) {
    g_seen.axes.assign(static_cast<const int64_t*>(attr.data), static_cast<const int64_t*>(attr.data) + attr.n_elems);
  }
  rknn_custom_op_get_op_attr(op_ctx, "count", &attr);
  if (attr.dtype == RKNN_TENSOR_INT64 && attr.n_elems == 1) g_seen.count = static_cast<const int64_t*>(attr.data)[0];
  rknn_custom_op_get_op_attr(op_ctx, "no_such_attribute", &attr);
  g_seen.missing_elems = attr.n_elems;
  if (attr.data != nullptr) return -1;
  if (g_seen.compute_result == kThrow) throw std::runtime_error("callback failure");
  if (g_seen.compute_result != 0) return g_seen.compute_result;

  const float* in = reinterpret_cast<const float*>(static_cast<char*>(inputs[0].mem.virt_addr) + inputs[0].mem.offset);
  float* out = reinterpret_cast<float*>(static_cast<char*>(outputs[0].mem.virt_addr) + outputs[0].mem.offset);
  const float beta = g_seen.beta;
  for (uint32_t i = 0; i < inputs[0].attr.n_elems; ++i) out[i] = std::log1p(std::exp(beta * in[i])) / beta;
  return 0;
}

int SoftplusDestroy(rknn_custom_op_context* op_ctx) {
  ++g_seen.destroy;
  delete static_cast<int*>(op_ctx->priv_data);
  return 0;
}

rknn_custom_op SoftplusOp() {
  rknn_custom_op op;
  std::memset(&op, 0, sizeof(op));
  std::strncpy(op.op_type, "cstSoftplus", RKNN_MAX_NAME_LEN - 1);
  op.version = 1;
  op.target = RKNN_TARGET_TYPE_CPU;
  op.init = SoftplusInit;
  op.prepare = SoftplusPrepare;
  op.compute = SoftplusCompute;
  op.destroy = SoftplusDestroy;
  return op;
}

int SetInputAndRun(rknn_context ctx, std::vector<float>* y) {
  std::vector<float> x = Input();
  rknn_input in;
  std::memset(&in, 0, sizeof(in));
  in.index = 0;
  in.buf = x.data();
  in.size = static_cast<uint32_t>(x.size() * sizeof(float));
  in.type = RKNN_TENSOR_FLOAT32;
  in.fmt = RKNN_TENSOR_NCHW;
  int ret = rknn_inputs_set(ctx, 1, &in);
  if (ret != RKNN_SUCC) return ret;
  ret = rknn_run(ctx, nullptr);
  if (ret != RKNN_SUCC) return ret;
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  out.want_float = 1;
  ret = rknn_outputs_get(ctx, 1, &out, nullptr);
  if (ret != RKNN_SUCC) return ret;
  y->assign(static_cast<float*>(out.buf), static_cast<float*>(out.buf) + kElems);
  return rknn_outputs_release(ctx, 1, &out);
}

void ExpectSoftplusPlusX(const std::vector<float>& y) {
  const std::vector<float> x = Input();
  ASSERT_EQ(y.size(), kElems);
  for (uint32_t i = 0; i < kElems; ++i) {
    const double v = x[i];
    const double expected = std::log1p(std::exp(2.0 * v)) / 2.0 + v;
    EXPECT_NEAR(y[i], expected, 1e-5 * (1 + std::fabs(expected))) << i;
  }
}

class CustomOp : public ::testing::Test {
 protected:
  void SetUp() override { g_seen = Seen(); }
};

TEST_F(CustomOp, RegisteredCallbacksComputeTheNodeWithItsAttributes) {
  const std::vector<uint8_t> model = SoftplusModel();
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, model), RKNN_SUCC);
  rknn_custom_op op = SoftplusOp();
  ASSERT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_SUCC);
  EXPECT_EQ(g_seen.init, 1);  // once per node, at registration
  std::vector<float> y;
  ASSERT_EQ(SetInputAndRun(ctx, &y), RKNN_SUCC);
  ExpectSoftplusPlusX(y);
  ASSERT_EQ(SetInputAndRun(ctx, &y), RKNN_SUCC);
  ExpectSoftplusPlusX(y);
  EXPECT_EQ(g_seen.prepare, 2);  // prepare and compute at every run
  EXPECT_EQ(g_seen.compute, 2);
  EXPECT_EQ(g_seen.init, 1);
  EXPECT_EQ(g_seen.destroy, 0);

  // The node's attributes, as rknn_custom_op_get_op_attr gives them.
  EXPECT_FLOAT_EQ(g_seen.beta, 2.0f);
  EXPECT_EQ(g_seen.tag, "demo");
  EXPECT_EQ(g_seen.axes, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(g_seen.count, 7);
  EXPECT_EQ(g_seen.missing_elems, 0u);
  ASSERT_NE(g_seen.priv_in_compute, nullptr);  // priv_data set in init reaches compute
  EXPECT_EQ(*static_cast<int*>(g_seen.priv_in_compute), 42);

  // The tensors: float32 NCHW in the ONNX shape.
  EXPECT_EQ(g_seen.n_inputs, 1u);
  EXPECT_EQ(g_seen.n_outputs, 1u);
  for (const rknn_tensor_attr* a : {&g_seen.in_attr, &g_seen.out_attr}) {
    EXPECT_EQ(a->n_dims, 4u);
    EXPECT_EQ(a->dims[0], 1u);
    EXPECT_EQ(a->dims[1], 3u);
    EXPECT_EQ(a->dims[2], 4u);
    EXPECT_EQ(a->dims[3], 5u);
    EXPECT_EQ(a->n_elems, kElems);
    EXPECT_EQ(a->size, kElems * 4);
    EXPECT_EQ(a->type, RKNN_TENSOR_FLOAT32);
    EXPECT_EQ(a->fmt, RKNN_TENSOR_NCHW);
    EXPECT_EQ(a->qnt_type, RKNN_TENSOR_QNT_NONE);
  }
  EXPECT_STREQ(g_seen.in_attr.name, "x");
  EXPECT_STREQ(g_seen.out_attr.name, "s");

  ASSERT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  EXPECT_EQ(g_seen.destroy, 1);  // once per node, with the context
}

TEST_F(CustomOp, RunWithoutRegistrationFailsAndNamesTheType) {
  const std::vector<uint8_t> model = SoftplusModel();
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, model), RKNN_SUCC);  // registration needs a context: it comes after rknn_init
  std::vector<float> y;
  EXPECT_EQ(SetInputAndRun(ctx, &y), RKNN_ERR_FAIL);
  EXPECT_EQ(g_seen.compute, 0);
  // Registering later makes the same context runnable.
  rknn_custom_op op = SoftplusOp();
  ASSERT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_SUCC);
  ASSERT_EQ(SetInputAndRun(ctx, &y), RKNN_SUCC);
  ExpectSoftplusPlusX(y);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST_F(CustomOp, DuplicatedContextKeepsTheRegistration) {
  const std::vector<uint8_t> model = SoftplusModel();
  rknn_context ctx = 0, dup = 0;
  ASSERT_EQ(InitFromBytes(&ctx, model), RKNN_SUCC);
  rknn_custom_op op = SoftplusOp();
  ASSERT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_SUCC);
  ASSERT_EQ(rknn_dup_context(&ctx, &dup), RKNN_SUCC);
  EXPECT_EQ(g_seen.init, 2);  // the duplicate's node has a context of its own
  std::vector<float> y;
  ASSERT_EQ(SetInputAndRun(dup, &y), RKNN_SUCC);
  ExpectSoftplusPlusX(y);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  ASSERT_EQ(SetInputAndRun(dup, &y), RKNN_SUCC);  // the copy outlives the original's registration
  ExpectSoftplusPlusX(y);
  EXPECT_EQ(rknn_destroy(dup), RKNN_SUCC);
  EXPECT_EQ(g_seen.destroy, 2);
}

TEST_F(CustomOp, MisuseGetsCodesNotCrashes) {
  const std::vector<uint8_t> model = SoftplusModel();
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, model), RKNN_SUCC);
  rknn_custom_op op = SoftplusOp();
  EXPECT_EQ(rknn_register_custom_ops(0, &op, 1), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_register_custom_ops(ctx + 1000, &op, 1), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_register_custom_ops(ctx, nullptr, 1), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_register_custom_ops(ctx, &op, 0), RKNN_ERR_PARAM_INVALID);

  rknn_custom_op bad = SoftplusOp();
  bad.op_type[0] = '\0';
  EXPECT_EQ(rknn_register_custom_ops(ctx, &bad, 1), RKNN_ERR_PARAM_INVALID);
  bad = SoftplusOp();
  std::memset(bad.op_type, 'a', sizeof(bad.op_type));  // not NUL-terminated
  EXPECT_EQ(rknn_register_custom_ops(ctx, &bad, 1), RKNN_ERR_PARAM_INVALID);
  bad = SoftplusOp();
  bad.target = RKNN_TARGET_TYPE_GPU;
  EXPECT_EQ(rknn_register_custom_ops(ctx, &bad, 1), RKNN_ERR_PARAM_INVALID);
  bad = SoftplusOp();
  bad.target = static_cast<rknn_target_type>(77);
  EXPECT_EQ(rknn_register_custom_ops(ctx, &bad, 1), RKNN_ERR_PARAM_INVALID);
  bad = SoftplusOp();
  bad.compute = nullptr;
  EXPECT_EQ(rknn_register_custom_ops(ctx, &bad, 1), RKNN_ERR_PARAM_INVALID);
  bad.compute_native = SoftplusCompute;  // not supported by the 2.3.2 runtime either
  EXPECT_EQ(rknn_register_custom_ops(ctx, &bad, 1), RKNN_ERR_PARAM_INVALID);
  rknn_custom_op twice[2] = {SoftplusOp(), SoftplusOp()};
  EXPECT_EQ(rknn_register_custom_ops(ctx, twice, 2), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(g_seen.init, 0);  // nothing of a refused call was registered

  // An init that fails leaves the type unregistered; a good registration afterwards works.
  g_seen.init_result = -1;
  EXPECT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_ERR_FAIL);
  g_seen.init_result = RKNN_WARNING_SKIP_CUSTOM_OP_COMPUTE;
  EXPECT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_ERR_FAIL);
  std::vector<float> y;
  EXPECT_EQ(SetInputAndRun(ctx, &y), RKNN_ERR_FAIL);
  g_seen.init_result = 0;
  ASSERT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_SUCC);
  EXPECT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_ERR_PARAM_INVALID);  // already registered

  // A call is all or nothing: a failing init takes back every type of it, so the same array registers again.
  ASSERT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  ASSERT_EQ(InitFromBytes(&ctx, model), RKNN_SUCC);
  rknn_custom_op pair[2] = {SoftplusOp(), SoftplusOp()};
  std::strncpy(pair[0].op_type, "cstOther", RKNN_MAX_NAME_LEN - 1);
  g_seen.init_result = -1;
  EXPECT_EQ(rknn_register_custom_ops(ctx, pair, 2), RKNN_ERR_FAIL);
  g_seen.init_result = 0;
  ASSERT_EQ(rknn_register_custom_ops(ctx, pair, 2), RKNN_SUCC);

  // A compute that fails fails the run, with its code in the log.
  g_seen.compute_result = -3;
  EXPECT_EQ(SetInputAndRun(ctx, &y), RKNN_ERR_FAIL);
  g_seen.compute_result = kThrow;  // a C++ callback that throws: a failed run, not a crash
  EXPECT_EQ(SetInputAndRun(ctx, &y), RKNN_ERR_FAIL);
  g_seen.compute_result = 0;
  ASSERT_EQ(SetInputAndRun(ctx, &y), RKNN_SUCC);
  ExpectSoftplusPlusX(y);

  // rknn_custom_op_get_op_attr outside a callback's context: a zeroed attribute, no crash.
  rknn_custom_op_attr attr;
  std::memset(&attr, 0x5a, sizeof(attr));
  rknn_custom_op_get_op_attr(nullptr, "beta", &attr);
  EXPECT_EQ(attr.n_elems, 0u);
  EXPECT_EQ(attr.data, nullptr);
  rknn_custom_op_context garbage;
  std::memset(&garbage, 0, sizeof(garbage));
  garbage.internal_ctx = 0x1234;
  std::memset(&attr, 0x5a, sizeof(attr));
  rknn_custom_op_get_op_attr(&garbage, "beta", &attr);
  EXPECT_EQ(attr.n_elems, 0u);
  EXPECT_EQ(attr.data, nullptr);
  rknn_custom_op_get_op_attr(&garbage, nullptr, &attr);
  rknn_custom_op_get_op_attr(&garbage, "beta", nullptr);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST_F(CustomOp, RegisteringATypeTheModelLacksIsAcceptedAndUnused) {
  const std::vector<uint8_t> model = SoftplusModel();
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, model), RKNN_SUCC);
  rknn_custom_op ops[2] = {SoftplusOp(), SoftplusOp()};
  std::strncpy(ops[1].op_type, "cstOther", RKNN_MAX_NAME_LEN - 1);  // a plugin set may hold more types
  ASSERT_EQ(rknn_register_custom_ops(ctx, ops, 2), RKNN_SUCC);
  EXPECT_EQ(g_seen.init, 1);
  std::vector<float> y;
  ASSERT_EQ(SetInputAndRun(ctx, &y), RKNN_SUCC);
  ExpectSoftplusPlusX(y);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST_F(CustomOp, AsyncRunsCallTheCallbacksOnTheWorker) {
  const std::vector<uint8_t> model = SoftplusModel();
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, model, RKNN_FLAG_ASYNC_MASK), RKNN_SUCC);
  rknn_custom_op op = SoftplusOp();
  ASSERT_EQ(rknn_register_custom_ops(ctx, &op, 1), RKNN_SUCC);
  std::vector<float> y;
  ASSERT_EQ(SetInputAndRun(ctx, &y), RKNN_SUCC);  // the first frame's outputs come with the second run
  ASSERT_EQ(SetInputAndRun(ctx, &y), RKNN_SUCC);
  ExpectSoftplusPlusX(y);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  EXPECT_EQ(g_seen.destroy, 1);
}

}  // namespace
}  // namespace apitest
