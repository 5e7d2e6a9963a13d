//===- Session.cpp - Runtimes, loaded executables and sessions ------------===//
//
// Implements Runtime.h: opening devices, loading an executable's modules and
// constants on them, and sessions that run its command list. A session
// resolves every command to a device command and assigns it to a lane (a
// queue of its device) once, when it is created; a run only patches the
// input buffers into the bindings, submits and waits, so running allocates
// nothing.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Runtime.h"

#include "fuel/Runtime/Devices.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace fuel::rt {

/// The most fence waits one command may have (the CPU queue's limit).
constexpr size_t kMaxCommandWaits = 8;

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

struct Runtime::State {
  std::unique_ptr<Device> cpu;
  unsigned threads = 1;
  std::string shimDirectory;
  RuntimeOptions options;
  /// Devices other than the CPU, opened on demand; never closed before the
  /// runtime's state goes (everything loaded on them holds the state).
  mutable std::mutex mu;
  std::vector<std::pair<::fuel::Device, std::unique_ptr<Device>>> others;
};

/// The runtime's own opener of devices other than the CPU.
static StatusOr<std::unique_ptr<Device>>
openBuiltinDevice(const ::fuel::Device &id, const RuntimeOptions &options) {
  if (id.kind == DeviceKind::Vulkan) {
    VulkanDeviceOptions vo;
    vo.pipelineCache = options.pipelineCache;
    vo.cacheDir = options.cacheDir;
    vo.memoryLimit = options.vulkanMemoryLimit;
    return openVulkanDevice(id.ordinal, vo);
  }
  if (id.kind == DeviceKind::Cuda) {
    CudaDeviceOptions co;
    co.driverLibrary = options.cudaDriverLibrary;
    co.cublasSearchPath = options.cublasSearchPath;
    co.memoryLimit = options.cudaMemoryLimit;
    return openCudaDevice(id.ordinal, co);
  }
  return Status::error(StatusCode::Unavailable,
                       "this libfuelrt has no " +
                           std::string(stringifyDeviceKind(id.kind)) +
                           " device");
}

Runtime::Runtime(std::shared_ptr<State> state) : state_(std::move(state)) {}
Runtime::~Runtime() = default;

StatusOr<std::unique_ptr<Runtime>>
Runtime::create(const RuntimeOptions &options) {
  auto state = std::make_shared<State>();
  CpuDeviceOptions cpuOptions;
  cpuOptions.threads = options.threads;
  cpuOptions.memoryLimit = options.cpuMemoryLimit;
  StatusOr<std::unique_ptr<Device>> cpu = openCpuDevice(cpuOptions);
  if (!cpu)
    return cpu.status().withContext("runtime: opening the cpu device");
  state->cpu = std::move(*cpu);
  state->threads = dispatchThreads(*state->cpu);
  state->shimDirectory = options.shimDirectory.empty() ? runtimeDirectory()
                                                       : options.shimDirectory;
  state->options = options;
  return std::unique_ptr<Runtime>(new Runtime(std::move(state)));
}

unsigned Runtime::threadCount() const { return state_->threads; }

const std::string &Runtime::shimDirectory() const {
  return state_->shimDirectory;
}

std::vector<AvailableDevice> Runtime::availableDevices() const {
  std::vector<AvailableDevice> list = {
      {::fuel::Device::cpu(), state_->cpu->info().memoryLimit}};
  std::lock_guard<std::mutex> lock(state_->mu);
  for (const auto &[id, dev] : state_->others)
    list.push_back({id, dev->info().memoryLimit});
  return list;
}

Device *Runtime::device(const ::fuel::Device &id) const {
  if (id == ::fuel::Device::cpu())
    return state_->cpu.get();
  std::lock_guard<std::mutex> lock(state_->mu);
  for (const auto &[other, dev] : state_->others)
    if (other == id)
      return dev.get();
  return nullptr;
}

StatusOr<Device *> Runtime::openDevice(const ::fuel::Device &id) const {
  if (id == ::fuel::Device::cpu())
    return static_cast<Device *>(state_->cpu.get());
  std::lock_guard<std::mutex> lock(state_->mu);
  for (const auto &[other, dev] : state_->others)
    if (other == id)
      return dev.get();
  // Opened under the lock: two loads needing the same device open it once.
  StatusOr<std::unique_ptr<Device>> dev =
      state_->options.openDevice ? state_->options.openDevice(id)
                                 : openBuiltinDevice(id, state_->options);
  if (!dev)
    return Status::error(StatusCode::Unavailable, "executable needs device " +
                                                      id.str() + ": " +
                                                      dev.status().message());
  if (!*dev || !((*dev)->info().id == id))
    return Status::error(StatusCode::Internal,
                         "executable needs device " + id.str() +
                             ": the device opened reports another id");
  Device *raw = dev->get();
  state_->others.emplace_back(id, std::move(*dev));
  return raw;
}

//===----------------------------------------------------------------------===//
// LoadedExecutable
//===----------------------------------------------------------------------===//

struct LoadedExecutable::Impl {
  /// Keeps the devices alive while anything loaded on them exists.
  std::shared_ptr<Runtime::State> runtime;
  std::unique_ptr<Executable> exe;
  /// Per program device.
  std::vector<Device *> devices;
  /// The largest workspace a kernel of each device declares.
  std::vector<uint64_t> workspaceBytes;
  /// Per program module; empty handles for modules not loaded yet.
  std::vector<ModuleHandle> modules;
  /// Loaded shims (one per device and shim file) and their devices.
  std::vector<ModuleHandle> shims;
  std::vector<uint32_t> shimDevices;
  /// Per library kernel: its kernel handle.
  std::vector<Kernel> libraryKernels;
  /// Per program buffer: the uploaded constant for Constant buffers.
  std::vector<Buffer> constantBuffers;
  /// Each (constant, device) upload once, to free at the end.
  struct Upload {
    uint32_t constant;
    uint32_t device;
    Buffer buffer;
  };
  std::vector<Upload> uploads;

