//===- ThreadPool.cpp - The workers that run dispatches -------------------===//
//
// The job protocol: run() takes runMutex_ (one dispatch at a time), waits
// under stateMutex_ until no worker is still inside the previous job
// (joined_ == 0), writes the job and bumps generation_. A worker that sees a
// new generation joins under stateMutex_ (so it reads a whole job, never a
// half-written one), claims workgroup indices from next_ and counts them in
// completed_. The caller claims indices too and returns once completed_
// reaches the total; workers that arrive late find no index left.
//
//===----------------------------------------------------------------------===//

#include "cpu/ThreadPool.h"

#include "fuel/Runtime/Device.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sched.h>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
static inline void cpuRelax() { _mm_pause(); }
#elif defined(__aarch64__)
static inline void cpuRelax() { asm volatile("yield"); }
#else
static inline void cpuRelax() {}
#endif

namespace fuel::rt {

Workspace::~Workspace() { std::free(data_); }

Status Workspace::reserve(uint64_t bytes) {
  if (data_ && bytes <= size_)
    return Status::ok();
  // Round up to the alignment; never hand a kernel a null workspace.
  uint64_t rounded = std::max<uint64_t>(
      FUEL_WORKSPACE_ALIGNMENT, (bytes + FUEL_WORKSPACE_ALIGNMENT - 1) &
                                    ~uint64_t(FUEL_WORKSPACE_ALIGNMENT - 1));
  if (rounded < bytes)
    return Status::error(StatusCode::ResourceExhausted,
                         "workspace: size " + std::to_string(bytes) +
                             " overflows");
  void *p = std::aligned_alloc(FUEL_WORKSPACE_ALIGNMENT, rounded);
  if (!p)
    return Status::error(StatusCode::ResourceExhausted,
                         "workspace: cannot allocate " +
                             std::to_string(rounded) + " bytes");
  std::free(data_);
  data_ = p;
  size_ = rounded;
  return Status::ok();
}

StatusOr<std::unique_ptr<ThreadPool>>
ThreadPool::create(unsigned workers, uint64_t workspaceBytes) {
  std::unique_ptr<ThreadPool> pool(new ThreadPool());
  pool->workspaceBytes_.store(workspaceBytes, std::memory_order_release);

  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0)
    return Status::error(StatusCode::Internal,
                         "thread pool: pthread_attr_init failed");
  size_t stack = 0;
  pthread_attr_getstacksize(&attr, &stack);
  stack = std::max<size_t>(stack, FUEL_WORKER_MIN_STACK_BYTES);
  if (pthread_attr_setstacksize(&attr, stack) != 0) {
    pthread_attr_destroy(&attr);
    return Status::error(StatusCode::Internal,
                         "thread pool: cannot set a stack of " +
                             std::to_string(stack) + " bytes");
  }
  pool->stackBytes_ = stack;

  for (unsigned i = 0; i < workers; ++i) {
    auto worker = std::make_unique<Worker>();
    worker->pool = pool.get();
    if (Status s = worker->workspace.reserve(workspaceBytes); !s.isOk()) {
      pthread_attr_destroy(&attr);
      return s; // The destructor stops the workers already started.
    }
    Worker *raw = worker.get();
    if (int err = pthread_create(&raw->thread, &attr, &workerMain, raw)) {
      pthread_attr_destroy(&attr);
      return Status::error(StatusCode::ResourceExhausted,
                           "thread pool: cannot start worker " +
                               std::to_string(i) + ": " + std::strerror(err));
    }
    pool->workers_.push_back(std::move(worker));
  }
  pthread_attr_destroy(&attr);
  return pool;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(stateMutex_);
    stop_ = true;
    generation_.fetch_add(1, std::memory_order_seq_cst);
  }
  wake_.notify_all();
  for (auto &w : workers_)
    pthread_join(w->thread, nullptr);
}

Status ThreadPool::reserveWorkspace(uint64_t bytes) {
  std::lock_guard<std::mutex> run(runMutex_);
  std::unique_lock<std::mutex> lock(stateMutex_);
  while (joined_.load(std::memory_order_acquire) != 0) {
    lock.unlock();
    cpuRelax();
    lock.lock();
  }
  for (auto &w : workers_)
    if (Status s = w->workspace.reserve(bytes); !s.isOk())
      return s;
  workspaceBytes_.store(std::max(workspaceBytes_.load(), bytes),
                        std::memory_order_release);
  return Status::ok();
}

