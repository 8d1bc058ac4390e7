// A custom CPU operator as rknpu2's rknn_custom_cpu_op_demo registers one: rknn_init, then
// rknn_register_custom_ops with init / compute / destroy callbacks (cst_softplus.cc) for the model's
// "cstSoftplus" nodes, then the general API (inputs_set, run, outputs_get). Only rknn_api.h and rknn_custom_op.h.
//
// usage: rknn_custom_op_demo MODEL.rknn [EXPECTED_Y.bin [TOLERANCE]]
// The input is x[i] = ((37 i) mod 101) / 50 - 1 in NCHW float32; with EXPECTED_Y.bin (float32, what
// make_model.py computes in float64) the program compares the output and says whether it is correct.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cst_softplus.h"
#include "rknn_api.h"
#include "rknn_custom_op.h"

namespace {

std::vector<unsigned char> ReadFile(const char* path) {
  std::vector<unsigned char> bytes;
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return bytes;
  unsigned char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(f);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: %s MODEL.rknn [EXPECTED_Y.bin [TOLERANCE]]\n", argv[0]);
    return 1;
  }
  std::vector<unsigned char> model = ReadFile(argv[1]);
  if (model.empty()) {
    std::printf("cannot read %s\n", argv[1]);
    return 1;
  }
  rknn_context ctx = 0;
  int ret = rknn_init(&ctx, model.data(), static_cast<uint32_t>(model.size()), 0, nullptr);
  if (ret < 0) {
    std::printf("rknn_init fail! ret=%d\n", ret);
    return 1;
  }

  // Register the custom op (once per op type, after rknn_init).
  rknn_custom_op user_op[1];
  std::memset(user_op, 0, sizeof(user_op));
  std::strncpy(user_op[0].op_type, "cstSoftplus", RKNN_MAX_NAME_LEN - 1);
  user_op[0].version = 1;
  user_op[0].target = RKNN_TARGET_TYPE_CPU;
  user_op[0].init = softplus_init;
  user_op[0].compute = softplus_compute;
  user_op[0].destroy = softplus_destroy;
  ret = rknn_register_custom_ops(ctx, user_op, 1);
  if (ret < 0) {
    std::printf("rknn_register_custom_ops fail! ret = %d\n", ret);
    rknn_destroy(ctx);
    return 1;
  }

  rknn_tensor_attr in_attr, out_attr;
  std::memset(&in_attr, 0, sizeof(in_attr));
  std::memset(&out_attr, 0, sizeof(out_attr));
  in_attr.index = 0;
  out_attr.index = 0;
  if (rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &in_attr, sizeof(in_attr)) != RKNN_SUCC ||
      rknn_query(ctx, RKNN_QUERY_OUTPUT_ATTR, &out_attr, sizeof(out_attr)) != RKNN_SUCC) {
    std::printf("rknn_query fail!\n");
    rknn_destroy(ctx);
    return 1;
  }

  std::vector<float> x(in_attr.n_elems);
  for (uint32_t i = 0; i < in_attr.n_elems; ++i) x[i] = static_cast<float>(((37 * i) % 101) / 50.0 - 1.0);
  rknn_input input;
  std::memset(&input, 0, sizeof(input));
  input.index = 0;
  input.buf = x.data();
  input.size = static_cast<uint32_t>(x.size() * sizeof(float));
  input.type = RKNN_TENSOR_FLOAT32;
  input.fmt = RKNN_TENSOR_NCHW;
  ret = rknn_inputs_set(ctx, 1, &input);
  if (ret == RKNN_SUCC) ret = rknn_run(ctx, nullptr);
  if (ret < 0) {
    std::printf("rknn_inputs_set / rknn_run fail! ret=%d\n", ret);
    rknn_destroy(ctx);
    return 1;
  }
  rknn_output output;
  std::memset(&output, 0, sizeof(output));
  output.want_float = 1;
  ret = rknn_outputs_get(ctx, 1, &output, nullptr);
  if (ret < 0) {
    std::printf("rknn_outputs_get fail! ret=%d\n", ret);
    rknn_destroy(ctx);
    return 1;
  }
  const float* y = static_cast<const float*>(output.buf);
  const uint32_t n = out_attr.n_elems;
  std::printf("output %s: %u values, y[0..3] = %.5f %.5f %.5f %.5f\n", out_attr.name, n, y[0], y[1], y[2], y[3]);

  int status = 0;
  if (argc > 2) {
    std::vector<unsigned char> expected = ReadFile(argv[2]);
    const double tolerance = argc > 3 ? std::atof(argv[3]) : 1e-4;
    if (expected.size() != n * sizeof(float)) {
      std::printf("%s has %zu bytes, expected %u floats\n", argv[2], expected.size(), n);
      status = 1;
    } else {
      double worst = 0;
      for (uint32_t i = 0; i < n; ++i) {
        float e;
        std::memcpy(&e, &expected[i * sizeof(float)], sizeof(e));
        worst = std::fmax(worst, std::fabs(y[i] - e) / (1.0 + std::fabs(e)));
      }
      std::printf("largest error |y - expected| / (1 + |expected|): %.3g (tolerance %.3g)\n", worst, tolerance);
      if (worst <= tolerance) {
        std::printf("custom op result is correct\n");
      } else {
        std::printf("custom op result is WRONG\n");
        status = 1;
      }
    }
  }
  rknn_outputs_release(ctx, 1, &output);
  rknn_destroy(ctx);  // runs softplus_destroy
  return status;
}
