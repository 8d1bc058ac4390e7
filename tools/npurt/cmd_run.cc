// `npurt run model.rknn -i input...`: runs a model through the public C API
// exactly as a board application would (rknn_init ... rknn_outputs_release),
// saves the outputs as .npy, prints shapes, top-k scores and timings.
#include <stb_image.h>
#include <stb_image_resize.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "rknn_api.h"
#include "runtime/core/profiler.h"
#include "tools/npurt/commands.h"
#include "runtime/core/npy.h"

namespace npurt {
namespace cli {
namespace {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs;
  std::string output_dir = ".";
  int loops = 1;
  int warmup = 0;
  int top_k = 5;
  bool perf = false;
  bool no_save = false;
};

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

// Loads an image as uint8 NHWC with the input's H, W and C (resized if needed).
bool LoadImage(const std::string& path, const rknn_tensor_attr& attr, std::vector<uint8_t>* out) {
  if (attr.n_dims != 4 || attr.fmt != RKNN_TENSOR_NHWC) {
    std::fprintf(stderr, "npurt run: input %u is not an NHWC image input; give a .npy file\n", attr.index);
    return false;
  }
  const int h = static_cast<int>(attr.dims[1]), w = static_cast<int>(attr.dims[2]), c = static_cast<int>(attr.dims[3]);
  int iw = 0, ih = 0, ic = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &iw, &ih, &ic, c);
  if (pixels == nullptr) {
    std::fprintf(stderr, "npurt run: cannot decode image '%s': %s\n", path.c_str(), stbi_failure_reason());
    return false;
  }
  out->resize(static_cast<size_t>(h) * w * c);
  if (iw == w && ih == h) {
    std::memcpy(out->data(), pixels, out->size());
  } else {
    std::printf("  resizing %s from %dx%d to %dx%d\n", path.c_str(), iw, ih, w, h);
    stbir_resize_uint8(pixels, iw, ih, 0, out->data(), w, h, 0, c);
  }
  stbi_image_free(pixels);
  return true;
}

void PrintTopK(const float* data, uint32_t n, int k) {
  std::vector<uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  const uint32_t kk = std::min<uint32_t>(static_cast<uint32_t>(k), n);
  std::partial_sort(idx.begin(), idx.begin() + kk, idx.end(), [&](uint32_t a, uint32_t b) { return data[a] > data[b]; });
  std::printf("    top-%u:", kk);
  for (uint32_t i = 0; i < kk; ++i) std::printf(" [%u] %.6f", idx[i], data[idx[i]]);
  std::printf("\n");
}

std::string Dims(const rknn_tensor_attr& a) {
  std::string s = "[";
  for (uint32_t i = 0; i < a.n_dims; ++i) s += (i ? "," : "") + std::to_string(a.dims[i]);
  return s + "]";
}

// A dynamic-shape model runs the shape set its .npy inputs have, as rknn-toolkit2's inference() does:
// each array in the input attr's layout (the range's dims) or in the model's (NCHW). False with a
// message when they match no set. Static models and image inputs keep the model's (largest) shapes.
bool SelectShapeSet(rknn_context ctx, uint32_t n_input, const std::vector<std::string>& paths) {
  std::vector<rknn_input_range> ranges(n_input);
  std::vector<Shape> shapes(n_input);
  for (uint32_t i = 0; i < n_input; ++i) {
    ranges[i].index = i;
    if (rknn_query(ctx, RKNN_QUERY_INPUT_DYNAMIC_RANGE, &ranges[i], sizeof(ranges[i])) != RKNN_SUCC) return true;
    npy::NpyArray a;
    if (!EndsWith(paths[i], ".npy") || !npy::ReadNpy(paths[i], &a).ok()) return true;  // images; errors come later
    shapes[i] = a.shape;
  }
  for (uint32_t set = 0; set < ranges[0].shape_number; ++set) {
    std::vector<rknn_tensor_attr> attrs(n_input);
    bool match = true;
    for (uint32_t i = 0; i < n_input && match; ++i) {
      const rknn_input_range& r = ranges[i];
      const Shape dims(r.dyn_range[set], r.dyn_range[set] + r.n_dims);
      Shape nchw = dims;
      if (r.fmt == RKNN_TENSOR_NHWC && dims.size() == 4) nchw = {dims[0], dims[3], dims[1], dims[2]};
      match = shapes[i] == dims || shapes[i] == nchw;
      attrs[i].index = i;
      attrs[i].fmt = r.fmt;
      attrs[i].n_dims = r.n_dims;
      std::copy(r.dyn_range[set], r.dyn_range[set] + r.n_dims, attrs[i].dims);
    }
    if (!match) continue;
    if (rknn_set_input_shapes(ctx, n_input, attrs.data()) != RKNN_SUCC) return false;
    std::printf("Shape set %u of %u (from the .npy shapes)\n", set, ranges[0].shape_number);
    return true;
  }
  std::fprintf(stderr, "npurt run: the .npy inputs' shapes match none of the model's %u shape sets (npurt info "
               "lists them)\n", ranges[0].shape_number);
  return false;
}

int Run(const RunOptions& opt) {
  rknn_context ctx = 0;
  const uint32_t flags = opt.perf ? RKNN_FLAG_COLLECT_PERF_MASK : 0;
  const int64_t t0 = NowNs();
  int ret = rknn_init(&ctx, const_cast<char*>(opt.model.c_str()), 0, flags, nullptr);
  if (ret != RKNN_SUCC) {
    std::fprintf(stderr, "npurt run: rknn_init failed (%d); set RKNN_LOG_LEVEL=3 for details\n", ret);
    return 1;
  }
  const double init_ms = (NowNs() - t0) / 1e6;
  rknn_input_output_num num{};
  rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num));
  if (!opt.inputs.empty() && opt.inputs.size() != num.n_input) {
    std::fprintf(stderr, "npurt run: the model has %u inputs, %zu given\n", num.n_input, opt.inputs.size());
    rknn_destroy(ctx);
    return 1;
  }
  std::vector<std::vector<uint8_t>> buffers(num.n_input);
  std::vector<rknn_input> inputs(num.n_input);
  std::printf("Model %s: %u input(s), %u output(s), init %.2f ms\n", opt.model.c_str(), num.n_input, num.n_output, init_ms);
  if (!opt.inputs.empty() && !SelectShapeSet(ctx, num.n_input, opt.inputs)) {
    rknn_destroy(ctx);
    return 1;
  }
  for (uint32_t i = 0; i < num.n_input; ++i) {
    rknn_tensor_attr attr{};
    attr.index = i;
    rknn_query(ctx, RKNN_QUERY_CURRENT_INPUT_ATTR, &attr, sizeof(attr));  // a static model's are its own
    rknn_input& in = inputs[i];
    in.index = i;
    std::printf("  input %u '%s' %s %s %s\n", i, attr.name, Dims(attr).c_str(), get_format_string(attr.fmt),
                get_type_string(attr.type));
    if (opt.inputs.empty()) {
      buffers[i].assign(attr.n_elems, 0);
      in.type = RKNN_TENSOR_UINT8;
      in.fmt = attr.fmt;
      std::printf("    (no input given: zeros)\n");
    } else if (EndsWith(opt.inputs[i], ".npy")) {
      npy::NpyArray a;
      Status s = npy::ReadNpy(opt.inputs[i], &a);
      if (!s.ok()) {
        std::fprintf(stderr, "npurt run: %s\n", s.message().c_str());
        rknn_destroy(ctx);
        return 1;
      }
      buffers[i] = std::move(a.data);
      in.type = static_cast<rknn_tensor_type>(a.dtype);
      // A 4-D array in the attribute's own dim order is taken as that layout, otherwise NCHW.
      bool same_dims = a.shape.size() == attr.n_dims;
      for (size_t d = 0; same_dims && d < a.shape.size(); ++d) same_dims = a.shape[d] == attr.dims[d];
      in.fmt = same_dims ? attr.fmt : RKNN_TENSOR_NCHW;
      std::printf("    from %s: %s %s\n", opt.inputs[i].c_str(), ShapeToString(a.shape).c_str(), get_format_string(in.fmt));
    } else {
      if (!LoadImage(opt.inputs[i], attr, &buffers[i])) {
        rknn_destroy(ctx);
        return 1;
      }
      in.type = RKNN_TENSOR_UINT8;
      in.fmt = RKNN_TENSOR_NHWC;
      std::printf("    from image %s\n", opt.inputs[i].c_str());
    }
    in.buf = buffers[i].data();
    in.size = static_cast<uint32_t>(buffers[i].size());
  }
  std::vector<double> times;
  for (int loop = 0; loop < opt.warmup + opt.loops; ++loop) {
    const int64_t start = NowNs();
    ret = rknn_inputs_set(ctx, num.n_input, inputs.data());
    if (ret == RKNN_SUCC) ret = rknn_run(ctx, nullptr);
    if (ret != RKNN_SUCC) {
      std::fprintf(stderr, "npurt run: inference failed (%d); set RKNN_LOG_LEVEL=3 for details\n", ret);
      rknn_destroy(ctx);
      return 1;
    }
    if (loop >= opt.warmup) times.push_back((NowNs() - start) / 1e6);
  }
  std::vector<rknn_output> outputs(num.n_output);
  for (uint32_t i = 0; i < num.n_output; ++i) {
    outputs[i].index = i;
    outputs[i].want_float = 1;
  }
  ret = rknn_outputs_get(ctx, num.n_output, outputs.data(), nullptr);
  if (ret != RKNN_SUCC) {
    std::fprintf(stderr, "npurt run: rknn_outputs_get failed (%d)\n", ret);
    rknn_destroy(ctx);
    return 1;
  }
  for (uint32_t i = 0; i < num.n_output; ++i) {
    rknn_tensor_attr attr{};
    attr.index = i;
    rknn_query(ctx, RKNN_QUERY_CURRENT_OUTPUT_ATTR, &attr, sizeof(attr));
    std::printf("  output %u '%s' %s\n", i, attr.name, Dims(attr).c_str());
    const float* data = static_cast<const float*>(outputs[i].buf);
    uint32_t non_unit = 0;
    for (uint32_t d = 0; d < attr.n_dims; ++d) non_unit += attr.dims[d] > 1;
    if (non_unit == 1 && attr.n_elems > 1) PrintTopK(data, attr.n_elems, opt.top_k);
    if (!opt.no_save) {
      npy::NpyArray a;
      a.dtype = DataType::kFloat32;
      for (uint32_t d = 0; d < attr.n_dims; ++d) a.shape.push_back(attr.dims[d]);
      a.data.assign(static_cast<const uint8_t*>(outputs[i].buf), static_cast<const uint8_t*>(outputs[i].buf) + outputs[i].size);
      const std::string path = opt.output_dir + "/rt_output" + std::to_string(i) + ".npy";
      Status s = npy::WriteNpy(path, a);
      if (!s.ok()) std::fprintf(stderr, "npurt run: %s\n", s.message().c_str());
      else std::printf("    saved %s\n", path.c_str());
    }
  }
  rknn_outputs_release(ctx, num.n_output, outputs.data());
  const double sum = std::accumulate(times.begin(), times.end(), 0.0);
  const double avg = sum / static_cast<double>(times.size());
  std::printf("Run: %d loop(s), Avg Time %.3fms, Avg FPS = %.3f (inputs_set + run)\n", opt.loops, avg, 1000.0 / avg);
  if (opt.perf) {
    rknn_perf_detail detail{};
    if (rknn_query(ctx, RKNN_QUERY_PERF_DETAIL, &detail, sizeof(detail)) == RKNN_SUCC) {
      std::printf("%s", detail.perf_data);
    }
    rknn_perf_run run{};
    if (rknn_query(ctx, RKNN_QUERY_PERF_RUN, &run, sizeof(run)) == RKNN_SUCC) {
      std::printf("Last rknn_run: %lld us\n", static_cast<long long>(run.run_duration));
    }
  }
  rknn_destroy(ctx);
  return 0;
}

}  // namespace

