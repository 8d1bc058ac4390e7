// Zero-copy memory: rknn_create_mem / rknn_create_mem2 / rknn_create_mem_from_fd / _from_phys,
// rknn_set_io_mem for inputs and outputs, rknn_mem_sync, rknn_destroy_mem, and
// the device memory pool (NPURT_DMA_POOL_MB).
//
// Every zero-copy run is checked against the hand oracle and against the
// copying API (rknn_inputs_set / rknn_outputs_get) on the same context.
#include <sys/mman.h>
#include <unistd.h>

#include "api_test_util.h"

namespace apitest {
namespace {

class ZeroCopyTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }

  // Binds a uint8 NHWC input memory and float32 NCHW output memories, as rknn_create_mem_demo does.
  void BindAll() {
    in_attr_ = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
    in_attr_.type = RKNN_TENSOR_UINT8;
    in_attr_.fmt = RKNN_TENSOR_NHWC;
    stride_ = in_attr_.w_stride != 0 ? in_attr_.w_stride : kW;
    in_ = rknn_create_mem(ctx(), stride_ * kH * kC);
    ASSERT_NE(in_, nullptr);
    ASSERT_EQ(rknn_set_io_mem(ctx(), in_, &in_attr_), RKNN_SUCC);
    for (uint32_t i = 0; i < 2; ++i) {
      rknn_tensor_attr a = QueryTensorAttr(ctx(), RKNN_QUERY_OUTPUT_ATTR, i);
      a.type = RKNN_TENSOR_FLOAT32;
      a.fmt = RKNN_TENSOR_NCHW;
      out_[i] = rknn_create_mem(ctx(), a.n_elems * sizeof(float));
      ASSERT_NE(out_[i], nullptr);
      ASSERT_EQ(rknn_set_io_mem(ctx(), out_[i], &a), RKNN_SUCC);
    }
  }

  void TearDown() override {
    for (rknn_tensor_mem* m : {in_, out_[0], out_[1]}) {
      if (m != nullptr) {
        EXPECT_EQ(rknn_destroy_mem(ctx(), m), RKNN_SUCC);
      }
    }
  }

  ::testing::AssertionResult OutputsMatchOracle(uint32_t seed) {
    const ConvReluPoolExpected want = Oracle(seed);
    ::testing::AssertionResult r = AllNear(static_cast<const float*>(out_[0]->virt_addr), want.y, "y");
    if (!r) return r;
    return AllNear(static_cast<const float*>(out_[1]->virt_addr), want.z, "z");
  }

  ScopedContext ctx_{ConvReluPoolModel()};
  rknn_tensor_attr in_attr_{};
  uint32_t stride_ = kW;
  rknn_tensor_mem* in_ = nullptr;
  rknn_tensor_mem* out_[2] = {nullptr, nullptr};
};

TEST_F(ZeroCopyTest, CreateMemDescribesARuntimeBuffer) {
  rknn_tensor_mem* m = rknn_create_mem(ctx(), 1000);
  ASSERT_NE(m, nullptr);
  EXPECT_NE(m->virt_addr, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(m->virt_addr) % 64, 0u);
  EXPECT_GE(m->fd, 0);
  EXPECT_EQ(m->offset, 0);
  EXPECT_EQ(m->size, 1000u);
  EXPECT_EQ(m->flags, static_cast<uint32_t>(RKNN_TENSOR_MEMORY_FLAGS_ALLOC_INSIDE));
  // Zero filled, and the fd maps the same bytes (what another process or a decoder would share).
  const uint8_t* p = static_cast<const uint8_t*>(m->virt_addr);
  EXPECT_TRUE(std::all_of(p, p + 1000, [](uint8_t b) { return b == 0; }));
  void* other = mmap(nullptr, 1000, PROT_READ | PROT_WRITE, MAP_SHARED, m->fd, 0);
  ASSERT_NE(other, MAP_FAILED);
  static_cast<uint8_t*>(other)[999] = 42;
  EXPECT_EQ(p[999], 42);
  munmap(other, 1000);
  EXPECT_EQ(rknn_destroy_mem(ctx(), m), RKNN_SUCC);
}

