// Einsum lowered onto runtime ops, as equations in models use it (attention "bhid,bhjd->bhij",
// bilinear "bi,ij,bj->b", batch matmul, transposes, sums): letters only an operand has and the
// output lacks are summed out (ReduceSum); each pair of operands becomes Transpose + Reshape to
// [batch, kept, contracted] and [batch, contracted, kept], one MatMul, Reshape back; the result is
// transposed to the output's order. Operands contract left to right. Ellipses, the implicit output
// (the letters seen once, sorted) and any number of operands are handled; a letter repeated within
// one operand (a diagonal) and broadcasting of size-1 letters are not.
#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "compiler/onnx/converter.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

namespace {

// An operand during the lowering: its tensor and one letter per dim.
struct Operand {
  int tensor;
  std::string letters;
};

struct Lowering {
  NodeContext& ctx;
  std::map<char, int64_t> size;
  int step = 0;

  std::string Suffix(const char* what) { return ":" + std::string(what) + std::to_string(step++); }

  int Int64s(const std::vector<int64_t>& v) {
    return ctx.AddConstant(Suffix("ints"), {static_cast<int64_t>(v.size())}, DataType::kInt64, v.data(),
                           v.size() * sizeof(int64_t));
  }

  // `x` with its letters put in the order `to` (a permutation of them).
  Status Permute(Operand* x, const std::string& to) {
    if (x->letters == to) return Status::Ok();
    std::vector<int64_t> perm;
    for (char c : to) perm.push_back(static_cast<int64_t>(x->letters.find(c)));
    Attributes attrs;
    attrs.SetInts("perm", perm);
    NPURT_RETURN_IF_ERROR(ctx.Emit1("Transpose", {x->tensor}, std::move(attrs), &x->tensor, Suffix("transpose")));
    x->letters = to;
    return Status::Ok();
  }

  Status ReshapeTo(int* tensor, const std::vector<int64_t>& dims) {
    if (ctx.tensor(*tensor).shape == Shape(dims.begin(), dims.end())) return Status::Ok();
    return ctx.Emit1("Reshape", {*tensor, Int64s(dims)}, {}, tensor, Suffix("reshape"));
  }

  // Sums out the letters of `x` that `keep` lacks.
  Status SumOut(Operand* x, const std::string& keep) {
    std::vector<int64_t> axes;
    std::string rest;
    for (size_t d = 0; d < x->letters.size(); ++d) {
      if (keep.find(x->letters[d]) == std::string::npos) {
        axes.push_back(static_cast<int64_t>(d));
      } else {
        rest += x->letters[d];
      }
    }
    if (axes.empty()) return Status::Ok();
    Attributes attrs;
    attrs.SetInt("keepdims", 0);
    NPURT_RETURN_IF_ERROR(ctx.Emit1("ReduceSum", {x->tensor, Int64s(axes)}, std::move(attrs), &x->tensor, Suffix("sum")));
    x->letters = rest;
    return Status::Ok();
  }

  int64_t Product(const std::string& letters) {
    int64_t n = 1;
    for (char c : letters) n *= size[c];
    return n;
  }