  ~Impl() {
    for (const Upload &u : uploads)
      (void)devices[u.device]->free(u.buffer);
    for (size_t i = 0; i < shims.size(); ++i)
      (void)devices[shimDevices[i]]->unloadModule(shims[i]);
    for (size_t m = 0; m < modules.size(); ++m)
      if (modules[m].id != 0)
        (void)devices[exe->program().modules[m].device]->unloadModule(
            modules[m]);
  }

  Status prepare(const Runtime &rt);
};

Status LoadedExecutable::Impl::prepare(const Runtime &rt) {
  const Program &p = exe->program();
  for (const DeviceRequirement &d : p.devices) {
    StatusOr<Device *> dev = rt.openDevice(d.device);
    if (!dev)
      return dev.status();
    devices.push_back(*dev);
  }
  // The devices' memory, now that they are open (Executable::load skipped
  // the device check).
  LoadOptions check;
  check.checkCpuFeatures = false;
  check.availableDevices = rt.availableDevices();
  check.workerThreads = rt.threadCount();
  FUEL_RT_RETURN_IF_ERROR(verifyProgram(p, check));
  workspaceBytes.assign(p.devices.size(), 0);
  // Library kernels: each shim file is loaded once per device, with every
  // entry the executable uses from it.
  std::vector<std::pair<uint32_t, std::string>> shimKeys;
  std::vector<std::vector<std::string>> shimEntries;
  std::vector<std::pair<size_t, size_t>> where; // (shim, entry) per kernel
  for (size_t k = 0; k < p.libraryKernels.size(); ++k) {
    const LibraryKernel &lk = p.libraryKernels[k];
    std::string field = "executable: libraryKernels[" + std::to_string(k) +
                        "] (" + lk.kernelId + ")";
    if (lk.shim.find('/') != std::string::npos)
      return Status::error(StatusCode::InvalidArgument,
                           field + ": shim '" + lk.shim +
                               "' must be a file name, not a path");
    DeviceKind kind = devices[lk.device]->info().id.kind;
    if (kind != DeviceKind::Cpu && kind != DeviceKind::Cuda)
      return Status::error(StatusCode::InvalidArgument,
                           field + ": library kernels run on the cpu "
                                   "(shims) or on cuda (cuBLAS)");
    workspaceBytes[lk.device] =
        std::max(workspaceBytes[lk.device], lk.workspaceBytes);
    std::pair<uint32_t, std::string> key(lk.device, lk.shim);
    size_t s =
        std::find(shimKeys.begin(), shimKeys.end(), key) - shimKeys.begin();
    if (s == shimKeys.size()) {
      shimKeys.push_back(key);
      shimEntries.emplace_back();
    }
    std::vector<std::string> &entries = shimEntries[s];
    size_t e =
        std::find(entries.begin(), entries.end(), lk.entry) - entries.begin();
    if (e == entries.size())
      entries.push_back(lk.entry);
    where.emplace_back(s, e);
  }
  for (size_t s = 0; s < shimKeys.size(); ++s) {
    StatusOr<ModuleHandle> h =
        loadLibraryKernels(*devices[shimKeys[s].first], rt.shimDirectory(),
                           shimKeys[s].second, shimEntries[s]);
    if (!h)
      return h.status().withContext("executable: shim " + shimKeys[s].second);
    shims.push_back(std::move(*h));
    shimDevices.push_back(shimKeys[s].first);
  }
  for (const auto &[s, e] : where)
    libraryKernels.push_back(shims[s].kernels[e]);
  modules.resize(p.modules.size());
  for (size_t m = 0; m < p.modules.size(); ++m) {
    const KernelModule &km = p.modules[m];
    ModuleImage image;
    image.data = km.image.data;
    image.size = km.image.size;
    for (const KernelEntry &k : km.kernels) {
      image.kernelNames.push_back(k.symbol);
      workspaceBytes[km.device] =
          std::max(workspaceBytes[km.device], k.workspaceBytes);
      if (km.format == ModuleFormat::Ptx) {
        // The block size (verifyProgram checked 3 nonzero entries).
        KernelLayout layout;
        for (int g = 0; g < 3; ++g)
          layout.workgroupSize[g] = k.workgroupSize[size_t(g)];
        image.layouts.push_back(std::move(layout));
      } else if (km.format == ModuleFormat::SpirV) {
        // The launch layout the SPIR-V words do not carry in a form the
        // device reads back (verifyProgram checked 3 nonzero entries).
        KernelLayout layout;
        for (int g = 0; g < 3; ++g)
          layout.workgroupSize[g] = k.workgroupSize[size_t(g)];
        for (const BindingSlot &slot : k.bindingLayout)
          layout.bindingSlots.emplace_back(slot.set, slot.binding);
        image.layouts.push_back(std::move(layout));
      }
    }
    StatusOr<ModuleHandle> h = devices[km.device]->loadModule(image);
    if (!h)
      return h.status().withContext("executable: modules[" + std::to_string(m) +
                                    "]");
    modules[m] = std::move(*h);
  }
  // Constants: once per (constant, reading device), at load, never per run.
  constantBuffers.resize(p.buffers.size());
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const BufferSpec &spec = p.buffers[b];
    if (spec.kind != BufferKind::Constant)
      continue;
    auto it =
        std::find_if(uploads.begin(), uploads.end(), [&](const Upload &u) {
          return u.constant == spec.index && u.device == spec.device;
        });
    if (it == uploads.end()) {
      const Constant &c = p.constants[spec.index];
      Device *dev = devices[spec.device];
      StatusOr<Buffer> buf = dev->allocate(c.data.size, spec.alignment);
      if (!buf)
        return buf.status().withContext("executable: constants[" +
                                        std::to_string(spec.index) + "]");
      uploads.push_back({spec.index, spec.device, *buf});
      FUEL_RT_RETURN_IF_ERROR(dev->write(*buf, 0, c.data.data, c.data.size)
                                  .withContext("executable: constants[" +
                                               std::to_string(spec.index) +
                                               "]"));
      it = uploads.end() - 1;
    }
    constantBuffers[b] = it->buffer;
  }
  return Status::ok();
}

