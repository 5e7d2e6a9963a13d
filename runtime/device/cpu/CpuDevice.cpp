//===- CpuDevice.cpp - The host CPU as a device ---------------------------===//
//
// Handles are ids from one process-wide counter, so a handle of another
// device, of another kind (a buffer id used as a kernel) or already freed is
// simply not found. The registry is guarded by one mutex; running a command
// takes it once to turn handles into pointers, and allocates nothing.
//
// Each queue has one thread, started when the queue is created (not per
// command), with a FUEL_WORKER_MIN_STACK_BYTES stack because it runs
// workgroups alongside the pool's workers. Commands wait in a fixed ring.
//
//===----------------------------------------------------------------------===//

#include "cpu/CpuDevice.h"

#include "DeviceChecks.h"
#include "cpu/ThreadPool.h"

#include "fuel-c/ShimABI.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <mutex>
#include <new>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <unordered_map>

namespace fuel::rt {

using detail::checkRange;
using detail::outOfRange;
using detail::unknownBuffer;

Queue::~Queue() = default;
Device::~Device() = default;

StatusOr<std::unique_ptr<Queue>> Device::createCallerQueue() {
  return Status::error(StatusCode::Unimplemented,
                       info().id.str() + " has no caller queue: its commands "
                                         "run on its own queues");
}

bool callerStackFitsKernels() {
  // The main thread's stack grows up to RLIMIT_STACK; another thread's is
  // the size it was created with (pthread_getattr_np reads /proc only for
  // the main thread, which is why that one is asked here first).
  if (syscall(SYS_gettid) == getpid()) {
    rlimit limit;
    if (getrlimit(RLIMIT_STACK, &limit) != 0)
      return false;
    return limit.rlim_cur == RLIM_INFINITY ||
           limit.rlim_cur >= kCallerMinStackBytes;
  }
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return false;
  size_t size = 0;
  int err = pthread_attr_getstacksize(&attr, &size);
  pthread_attr_destroy(&attr);
  return err == 0 && size >= kCallerMinStackBytes;
}

uint64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

namespace {

std::atomic<uint64_t> nextHandleId{1};
uint64_t newId() { return nextHandleId.fetch_add(1); }

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
constexpr uint16_t kHostMachine = EM_NONE;
#endif

/// Checks that `image` looks like a shared object for this machine before
/// handing it to the dynamic loader.
Status checkElf(const ModuleImage &image) {
  if (!image.data && image.size)
    return Status::error(StatusCode::InvalidArgument,
                         "module: null data with a non-zero size");
  if (image.size < sizeof(Elf64_Ehdr))
    return Status::error(StatusCode::InvalidArgument,
                         "module: " + std::to_string(image.size) +
                             " bytes is too small for an ELF header");
  Elf64_Ehdr h;
  std::memcpy(&h, image.data, sizeof h);
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0)
    return Status::error(StatusCode::InvalidArgument,
                         "module: not an ELF file (bad magic)");
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB)
    return Status::error(StatusCode::InvalidArgument,
                         "module: not a 64-bit little-endian ELF file");
  if (h.e_type != ET_DYN)
    return Status::error(StatusCode::InvalidArgument,
                         "module: ELF e_type " + std::to_string(h.e_type) +
                             " is not a shared object (ET_DYN)");
  if (h.e_machine != kHostMachine)
    return Status::error(StatusCode::InvalidArgument,
                         "module: ELF e_machine " +
                             std::to_string(h.e_machine) +
                             " is not this machine's");
  if (h.e_phoff > image.size ||
      uint64_t(h.e_phnum) * sizeof(Elf64_Phdr) > image.size - h.e_phoff)
    return Status::error(StatusCode::InvalidArgument,
                         "module: ELF program headers lie past the end");
  // The loader maps segments without comparing them with the file's length;
  // a truncated image would fault on first touch, so check here.
  for (unsigned i = 0; i < h.e_phnum; ++i) {
    Elf64_Phdr p;
    std::memcpy(
        &p, static_cast<const char *>(image.data) + h.e_phoff + i * sizeof p,
        sizeof p);
    if (p.p_offset > image.size || p.p_filesz > image.size - p.p_offset)
      return Status::error(StatusCode::InvalidArgument,
                           "module: ELF segment " + std::to_string(i) +
                               " lies past the end of the image (" +
                               std::to_string(image.size) + " bytes)");
  }
  if (h.e_shnum &&
      (h.e_shoff > image.size ||
       uint64_t(h.e_shnum) * h.e_shentsize > image.size - h.e_shoff))
    return Status::error(StatusCode::InvalidArgument,
                         "module: ELF section headers lie past the end");
  return Status::ok();
}