TEST_F(ZeroCopyTest, RunsFromBoundMemoryEveryRun) {
  BindAll();
  // Each run reads what the input memory holds now, and writes the outputs' memory.
  for (uint32_t seed : {0u, 3u, 7u}) {
    WriteImage(static_cast<uint8_t*>(in_->virt_addr), stride_, seed);
    ASSERT_EQ(rknn_mem_sync(ctx(), in_, RKNN_MEMORY_SYNC_TO_DEVICE), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
    ASSERT_EQ(rknn_mem_sync(ctx(), out_[0], RKNN_MEMORY_SYNC_FROM_DEVICE), RKNN_SUCC);
    EXPECT_TRUE(OutputsMatchOracle(seed)) << "seed " << seed;
  }
}

TEST_F(ZeroCopyTest, EqualsTheCopyingApi) {
  BindAll();
  WriteImage(static_cast<uint8_t*>(in_->virt_addr), stride_, 5);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  std::vector<float> y(static_cast<const float*>(out_[0]->virt_addr),
                       static_cast<const float*>(out_[0]->virt_addr) + kYC * kH * kW);
  // outputs_get still works on a context with bound outputs and gives the same values.
  std::vector<float> got_y, got_z;
  ASSERT_EQ(GetFloatOutputs(ctx(), &got_y, &got_z), RKNN_SUCC);
  EXPECT_EQ(got_y, y);
  // And a second context through the copying API alone gives the same bits.
  ScopedContext other(ConvReluPoolModel());
  std::vector<float> ref_y, ref_z;
  ASSERT_EQ(RunOnce(other.get(), 5, &ref_y, &ref_z), RKNN_SUCC);
  EXPECT_EQ(ref_y, y);
  EXPECT_EQ(0, std::memcmp(ref_z.data(), out_[1]->virt_addr, kC * sizeof(float)));
}

TEST_F(ZeroCopyTest, InputsSetReplacesNothingBoundButRunRereadsTheMemory) {
  BindAll();
  WriteImage(static_cast<uint8_t*>(in_->virt_addr), stride_, 2);
  // rknn_inputs_set writes the input, but the bound memory is read again at rknn_run (as on the board,
  // where the NPU reads the bound buffer).
  ASSERT_EQ(SetDefaultInput(ctx(), 9), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatchOracle(2));
}

TEST_F(ZeroCopyTest, MemoryFromAnFdWithOffset) {
  const int fd = memfd_create("app-buffer", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  const uint32_t offset = 256, bytes = kH * kW * kC;
  ASSERT_EQ(ftruncate(fd, offset + bytes), 0);
  uint8_t* app = static_cast<uint8_t*>(mmap(nullptr, offset + bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  ASSERT_NE(app, MAP_FAILED);
  WriteImage(app + offset, kW, 4);

  rknn_tensor_attr attr = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  attr.type = RKNN_TENSOR_UINT8;
  attr.fmt = RKNN_TENSOR_NHWC;
  attr.w_stride = kW;
  // With the application's mapping, and with none (the runtime maps the fd itself).
  for (void* virt : {static_cast<void*>(app), static_cast<void*>(nullptr)}) {
    rknn_tensor_mem* m = rknn_create_mem_from_fd(ctx(), fd, virt, bytes, static_cast<int32_t>(offset));
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->flags, static_cast<uint32_t>(RKNN_TENSOR_MEMORY_FLAGS_FROM_FD));
    EXPECT_EQ(m->fd, fd);
    EXPECT_EQ(m->offset, static_cast<int32_t>(offset));
    ASSERT_EQ(rknn_set_io_mem(ctx(), m, &attr), RKNN_SUCC);
    ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
    std::vector<float> y, z;
    ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
    EXPECT_TRUE(AllNear(y.data(), Oracle(4).y, "y"));
    EXPECT_EQ(rknn_destroy_mem(ctx(), m), RKNN_SUCC);
  }
  // Past the end of the fd, or a closed fd: no memory.
  EXPECT_EQ(rknn_create_mem_from_fd(ctx(), fd, nullptr, bytes, static_cast<int32_t>(offset) + 1), nullptr);
  munmap(app, offset + bytes);
  close(fd);
  EXPECT_EQ(rknn_create_mem_from_fd(ctx(), fd, nullptr, bytes, 0), nullptr);
  EXPECT_EQ(rknn_create_mem_from_fd(ctx(), -1, nullptr, bytes, 0), nullptr);
}

// Board code that passes physical addresses: rknn_create_mem's phys_addr resolves back to its bytes (at an
// offset, for a part of the buffer), and an application allocator's block comes with its mapping.
TEST_F(ZeroCopyTest, MemoryFromAPhysicalAddress) {
  const uint32_t bytes = kH * kW * kC;
  rknn_tensor_mem* a = rknn_create_mem(ctx(), 2 * bytes + 100);
  rknn_tensor_mem* b = rknn_create_mem(ctx(), 64);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  // Device addresses: non-zero, page aligned, the two buffers' ranges apart.
  EXPECT_NE(a->phys_addr, 0u);
  EXPECT_EQ(a->phys_addr % 4096, 0u);
  EXPECT_EQ(b->phys_addr % 4096, 0u);
  EXPECT_TRUE(b->phys_addr >= a->phys_addr + a->size || a->phys_addr >= b->phys_addr + b->size);

  rknn_tensor_mem* part = rknn_create_mem_from_phys(ctx(), a->phys_addr + bytes, nullptr, bytes);
  ASSERT_NE(part, nullptr);
  EXPECT_EQ(part->virt_addr, static_cast<uint8_t*>(a->virt_addr) + bytes);
  EXPECT_EQ(part->phys_addr, a->phys_addr + bytes);
  EXPECT_EQ(part->size, bytes);
  EXPECT_EQ(part->flags, static_cast<uint32_t>(RKNN_TENSOR_MEMORY_FLAGS_FROM_PHYS));
  rknn_tensor_attr attr = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  attr.type = RKNN_TENSOR_UINT8;
  attr.fmt = RKNN_TENSOR_NHWC;
  attr.w_stride = kW;
  WriteImage(static_cast<uint8_t*>(a->virt_addr) + bytes, kW, 6);  // written through the first mem
  ASSERT_EQ(rknn_set_io_mem(ctx(), part, &attr), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
  EXPECT_TRUE(AllNear(y.data(), Oracle(6).y, "y"));

  // Past the buffer's end, between buffers, or an address npurt never gave: no memory without virt_addr.
  EXPECT_EQ(rknn_create_mem_from_phys(ctx(), a->phys_addr + bytes + 101, nullptr, bytes), nullptr);
  EXPECT_EQ(rknn_create_mem_from_phys(ctx(), a->phys_addr + a->size, nullptr, 1), nullptr);
  EXPECT_EQ(rknn_create_mem_from_phys(ctx(), a->phys_addr - 1, nullptr, 1), nullptr);
  EXPECT_EQ(rknn_create_mem_from_phys(ctx(), a->phys_addr, nullptr, 0), nullptr);
  // Once the buffer's mem is destroyed its address no longer resolves; the part made from it keeps the
  // bytes alive (the run below reads them: ASan would see a use after free).
  const uint64_t a_phys = a->phys_addr;
  a->phys_addr = b->phys_addr;  // the struct is the application's to scribble on; the runtime's record is not
  EXPECT_EQ(rknn_destroy_mem(ctx(), a), RKNN_SUCC);
  EXPECT_EQ(rknn_create_mem_from_phys(ctx(), a_phys, nullptr, 64), nullptr);
  rknn_tensor_mem* b_again = rknn_create_mem_from_phys(ctx(), b->phys_addr, nullptr, 64);
  ASSERT_NE(b_again, nullptr);
  EXPECT_EQ(b_again->virt_addr, b->virt_addr);
  EXPECT_EQ(rknn_destroy_mem(ctx(), b_again), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
  EXPECT_TRUE(AllNear(y.data(), Oracle(6).y, "y"));
  EXPECT_EQ(rknn_destroy_mem(ctx(), part), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx(), b), RKNN_SUCC);

  // The application's own physical block (an MMZ allocation on a board): its mapping is what is read.
  std::vector<uint8_t> app(bytes);
  WriteImage(app.data(), kW, 8);
  rknn_tensor_mem* mmz = rknn_create_mem_from_phys(ctx(), 0x3a000000u, app.data(), bytes);
  ASSERT_NE(mmz, nullptr);
  EXPECT_EQ(mmz->virt_addr, app.data());
  EXPECT_EQ(mmz->phys_addr, 0x3a000000u);
  EXPECT_EQ(mmz->fd, -1);
  ASSERT_EQ(rknn_set_io_mem(ctx(), mmz, &attr), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  ASSERT_EQ(GetFloatOutputs(ctx(), &y, &z), RKNN_SUCC);
  EXPECT_TRUE(AllNear(y.data(), Oracle(8).y, "y"));
  EXPECT_EQ(rknn_destroy_mem(ctx(), mmz), RKNN_SUCC);
}

TEST_F(ZeroCopyTest, DestroyedWhileBoundStaysValidForTheContext) {
  BindAll();
  WriteImage(static_cast<uint8_t*>(in_->virt_addr), stride_, 1);
  // The application frees the struct; the context keeps the memory it reads until rebound or destroyed.
  ASSERT_EQ(rknn_destroy_mem(ctx(), in_), RKNN_SUCC);
  in_ = nullptr;
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatchOracle(1));
}

TEST_F(ZeroCopyTest, CreateMem2Flags) {
  for (uint64_t flags : {uint64_t{RKNN_FLAG_MEMORY_FLAGS_DEFAULT}, uint64_t{RKNN_FLAG_MEMORY_CACHEABLE},
                         uint64_t{RKNN_FLAG_MEMORY_NON_CACHEABLE}, uint64_t{RKNN_FLAG_MEMORY_TRY_ALLOC_SRAM}}) {
    rknn_tensor_mem* m = rknn_create_mem2(ctx(), 4096, flags);
    ASSERT_NE(m, nullptr) << flags;
    EXPECT_EQ(m->size, 4096u);
    EXPECT_EQ(rknn_destroy_mem(ctx(), m), RKNN_SUCC);
  }
  EXPECT_EQ(rknn_create_mem2(ctx(), 64, RKNN_FLAG_MEMORY_CACHEABLE | RKNN_FLAG_MEMORY_NON_CACHEABLE), nullptr);
  EXPECT_EQ(rknn_create_mem2(ctx(), 64, uint64_t{1} << 40), nullptr);
  EXPECT_EQ(rknn_create_mem2(ctx(), uint64_t{1} << 33, 0), nullptr);  // beyond the 32-bit size field
  // Without a context: allocated with ctx 0 and freed by any context, or none.
  rknn_tensor_mem* a = rknn_create_mem2(0, 64, RKNN_MEM_FLAG_ALLOC_NO_CONTEXT);
  rknn_tensor_mem* b = rknn_create_mem2(0, 64, RKNN_MEM_FLAG_ALLOC_NO_CONTEXT | RKNN_FLAG_MEMORY_NON_CACHEABLE);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(rknn_destroy_mem(0, a), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx(), b), RKNN_SUCC);
  EXPECT_EQ(rknn_create_mem2(0, 64, RKNN_FLAG_MEMORY_CACHEABLE), nullptr);  // a context is needed otherwise
}

TEST_F(ZeroCopyTest, BadArgumentsGetTheirCodes) {
  EXPECT_EQ(rknn_create_mem(0, 64), nullptr);
  EXPECT_EQ(rknn_create_mem(ctx(), 0), nullptr);
  EXPECT_EQ(rknn_create_mem_from_phys(ctx(), 0x1000, nullptr, 64), nullptr);
  EXPECT_EQ(rknn_create_mem_from_mb_blk(ctx(), nullptr, 0), nullptr);

  rknn_tensor_attr in = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  in.type = RKNN_TENSOR_UINT8;
  in.fmt = RKNN_TENSOR_NHWC;
  rknn_tensor_mem* m = rknn_create_mem(ctx(), 4096);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(rknn_set_io_mem(0, m, &in), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_set_io_mem(ctx(), nullptr, &in), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_set_io_mem(ctx(), m, nullptr), RKNN_ERR_PARAM_INVALID);
  rknn_tensor_mem forged = *m;  // not made by the runtime
  EXPECT_EQ(rknn_set_io_mem(ctx(), &forged, &in), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_destroy_mem(ctx(), &forged), RKNN_ERR_PARAM_INVALID);

  rknn_tensor_attr bad = in;
  bad.index = 7;
  EXPECT_EQ(rknn_set_io_mem(ctx(), m, &bad), RKNN_ERR_PARAM_INVALID);
  bad = in;
  std::strcpy(bad.name, "no_such_tensor");
  EXPECT_EQ(rknn_set_io_mem(ctx(), m, &bad), RKNN_ERR_PARAM_INVALID);
  bad = in;
  bad.type = static_cast<rknn_tensor_type>(99);
  EXPECT_EQ(rknn_set_io_mem(ctx(), m, &bad), RKNN_ERR_PARAM_INVALID);
  bad = in;
  bad.fmt = RKNN_TENSOR_NC1HWC2;  // an input in NC1HWC2 needs pass_through
  EXPECT_EQ(rknn_set_io_mem(ctx(), m, &bad), RKNN_ERR_PARAM_INVALID);
  // Too small for the attr it is bound with.
  rknn_tensor_mem* small = rknn_create_mem(ctx(), kH * kW * kC - 1);
  ASSERT_NE(small, nullptr);
  in.w_stride = kW;
  EXPECT_EQ(rknn_set_io_mem(ctx(), small, &in), RKNN_ERR_PARAM_INVALID);
  rknn_tensor_attr out = QueryTensorAttr(ctx(), RKNN_QUERY_OUTPUT_ATTR, 0);
  out.type = RKNN_TENSOR_FLOAT32;
  EXPECT_EQ(rknn_set_io_mem(ctx(), small, &out), RKNN_ERR_PARAM_INVALID);
  // The failed binds left the input unset.
  EXPECT_EQ(rknn_run(ctx(), nullptr), RKNN_ERR_INPUT_INVALID);

  EXPECT_EQ(rknn_mem_sync(ctx(), m, static_cast<rknn_mem_sync_mode>(0)), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_mem_sync(ctx(), m, RKNN_MEMORY_SYNC_BIDIRECTIONAL), RKNN_SUCC);
  EXPECT_EQ(rknn_mem_sync(ctx(), nullptr, RKNN_MEMORY_SYNC_TO_DEVICE), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_destroy_mem(0, m), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_destroy_mem(ctx(), m), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx(), m), RKNN_ERR_PARAM_INVALID);  // twice
  EXPECT_EQ(rknn_destroy_mem(ctx(), small), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx(), nullptr), RKNN_ERR_PARAM_INVALID);
}

TEST(ZeroCopyMemSize, DuplicatesCountTheWeightsOnce) {
  ScopedContext a(ConvReluPoolModel());
  ASSERT_EQ(a.init_result(), RKNN_SUCC);
  rknn_context dup = 0;
  rknn_context src = a.get();
  ASSERT_EQ(rknn_dup_context(&src, &dup), RKNN_SUCC);
  rknn_mem_size first{}, second{};
  ASSERT_EQ(rknn_query(a.get(), RKNN_QUERY_MEM_SIZE, &first, sizeof(first)), RKNN_SUCC);
  ASSERT_EQ(rknn_query(dup, RKNN_QUERY_MEM_SIZE, &second, sizeof(second)), RKNN_SUCC);
  EXPECT_EQ(second.total_weight_size, first.total_weight_size);
  EXPECT_EQ(second.total_dma_allocated_size + first.total_weight_size, first.total_dma_allocated_size);
  EXPECT_EQ(rknn_destroy(dup), RKNN_SUCC);
}

// ---------------------------------------------------------------- int8 model

class ZeroCopyInt8Test : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ctx_.init_result(), RKNN_SUCC); }
  rknn_context ctx() const { return ctx_.get(); }
  static const std::vector<uint8_t>& Model() {
    static const std::vector<uint8_t>* model = new std::vector<uint8_t>(npurt::testing::ConvReluPoolInt8Model());
    return *model;
  }
  // The copying API's results for pattern `seed`: int8 codes of y (NCHW) and float y.
  void Reference(uint32_t seed, std::vector<int8_t>* codes, std::vector<float>* y) {
    ScopedContext other(Model());
    ASSERT_EQ(SetDefaultInput(other.get(), seed), RKNN_SUCC);
    ASSERT_EQ(rknn_run(other.get(), nullptr), RKNN_SUCC);
    rknn_output out[2];
    std::memset(out, 0, sizeof(out));
    out[0].index = 0;
    out[1].index = 0;
    out[1].want_float = 1;
    ASSERT_EQ(rknn_outputs_get(other.get(), 1, &out[0], nullptr), RKNN_SUCC);
    ASSERT_EQ(rknn_outputs_get(other.get(), 1, &out[1], nullptr), RKNN_SUCC);
    codes->assign(static_cast<int8_t*>(out[0].buf), static_cast<int8_t*>(out[0].buf) + out[0].size);
    y->assign(static_cast<float*>(out[1].buf), static_cast<float*>(out[1].buf) + out[1].size / sizeof(float));
    rknn_outputs_release(other.get(), 1, &out[0]);
    rknn_outputs_release(other.get(), 1, &out[1]);
  }
  ScopedContext ctx_{Model()};
};