LoadedExecutable::LoadedExecutable(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
LoadedExecutable::~LoadedExecutable() = default;
const Program &LoadedExecutable::program() const {
  return impl_->exe->program();
}
const Executable &LoadedExecutable::executable() const { return *impl_->exe; }

static StatusOr<std::shared_ptr<LoadedExecutable>>
finishLoad(const Runtime &rt, std::shared_ptr<Runtime::State> state,
           StatusOr<std::unique_ptr<Executable>> exe) {
  if (!exe)
    return exe.status();
  auto impl = std::make_unique<LoadedExecutable::Impl>();
  impl->runtime = std::move(state);
  impl->exe = std::move(*exe);
  FUEL_RT_RETURN_IF_ERROR(impl->prepare(rt));
  return std::make_shared<LoadedExecutable>(std::move(impl));
}

static LoadOptions loadOptions(const Runtime &rt) {
  // Devices are checked by prepare() once it has opened those the
  // executable needs.
  LoadOptions o;
  o.workerThreads = rt.threadCount();
  return o;
}

StatusOr<std::shared_ptr<LoadedExecutable>>
Runtime::loadExecutableFile(const std::string &path) const {
  StatusOr<std::shared_ptr<LoadedExecutable>> r =
      finishLoad(*this, state_, Executable::loadFile(path, loadOptions(*this)));
  // The loader's messages name the file already; others get it in front.
  if (!r && r.status().message().rfind(path, 0) != 0)
    return r.status().withContext(path);
  return r;
}

StatusOr<std::shared_ptr<LoadedExecutable>>
Runtime::loadExecutableBytes(const void *data, size_t size) const {
  if (!data && size)
    return Status::error(StatusCode::InvalidArgument,
                         "loadExecutableBytes: null data");
  return finishLoad(*this, state_,
                    Executable::loadBytes(data, size, loadOptions(*this)));
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

struct Session::Impl {
  std::shared_ptr<LoadedExecutable> exe;
  const Program *program = nullptr;
  LoadedExecutable::Impl *loaded = nullptr;

  unsigned lanes = 1;
  SessionOptions::RunOn runOn = SessionOptions::RunOn::CallerThread;
  /// Per program device: the lanes its commands use and its arena.
  std::vector<uint32_t> laneCount;
  std::vector<Buffer> arenas;
  /// The queues, created when a run first needs them, never per run: per
  /// device and lane the device's own queue (runAsync(), and run() of a
  /// program with another device or on a thread whose stack is too small),
  /// and per device a caller queue for lane 0 (run() of a cpu-only
  /// program: the calling thread runs lane 0, the commands of a chain; the
  /// other lanes stay on the device's queue threads, so independent
  /// commands still overlap).
  std::vector<std::vector<std::unique_ptr<Queue>>> deviceQueues;
  std::vector<std::unique_ptr<Queue>> callerQueues;
  /// Whether run() may use a caller queue: every command is on the cpu;
  /// and whether the calling thread's stack lets it run kernels.
  bool callerEligible = false;
  CallerStackCheck stackCheck;
  /// Per kind (Device, Caller), built by its first run: the queue of each
  /// device and lane, and of each command. A run selects one kind; a
  /// switch allocates nothing.
  enum class QueueKind { None, Device, Caller };
  QueueKind selected = QueueKind::None;
  std::vector<std::vector<Queue *>> queuesOf[2];
  std::vector<Queue *> commandQueueOf[2];
  const std::vector<std::vector<Queue *>> *queues = nullptr;

  struct InputSlot {
    bool bound = false;
    bool zeroCopy = false;
    Buffer imported; ///< The caller's memory, when zero-copy.
    Buffer staging;  ///< Allocated on the first copied bind, then reused.
    Buffer current;  ///< What the commands bind.
  };
  std::vector<InputSlot> inputs;
  std::vector<Buffer> outputs;

  /// The device commands, resolved once; bindings point into `bindings`.
  std::vector<Command> commands;
  std::vector<Binding> bindings;
  std::vector<uint32_t> commandDevice;
  /// Per command: its lane, that lane's queue, and the commands it waits
  /// for by fence (waitDeps[waitBegin[i] .. waitBegin[i + 1]]).
  std::vector<uint32_t> commandLane;
  const std::vector<Queue *> *commandQueue = nullptr;
  std::vector<uint32_t> waitBegin;
  std::vector<uint32_t> waitDeps;
  /// Commands of other devices a command needs finished before it is
  /// submitted, which the session waits for on the host
  /// (hostWaitDeps[hostWaitBegin[i] .. hostWaitBegin[i + 1]]): no device
  /// waits on another device's fences.
  std::vector<uint32_t> hostWaitBegin;
  std::vector<uint32_t> hostWaitDeps;
  /// Per command: whether it is a copy between two devices, which the
  /// session runs itself through the devices' read and write, staged
  /// through `hostStaging` where neither side is host memory.
  std::vector<uint8_t> crossDevice;
  std::vector<uint8_t> hostStaging;
  /// Push constants of library-kernel dispatches (params, then the
  /// dispatch's); filled once by build().
  std::vector<std::vector<uint32_t>> pushStorage;
  std::vector<CommandTiming> timings;
  std::vector<Fence> fences;
  std::vector<CommandTime> times;

  bool running = false;
  bool haveResult = false;
  uint64_t runs = 0;
  Status lastRun;

  ~Impl() {
    if (running)
      (void)waitAll();
    for (size_t d = 0; d < arenas.size(); ++d)
      if (arenas[d].id)
        (void)loaded->devices[d]->free(arenas[d]);
    for (size_t i = 0; i < inputs.size(); ++i) {
      Device *dev = loaded->devices[program->inputs[i].residency];
      if (inputs[i].imported.id)
        (void)dev->free(inputs[i].imported);
      if (inputs[i].staging.id)
        (void)dev->free(inputs[i].staging);
    }
    for (size_t o = 0; o < outputs.size(); ++o)
      if (outputs[o].id)
        (void)loaded->devices[program->outputs[o].residency]->free(outputs[o]);
  }

  /// The device buffer program buffer `b` lives in, and the offset of its
  /// first byte there.
  Buffer resolve(uint32_t b, uint64_t &offset) const {
    const BufferSpec &spec = program->buffers[b];
    offset = 0;
    switch (spec.kind) {
    case BufferKind::Arena:
      offset = spec.offset;
      return arenas[spec.device];
    case BufferKind::Input:
      return inputs[spec.index].current;
    case BufferKind::Output:
      return outputs[spec.index];
    case BufferKind::Constant:
      return loaded->constantBuffers[b];
    }
    return Buffer();
  }

  Status build();
  Status assignLanes();
  /// Makes `kind`'s queues exist and commandQueue point at them.
  Status selectQueues(QueueKind kind);
  /// Starts a run on `kind`'s queues: checks, patches and submits.
  Status start(QueueKind kind);
  void patch();
  Status submitAll();
  Status waitAll();
  Status runCrossDeviceCopy(size_t i);
};

Status Session::Impl::build() {
  const Program &p = *program;
  size_t numDevices = p.devices.size();
  arenas.resize(numDevices);
  for (size_t d = 0; d < numDevices; ++d) {
    Device *dev = loaded->devices[d];
    std::string what = "session: device " + p.devices[d].device.str();
    FUEL_RT_RETURN_IF_ERROR(
        dev->reserveWorkspace(loaded->workspaceBytes[d]).withContext(what));
    // The arena: allocated once here, reused by every run.
    // Slot offsets are relative to the arena, so the arena itself is
    // aligned for bindings too.
    uint64_t alignment = std::max(p.devices[d].arenaAlignment,
                                  dev->info().bindingOffsetAlignment);
    if (dev->info().maxAlignment)
      alignment = std::min(alignment, dev->info().maxAlignment);
    StatusOr<Buffer> arena = dev->allocate(p.devices[d].arenaBytes, alignment);
    if (!arena)
      return arena.status().withContext(what + ": arena");
    arenas[d] = *arena;
  }
  inputs.resize(p.inputs.size());
  outputs.resize(p.outputs.size());
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    const TensorSpec &t = p.outputs[o];
    StatusOr<Buffer> buf = loaded->devices[t.residency]->allocate(
        tensorByteSize(t), p.buffers[t.buffer].alignment);
    if (!buf)
      return buf.status().withContext("session: output " + std::to_string(o) +
                                      " (" + t.name + ")");
    outputs[o] = *buf;
  }

  // Resolve the commands once. Binding arrays go into one vector sized first,
  // so the pointers into it stay valid.
  size_t numBindings = 0;
  for (const CommandSpec &c : p.commands)
    if (c.kind == CommandKind::Dispatch)
      numBindings += c.dispatch.bindings.size();
  bindings.resize(numBindings);
  commands.resize(p.commands.size());
  commandDevice.resize(p.commands.size());
  crossDevice.assign(p.commands.size(), 0);
  pushStorage.resize(p.commands.size());
  timings.resize(p.commands.size());
  fences.resize(p.commands.size());
  size_t next = 0;
  for (size_t i = 0; i < p.commands.size(); ++i) {
    const CommandSpec &c = p.commands[i];
    Command &dc = commands[i];
    if (c.kind == CommandKind::Dispatch) {
      const Dispatch &d = c.dispatch;
      Kernel kernel;
      uint64_t workspace = 0;
      const uint32_t *push = d.pushConstants.data();
      size_t numPush = d.pushConstants.size();
      if (d.source == KernelSource::Module) {
        kernel = loaded->modules[d.module].kernels[d.kernel];
        workspace = p.modules[d.module].kernels[d.kernel].workspaceBytes;
      } else {
        // A library kernel's integer params reach its entry as the first
        // push constants, then the dispatch's own (ShimABI.h).
        const LibraryKernel &lk = p.libraryKernels[d.kernel];
        kernel = loaded->libraryKernels[d.kernel];
        workspace = lk.workspaceBytes;
        std::vector<uint32_t> &words = pushStorage[i];
        for (size_t k = 0; k < lk.params.size(); ++k) {
          if (lk.params[k] < 0 || lk.params[k] > int64_t(UINT32_MAX))
            return Status::error(StatusCode::InvalidArgument,
                                 "session: libraryKernels[" +
                                     std::to_string(d.kernel) + "].params[" +
                                     std::to_string(k) +
                                     "] = " + std::to_string(lk.params[k]) +
                                     " does not fit a 32-bit push constant");
          words.push_back(uint32_t(lk.params[k]));
        }
        words.insert(words.end(), d.pushConstants.begin(),
                     d.pushConstants.end());
        push = words.data();
        numPush = words.size();
      }
      dc = Command::dispatch(kernel, d.grid[0], d.grid[1], d.grid[2],
                             bindings.data() + next, d.bindings.size(), push,
                             numPush);
      dc.workspaceBytes = workspace;
      dc.predictedNs = c.report.predictedNs;
      next += d.bindings.size();
      commandDevice[i] = dispatchDevice(p, d);
      // Binding offsets the device cannot bind (Vulkan's
      // minStorageBufferOffsetAlignment): the executable must round them
      // down and pass the remainder as an element offset. Slot offsets are
      // relative to an arena (allocated at that alignment) or a whole input,
      // output or constant buffer, so the offsets are known now.
      uint64_t align =
          loaded->devices[commandDevice[i]]->info().bindingOffsetAlignment;
      for (size_t b = 0; align > 1 && b < d.bindings.size(); ++b) {
        const BindingRange &r = d.bindings[b];
        const BufferSpec &spec = p.buffers[r.buffer];
        uint64_t offset =
            r.offset + (spec.kind == BufferKind::Arena ? spec.offset : 0);
        if (offset % align != 0)
          return Status::error(
              StatusCode::InvalidArgument,
              "session: commands[" + std::to_string(i) + "].bindings[" +
                  std::to_string(b) + "]: offset " + std::to_string(offset) +
                  " is not a multiple of " +
                  p.devices[commandDevice[i]].device.str() +
                  "'s binding offset alignment " + std::to_string(align) +
                  " (round it down and pass the remainder to the kernel as "
                  "an element offset)");
      }
    } else {
      const Copy &cp = c.copy;
      uint32_t srcDev = p.buffers[cp.src].device;
      uint32_t dstDev = p.buffers[cp.dst].device;
      // verifyProgram refuses a copy into an input or a constant, so no
      // command of a loaded executable writes into the caller's memory.
      dc = Command::copy(Buffer(), 0, Buffer(), 0, cp.bytes);
      commandDevice[i] = dstDev;
      if (srcDev != dstDev) {
        crossDevice[i] = 1;
        // Between two devices that are not the cpu (whose memory is always
        // host memory): staged through the host where neither maps its
        // buffers, in a buffer sized once here for the largest such copy;
        // CUDA to CUDA copies go peer or through the driver's pinned
        // memory instead (copyBetweenCudaDevices).
        DeviceKind srcKind = p.devices[srcDev].device.kind;
        DeviceKind dstKind = p.devices[dstDev].device.kind;
        if (srcKind != DeviceKind::Cpu && dstKind != DeviceKind::Cpu &&
            !(srcKind == DeviceKind::Cuda && dstKind == DeviceKind::Cuda) &&
            cp.bytes > hostStaging.size())
          hostStaging.resize(cp.bytes);
      } else {
        commandDevice[i] = srcDev;
      }
    }
    dc.timing = &timings[i];
  }
  return assignLanes();
}

Status Session::Impl::assignLanes() {
  const Program &p = *program;
  size_t numDevices = p.devices.size(), n = p.commands.size();
  // A list schedule on predicted times: laneFree is when a lane's last
  // command is predicted to finish, finish[i] when command i is. Unknown
  // predictions count as 1 ns so that such commands still spread.
  std::vector<uint64_t> laneFree(numDevices * lanes, 0);
  std::vector<int64_t> laneTail(numDevices * lanes, -1);
  std::vector<uint32_t> used(numDevices, 1);
  std::vector<uint64_t> finish(n, 0);
  commandLane.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const CommandSpec &c = p.commands[i];
    uint32_t d = commandDevice[i];
    uint64_t ready = 0;
    int64_t last = -1; // the same-device dependency predicted to end last
    for (uint32_t dep : c.dependencies) {
      ready = std::max(ready, finish[dep]);
      if (!crossDevice[dep] && commandDevice[dep] == d &&
          (last < 0 || finish[dep] > finish[size_t(last)]))
        last = dep;
    }
    if (crossDevice[i]) {
      // Run by the session on the host, on no lane.
      finish[i] = ready + std::max<uint64_t>(c.report.predictedNs, 1);
      continue;
    }
    uint32_t lane = 0;
    if (last >= 0 && laneTail[d * lanes + commandLane[size_t(last)]] == last) {
      // Right behind the dependency it waits longest for: no fence needed.
      lane = commandLane[size_t(last)];
    } else if (c.report.predictedNs != 0 &&
               c.report.predictedNs < kInlineDispatchNs) {
      // Predicted shorter than handing it to another thread costs: on the
      // lane of that dependency, or the first; a fan-out of small commands
      // stays on one thread.
      lane = last >= 0 ? commandLane[size_t(last)] : 0;
    } else {
      for (uint32_t l = 1; l < lanes; ++l)
        if (laneFree[d * lanes + l] < laneFree[d * lanes + lane])
          lane = l;
    }
    commandLane[i] = lane;
    used[d] = std::max(used[d], lane + 1);
    uint64_t start = std::max(ready, laneFree[d * lanes + lane]);
    finish[i] = start + std::max<uint64_t>(c.report.predictedNs, 1);
    laneFree[d * lanes + lane] = finish[i];
    laneTail[d * lanes + lane] = int64_t(i);
  }
  // The queues, one per lane used, are created by the first run that
  // needs them (selectQueues), never per run.
  laneCount = used;
  callerEligible = runOn == SessionOptions::RunOn::CallerThread;
  for (size_t d = 0; d < numDevices; ++d)
    if (p.devices[d].device.kind != DeviceKind::Cpu)
      callerEligible = false;
  // Waits: a dependency on the same lane holds by queue order; any other
  // becomes a wait on the dependency's fence.
  // A dependency on another device's command is waited for by the session
  // before the command is submitted; one on a cross-device copy needs no
  // wait at all, since the session has run it by then.
  waitBegin.assign(n + 1, 0);
  waitDeps.clear();
  hostWaitBegin.assign(n + 1, 0);
  hostWaitDeps.clear();
  for (size_t i = 0; i < n; ++i) {
    waitBegin[i] = uint32_t(waitDeps.size());
    hostWaitBegin[i] = uint32_t(hostWaitDeps.size());
    for (uint32_t dep : p.commands[i].dependencies) {
      if (crossDevice[dep])
        continue;
      if (crossDevice[i] || commandDevice[dep] != commandDevice[i])
        hostWaitDeps.push_back(dep);
      else if (commandLane[dep] != commandLane[i])
        waitDeps.push_back(dep);
    }
    if (waitDeps.size() - waitBegin[i] > kMaxCommandWaits)
      return Status::error(StatusCode::Unimplemented,
                           "session: commands[" + std::to_string(i) +
                               "] waits on more than " +
                               std::to_string(kMaxCommandWaits) +
                               " commands of other lanes or devices");
  }
  waitBegin[n] = uint32_t(waitDeps.size());
  hostWaitBegin[n] = uint32_t(hostWaitDeps.size());
  return Status::ok();
}

