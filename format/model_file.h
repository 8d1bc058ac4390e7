// npurt model file container:
//   [ModelFileHeader, 64 bytes][FlatBuffers payload (model.fbs)][pad][weights, 64-byte aligned]
// The header carries a checksum over everything after it, so a truncated or
// corrupted file is rejected before any of it is interpreted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/core/status.h"

namespace npurt {
namespace fb {
struct Model;
}

constexpr char kModelMagic[8] = {'N', 'P', 'U', 'R', 'T', 'M', 'D', 'L'};
constexpr uint32_t kModelFormatVersion = 1;
constexpr size_t kWeightAlignment = 64;

struct ModelFileHeader {
  char magic[8];
  uint32_t format_version;
  uint32_t header_size;
  uint64_t payload_offset;
  uint64_t payload_size;
  uint64_t weights_offset;
  uint64_t weights_size;
  uint64_t checksum;  // over the whole file, this field taken as zero
  uint8_t reserved[8];  // zero
};
static_assert(sizeof(ModelFileHeader) == 64, "the header is part of the file format");

// A verified view into model file bytes (which the caller keeps alive).
struct ModelFileView {
  const fb::Model* model = nullptr;
  const uint8_t* weights = nullptr;
  uint64_t weights_size = 0;
  uint32_t format_version = 0;
};

uint64_t ModelChecksum(const uint8_t* data, size_t size);

// Constants this large or larger carry a content hash (Tensor.content_hash), by which a model converted
// with remove_weight finds its weights in another context's model (RKNN_FLAG_SHARE_WEIGHT_MEM); smaller
// ones (shape vectors, scalars) stay in every file.
constexpr uint64_t kShareableConstantBytes = 1024;
// Never 0 (0 means "no hash").
inline uint64_t ConstantContentHash(const uint8_t* data, size_t size) { return ModelChecksum(data, size) | 1; }

// Checks header, bounds, checksum and the FlatBuffers structure. Structural
// problems give kModelInvalid with a message saying what is wrong; vendor
// (.rknn from rknn-toolkit2) files are recognised and named as such.
Status ParseModelFile(const uint8_t* data, size_t size, ModelFileView* view);

// Assembles a file from a finished FlatBuffers payload and the weight section.
std::vector<uint8_t> AssembleModelFile(const uint8_t* payload, size_t payload_size, const uint8_t* weights,
                                       size_t weights_size);

// Recomputes the header checksum of a file whose bytes were edited in place
// (tests and the fuzzer use it to reach the checks behind the checksum).
void ResealModelFile(uint8_t* data, size_t size);

}  // namespace npurt
