// What every oneDNN-backed kernel shares: the engine, the ISA cap, the OpenMP
// guard and exception-free primitive execution. oneDNN's C++ API throws; these
// helpers turn its errors into Status so nothing crosses the C ABI.
#pragma once

#include <dnnl.hpp>

#include <cstddef>
#include <mutex>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

// The CPU engine; the first call caps oneDNN's ISA at ActiveCpuTarget()
// (NPURT_CPU_TARGET) so its JIT never uses what npurt was told not to.
const dnnl::engine& OnednnEngine();
const dnnl::stream& OnednnStream();

// npurt's pool owns the threads: oneDNN primitives are built and run with one
// OpenMP thread. Sets the calling thread's OpenMP thread count to 1 and
// restores it on exit (the application may use OpenMP on that thread).
class OnednnSingleThread {
 public:
  OnednnSingleThread();
  ~OnednnSingleThread();
  OnednnSingleThread(const OnednnSingleThread&) = delete;
  OnednnSingleThread& operator=(const OnednnSingleThread&) = delete;

 private:
  int saved_;
};

// Held while making primitives (rknn_init, rknn_set_input_shapes): oneDNN 2.6's primitive cache and JIT are
// process-wide, and contexts initialized on several threads at once otherwise reach them concurrently
// through code ThreadSanitizer cannot see into (Debian's libdnnl is not instrumented).
std::mutex& OnednnCreationMutex();

// Executes `primitive` with `count` arguments. The C entry point takes a plain
// array, so npurt builds no map per call (oneDNN 2.6 still builds its own
// argument map inside: a few small allocations it frees before returning).
Status OnednnExecute(const dnnl::primitive& primitive, const dnnl_exec_arg_t* args, int count);

// The fused activation (runtime/kernels/ref/fused_activation.h) as eltwise post-ops on the real value.
void AppendActivation(const FusedActivationParams& activation, dnnl::post_ops* post_ops);

// The weights in the blocked layout `packed`: one of `done` when it has that layout already (bands alike
// share one), else `user` reordered once. Throws as oneDNN does.
dnnl::memory PackedWeights(const dnnl::memory& user, const dnnl::memory::desc& packed,
                           const std::vector<dnnl::memory>& done);

// A library-owned copy of `data` laid out as `md` (biases). Throws as oneDNN does.
dnnl::memory CopiedMemory(const dnnl::memory::desc& md, const void* data);

// Converts the error of a throwing oneDNN call into a Status naming `what`.
Status OnednnError(const dnnl::error& e, const char* what);

}  // namespace npurt
