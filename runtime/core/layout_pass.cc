#include "runtime/core/layout_pass.h"

#include <unordered_map>
#include <utility>

namespace npurt {

namespace {

bool TiesOperands(const OpNode& node) {
  return (node.layout_agnostic || node.layout_tied) && !node.outputs.empty();
}

// The operands a node ties together: an elementwise node's inputs and outputs with the output's size,
// or every operand of a layout_tied node (Concat).
template <typename F>
void ForEachFullOperand(const OpNode& node, F&& f) {
  const int64_t size = node.outputs[0]->num_elements();
  for (Tensor* t : node.inputs) {
    if (t != nullptr && (node.layout_tied || t->num_elements() == size)) f(t);
  }
  for (Tensor* t : node.outputs) f(t);
}

// The operands a channels_last_io node reads and writes in either layout: input 0, output 0, and any
// other input of output 0's shape (a Conv's residual).
template <typename F>
void ForEachNhwcOperand(const OpNode& node, F&& f) {
  f(node.inputs[0]);
  f(node.outputs[0]);
  for (size_t i = 1; i < node.inputs.size(); ++i) {
    Tensor* t = node.inputs[i];
    if (t != nullptr && t->shape == node.outputs[0]->shape) f(t);
  }
}

}  // namespace

int AssignChannelsLast(std::vector<OpNode>* nodes, std::vector<Tensor>* tensors, const std::vector<bool>& movable) {
  std::unordered_map<const Tensor*, bool> last;  // the candidates: tensors some NHWC-capable node touches
  auto candidate = [&](Tensor* t) {
    const size_t index = static_cast<size_t>(t - tensors->data());
    if (index < movable.size() && movable[index] && t->rank() == 4) last.emplace(t, true);
  };
  for (OpNode& node : *nodes) {
    if (node.channels_last_io) ForEachNhwcOperand(node, candidate);
  }
  if (last.empty()) return 0;
  for (OpNode& node : *nodes) {
    if (TiesOperands(node)) ForEachFullOperand(node, candidate);
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
      if (TiesOperands(node)) {
        bool all = true;
        ForEachFullOperand(node, [&](const Tensor* t) { all = all && is_last(t); });
        if (all) ForEachFullOperand(node, [&](const Tensor* t) { allowed[t] += 1; });
        // An operand of another size is a single value or reads the same in both layouts (prepare checked).
        continue;
      }
      if (node.channels_last_io) ForEachNhwcOperand(node, [&](const Tensor* t) { allowed[t] += 1; });
    }
    for (auto& [t, value] : last) {
      // One channel or one pixel: the same bytes in both layouts, so any reader is fine.
      const bool invariant = t->shape[1] == 1 || t->shape[2] * t->shape[3] == 1;
      if (value && !invariant && allowed[t] < uses[t]) {
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
  for (OpNode& node : *nodes) {
    if (node.channels_last_kernel != nullptr && node.inputs[0]->channels_last) node.kernel = node.channels_last_kernel;
  }
  return count;
}

std::vector<std::string> NodesThatRelayout(const std::vector<OpNode>& nodes) {
  std::vector<std::string> names;
  for (const OpNode& node : nodes) {
    if (!node.channels_last_io) continue;
    const Tensor* in = node.inputs[0];
    const Tensor* out = node.outputs[0];
    if ((in->rank() == 4 && !in->channels_last) || (out->rank() == 4 && !out->channels_last)) {
      names.push_back(node.name + (in->channels_last ? "" : " <in") + (out->channels_last ? "" : " >out"));
    }
  }
  return names;
}

}  // namespace npurt