std::string dlError() {
  const char *e = dlerror();
  return e ? e : "unknown dynamic loader error";
}

} // namespace

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

class CpuDevice::Impl {
public:
  struct Allocation {
    void *data = nullptr;
    uint64_t size = 0;
    bool imported = false;
  };
  struct KernelEntry {
    fuel_kernel_fn fn = nullptr;
    uint64_t module = 0;
  };
  struct ModuleEntry {
    void *handle = nullptr;
    /// The memory file the module was loaded from, open while it is loaded
    /// (-1 for a shim): its /proc path is the module's name to the dynamic
    /// loader, which returns an already loaded object for a name it knows,
    /// so no two loaded modules may share a descriptor number.
    int fd = -1;
    std::vector<uint64_t> kernels;
  };

  ~Impl();

  DeviceInfo info;
  std::unique_ptr<ThreadPool> pool;
  unsigned threads = 1;

  mutable std::mutex mu;
  std::unordered_map<uint64_t, Allocation> buffers;
  std::unordered_map<uint64_t, KernelEntry> kernels;
  std::unordered_map<uint64_t, ModuleEntry> modules;
  uint64_t allocated = 0;

  /// Under mu: the allocation of `b`, or null.
  const Allocation *find(Buffer b) const {
    auto it = buffers.find(b.id);
    return it == buffers.end() ? nullptr : &it->second;
  }

  /// Registers the kernels of a loaded handle; on a missing symbol closes
  /// the handle and refuses.
  StatusOr<ModuleHandle> registerModule(void *handle,
                                        const std::vector<fuel_kernel_fn> &fns,
                                        int fd = -1) {
    ModuleHandle result;
    result.id = newId();
    ModuleEntry entry;
    entry.handle = handle;
    entry.fd = fd;
    std::lock_guard<std::mutex> lock(mu);
    for (fuel_kernel_fn fn : fns) {
      uint64_t id = newId();
      kernels[id] = KernelEntry{fn, result.id};
      entry.kernels.push_back(id);
      result.kernels.push_back(Kernel{id});
    }
    modules[result.id] = std::move(entry);
    return result;
  }
};

//===----------------------------------------------------------------------===//
// The queue
//===----------------------------------------------------------------------===//

namespace {

constexpr size_t kQueueCapacity = 256;
constexpr size_t kMaxWaits = 8;

/// Checks a command and its waits against the device: what submit()
/// refuses, on either kind of queue.
Status validateCommand(CpuDevice::Impl &device_, const Command &c,
                       const Fence *waits, size_t numWaits) {
  FUEL_RT_RETURN_IF_ERROR(detail::checkWaitList(waits, numWaits, kMaxWaits));
  std::lock_guard<std::mutex> lock(device_.mu);
  if (c.kind == Command::Kind::Copy)
    return detail::checkCopyCommandIn(
        c, [&](Buffer b) { return device_.find(b); });
  if (c.kind != Command::Kind::Dispatch)
    return Status::error(StatusCode::InvalidArgument,
                         "submit: unknown command kind");
  if (!device_.kernels.count(c.kernel.id))
    return detail::unknownKernel(c.kernel);
  uint64_t total = uint64_t(c.grid[0]) * c.grid[1];
  if (c.grid[2] && total > (uint64_t(1) << 48) / c.grid[2])
    return Status::error(StatusCode::InvalidArgument,
                         "dispatch: grid has more than 2^48 workgroups");
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkDispatchArguments(c, device_.pool->workspaceBytes()));
  for (size_t i = 0; i < c.numBindings; ++i) {
    const Binding &b = c.bindings[i];
    // The message is built only on failure: a good submit allocates
    // nothing.
    const auto *a = device_.find(b.buffer);
    if (!a)
      return unknownBuffer(("dispatch: binding " + std::to_string(i)).c_str(),
                           b.buffer);
    if (b.offset > a->size || b.length > a->size - b.offset)
      return outOfRange(("dispatch: binding " + std::to_string(i)).c_str(),
                        b.offset, b.length, a->size);
  }
  return Status::ok();
}

