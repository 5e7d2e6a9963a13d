//===- ThreadPool.h - The workers that run dispatches -----------*- C++ -*-===//
//
// The CPU device's thread pool, owned by the runtime: N worker threads,
// created once with stacks of at least FUEL_WORKER_MIN_STACK_BYTES, run the
// workgroups of one dispatch together with the calling thread. A dispatch
// neither creates a thread nor allocates: the job is published through a
// generation counter and workgroups are claimed from an atomic index.
// Workers spin for at most kSpinNs after their last work, then sleep on a
// condition variable. Each worker has its own workspace, 64-byte aligned and
// sized once (reserveWorkspace).
//
// The grid is the dispatch's, never derived from the pool size, and no
// workgroup reads another's results, so outputs are bit-identical for every
// pool size.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_CPU_THREADPOOL_H
#define FUEL_RUNTIME_DEVICE_CPU_THREADPOOL_H

#include "fuel-c/KernelABI.h"
#include "fuel/Runtime/Status.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <vector>

namespace fuel::rt {

/// Workspace memory, 64-byte aligned, grown only by reserve().
class Workspace {
public:
  Workspace() = default;
  Workspace(const Workspace &) = delete;
  Workspace &operator=(const Workspace &) = delete;
  ~Workspace();
  /// Makes the workspace at least `bytes` long (contents not kept).
  Status reserve(uint64_t bytes);
  void *data() const { return data_; }
  uint64_t size() const { return size_; }

private:
  void *data_ = nullptr;
  uint64_t size_ = 0;
};

class ThreadPool {
public:
  /// How long a worker spins for new work before it sleeps.
  static constexpr uint64_t kSpinNs = 50000;

  /// Starts `workers` threads (0 is valid: the caller alone runs every
  /// workgroup), each with a workspace of `workspaceBytes`.
  static StatusOr<std::unique_ptr<ThreadPool>> create(unsigned workers,
                                                      uint64_t workspaceBytes);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Worker threads plus the caller.
  unsigned concurrency() const { return unsigned(workers_.size()) + 1; }

  /// Grows every worker's workspace to at least `bytes`. Waits for a running
  /// dispatch to end first.
  Status reserveWorkspace(uint64_t bytes);
  uint64_t workspaceBytes() const {
    return workspaceBytes_.load(std::memory_order_acquire);
  }

  /// Runs every workgroup of `dispatch` (dispatch.grid) with `fn`, on the
  /// workers and the calling thread, whose workspace is `callerWorkspace`,
  /// and returns when all have finished. When `inlineOnly` is set, or
  /// another thread's dispatch holds the pool, the caller runs every
  /// workgroup itself. Needs dispatch's workspace ≤ workspaceBytes(), which
  /// the caller checks. Allocates nothing.
  void run(fuel_kernel_fn fn, const fuel_dispatch &dispatch,
           void *callerWorkspace, bool inlineOnly);

  /// The stack size every worker was created with.
  size_t workerStackBytes() const { return stackBytes_; }

  /// Runs `fn` over every workgroup of `dispatch` on the calling thread, x
  /// fastest.
  static void runInline(fuel_kernel_fn fn, const fuel_dispatch &dispatch,
                        void *workspace);

private:
  struct Worker {
    pthread_t thread{};
    Workspace workspace;
    ThreadPool *pool = nullptr;
  };

  ThreadPool() = default;
  static void *workerMain(void *arg);
  void workerLoop(Worker &self);
  /// Claims and runs workgroups of the current job until none remain.
  void drain(void *workspace);

  std::vector<std::unique_ptr<Worker>> workers_;
  size_t stackBytes_ = 0;
  /// Grown by reserveWorkspace (under the pool's locks) while other
  /// sessions' queues read it to check their commands.
  std::atomic<uint64_t> workspaceBytes_{0};

  // One dispatch holds the pool at a time.
  std::mutex runMutex_;

  // The published job; written under stateMutex_ while joined_ == 0.
  std::mutex stateMutex_;
  std::condition_variable wake_;
  unsigned sleepers_ = 0;
  bool stop_ = false;
  std::atomic<uint64_t> generation_{0};
  fuel_kernel_fn jobFn_ = nullptr;
  const fuel_dispatch *jobDispatch_ = nullptr;
  uint64_t jobTotal_ = 0;
  uint64_t jobGx_ = 1, jobGy_ = 1;
  std::atomic<uint64_t> next_{0};
  std::atomic<uint64_t> completed_{0};
  std::atomic<unsigned> joined_{0};
};

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_CPU_THREADPOOL_H