Status Session::Impl::selectQueues(QueueKind kind) {
  if (selected == kind)
    return Status::ok();
  size_t k = kind == QueueKind::Caller ? 1 : 0;
  if (queuesOf[k].empty()) {
    const Program &p = *program;
    size_t numDevices = p.devices.size();
    deviceQueues.resize(numDevices);
    callerQueues.resize(numDevices);
    std::vector<std::vector<Queue *>> chosen(numDevices);
    for (size_t d = 0; d < numDevices; ++d) {
      Device *dev = loaded->devices[d];
      std::string where = "session: device " + p.devices[d].device.str();
      deviceQueues[d].resize(laneCount[d]);
      for (uint32_t l = 0; l < laneCount[d]; ++l) {
        if (kind == QueueKind::Caller && l == 0) {
          if (!callerQueues[d]) {
            StatusOr<std::unique_ptr<Queue>> q = dev->createCallerQueue();
            if (!q)
              return q.status().withContext(where + ": caller queue");
            callerQueues[d] = std::move(*q);
          }
          chosen[d].push_back(callerQueues[d].get());
          continue;
        }
        if (!deviceQueues[d][l]) {
          StatusOr<std::unique_ptr<Queue>> q = dev->createQueue();
          if (!q)
            return q.status().withContext(where + ": lane " +
                                          std::to_string(l));
          deviceQueues[d][l] = std::move(*q);
        }
        chosen[d].push_back(deviceQueues[d][l].get());
      }
    }
    std::vector<Queue *> perCommand(p.commands.size());
    for (size_t i = 0; i < p.commands.size(); ++i)
      perCommand[i] =
          crossDevice[i] ? nullptr : chosen[commandDevice[i]][commandLane[i]];
    queuesOf[k] = std::move(chosen);
    commandQueueOf[k] = std::move(perCommand);
  }
  queues = &queuesOf[k];
  commandQueue = &commandQueueOf[k];
  selected = kind;
  return Status::ok();
}