/// Runs a checked command whose waits have signalled, on the calling thread
/// and the pool; `workspace` is the calling thread's.
Status runCommand(CpuDevice::Impl &device_, Workspace &workspace_,
                  const Command &c) {
  if (c.kind == Command::Kind::Copy) {
    void *src, *dst;
    {
      std::lock_guard<std::mutex> lock(device_.mu);
      const auto *s = device_.find(c.src);
      const auto *d = device_.find(c.dst);
      if (!s || !d)
        return Status::error(StatusCode::FailedPrecondition,
                             "copy command: a buffer was freed before the "
                             "command ran");
      src = static_cast<char *>(s->data) + c.srcOffset;
      dst = static_cast<char *>(d->data) + c.dstOffset;
    }
    if (c.bytes)
      std::memmove(dst, src, c.bytes);
    return Status::ok();
  }
  void *pointers[kMaxBindings];
  fuel_kernel_fn fn;
  {
    std::lock_guard<std::mutex> lock(device_.mu);
    auto k = device_.kernels.find(c.kernel.id);
    if (k == device_.kernels.end())
      return Status::error(StatusCode::FailedPrecondition,
                           "dispatch: the kernel was unloaded before the "
                           "command ran");
    fn = k->second.fn;
    for (size_t i = 0; i < c.numBindings; ++i) {
      const auto *a = device_.find(c.bindings[i].buffer);
      if (!a)
        return Status::error(StatusCode::FailedPrecondition,
                             "dispatch: binding " + std::to_string(i) +
                                 " was freed before the command ran");
      pointers[i] = static_cast<char *>(a->data) + c.bindings[i].offset;
    }
  }
  if (workspace_.size() < c.workspaceBytes)
    if (Status s = workspace_.reserve(device_.pool->workspaceBytes());
        !s.isOk())
      return s;
  fuel_dispatch d;
  d.bindings = pointers;
  d.push_constants = c.numPushConstants ? c.pushConstants : nullptr;
  d.grid[0] = c.grid[0];
  d.grid[1] = c.grid[1];
  d.grid[2] = c.grid[2];
  bool inlineOnly = c.predictedNs != 0 && c.predictedNs < kInlineDispatchNs;
  device_.pool->run(fn, d, workspace_.data(), inlineOnly);
  return Status::ok();
}

/// Waits for the fences a command at `value` of `self` waits on: one of
/// `self` is an earlier command, already run (queues run in order), or a
/// later one, refused; another queue's is waited for.
Status waitForFences(const Queue *self, uint64_t value, const Fence *waits,
                     size_t numWaits) {
  for (size_t i = 0; i < numWaits; ++i) {
    const Fence &f = waits[i];
    if (f.value == 0)
      continue;
    if (f.queue == self) {
      if (f.value > value)
        return Status::error(StatusCode::InvalidArgument,
                             "command waits on a later fence of its queue");
      continue;
    }
    if (Status s = const_cast<Queue *>(f.queue)->wait(f); !s.isOk())
      return Status::error(s.code(), "waited-on fence failed: " + s.message());
  }
  return Status::ok();
}

class CpuQueue final : public Queue {
public:
  explicit CpuQueue(std::shared_ptr<CpuDevice::Impl> device)
      : keepAlive_(std::move(device)), device_(*keepAlive_) {}
  ~CpuQueue() override;

  Status start();
  StatusOr<Fence> submit(const Command &command, const Fence *waits,
                         size_t numWaits) override;
  Status wait(Fence fence) override;
  bool isSignalled(Fence fence) const override;
  Status finish() override;

private:
  struct Slot {
    Command command;
    Fence waits[kMaxWaits];
    size_t numWaits = 0;
  };

  static void *threadMain(void *arg);
  void loop();
  /// Runs `slot` once its waits have signalled; `start` is set when they
  /// have, so a command's time excludes its waits.
  Status execute(const Slot &slot, uint64_t &start);

  // The queue shares the device's state, so a queue that outlives its
  // CpuDevice still drains safely.
  std::shared_ptr<CpuDevice::Impl> keepAlive_;
  CpuDevice::Impl &device_;
  pthread_t thread_{};
  bool started_ = false;
  Workspace workspace_;

  std::mutex mu_;
  std::condition_variable hasWork_;
  std::condition_variable hasSpace_;
  std::condition_variable done_;
  Slot ring_[kQueueCapacity];
  uint64_t submitted_ = 0; // Fence value of the last submitted command.
  bool stop_ = false;
  bool threadSleeping_ = false;
  std::atomic<uint64_t> completed_{0};
  // The first failure: the fence value it happened at, and why.
  std::atomic<uint64_t> failedAt_{0};
  Status error_;
};

CpuQueue::~CpuQueue() {
  if (!started_)
    return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  hasWork_.notify_all();
  pthread_join(thread_, nullptr);
}

Status CpuQueue::start() {
  if (Status s = workspace_.reserve(device_.pool->workspaceBytes()); !s.isOk())
    return s;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  size_t stack = 0;
  pthread_attr_getstacksize(&attr, &stack);
  pthread_attr_setstacksize(
      &attr, std::max<size_t>(stack, FUEL_WORKER_MIN_STACK_BYTES));
  int err = pthread_create(&thread_, &attr, &threadMain, this);
  pthread_attr_destroy(&attr);
  if (err)
    return Status::error(StatusCode::ResourceExhausted,
                         std::string("queue: cannot start its thread: ") +
                             std::strerror(err));
  started_ = true;
  return Status::ok();
}