void ThreadPool::runInline(fuel_kernel_fn fn, const fuel_dispatch &d,
                           void *workspace) {
  for (uint32_t z = 0; z < d.grid[2]; ++z)
    for (uint32_t y = 0; y < d.grid[1]; ++y)
      for (uint32_t x = 0; x < d.grid[0]; ++x)
        fn(&d, workspace, x, y, z);
}

void *ThreadPool::workerMain(void *arg) {
  Worker *self = static_cast<Worker *>(arg);
  self->pool->workerLoop(*self);
  return nullptr;
}

void ThreadPool::drain(void *workspace) {
  // Only called by a thread that joined the current job (or published it),
  // so the job fields are stable; the dispatch pointer is only followed for
  // a claimed index, which keeps the publishing caller waiting.
  const uint64_t total = jobTotal_;
  const uint64_t gx = jobGx_, gxy = jobGx_ * jobGy_;
  fuel_kernel_fn fn = jobFn_;
  const fuel_dispatch *d = jobDispatch_;
  for (;;) {
    uint64_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= total)
      return;
    uint32_t z = uint32_t(i / gxy);
    uint64_t r = i % gxy;
    fn(d, workspace, uint32_t(r % gx), uint32_t(r / gx), z);
    completed_.fetch_add(1, std::memory_order_release);
  }
}

void ThreadPool::workerLoop(Worker &self) {
  uint64_t seen = 0;
  for (;;) {
    // Spin for up to kSpinNs, then sleep until the generation moves.
    uint64_t spinStart = monotonicNs();
    for (unsigned n = 0; generation_.load(std::memory_order_acquire) == seen;
         ++n) {
      cpuRelax();
      if ((n & 63) == 63 && monotonicNs() - spinStart > kSpinNs) {
        std::unique_lock<std::mutex> lock(stateMutex_);
        ++sleepers_;
        wake_.wait(lock, [&] {
          return generation_.load(std::memory_order_acquire) != seen;
        });
        --sleepers_;
        break;
      }
    }
    void *workspace;
    {
      std::lock_guard<std::mutex> lock(stateMutex_);
      if (stop_)
        return;
      seen = generation_.load(std::memory_order_acquire);
      joined_.fetch_add(1, std::memory_order_acq_rel);
      workspace = self.workspace.data();
    }
    drain(workspace);
    joined_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

void ThreadPool::run(fuel_kernel_fn fn, const fuel_dispatch &d,
                     void *callerWorkspace, bool inlineOnly) {
  const uint64_t total = uint64_t(d.grid[0]) * d.grid[1] * d.grid[2];
  if (total == 0)
    return;
  if (inlineOnly || workers_.empty() || total == 1)
    return runInline(fn, d, callerWorkspace);
  std::unique_lock<std::mutex> run(runMutex_, std::try_to_lock);
  if (!run.owns_lock())
    return runInline(fn, d, callerWorkspace); // Another queue holds the pool.

  bool notify;
  {
    std::unique_lock<std::mutex> lock(stateMutex_);
    while (joined_.load(std::memory_order_acquire) != 0) {
      lock.unlock();
      cpuRelax();
      lock.lock();
    }
    jobFn_ = fn;
    jobDispatch_ = &d;
    jobTotal_ = total;
    jobGx_ = d.grid[0];
    jobGy_ = d.grid[1];
    next_.store(0, std::memory_order_relaxed);
    completed_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    notify = sleepers_ > 0;
  }
  if (notify)
    wake_.notify_all();
  drain(callerWorkspace);
  uint64_t spinStart = 0;
  for (unsigned n = 0; completed_.load(std::memory_order_acquire) < total;
       ++n) {
    cpuRelax();
    if ((n & 63) == 63) {
      uint64_t now = monotonicNs();
      if (!spinStart)
        spinStart = now;
      else if (now - spinStart > kSpinNs)
        sched_yield(); // A long workgroup: stop burning the core.
    }
  }
}

} // namespace fuel::rt