void Session::Impl::patch() {
  const Program &p = *program;
  size_t next = 0;
  for (size_t i = 0; i < p.commands.size(); ++i) {
    const CommandSpec &c = p.commands[i];
    Command &dc = commands[i];
    if (c.kind == CommandKind::Dispatch) {
      for (const BindingRange &r : c.dispatch.bindings) {
        uint64_t base = 0;
        Binding &b = bindings[next++];
        b.buffer = resolve(r.buffer, base);
        b.offset = base + r.offset;
        b.length = r.length;
      }
    } else {
      uint64_t srcBase = 0, dstBase = 0;
      dc.src = resolve(c.copy.src, srcBase);
      dc.dst = resolve(c.copy.dst, dstBase);
      dc.srcOffset = srcBase + c.copy.srcOffset;
      dc.dstOffset = dstBase + c.copy.dstOffset;
    }
  }
}

Status Session::Impl::submitAll() {
  const Program &p = *program;
  // Commands go to their lanes in list order, so dependencies within a lane
  // hold by queue order; the others were turned into fence waits by
  // assignLanes(). Every dependency is an earlier command, so its fence
  // exists when a command is submitted, and waits never form a cycle.
  Fence waits[kMaxCommandWaits];
  for (size_t i = 0; i < p.commands.size(); ++i) {
    for (uint32_t w = hostWaitBegin[i]; w < hostWaitBegin[i + 1]; ++w) {
      uint32_t dep = hostWaitDeps[w];
      if (Status st = (*commandQueue)[dep]->wait(fences[dep]); !st.isOk())
        return st.withContext("session: commands[" + std::to_string(dep) + "]");
    }
    if (crossDevice[i]) {
      timings[i] = CommandTiming();
      FUEL_RT_RETURN_IF_ERROR(runCrossDeviceCopy(i).withContext(
          "session: commands[" + std::to_string(i) + "]"));
      fences[i] = Fence();
      continue;
    }
    size_t numWaits = 0;
    for (uint32_t w = waitBegin[i]; w < waitBegin[i + 1]; ++w)
      waits[numWaits++] = fences[waitDeps[w]];
    timings[i] = CommandTiming();
    StatusOr<Fence> f =
        (*commandQueue)[i]->submit(commands[i], waits, numWaits);
    if (!f)
      return f.status().withContext("session: commands[" + std::to_string(i) +
                                    "]");
    fences[i] = *f;
  }
  return Status::ok();
}

