// `npurt bench model.rknn`: run latency through the public C API, as a board
// application sees it. `--io` compares the two ways of moving a frame in and
// out: the copying API (rknn_inputs_set / rknn_outputs_get) and zero-copy
// memory (rknn_create_mem + rknn_set_io_mem), with the share of each frame
// spent outside the model's own operators.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "rknn_api.h"
#include "tools/npurt/commands.h"

namespace npurt {
namespace cli {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchOptions {
  std::string model;
  int loops = 50;
  int warmup = 5;
  bool io = false;
  std::string core_mask = "auto";
};

// The names of rknn_core_mask values, as rknn_benchmark's users write them.
const std::map<std::string, int> kCoreMasks = {
    {"auto", RKNN_NPU_CORE_AUTO}, {"0", RKNN_NPU_CORE_0},         {"1", RKNN_NPU_CORE_1},     {"2", RKNN_NPU_CORE_2},
    {"0_1", RKNN_NPU_CORE_0_1},   {"0_1_2", RKNN_NPU_CORE_0_1_2}, {"all", RKNN_NPU_CORE_ALL}};

double Ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median times of one way of running frames, in ms.
struct PathTimes {
  std::vector<double> input, run, output, frame, ops;
};

bool Check(int ret, const char* what) {
  if (ret == RKNN_SUCC) return true;
  std::fprintf(stderr, "npurt bench: %s failed (%d)\n", what, ret);
  return false;
}

double OpsMs(rknn_context ctx) {
  rknn_perf_run perf;
  std::memset(&perf, 0, sizeof(perf));
  return rknn_query(ctx, RKNN_QUERY_PERF_RUN, &perf, sizeof(perf)) == RKNN_SUCC ? perf.run_duration / 1000.0 : 0.0;
}

// A deterministic uint8 NHWC frame for input `attr` (the normal attr: NHWC for images).
std::vector<uint8_t> Frame(const rknn_tensor_attr& attr) {
  std::vector<uint8_t> frame(attr.n_elems);
  for (size_t i = 0; i < frame.size(); ++i) frame[i] = static_cast<uint8_t>((i * 37 + i / 640) & 0xff);
  return frame;
}

bool BenchCopying(rknn_context ctx, uint32_t n_in, uint32_t n_out, const std::vector<rknn_tensor_attr>& in_attrs,
                  const BenchOptions& o, PathTimes* t) {
  std::vector<std::vector<uint8_t>> frames;
  std::vector<rknn_input> inputs(n_in);
  for (uint32_t i = 0; i < n_in; ++i) {
    frames.push_back(Frame(in_attrs[i]));
    std::memset(&inputs[i], 0, sizeof(rknn_input));
    inputs[i].index = i;
    inputs[i].buf = frames[i].data();
    inputs[i].size = static_cast<uint32_t>(frames[i].size());
    inputs[i].type = RKNN_TENSOR_UINT8;
    inputs[i].fmt = in_attrs[i].fmt;
  }
  std::vector<rknn_output> outputs(n_out);
  for (int k = 0; k < o.warmup + o.loops; ++k) {
    for (uint32_t i = 0; i < n_out; ++i) {
      std::memset(&outputs[i], 0, sizeof(rknn_output));
      outputs[i].index = i;
      outputs[i].want_float = 1;
    }
    const Clock::time_point a = Clock::now();
    if (!Check(rknn_inputs_set(ctx, n_in, inputs.data()), "rknn_inputs_set")) return false;
    const Clock::time_point b = Clock::now();
    if (!Check(rknn_run(ctx, nullptr), "rknn_run")) return false;
    const Clock::time_point c = Clock::now();
    if (!Check(rknn_outputs_get(ctx, n_out, outputs.data(), nullptr), "rknn_outputs_get")) return false;
    if (!Check(rknn_outputs_release(ctx, n_out, outputs.data()), "rknn_outputs_release")) return false;
    const Clock::time_point d = Clock::now();
    if (k < o.warmup) continue;
    t->input.push_back(Ms(a, b));
    t->run.push_back(Ms(b, c));
    t->output.push_back(Ms(c, d));
    t->frame.push_back(Ms(a, d));
    t->ops.push_back(OpsMs(ctx));
  }
  return true;
}

// As rknn_create_mem_demo: uint8 NHWC input memory (rows of w_stride), float32 NCHW output memory. The
// frame arrives in the input memory (a camera or RGA writes it there), so only rknn_run is timed.
bool BenchZeroCopy(rknn_context ctx, uint32_t n_in, uint32_t n_out, const BenchOptions& o, PathTimes* t) {
  std::vector<rknn_tensor_mem*> mems;
  auto release = [&] {
    for (rknn_tensor_mem* m : mems) rknn_destroy_mem(ctx, m);
  };
  for (uint32_t i = 0; i < n_in; ++i) {
    rknn_tensor_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    attr.index = i;
    if (!Check(rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &attr, sizeof(attr)), "rknn_query(INPUT_ATTR)")) return false;
    attr.type = RKNN_TENSOR_UINT8;
    const uint32_t bytes = attr.size_with_stride > attr.n_elems ? attr.size_with_stride : attr.n_elems;
    rknn_tensor_mem* m = rknn_create_mem(ctx, bytes);
    if (m == nullptr) {
      release();
      return Check(RKNN_ERR_MALLOC_FAIL, "rknn_create_mem");
    }
    mems.push_back(m);
    const std::vector<uint8_t> frame = Frame(attr);
    std::memcpy(m->virt_addr, frame.data(), std::min<size_t>(frame.size(), bytes));
    if (!Check(rknn_set_io_mem(ctx, m, &attr), "rknn_set_io_mem(input)")) return release(), false;
  }
  for (uint32_t i = 0; i < n_out; ++i) {
    rknn_tensor_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    attr.index = i;
    if (!Check(rknn_query(ctx, RKNN_QUERY_OUTPUT_ATTR, &attr, sizeof(attr)), "rknn_query(OUTPUT_ATTR)")) {
      return release(), false;
    }
    attr.type = RKNN_TENSOR_FLOAT32;
    attr.fmt = RKNN_TENSOR_NCHW;
    rknn_tensor_mem* m = rknn_create_mem(ctx, attr.n_elems * sizeof(float));
    if (m == nullptr) return release(), Check(RKNN_ERR_MALLOC_FAIL, "rknn_create_mem");
    mems.push_back(m);
    if (!Check(rknn_set_io_mem(ctx, m, &attr), "rknn_set_io_mem(output)")) return release(), false;
  }
  for (int k = 0; k < o.warmup + o.loops; ++k) {
    const Clock::time_point a = Clock::now();
    if (!Check(rknn_run(ctx, nullptr), "rknn_run")) return release(), false;
    const Clock::time_point b = Clock::now();
    if (k < o.warmup) continue;
    t->input.push_back(0.0);
    t->run.push_back(Ms(a, b));
    t->output.push_back(0.0);
    t->frame.push_back(Ms(a, b));
    t->ops.push_back(OpsMs(ctx));
  }
  release();
  return true;
}

void PrintRow(const char* name, const PathTimes& t) {
  const double frame = Median(t.frame), ops = Median(t.ops);
  const double io = frame - ops;
  std::printf("| %-22s | %10.3f | %10.3f | %10.3f | %10.3f | %10.3f | %10.3f | %6.2f %% |\n", name, Median(t.input),
              Median(t.run), Median(t.output), frame, ops, io, frame > 0 ? 100.0 * io / frame : 0.0);
}

// rknn_init by path (size 0), as `npurt run` does, then the core mask (left alone at "auto", which
// single-core platforms refuse to be set).
int InitByPath(const BenchOptions& o, rknn_context* ctx) {
  int ret = rknn_init(ctx, const_cast<char*>(o.model.c_str()), 0, 0, nullptr);
  if (ret != RKNN_SUCC || o.core_mask == "auto") return ret;
  ret = rknn_set_core_mask(*ctx, static_cast<rknn_core_mask>(kCoreMasks.at(o.core_mask)));
  if (ret != RKNN_SUCC) {
    rknn_destroy(*ctx);
    *ctx = 0;
  }
  return ret;
}

int Bench(const BenchOptions& o) {
  rknn_context ctx = 0;
  const Clock::time_point t0 = Clock::now();
  if (!Check(InitByPath(o, &ctx), "rknn_init + rknn_set_core_mask")) return 1;
  const double init_ms = Ms(t0, Clock::now());
  rknn_input_output_num num;
  if (!Check(rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num)), "rknn_query(IN_OUT_NUM)")) return 1;
  std::vector<rknn_tensor_attr> in_attrs(num.n_input);
  for (uint32_t i = 0; i < num.n_input; ++i) {
    std::memset(&in_attrs[i], 0, sizeof(rknn_tensor_attr));
    in_attrs[i].index = i;
    if (!Check(rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &in_attrs[i], sizeof(rknn_tensor_attr)), "rknn_query")) return 1;
  }
  std::printf("%s: %u input(s), %u output(s); rknn_init %.1f ms; core mask %s; %d timed frames after %d warm-up "
              "(median ms)\n",
              o.model.c_str(), num.n_input, num.n_output, init_ms, o.core_mask.c_str(), o.loops, o.warmup);
  PathTimes copying;
  if (!BenchCopying(ctx, num.n_input, num.n_output, in_attrs, o, &copying)) return rknn_destroy(ctx), 1;
  if (!o.io) {
    std::printf("frame (inputs_set + run + outputs_get): median %.3f ms, min %.3f, max %.3f; %.1f FPS\n",
                Median(copying.frame), *std::min_element(copying.frame.begin(), copying.frame.end()),
                *std::max_element(copying.frame.begin(), copying.frame.end()), 1000.0 / Median(copying.frame));
    rknn_destroy(ctx);
    return 0;
  }
  // A second context for zero-copy: bound memory is read at every run, whatever inputs_set wrote.
  rknn_context zc = 0;
  if (!Check(InitByPath(o, &zc), "rknn_init + rknn_set_core_mask")) {
    return rknn_destroy(ctx), 1;
  }
  PathTimes zero;
  const bool ok = BenchZeroCopy(zc, num.n_input, num.n_output, o, &zero);
  rknn_destroy(zc);
  rknn_destroy(ctx);
  if (!ok) return 1;
  std::printf("| %-22s | %10s | %10s | %10s | %10s | %10s | %10s | %8s |\n", "I/O path", "input set", "rknn_run",
              "output get", "frame", "model ops", "I/O", "I/O share");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s|\n", std::string(24, '-').c_str(), std::string(12, '-').c_str(),
              std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(12, '-').c_str(),
              std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(10, '-').c_str());
  PrintRow("copying (inputs_set)", copying);
  PrintRow("zero-copy (set_io_mem)", zero);
  std::printf("(uint8 NHWC in, float32 NCHW out; I/O = frame - model ops: normalization, quantization and "
              "relayout of the input, dequantization of the outputs, and for the copying API its copies)\n");
  return 0;
}

}  // namespace

void AddBenchCommand(CLI::App& app, int* exit_code) {
  static BenchOptions opt;
  CLI::App* cmd = app.add_subcommand("bench", "Time a model through the RKNN C API (median over frames)");
  cmd->add_option("model", opt.model, "npurt model file (.rknn)")->required()->check(CLI::ExistingFile);
  cmd->add_option("-n,--loops", opt.loops, "Timed frames")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--warmup", opt.warmup, "Untimed frames first")->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_flag("--io", opt.io,
                "Compare the copying API with zero-copy memory: input set, run, output get, frame, the model's "
                "own ops and the I/O share of the frame");
  cmd->add_option("--core-mask", opt.core_mask,
                  "rknn_set_core_mask before timing: auto, 0, 1, 2, 0_1, 0_1_2 or all (one thread per NPU core "
                  "named, at most the CPUs there are; auto: NPURT_NUM_THREADS, default 1)")
      ->check(CLI::IsMember({"auto", "0", "1", "2", "0_1", "0_1_2", "all"}))
      ->capture_default_str();
  cmd->callback([exit_code]() { *exit_code = Bench(opt); });
}

}  // namespace cli
}  // namespace npurt
