// Weight and internal memory given by the application: RKNN_FLAG_MEM_ALLOC_OUTSIDE,
// RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE, rknn_set_weight_mem, rknn_set_internal_mem,
// and one internal buffer shared by contexts that run one after another
// (rknn_internal_mem_reuse_demo's pattern).
#include "api_test_util.h"

namespace apitest {
namespace {

rknn_mem_size MemSize(rknn_context ctx) {
  rknn_mem_size size;
  std::memset(&size, 0, sizeof(size));
  EXPECT_EQ(rknn_query(ctx, RKNN_QUERY_MEM_SIZE, &size, sizeof(size)), RKNN_SUCC);
  return size;
}

TEST(OutsideMemory, WeightsAndInternalFromTheApplication) {
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_MEM_ALLOC_OUTSIDE);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  ScopedContext plain(ConvReluPoolModel());
  const rknn_mem_size size = MemSize(ctx.get()), plain_size = MemSize(plain.get());
  EXPECT_EQ(size.total_weight_size, plain_size.total_weight_size);
  EXPECT_EQ(size.total_internal_size, plain_size.total_internal_size);
  // The runtime holds neither: what it allocated is the I/O only.
  EXPECT_EQ(size.total_dma_allocated_size + size.total_weight_size + size.total_internal_size,
            plain_size.total_dma_allocated_size);

  ASSERT_EQ(SetDefaultInput(ctx.get(), 1), RKNN_SUCC);
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_FAIL);  // no weight memory yet
  rknn_tensor_mem* weights = rknn_create_mem(ctx.get(), size.total_weight_size);
  rknn_tensor_mem* internal = rknn_create_mem(ctx.get(), size.total_internal_size);
  ASSERT_NE(weights, nullptr);
  ASSERT_NE(internal, nullptr);
  ASSERT_EQ(rknn_set_weight_mem(ctx.get(), weights), RKNN_SUCC);
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_FAIL);  // no internal memory yet
  ASSERT_EQ(rknn_set_internal_mem(ctx.get(), internal), RKNN_SUCC);

  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx.get(), 1, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(AllNear(y.data(), Oracle(1).y, "y"));
  EXPECT_TRUE(AllNear(z.data(), Oracle(1).z, "z"));

  // The ops read the weights where the application put them: zeroed weights and bias give y = relu(0).
  std::memset(weights->virt_addr, 0, weights->size);
  ASSERT_EQ(RunOnce(ctx.get(), 1, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](float v) { return v == 0.0f; }));
  EXPECT_TRUE(AllNear(z.data(), Oracle(1).z, "z"));  // the pool reads no weights

  EXPECT_EQ(rknn_destroy_mem(ctx.get(), weights), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx.get(), internal), RKNN_SUCC);
}

TEST(OutsideMemory, InternalOnly) {
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  const rknn_mem_size size = MemSize(ctx.get());
  ASSERT_EQ(SetDefaultInput(ctx.get(), 2), RKNN_SUCC);
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_FAIL);
  rknn_tensor_mem* internal = rknn_create_mem(ctx.get(), size.total_internal_size);
  ASSERT_NE(internal, nullptr);
  ASSERT_EQ(rknn_set_internal_mem(ctx.get(), internal), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx.get(), 2, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(AllNear(y.data(), Oracle(2).y, "y"));
  EXPECT_EQ(rknn_destroy_mem(ctx.get(), internal), RKNN_SUCC);
}

