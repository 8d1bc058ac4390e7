// RKNN_FLAG_SHARE_WEIGHT_MEM: a model converted with remove_weight takes its weights from the model of
// the context named in extend->ctx (the vendor's "one full model, several weightless ones" flow).
//
// Fixture: x[b, N] -> Add(c[1, N]) -> Mul(d[1, N]) -> Add(e[1]) -> y, N = 2^20: c and d are 4 MiB each
// (shared), e is 4 bytes (kept in every file). c[i] = (i % 64) / 16, d[i] = 1 + (i % 8) / 8, e = 0.5:
// fp16 values, so the float16 models compute the same numbers. Oracle: the formula per element.
#include <fstream>
#include <string>
#include <vector>

#include "api_test_util.h"
#include "compiler/emit/emitter.h"
#include "tests/common/temp_files.h"

namespace apitest {
namespace {

constexpr int64_t kN = int64_t{1} << 20;

float C(int64_t i) { return static_cast<float>(i % 64) / 16.0f; }
float D(int64_t i) { return 1.0f + static_cast<float>(i % 8) / 8.0f; }
constexpr float kE = 0.5f;

std::vector<uint8_t> Model(int64_t batch, bool remove_weight, npurt::DataType float_dtype = npurt::DataType::kFloat32,
                           float c_scale = 1.0f) {
  npurt::compiler::Graph g;
  const int x = g.AddTensor("x", {batch, kN}, npurt::DataType::kFloat32);
  g.AddInput(x);
  std::vector<float> c(kN), d(kN);
  for (int64_t i = 0; i < kN; ++i) {
    c[i] = C(i) * c_scale;
    d[i] = D(i);
  }
  const int ct = g.AddFloatConstant("c", {1, kN}, c);
  const int dt = g.AddFloatConstant("d", {1, kN}, d);
  const int et = g.AddFloatConstant("e", {1}, {kE});
  const int s = g.AddNode("Add", {x, ct}, {}, 1, "add_c");
  const int p = g.AddNode("Mul", {s, dt}, {}, 1, "mul_d");
  const int y = g.AddNode("Add", {p, et}, {}, 1, "add_e");
  g.tensors()[y].name = "y";
  g.AddOutput(y);
  EXPECT_TRUE(g.InferShapes().ok());
  npurt::compiler::EmitOptions o;
  o.remove_weight = remove_weight;
  o.float_dtype = float_dtype;
  std::vector<uint8_t> file;
  const npurt::Status st = npurt::compiler::EmitModel(g, o, &file);
  EXPECT_TRUE(st.ok()) << st.message();
  return file;
}

// Runs x[b, N] with x[r][i] = (r + 1) * ((i % 5) - 2) / 4 and checks y against the formula.
void RunAndCheck(rknn_context ctx, int64_t batch) {
  std::vector<float> x(static_cast<size_t>(batch * kN));
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t i = 0; i < kN; ++i) x[r * kN + i] = static_cast<float>(r + 1) * static_cast<float>(i % 5 - 2) / 4.0f;
  }
  rknn_input in;
  std::memset(&in, 0, sizeof(in));
  in.buf = x.data();
  in.size = static_cast<uint32_t>(x.size() * sizeof(float));
  in.type = RKNN_TENSOR_FLOAT32;
  in.fmt = RKNN_TENSOR_UNDEFINED;
  ASSERT_EQ(rknn_inputs_set(ctx, 1, &in), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx, nullptr), RKNN_SUCC);
  rknn_output out;
  std::memset(&out, 0, sizeof(out));
  out.want_float = 1;
  ASSERT_EQ(rknn_outputs_get(ctx, 1, &out, nullptr), RKNN_SUCC);
  const float* y = static_cast<const float*>(out.buf);
  int64_t wrong = 0;
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t i = 0; i < kN; ++i) {
      const float want = (x[r * kN + i] + C(i)) * D(i) + kE;  // exact in float32 and in fp16 here
      wrong += y[r * kN + i] != want;
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(rknn_outputs_release(ctx, 1, &out), RKNN_SUCC);
}

int InitShared(rknn_context* ctx, const std::vector<uint8_t>& model, rknn_context owner, uint32_t extra_flags = 0) {
  rknn_init_extend extend;
  std::memset(&extend, 0, sizeof(extend));
  extend.ctx = owner;
  return rknn_init(ctx, const_cast<uint8_t*>(model.data()), static_cast<uint32_t>(model.size()),
                   RKNN_FLAG_SHARE_WEIGHT_MEM | extra_flags, &extend);
}

