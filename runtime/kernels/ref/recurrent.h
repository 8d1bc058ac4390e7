// ONNX's recurrent layers RNN, GRU and LSTM over a whole sequence, in float32 with the dot products
// summed in double. Tensors as ONNX lays them out with layout = 0 (X [seq, batch, input], Y
// [seq, dirs, batch, hidden], states [dirs, batch, hidden]); `batch_major` (layout = 1) swaps the
// first two dims of X and Y and of the states. Gate orders: LSTM i, o, f, c; GRU z, r, h.
#pragma once

#include <cstdint>

namespace npurt {

enum class RecurrentCell { kRnn, kGru, kLstm };

// The activations ONNX allows, with their optional alpha and beta.
enum class RecurrentActivation { kSigmoid, kTanh, kRelu, kHardSigmoid, kLeakyRelu, kThresholdedRelu, kScaledTanh,
                                 kAffine, kElu, kSoftsign, kSoftplus };

struct RecurrentFunction {
  RecurrentActivation kind = RecurrentActivation::kSigmoid;
  float alpha = 0.0f;
  float beta = 0.0f;
};

float ApplyRecurrentActivation(const RecurrentFunction& f, float x);

constexpr int kMaxRecurrentFunctions = 6;  // 3 per direction (LSTM)

struct RecurrentParams {
  RecurrentCell cell = RecurrentCell::kLstm;
  int64_t seq = 0, batch = 0, input = 0, hidden = 0;
  int directions = 1;     // 2: forward then reverse
  bool reverse = false;   // one direction, run backwards
  bool batch_major = false;
  float clip = 0.0f;      // > 0: gate pre-activations clipped to [-clip, clip]
  bool input_forget = false;           // LSTM: f = 1 - i
  bool linear_before_reset = false;    // GRU
  RecurrentFunction f[kMaxRecurrentFunctions];  // per direction: f, g[, h]
};

// Gates per cell: RNN 1, GRU 3, LSTM 4.
int RecurrentGates(RecurrentCell cell);

// Scratch floats the kernel needs: hidden and cell states, gate sums.
int64_t RecurrentScratchFloats(const RecurrentParams& p);

// w [dirs, gates * hidden, input], r [dirs, gates * hidden, hidden], b [dirs, 2 * gates * hidden] or
// nullptr, lengths [batch] or nullptr (every sequence is `seq` long), initial_h / initial_c
// [dirs, batch, hidden] or nullptr (zeros), peepholes [dirs, 3 * hidden] or nullptr (LSTM: i, o, f).
// y, y_h, y_c may each be nullptr. Returns false when a length is outside [0, seq].
bool recurrent__ref(const RecurrentParams& p, const float* x, const float* w, const float* r, const float* b,
                    const int32_t* lengths, const float* initial_h, const float* initial_c, const float* peepholes,
                    float* y, float* y_h, float* y_c, float* scratch);

}  // namespace npurt