/// The host address of `buffer` where `device` is host memory and says
/// where it lies, else null.
static uint8_t *hostView(Device *device, Buffer buffer) {
  if (!device->info().hostVisible)
    return nullptr;
  StatusOr<void *> p = device->hostPointer(buffer);
  return p ? static_cast<uint8_t *>(*p) : nullptr;
}

Status Session::Impl::runCrossDeviceCopy(size_t i) {
  // Every command it depends on has finished (submitAll waited for them),
  // and every command depending on it is submitted after it returns.
  const Command &c = commands[i];
  const Copy &cp = program->commands[i].copy;
  Device *src = loaded->devices[program->buffers[cp.src].device];
  Device *dst = loaded->devices[program->buffers[cp.dst].device];
  uint64_t start = monotonicNs();
  StatusOr<bool> direct = copyBetweenDevices(*src, c.src, c.srcOffset, *dst,
                                             c.dst, c.dstOffset, c.bytes);
  if (!direct)
    return direct.status();
  if (*direct) {
    // Copied by the devices' drivers (two CUDA devices).
  } else if (uint8_t *from = hostView(src, c.src)) {
    FUEL_RT_RETURN_IF_ERROR(
        dst->write(c.dst, c.dstOffset, from + c.srcOffset, c.bytes));
  } else if (uint8_t *to = hostView(dst, c.dst)) {
    FUEL_RT_RETURN_IF_ERROR(
        src->read(c.src, c.srcOffset, to + c.dstOffset, c.bytes));
  } else {
    if (hostStaging.size() < c.bytes)
      return Status::error(StatusCode::Internal,
                           "no host staging buffer for a copy between " +
                               src->info().id.str() + " and " +
                               dst->info().id.str());
    FUEL_RT_RETURN_IF_ERROR(
        src->read(c.src, c.srcOffset, hostStaging.data(), c.bytes));
    FUEL_RT_RETURN_IF_ERROR(
        dst->write(c.dst, c.dstOffset, hostStaging.data(), c.bytes));
  }
  timings[i] = {start, monotonicNs()};
  return Status::ok();
}

