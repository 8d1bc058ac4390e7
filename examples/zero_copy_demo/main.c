/* Zero-copy the way rknpu2's rknn_create_mem_demo does it, in plain C99 on
 * rknn_api.h and stb only: the input image goes into memory from
 * rknn_create_mem (rows of the attr's w_stride), the outputs land as float32
 * in memory bound with rknn_set_io_mem, and no rknn_inputs_set /
 * rknn_outputs_get is called. A second context runs the same image through
 * the general API, and the demo checks that both give the same bits.
 *
 *   rknn_zero_copy_demo model.rknn [image.png|jpg]
 *
 * Without an image a synthetic gradient is used. Exit status 0 when the
 * zero-copy outputs equal the general API's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>
#include <stb_image_resize.h>

#include "rknn_api.h"

#define MAX_IO 16

static unsigned char* read_file(const char* path, uint32_t* size) {
  FILE* f = fopen(path, "rb");
  unsigned char* data;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = n > 0 ? (unsigned char*)malloc((size_t)n) : NULL;
  if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    fclose(f);
    return NULL;
  }
  fclose(f);
  *size = (uint32_t)n;
  return data;
}

/* The image as packed uint8 HWC of the input's size (an NHWC input of 1, 3 or 4 channels). */
static unsigned char* load_image(const char* path, int width, int height, int channels) {
  unsigned char* image = (unsigned char*)malloc((size_t)width * height * channels);
  int x, y, c;
  if (image == NULL) return NULL;
  if (path != NULL) {
    int w = 0, h = 0, n = 0;
    unsigned char* raw = stbi_load(path, &w, &h, &n, channels);
    if (raw == NULL) {
      fprintf(stderr, "cannot decode %s: %s\n", path, stbi_failure_reason());
      free(image);
      return NULL;
    }
    stbir_resize_uint8(raw, w, h, 0, image, width, height, 0, channels);
    stbi_image_free(raw);
    return image;
  }
  for (y = 0; y < height; ++y)
    for (x = 0; x < width; ++x)
      for (c = 0; c < channels; ++c) image[((size_t)y * width + x) * channels + c] = (unsigned char)((x * 7 + y * 3 + c * 50) & 0xff);
  return image;
}

