// Random sequences of memory calls on one context — create, bind, destroy,
// sync, run, copy-API runs, in any order, with some memory too small or
// already freed — from a fixed seed. Every call must return one of the codes
// its situation allows, every successful run must give the oracle's outputs,
// and nothing may crash or leak (the ASan build runs this too).
#include <random>

#include "api_test_util.h"

namespace apitest {
namespace {

TEST(MemoryStress, RandomCallSequencesKeepTheirContracts) {
  ScopedContext ctx(ConvReluPoolModel());
  ASSERT_EQ(ctx.init_result(), RKNN_SUCC);
  rknn_tensor_attr in_attr;
  std::memset(&in_attr, 0, sizeof(in_attr));
  ASSERT_EQ(rknn_query(ctx.get(), RKNN_QUERY_INPUT_ATTR, &in_attr, sizeof(in_attr)), RKNN_SUCC);
  in_attr.type = RKNN_TENSOR_UINT8;
  in_attr.fmt = RKNN_TENSOR_NHWC;
  in_attr.w_stride = kW;
  rknn_tensor_attr out_attr;
  std::memset(&out_attr, 0, sizeof(out_attr));
  ASSERT_EQ(rknn_query(ctx.get(), RKNN_QUERY_OUTPUT_ATTR, &out_attr, sizeof(out_attr)), RKNN_SUCC);
  out_attr.type = RKNN_TENSOR_FLOAT32;
  const uint32_t in_bytes = kH * kW * kC, out_bytes = kYC * kH * kW * sizeof(float);

  std::mt19937 rng(20261130);
  std::vector<rknn_tensor_mem*> live;
  rknn_tensor_mem* bound_in = nullptr;   // what the context reads (may be destroyed by the application)
  rknn_tensor_mem* bound_out = nullptr;  // what the context writes
  bool out_alive = false;                // bound_out not destroyed: the test may still read it
  bool input_set = false;
  uint32_t expected = 0;                 // the pattern the next run computes
  int checked_runs = 0, bound_output_checks = 0, destroyed_while_bound = 0;
  for (int step = 0; step < 3000; ++step) {
    switch (rng() % 8) {
      case 0: {  // create, sometimes too small for the input
        const uint32_t size = rng() % 4 == 0 ? in_bytes - 1 : std::max(in_bytes, out_bytes);
        rknn_tensor_mem* m = rng() % 2 ? rknn_create_mem(ctx.get(), size) : rknn_create_mem2(ctx.get(), size, 0);
        ASSERT_NE(m, nullptr);
        live.push_back(m);
        break;
      }
      case 1: {  // bind an input
        if (live.empty()) break;
        rknn_tensor_mem* m = live[rng() % live.size()];
        if (m == bound_out) break;  // one memory as input and output is the application's bug
        const int ret = rknn_set_io_mem(ctx.get(), m, &in_attr);
        ASSERT_EQ(ret, m->size >= in_bytes ? RKNN_SUCC : RKNN_ERR_PARAM_INVALID);
        if (ret == RKNN_SUCC) {
          bound_in = m;
          expected = rng() % 16;
          WriteImage(static_cast<uint8_t*>(m->virt_addr), kW, expected);
          input_set = true;
        }
        break;
      }
      case 2: {  // bind output 0
        if (live.empty()) break;
        rknn_tensor_mem* m = live[rng() % live.size()];
        if (m == bound_in) break;
        const int ret = rknn_set_io_mem(ctx.get(), m, &out_attr);
        ASSERT_EQ(ret, m->size >= out_bytes ? RKNN_SUCC : RKNN_ERR_PARAM_INVALID);
        if (ret == RKNN_SUCC) {
          bound_out = m;
          out_alive = true;
        }
        break;
      }
      case 3: {  // destroy one (bound ones too: the context keeps their memory)
        if (live.empty()) break;
        const size_t k = rng() % live.size();
        rknn_tensor_mem* m = live[k];
        if (m == bound_out) out_alive = false;
        if (m == bound_in || m == bound_out) ++destroyed_while_bound;
        ASSERT_EQ(rknn_destroy_mem(ctx.get(), m), RKNN_SUCC);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
      case 4: {  // sync a live one
        if (live.empty()) break;
        ASSERT_EQ(rknn_mem_sync(ctx.get(), live[rng() % live.size()], RKNN_MEMORY_SYNC_BIDIRECTIONAL), RKNN_SUCC);
        break;
      }
      case 5:
      case 6: {  // run and check
        const int ret = rknn_run(ctx.get(), nullptr);
        if (!input_set) {
          ASSERT_EQ(ret, RKNN_ERR_INPUT_INVALID);
          break;
        }
        ASSERT_EQ(ret, RKNN_SUCC);
        std::vector<float> y, z;
        ASSERT_EQ(GetFloatOutputs(ctx.get(), &y, &z), RKNN_SUCC);
        ASSERT_TRUE(AllNear(y.data(), Oracle(expected).y, "y")) << "step " << step;
        ++checked_runs;
        if (bound_out != nullptr && out_alive) {
          ASSERT_EQ(0, std::memcmp(bound_out->virt_addr, y.data(), out_bytes)) << "step " << step;
          ++bound_output_checks;
        }
        break;
      }
      case 7: {  // the copying API; a bound input still wins at the next run
        const uint32_t pattern = rng() % 16;
        ASSERT_EQ(SetDefaultInput(ctx.get(), pattern), RKNN_SUCC);
        input_set = true;
        if (bound_in == nullptr) expected = pattern;
        break;
      }
    }
  }
  for (rknn_tensor_mem* m : live) EXPECT_EQ(rknn_destroy_mem(ctx.get(), m), RKNN_SUCC);
  // The sequence exercised what it is for.
  EXPECT_GT(checked_runs, 300);
  EXPECT_GT(bound_output_checks, 50);
  EXPECT_GT(destroyed_while_bound, 20);
}

}  // namespace
}  // namespace apitest