// Resident memory of this process, from /proc/self/statm.
int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
}

TEST(SharedWeights, WeightlessModelRunsOnTheWeightsOfAnotherContext) {
  const std::vector<uint8_t> full = Model(1, false);
  const std::vector<uint8_t> weightless = Model(3, true);  // another input shape, the same weights
  EXPECT_LT(weightless.size(), full.size() / 100) << "the 8 MiB of c and d are left out";
  rknn_context a = 0, b = 0;
  ASSERT_EQ(InitFromBytes(&a, full), RKNN_SUCC);
  ASSERT_EQ(InitShared(&b, weightless, a), RKNN_SUCC);
  RunAndCheck(a, 1);
  RunAndCheck(b, 3);
  // The weights' memory is counted by the context that owns it.
  rknn_mem_size mem;
  ASSERT_EQ(rknn_query(b, RKNN_QUERY_MEM_SIZE, &mem, sizeof(mem)), RKNN_SUCC);
  EXPECT_LT(mem.total_weight_size, 1024u);
  // The owner may go first: the weights live as long as a context reads them.
  EXPECT_EQ(rknn_destroy(a), RKNN_SUCC);
  RunAndCheck(b, 3);
  // A duplicate and a context sharing from a sharing context read the same weights.
  rknn_context dup = 0, c = 0;
  ASSERT_EQ(rknn_dup_context(&b, &dup), RKNN_SUCC);
  ASSERT_EQ(InitShared(&c, Model(2, true), b), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(b), RKNN_SUCC);
  RunAndCheck(dup, 3);
  RunAndCheck(c, 2);
  EXPECT_EQ(rknn_destroy(dup), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(c), RKNN_SUCC);
}

TEST(SharedWeights, Float16ModelsShareTheirWidenedWeights) {
  const std::vector<uint8_t> full = Model(1, false, npurt::DataType::kFloat16);
  const std::vector<uint8_t> weightless = Model(2, true, npurt::DataType::kFloat16);
  rknn_context a = 0, b = 0;
  ASSERT_EQ(InitFromBytes(&a, full), RKNN_SUCC);
  ASSERT_EQ(InitShared(&b, weightless, a), RKNN_SUCC);
  RunAndCheck(b, 2);
  // A float32 owner does not hold the fp16 model's stored weights: named, not guessed.
  rknn_context f32 = 0, refused = 0;
  ASSERT_EQ(InitFromBytes(&f32, Model(1, false)), RKNN_SUCC);
  EXPECT_EQ(InitShared(&refused, weightless, f32), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(rknn_destroy(a), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(b), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(f32), RKNN_SUCC);
}

// Models loaded by path are mapped, and rknn_init reads the whole file (its checksum): its pages become
// resident then, so the growth at init is what the model's own file brings (freed heap, which the
// allocator reuses without growth, plays no part).
TEST(SharedWeights, ResidentMemoryGrowsByTheModelsOwnBytesOnly) {
  npurt::testing::TempDir dir;
  auto write = [&dir](const std::string& name, const std::vector<uint8_t>& bytes) {
    std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                     static_cast<std::streamsize>(bytes.size()));
    return dir / name;
  };
  std::string full = write("full.rknn", Model(1, false));
  std::string full_again = write("full_again.rknn", Model(2, false));
  std::string weightless = write("weightless.rknn", Model(2, true));
  rknn_context a = 0, copy = 0, b = 0;
  ASSERT_EQ(rknn_init(&a, &full[0], 0, 0, nullptr), RKNN_SUCC);
  const int64_t before_copy = ResidentBytes();
  ASSERT_EQ(rknn_init(&copy, &full_again[0], 0, 0, nullptr), RKNN_SUCC);
  const int64_t copy_growth = ResidentBytes() - before_copy;
  const int64_t before_shared = ResidentBytes();
  rknn_init_extend extend;
  std::memset(&extend, 0, sizeof(extend));
  extend.ctx = a;
  ASSERT_EQ(rknn_init(&b, &weightless[0], 0, RKNN_FLAG_SHARE_WEIGHT_MEM, &extend), RKNN_SUCC);
  const int64_t shared_growth = ResidentBytes() - before_shared;
  const int64_t weights = 2 * kN * static_cast<int64_t>(sizeof(float));
  std::printf("resident growth at rknn_init: a second full model %.2f MiB, a remove_weight model sharing "
              "the first's weights %.2f MiB (weights %.2f MiB)\n",
              copy_growth / 1048576.0, shared_growth / 1048576.0, weights / 1048576.0);
  EXPECT_GE(copy_growth, weights * 9 / 10);
  EXPECT_LT(shared_growth, weights / 8);
  EXPECT_EQ(rknn_destroy(copy), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(b), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(a), RKNN_SUCC);
}

