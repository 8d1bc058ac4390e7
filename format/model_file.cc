#include "format/model_file.h"

#include <cstddef>
#include <cstring>

#include "format/model_generated.h"

namespace npurt {
namespace {

constexpr uint64_t kChecksumMultiplier = 0x9E3779B97F4A7C15ull;

uint64_t Mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Checksum of the whole file with the header's checksum field taken as zero.
uint64_t FileChecksum(const uint8_t* data, size_t size) {
  ModelFileHeader header;
  std::memcpy(&header, data, sizeof(header));
  header.checksum = 0;
  const uint64_t head = ModelChecksum(reinterpret_cast<const uint8_t*>(&header), sizeof(header));
  return ModelChecksum(data + sizeof(header), size - sizeof(header)) ^ Mix(head + 0x632BE59BD9B4E019ull);
}

bool IsVendorRknn(const uint8_t* data, size_t size) { return size >= 4 && std::memcmp(data, "RKNN", 4) == 0; }

}  // namespace

// A word-at-a-time multiplicative hash: fast enough to check tens of MB at
// init and strong enough to catch truncation and bit flips.
uint64_t ModelChecksum(const uint8_t* data, size_t size) {
  uint64_t h = 0x6A09E667F3BCC908ull ^ size;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    std::memcpy(&w, data + i, 8);
    h = (h ^ Mix(w)) * kChecksumMultiplier;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, data + i, size - i);
  h = (h ^ Mix(tail ^ (size - i))) * kChecksumMultiplier;
  return Mix(h);
}

Status ParseModelFile(const uint8_t* data, size_t size, ModelFileView* view) {
  if (data == nullptr || size == 0) return NPURT_ERROR(kModelInvalid, "model is empty");
  if (IsVendorRknn(data, size)) {
    return NPURT_ERROR(kModelInvalid,
                       "this is a vendor-compiled RKNN model (rknn-toolkit2 .rknn); npurt cannot run it. "
                       "Convert the ONNX source with `npurt convert model.onnx -o model.rknn`");
  }
  if (size < sizeof(ModelFileHeader)) {
    return NPURT_ERROR(kModelInvalid, "model is %zu bytes, smaller than the %zu-byte npurt header", size,
                       sizeof(ModelFileHeader));
  }
  ModelFileHeader header;
  std::memcpy(&header, data, sizeof(header));
  if (std::memcmp(header.magic, kModelMagic, sizeof(kModelMagic)) != 0) {
    return NPURT_ERROR(kModelInvalid, "not an npurt model: bad magic (expected \"NPURTMDL\")");
  }
  if (header.format_version > kModelFormatVersion) {
    return NPURT_ERROR(kModelInvalid,
                       "model format version %u is newer than this runtime supports (version %u); "
                       "update npurt or convert the model with this version's `npurt convert`",
                       header.format_version, kModelFormatVersion);
  }
  if (header.format_version == 0) return NPURT_ERROR(kModelInvalid, "model format version 0 is invalid");
  if (header.header_size != sizeof(ModelFileHeader)) {
    return NPURT_ERROR(kModelInvalid, "header size %u, expected %zu", header.header_size, sizeof(ModelFileHeader));
  }
  if (header.payload_offset != header.header_size || header.payload_size > size ||
      header.payload_offset + header.payload_size > size) {
    return NPURT_ERROR(kModelInvalid, "payload [%llu, +%llu) lies outside the %zu-byte file",
                       static_cast<unsigned long long>(header.payload_offset),
                       static_cast<unsigned long long>(header.payload_size), size);
  }
  if (header.weights_offset % kWeightAlignment != 0 ||
      header.weights_offset < header.payload_offset + header.payload_size || header.weights_size > size ||
      header.weights_offset > size - header.weights_size) {
    return NPURT_ERROR(kModelInvalid, "weight section [%llu, +%llu) is misaligned or outside the %zu-byte file",
                       static_cast<unsigned long long>(header.weights_offset),
                       static_cast<unsigned long long>(header.weights_size), size);
  }
  if (header.weights_offset + header.weights_size != size) {
    return NPURT_ERROR(kModelInvalid, "file is %zu bytes but the header describes %llu (truncated or padded)", size,
                       static_cast<unsigned long long>(header.weights_offset + header.weights_size));
  }
  for (uint8_t r : header.reserved) {
    if (r != 0) return NPURT_ERROR(kModelInvalid, "header reserved bytes are not zero");
  }
  if (FileChecksum(data, size) != header.checksum) {
    return NPURT_ERROR(kModelInvalid, "checksum mismatch (file is corrupted or truncated)");
  }
  const uint8_t* payload = data + header.payload_offset;
  flatbuffers::Verifier verifier(payload, header.payload_size, /*max_depth=*/64, /*max_tables=*/10000000);
  if (!fb::VerifyModelBuffer(verifier)) {
    return NPURT_ERROR(kModelInvalid, "model payload failed FlatBuffers verification");
  }
  view->model = fb::GetModel(payload);
  view->weights = data + header.weights_offset;
  view->weights_size = header.weights_size;
  view->format_version = header.format_version;
  return Status::Ok();
}

std::vector<uint8_t> AssembleModelFile(const uint8_t* payload, size_t payload_size, const uint8_t* weights,
                                       size_t weights_size) {
  ModelFileHeader header{};
  std::memcpy(header.magic, kModelMagic, sizeof(kModelMagic));
  header.format_version = kModelFormatVersion;
  header.header_size = sizeof(ModelFileHeader);
  header.payload_offset = sizeof(ModelFileHeader);
  header.payload_size = payload_size;
  header.weights_offset = AlignUp(header.payload_offset + payload_size, kWeightAlignment);
  header.weights_size = weights_size;
  std::vector<uint8_t> file(header.weights_offset + weights_size, 0);
  if (payload_size) std::memcpy(file.data() + header.payload_offset, payload, payload_size);
  if (weights_size) std::memcpy(file.data() + header.weights_offset, weights, weights_size);
  std::memcpy(file.data(), &header, sizeof(header));
  ResealModelFile(file.data(), file.size());
  return file;
}

void ResealModelFile(uint8_t* data, size_t size) {
  if (size < sizeof(ModelFileHeader)) return;
  const uint64_t checksum = FileChecksum(data, size);
  std::memcpy(data + offsetof(ModelFileHeader, checksum), &checksum, sizeof(checksum));
}

}  // namespace npurt
