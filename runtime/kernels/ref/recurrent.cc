#include "runtime/kernels/ref/recurrent.h"

#include <cmath>

namespace npurt {

float ApplyRecurrentActivation(const RecurrentFunction& f, float x) {
  switch (f.kind) {
    case RecurrentActivation::kSigmoid: return x >= 0 ? 1.0f / (1.0f + std::exp(-x)) : std::exp(x) / (1.0f + std::exp(x));
    case RecurrentActivation::kTanh: return std::tanh(x);
    case RecurrentActivation::kRelu: return x < 0 ? 0.0f : x;
    case RecurrentActivation::kHardSigmoid: {
      const float v = f.alpha * x + f.beta;
      return v < 0 ? 0.0f : v > 1 ? 1.0f : v;
    }
    case RecurrentActivation::kLeakyRelu: return x < 0 ? f.alpha * x : x;
    case RecurrentActivation::kThresholdedRelu: return x > f.alpha ? x : 0.0f;
    case RecurrentActivation::kScaledTanh: return f.alpha * std::tanh(f.beta * x);
    case RecurrentActivation::kAffine: return f.alpha * x + f.beta;
    case RecurrentActivation::kElu: return x < 0 ? f.alpha * std::expm1(x) : x;
    case RecurrentActivation::kSoftsign: return x / (1.0f + std::fabs(x));
    case RecurrentActivation::kSoftplus: return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }
  return x;
}

int RecurrentGates(RecurrentCell cell) { return cell == RecurrentCell::kLstm ? 4 : cell == RecurrentCell::kGru ? 3 : 1; }

int64_t RecurrentScratchFloats(const RecurrentParams& p) {
  const int64_t g = RecurrentGates(p.cell);
  return p.batch * p.hidden * (2 + 2 * g);  // h, c, then input and recurrent sums of every gate
}

namespace {

// row . v over n values, in double.
double Dot(const float* row, const float* v, int64_t n) {
  double s = 0.0;
  for (int64_t k = 0; k < n; ++k) s += static_cast<double>(row[k]) * v[k];
  return s;
}

float Clip(const RecurrentParams& p, float v) {
  if (p.clip <= 0.0f) return v;
  return v < -p.clip ? -p.clip : v > p.clip ? p.clip : v;
}

// One direction `d` over the sequence, forward or backward in time.
bool RunDirection(const RecurrentParams& p, int d, bool backward, const float* x, const float* w, const float* r,
                  const float* b, const int32_t* lengths, const float* initial_h, const float* initial_c,
                  const float* peepholes, float* y, float* y_h, float* y_c, float* scratch) {
  const int64_t H = p.hidden, I = p.input, B = p.batch, G = RecurrentGates(p.cell);
  const float* wd = w + d * G * H * I;
  const float* rd = r + d * G * H * H;
  const float* wb = b != nullptr ? b + d * 2 * G * H : nullptr;
  const float* rb = b != nullptr ? wb + G * H : nullptr;
  const float* pd = peepholes != nullptr ? peepholes + d * 3 * H : nullptr;
  const RecurrentFunction* fn = p.f + d * (p.cell == RecurrentCell::kLstm ? 3 : p.cell == RecurrentCell::kGru ? 2 : 1);
  float* h = scratch;               // [B, H]
  float* c = h + B * H;             // [B, H]
  float* xs = c + B * H;            // [B, G * H]: input sums (with Wb)
  float* hs = xs + B * G * H;       // [B, G * H]: recurrent sums (with Rb)
  auto state_at = [&](int64_t batch) { return p.batch_major ? (batch * p.directions + d) * H : (d * B + batch) * H; };
  for (int64_t n = 0; n < B; ++n) {
    for (int64_t k = 0; k < H; ++k) {
      h[n * H + k] = initial_h != nullptr ? initial_h[state_at(n) + k] : 0.0f;
      c[n * H + k] = initial_c != nullptr ? initial_c[state_at(n) + k] : 0.0f;
    }
  }
  for (int64_t n = 0; n < B; ++n) {
    const int64_t length = lengths != nullptr ? lengths[n] : p.seq;
    if (length < 0 || length > p.seq) return false;
  }
  for (int64_t step = 0; step < p.seq; ++step) {
    for (int64_t n = 0; n < B; ++n) {
      const int64_t length = lengths != nullptr ? lengths[n] : p.seq;
      const int64_t t = backward ? length - 1 - step : step;  // a reversed sequence starts at its own end
      float* yt = nullptr;
      if (y != nullptr && step < p.seq) {
        const int64_t out_t = step < length ? t : step;
        yt = y + (p.batch_major ? ((n * p.seq + out_t) * p.directions + d) * H : ((out_t * p.directions + d) * B + n) * H);
      }
      if (step >= length) {  // past the sequence's end: zeros out, the state kept
        if (yt != nullptr) {
          for (int64_t k = 0; k < H; ++k) yt[k] = 0.0f;
        }
        continue;
      }
      const float* xt = x + (p.batch_major ? (n * p.seq + t) * I : (t * B + n) * I);
      float* hn = h + n * H;
      float* cn = c + n * H;
      float* xsn = xs + n * G * H;
      float* hsn = hs + n * G * H;
      for (int64_t j = 0; j < G * H; ++j) {
        xsn[j] = static_cast<float>(Dot(wd + j * I, xt, I) + (wb != nullptr ? wb[j] : 0.0f));
        hsn[j] = static_cast<float>(Dot(rd + j * H, hn, H) + (rb != nullptr ? rb[j] : 0.0f));
      }
      if (p.cell == RecurrentCell::kRnn) {
        for (int64_t k = 0; k < H; ++k) hn[k] = ApplyRecurrentActivation(fn[0], Clip(p, xsn[k] + hsn[k]));
      } else if (p.cell == RecurrentCell::kGru) {  // gates z, r, h
        // z and r of every unit first (the candidate's sum reads r of all of them), into the input
        // sums' slots they no longer need; then the candidates into the recurrent sums' first slots.
        for (int64_t k = 0; k < H; ++k) {
          xsn[k] = ApplyRecurrentActivation(fn[0], Clip(p, xsn[k] + hsn[k]));
          xsn[H + k] = ApplyRecurrentActivation(fn[0], Clip(p, xsn[H + k] + hsn[H + k]));
        }
        for (int64_t k = 0; k < H; ++k) {
          float candidate;
          if (p.linear_before_reset) {  // r . (h R^T + Rb)
            candidate = xsn[2 * H + k] + xsn[H + k] * hsn[2 * H + k];
          } else {  // (r . h) R^T + Rb
            double sum = rb != nullptr ? rb[2 * H + k] : 0.0f;
            for (int64_t m = 0; m < H; ++m) sum += static_cast<double>(rd[(2 * H + k) * H + m]) * (xsn[H + m] * hn[m]);
            candidate = xsn[2 * H + k] + static_cast<float>(sum);
          }
          hsn[k] = ApplyRecurrentActivation(fn[1], Clip(p, candidate));
        }
        for (int64_t k = 0; k < H; ++k) hn[k] = (1.0f - xsn[k]) * hsn[k] + xsn[k] * hn[k];
      } else {  // LSTM: gates i, o, f, c
        for (int64_t k = 0; k < H; ++k) {
          const float ci = cn[k];
          float gi = xsn[k] + hsn[k] + (pd != nullptr ? pd[k] * ci : 0.0f);
          const float i_gate = ApplyRecurrentActivation(fn[0], Clip(p, gi));
          float gf = xsn[2 * H + k] + hsn[2 * H + k] + (pd != nullptr ? pd[2 * H + k] * ci : 0.0f);
          const float f_gate = p.input_forget ? 1.0f - i_gate : ApplyRecurrentActivation(fn[0], Clip(p, gf));
          const float candidate = ApplyRecurrentActivation(fn[1], Clip(p, xsn[3 * H + k] + hsn[3 * H + k]));
          const float cell = f_gate * ci + i_gate * candidate;
          float go = xsn[H + k] + hsn[H + k] + (pd != nullptr ? pd[H + k] * cell : 0.0f);
          const float o_gate = ApplyRecurrentActivation(fn[0], Clip(p, go));
          cn[k] = cell;
          hn[k] = o_gate * ApplyRecurrentActivation(fn[2], cell);
        }
      }
      if (yt != nullptr) {
        for (int64_t k = 0; k < H; ++k) yt[k] = hn[k];
      }
    }
  }
  for (int64_t n = 0; n < B; ++n) {
    for (int64_t k = 0; k < H; ++k) {
      if (y_h != nullptr) y_h[state_at(n) + k] = h[n * H + k];
      if (y_c != nullptr) y_c[state_at(n) + k] = c[n * H + k];
    }
  }
  return true;
}

}  // namespace

bool recurrent__ref(const RecurrentParams& p, const float* x, const float* w, const float* r, const float* b,
                    const int32_t* lengths, const float* initial_h, const float* initial_c, const float* peepholes,
                    float* y, float* y_h, float* y_c, float* scratch) {
  for (int d = 0; d < p.directions; ++d) {
    const bool backward = p.directions == 2 ? d == 1 : p.reverse;
    if (!RunDirection(p, d, backward, x, w, r, b, lengths, initial_h, initial_c, peepholes, y, y_h, y_c, scratch)) {
      return false;
    }
  }
  return true;
}

}  // namespace npurt
