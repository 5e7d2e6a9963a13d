//===- Device.h - The runtime's device interface ----------------*- C++ -*-===//
//
// The one interface every device of libfuelrt implements, in the spirit of
// IREE's HAL: buffers with a memory limit, copies host<->device and
// device<->device with offsets, modules of kernels, and queues that run
// dispatches and copies, each submission returning a fence and recording
// timestamps. One file per device implements it (CpuDevice now; Vulkan and
// CUDA later). A conformance suite (unittests/Runtime/Device) is written
// once against this header and instantiated per device.
//
// Handles (Buffer, Kernel, ModuleHandle) are plain ids: using one that was
// freed, never existed or belongs to another device returns a Status instead
// of touching memory. Every misuse returns a Status; nothing throws or
// aborts. LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_RUNTIME_DEVICE_H
#define FUEL_RUNTIME_DEVICE_H

#include "fuel/Runtime/Status.h"
#include "fuel/Support/Device.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <pthread.h>
#include <string>
#include <utility>
#include <vector>

namespace fuel::rt {

/// A buffer of device memory. Id 0 is never a buffer.
struct Buffer {
  uint64_t id = 0;
  bool operator==(const Buffer &o) const { return id == o.id; }
  bool operator!=(const Buffer &o) const { return id != o.id; }
};

/// A kernel of a loaded module, callable by a dispatch. Id 0 is never one.
struct Kernel {
  uint64_t id = 0;
};

/// A loaded module and its kernels, in the order their names were given.
struct ModuleHandle {
  uint64_t id = 0;
  std::vector<Kernel> kernels;
};

/// A GPU kernel's launch layout, which its module's code does not carry in
/// a form the device reads back: the workgroup (block) size and, for
/// SPIR-V, the descriptor slot (set, binding) of each binding of a
/// dispatch, in dispatch binding order.
struct KernelLayout {
  uint32_t workgroupSize[3] = {1, 1, 1};
  std::vector<std::pair<uint32_t, uint32_t>> bindingSlots;
};

/// A module's code as the device's backend takes it: for the CPU an ELF
/// shared object (the bytes of the executable's segment) and the names of
/// the kernel symbols to resolve; for Vulkan a SPIR-V module (32-bit words)
/// and its entry points' names; PTX with entry names for CUDA.
struct ModuleImage {
  const void *data = nullptr;
  size_t size = 0;
  std::vector<std::string> kernelNames;
  /// GPU modules: one layout per kernel name, in the same order; empty for
  /// an ELF shared object.
  std::vector<KernelLayout> layouts;
};

/// A range of a buffer bound to a dispatch: the kernel sees the base pointer
/// of [offset, offset + length).
struct Binding {
  Buffer buffer;
  uint64_t offset = 0;
  uint64_t length = 0;
};

/// The largest number of bindings and push constants of one dispatch. Fixed,
/// so that running a dispatch allocates nothing.
inline constexpr size_t kMaxBindings = 64;
inline constexpr size_t kMaxPushConstants = 128;

/// When a command ran, in nanoseconds of the steady clock of the device's
/// host process (CLOCK_MONOTONIC on Linux). The start is taken once the
/// command's fence waits have signalled, so the time excludes them.
struct CommandTiming {
  uint64_t startNs = 0;
  uint64_t endNs = 0;
};

/// One command of a queue. The arrays it points at (bindings, push
/// constants) and the timing record must stay valid until its fence has
/// signalled: the queue does not copy them, so submitting allocates nothing.
struct Command {
  enum class Kind { Dispatch, Copy };
  Kind kind = Kind::Dispatch;

  // Dispatch: run `kernel` over `grid` workgroups.
  Kernel kernel;
  uint32_t grid[3] = {1, 1, 1};
  const Binding *bindings = nullptr;
  size_t numBindings = 0;
  const uint32_t *pushConstants = nullptr;
  size_t numPushConstants = 0;
  /// The largest workspace (bytes per worker) the kernel uses.
  uint64_t workspaceBytes = 0;
  /// The planner's predicted time; a CPU dispatch predicted under
  /// kInlineDispatchNs runs as one workgroup loop on the submitting queue's
  /// thread instead of fanning out. 0 means unknown (fan out).
  uint64_t predictedNs = 0;