Status Session::Impl::waitAll() {
  bool failed = false;
  for (const auto &lanesOfDevice : *queues)
    for (Queue *q : lanesOfDevice)
      failed = !q->finish().isOk() || failed;
  running = false;
  if (!failed)
    return Status::ok();
  // The first failing command in list order, whatever the lanes: a command
  // whose fence reports an error failed itself, or an earlier command of its
  // lane did, or one it waited for did, and those come earlier in the list.
  for (size_t i = 0; i < commands.size(); ++i)
    if (Status s = (*commandQueue)[i] ? (*commandQueue)[i]->wait(fences[i])
                                      : Status::ok();
        !s.isOk())
      return s.withContext("commands[" + std::to_string(i) + "]");
  return Status::error(StatusCode::Internal, "a queue failed");
}

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::~Session() = default;

StatusOr<std::unique_ptr<Session>>
Session::create(std::shared_ptr<LoadedExecutable> executable,
                const SessionOptions &options) {
  if (!executable)
    return Status::error(StatusCode::InvalidArgument,
                         "Session::create: null executable");
  if (options.lanes > kMaxSessionLanes)
    return Status::error(StatusCode::InvalidArgument,
                         "Session::create: " + std::to_string(options.lanes) +
                             " lanes requested, at most " +
                             std::to_string(kMaxSessionLanes));
  auto impl = std::make_unique<Impl>();
  impl->lanes = options.lanes ? options.lanes : kDefaultSessionLanes;
  impl->runOn = options.runOn;
  impl->program = &executable->program();
  impl->loaded = &executable->impl();
  impl->exe = std::move(executable);
  // A cpu-only program on a one-thread cpu device gets one lane by
  // default: a second lane would be a second thread running kernels.
  if (!options.lanes) {
    bool cpuOnly = true;
    for (const DeviceRequirement &d : impl->program->devices)
      cpuOnly = cpuOnly && d.device.kind == DeviceKind::Cpu;
    if (cpuOnly && !impl->loaded->devices.empty() &&
        dispatchThreads(*impl->loaded->devices[0]) == 1)
      impl->lanes = 1;
  }
  FUEL_RT_RETURN_IF_ERROR(impl->build());
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

const Program &Session::program() const { return *impl_->program; }

Status Session::bindInput(size_t index, ElementType dtype,
                          const std::vector<int64_t> &shape, const void *data,
                          size_t bytes) {
  Impl &s = *impl_;
  const Program &p = *s.program;
  if (s.running)
    return Status::error(StatusCode::FailedPrecondition,
                         "bindInput: a run is in flight; wait for it first");
  if (index >= p.inputs.size())
    return Status::error(StatusCode::InvalidArgument,
                         "bindInput: input " + std::to_string(index) +
                             " does not exist; the executable has " +
                             std::to_string(p.inputs.size()) + " inputs");
  const TensorSpec &t = p.inputs[index];
  std::string what =
      "bindInput: input " + std::to_string(index) + " (" + t.name + ")";
  if (dtype != t.dtype || shape != t.shape)
    return Status::error(StatusCode::InvalidArgument,
                         what + ": is " + formatTensorType(dtype, shape) +
                             ", expected " +
                             formatTensorType(t.dtype, t.shape));
  uint64_t need = tensorByteSize(t);
  if (bytes != need)
    return Status::error(StatusCode::InvalidArgument,
                         what + ": " + std::to_string(bytes) +
                             " bytes given, expected " + std::to_string(need));
  if (!data && bytes)
    return Status::error(StatusCode::InvalidArgument, what + ": null data");
  Device *dev = s.loaded->devices[t.residency];
  Impl::InputSlot &slot = s.inputs[index];
  if (slot.imported.id) {
    FUEL_RT_RETURN_IF_ERROR(dev->free(slot.imported));
    slot.imported = Buffer();
  }
  slot.bound = false;
  uint64_t alignment = std::max<uint64_t>(p.buffers[t.buffer].alignment, 1);
  if (dev->info().hostVisible &&
      reinterpret_cast<uintptr_t>(data) % alignment == 0) {
    // Zero-copy: the device reads the caller's memory. No command writes
    // into an input (the loader refuses copies into one; the compiler binds
    // inputs read-only), so the const_cast never leads to a write.
    StatusOr<Buffer> b = dev->importHost(const_cast<void *>(data), bytes);
    if (!b && dev->info().id == ::fuel::Device::cpu())
      return b.status().withContext(what);
    if (b) {
      slot.imported = *b;
      slot.current = *b;
      slot.zeroCopy = true;
    }
  }
  if (!slot.imported.id) {
    // Copied: the device is not host memory, the data is misaligned, or
    // the device cannot import host memory (a GPU whose memory is host
    // visible but that cannot wrap the caller's pages).
    if (!slot.staging.id) {
      StatusOr<Buffer> b = dev->allocate(need, alignment);
      if (!b)
        return b.status().withContext(what + ": staging buffer");
      slot.staging = *b;
    }
    FUEL_RT_RETURN_IF_ERROR(
        dev->write(slot.staging, 0, data, bytes).withContext(what));
    slot.current = slot.staging;
    slot.zeroCopy = false;
  }
  slot.bound = true;
  return Status::ok();
}

bool Session::isInputBound(size_t index) const {
  return index < impl_->inputs.size() && impl_->inputs[index].bound;
}
bool Session::isInputZeroCopy(size_t index) const {
  return isInputBound(index) && impl_->inputs[index].zeroCopy;
}

Status Session::Impl::start(QueueKind kind) {
  if (running)
    return Status::error(StatusCode::FailedPrecondition,
                         "run: a run is already in flight; wait for it first");
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].bound)
      return Status::error(StatusCode::FailedPrecondition,
                           "run: input " + std::to_string(i) + " (" +
                               program->inputs[i].name + ") is not bound");
  FUEL_RT_RETURN_IF_ERROR(selectQueues(kind));
  patch();
  running = true;
  haveResult = false;
  Status submitted = submitAll();
  if (!submitted.isOk()) {
    // Let what was submitted finish before reporting.
    (void)waitAll();
    lastRun = submitted;
    return submitted;
  }
  return Status::ok();
}