int main(int argc, char** argv) {
  rknn_context ctx = 0, general = 0;
  rknn_input_output_num num;
  rknn_tensor_attr in_attr, out_attrs[MAX_IO];
  rknn_tensor_mem* in_mem = NULL;
  rknn_tensor_mem* out_mems[MAX_IO] = {NULL};
  rknn_input input;
  rknn_output outputs[MAX_IO];
  unsigned char* model;
  unsigned char* image = NULL;
  uint32_t model_size = 0, i, row, stride, width, height, channels;
  int ret, status = 1;

  if (argc < 2) {
    fprintf(stderr, "usage: %s model.rknn [image]\n", argv[0]);
    return 2;
  }
  model = read_file(argv[1], &model_size);
  if (model == NULL) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  if ((ret = rknn_init(&ctx, model, model_size, 0, NULL)) != RKNN_SUCC ||
      (ret = rknn_init(&general, model, model_size, 0, NULL)) != RKNN_SUCC) {
    fprintf(stderr, "rknn_init failed: %d\n", ret);
    goto out;
  }
  if ((ret = rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num))) != RKNN_SUCC || num.n_input != 1 ||
      num.n_output > MAX_IO) {
    fprintf(stderr, "this demo takes a model with one image input (query: %d)\n", ret);
    goto out;
  }
  memset(&in_attr, 0, sizeof(in_attr));
  in_attr.index = 0;
  rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &in_attr, sizeof(in_attr));
  if (in_attr.fmt != RKNN_TENSOR_NHWC || in_attr.n_dims != 4) {
    fprintf(stderr, "input 0 is not an NHWC image input\n");
    goto out;
  }
  height = in_attr.dims[1];
  width = in_attr.dims[2];
  channels = in_attr.dims[3];
  stride = in_attr.w_stride != 0 ? in_attr.w_stride : width;
  image = load_image(argc > 2 ? argv[2] : NULL, (int)width, (int)height, (int)channels);
  if (image == NULL) goto out;

  /* Input: uint8 NHWC in runtime memory, rows of w_stride pixels. */
  in_attr.type = RKNN_TENSOR_UINT8;
  in_attr.fmt = RKNN_TENSOR_NHWC;
  in_mem = rknn_create_mem(ctx, stride * height * channels);
  if (in_mem == NULL) goto out;
  for (row = 0; row < height; ++row) {
    memcpy((unsigned char*)in_mem->virt_addr + (size_t)row * stride * channels, image + (size_t)row * width * channels,
           (size_t)width * channels);
  }
  if ((ret = rknn_set_io_mem(ctx, in_mem, &in_attr)) != RKNN_SUCC) {
    fprintf(stderr, "rknn_set_io_mem(input) failed: %d\n", ret);
    goto out;
  }
  /* Outputs: float32 NCHW, as the vendor's demo asks. */
  for (i = 0; i < num.n_output; ++i) {
    memset(&out_attrs[i], 0, sizeof(out_attrs[i]));
    out_attrs[i].index = i;
    rknn_query(ctx, RKNN_QUERY_OUTPUT_ATTR, &out_attrs[i], sizeof(out_attrs[i]));
    out_attrs[i].type = RKNN_TENSOR_FLOAT32;
    out_attrs[i].fmt = RKNN_TENSOR_NCHW;
    out_mems[i] = rknn_create_mem(ctx, out_attrs[i].n_elems * sizeof(float));
    if (out_mems[i] == NULL || (ret = rknn_set_io_mem(ctx, out_mems[i], &out_attrs[i])) != RKNN_SUCC) {
      fprintf(stderr, "output %u memory failed\n", i);
      goto out;
    }
  }
  if ((ret = rknn_run(ctx, NULL)) != RKNN_SUCC) {
    fprintf(stderr, "rknn_run failed: %d\n", ret);
    goto out;
  }

  /* The general API on the same image. */
  memset(&input, 0, sizeof(input));
  input.index = 0;
  input.buf = image;
  input.size = width * height * channels;
  input.type = RKNN_TENSOR_UINT8;
  input.fmt = RKNN_TENSOR_NHWC;
  memset(outputs, 0, sizeof(outputs));
  for (i = 0; i < num.n_output; ++i) {
    outputs[i].index = i;
    outputs[i].want_float = 1;
  }
  if (rknn_inputs_set(general, 1, &input) != RKNN_SUCC || rknn_run(general, NULL) != RKNN_SUCC ||
      rknn_outputs_get(general, num.n_output, outputs, NULL) != RKNN_SUCC) {
    fprintf(stderr, "the general API failed\n");
    goto out;
  }
  status = 0;
  for (i = 0; i < num.n_output; ++i) {
    const float* zc = (const float*)out_mems[i]->virt_addr;
    const int same = outputs[i].size == out_attrs[i].n_elems * sizeof(float) &&
                     memcmp(zc, outputs[i].buf, outputs[i].size) == 0;
    printf("output %u '%s': %u values, first %g; zero-copy == general API: %s\n", i, out_attrs[i].name,
           out_attrs[i].n_elems, out_attrs[i].n_elems ? zc[0] : 0.0f, same ? "yes" : "NO");
    if (!same) status = 1;
  }
  rknn_outputs_release(general, num.n_output, outputs);

out:
  for (i = 0; i < MAX_IO; ++i) {
    if (out_mems[i] != NULL) rknn_destroy_mem(ctx, out_mems[i]);
  }
  if (in_mem != NULL) rknn_destroy_mem(ctx, in_mem);
  if (general != 0) rknn_destroy(general);
  if (ctx != 0) rknn_destroy(ctx);
  free(image);
  free(model);
  return status;
}
