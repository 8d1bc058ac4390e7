#include "runtime/core/thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "runtime/core/log.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace npurt {
namespace {

// About 0.1-0.3 ms of polling: longer than the gap between two ops of one run,
// far shorter than a frame, so workers sleep between frames.
constexpr int kSpinIterations = 1 << 13;

// A forked child has the pool's bookkeeping but none of its threads: it must not wait for them.
std::atomic<bool> g_forked_child{false};

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

}  // namespace

ThreadPool& ThreadPool::Shared() {
  static ThreadPool* pool = [] {
    pthread_atfork(nullptr, nullptr, [] { g_forked_child.store(true); });
    return new ThreadPool();  // leaked on purpose, see the header
  }();
  return *pool;
}

int ThreadPool::HardwareThreads() {
  // The CPUs this process may run on (a container or taskset limits them), not the machine's.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

int ThreadPool::DefaultThreads() {
  static const int threads = [] {
    const char* env = std::getenv("NPURT_NUM_THREADS");
    if (env == nullptr || *env == '\0') return 1;
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (*end != '\0' || n < 1) {
      NPURT_LOG(kWarning, "NPURT_NUM_THREADS='%s' is not a positive integer; using 1 thread", env);
      return 1;
    }
    return static_cast<int>(std::min<long>(n, HardwareThreads()));
  }();
  return threads;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    stopping_ = true;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::EnsureWorkers(int count) {
  while (static_cast<int>(workers_.size()) < count) {
    try {
      const int index = static_cast<int>(workers_.size());
      workers_.emplace_back([this, index] { WorkerLoop(index); });
    } catch (const std::system_error&) {
      return;  // no more threads: the region uses the workers there are
    }
  }
}

void ThreadPool::RunSlice(SliceFn fn, void* arg, int64_t total, int slices, int slice) {
  const int64_t begin = total * slice / slices;
  const int64_t end = total * (slice + 1) / slices;
  if (begin < end) fn(arg, begin, end);
}

void ThreadPool::ParallelFor(int64_t total, int threads, SliceFn fn, void* arg) {
  int slices = static_cast<int>(std::min<int64_t>({total, threads, HardwareThreads()}));
  if (slices <= 1 || g_forked_child.load(std::memory_order_relaxed) || !region_mutex_.try_lock()) {
    if (total > 0) fn(arg, 0, total);  // one thread wanted, or the pool serves another context
    return;
  }
  std::lock_guard<std::mutex> region(region_mutex_, std::adopt_lock);
  EnsureWorkers(slices - 1);
  slices = std::min(slices, static_cast<int>(workers_.size()) + 1);
  {
    std::lock_guard<std::mutex> lock(wake_mutex_);
    fn_ = fn;
    arg_ = arg;
    total_ = total;
    slices_ = slices;
    pending_.store(slices - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_cv_.notify_all();
  RunSlice(fn, arg, total, slices, 0);
  for (int spins = 0; pending_.load(std::memory_order_acquire) != 0; ++spins) {
    if (spins < kSpinIterations) {
      CpuRelax();
    } else {
      std::this_thread::yield();  // a worker was descheduled: let it run
    }
  }
}

void ThreadPool::WorkerLoop(int worker) {
  uint64_t seen = 0;
  for (;;) {
    for (int spins = 0; spins < kSpinIterations && generation_.load(std::memory_order_acquire) == seen; ++spins) {
      CpuRelax();
    }
    // Copy the region under the lock: a worker that slept through one region must
    // read the next one whole, never half of each.
    SliceFn fn = nullptr;
    void* arg = nullptr;
    int64_t total = 0;
    int slices = 0;
    {
      std::unique_lock<std::mutex> lock(wake_mutex_);
      wake_cv_.wait(lock, [&] { return stopping_ || generation_.load(std::memory_order_acquire) != seen; });
      if (stopping_) return;
      seen = generation_.load(std::memory_order_acquire);
      fn = fn_;
      arg = arg_;
      total = total_;
      slices = slices_;
    }
    // Worker w runs slice w + 1 (the caller runs slice 0); the region's caller waits for
    // exactly these workers, so none of them can miss it.
    if (worker + 1 < slices) {
      RunSlice(fn, arg, total, slices, worker + 1);
      pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
}

}  // namespace npurt