  // Copy: `bytes` from src[srcOffset] to dst[dstOffset], both on this device.
  Buffer src;
  uint64_t srcOffset = 0;
  Buffer dst;
  uint64_t dstOffset = 0;
  uint64_t bytes = 0;

  /// Where to record the command's timestamps; may be null.
  CommandTiming *timing = nullptr;

  static Command dispatch(Kernel k, uint32_t gx, uint32_t gy, uint32_t gz,
                          const Binding *bindings, size_t numBindings,
                          const uint32_t *push = nullptr, size_t numPush = 0) {
    Command c;
    c.kind = Kind::Dispatch;
    c.kernel = k;
    c.grid[0] = gx;
    c.grid[1] = gy;
    c.grid[2] = gz;
    c.bindings = bindings;
    c.numBindings = numBindings;
    c.pushConstants = push;
    c.numPushConstants = numPush;
    return c;
  }
  static Command copy(Buffer src, uint64_t srcOffset, Buffer dst,
                      uint64_t dstOffset, uint64_t bytes) {
    Command c;
    c.kind = Kind::Copy;
    c.src = src;
    c.srcOffset = srcOffset;
    c.dst = dst;
    c.dstOffset = dstOffset;
    c.bytes = bytes;
    return c;
  }
};

/// Dispatches predicted under this many nanoseconds run on one thread.
inline constexpr uint64_t kInlineDispatchNs = 20000;

class Queue;

/// A point in a queue's submission order. A queue's fences signal in the
/// order they were returned; value 0 of any queue is always signalled. A
/// fence may be waited on (or listed as a wait) while its queue exists.
struct Fence {
  const Queue *queue = nullptr;
  uint64_t value = 0;
};

/// An ordered stream of commands on one device. Commands of one queue run
/// in submission order; commands of different queues (sessions) are
/// independent and may overlap. A queue may be used from one thread at a
/// time; waiting on its fences is allowed from any thread.
class Queue {
public:
  virtual ~Queue();

  /// Checks `command` (handles, bounds, limits) and enqueues it after the
  /// `waits` fences (of any queue) have signalled. Returns its fence. A
  /// refused command is not enqueued and changes nothing.
  virtual StatusOr<Fence> submit(const Command &command,
                                 const Fence *waits = nullptr,
                                 size_t numWaits = 0) = 0;

  /// Blocks until `fence` has signalled. Returns the error of the first
  /// command that failed at or before it, if any; once a command fails, the
  /// queue skips every later command and reports that error for them.
  virtual Status wait(Fence fence) = 0;

  /// True once `fence` has signalled.
  virtual bool isSignalled(Fence fence) const = 0;

  /// Waits for every command submitted so far.
  virtual Status finish() = 0;
};

/// What a device is and what it can hold.
struct DeviceInfo {
  ::fuel::Device id;
  std::string name;
  /// The most bytes of buffers that may be allocated at once.
  uint64_t memoryLimit = 0;
  /// The largest alignment allocate() accepts (a power of two).
  uint64_t maxAlignment = 0;
  /// Whether buffers are host memory (importHost and hostPointer work).
  bool hostVisible = false;
  /// The alignment in bytes every Binding's offset must have (Vulkan: the
  /// device's minStorageBufferOffsetAlignment); 1 on the CPU.
  uint64_t bindingOffsetAlignment = 1;
};

/// A device: memory, modules and queues.
class Device {
public:
  virtual ~Device();

  virtual const DeviceInfo &info() const = 0;

  /// Allocates `size` bytes aligned to `alignment` (a power of two, at most
  /// info().maxAlignment; 0 means the device's default). Refused with
  /// ResourceExhausted when it would exceed info().memoryLimit. A size of 0
  /// is valid and yields a buffer that holds nothing.
  virtual StatusOr<Buffer> allocate(uint64_t size, uint64_t alignment) = 0;

