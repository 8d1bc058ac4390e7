// The report files of the accuracy analysis (declared in accuracy_analysis.h):
// text in the shape of rknn-toolkit2's error_analysis.txt, CSV, and a
// self-contained HTML page (inline SVG, no script, no external resource).
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "compiler/quant/accuracy_analysis.h"

namespace npurt {
namespace compiler {
namespace {

std::string Printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Printf(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buf, sizeof(buf), format, args);
  va_end(args);
  if (n < 0) return std::string();
  if (static_cast<size_t>(n) < sizeof(buf)) return std::string(buf, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(n) + 1, '\0');
  va_start(args, format);
  std::vsnprintf(&big[0], big.size(), format, args);
  va_end(args);
  big.resize(static_cast<size_t>(n));
  return big;
}

std::string Number(double v, const char* format) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return Printf(format, v);
}

std::string Cos(double v) { return Number(v, "%.6f"); }
std::string Euc(double v) { return Number(v, "%.5g"); }
std::string Db(double v) { return Number(v, "%.2f"); }

std::string Macs(int64_t macs) {
  if (macs <= 0) return "-";
  if (macs >= 1000000000) return Printf("%.2fG", static_cast<double>(macs) / 1e9);
  if (macs >= 1000000) return Printf("%.2fM", static_cast<double>(macs) / 1e6);
  if (macs >= 1000) return Printf("%.1fK", static_cast<double>(macs) / 1e3);
  return Printf("%lld", static_cast<long long>(macs));
}

// "[Conv] conv_3"; ops with several compared outputs name the output too.
std::vector<std::string> LayerLabels(const AccuracyReport& report) {
  std::map<int, int> rows_per_op;
  for (const LayerAccuracy& l : report.layers) rows_per_op[l.op_index]++;
  std::vector<std::string> labels;
  for (const LayerAccuracy& l : report.layers) {
    std::string label = "[" + l.op_type + "] " + l.node;
    if (rows_per_op[l.op_index] > 1) label += " (" + l.tensor + ")";
    labels.push_back(label);
  }
  return labels;
}

std::string Header(const AccuracyReport& report) {
  return Printf("# npurt accuracy: the quantized model against the float model, layer by layer, on %zu sample%s%s.\n",
                report.samples, report.samples == 1 ? "" : "s",
                report.samples > 1 ? " (cosine and euclidean averaged over the samples, SQNR over all their values)"
                                   : "");
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Html(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A cosine as a finite plotting value (NaN plots at the bottom).
double Plotted(double cosine, double lo) { return std::isnan(cosine) ? lo : std::max(lo, std::min(1.0, cosine)); }

}  // namespace

std::string FormatAccuracyText(const AccuracyReport& report) {
  const std::vector<std::string> labels = LayerLabels(report);
  size_t width = 40;
  for (const std::string& l : labels) width = std::max(width, l.size() + 2);
  const int w = static_cast<int>(width);
  std::string out = Header(report);
  out +=
      "# entire: each layer's output when the quantized model runs as it is; errors accumulate layer by layer.\n"
      "# single: each layer fed with the float model's values of its inputs (quantized with the input's own\n"
      "#         parameters): the error that layer alone adds.\n"
      "# cos: cosine similarity, euc: Euclidean distance, sqnr: 10*log10(sum ref^2 / sum (ref - x)^2) in dB.\n\n";
  out += Printf("%-*s%-25s%-25s%-18s%-11s%s\n", w, "layer_name", "entire", "single", "sqnr (dB)", "precision", "MACs");
  out += Printf("%-*s%-11s %-13s%-11s %-13s%-9s%-9s\n", w, "", "cos", "euc", "cos", "euc", "entire", "single");
  out += std::string(width + 25 + 25 + 18 + 11 + 6, '-') + "\n";
  for (size_t i = 0; i < report.layers.size(); ++i) {
    const LayerAccuracy& l = report.layers[i];
    out += Printf("%-*s%-9s | %-13s%-9s | %-13s%-9s%-9s%-11s%s\n", w, labels[i].c_str(), Cos(l.entire.cosine).c_str(),
                  Euc(l.entire.euclidean).c_str(), Cos(l.single.cosine).c_str(), Euc(l.single.euclidean).c_str(),
                  Db(l.entire.sqnr_db).c_str(), Db(l.single.sqnr_db).c_str(), l.precision.c_str(),
                  Macs(l.macs).c_str());
  }
  const std::string departures = DescribeFirstDepartures(report, kFp16CosineThreshold);
  if (!departures.empty()) out += "\n";
  for (size_t start = 0; start < departures.size();) {
    const size_t end = departures.find('\n', start);
    out += "# " + departures.substr(start, end + 1 - start);
    start = end + 1;
  }
  if (!report.outputs.empty()) {
    out += "\n# model outputs (entire)\n";
    for (const OutputAccuracy& o : report.outputs) {
      out += Printf("%-*s%-9s | %-13s%s dB\n", w, o.name.c_str(), Cos(o.metrics.cosine).c_str(),
                    Euc(o.metrics.euclidean).c_str(), Db(o.metrics.sqnr_db).c_str());
    }
  }
  return out;
}

std::string FormatAccuracyCsv(const AccuracyReport& report) {
  std::string out =
      "index,op_index,layer,op_type,tensor,reference,precision,macs,entire_cosine,entire_euclidean,entire_sqnr_db,"
      "single_cosine,single_euclidean,single_sqnr_db\n";
  for (size_t i = 0; i < report.layers.size(); ++i) {
    const LayerAccuracy& l = report.layers[i];
    out += Printf("%zu,%d,", i, l.op_index);
    out += CsvField(l.node) + "," + CsvField(l.op_type) + "," + CsvField(l.tensor) + "," + CsvField(l.reference) +
           "," + l.precision + "," + std::to_string(l.macs) + ",";
    out += Number(l.entire.cosine, "%.7f") + "," + Number(l.entire.euclidean, "%.7g") + "," +
           Number(l.entire.sqnr_db, "%.4f") + "," + Number(l.single.cosine, "%.7f") + "," +
           Number(l.single.euclidean, "%.7g") + "," + Number(l.single.sqnr_db, "%.4f") + "\n";
  }
  return out;
}

std::string FormatAccuracyHtml(const AccuracyReport& report, const std::string& title, size_t worst) {
  const std::vector<std::string> labels = LayerLabels(report);
  const std::vector<size_t> worst_rows = WorstLayers(report, worst);
  const std::set<size_t> is_worst(worst_rows.begin(), worst_rows.end());
  const size_t n = report.layers.size();

  // The y axis spans the lowest cosine shown (rounded down to a tenth of its
  // distance from 1, at least 0.99) to 1: small differences near 1 stay visible.
  double lowest = 1.0;
  for (const LayerAccuracy& l : report.layers) {
    for (double c : {l.entire.cosine, l.single.cosine}) {
      if (!std::isnan(c)) lowest = std::min(lowest, c);
    }
  }
  double lo = std::min(0.99, 1.0 - (1.0 - lowest) * 1.05);
  lo = std::max(-1.0, lo);
  constexpr double kLeft = 60, kRight = 20, kTop = 20, kBottom = 40, kHeight = 320;
  const double step = n > 1 ? std::max(4.0, 900.0 / static_cast<double>(n - 1)) : 0.0;
  const double plot_w = n > 1 ? step * static_cast<double>(n - 1) : 1.0;
  const double width = kLeft + plot_w + kRight, height = kTop + kHeight + kBottom;
  auto x_of = [&](size_t i) { return kLeft + step * static_cast<double>(i); };
  auto y_of = [&](double c) { return kTop + (1.0 - Plotted(c, lo)) / (1.0 - lo) * kHeight; };

  std::string svg = Printf(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
      "font-size=\"11\">\n",
      width, height);
  for (size_t i : worst_rows) {  // the worst layers: a red band behind the lines
    svg += Printf("<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" fill=\"#fdd\"/>\n",
                  x_of(i) - std::max(2.0, step / 2), kTop, std::max(4.0, step), kHeight);
  }
  for (int t = 0; t <= 4; ++t) {  // grid and y labels
    const double c = lo + (1.0 - lo) * t / 4.0;
    svg += Printf("<line x1=\"%.0f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.4f</text>\n",
                  kLeft, kLeft + plot_w, y_of(c), y_of(c), kLeft - 4, y_of(c) + 4, c);
  }
  svg += Printf("<text x=\"%.0f\" y=\"%.0f\">layer (execution order)</text>\n", kLeft, height - 8);
  const char* colors[] = {"#1f77b4", "#ff7f0e"};
  for (int series = 0; series < 2; ++series) {
    std::string points;
    for (size_t i = 0; i < n; ++i) {
      const LayerAccuracy& l = report.layers[i];
      points += Printf("%.1f,%.1f ", x_of(i), y_of(series == 0 ? l.entire.cosine : l.single.cosine));
    }
    svg += Printf("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n", colors[series],
                  points.c_str());
  }
  for (size_t i = 0; i < n; ++i) {  // points with a tooltip
    const LayerAccuracy& l = report.layers[i];
    const bool bad = is_worst.count(i) != 0;
    svg += Printf("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"><title>%zu %s: entire %s, single %s</title>"
                  "</circle>\n",
                  x_of(i), y_of(l.single.cosine), bad ? 4 : 2, bad ? "#d62728" : colors[1], i,
                  Html(labels[i]).c_str(), Cos(l.entire.cosine).c_str(), Cos(l.single.cosine).c_str());
  }
  svg += Printf("<rect x=\"%.0f\" y=\"4\" width=\"10\" height=\"3\" fill=\"%s\"/><text x=\"%.0f\" y=\"10\">entire "
                "cosine</text><rect x=\"%.0f\" y=\"4\" width=\"10\" height=\"3\" fill=\"%s\"/><text x=\"%.0f\" "
                "y=\"10\">single cosine</text>\n",
                kLeft, colors[0], kLeft + 14, kLeft + 110, colors[1], kLeft + 124);
  svg += "</svg>\n";

  auto row = [&](size_t i) {
    const LayerAccuracy& l = report.layers[i];
    return Printf("<tr%s><td>%zu</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                  "<td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
                  is_worst.count(i) ? " class=\"worst\"" : "", i, Html(l.node).c_str(), Html(l.op_type).c_str(),
                  Html(l.tensor).c_str(), l.precision.c_str(), Macs(l.macs).c_str(), Cos(l.entire.cosine).c_str(),
                  Euc(l.entire.euclidean).c_str(), Db(l.entire.sqnr_db).c_str(), Cos(l.single.cosine).c_str(),
                  Db(l.single.sqnr_db).c_str());
  };
  const std::string head =
      "<tr><th>#</th><th>layer</th><th>op</th><th>output</th><th>precision</th><th>MACs</th><th>entire cos</th>"
      "<th>entire euc</th><th>entire SQNR dB</th><th>single cos</th><th>single SQNR dB</th></tr>\n";

  std::string html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + Html(title) +
                     "</title>\n<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse;"
                     "font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
                     "td:nth-child(2),td:nth-child(3),td:nth-child(4){text-align:left}tr.worst{background:#fdd}"
                     ".chart{overflow-x:auto}</style></head><body>\n";
  html += "<h1>" + Html(title) + "</h1>\n<p>" + Html(Header(report).substr(2)) +
          "<br>entire: the quantized model as it runs (errors accumulate); single: each layer fed with the float "
          "model's values of its inputs (the error it alone adds).</p>\n";
  if (!report.outputs.empty()) {
    html += "<p>Model outputs (entire):";
    for (const OutputAccuracy& o : report.outputs) {
      html += " <b>" + Html(o.name) + "</b> cosine " + Cos(o.metrics.cosine) + ", SQNR " + Db(o.metrics.sqnr_db) +
              " dB;";
    }
    html += "</p>\n";
  }
  html += "<div class=\"chart\">\n" + svg + "</div>\n";
  html += (worst_rows.size() == 1 ? std::string("<h2>The worst layer by single cosine</h2>\n<table>\n")
                                  : Printf("<h2>The %zu worst layers by single cosine</h2>\n<table>\n", worst_rows.size())) +
          head;
  for (size_t i : worst_rows) html += row(i);
  html += "</table>\n<h2>All layers</h2>\n<table>\n" + head;
  for (size_t i = 0; i < n; ++i) html += row(i);
  html += "</table>\n</body></html>\n";
  return html;
}

}  // namespace compiler
}  // namespace npurt