  // a x b keeping the letters of `keep` (the output's and the later operands'), in a's order then b's.
  Status Contract(Operand a, Operand b, const std::string& keep, Operand* out) {
    NPURT_RETURN_IF_ERROR(SumOut(&a, keep + b.letters));
    NPURT_RETURN_IF_ERROR(SumOut(&b, keep + a.letters));
    std::string batch, left, contracted, right;
    for (char c : a.letters) {
      const bool in_b = b.letters.find(c) != std::string::npos, kept = keep.find(c) != std::string::npos;
      (in_b ? (kept ? batch : contracted) : left) += c;
    }
    for (char c : b.letters) {
      if (a.letters.find(c) == std::string::npos) right += c;
    }
    NPURT_RETURN_IF_ERROR(Permute(&a, batch + left + contracted));
    NPURT_RETURN_IF_ERROR(Permute(&b, batch + contracted + right));
    const int64_t nb = Product(batch), nl = Product(left), nk = Product(contracted), nr = Product(right);
    NPURT_RETURN_IF_ERROR(ReshapeTo(&a.tensor, {nb, nl, nk}));
    NPURT_RETURN_IF_ERROR(ReshapeTo(&b.tensor, {nb, nk, nr}));
    int product = -1;
    NPURT_RETURN_IF_ERROR(ctx.Emit1("MatMul", {a.tensor, b.tensor}, {}, &product, Suffix("matmul")));
    std::vector<int64_t> dims;
    for (char c : batch + left + right) dims.push_back(size[c]);
    NPURT_RETURN_IF_ERROR(ReshapeTo(&product, dims));
    *out = {product, batch + left + right};
    return Status::Ok();
  }
};

// Splits the equation into operand terms and the output, ellipses expanded into digits
// ('0'.., never letters), the implicit output made explicit.
Status ParseEquation(NodeContext& ctx, std::string eq, std::vector<std::string>* terms, std::string* output) {
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  size_t start = 0;
  for (;;) {
    const size_t comma = lhs.find(',', start);
    terms->push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms->size() != ctx.num_inputs()) {
    return ctx.Error("equation '%s' has %zu operands for %zu inputs", eq.c_str(), terms->size(), ctx.num_inputs());
  }
  size_t ellipsis_dims = 0;
  for (size_t i = 0; i < terms->size(); ++i) {
    std::string& t = (*terms)[i];
    if (!ctx.has_input(i)) return ctx.Error("input %zu is missing", i);
    const size_t rank = ctx.tensor(ctx.input(i)).shape.size();
    const size_t dots = t.find("...");
    if (dots != std::string::npos) {
      const size_t named = t.size() - 3;
      if (rank < named) return ctx.Error("operand %zu '%s' names more dims than its rank %zu", i, t.c_str(), rank);
      const size_t n = rank - named;
      ellipsis_dims = std::max(ellipsis_dims, n);
      std::string digits;
      for (size_t k = 0; k < n; ++k) digits += static_cast<char>('0' + (10 - n + k));  // right-aligned
      t = t.substr(0, dots) + digits + t.substr(dots + 3);
    }
    for (char c : t) {
      if (!std::isalnum(static_cast<unsigned char>(c))) return ctx.Error("bad character '%c' in the equation", c);
    }
    if (t.size() != rank) return ctx.Error("operand %zu '%s' does not match its rank %zu", i, t.c_str(), rank);
    std::string sorted = t;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      return ctx.Error("equation '%s': a letter repeated within an operand (a diagonal) is not supported", eq.c_str());
    }
  }
  if (ellipsis_dims > 10) return ctx.Error("too many dims under the ellipsis");
  std::string ellipsis;
  for (size_t k = 0; k < ellipsis_dims; ++k) ellipsis += static_cast<char>('0' + (10 - ellipsis_dims + k));
  if (arrow != std::string::npos) {
    *output = eq.substr(arrow + 2);
    const size_t dots = output->find("...");
    if (dots != std::string::npos) *output = output->substr(0, dots) + ellipsis + output->substr(dots + 3);
  } else {  // implicit: the ellipsis dims, then the letters seen once, sorted
    std::map<char, int> count;
    for (const std::string& t : *terms) {
      for (char c : t) ++count[c];
    }
    *output = ellipsis;
    for (const auto& [c, n] : count) {
      if (n == 1 && std::isalpha(static_cast<unsigned char>(c))) *output += c;
    }
  }
  return Status::Ok();
}

}  // namespace

Status ConvertEinsum(NodeContext& ctx, std::vector<int>* outputs) {
  const onnx::AttributeProto* equation = ctx.FindAttribute("equation");
  if (equation == nullptr) return ctx.Error("has no equation");
  std::vector<std::string> terms;
  std::string output;
  NPURT_RETURN_IF_ERROR(ParseEquation(ctx, equation->s(), &terms, &output));
  Lowering low{ctx, {}};
  std::vector<Operand> operands;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Shape& shape = ctx.tensor(ctx.input(i)).shape;
    for (size_t d = 0; d < terms[i].size(); ++d) {
      const char c = terms[i][d];
      auto [it, fresh] = low.size.emplace(c, shape[d]);
      if (!fresh && it->second != shape[d]) {
        return ctx.Error("letter '%c' is %lld in one operand and %lld in another (broadcasting is not supported)", c,
                         static_cast<long long>(it->second), static_cast<long long>(shape[d]));
      }
    }
    operands.push_back({ctx.input(i), terms[i]});
  }
  for (char c : output) {
    if (low.size.count(c) == 0) return ctx.Error("output letter '%c' is in no operand", c);
  }
  Operand acc = operands[0];
  for (size_t i = 1; i < operands.size(); ++i) {
    std::string keep = output;  // what the output and the operands still to come need
    for (size_t j = i + 1; j < operands.size(); ++j) keep += operands[j].letters;
    NPURT_RETURN_IF_ERROR(low.Contract(acc, operands[i], keep, &acc));
  }
  NPURT_RETURN_IF_ERROR(low.SumOut(&acc, output));
  if (acc.letters == output) return ctx.Emit("Identity", {acc.tensor}, {}, 1, outputs);
  std::vector<int64_t> perm;
  for (char c : output) perm.push_back(static_cast<int64_t>(acc.letters.find(c)));
  Attributes attrs;
  attrs.SetInts("perm", perm);
  return ctx.Emit("Transpose", {acc.tensor}, std::move(attrs), 1, outputs);
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
