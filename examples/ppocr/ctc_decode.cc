#include "ctc_decode.h"

#include <fstream>

namespace ppocr {

bool CharTable::Load(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read dictionary '" + path + "'";
    return false;
  }
  chars_.clear();
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    chars_.push_back(line);
  }
  if (chars_.empty()) {
    *error = "dictionary '" + path + "' is empty";
    return false;
  }
  return true;
}

const std::string& CharTable::at(int index) const {
  return index <= static_cast<int>(chars_.size()) ? chars_[index - 1] : space_;
}

RecResult CtcGreedyDecode(const float* probs, int steps, const CharTable& table) {
  const int classes = table.num_classes();
  RecResult result;
  double score_sum = 0.0;
  int kept = 0;
  int previous = -1;
  for (int t = 0; t < steps; ++t) {
    const float* row = probs + static_cast<size_t>(t) * classes;
    int best = 0;
    for (int c = 1; c < classes; ++c) {
      if (row[c] > row[best]) best = c;
    }
    if (best != 0 && best != previous) {
      result.text += table.at(best);
      score_sum += row[best];
      ++kept;
    }
    previous = best;
  }
  if (kept > 0) result.score = static_cast<float>(score_sum / kept);
  return result;
}

}  // namespace ppocr
