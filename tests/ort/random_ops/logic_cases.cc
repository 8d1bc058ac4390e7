// Comparisons, boolean logic and Where on run-time values: float inputs rounded to halves (so Equal
// meets ties), broadcasting shapes, the bools made by comparisons, Where selecting between tensors.
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {
namespace {

// Two broadcast-compatible shapes: equal, a row against a column, or one against a single value.
void RandomPair(Rng* rng, Ints* a, Ints* b) {
  const int64_t n = rng->Int(1, 4), h = rng->Int(2, 5), w = rng->Int(2, 6);
  switch (rng->Int(0, 2)) {
    case 0: *a = *b = {n, h, w}; break;
    case 1: *a = {n, h, 1}; *b = {w}; break;
    default: *a = {n, h, w}; *b = {1}; break;
  }
}

// round(2 x) / 2 of a fresh input: values on a grid of halves in [-2, 2].
std::string HalfGrid(Case* c, const Ints& dims) {
  const std::string two = c->Constant({}, {2.0f});
  return c->Node("Div", {c->Node("Round", {c->Node("Mul", {c->Input(dims, -2.0f, 2.0f), two})}), two});
}

void AddComparison(Rng* rng, Suite* suite, const std::string& op) {
  Ints a, b;
  RandomPair(rng, &a, &b);
  Case c(Lower(op) + "13_" + ShapeTag(a) + "_" + ShapeTag(b), 13, rng);
  c.Output(c.Node(op, {HalfGrid(&c, a), HalfGrid(&c, b)}), onnx::TensorProto::BOOL);
  suite->Add(op, c);
}

void AddLogical(Rng* rng, Suite* suite, const std::string& op) {
  Ints a, b;
  RandomPair(rng, &a, &b);
  Case c(Lower(op) + "7_" + ShapeTag(a) + "_" + ShapeTag(b), 13, rng);
  const std::string zero = c.Constant({}, {0.0f});
  const std::string x = c.Node("Greater", {c.Input(a), zero}), y = c.Node("Less", {c.Input(b), zero});
  c.Output(op == "Not" ? c.Node("Not", {x}) : c.Node(op, {x, y}), onnx::TensorProto::BOOL);
  suite->Add(op, c);
}

void AddWhere(Rng* rng, Suite* suite) {
  Ints a, b;
  RandomPair(rng, &a, &b);
  Case c("where16_" + ShapeTag(a) + "_" + ShapeTag(b), 16, rng);
  const std::string condition = c.Node("Greater", {c.Input(a), c.Constant({}, {0.0f})});
  c.Output(c.Node("Where", {condition, c.Input(b), c.Input(a)}));
  suite->Add("Where", c);
}

// Mod of floats (fmod = 1, the only float form), divisors away from 0.
void AddFloatMod(Rng* rng, Suite* suite) {
  Ints a, b;
  RandomPair(rng, &a, &b);
  Case c("mod13_fmod_" + ShapeTag(a) + "_" + ShapeTag(b), 13, rng);
  const std::string divisor = c.Node("Add", {c.Input(b, 0.5f, 3.0f), c.Constant({}, {0.0f})});
  c.Output(c.Node("Mod", {c.Input(a, -8.0f, 8.0f), divisor}, {AttrInt("fmod", 1)}));
  suite->Add("Mod", c);
}

}  // namespace

void AddLogicCases(Rng* rng, Suite* suite) {
  for (const char* op : {"Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual"}) {
    for (int k = 0; k < 2; ++k) AddComparison(rng, suite, op);
  }
  for (const char* op : {"And", "Or", "Xor", "Not"}) AddLogical(rng, suite, op);
  for (int k = 0; k < 3; ++k) AddWhere(rng, suite);
  for (int k = 0; k < 2; ++k) AddFloatMod(rng, suite);
}

}  // namespace random_ops
