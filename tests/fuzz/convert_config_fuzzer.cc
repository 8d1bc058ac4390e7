// libFuzzer target: arbitrary bytes as the YAML settings file of `npurt convert --config`,
// `npurt accuracy --config`, rknn_convert and the Python toolkit (tools/npurt/convert_options.h):
// read, merged and turned into compiler options. Every bad file must end in a Failure (one line
// naming the problem), never in a crash or an escaping exception.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "tools/npurt/convert_options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The parser reads a path: an anonymous memory file, reached through /proc.
  const int fd = memfd_create("config.yml", 0);
  if (fd < 0) return 0;
  if (size > 0 && write(fd, data, size) != static_cast<ssize_t>(size)) {
    close(fd);
    return 0;
  }
  npurt::cli::ConvertArgs args;
  args.config = "/proc/self/fd/" + std::to_string(fd);
  try {
    args = npurt::cli::MergeConfig(args, {}, "fuzz");
    bool reorder_all = false;
    (void)npurt::cli::ToCompileOptions(args, &reorder_all);
  } catch (const npurt::cli::Failure&) {
    // The expected outcome for most inputs.
  }
  close(fd);
  return 0;
}
