// The line a ctest run of the op tests ends with (isa_skips_report, tests/common/isa_report.cmake):
//   npurt: cpu avx2; skipped for lack of avx2: 0, avx512: 4, avx512_vnni: 0
// The CPU target comes from the runtime's own detection, "(capped to X)" when NPURT_CPU_TARGET
// lowers it; the counts from the skip log the tests wrote (tests/common/isa_skip.h). Also written
// to the report file, which the Makefile prints after each ctest (ctest hides passing output).
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "runtime/kernels/dispatch.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SKIP_LOG REPORT\n", argv[0]);
    return 2;
  }
  // Missing log: nothing skipped (no test wrote a line).
  std::map<std::string, int> skipped;
  std::ifstream log(argv[1]);
  for (std::string line; std::getline(log, line);) ++skipped[line.substr(0, line.find(' '))];

  using npurt::CpuTarget;
  const CpuTarget detected = npurt::DetectedCpuTarget(), active = npurt::ActiveCpuTarget();
  std::string text = std::string("npurt: cpu ") + npurt::CpuTargetName(detected);
  if (active != detected) text += std::string(" (capped to ") + npurt::CpuTargetName(active) + ")";
  text += "; skipped for lack of";
  const char* separator = " ";
  for (CpuTarget t : {CpuTarget::kPortable, CpuTarget::kAvx2, CpuTarget::kAvx512, CpuTarget::kAvx512Vnni}) {
    const std::string name = npurt::CpuTargetName(t);
    // The instruction sets always (a zero says something); portable only when a test asked for it.
    if (t < CpuTarget::kAvx2 && skipped[name] == 0) continue;
    text += separator + name + ": " + std::to_string(skipped[name]);
    separator = ", ";
  }
  std::printf("%s\n", text.c_str());
  std::ofstream report(argv[2]);
  report << text << '\n';
  return report ? 0 : 1;
}
