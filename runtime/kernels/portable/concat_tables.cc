#include "runtime/kernels/portable/concat_tables.h"

#include <cstring>

namespace npurt {

void s8_concat__tables(const S8ConcatParams& p, const int8_t* const* tables, const int8_t* const* inputs,
                       int8_t* out) {
  for (size_t o = 0; o < p.outer; ++o) {
    for (size_t i = 0; i < p.num_inputs; ++i) {
      const size_t chunk = p.inputs[i].chunk;
      if (chunk == 0) continue;  // a zero-size input contributes nothing (and may have no data)
      const int8_t* src = inputs[i] + o * chunk;
      const int8_t* table = tables[i];
      if (table == nullptr) {
        std::memcpy(out, src, chunk);
      } else {
        for (size_t k = 0; k < chunk; ++k) out[k] = table[src[k] + 128];
      }
      out += chunk;
    }
  }
}

void BuildConcatRequantizeTable(const S8ConcatParams& params, const S8ConcatInput& input, int8_t* table) {
  int8_t codes[256];
  for (int i = 0; i < 256; ++i) codes[i] = static_cast<int8_t>(i - 128);
  S8ConcatInput one = input;
  one.chunk = 256;
  S8ConcatParams all = params;
  all.outer = 1;
  all.num_inputs = 1;
  all.inputs = &one;
  const int8_t* source = codes;
  s8_concat__ref(all, &source, table);
}

}  // namespace npurt
