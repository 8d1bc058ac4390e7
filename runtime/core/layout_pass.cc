#include "runtime/core/layout_pass.h"

#include <unordered_map>
#include <utility>

namespace npurt {

namespace {

// The operands an elementwise node ties together: its inputs and outputs with the output's size.
template <typename F>
void ForEachFullOperand(const OpNode& node, F&& f) {
  const int64_t size = node.outputs[0]->num_elements();
  for (Tensor* t : node.inputs) {
    if (t != nullptr && t->num_elements() == size) f(t);
  }
  for (Tensor* t : node.outputs) f(t);
}

}  // namespace

int AssignChannelsLast(std::vector<OpNode>* nodes, std::vector<Tensor>* tensors, const std::vector<bool>& movable) {
  std::unordered_map<const Tensor*, bool> last;  // the candidates: tensors some NHWC-capable node touches
  auto candidate = [&](Tensor* t) {
    const size_t index = static_cast<size_t>(t - tensors->data());
    if (index < movable.size() && movable[index] && t->rank() == 4) last.emplace(t, true);
  };
  for (OpNode& node : *nodes) {
    if (node.channels_last_io) {
      candidate(node.inputs[0]);
      candidate(node.outputs[0]);
    }
  }
  if (last.empty()) return 0;
  for (OpNode& node : *nodes) {
    if (node.layout_agnostic && !node.outputs.empty()) ForEachFullOperand(node, candidate);
  }
  auto is_last = [&last](const Tensor* t) {
    const auto it = last.find(t);
    return it != last.end() && it->second;
  };
  // Every use of a tensor must allow channels-last; a tensor that fails turns its
  // elementwise neighbours back to NCHW, so repeat until nothing changes.
  std::unordered_map<const Tensor*, int> uses;
  for (const OpNode& node : *nodes) {
    for (const Tensor* t : node.inputs) uses[t] += 1;
    for (const Tensor* t : node.outputs) uses[t] += 1;
  }
  bool changed = true;
  while (changed) {
    changed = false;
    std::unordered_map<const Tensor*, int> allowed;
    for (const OpNode& node : *nodes) {
      if (node.layout_agnostic && !node.outputs.empty()) {
        bool all = true;
        ForEachFullOperand(node, [&](const Tensor* t) { all = all && is_last(t); });
        if (all) ForEachFullOperand(node, [&](const Tensor* t) { allowed[t] += 1; });
        // An operand of another size is read as a single value: fine either way.
        continue;
      }
      if (node.channels_last_io) {
        allowed[node.inputs[0]] += 1;
        allowed[node.outputs[0]] += 1;
      }
    }
    for (auto& [t, value] : last) {
      if (value && allowed[t] < uses[t]) {
        value = false;
        changed = true;
      }
    }
  }
  int count = 0;
  for (Tensor& t : *tensors) {
    t.channels_last = is_last(&t);
    count += t.channels_last ? 1 : 0;
  }
  return count;
}

}  // namespace npurt