void AddRunCommand(CLI::App& app, int* exit_code) {
  static RunOptions opt;
  CLI::App* cmd = app.add_subcommand("run", "Run a model through the RKNN C API and save its outputs as .npy");
  cmd->add_option("model", opt.model, "npurt model file (.rknn)")->required()->check(CLI::ExistingFile);
  cmd->add_option("-i,--input", opt.inputs,
                  "One per model input, in order: a .npy file (any numeric dtype; NCHW, or the input's "
                  "reported layout) or an image (png/jpg/bmp, decoded to uint8 NHWC and resized to the input). "
                  "Without inputs, zeros are used")
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output-dir", opt.output_dir, "Where rt_output<N>.npy files go")->capture_default_str();
  cmd->add_flag("--no-save", opt.no_save, "Do not write output files");
  cmd->add_option("-n,--loops", opt.loops, "Timed iterations")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--warmup", opt.warmup, "Untimed iterations first")->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("-k,--top-k", opt.top_k, "Scores printed for 1-D (classifier) outputs")->capture_default_str();
  cmd->add_flag("-p,--perf", opt.perf, "Collect and print the per-operator time table (RKNN_QUERY_PERF_DETAIL)");
  cmd->callback([exit_code]() { *exit_code = Run(opt); });
}

}  // namespace cli
}  // namespace npurt