  /// Wraps host memory the caller owns as a buffer, without copying (for
  /// zero-copy binding); only on host-visible devices. free() forgets it
  /// without releasing the memory; it does not count against the limit.
  virtual StatusOr<Buffer> importHost(void *data, uint64_t size) = 0;

  /// Releases a buffer. Commands using it must have completed.
  virtual Status free(Buffer buffer) = 0;

  /// The size of a live buffer.
  virtual StatusOr<uint64_t> bufferSize(Buffer buffer) const = 0;

  /// The host address of a host-visible buffer.
  virtual StatusOr<void *> hostPointer(Buffer buffer) const = 0;

  /// Bytes currently allocated (imported buffers excluded).
  virtual uint64_t bytesAllocated() const = 0;

  /// Synchronous copies; a range outside its buffer is refused with
  /// OutOfRange, a zero-byte copy is valid anywhere within (or at the end
  /// of) the buffer.
  virtual Status write(Buffer dst, uint64_t dstOffset, const void *src,
                       uint64_t bytes) = 0;
  virtual Status read(Buffer src, uint64_t srcOffset, void *dst,
                      uint64_t bytes) = 0;
  virtual Status copy(Buffer src, uint64_t srcOffset, Buffer dst,
                      uint64_t dstOffset, uint64_t bytes) = 0;

  /// Loads a module and resolves its kernels, in image.kernelNames order.
  virtual StatusOr<ModuleHandle> loadModule(const ModuleImage &image) = 0;

  /// Unloads a module; its kernels become invalid. No command using them may
  /// be pending.
  virtual Status unloadModule(const ModuleHandle &module) = 0;

  /// Sizes the per-worker workspace of dispatches to at least `bytes`, once,
  /// so that no dispatch allocates. Must not race with running commands.
  virtual Status reserveWorkspace(uint64_t bytes) = 0;

  /// A new queue. Queues hold no device memory; a queue keeps the state it
  /// needs alive, so it may be destroyed after its device.
  virtual StatusOr<std::unique_ptr<Queue>> createQueue() = 0;

  /// A new queue whose commands run on the thread that waits for them, as
  /// IREE's inline HAL and ONNX Runtime's sequential executor run small
  /// graphs: submit() checks and records a command and returns its fence;
  /// wait(fence) and finish() run every recorded command up to the fence on
  /// the calling thread, back to back (a wait on another queue's fence
  /// waits for that queue, or runs it where it is a caller queue too);
  /// isSignalled() only reports. No thread is handed a command, so a chain
  /// of commands costs no wake-up or sleep. The calling thread must have
  /// the stack kernels need (callerStackFitsKernels()). Unimplemented on a
  /// device without one (every device but the CPU).
  virtual StatusOr<std::unique_ptr<Queue>> createCallerQueue();
};

/// The least stack a thread needs to run CPU kernels itself: the kernel
/// ABI's FUEL_KERNEL_MAX_STACK_BYTES and room for its caller.
inline constexpr uint64_t kCallerMinStackBytes = 1u << 20;

/// Whether the calling thread's stack is at least kCallerMinStackBytes (the
/// main thread's limit, RLIMIT_STACK, or the thread's own size), so that
/// it may run a caller queue's commands. Cheap: no file is read.
bool callerStackFitsKernels();

/// callerStackFitsKernels() remembered for the last thread that asked, so
/// that a thread asking again costs no system call. Not thread-safe: one
/// per session or queue, asked under its own serialization.
class CallerStackCheck {
public:
  bool fits() {
    pthread_t self = pthread_self();
    if (!known_ || !pthread_equal(self, thread_)) {
      thread_ = self;
      fits_ = callerStackFitsKernels();
      known_ = true;
    }
    return fits_;
  }

private:
  pthread_t thread_{};
  bool known_ = false;
  bool fits_ = false;
};

/// Monotonic nanoseconds, the clock of CommandTiming.
uint64_t monotonicNs();

} // namespace fuel::rt

#endif // FUEL_RUNTIME_DEVICE_H
