// ThreadPool: the runtime's one pool of worker threads, shared by every
// context in the process. A context's core mask (rknn_set_core_mask) becomes
// the number of threads its ops may use; an op splits its outermost
// independent loop (output channels, rows) into that many contiguous slices.
//
// One parallel region runs at a time: a caller that finds the pool busy (another
// context running concurrently) runs its whole loop on its own thread instead
// of queueing, so contexts on separate threads never oversubscribe the cores.
// Workers spin briefly after their last task, then block, so back-to-back ops
// do not pay a wake-up and an idle process burns no CPU. A child forked after
// the workers started runs every loop on its calling thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace npurt {

class ThreadPool {
 public:
  // Runs fn(arg, begin, end) over [0, total) as up to `threads` contiguous slices of
  // near-equal size, the caller running the first. Returns when every slice is done.
  using SliceFn = void (*)(void* arg, int64_t begin, int64_t end);
  void ParallelFor(int64_t total, int threads, SliceFn fn, void* arg);

  // The process-wide pool (never destroyed: workers may outlive static destructors).
  static ThreadPool& Shared();
  // Hardware threads this process may use (at least 1): the most threads one region uses.
  static int HardwareThreads();
  // A new context's thread count (its core mask is AUTO): NPURT_NUM_THREADS, read once, in
  // 1..HardwareThreads(); 1 when unset, as AUTO runs a model on one NPU core.
  static int DefaultThreads();

  ThreadPool() = default;
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  void EnsureWorkers(int count);  // under region_mutex_
  void WorkerLoop(int worker);
  static void RunSlice(SliceFn fn, void* arg, int64_t total, int slices, int slice);

  std::mutex region_mutex_;  // held by the caller of the region in flight
  std::vector<std::thread> workers_;

  // The region in flight, published under wake_mutex_ with a new generation.
  std::mutex wake_mutex_;
  std::condition_variable wake_cv_;
  std::atomic<uint64_t> generation_{0};
  bool stopping_ = false;
  SliceFn fn_ = nullptr;
  void* arg_ = nullptr;
  int64_t total_ = 0;
  int slices_ = 0;
  std::atomic<int> pending_{0};  // worker slices not finished yet
};

// Calls f(begin, end) over [0, total) in up to `threads` slices on the shared pool.
template <typename F>
void ParallelFor(int64_t total, int threads, const F& f) {
  if (threads <= 1 || total <= 1) {
    if (total > 0) f(int64_t{0}, total);
    return;
  }
  ThreadPool::Shared().ParallelFor(
      total, threads,
      [](void* arg, int64_t begin, int64_t end) { (*static_cast<const F*>(arg))(begin, end); },
      const_cast<F*>(&f));
}

// Calls f(worker, item) for every item of [0, items) on up to `workers` workers (worker w in [0, workers)
// owns its scratch, say). Each worker starts on its own contiguous share, taking its items in turn from a
// counter of its own, then takes what is left of the others' shares: a worker that meets cheaper items or
// a less loaded core does more of them, and only the last items' counters are shared between cores.
template <typename F>
void ParallelForBalanced(int64_t items, int workers, const F& f) {
  constexpr int kMaxWorkers = 64;
  workers = std::clamp(workers, 1, kMaxWorkers);
  if (workers == 1 || items <= 1) {
    for (int64_t i = 0; i < items; ++i) f(0, i);
    return;
  }
  struct alignas(64) Share {
    std::atomic<int64_t> next;
    int64_t end;
  };
  Share shares[kMaxWorkers];
  for (int w = 0; w < workers; ++w) {
    shares[w].next.store(w * items / workers, std::memory_order_relaxed);
    shares[w].end = (w + 1) * items / workers;
  }
  ParallelFor(workers, workers, [&](int64_t first_worker, int64_t end_worker) {
    for (int64_t worker = first_worker; worker < end_worker; ++worker) {
      const int w = static_cast<int>(worker);
      for (int k = 0; k < workers; ++k) {
        Share& share = shares[(w + k) % workers];
        for (int64_t i = share.next.fetch_add(1, std::memory_order_relaxed); i < share.end;
             i = share.next.fetch_add(1, std::memory_order_relaxed)) {
          f(w, i);
        }
      }
    }
  });
}

}  // namespace npurt