TEST_F(ZeroCopyInt8Test, NativeLayoutsInAndOut) {
  const rknn_tensor_attr native_in = QueryTensorAttr(ctx(), RKNN_QUERY_NATIVE_INPUT_ATTR, 0);
  ASSERT_EQ(native_in.type, RKNN_TENSOR_INT8);
  ASSERT_EQ(native_in.fmt, RKNN_TENSOR_NHWC);
  ASSERT_EQ(native_in.zp, -128);
  ASSERT_FLOAT_EQ(native_in.scale, 1.0f);
  rknn_tensor_attr native_out = QueryTensorAttr(ctx(), RKNN_QUERY_NATIVE_OUTPUT_ATTR, 0);
  ASSERT_EQ(native_out.fmt, RKNN_TENSOR_NC1HWC2);
  ASSERT_EQ(native_out.type, RKNN_TENSOR_INT8);
  const uint32_t c2 = native_out.dims[4], out_stride = native_out.w_stride;

  std::vector<int8_t> want_codes;
  std::vector<float> want_y;
  Reference(6, &want_codes, &want_y);
  ASSERT_EQ(want_codes.size(), kYC * kH * kW);

  // Input: the application quantizes itself (pass_through = 1): q = x - 128, NHWC rows of w_stride.
  const uint32_t in_stride = native_in.w_stride != 0 ? native_in.w_stride : kW;
  rknn_tensor_mem* in = rknn_create_mem(ctx(), native_in.size_with_stride);
  ASSERT_NE(in, nullptr);
  int8_t* q = static_cast<int8_t*>(in->virt_addr);
  for (uint32_t h = 0; h < kH; ++h)
    for (uint32_t w = 0; w < kW; ++w)
      for (uint32_t c = 0; c < kC; ++c) q[(h * in_stride + w) * kC + c] = static_cast<int8_t>(XValue(c, h, w, 6) - 128);
  rknn_tensor_attr in_attr = native_in;
  in_attr.pass_through = 1;
  ASSERT_EQ(rknn_set_io_mem(ctx(), in, &in_attr), RKNN_SUCC);
  // Output 0 in the native NC1HWC2 layout, output 1 as float.
  rknn_tensor_mem* out = rknn_create_mem(ctx(), native_out.size_with_stride);
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(rknn_set_io_mem(ctx(), out, &native_out), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);

  const int8_t* got = static_cast<const int8_t*>(out->virt_addr);
  for (uint32_t c = 0; c < kYC; ++c)
    for (uint32_t h = 0; h < kH; ++h)
      for (uint32_t w = 0; w < kW; ++w) {
        const size_t at = (((c / c2) * kH + h) * out_stride + w) * c2 + c % c2;
        ASSERT_EQ(got[at], want_codes[(c * kH + h) * kW + w]) << c << "," << h << "," << w;
      }
  // The float results equal the oracle within half a step of the convolution's int8 grid (range
  // [-100, 80]) plus half a step of y's (the Relu requantizes).
  const float step = QueryTensorAttr(ctx(), RKNN_QUERY_OUTPUT_ATTR, 0).scale;
  const float tolerance = 0.5f * 180.0f / 255.0f + 0.5f * step + 1e-4f;
  const std::vector<float> oracle = Oracle(6).y;
  for (size_t i = 0; i < oracle.size(); ++i) EXPECT_NEAR(want_y[i], oracle[i], tolerance) << i;
  EXPECT_EQ(rknn_destroy_mem(ctx(), in), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx(), out), RKNN_SUCC);
}

