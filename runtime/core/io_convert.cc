#include "runtime/core/io_convert.h"

#include <cstring>
#include <vector>

#include "runtime/core/native_layout.h"
#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace {

float Load(DataType t, const void* p, uint64_t i) {
  switch (t) {
    case DataType::kFloat32: return static_cast<const float*>(p)[i];
    case DataType::kFloat16: return HalfToFloat(static_cast<const uint16_t*>(p)[i]);
    case DataType::kInt8: return static_cast<const int8_t*>(p)[i];
    case DataType::kUint8: return static_cast<const uint8_t*>(p)[i];
    case DataType::kInt16: return static_cast<const int16_t*>(p)[i];
    case DataType::kUint16: return static_cast<const uint16_t*>(p)[i];
    case DataType::kInt32: return static_cast<float>(static_cast<const int32_t*>(p)[i]);
    case DataType::kUint32: return static_cast<float>(static_cast<const uint32_t*>(p)[i]);
    case DataType::kInt64: return static_cast<float>(static_cast<const int64_t*>(p)[i]);
    case DataType::kBool: return static_cast<const uint8_t*>(p)[i] ? 1.0f : 0.0f;
  }
  return 0.0f;
}

template <typename T>
T Saturate(float v, float lo, float hi) {
  if (!(v == v)) return 0;
  return static_cast<T>(v < lo ? lo : (v > hi ? hi : v));
}

void Store(DataType t, void* p, uint64_t i, float v) {
  switch (t) {
    case DataType::kFloat32: static_cast<float*>(p)[i] = v; break;
    case DataType::kFloat16: static_cast<uint16_t*>(p)[i] = FloatToHalf(v); break;
    case DataType::kInt8: static_cast<int8_t*>(p)[i] = Saturate<int8_t>(v, -128.f, 127.f); break;
    case DataType::kUint8: static_cast<uint8_t*>(p)[i] = Saturate<uint8_t>(v, 0.f, 255.f); break;
    case DataType::kInt16: static_cast<int16_t*>(p)[i] = Saturate<int16_t>(v, -32768.f, 32767.f); break;
    case DataType::kUint16: static_cast<uint16_t*>(p)[i] = Saturate<uint16_t>(v, 0.f, 65535.f); break;
    case DataType::kInt32: static_cast<int32_t*>(p)[i] = Saturate<int32_t>(v, -2147483648.f, 2147483520.f); break;
    case DataType::kUint32: static_cast<uint32_t*>(p)[i] = Saturate<uint32_t>(v, 0.f, 4294967040.f); break;
    case DataType::kInt64: static_cast<int64_t*>(p)[i] = static_cast<int64_t>(v); break;
    case DataType::kBool: static_cast<uint8_t*>(p)[i] = v != 0.0f; break;
  }
}

// A quantized model tensor (per-tensor parameters: the compiler never puts
// per-axis parameters on inputs or outputs) holds codes; applications see
// real values unless they pass the tensor's own integer type.
struct Quantization {
  bool on = false;
  float scale = 1.0f;
  int32_t zero_point = 0;
  int32_t qmin = 0, qmax = 0;
};

Quantization QuantizationOf(const Tensor& t) {
  Quantization q;
  QuantRange range{};
  if (t.quant.empty() || !QuantizedRange(t.dtype, &range)) return q;
  q.on = true;
  q.scale = t.quant.scale[0];
  q.zero_point = t.quant.zero_point.empty() ? 0 : t.quant.zero_point[0];
  q.qmin = static_cast<int32_t>(range.min);
  q.qmax = static_cast<int32_t>(range.max);
  return q;
}

float LoadReal(DataType t, const Quantization& q, const void* p, uint64_t i) {
  const float v = Load(t, p, i);
  return q.on ? DequantizeValue(static_cast<int32_t>(v), q.scale, q.zero_point) : v;
}

void StoreReal(DataType t, const Quantization& q, void* p, uint64_t i, float v) {
  if (q.on) v = static_cast<float>(QuantizeValue(v, q.scale, q.zero_point, q.qmin, q.qmax));
  Store(t, p, i, v);
}

bool IsExactCopy(DataType a, DataType b) { return a == b; }

// Where element (n, c, h, w) lies in the model tensor: NCHW, or NHWC when the layout pass made the
// input channels-last (runtime/core/layout_pass.h), so that its first NHWC kernel reads it as is.
uint64_t InternalOffset(const Tensor& t, int64_t n, int64_t c, int64_t h, int64_t w) {
  const Shape& s = t.shape;
  return t.channels_last ? Offset4d(Layout::kNHWC, s, static_cast<uint32_t>(s[3]), 1, n, c, h, w)
                         : static_cast<uint64_t>(((n * s[1] + c) * s[2] + h) * s[3] + w);
}

