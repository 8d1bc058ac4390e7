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
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "rknn_api.h"
#include "runtime/core/model.h"
#include "runtime/core/op_macs.h"
#include "runtime/core/thread_pool.h"
#include "runtime/ops/op.h"
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
  bool json = false;
  int top = 10;
  // This machine's measured peaks per core (../shared/spec/cpu-kernels.md: Zen 4, VNNI), for "% of peak".
  double int8_peak_gops = 469.0;
  double fp32_peak_gflops = 117.0;
};

// One op of the profile: its mean time over the profiled frames and what it computes.
struct OpProfile {
  std::string name, type, dtype, kernel;
  double us = 0.0;
  int64_t macs = 0;
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

// Times every op: a second context with RKNN_FLAG_COLLECT_PERF_MASK runs `frames` frames and
// RKNN_QUERY_PERF_DETAIL gives each op's time and kernel; the MACs come from the model.
bool ProfileOps(const BenchOptions& o, uint32_t n_in, uint32_t n_out, const std::vector<rknn_tensor_attr>& in_attrs,
                int frames, std::vector<OpProfile>* ops) {
  std::shared_ptr<const Model> model;
  if (!Model::Load(o.model.c_str(), 0, &model).ok()) return false;
  rknn_context ctx = 0;
  if (!Check(rknn_init(&ctx, const_cast<char*>(o.model.c_str()), 0, RKNN_FLAG_COLLECT_PERF_MASK, nullptr),
             "rknn_init(COLLECT_PERF)")) {
    return false;
  }
  if (o.core_mask != "auto" &&
      !Check(rknn_set_core_mask(ctx, static_cast<rknn_core_mask>(kCoreMasks.at(o.core_mask))), "rknn_set_core_mask")) {
    return rknn_destroy(ctx), false;
  }
  ops->assign(model->ops().size(), OpProfile());
  for (size_t k = 0; k < ops->size(); ++k) {
    const OpDesc& op = model->ops()[k];
    std::vector<const Shape*> shapes;
    for (int i : op.inputs) shapes.push_back(i < 0 ? nullptr : &model->tensors()[i].shape);
    (*ops)[k].macs = op.outputs.empty() ? 0 : OpMacs(op.def->name, op.attrs, shapes, model->tensors()[op.outputs[0]].shape);
  }
  BenchOptions once = o;
  once.warmup = 1;
  once.loops = 1;
  for (int f = 0; f < frames; ++f) {
    PathTimes ignored;
    if (!BenchCopying(ctx, n_in, n_out, in_attrs, once, &ignored)) return rknn_destroy(ctx), false;
    rknn_perf_detail detail;
    std::memset(&detail, 0, sizeof(detail));
    if (!Check(rknn_query(ctx, RKNN_QUERY_PERF_DETAIL, &detail, sizeof(detail)), "rknn_query(PERF_DETAIL)")) {
      return rknn_destroy(ctx), false;
    }
    // Rows: ID OpType DataType Target InputShape OutputShape Time(us) Kernel FullName.
    std::istringstream table(detail.perf_data != nullptr ? detail.perf_data : "");
    std::string line;
    while (std::getline(table, line)) {
      std::istringstream row(line);
      size_t id = 0;
      std::string type, dtype, target, in_shape, out_shape, kernel, name;
      double us = 0.0;
      if (!(row >> id >> type >> dtype >> target >> in_shape >> out_shape >> us)) continue;
      // The kernel may hold spaces ("... in 2 pieces"); the op's name is the last field.
      std::string rest;
      std::getline(row, rest);
      const size_t end = rest.find_last_not_of(" \t"), name_at = rest.find_last_of(" \t", end);
      if (end == std::string::npos || name_at == std::string::npos) continue;
      name = rest.substr(name_at + 1, end - name_at);
      const size_t kernel_at = rest.find_first_not_of(" \t"), kernel_end = rest.find_last_not_of(" \t", name_at);
      if (kernel_at == std::string::npos || kernel_end == std::string::npos || kernel_at > kernel_end) continue;
      kernel = rest.substr(kernel_at, kernel_end - kernel_at + 1);
      if (id == 0 || id > ops->size()) continue;
      OpProfile& p = (*ops)[id - 1];
      p.name = name, p.type = type, p.dtype = dtype, p.kernel = kernel;
      p.us += us / frames;
    }
  }
  rknn_destroy(ctx);
  return true;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
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
  if (!o.json) {
    std::printf("%s: %u input(s), %u output(s); rknn_init %.1f ms; core mask %s; %d timed frames after %d warm-up "
                "(median ms)\n",
                o.model.c_str(), num.n_input, num.n_output, init_ms, o.core_mask.c_str(), o.loops, o.warmup);
  }
  PathTimes copying;
  if (!BenchCopying(ctx, num.n_input, num.n_output, in_attrs, o, &copying)) return rknn_destroy(ctx), 1;
  if (!o.io) {
    rknn_destroy(ctx);
    const double median = Median(copying.frame);
    const double min = *std::min_element(copying.frame.begin(), copying.frame.end());
    const double max = *std::max_element(copying.frame.begin(), copying.frame.end());
    std::vector<OpProfile> ops;
    if (o.top > 0 && !ProfileOps(o, num.n_input, num.n_output, in_attrs, std::max(3, std::min(o.loops, 10)), &ops)) {
      return 1;
    }
    // Threads as rknn_set_core_mask gives them: one per NPU core named, at most the CPUs there are.
    const int named = o.core_mask == "auto" ? ThreadPool::DefaultThreads()
                      : o.core_mask == "0_1"  ? 2
                      : o.core_mask == "0_1_2" || o.core_mask == "all" ? 3
                                                                        : 1;
    const int threads = std::max(1, std::min(named, ThreadPool::HardwareThreads()));
    int64_t total_macs = 0, int8_macs = 0;
    for (const OpProfile& p : ops) {
      total_macs += p.macs;
      if (p.dtype == "INT8" || p.dtype == "INT16") int8_macs += p.macs;
    }
    const bool int8 = int8_macs * 2 > total_macs;
    const double peak = (int8 ? o.int8_peak_gops : o.fp32_peak_gflops) * threads;
    const double gops = median > 0 ? 2.0 * static_cast<double>(total_macs) / (median * 1e6) : 0.0;
    std::vector<size_t> order(ops.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&ops](size_t a, size_t b) { return ops[a].us > ops[b].us; });
    order.resize(std::min<size_t>(order.size(), static_cast<size_t>(std::max(o.top, 0))));
    if (o.json) {
      std::printf("{\"model\": %s, \"init_ms\": %.3f, \"core_mask\": %s, \"threads\": %d, \"loops\": %d, "
                  "\"warmup\": %d, \"median_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, \"fps\": %.2f, "
                  "\"macs\": %lld, \"gops\": %.2f, \"peak_gops\": %.1f, \"peak_percent\": %.2f, \"top_ops\": [",
                  JsonString(o.model).c_str(), init_ms, JsonString(o.core_mask).c_str(), threads, o.loops, o.warmup,
                  median, min, max, 1000.0 / median, static_cast<long long>(total_macs), gops, peak,
                  100.0 * gops / peak);
      for (size_t i = 0; i < order.size(); ++i) {
        const OpProfile& p = ops[order[i]];
        std::printf("%s{\"name\": %s, \"type\": %s, \"dtype\": %s, \"kernel\": %s, \"us\": %.1f, \"macs\": %lld}",
                    i == 0 ? "" : ", ", JsonString(p.name).c_str(), JsonString(p.type).c_str(),
                    JsonString(p.dtype).c_str(), JsonString(p.kernel).c_str(), p.us, static_cast<long long>(p.macs));
      }
      std::printf("]}\n");
      return 0;
    }
    std::printf("frame (inputs_set + run + outputs_get): median %.3f ms, min %.3f, max %.3f; %.1f FPS\n", median, min,
                max, 1000.0 / median);
    if (total_macs > 0) {
      std::printf("%.3f GMAC: %.1f G%s/s, %.1f %% of the %s peak of %d thread(s) (%.0f)\n",
                  static_cast<double>(total_macs) * 1e-9, gops, int8 ? "OP" : "FLOP", 100.0 * gops / peak,
                  int8 ? "int8" : "fp32", threads, peak);
    }
    if (!order.empty()) {
      std::printf("top %zu ops by time (mean of the profiled frames):\n", order.size());
      std::printf("  %-28s %-12s %-6s %10s %10s %8s  %s\n", "op", "type", "dtype", "us", "MMAC", "GOPS", "kernel");
      for (size_t k : order) {
        const OpProfile& p = ops[k];
        std::printf("  %-28s %-12s %-6s %10.1f %10.2f %8.1f  %s\n", p.name.c_str(), p.type.c_str(), p.dtype.c_str(),
                    p.us, static_cast<double>(p.macs) * 1e-6, p.us > 0 ? 2.0 * static_cast<double>(p.macs) / (p.us * 1e3) : 0.0,
                    p.kernel.c_str());
      }
    }
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
  cmd->add_flag("--json", opt.json, "One JSON object: latencies, FPS, init time, MACs, GOPS, % of peak, top ops");
  cmd->add_option("--top", opt.top, "Ops to list by time, with kernel, MACs and GOPS (0: no per-op profile)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--int8-peak-gops", opt.int8_peak_gops, "int8 peak per thread for % of peak (this machine's)")
      ->capture_default_str();
  cmd->add_option("--fp32-peak-gflops", opt.fp32_peak_gflops, "float peak per thread for % of peak")
      ->capture_default_str();
  cmd->callback([exit_code]() { *exit_code = Bench(opt); });
}

}  // namespace cli
}  // namespace npurt