void *CpuQueue::threadMain(void *arg) {
  static_cast<CpuQueue *>(arg)->loop();
  return nullptr;
}

StatusOr<Fence> CpuQueue::submit(const Command &command, const Fence *waits,
                                 size_t numWaits) {
  if (Status s = validateCommand(device_, command, waits, numWaits); !s.isOk())
    return s;
  std::unique_lock<std::mutex> lock(mu_);
  hasSpace_.wait(lock, [&] {
    return submitted_ - completed_.load(std::memory_order_acquire) <
           kQueueCapacity;
  });
  uint64_t value = ++submitted_;
  Slot &slot = ring_[value % kQueueCapacity];
  slot.command = command;
  slot.numWaits = numWaits;
  std::copy(waits, waits + numWaits, slot.waits);
  bool wake = threadSleeping_;
  lock.unlock();
  if (wake)
    hasWork_.notify_one();
  return Fence{this, value};
}

Status CpuQueue::execute(const Slot &slot, uint64_t &start) {
  FUEL_RT_RETURN_IF_ERROR(
      waitForFences(this, completed_.load() + 1, slot.waits, slot.numWaits));
  start = monotonicNs();
  return runCommand(device_, workspace_, slot.command);
}

void CpuQueue::loop() {
  for (;;) {
    uint64_t value;
    {
      std::unique_lock<std::mutex> lock(mu_);
      uint64_t done = completed_.load();
      if (submitted_ == done) {
        // Spin briefly (a chain of dispatches keeps the ring busy), then
        // sleep.
        lock.unlock();
        uint64_t start = monotonicNs();
        for (unsigned n = 0;; ++n) {
          lock.lock();
          if (submitted_ != done || stop_)
            break;
          if ((n & 15) == 15 && monotonicNs() - start > ThreadPool::kSpinNs) {
            threadSleeping_ = true;
            hasWork_.wait(lock, [&] { return submitted_ != done || stop_; });
            threadSleeping_ = false;
            break;
          }
          lock.unlock();
        }
      }
      if (submitted_ == done && stop_)
        return;
      value = done + 1;
    }
    const Slot &slot = ring_[value % kQueueCapacity];
    CommandTiming *timing = slot.command.timing;
    uint64_t start = monotonicNs();
    if (failedAt_.load() == 0) {
      Status s = execute(slot, start);
      if (!s.isOk()) {
        error_ = std::move(s);
        failedAt_.store(value);
      }
    }
    if (timing) {
      timing->startNs = start;
      timing->endNs = monotonicNs();
    }
    {
      // Under mu_, so that a submitter or waiter that just checked its
      // condition is already waiting when notified.
      std::lock_guard<std::mutex> lock(mu_);
      completed_.store(value);
    }
    hasSpace_.notify_one();
    done_.notify_all();
  }
}

Status CpuQueue::wait(Fence fence) {
  if (fence.value == 0)
    return Status::ok();
  if (fence.queue != this)
    return Status::error(StatusCode::InvalidArgument,
                         "wait: the fence belongs to another queue");
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (fence.value > submitted_)
      return Status::error(StatusCode::InvalidArgument,
                           "wait: fence " + std::to_string(fence.value) +
                               " was never returned by this queue");
    if (completed_.load() < fence.value) {
      lock.unlock();
      // Yield for up to a spin period before sleeping: a short command
      // completes without a futex round trip.
      uint64_t start = monotonicNs();
      while (completed_.load() < fence.value &&
             monotonicNs() - start < ThreadPool::kSpinNs)
        sched_yield();
      lock.lock();
      done_.wait(lock, [&] { return completed_.load() >= fence.value; });
    }
  }
  uint64_t failed = failedAt_.load();
  if (failed != 0 && failed <= fence.value)
    return error_;
  return Status::ok();
}

bool CpuQueue::isSignalled(Fence fence) const {
  return fence.value == 0 ||
         (fence.queue == this && completed_.load() >= fence.value);
}

Status CpuQueue::finish() {
  uint64_t last;
  {
    std::lock_guard<std::mutex> lock(mu_);
    last = submitted_;
  }
  return wait(Fence{this, last});
}

//===----------------------------------------------------------------------===//
// The caller queue
//===----------------------------------------------------------------------===//