// Calls fn(external_index, internal_index, channel) for every element of the model tensor `dst`.
template <typename Fn>
void ForEachElement(const Tensor& dst, const HostBuffer& buf, Fn fn) {
  const Shape& shape = dst.shape;
  if (shape.size() != 4) {
    const int64_t n = NumElements(shape);
    for (int64_t i = 0; i < n; ++i) fn(static_cast<uint64_t>(i), static_cast<uint64_t>(i), 0);
    return;
  }
  const Layout fmt = buf.fmt == Layout::kUndefined ? Layout::kNCHW : buf.fmt;
  const int64_t N = shape[0], C = shape[1], H = shape[2], W = shape[3];
  const uint32_t ws = buf.w_stride ? buf.w_stride : static_cast<uint32_t>(W);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) fn(Offset4d(fmt, shape, ws, buf.c2, n, c, h, w), InternalOffset(dst, n, c, h, w), c);
}

// The common board input, a uint8 image: each channel maps its 256 possible bytes through a table
// built with the same arithmetic as the general path (channel order, (x - mean) / std, quantization), so
// the result is the same bit for bit and the loop is a lookup per element.
void ImportUint8Image(const HostBuffer& src, const IoDesc& io, const Quantization& q, bool normalize, Tensor* dst) {
  const Shape& s = dst->shape;
  const int64_t N = s[0], C = s[1], H = s[2], W = s[3];
  const Layout fmt = src.fmt == Layout::kUndefined ? Layout::kNCHW : src.fmt;
  const uint32_t ws = src.w_stride ? src.w_stride : static_cast<uint32_t>(W);
  const size_t esize = DataTypeSize(dst->dtype);
  const uint8_t* bytes = static_cast<const uint8_t*>(src.data);
  uint8_t* out = static_cast<uint8_t*>(dst->data);
  std::vector<uint8_t> table(256 * esize);
  for (int64_t c = 0; c < C; ++c) {
    const bool reorder = normalize && !io.channel_order.empty();
    const int64_t from = reorder ? io.channel_order[c] : c;
    const float mean = normalize && !io.mean.empty() ? io.mean[c] : 0.0f;
    const float std_dev = normalize && !io.std.empty() ? io.std[c] : 1.0f;
    for (int v = 0; v < 256; ++v) {
      const float x = normalize ? (static_cast<float>(v) - mean) / std_dev : static_cast<float>(v);
      StoreReal(dst->dtype, q, table.data(), static_cast<uint64_t>(v), x);
    }
    // Offsets are affine in w in every layout, on both sides: a row start and a step.
    const uint64_t out_step = W > 1 ? InternalOffset(*dst, 0, c, 0, 1) - InternalOffset(*dst, 0, c, 0, 0) : 1;
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t h = 0; h < H; ++h) {
        const uint64_t row = Offset4d(fmt, s, ws, src.c2, n, from, h, 0);
        const uint64_t step = W > 1 ? Offset4d(fmt, s, ws, src.c2, n, from, h, 1) - row : 1;
        const uint8_t* p = bytes + row;
        uint8_t* o = out + InternalOffset(*dst, n, c, h, 0) * esize;
        if (esize == 1) {
          for (int64_t w = 0; w < W; ++w) o[w * out_step] = table[p[w * step]];
        } else if (esize == 4) {
          const float* values = reinterpret_cast<const float*>(table.data());
          float* f = reinterpret_cast<float*>(o);
          for (int64_t w = 0; w < W; ++w) f[w * out_step] = values[p[w * step]];
        } else {
          for (int64_t w = 0; w < W; ++w) std::memcpy(o + w * out_step * esize, &table[p[w * step] * esize], esize);
        }
      }
    }
  }
}

}  // namespace

uint64_t HostBufferBytes(const Shape& shape, const HostBuffer& b) {
  const uint64_t esize = DataTypeSize(b.dtype);
  if (shape.size() != 4 || b.fmt == Layout::kUndefined) return static_cast<uint64_t>(NumElements(shape)) * esize;
  const int64_t N = shape[0], C = shape[1], H = shape[2], W = shape[3];
  const uint64_t ws = b.w_stride ? b.w_stride : static_cast<uint64_t>(W);
  if (N * C * H * W == 0) return 0;
  switch (b.fmt) {
    case Layout::kNHWC: return static_cast<uint64_t>(N * H * C) * ws * esize;
    case Layout::kNC1HWC2: return static_cast<uint64_t>(N * ((C + b.c2 - 1) / b.c2) * H * b.c2) * ws * esize;
    default: return static_cast<uint64_t>(N * C * H) * ws * esize;
  }
}

