// Greedy CTC decoding of the recognizer's output and its character table.
#pragma once

#include <string>
#include <vector>

namespace ppocr {

// The recognizer's classes: 0 is the CTC blank, 1..N are the lines of the
// dictionary file (UTF-8, one character per line), N + 1 is a space.
class CharTable {
 public:
  // False and a message in *error if the file cannot be read or is empty.
  bool Load(const std::string& path, std::string* error);
  // Number of classes, blank and space included.
  int num_classes() const { return static_cast<int>(chars_.size()) + 2; }
  const std::string& at(int index) const;

 private:
  std::vector<std::string> chars_;
  std::string space_ = " ";
};

struct RecResult {
  std::string text;
  float score = 0.0f;  // mean probability of the kept characters (0 when there are none)
};

// `probs` holds `steps` rows of `table.num_classes()` probabilities. Takes the
// most likely class at every step, merges repeats and drops blanks.
RecResult CtcGreedyDecode(const float* probs, int steps, const CharTable& table);

}  // namespace ppocr