/// Commands recorded by submit() and run by the thread that waits for them
/// (Device::createCallerQueue): no queue thread, no hand-off per command.
///
/// One thread at a time runs a queue's commands: the waiter that finds no
/// runner becomes it (runUpTo, outside mu_); another waiter sleeps until
/// its fence has run. No lock is held while commands run, so caller queues
/// that wait on each other's fences from several threads cannot deadlock:
/// a command waits only for commands submitted before it, which its own
/// queue's runner has already run.
class CpuCallerQueue final : public Queue {
public:
  explicit CpuCallerQueue(std::shared_ptr<CpuDevice::Impl> device)
      : keepAlive_(std::move(device)), device_(*keepAlive_) {}
  /// Runs what is still recorded, as a queue thread drains its ring.
  ~CpuCallerQueue() override { (void)finish(); }

  Status init() { return workspace_.reserve(device_.pool->workspaceBytes()); }
  StatusOr<Fence> submit(const Command &command, const Fence *waits,
                         size_t numWaits) override;
  Status wait(Fence fence) override;
  bool isSignalled(Fence fence) const override {
    return fence.value == 0 ||
           (fence.queue == this &&
            completed_.load(std::memory_order_acquire) >= fence.value);
  }
  Status finish() override;

private:
  struct Slot {
    Command command;
    Fence waits[kMaxWaits];
    size_t numWaits = 0;
  };

  /// Under `lock` (of mu_): returns once every command up to `value` has
  /// run, running them on this thread when no other thread is.
  Status advance(std::unique_lock<std::mutex> &lock, uint64_t value);
  /// Runs the recorded commands after completed_ up to `value`; only the
  /// runner calls it, without mu_.
  void runUpTo(uint64_t value);
  /// The status of `value`, once it has run.
  Status statusOf(uint64_t value) const {
    uint64_t failed = failedAt_.load(std::memory_order_acquire);
    return failed != 0 && failed <= value ? error_ : Status::ok();
  }

  std::shared_ptr<CpuDevice::Impl> keepAlive_;
  CpuDevice::Impl &device_;
  Workspace workspace_;

  std::mutex mu_; // The ring's free slots, submitted_, runner_, stackCheck_.
  CallerStackCheck stackCheck_;
  std::condition_variable ran_;
  std::atomic<unsigned> sleepers_{0};
  bool runner_ = false;
  Slot ring_[kQueueCapacity];
  uint64_t submitted_ = 0;
  std::atomic<uint64_t> completed_{0};
  std::atomic<uint64_t> failedAt_{0};
  Status error_;
};

Status CpuCallerQueue::advance(std::unique_lock<std::mutex> &lock,
                               uint64_t value) {
  while (completed_.load(std::memory_order_acquire) < value) {
    if (runner_) {
      ++sleepers_;
      ran_.wait(lock, [&] {
        return completed_.load(std::memory_order_acquire) >= value || !runner_;
      });
      --sleepers_;
      continue;
    }
    if (!stackCheck_.fits())
      return Status::error(StatusCode::FailedPrecondition,
                           "a caller queue runs its commands on the waiting "
                           "thread, whose stack is under the " +
                               std::to_string(kCallerMinStackBytes >> 10) +
                               " KiB its kernels need");
    runner_ = true;
    lock.unlock();
    runUpTo(value);
    lock.lock();
    runner_ = false;
    if (sleepers_.load())
      ran_.notify_all();
  }
  return Status::ok();
}

StatusOr<Fence> CpuCallerQueue::submit(const Command &command,
                                       const Fence *waits, size_t numWaits) {
  if (Status s = validateCommand(device_, command, waits, numWaits); !s.isOk())
    return s;
  std::unique_lock<std::mutex> lock(mu_);
  // A full ring runs its oldest command first, on the submitting thread.
  if (submitted_ - completed_.load(std::memory_order_acquire) >= kQueueCapacity)
    FUEL_RT_RETURN_IF_ERROR(
        advance(lock, submitted_ - kQueueCapacity + 1).withContext("submit"));
  uint64_t value = ++submitted_;
  Slot &slot = ring_[value % kQueueCapacity];
  slot.command = command;
  slot.numWaits = numWaits;
  std::copy(waits, waits + numWaits, slot.waits);
  return Fence{this, value};
}