Status ImportInput(const HostBuffer& src, const IoDesc& io, bool normalize, Tensor* dst) {
  const uint64_t need = HostBufferBytes(dst->shape, src);
  if (src.size < need) {
    return NPURT_ERROR(kInputInvalid, "input buffer is %zu bytes, %s %s %s needs %llu", src.size,
                       ShapeToString(dst->shape).c_str(), LayoutName(src.fmt), DataTypeName(src.dtype),
                       static_cast<unsigned long long>(need));
  }
  // A buffer in the quantized tensor's own type holds codes: no normalization, no quantization.
  const Quantization q = src.dtype == dst->dtype ? Quantization() : QuantizationOf(*dst);
  const bool codes = src.dtype == dst->dtype && !dst->quant.empty();
  const bool has_norm =
      normalize && !codes && (!io.mean.empty() || !io.std.empty() || !io.channel_order.empty());
  const bool nchw_src = src.fmt == Layout::kNCHW || src.fmt == Layout::kUndefined;
  const bool plain = dst->shape.size() != 4 || (dst->channels_last ? src.fmt == Layout::kNHWC : nchw_src);
  if (!has_norm && plain && src.w_stride == 0 && IsExactCopy(src.dtype, dst->dtype)) {
    std::memcpy(dst->data, src.data, dst->bytes);
    return Status::Ok();
  }
  if (dst->dtype == DataType::kInt64 && src.dtype == DataType::kInt64) {
    // Integer inputs are copied exactly (float would lose precision above 2^24).
    ForEachElement(*dst, src, [&](uint64_t ext, uint64_t in, int64_t) {
      dst->as<int64_t>()[in] = static_cast<const int64_t*>(src.data)[ext];
    });
    return Status::Ok();
  }
  if (src.dtype == DataType::kUint8 && dst->shape.size() == 4) {
    ImportUint8Image(src, io, q, has_norm, dst);
    return Status::Ok();
  }
  if (!has_norm || dst->shape.size() != 4) {
    ForEachElement(*dst, src, [&](uint64_t ext, uint64_t in, int64_t) {
      StoreReal(dst->dtype, q, dst->data, in, Load(src.dtype, src.data, ext));
    });
    return Status::Ok();
  }
  // Normalized 4-D input: internal channel c reads application channel channel_order[c].
  const Shape& s = dst->shape;
  const int64_t N = s[0], C = s[1], H = s[2], W = s[3];
  const Layout fmt = src.fmt == Layout::kUndefined ? Layout::kNCHW : src.fmt;
  const uint32_t ws = src.w_stride ? src.w_stride : static_cast<uint32_t>(W);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const int64_t from = io.channel_order.empty() ? c : io.channel_order[c];
      const float mean = io.mean.empty() ? 0.0f : io.mean[c];
      const float std_dev = io.std.empty() ? 1.0f : io.std[c];
      for (int64_t h = 0; h < H; ++h) {
        for (int64_t w = 0; w < W; ++w) {
          const float v = Load(src.dtype, src.data, Offset4d(fmt, s, ws, src.c2, n, from, h, w));
          StoreReal(dst->dtype, q, dst->data, InternalOffset(*dst, n, c, h, w), (v - mean) / std_dev);
        }
      }
    }
  }
  return Status::Ok();
}

Status ExportOutput(const Tensor& src, const HostBuffer& dst) {
  const uint64_t need = HostBufferBytes(src.shape, dst);
  if (dst.size < need) {
    return NPURT_ERROR(kOutputInvalid, "output buffer is %zu bytes, %s %s %s needs %llu", dst.size,
                       ShapeToString(src.shape).c_str(), LayoutName(dst.fmt), DataTypeName(dst.dtype),
                       static_cast<unsigned long long>(need));
  }
  void* out = const_cast<void*>(dst.data);
  // Model outputs stay NCHW (the layout pass never moves them); a channels-last one would take the general path.
  const bool plain = src.shape.size() != 4 ||
                     (!src.channels_last && (dst.fmt == Layout::kNCHW || dst.fmt == Layout::kUndefined));
  if (plain && dst.w_stride == 0 && src.dtype == dst.dtype) {
    std::memcpy(out, src.data, src.bytes);
    return Status::Ok();
  }
  if (need > 0 && dst.fmt != Layout::kNCHW) std::memset(out, 0, need);  // padding bytes are defined zeros
  // Codes leave as codes in the tensor's own type, as real values otherwise (want_float).
  const Quantization q = src.dtype == dst.dtype ? Quantization() : QuantizationOf(src);
  if (plain && dst.w_stride == 0 && dst.dtype == DataType::kFloat32 && q.on &&
      (src.dtype == DataType::kInt8 || src.dtype == DataType::kUint8)) {
    // An 8-bit output dequantized in order: a 256-entry table built with LoadReal itself.
    float table[256];
    const int offset = src.dtype == DataType::kInt8 ? 128 : 0;
    for (int v = 0; v < 256; ++v) {
      const int8_t i8 = static_cast<int8_t>(v - offset);
      const uint8_t u8 = static_cast<uint8_t>(v);
      table[v] = LoadReal(src.dtype, q, src.dtype == DataType::kInt8 ? static_cast<const void*>(&i8) : &u8, 0);
    }
    const uint8_t* codes = static_cast<const uint8_t*>(src.data);
    float* f = static_cast<float*>(out);
    const int64_t n = NumElements(src.shape);
    if (offset != 0) {
      for (int64_t i = 0; i < n; ++i) f[i] = table[static_cast<uint8_t>(codes[i] + 128)];
    } else {
      for (int64_t i = 0; i < n; ++i) f[i] = table[codes[i]];
    }
    return Status::Ok();
  }
  ForEachElement(src, dst, [&](uint64_t ext, uint64_t in, int64_t) {
    Store(dst.dtype, out, ext, LoadReal(src.dtype, q, src.data, in));
  });
  return Status::Ok();
}

}  // namespace npurt
