// rknn_init / rknn_destroy: model sources (buffer, path), rejected models,
// flags, buffer ownership, handle lifetime.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <set>

#include "api_test_util.h"

namespace apitest {
namespace {

constexpr rknn_context kSentinel = static_cast<rknn_context>(0x5a5a5a5au);

// A file in the test temp dir, removed at scope exit.
class TempFile {
 public:
  explicit TempFile(const std::vector<uint8_t>& bytes) {
    std::string tmpl = ::testing::TempDir() + "npurt_api_model_XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) return;
    path_ = buf.data();
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::close(fd);
    ok_ = done == bytes.size();
  }
  ~TempFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }
  void Remove() { ::unlink(path_.c_str()); }

 private:
  std::string path_;
  bool ok_ = false;
};

int InitPath(rknn_context* ctx, const std::string& path, uint32_t flags = 0) {
  return rknn_init(ctx, const_cast<char*>(path.c_str()), 0, flags, nullptr);
}

// Expects rknn_init on `bytes` to fail with `code` and leave the handle untouched.
void ExpectInitFails(const std::vector<uint8_t>& bytes, int code, const std::string& what) {
  rknn_context ctx = kSentinel;
  std::vector<uint8_t> copy = bytes;  // non-empty storage even for a 0-byte model
  copy.push_back(0);
  EXPECT_EQ(rknn_init(&ctx, copy.data(), static_cast<uint32_t>(bytes.size()), 0, nullptr), code) << what;
  EXPECT_EQ(ctx, kSentinel) << what << ": *context must be written only on success";
  if (ctx != kSentinel && ctx != 0) rknn_destroy(ctx);
}

TEST(InitTest, FromBufferRunsAndComputes) {
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel()), RKNN_SUCC);
  EXPECT_NE(ctx, 0u);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx, 0, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 0));
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST(InitTest, FromPathWithSizeZero) {
  TempFile file(ConvReluPoolModel());
  ASSERT_TRUE(file.ok());
  rknn_context ctx = 0;
  ASSERT_EQ(InitPath(&ctx, file.path()), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx, 1, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 1));
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST(InitTest, FileMayBeDeletedAfterInit) {
  TempFile file(ConvReluPoolModel());
  ASSERT_TRUE(file.ok());
  rknn_context ctx = 0;
  ASSERT_EQ(InitPath(&ctx, file.path()), RKNN_SUCC);
  file.Remove();
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx, 2, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 2));
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST(InitTest, ModelBufferMayBeFreedRightAfterInit) {
  auto* buffer = new std::vector<uint8_t>(ConvReluPoolModel());
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, *buffer), RKNN_SUCC);
  std::memset(buffer->data(), 0xAB, buffer->size());  // scribble, then free
  delete buffer;
  // Allocate a same-sized block so the freed memory is likely reused with junk.
  std::vector<uint8_t> junk(ConvReluPoolModel().size(), 0xCD);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx, 3, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 3));
  rknn_input_output_num num{};
  ASSERT_EQ(rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), RKNN_SUCC);
  EXPECT_EQ(num.n_input, 1u);
  EXPECT_EQ(num.n_output, 2u);
  rknn_custom_string cs;
  ASSERT_EQ(rknn_query(ctx, RKNN_QUERY_CUSTOM_STRING, &cs, sizeof(cs)), RKNN_SUCC);
  EXPECT_STREQ(cs.string, kCustomString);
  EXPECT_EQ(junk[0], 0xCD);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST(InitTest, ExtendMayBeGivenWithoutFlags) {
  rknn_init_extend ext;
  std::memset(&ext, 0, sizeof(ext));
  rknn_context ctx = 0;
  std::vector<uint8_t> model = ConvReluPoolModel();
  ASSERT_EQ(rknn_init(&ctx, model.data(), static_cast<uint32_t>(model.size()), 0, &ext), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(RunOnce(ctx, 0, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 0));
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST(InitTest, NullContextPointerIsParamInvalid) {
  std::vector<uint8_t> model = ConvReluPoolModel();
  EXPECT_EQ(rknn_init(nullptr, model.data(), static_cast<uint32_t>(model.size()), 0, nullptr),
            RKNN_ERR_PARAM_INVALID);
}

TEST(InitTest, NullModelIsParamInvalid) {
  rknn_context ctx = kSentinel;
  EXPECT_EQ(rknn_init(&ctx, nullptr, 100, 0, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_init(&ctx, nullptr, 0, 0, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ctx, kSentinel);
}

TEST(InitTest, MissingFileIsModelInvalid) {
  rknn_context ctx = kSentinel;
  const std::string path = ::testing::TempDir() + "npurt_api_definitely_missing_model.rknn";
  ::unlink(path.c_str());
  EXPECT_EQ(InitPath(&ctx, path), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(ctx, kSentinel);
}

TEST(InitTest, DirectoryPathIsModelInvalid) {
  rknn_context ctx = kSentinel;
  EXPECT_EQ(InitPath(&ctx, ::testing::TempDir()), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(ctx, kSentinel);
}

TEST(InitTest, EmptyFileIsModelInvalid) {
  TempFile file(std::vector<uint8_t>{});
  ASSERT_FALSE(file.path().empty());
  rknn_context ctx = kSentinel;
  EXPECT_EQ(InitPath(&ctx, file.path()), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(ctx, kSentinel);
}

TEST(InitTest, CorruptFileOnDiskIsModelInvalid) {
  std::vector<uint8_t> bytes = ConvReluPoolModel();
  bytes[bytes.size() / 2] ^= 0x40;
  TempFile file(bytes);
  ASSERT_TRUE(file.ok());
  rknn_context ctx = kSentinel;
  EXPECT_EQ(InitPath(&ctx, file.path()), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(ctx, kSentinel);
}

TEST(InitTest, CorruptedBytesAreModelInvalid) {
  const std::vector<uint8_t>& good = ConvReluPoolModel();
  ASSERT_GT(good.size(), 256u);
  // Magic, version, payload start, middle, weights, last byte.
  const size_t positions[] = {0, 3, 8, 16, 70, 100, good.size() / 2, good.size() - 100, good.size() - 1};
  for (size_t pos : positions) {
    std::vector<uint8_t> bad = good;
    bad[pos] ^= 0x5a;
    ExpectInitFails(bad, RKNN_ERR_MODEL_INVALID, "byte " + std::to_string(pos) + " flipped");
  }
}

TEST(InitTest, TruncatedModelIsModelInvalid) {
  const std::vector<uint8_t>& good = ConvReluPoolModel();
  const size_t sizes[] = {1, 4, 16, 63, 64, 65, good.size() / 2, good.size() - 64, good.size() - 1};
  for (size_t n : sizes) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<long>(n));
    ExpectInitFails(cut, RKNN_ERR_MODEL_INVALID, "truncated to " + std::to_string(n) + " bytes");
  }
}

TEST(InitTest, GarbageIsModelInvalid) {
  std::vector<uint8_t> garbage(4096);
  uint32_t state = 12345;
  for (uint8_t& b : garbage) {
    state = state * 1103515245u + 12345u;
    b = static_cast<uint8_t>(state >> 24);
  }
  ExpectInitFails(garbage, RKNN_ERR_MODEL_INVALID, "random bytes");
  ExpectInitFails(std::vector<uint8_t>(4096, 0), RKNN_ERR_MODEL_INVALID, "zeros");
}

TEST(InitTest, VendorRknnModelIsModelInvalid) {
  // The start of a real rknn-toolkit2 file: "RKNN" magic, then a version field.
  std::vector<uint8_t> vendor(4096, 0);
  std::memcpy(vendor.data(), "RKNN", 4);
  vendor[8] = 6;
  ExpectInitFails(vendor, RKNN_ERR_MODEL_INVALID, "vendor .rknn");
  TempFile file(vendor);
  ASSERT_TRUE(file.ok());
  rknn_context ctx = kSentinel;
  EXPECT_EQ(InitPath(&ctx, file.path()), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(ctx, kSentinel);
}

TEST(InitTest, UnsupportedFlagsAreParamInvalid) {
  // RKNN_FLAG_SHARE_WEIGHT_MEM: tests/api/shared_weights_test.cc.
  const uint32_t unsupported[] = {RKNN_FLAG_FENCE_IN_OUTSIDE, RKNN_FLAG_FENCE_OUT_OUTSIDE,
                                  RKNN_FLAG_FENCE_IN_OUTSIDE | RKNN_FLAG_COLLECT_PERF_MASK};
  for (uint32_t flag : unsupported) {
    rknn_context ctx = kSentinel;
    EXPECT_EQ(InitFromBytes(&ctx, ConvReluPoolModel(), flag), RKNN_ERR_PARAM_INVALID) << "flag 0x" << std::hex << flag;
    EXPECT_EQ(ctx, kSentinel);
  }
}

rknn_mem_size MemSize(rknn_context ctx) {
  rknn_mem_size m{};
  EXPECT_EQ(rknn_query(ctx, RKNN_QUERY_MEM_SIZE, &m, sizeof(m)), RKNN_SUCC);
  return m;
}

// RKNN_FLAG_MODEL_BUFFER_ZERO_COPY as the vendor's demos use it: the model copied once into memory of
// rknn_create_mem2, whose fd, flags and offset go into rknn_init_extend; the context reads it there.
TEST(InitTest, ModelBufferZeroCopyReadsTheModelInPlace) {
  const std::vector<uint8_t>& bytes = ConvReluPoolModel();
  const uint32_t offset = 128;  // the model at an offset into a larger buffer
  rknn_tensor_mem* mem = rknn_create_mem2(0, offset + bytes.size() + 64, RKNN_MEM_FLAG_ALLOC_NO_CONTEXT);
  ASSERT_NE(mem, nullptr);
  std::memcpy(static_cast<uint8_t*>(mem->virt_addr) + offset, bytes.data(), bytes.size());
  rknn_init_extend extend{};
  extend.real_model_offset = static_cast<int32_t>(offset);
  extend.real_model_size = static_cast<uint32_t>(bytes.size());
  extend.model_buffer_fd = mem->fd;
  extend.model_buffer_flags = mem->flags;
  rknn_context ctx = 0;
  ASSERT_EQ(rknn_init(&ctx, mem->virt_addr, mem->size, RKNN_FLAG_MODEL_BUFFER_ZERO_COPY, &extend), RKNN_SUCC);
  // The application may free its handle: the context keeps the memory it reads (ASan checks the run).
  EXPECT_EQ(rknn_destroy_mem(0, mem), RKNN_SUCC);
  std::vector<float> y, z, ref_y, ref_z;
  ASSERT_EQ(RunOnce(ctx, 3, &y, &z), RKNN_SUCC);
  ScopedContext copied(bytes);
  ASSERT_EQ(copied.init_result(), RKNN_SUCC);
  ASSERT_EQ(RunOnce(copied.get(), 3, &ref_y, &ref_z), RKNN_SUCC);
  EXPECT_EQ(y, ref_y);
  EXPECT_EQ(z, ref_z);
  EXPECT_TRUE(AllNear(y.data(), Oracle(3).y, "y"));
  // Not copied: the weights are not allocated again (the model's memory is the application's).
  const rknn_mem_size in_place = MemSize(ctx), normal = MemSize(copied.get());
  EXPECT_GT(normal.total_weight_size, 0u);
  EXPECT_EQ(in_place.total_weight_size, normal.total_weight_size);
  EXPECT_EQ(in_place.total_dma_allocated_size + normal.total_weight_size, normal.total_dma_allocated_size);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST(InitTest, ModelBufferZeroCopyRejectsWhatItCannotReadInPlace) {
  const std::vector<uint8_t>& bytes = ConvReluPoolModel();
  rknn_tensor_mem* mem = rknn_create_mem2(0, bytes.size() + 64, RKNN_MEM_FLAG_ALLOC_NO_CONTEXT);
  ASSERT_NE(mem, nullptr);
  std::memcpy(static_cast<uint8_t*>(mem->virt_addr) + 1, bytes.data(), bytes.size());
  const uint32_t flag = RKNN_FLAG_MODEL_BUFFER_ZERO_COPY;
  rknn_init_extend extend{};
  rknn_context ctx = kSentinel;
  extend.real_model_offset = 1;  // not 64-byte aligned: the weights could not be read in place
  EXPECT_EQ(rknn_init(&ctx, mem->virt_addr, mem->size, flag, &extend), RKNN_ERR_PARAM_INVALID);
  extend.real_model_offset = -64;
  EXPECT_EQ(rknn_init(&ctx, mem->virt_addr, mem->size, flag, &extend), RKNN_ERR_PARAM_INVALID);
  extend.real_model_offset = 64;
  extend.real_model_size = mem->size;  // past the buffer
  EXPECT_EQ(rknn_init(&ctx, mem->virt_addr, mem->size, flag, &extend), RKNN_ERR_PARAM_INVALID);
  char path[] = "/nonexistent.rknn";
  EXPECT_EQ(rknn_init(&ctx, path, 0, flag, nullptr), RKNN_ERR_PARAM_INVALID);  // a path is not a buffer
  // A corrupt model in place is as invalid as a copied one.
  extend = rknn_init_extend{};
  std::memset(mem->virt_addr, 0xab, 256);
  EXPECT_EQ(rknn_init(&ctx, mem->virt_addr, mem->size, flag, &extend), RKNN_ERR_MODEL_INVALID);
  EXPECT_EQ(ctx, kSentinel);
  EXPECT_EQ(rknn_destroy_mem(0, mem), RKNN_SUCC);
}

TEST(InitTest, AcceptedFlagsRunNormally) {
  const uint32_t accepted[] = {RKNN_FLAG_PRIOR_HIGH,
                               RKNN_FLAG_PRIOR_MEDIUM,
                               RKNN_FLAG_PRIOR_LOW,
                               RKNN_FLAG_COLLECT_PERF_MASK,
                               RKNN_FLAG_EXECUTE_FALLBACK_PRIOR_DEVICE_GPU,
                               RKNN_FLAG_ENABLE_SRAM,
                               RKNN_FLAG_ENABLE_SRAM | RKNN_FLAG_SHARE_SRAM,
                               RKNN_FLAG_DISABLE_PROC_HIGH_PRIORITY,
                               RKNN_FLAG_PRIOR_LOW | RKNN_FLAG_COLLECT_PERF_MASK | RKNN_FLAG_DISABLE_PROC_HIGH_PRIORITY};
  for (uint32_t flag : accepted) {
    rknn_context ctx = 0;
    ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel(), flag), RKNN_SUCC) << "flag 0x" << std::hex << flag;
    std::vector<float> y, z;
    ASSERT_EQ(RunOnce(ctx, 4, &y, &z), RKNN_SUCC) << "flag 0x" << std::hex << flag;
    EXPECT_TRUE(OutputsMatch(y, z, 4)) << "flag 0x" << std::hex << flag;
    EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  }
}

TEST(InitTest, HandlesAreDistinctAndNeverReused) {
  std::set<rknn_context> seen;
  std::vector<rknn_context> live;
  for (int i = 0; i < 20; ++i) {
    rknn_context ctx = 0;
    ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel()), RKNN_SUCC);
    EXPECT_NE(ctx, 0u);
    EXPECT_TRUE(seen.insert(ctx).second) << "handle " << ctx << " handed out twice";
    if (i % 2 == 0) {
      EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);  // destroy half right away: must not be reused
    } else {
      live.push_back(ctx);
    }
  }
  for (rknn_context ctx : live) EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
}

TEST(DestroyTest, ZeroContextIsCtxInvalid) { EXPECT_EQ(rknn_destroy(0), RKNN_ERR_CTX_INVALID); }

TEST(DestroyTest, UnknownContextIsCtxInvalid) { EXPECT_EQ(rknn_destroy(kUnknownContext), RKNN_ERR_CTX_INVALID); }

TEST(DestroyTest, DestroyTwiceIsCtxInvalid) {
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel()), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_ERR_CTX_INVALID);
}

TEST(DestroyTest, DestroyingOneContextLeavesOthersWorking) {
  rknn_context a = 0, b = 0;
  ASSERT_EQ(InitFromBytes(&a, ConvReluPoolModel()), RKNN_SUCC);
  ASSERT_EQ(InitFromBytes(&b, ConvReluPoolModel()), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(b, 5), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(a), RKNN_SUCC);
  ASSERT_EQ(rknn_run(b, nullptr), RKNN_SUCC);
  std::vector<float> y, z;
  ASSERT_EQ(GetFloatOutputs(b, &y, &z), RKNN_SUCC);
  EXPECT_TRUE(OutputsMatch(y, z, 5));
  EXPECT_EQ(rknn_destroy(b), RKNN_SUCC);
}

TEST(DestroyTest, DestroyWithUnreleasedOutputsSucceeds) {
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel()), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(ctx), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx, nullptr), RKNN_SUCC);
  rknn_output out[2];
  std::memset(out, 0, sizeof(out));
  out[0].index = 0;
  out[1].index = 1;
  ASSERT_EQ(rknn_outputs_get(ctx, 2, out, nullptr), RKNN_SUCC);
  EXPECT_EQ(rknn_destroy(ctx), RKNN_SUCC);  // frees the outputs too
  EXPECT_EQ(rknn_outputs_release(ctx, 2, out), RKNN_ERR_CTX_INVALID);
}

TEST(DestroyTest, AnyCallAfterDestroyIsCtxInvalid) {
  rknn_context ctx = 0;
  ASSERT_EQ(InitFromBytes(&ctx, ConvReluPoolModel()), RKNN_SUCC);
  ASSERT_EQ(SetDefaultInput(ctx), RKNN_SUCC);
  ASSERT_EQ(rknn_run(ctx, nullptr), RKNN_SUCC);
  ASSERT_EQ(rknn_destroy(ctx), RKNN_SUCC);
  rknn_input_output_num num{};
  EXPECT_EQ(rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(SetDefaultInput(ctx), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_run(ctx, nullptr), RKNN_ERR_CTX_INVALID);
  std::vector<float> y, z;
  EXPECT_EQ(GetFloatOutputs(ctx, &y, &z), RKNN_ERR_CTX_INVALID);
}

}  // namespace
}  // namespace apitest