void CpuCallerQueue::runUpTo(uint64_t value) {
  for (uint64_t v = completed_.load(std::memory_order_relaxed) + 1; v <= value;
       ++v) {
    // Slots up to `value` were written before the runner was chosen, under
    // mu_, and are not reused before they complete.
    const Slot &slot = ring_[v % kQueueCapacity];
    CommandTiming *timing = slot.command.timing;
    uint64_t start = 0;
    if (failedAt_.load(std::memory_order_relaxed) == 0) {
      // Another caller queue's fence runs that queue's commands here.
      Status s = waitForFences(this, v, slot.waits, slot.numWaits);
      if (s.isOk()) {
        start = monotonicNs();
        s = runCommand(device_, workspace_, slot.command);
      }
      if (!s.isOk()) {
        error_ = std::move(s);
        failedAt_.store(v, std::memory_order_release);
      }
    }
    if (timing) {
      // A command that did not run (a failed wait, an earlier failure)
      // takes no time.
      timing->endNs = monotonicNs();
      timing->startNs = start ? start : timing->endNs;
    }
    completed_.store(v, std::memory_order_release);
    if (sleepers_.load()) {
      // Under mu_, so that a sleeper that just checked is already waiting.
      std::lock_guard<std::mutex> lock(mu_);
      ran_.notify_all();
    }
  }
}

Status CpuCallerQueue::wait(Fence fence) {
  if (fence.value == 0)
    return Status::ok();
  if (fence.queue != this)
    return Status::error(StatusCode::InvalidArgument,
                         "wait: the fence belongs to another queue");
  if (completed_.load(std::memory_order_acquire) >= fence.value)
    return statusOf(fence.value);
  std::unique_lock<std::mutex> lock(mu_);
  if (fence.value > submitted_)
    return Status::error(StatusCode::InvalidArgument,
                         "wait: fence " + std::to_string(fence.value) +
                             " was never returned by this queue");
  FUEL_RT_RETURN_IF_ERROR(advance(lock, fence.value).withContext("wait"));
  return statusOf(fence.value);
}

Status CpuCallerQueue::finish() {
  std::unique_lock<std::mutex> lock(mu_);
  uint64_t last = submitted_;
  FUEL_RT_RETURN_IF_ERROR(advance(lock, last).withContext("finish"));
  return statusOf(last);
}

} // namespace

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

CpuDevice::CpuDevice(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

CpuDevice::~CpuDevice() = default;

CpuDevice::Impl::~Impl() {
  for (auto &[id, m] : modules) {
    dlclose(m.handle);
    if (m.fd >= 0)
      close(m.fd);
  }
  for (auto &[id, a] : buffers)
    if (!a.imported)
      std::free(a.data);
}

StatusOr<std::unique_ptr<CpuDevice>>
CpuDevice::create(const CpuDeviceOptions &options) {
  auto impl = std::make_shared<Impl>();
  unsigned threads = options.threads;
  if (threads == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    threads = n > 0 ? unsigned(n) : 1;
  }
  if (threads > 1024)
    return Status::error(StatusCode::InvalidArgument,
                         "cpu device: " + std::to_string(threads) +
                             " threads exceed the limit of 1024");
  uint64_t limit = options.memoryLimit;
  if (limit == 0) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    limit = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page)
                                  : (uint64_t(1) << 34);
  }
  impl->threads = threads;
  impl->info.id = ::fuel::Device::cpu();
  impl->info.name = "cpu";
  impl->info.memoryLimit = limit;
  impl->info.maxAlignment = 65536;
  impl->info.hostVisible = true;
  auto pool = ThreadPool::create(threads - 1, options.workspaceBytes);
  if (!pool.isOk())
    return pool.status();
  impl->pool = std::move(*pool);
  return std::unique_ptr<CpuDevice>(new CpuDevice(std::move(impl)));
}

const DeviceInfo &CpuDevice::info() const { return impl_->info; }

unsigned CpuDevice::threadCount() const { return impl_->threads; }

size_t CpuDevice::workerStackBytes() const {
  return impl_->pool->workerStackBytes();
}

StatusOr<Buffer> CpuDevice::allocate(uint64_t size, uint64_t requested) {
  StatusOr<uint64_t> aligned =
      detail::checkAlignment(requested, impl_->info.maxAlignment);
  if (!aligned)
    return aligned.status();
  const uint64_t alignment = *aligned;
  std::lock_guard<std::mutex> lock(impl_->mu);
  FUEL_RT_RETURN_IF_ERROR(detail::checkMemoryLimit(size, impl_->allocated,
                                                   impl_->info.memoryLimit));
  uint64_t rounded =
      std::max(alignment, (size + alignment - 1) & ~(alignment - 1));
  void *p = std::aligned_alloc(alignment, rounded);
  if (!p)
    return Status::error(StatusCode::ResourceExhausted,
                         "allocate: out of host memory for " +
                             std::to_string(size) + " bytes");
  uint64_t id = newId();
  try {
    impl_->buffers[id] = Impl::Allocation{p, size, false};
  } catch (const std::bad_alloc &) {
    std::free(p);
    return Status::error(StatusCode::ResourceExhausted,
                         "allocate: out of host memory for the registry");
  }
  impl_->allocated += size;
  return Buffer{id};
}