TEST(SharedWeights, MisuseGetsCodesAndSaysWhy) {
  const std::vector<uint8_t> full = Model(1, false);
  const std::vector<uint8_t> weightless = Model(2, true);
  rknn_context a = 0, b = 0;
  ASSERT_EQ(InitFromBytes(&a, full), RKNN_SUCC);
  // Without the flag a weightless model cannot run: refused at init, not at the first run.
  EXPECT_EQ(InitFromBytes(&b, weightless), RKNN_ERR_MODEL_INVALID);
  // The flag without extend, or with a context that is not one.
  EXPECT_EQ(rknn_init(&b, const_cast<uint8_t*>(weightless.data()), static_cast<uint32_t>(weightless.size()),
                      RKNN_FLAG_SHARE_WEIGHT_MEM, nullptr),
            RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(InitShared(&b, weightless, 0), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(InitShared(&b, weightless, a + 1000), RKNN_ERR_CTX_INVALID);
  // Other weights (c scaled by 2): the constants are not found, so nothing wrong is computed.
  rknn_context other = 0;
  ASSERT_EQ(InitFromBytes(&other, Model(1, false, npurt::DataType::kFloat32, 2.0f)), RKNN_SUCC);
  EXPECT_EQ(InitShared(&b, weightless, other), RKNN_ERR_MODEL_INVALID);
  // Weights in application memory are not shared.
  EXPECT_EQ(InitShared(&b, weightless, a, RKNN_FLAG_MEM_ALLOC_OUTSIDE), RKNN_ERR_PARAM_INVALID);
  // A lender whose model is read in place from the application's own buffer, which may be freed first.
  const size_t padded = (full.size() + 63) / 64 * 64;
  uint8_t* buffer = static_cast<uint8_t*>(std::aligned_alloc(64, padded));
  ASSERT_NE(buffer, nullptr);
  std::memcpy(buffer, full.data(), full.size());
  rknn_init_extend in_place;
  std::memset(&in_place, 0, sizeof(in_place));
  in_place.real_model_size = static_cast<uint32_t>(full.size());
  rknn_context borrowed = 0;
  ASSERT_EQ(rknn_init(&borrowed, buffer, static_cast<uint32_t>(full.size()), RKNN_FLAG_MODEL_BUFFER_ZERO_COPY,
                      &in_place),
            RKNN_SUCC);
  EXPECT_EQ(InitShared(&b, weightless, borrowed), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_destroy(borrowed), RKNN_SUCC);
  std::free(buffer);
  // The same in runtime memory (rknn_create_mem): the sharer keeps it alive, so it may lend.
  rknn_tensor_mem* mem = rknn_create_mem2(0, static_cast<uint64_t>(full.size()), RKNN_MEM_FLAG_ALLOC_NO_CONTEXT);
  ASSERT_NE(mem, nullptr);
  std::memcpy(mem->virt_addr, full.data(), full.size());
  ASSERT_EQ(rknn_init(&borrowed, mem->virt_addr, static_cast<uint32_t>(full.size()), RKNN_FLAG_MODEL_BUFFER_ZERO_COPY,
                      &in_place),
            RKNN_SUCC);
  ASSERT_EQ(InitShared(&b, weightless, borrowed), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(borrowed), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(0, mem), RKNN_SUCC);
  RunAndCheck(b, 2);
  EXPECT_EQ(rknn_destroy(b), RKNN_SUCC);
  // A full model with the flag runs on its own weights.
  ASSERT_EQ(InitShared(&b, Model(2, false), a), RKNN_SUCC);
  RunAndCheck(b, 2);
  EXPECT_EQ(rknn_destroy(b), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(other), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(a), RKNN_SUCC);
}

}  // namespace
}  // namespace apitest
