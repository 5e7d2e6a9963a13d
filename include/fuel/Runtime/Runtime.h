//===- Runtime.h - Runtimes, loaded executables and sessions ----*- C++ -*-===//
//
// The top of libfuelrt (docs/RUNTIME-SESSIONS.md): a Runtime opens the
// devices (the CPU at once, Vulkan devices when an executable first needs
// them), a LoadedExecutable is a verified executable whose
// kernel modules are loaded on their devices and whose constants are
// uploaded once per reading device, and a Session runs it: each device's
// arena is allocated once when the session is created and reused by every
// run, inputs bind zero-copy when their memory is suitably aligned (else
// they are copied), commands run honouring their dependencies, independent
// commands of one device overlapping on its lanes, and every command is
// timed. Every misuse returns a Status; nothing throws.
//
// Lifetimes: a Session keeps its LoadedExecutable alive, which keeps its
// Runtime's devices alive, so handles may be destroyed in any order.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_RUNTIME_H
#define FUEL_RUNTIME_RUNTIME_H

#include "fuel/Runtime/Device.h"
#include "fuel/Runtime/Executable.h"
#include "fuel/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace fuel::rt {

/// How to create a Runtime.
struct RuntimeOptions {
  /// Threads of the CPU device (its queue thread included); 0: every core.
  unsigned threads = 0;
  /// The CPU device's memory limit in bytes; 0: the physical memory.
  uint64_t cpuMemoryLimit = 0;
  /// Where library-kernel shims are found; empty: beside libfuelrt
  /// (runtimeDirectory(), fuel/Runtime/Devices.h).
  std::string shimDirectory;
  /// Vulkan devices: whether compiled pipelines are cached on disk, where
  /// (empty: $FUEL_CACHE_DIR, else $XDG_CACHE_HOME/fuel, else
  /// $HOME/.cache/fuel; never beside the executable), and each device's
  /// memory limit in bytes (0: its device-local heaps).
  bool pipelineCache = true;
  std::string cacheDir;
  uint64_t vulkanMemoryLimit = 0;
  /// CUDA devices: the driver library opened with dlopen (its file name or
  /// path; the default is the driver's SONAME, never the toolkit's link
  /// stub), the directories (':' separated) searched for libcublas before
  /// the loader's default (empty: the toolkit's lib64 found when libfuelrt
  /// was configured), and each device's memory limit in bytes (0: its
  /// memory).
  std::string cudaDriverLibrary = "libcuda.so.1";
  std::string cublasSearchPath;
  uint64_t cudaMemoryLimit = 0;
  /// Opens a device other than the CPU when an executable first needs it
  /// (embedders and tests); null: the runtime's own (vulkan:N through
  /// openVulkanDevice, cuda:N through openCudaDevice). A device it returns
  /// must report `id` as its id.
  std::function<StatusOr<std::unique_ptr<Device>>(const ::fuel::Device &id)>
      openDevice;
};

class LoadedExecutable;

/// The devices of this process, opened once and shared by everything loaded
/// on them.
class Runtime {
public:
  static StatusOr<std::unique_ptr<Runtime>>
  create(const RuntimeOptions &options = {});
  ~Runtime();

  /// Threads that run one CPU dispatch.
  unsigned threadCount() const;
  /// The directory shims are loaded from.
  const std::string &shimDirectory() const;
  /// The devices opened so far, as the loader checks executables against
  /// them: the CPU, and every device an executable needed since.
  std::vector<AvailableDevice> availableDevices() const;
  /// The device `id` if it is open, else null.
  Device *device(const ::fuel::Device &id) const;
  /// The device `id`, opened now if it is not open yet (loading an
  /// executable opens the devices it needs). Unavailable, naming the device
  /// and why, when it cannot be opened; the failure is not remembered, so a
  /// later call tries again. Safe to call from several threads.
  StatusOr<Device *> openDevice(const ::fuel::Device &id) const;

  /// Loads and verifies the executable file at `path` (mapped, not copied),
  /// loads its kernel modules and uploads its constants.
  StatusOr<std::shared_ptr<LoadedExecutable>>
  loadExecutableFile(const std::string &path) const;
  /// As loadExecutableFile, from bytes the runtime copies.
  StatusOr<std::shared_ptr<LoadedExecutable>>
  loadExecutableBytes(const void *data, size_t size) const;