StatusOr<Buffer> CpuDevice::importHost(void *data, uint64_t size) {
  if (!data && size)
    return Status::error(StatusCode::InvalidArgument,
                         "importHost: null data with a non-zero size");
  std::lock_guard<std::mutex> lock(impl_->mu);
  uint64_t id = newId();
  impl_->buffers[id] = Impl::Allocation{data, size, true};
  return Buffer{id};
}

Status CpuDevice::free(Buffer buffer) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->buffers.find(buffer.id);
  if (it == impl_->buffers.end())
    return unknownBuffer("free", buffer);
  if (!it->second.imported) {
    std::free(it->second.data);
    impl_->allocated -= it->second.size;
  }
  impl_->buffers.erase(it);
  return Status::ok();
}

StatusOr<uint64_t> CpuDevice::bufferSize(Buffer buffer) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *a = impl_->find(buffer);
  if (!a)
    return unknownBuffer("bufferSize", buffer);
  return a->size;
}

StatusOr<void *> CpuDevice::hostPointer(Buffer buffer) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *a = impl_->find(buffer);
  if (!a)
    return unknownBuffer("hostPointer", buffer);
  return a->data;
}

uint64_t CpuDevice::bytesAllocated() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->allocated;
}

Status CpuDevice::write(Buffer dst, uint64_t dstOffset, const void *src,
                        uint64_t bytes) {
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkHostPointer(src, bytes, "write: null source"));
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *a = impl_->find(dst);
  if (!a)
    return unknownBuffer("write", dst);
  if (Status s = checkRange("write", dstOffset, bytes, a->size); !s.isOk())
    return s;
  if (bytes)
    std::memcpy(static_cast<char *>(a->data) + dstOffset, src, bytes);
  return Status::ok();
}

Status CpuDevice::read(Buffer src, uint64_t srcOffset, void *dst,
                       uint64_t bytes) {
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkHostPointer(dst, bytes, "read: null destination"));
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *a = impl_->find(src);
  if (!a)
    return unknownBuffer("read", src);
  if (Status s = checkRange("read", srcOffset, bytes, a->size); !s.isOk())
    return s;
  if (bytes)
    std::memcpy(dst, static_cast<const char *>(a->data) + srcOffset, bytes);
  return Status::ok();
}

Status CpuDevice::copy(Buffer src, uint64_t srcOffset, Buffer dst,
                       uint64_t dstOffset, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *s = impl_->find(src);
  const auto *d = impl_->find(dst);
  if (!s)
    return unknownBuffer("copy: source", src);
  if (!d)
    return unknownBuffer("copy: destination", dst);
  if (Status st = checkRange("copy: source", srcOffset, bytes, s->size);
      !st.isOk())
    return st;
  if (Status st = checkRange("copy: destination", dstOffset, bytes, d->size);
      !st.isOk())
    return st;
  if (bytes)
    std::memmove(static_cast<char *>(d->data) + dstOffset,
                 static_cast<const char *>(s->data) + srcOffset, bytes);
  return Status::ok();
}

StatusOr<ModuleHandle> CpuDevice::loadModule(const ModuleImage &image) {
  if (Status s = checkElf(image); !s.isOk())
    return s;
  // The bytes go into an anonymous memory file that the dynamic loader
  // opens by its /proc path: nothing touches the file system.
  int fd = memfd_create("fuel-module", MFD_CLOEXEC);
  if (fd < 0)
    return Status::error(StatusCode::Unavailable,
                         std::string("module: memfd_create failed: ") +
                             std::strerror(errno));
  const char *p = static_cast<const char *>(image.data);
  size_t left = image.size;
  while (left) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int err = errno;
      close(fd);
      return Status::error(StatusCode::Internal,
                           std::string("module: writing the memory file "
                                       "failed: ") +
                               std::strerror(err));
    }
    p += n;
    left -= size_t(n);
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    std::string error = dlError();
    close(fd);
    return Status::error(StatusCode::InvalidArgument,
                         "module: dlopen refused the shared object: " + error);
  }
  std::vector<fuel_kernel_fn> fns;
  for (const std::string &name : image.kernelNames) {
    dlerror();
    void *sym = dlsym(handle, name.c_str());
    if (!sym) {
      dlclose(handle);
      close(fd);
      return Status::error(StatusCode::InvalidArgument,
                           "module: kernel symbol '" + name +
                               "' is not exported by the shared object");
    }
    fns.push_back(reinterpret_cast<fuel_kernel_fn>(sym));
  }
  // The descriptor stays open while the module is loaded (ModuleEntry::fd).
  return impl_->registerModule(handle, fns, fd);
}