TEST(OutsideMemory, OneInternalBufferForContextsRunInTurn) {
  ScopedContext a(ConvReluPoolModel(), RKNN_FLAG_MEM_ALLOC_OUTSIDE);
  ScopedContext b(ConvReluPoolModel(), RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE);
  ASSERT_EQ(a.init_result(), RKNN_SUCC);
  ASSERT_EQ(b.init_result(), RKNN_SUCC);
  const rknn_mem_size sa = MemSize(a.get()), sb = MemSize(b.get());
  const uint32_t biggest = std::max(sa.total_internal_size, sb.total_internal_size);
  rknn_tensor_mem* shared = rknn_create_mem(a.get(), biggest);
  ASSERT_NE(shared, nullptr);
  // Each context gets a view of the one allocation, as the vendor's demo does.
  rknn_tensor_mem* view_a = rknn_create_mem_from_fd(a.get(), shared->fd, shared->virt_addr, sa.total_internal_size, 0);
  rknn_tensor_mem* view_b = rknn_create_mem_from_fd(b.get(), shared->fd, shared->virt_addr, sb.total_internal_size, 0);
  rknn_tensor_mem* weights = rknn_create_mem(a.get(), sa.total_weight_size);
  ASSERT_NE(view_a, nullptr);
  ASSERT_NE(view_b, nullptr);
  ASSERT_NE(weights, nullptr);
  ASSERT_EQ(rknn_set_internal_mem(a.get(), view_a), RKNN_SUCC);
  ASSERT_EQ(rknn_set_weight_mem(a.get(), weights), RKNN_SUCC);
  ASSERT_EQ(rknn_set_internal_mem(b.get(), view_b), RKNN_SUCC);
  for (uint32_t round = 0; round < 3; ++round) {
    std::vector<float> y, z;
    ASSERT_EQ(RunOnce(a.get(), round, &y, &z), RKNN_SUCC);
    EXPECT_TRUE(AllNear(y.data(), Oracle(round).y, "a.y"));
    ASSERT_EQ(RunOnce(b.get(), round + 5, &y, &z), RKNN_SUCC);
    EXPECT_TRUE(AllNear(y.data(), Oracle(round + 5).y, "b.y"));
  }
  for (rknn_tensor_mem* m : {view_a, weights, shared}) EXPECT_EQ(rknn_destroy_mem(a.get(), m), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(b.get(), view_b), RKNN_SUCC);
}

TEST(OutsideMemory, WrongMemoryIsRejected) {
  ScopedContext ctx(ConvReluPoolModel(), RKNN_FLAG_MEM_ALLOC_OUTSIDE);
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  const rknn_mem_size size = MemSize(ctx.get());
  ASSERT_GT(size.total_weight_size, 0u);
  ASSERT_GT(size.total_internal_size, 0u);
  rknn_tensor_mem* small = rknn_create_mem(ctx.get(), std::min(size.total_weight_size, size.total_internal_size) - 1);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(rknn_set_weight_mem(ctx.get(), small), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_set_internal_mem(ctx.get(), small), RKNN_ERR_PARAM_INVALID);
  // A view at an offset that breaks the 64-byte alignment of the tensors.
  rknn_tensor_mem* big = rknn_create_mem(ctx.get(), size.total_internal_size + 64);
  ASSERT_NE(big, nullptr);
  rknn_tensor_mem* skewed = rknn_create_mem_from_fd(ctx.get(), big->fd, big->virt_addr, size.total_internal_size, 8);
  ASSERT_NE(skewed, nullptr);
  EXPECT_EQ(rknn_set_internal_mem(ctx.get(), skewed), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_set_weight_mem(ctx.get(), nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_set_internal_mem(0, big), RKNN_ERR_CTX_INVALID);
  ASSERT_EQ(SetDefaultInput(ctx.get()), RKNN_SUCC);
  EXPECT_EQ(rknn_run(ctx.get(), nullptr), RKNN_ERR_FAIL);  // nothing was accepted
  for (rknn_tensor_mem* m : {skewed, big, small}) EXPECT_EQ(rknn_destroy_mem(ctx.get(), m), RKNN_SUCC);

  // A model-info-only context cannot take memory: it never runs.
  ScopedContext info(ConvReluPoolModel(), RKNN_FLAG_COLLECT_MODEL_INFO_ONLY);
  ASSERT_EQ(info.init_result(), RKNN_SUCC);
  rknn_tensor_mem* m = rknn_create_mem(info.get(), size.total_internal_size);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(rknn_set_internal_mem(info.get(), m), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_destroy_mem(info.get(), m), RKNN_SUCC);
}

}  // namespace
}  // namespace apitest
