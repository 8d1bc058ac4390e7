#include "runtime/ops/window_attributes.h"

#include <cinttypes>
#include <string>

namespace npurt {

Status ParseAutoPad(const char* op, const Attributes& attrs, AutoPad* out) {
  std::string s;
  NPURT_RETURN_IF_ERROR(attrs.GetString("auto_pad", "NOTSET", &s));
  if (s == "NOTSET" || s.empty()) {
    *out = AutoPad::kNotSet;
  } else if (s == "SAME_UPPER") {
    *out = AutoPad::kSameUpper;
  } else if (s == "SAME_LOWER") {
    *out = AutoPad::kSameLower;
  } else if (s == "VALID") {
    *out = AutoPad::kValid;
  } else {
    return NPURT_ERROR(kModelInvalid, "%s: unknown auto_pad '%s'", op, s.c_str());
  }
  return Status::Ok();
}

Status ReadSpatialInts(const char* op, const Attributes& attrs, const char* name, size_t count, int64_t fallback,
                       int64_t min_value, std::vector<int64_t>* out) {
  NPURT_RETURN_IF_ERROR(attrs.GetInts(name, {}, out));
  if (out->empty()) {
    out->assign(count, fallback);
    return Status::Ok();
  }
  NPURT_CHECK_OR_RETURN(out->size() == count, kModelInvalid, "%s: %s has %zu values, expected %zu", op, name,
                        out->size(), count);
  for (int64_t v : *out) {
    NPURT_CHECK_OR_RETURN(v >= min_value && v <= kMaxExtent, kModelInvalid, "%s: %s value %" PRId64 " out of range",
                          op, name, v);
  }
  return Status::Ok();
}

void SamePadding(AutoPad auto_pad, int64_t in, int64_t stride, int64_t extent, int64_t* out, int64_t* pad_begin,
                 int64_t* pad_end) {
  *out = (in + stride - 1) / stride;
  int64_t total = (*out - 1) * stride + extent - in;
  if (total < 0) total = 0;
  *pad_begin = auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
  *pad_end = total - *pad_begin;
}

}  // namespace npurt