StatusOr<ModuleHandle>
CpuDevice::loadShim(const std::string &path,
                    const std::vector<std::string> &entries) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return Status::error(StatusCode::Unavailable,
                         "shim '" + path + "': " + dlError());
  auto fail = [&](StatusCode code, const std::string &msg) {
    dlclose(handle);
    return Status::error(code, "shim '" + path + "': " + msg);
  };
  dlerror();
  auto infoFn =
      reinterpret_cast<fuel_shim_info_fn>(dlsym(handle, FUEL_SHIM_INFO_SYMBOL));
  if (!infoFn)
    return fail(StatusCode::InvalidArgument,
                "does not export " FUEL_SHIM_INFO_SYMBOL);
  const fuel_shim_info_t *info = infoFn();
  if (!info)
    return fail(StatusCode::InvalidArgument,
                FUEL_SHIM_INFO_SYMBOL " returned null");
  if (info->abi_version != FUEL_SHIM_ABI_VERSION)
    return fail(StatusCode::FailedPrecondition,
                "shim ABI version " + std::to_string(info->abi_version) +
                    ", the runtime's is " +
                    std::to_string(FUEL_SHIM_ABI_VERSION));
  if (info->kernel_abi_version != FUEL_KERNEL_ABI_VERSION)
    return fail(
        StatusCode::FailedPrecondition,
        "kernel ABI version " + std::to_string(info->kernel_abi_version) +
            ", the runtime's is " + std::to_string(FUEL_KERNEL_ABI_VERSION));
  if (info->init) {
    char error[512] = {0};
    if (info->init(error, sizeof error) != 0) {
      error[sizeof error - 1] = 0;
      return fail(StatusCode::Unavailable,
                  std::string("init failed: ") + error);
    }
  }
  std::vector<fuel_kernel_fn> fns;
  for (const std::string &name : entries) {
    const fuel_shim_entry *found = nullptr;
    for (uint32_t i = 0; i < info->num_entries && info->entries; ++i)
      if (info->entries[i].name && name == info->entries[i].name)
        found = &info->entries[i];
    if (!found || !found->fn)
      return fail(StatusCode::InvalidArgument, "has no entry '" + name + "'");
    fns.push_back(found->fn);
  }
  return impl_->registerModule(handle, fns);
}

Status CpuDevice::unloadModule(const ModuleHandle &module) {
  void *handle;
  int fd;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    auto it = impl_->modules.find(module.id);
    if (it == impl_->modules.end())
      return Status::error(StatusCode::InvalidArgument,
                           "unloadModule: module " + std::to_string(module.id) +
                               " is not loaded on this device");
    for (uint64_t k : it->second.kernels)
      impl_->kernels.erase(k);
    handle = it->second.handle;
    fd = it->second.fd;
    impl_->modules.erase(it);
  }
  int closed = dlclose(handle);
  if (fd >= 0)
    close(fd);
  if (closed != 0)
    return Status::error(StatusCode::Internal,
                         "unloadModule: dlclose failed: " + dlError());
  return Status::ok();
}

Status CpuDevice::reserveWorkspace(uint64_t bytes) {
  return impl_->pool->reserveWorkspace(bytes);
}

StatusOr<std::unique_ptr<Queue>> CpuDevice::createQueue() {
  auto queue = std::make_unique<CpuQueue>(impl_);
  if (Status s = queue->start(); !s.isOk())
    return s;
  return std::unique_ptr<Queue>(std::move(queue));
}

StatusOr<std::unique_ptr<Queue>> CpuDevice::createCallerQueue() {
  auto queue = std::make_unique<CpuCallerQueue>(impl_);
  if (Status s = queue->init(); !s.isOk())
    return s;
  return std::unique_ptr<Queue>(std::move(queue));
}

std::string runtimeDirectory() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&runtimeDirectory), &info) ||
      !info.dli_fname)
    return {};
  std::string file = info.dli_fname;
  // For the main program the loader reports the path it was started by,
  // which may be relative to a directory since left; /proc/self/exe is not.
  char resolved[4096];
  if (file.empty() || file[0] != '/') {
    ssize_t n = readlink("/proc/self/exe", resolved, sizeof resolved - 1);
    if (n <= 0)
      return {};
    file.assign(resolved, size_t(n));
  } else if (realpath(file.c_str(), resolved)) {
    file = resolved;
  }
  size_t slash = file.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return file.substr(0, slash);
}

std::string shimPath(const std::string &name) {
  return runtimeDirectory() + "/libfuel-shim-" + name + ".so";
}

} // namespace fuel::rt