TEST_F(ZeroCopyInt8Test, Uint8ImageQuantizedByTheRuntime) {
  std::vector<int8_t> want_codes;
  std::vector<float> want_y;
  Reference(2, &want_codes, &want_y);
  rknn_tensor_attr in_attr = QueryTensorAttr(ctx(), RKNN_QUERY_INPUT_ATTR, 0);
  in_attr.type = RKNN_TENSOR_UINT8;
  in_attr.fmt = RKNN_TENSOR_NHWC;
  in_attr.pass_through = 0;
  const uint32_t stride = in_attr.w_stride != 0 ? in_attr.w_stride : kW;
  rknn_tensor_mem* in = rknn_create_mem(ctx(), stride * kH * kC);
  ASSERT_NE(in, nullptr);
  WriteImage(static_cast<uint8_t*>(in->virt_addr), stride, 2);
  ASSERT_EQ(rknn_set_io_mem(ctx(), in, &in_attr), RKNN_SUCC);
  rknn_tensor_attr out_attr = QueryTensorAttr(ctx(), RKNN_QUERY_OUTPUT_ATTR, 0);
  out_attr.type = RKNN_TENSOR_FLOAT32;
  rknn_tensor_mem* out = rknn_create_mem(ctx(), out_attr.n_elems * sizeof(float));
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(rknn_set_io_mem(ctx(), out, &out_attr), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx(), nullptr), RKNN_SUCC);
  EXPECT_EQ(0, std::memcmp(out->virt_addr, want_y.data(), want_y.size() * sizeof(float)));
  EXPECT_EQ(rknn_destroy_mem(ctx(), in), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx(), out), RKNN_SUCC);
}

