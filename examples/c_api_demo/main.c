/* A board-style application: only rknn_api.h (and stb_image for decoding),
 * the same calls an RK3588 program makes. Usage:
 *   rknn_c_api_demo model.rknn [image.png|jpg] [loops]
 * Without an image a synthetic gradient is used. Prints the model's I/O
 * attributes, the top-5 outputs, the per-operator time table and timings. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime in strict C99 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stb_image.h>
#include <stb_image_resize.h>

#include "rknn_api.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void print_attr(const char* what, const rknn_tensor_attr* a) {
  char dims[128] = "";
  uint32_t i;
  for (i = 0; i < a->n_dims; ++i) {
    char d[16];
    snprintf(d, sizeof(d), i ? ",%u" : "%u", a->dims[i]);
    strncat(dims, d, sizeof(dims) - strlen(dims) - 1);
  }
  printf("  %s %u: name=%s dims=[%s] n_elems=%u size=%u fmt=%s type=%s qnt=%s w_stride=%u size_with_stride=%u\n",
         what, a->index, a->name, dims, a->n_elems, a->size, get_format_string(a->fmt), get_type_string(a->type),
         get_qnt_type_string(a->qnt_type), a->w_stride, a->size_with_stride);
}

int main(int argc, char** argv) {
  rknn_context ctx = 0;
  rknn_input_output_num io_num;
  rknn_tensor_attr in_attr, out_attr;
  rknn_sdk_version version;
  rknn_custom_string custom;
  rknn_input input;
  rknn_output output;
  rknn_perf_detail perf;
  unsigned char* image;
  int ret, loops, i, width, height, channels;
  double t0, total = 0.0;

  if (argc < 2) {
    fprintf(stderr, "usage: %s model.rknn [image] [loops]\n", argv[0]);
    return 2;
  }
  loops = argc > 3 ? atoi(argv[3]) : 10;
  if (loops < 1) loops = 1;

  ret = rknn_init(&ctx, argv[1], 0, RKNN_FLAG_COLLECT_PERF_MASK, NULL);
  if (ret != RKNN_SUCC) {
    fprintf(stderr, "rknn_init failed: %d\n", ret);
    return 1;
  }
  rknn_query(ctx, RKNN_QUERY_SDK_VERSION, &version, sizeof(version));
  printf("sdk api version: %s, driver version: %s\n", version.api_version, version.drv_version);
  memset(&custom, 0, sizeof(custom));
  rknn_query(ctx, RKNN_QUERY_CUSTOM_STRING, &custom, sizeof(custom));
  printf("custom string: %s\n", custom.string);
  rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &io_num, sizeof(io_num));
  memset(&in_attr, 0, sizeof(in_attr));
  in_attr.index = 0;
  rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &in_attr, sizeof(in_attr));
  print_attr("input", &in_attr);
  memset(&out_attr, 0, sizeof(out_attr));
  out_attr.index = 0;
  rknn_query(ctx, RKNN_QUERY_OUTPUT_ATTR, &out_attr, sizeof(out_attr));
  print_attr("output", &out_attr);

  height = (int)in_attr.dims[1];
  width = (int)in_attr.dims[2];
  channels = (int)in_attr.dims[3];
  image = (unsigned char*)malloc((size_t)width * height * channels);
  if (image == NULL) return 1;
  if (argc > 2) {
    int w, h, c;
    unsigned char* raw = stbi_load(argv[2], &w, &h, &c, channels);
    if (raw == NULL) {
      fprintf(stderr, "cannot load %s\n", argv[2]);
      return 1;
    }
    stbir_resize_uint8(raw, w, h, 0, image, width, height, 0, channels);
    stbi_image_free(raw);
    printf("image: %s (%dx%d) resized to %dx%d\n", argv[2], w, h, width, height);
  } else {
    int y, x, ch;
    for (y = 0; y < height; ++y)
      for (x = 0; x < width; ++x)
        for (ch = 0; ch < channels; ++ch)
          image[(y * width + x) * channels + ch] = (unsigned char)((x * 255 / width + y * 128 / height + ch * 60) & 255);
    printf("image: synthetic %dx%d gradient\n", width, height);
  }

  memset(&input, 0, sizeof(input));
  input.index = 0;
  input.type = RKNN_TENSOR_UINT8;
  input.fmt = RKNN_TENSOR_NHWC;
  input.size = (uint32_t)(width * height * channels);
  input.buf = image;
  for (i = 0; i < loops; ++i) {
    t0 = now_ms();
    ret = rknn_inputs_set(ctx, 1, &input);
    if (ret == RKNN_SUCC) ret = rknn_run(ctx, NULL);
    if (ret != RKNN_SUCC) {
      fprintf(stderr, "inference failed: %d\n", ret);
      return 1;
    }
    total += now_ms() - t0;
  }
  printf("%d runs, Avg Time %.3fms, Avg FPS = %.3f\n", loops, total / loops, 1000.0 * loops / total);

  memset(&output, 0, sizeof(output));
  output.index = 0;
  output.want_float = 1;
  ret = rknn_outputs_get(ctx, 1, &output, NULL);
  if (ret != RKNN_SUCC) {
    fprintf(stderr, "rknn_outputs_get failed: %d\n", ret);
    return 1;
  }
  {
    const float* p = (const float*)output.buf;
    uint32_t n = output.size / sizeof(float), k, j;
    int used[1024] = {0};
    printf("output 0 (%u values):", n);
    for (j = 0; j < n && j < 16; ++j) printf(" %.5f", p[j]);
    printf("\ntop-5:\n");
    for (k = 0; k < 5 && k < n && n <= 1024; ++k) {
      int best = -1;
      for (j = 0; j < n; ++j)
        if (!used[j] && (best < 0 || p[j] > p[best])) best = (int)j;
      used[best] = 1;
      printf("  [%d] %.6f\n", best, p[best]);
    }
  }
  rknn_outputs_release(ctx, 1, &output);

  if (rknn_query(ctx, RKNN_QUERY_PERF_DETAIL, &perf, sizeof(perf)) == RKNN_SUCC) printf("%s", perf.perf_data);
  free(image);
  rknn_destroy(ctx);
  return 0;
}
