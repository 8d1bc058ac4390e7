// Which library a build of the C API is: librknnrt.so (the general API) or librknnmrt.so, the runtime of
// the RV1106 / RV1103 class, which runs those platforms' models through the zero-copy API only and
// refuses the rest as the board's does. Each library links one definition of kLibrary
// (library_librknnrt.cc / library_librknnmrt.cc), so one set of sources serves both.
#pragma once

#include <string>

namespace npurt {
namespace api {

enum class Library { kRknnrt, kRknnmrt };
extern const Library kLibrary;

inline bool MiniRuntime() { return kLibrary == Library::kRknnmrt; }

// The platforms librknnmrt serves (rknn-toolkit2 2.3.2's target_platform names).
inline bool MiniRuntimePlatform(const std::string& p) {
  return p == "rv1106" || p == "rv1103" || p == "rv1106b" || p == "rv1103b" || p == "rk2118";
}

}  // namespace api
}  // namespace npurt