// ---------------------------------------------------------------- the pool
// Run by ctest as api.dma_pool_limit with NPURT_DMA_POOL_MB=1 (the limit is read once per process).

TEST(DmaPoolLimit, ExceedingTheBudgetIsMallocFailAndRecovers) {
  const char* env = std::getenv("NPURT_DMA_POOL_MB");
  ASSERT_TRUE(env != nullptr && std::string(env) == "1") << "run with NPURT_DMA_POOL_MB=1 (ctest api.dma_pool_limit)";
  ScopedContext ctx(ConvReluPoolModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  rknn_tensor_mem* big = rknn_create_mem(ctx.get(), 768 * 1024);
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(rknn_create_mem(ctx.get(), 512 * 1024), nullptr);  // 768 KiB + 512 KiB > 1 MiB
  // A context is device memory too: it cannot be created in a pool with less than its size left.
  rknn_mem_size size{};
  ASSERT_EQ(rknn_query(ctx.get(), RKNN_QUERY_MEM_SIZE, &size, sizeof(size)), RKNN_SUCC);
  const uint64_t context_bytes = size.total_dma_allocated_size;
  ASSERT_GT(context_bytes, 1u);
  rknn_tensor_mem* rest =
      rknn_create_mem(ctx.get(), static_cast<uint32_t>(256 * 1024 - context_bytes - context_bytes / 2));
  ASSERT_NE(rest, nullptr);
  rknn_context second = 0;
  EXPECT_EQ(InitFromBytes(&second, ConvReluPoolModel()), RKNN_ERR_MALLOC_FAIL);
  EXPECT_EQ(second, 0u);
  // Freed memory returns to the pool.
  EXPECT_EQ(rknn_destroy_mem(ctx.get(), big), RKNN_SUCC);
  rknn_tensor_mem* again = rknn_create_mem(ctx.get(), 512 * 1024);
  EXPECT_NE(again, nullptr);
  ASSERT_EQ(InitFromBytes(&second, ConvReluPoolModel()), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(second), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx.get(), again), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy_mem(ctx.get(), rest), RKNN_SUCC);
}

}  // namespace
}  // namespace apitest