Status Session::runAsync() { return impl_->start(Impl::QueueKind::Device); }

Status Session::wait() {
  Impl &s = *impl_;
  if (!s.running)
    return Status::ok();
  Status st = s.waitAll();
  s.lastRun = st;
  ++s.runs;
  if (!st.isOk())
    return st.withContext("run");
  s.times.resize(s.timings.size());
  for (size_t i = 0; i < s.timings.size(); ++i)
    s.times[i] = {s.timings[i].startNs, s.timings[i].endNs};
  s.haveResult = true;
  return Status::ok();
}

Status Session::run() {
  // A cpu-only program runs on this thread: its commands are recorded on
  // caller queues and run back to back by wait(), with no hand-off to a
  // queue thread; a thread with too small a stack hands them to the
  // device's queue threads instead.
  Impl &s = *impl_;
  Impl::QueueKind kind = s.callerEligible && s.stackCheck.fits()
                             ? Impl::QueueKind::Caller
                             : Impl::QueueKind::Device;
  FUEL_RT_RETURN_IF_ERROR(s.start(kind));
  return wait();
}

bool Session::isRunning() const { return impl_->running; }

Status Session::readOutput(size_t index, void *data, size_t bytes) const {
  const Impl &s = *impl_;
  const Program &p = *s.program;
  if (s.running)
    return Status::error(StatusCode::FailedPrecondition,
                         "readOutput: a run is in flight; wait for it first");
  if (index >= p.outputs.size())
    return Status::error(StatusCode::InvalidArgument,
                         "readOutput: output " + std::to_string(index) +
                             " does not exist; the executable has " +
                             std::to_string(p.outputs.size()) + " outputs");
  const TensorSpec &t = p.outputs[index];
  // Built only on an error: a successful read allocates nothing.
  auto what = [&] {
    return "readOutput: output " + std::to_string(index) + " (" + t.name + ")";
  };
  if (!s.haveResult)
    return Status::error(StatusCode::FailedPrecondition,
                         what() + ": no run has finished successfully yet");
  uint64_t need = tensorByteSize(t);
  if (bytes != need)
    return Status::error(StatusCode::InvalidArgument,
                         what() + ": " + std::to_string(bytes) +
                             " bytes given, expected " + std::to_string(need));
  if (!data && bytes)
    return Status::error(StatusCode::InvalidArgument, what() + ": null data");
  Status st =
      s.loaded->devices[t.residency]->read(s.outputs[index], 0, data, bytes);
  if (!st)
    return st.withContext(what());
  return Status::ok();
}

const std::vector<CommandTime> &Session::commandTimes() const {
  return impl_->times;
}
uint64_t Session::runCount() const { return impl_->runs; }

const std::vector<uint32_t> &Session::commandLanes() const {
  return impl_->commandLane;
}
unsigned Session::laneLimit() const { return impl_->lanes; }
bool Session::lastRunOnCaller() const {
  return impl_->selected == Impl::QueueKind::Caller;
}
unsigned Session::laneCount(size_t device) const {
  return device < impl_->laneCount.size() ? impl_->laneCount[device] : 0;
}

} // namespace fuel::rt