  struct State;

private:
  explicit Runtime(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

/// A verified executable, ready on its devices.
class LoadedExecutable {
public:
  ~LoadedExecutable();
  const Program &program() const;
  const Executable &executable() const;

  struct Impl;
  explicit LoadedExecutable(std::unique_ptr<Impl> impl);
  Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

/// One run's time of one command.
struct CommandTime {
  uint64_t startNs = 0; ///< monotonicNs() when it started.
  uint64_t endNs = 0;
  uint64_t durationNs() const { return endNs > startNs ? endNs - startNs : 0; }
};

/// Lanes per device a session uses when SessionOptions::lanes is 0.
inline constexpr unsigned kDefaultSessionLanes = 2;
/// The most lanes per device a session accepts.
inline constexpr unsigned kMaxSessionLanes = 16;

/// How to create a Session.
struct SessionOptions {
  /// Queues per device that the commands are spread over, once, when the
  /// session is created (docs/RUNTIME-SESSIONS.md, "Lanes"); independent
  /// commands on different lanes overlap. 1: every device runs its commands
  /// in list order on one queue. 0: kDefaultSessionLanes.
  unsigned lanes = 0;
  /// Where run() runs a program whose commands are all on the cpu.
  enum class RunOn {
    /// On the calling thread: the commands are recorded on caller queues
    /// (Device::createCallerQueue) and run back to back, the caller joining
    /// the pool's workers for each dispatch as a queue thread would; no
    /// command is handed to another thread, so a chain of small commands
    /// costs no wake-up. A thread whose stack is under
    /// kCallerMinStackBytes hands them to the queue threads instead.
    CallerThread,
    /// On the cpu device's queue threads, one per lane, as runAsync() and
    /// every program with another device always run.
    QueueThreads,
  };
  RunOn runOn = RunOn::CallerThread;
};

/// Runs a LoadedExecutable, again and again, reusing its memory. A session
/// is used from one thread at a time.
class Session {
public:
  static StatusOr<std::unique_ptr<Session>>
  create(std::shared_ptr<LoadedExecutable> executable,
         const SessionOptions &options = {});
  ~Session();

  const Program &program() const;

  /// Binds input `index` to `bytes` bytes at `data`, an array of `dtype` and
  /// `shape`, which must be the input's. When the input's device is host
  /// memory and `data` is aligned as the input's buffer requires, the input
  /// binds zero-copy: `data` must then stay valid and unchanged until the
  /// last run using it has finished. Otherwise the bytes are copied now into
  /// a staging buffer the session allocated once. The runtime never writes
  /// into `data`. Refused while a run is in flight.
  Status bindInput(size_t index, ElementType dtype,
                   const std::vector<int64_t> &shape, const void *data,
                   size_t bytes);
  /// Whether input `index` is bound, and whether zero-copy.
  bool isInputBound(size_t index) const;
  bool isInputZeroCopy(size_t index) const;

  /// Runs every command once and waits for the result; a cpu-only program
  /// on the calling thread (SessionOptions::runOn).
  Status run();
  /// Submits every command to the devices' queues and returns, the
  /// commands running meanwhile; wait() finishes the run. Refused when an
  /// input is unbound or a run is already in flight.
  Status runAsync();
  /// Waits for the run in flight; the run's error, if any. Ok without one.
  Status wait();
  bool isRunning() const;

  /// Copies output `index` of the last finished run into `data` (`bytes`
  /// must be the output's byte size). Refused before the first run and
  /// while a run is in flight.
  Status readOutput(size_t index, void *data, size_t bytes) const;

  /// The timing of every command of the last finished run, in command
  /// order; empty before the first run.
  const std::vector<CommandTime> &commandTimes() const;
  /// Runs finished so far.
  uint64_t runCount() const;

  /// The lane (queue of its device) each command runs on, in command order;
  /// fixed when the session is created and the same for every session of
  /// the same executable and lane count.
  const std::vector<uint32_t> &commandLanes() const;
  /// The lanes device `device` (an index into Program::devices) uses: at
  /// most SessionOptions::lanes, at least 1.
  unsigned laneCount(size_t device) const;
  /// The lanes per device commands are spread over (SessionOptions::lanes,
  /// 0 resolved).
  unsigned laneLimit() const;
  /// Whether the last run started ran lane 0 of the cpu on the calling
  /// thread (run() of a cpu-only program, SessionOptions::runOn).
  bool lastRunOnCaller() const;

  struct Impl;

private:
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace fuel::rt

#endif // FUEL_RUNTIME_RUNTIME_H
