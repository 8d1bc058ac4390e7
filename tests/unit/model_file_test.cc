// The container: round trip through the emitter and parser, and rejection of
// damaged files with kModelInvalid and a message naming the problem.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "format/model_file.h"
#include "format/model_generated.h"
#include "tests/common/test_models.h"

namespace npurt {
namespace {

std::vector<uint8_t> Fixture() { return testing::EmitOrDie(testing::ConvReluPoolGraph(), "rk3566", "hello"); }

ModelFileHeader HeaderOf(const std::vector<uint8_t>& f) {
  ModelFileHeader h;
  std::memcpy(&h, f.data(), sizeof(h));
  return h;
}

TEST(ModelFile, RoundTripKeepsEverything) {
  const std::vector<uint8_t> file = Fixture();
  ModelFileView view;
  ASSERT_TRUE(ParseModelFile(file.data(), file.size(), &view).ok());
  const fb::Model* m = view.model;
  EXPECT_EQ(m->target_platform()->str(), "rk3566");
  EXPECT_EQ(m->custom_string()->str(), "hello");
  EXPECT_EQ(m->ops()->size(), 3u);
  EXPECT_EQ(m->ops()->Get(0)->type()->str(), "Conv");
  EXPECT_EQ(m->inputs()->size(), 1u);
  EXPECT_EQ(m->outputs()->size(), 2u);
  EXPECT_EQ(static_cast<size_t>(view.weights - file.data()) % kWeightAlignment, 0u);
  EXPECT_EQ(view.weights_size % kWeightAlignment, 0u);
  // The conv weight is stored bit-exactly.
  bool found = false;
  for (const fb::Tensor* t : *m->tensors()) {
    if (t->name()->str() != "conv.weight") continue;
    found = true;
    ASSERT_EQ(t->storage(), fb::Storage::CONSTANT);
    const float* w = reinterpret_cast<const float*>(view.weights + t->offset());
    EXPECT_FLOAT_EQ(w[((1 * 3 + 2) * 3 + 1) * 3 + 1], 0.2f);
    EXPECT_FLOAT_EQ(w[0], 0.0f);
  }
  EXPECT_TRUE(found);
  const ModelFileHeader h = HeaderOf(file);
  EXPECT_EQ(std::memcmp(h.magic, "NPURTMDL", 8), 0);
  EXPECT_EQ(h.format_version, kModelFormatVersion);
  EXPECT_EQ(h.header_size, 64u);
}

Status Parse(const std::vector<uint8_t>& f) {
  ModelFileView view;
  return ParseModelFile(f.data(), f.size(), &view);
}

TEST(ModelFile, RejectsTruncationAtEveryLength) {
  const std::vector<uint8_t> file = Fixture();
  for (size_t len = 0; len < file.size(); len += 1 + len / 8) {
    std::vector<uint8_t> cut(file.begin(), file.begin() + len);
    EXPECT_EQ(Parse(cut).code(), StatusCode::kModelInvalid) << len;
  }
}

TEST(ModelFile, RejectsEveryBitFlipSample) {
  const std::vector<uint8_t> file = Fixture();
  std::mt19937 rng(1);
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> bad = file;
    bad[rng() % bad.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    EXPECT_EQ(Parse(bad).code(), StatusCode::kModelInvalid);
  }
}

TEST(ModelFile, NamesVendorModels) {
  std::vector<uint8_t> vendor = {'R', 'K', 'N', 'N', 0, 0, 0, 0, 6, 0, 0, 0};
  vendor.resize(4096, 0);
  const Status s = Parse(vendor);
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("vendor"), std::string::npos);
  EXPECT_NE(s.message().find("npurt convert"), std::string::npos);
}

TEST(ModelFile, NamesBothVersionsWhenNewer) {
  std::vector<uint8_t> file = Fixture();
  ModelFileHeader h = HeaderOf(file);
  h.format_version = kModelFormatVersion + 5;
  std::memcpy(file.data(), &h, sizeof(h));
  const Status s = Parse(file);
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("version " + std::to_string(kModelFormatVersion + 5)), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("version " + std::to_string(kModelFormatVersion)), std::string::npos) << s.message();
}

TEST(ModelFile, RejectsHeaderOffsetsOutsideTheFile) {
  const std::vector<uint8_t> file = Fixture();
  for (int field = 0; field < 4; ++field) {
    std::vector<uint8_t> bad = file;
    ModelFileHeader h = HeaderOf(bad);
    uint64_t* target[] = {&h.payload_offset, &h.payload_size, &h.weights_offset, &h.weights_size};
    *target[field] = UINT64_MAX - 7;
    std::memcpy(bad.data(), &h, sizeof(h));
    ResealModelFile(bad.data(), bad.size());
    EXPECT_EQ(Parse(bad).code(), StatusCode::kModelInvalid) << field;
  }
}

TEST(ModelFile, RejectsRandomBytes) {
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    std::vector<uint8_t> junk(rng() % 4096);
    for (auto& b : junk) b = static_cast<uint8_t>(rng());
    EXPECT_EQ(Parse(junk).code(), StatusCode::kModelInvalid);
  }
}

TEST(ModelFile, RejectsGarbagePayloadBehindAValidChecksum) {
  std::vector<uint8_t> file = Fixture();
  const ModelFileHeader h = HeaderOf(file);
  std::mt19937 rng(5);
  for (uint64_t i = 0; i < h.payload_size; ++i) file[h.payload_offset + i] = static_cast<uint8_t>(rng());
  ResealModelFile(file.data(), file.size());
  EXPECT_EQ(Parse(file).code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt
