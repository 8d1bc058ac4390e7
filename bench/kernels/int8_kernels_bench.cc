// Throughput of npurt's int8 microkernels one by one (Google Benchmark), for the shapes the benchmark
// models spend their time in: the igemm tile over a band of pixels (1x1 and 3x3, small and large K), alone
// and with its requantization fused, the requantization rows, the activation staging and the depthwise
// kernel. Prints MAC/s or elements/s per kernel that runs on this CPU, so a change to one kernel is
// measured apart from the rest of the frame.
//
//   build/bench/kernels/int8_kernels_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/int8/dwconv.h"
#include "runtime/kernels/int8/igemm.h"
#include "runtime/kernels/int8/requantize_config.h"

namespace npurt {
namespace {

std::vector<int8_t> RandomCodes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

// A 1x1 convolution of stride 1 over `pixels` pixels: k input, n output channels (the direct rows).
struct Pointwise {
  Pointwise(const IgemmKernel& kernel, int64_t pixels, int64_t k, int64_t n) : kernel(kernel), pixels(pixels), n(n) {
    const std::vector<int8_t> w = RandomCodes(static_cast<size_t>(n * k), 1), x = RandomCodes(static_cast<size_t>(pixels * k), 2);
    PackIgemmWeights(kernel, w.data(), nullptr, 1, n, k, 1, 3, &packed);
    row_bytes = packed.group_k * IgemmElementBytes(kernel.format);
    staged.resize(static_cast<size_t>((pixels + 1) * row_bytes));
    input = x;
    stage.input = input.data();
    stage.pixel_stride = k;
    stage.channel_stride = 1;
    stage.group_in = k;
    stage.group_k = packed.group_k;
    stage.zero_point = 3;
    stage.staged = staged.data();
    stage.row_bytes = row_bytes;
    kernel.stage(stage, WorkRange{0, pixels});
    sums.resize(static_cast<size_t>(pixels * packed.blocks * kernel.nr));
  }
  // f(t, p, b) for every tile of the image: pixels from p, block b of nr output channels.
  template <class F>
  void ForEachTile(F&& f) {
    IgemmTileArgs t;
    t.taps = 1;
    t.kgroups = static_cast<int>(packed.kgroups);
    t.base = staged.data();
    t.row_bytes = row_bytes;
    t.out_stride = n;
    for (int64_t p = 0; p < pixels; p += kernel.mr) {
      t.rows = static_cast<int>(std::min<int64_t>(kernel.mr, pixels - p));
      t.first_row = p;
      for (int64_t b = 0; b < packed.blocks; ++b) {
        t.weights = packed.Block(0, b);
        t.bias = packed.BlockBias(0, b);
        t.cols = static_cast<int>(std::min<int64_t>(kernel.nr, n - b * kernel.nr));
        f(t, p, b);
      }
    }
  }
  // Every tile of the image, float(acc) rows of n values.
  void Tiles() {
    ForEachTile([&](IgemmTileArgs& t, int64_t p, int64_t b) {
      t.out = sums.data() + p * n + b * kernel.nr;
      kernel.tile(t);
    });
  }
  // Every tile with its requantization fused (int8 or int16 codes, an int8 residual if `residual`), as the
  // op runs a 1x1 convolution whose activation folds into the clamp.
  void TilesRequantized(bool out16, bool residual) {
    const auto tile = kernel.tile_requant[residual ? 1 : 0][out16 ? 1 : 0];
    IgemmRequant r;
    r.out_scale = out16 ? 1e-2f : 0.5f;
    r.lo = out16 ? -32768.0f : -128.0f;
    r.hi = out16 ? 32767.0f : 127.0f;
    r.residual_scale = 0.25f;
    r.out_stride = n;
    const size_t out_bytes = out16 ? 2 : 1;
    ForEachTile([&](const IgemmTileArgs& t, int64_t p, int64_t b) {
      const size_t at = static_cast<size_t>(p * n + b * kernel.nr);
      r.acc_scale = scale.data() + b * kernel.nr;
      r.out = codes.data() + at * out_bytes;
      r.residual = residual ? residual_codes.data() + at : nullptr;  // laid out as the output, int8
      tile(t, r);
    });
  }
  const IgemmKernel& kernel;
  int64_t pixels, n, row_bytes = 0;
  std::vector<float> scale = std::vector<float>(static_cast<size_t>(n + 64), 1e-3f);
  std::vector<uint8_t> codes = std::vector<uint8_t>(static_cast<size_t>(pixels * n) * 2);
  std::vector<int8_t> residual_codes = RandomCodes(static_cast<size_t>(pixels * n), 3);
  IgemmPackedWeights packed;
  std::vector<int8_t> input;
  std::vector<uint8_t> staged;
  IgemmStageArgs stage;
  std::vector<float> sums;
};

void BM_IgemmTiles(benchmark::State& state, const IgemmKernel* kernel) {
  const int64_t pixels = 64, k = state.range(0), n = state.range(1);
  Pointwise conv(*kernel, pixels, k, n);
  for (auto _ : state) {
    conv.Tiles();
    benchmark::DoNotOptimize(conv.sums.data());
  }
  state.counters["GMAC/s"] = benchmark::Counter(static_cast<double>(pixels * k * n) * 1e-9 * state.iterations(),
                                                benchmark::Counter::kIsRate);
  state.counters["Gout/s"] = benchmark::Counter(static_cast<double>(pixels * n) * 1e-9 * state.iterations(),
                                                benchmark::Counter::kIsRate);
}

// The tiles with the requantization in their epilogue (args: K, N, int16 output, int8 residual).
void BM_IgemmTilesRequantized(benchmark::State& state, const IgemmKernel* kernel) {
  const int64_t pixels = 64, k = state.range(0), n = state.range(1);
  Pointwise conv(*kernel, pixels, k, n);
  for (auto _ : state) {
    conv.TilesRequantized(state.range(2) != 0, state.range(3) != 0);
    benchmark::DoNotOptimize(conv.codes.data());
  }
  state.counters["GMAC/s"] = benchmark::Counter(static_cast<double>(pixels * k * n) * 1e-9 * state.iterations(),
                                                benchmark::Counter::kIsRate);
  state.counters["Gout/s"] = benchmark::Counter(static_cast<double>(pixels * n) * 1e-9 * state.iterations(),
                                                benchmark::Counter::kIsRate);
}

// Rows of sums requantized: channels per row, rows per call (args), int16 residual codes if the third arg.
void BM_RequantizeRows(benchmark::State& state, bool out16) {
  const int64_t rows = state.range(1), channels = state.range(0);
  std::vector<float> sums(static_cast<size_t>(rows * channels)), scale(static_cast<size_t>(channels), 1e-3f);
  std::mt19937 rng(4);
  for (auto& v : sums) v = static_cast<float>(std::uniform_int_distribution<int>(-100000, 100000)(rng));
  std::vector<int16_t> out(sums.size());
  RequantizeRowsParams p;
  p.channels = channels;
  p.acc_scale = scale.data();
  p.activation.kind = FusedActivation::kClip;
  p.activation.a = 0.0f;
  p.activation.b = 6.0f;
  p.out_scale = out16 ? 1e-3f : 0.05f;
  p.out_type = out16 ? DataType::kInt16 : DataType::kInt8;
  p.out_min = out16 ? -32768 : -128;
  p.out_max = out16 ? 32767 : 127;
  std::vector<int16_t> residual(sums.size(), 7);
  if (state.range(2) != 0) {
    p.residual.data = residual.data();
    p.residual.type = DataType::kInt16;
    p.residual.scale = 1e-3f;
    p.residual.zero_point = 3;
  }
  const RequantizeFloatRowsFn rows_fn = ChooseRequantizeFloatRows();
  for (auto _ : state) {
    for (int i = 0; i < 64 / rows; ++i) rows_fn(p, sums.data(), out.data(), WorkRange{0, rows});
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["Gout/s"] = benchmark::Counter(static_cast<double>(64 * channels) * 1e-9 * state.iterations(),
                                                benchmark::Counter::kIsRate);
}

// The depthwise kernel on a size x size x channels image, 3x3 of stride `stride`, same padding, item by
// item as the op runs it: the item's region staged into one slot, then its sums (args: size, channels,
// stride, int16 input).
void BM_Dwconv(benchmark::State& state, const DwconvKernel* kernel) {
  const int64_t size = state.range(0), channels = state.range(1), stride = state.range(2);
  const bool int16_input = state.range(3) != 0;
  const int64_t out = (size + 2 - 3) / stride + 1;
  const DwconvGeometry g = MakeDwconvGeometry(kernel->format, kernel->band_rows, channels, size, size, out, out, 3, 3,
                                              stride, stride, 1, 1, 1, 1);
  const std::vector<int8_t> w = RandomCodes(static_cast<size_t>(channels * 9), 5);
  std::vector<uint8_t> weights;
  std::vector<int32_t> bias;
  PackDwconvWeights(*kernel, g, w.data(), nullptr, 0, &weights, &bias);
  const std::vector<int64_t> offsets = DwconvTapOffsets(g);
  const std::vector<int8_t> input = RandomCodes(static_cast<size_t>(size * size * channels) * (int16_input ? 2 : 1), 6);
  const std::vector<uint8_t> zero_row(static_cast<size_t>(channels) * 2, 0);
  std::vector<uint8_t> region(static_cast<size_t>(DwconvRegionBytes(g)));
  std::vector<float> sums(static_cast<size_t>(g.band_rows * g.chunk_cols * channels));
  DwconvStageArgs stage;
  stage.geometry = &g;
  stage.input = input.data();
  stage.input_int16 = int16_input;
  stage.pixel_stride = channels;
  stage.zero_row = zero_row.data();
  DwconvArgs args;
  args.geometry = &g;
  args.region = region.data();
  args.tap_offsets = offsets.data();
  args.weights = weights.data();
  args.bias = bias.data();
  args.out = sums.data();
  const DwconvRunFn run = DwconvRunFor(*kernel, g);
  const bool run_only = state.range(4) != 0;
  for (auto _ : state) {
    for (int64_t i = 0; i < g.bands * g.chunks; ++i) {
      const DwconvItem item = DwconvItemAt(g, i);
      if (!run_only || i == 0) kernel->stage(stage, item, region.data());
      run(args, item);
    }
    benchmark::DoNotOptimize(sums.data());
  }
  state.counters["GMAC/s"] = benchmark::Counter(static_cast<double>(out * out * channels * 9) * 1e-9 * state.iterations(),
                                                benchmark::Counter::kIsRate);
}

void RegisterAll() {
  for (const DwconvKernel* k : AllDwconvKernels()) {
    if (!DwconvKernelRuns(*k)) continue;
    // Staging and sums; the sums alone (one region staged, every item reading it).
    auto* b = benchmark::RegisterBenchmark((std::string("dwconv/") + k->name).c_str(), BM_Dwconv, k);
    for (int run_only : {0, 1}) {
      b->Args({112, 32, 1, 1, run_only})->Args({112, 96, 2, 1, run_only})->Args({28, 192, 1, 0, run_only});
      b->Args({14, 576, 1, 1, run_only})->Args({56, 144, 2, 0, run_only});
      if (!k->int16_inputs) b->Args({112, 32, 1, 0, run_only});
    }
  }
  for (const IgemmKernel* k : AllIgemmKernels()) {
    if (!IgemmKernelRuns(*k)) continue;
    auto* b = benchmark::RegisterBenchmark((std::string("igemm_tiles/") + k->name).c_str(), BM_IgemmTiles, k);
    for (const auto& kn : std::vector<std::pair<int64_t, int64_t>>{{16, 96}, {32, 192}, {64, 256}, {256, 64}, {576, 64}, {1024, 256}, {4608, 512}}) {
      b->Args({kn.first, kn.second});
    }
  }
  for (const IgemmKernel* k : AllIgemmKernels()) {
    if (!IgemmKernelRuns(*k) || k->tile_requant[0][0] == nullptr) continue;
    auto* b = benchmark::RegisterBenchmark((std::string("igemm_tiles_requantized/") + k->name).c_str(),
                                           BM_IgemmTilesRequantized, k);
    b->Args({16, 96, 0, 0})->Args({64, 256, 0, 0})->Args({64, 256, 0, 1})->Args({64, 256, 1, 0})->Args({576, 64, 0, 0});
  }
  for (bool out16 : {false, true}) {
    auto* b = benchmark::RegisterBenchmark(out16 ? "requantize_rows/int16" : "requantize_rows/int8", BM_RequantizeRows, out16);
    b->Args({96, 64, 0})->Args({256, 64, 0})->Args({128, 1, 0})->Args({128, 64, 1})->Args({128, 1, 1});
  }
}

}  // namespace
}  // namespace npurt

int main(int argc, char** argv) {
  npurt::RegisterAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
