// One ONNX backend-test case (a directory with model.onnx and
// test_data_set_*/{input,output}_N.pb): convert with npurt's compiler, run
// through the public RKNN C API, compare with the shipped outputs.
#pragma once

#include <string>
#include <vector>

namespace conformance {

// kBeyondFp16 (with Tolerance::float16 only): an output npurt's fp16 model cannot match because the float32
// values leave fp16's range -- non-finite fp16 values where float32 is finite (an overflow inside), or a
// reference whose largest magnitude is below fp16's smallest normal (6.1e-5): what a board computes too.
enum class Outcome { kPassed, kFailed, kUnsupported, kBeyondFp16 };

struct CaseResult {
  Outcome outcome = Outcome::kFailed;
  // kUnsupported: what made the model unsupported: an op type ("Loop"), an op
  // in a mode npurt does not run ("Dropout(training_mode)"), or a value kind
  // ("<sequence type>").
  std::string unsupported;
  // kFailed: why (one line). kUnsupported: the converter's message.
  std::string reason;
  // Informational (--verbose): e.g. DOUBLE data converted to float32.
  std::vector<std::string> notes;
};

// How float outputs are compared. The defaults are the ONNX backend-test
// tolerances (onnx/backend/test/runner: assert_allclose with rtol=1e-3,
// atol=1e-7, NaN equal to NaN), applied per element. With min_cosine > 0 the
// whole-tensor criterion for real models applies instead: cosine similarity
// >= min_cosine and max |actual - expected| <= max_abs_rel * max |expected|;
// the measured values are reported as notes.
struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
  double min_cosine = 0.0;
  double max_abs_rel = 0.0;
  // > 0: a float output the model stores quantized must have this fraction of its values within one
  // quantization step (its scale) of the expected.
  double min_within_step = 0.0;
  // --float-dtype float16: the model converted as `npurt convert` does by default (fp16 storage), so the
  // comparison measures the fp16 error against the float32 reference; else float32, ONNX's numbers.
  bool float16 = false;
};

CaseResult RunCase(const std::string& test_dir, const Tolerance& tolerance);

}  // namespace conformance
