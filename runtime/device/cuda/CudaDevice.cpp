//===- CudaDevice.cpp - A CUDA device through the driver API --------------===//
//
// Implements CudaDevice.h. Queues keep submitted commands pending and
// enqueue them on their stream, each followed by an event (its fence), when
// a fence is waited on or asked about, at finish(), or when the batch is
// full; only then are buffers resolved, so that a buffer freed before its
// command was enqueued fails that command instead of faulting the GPU.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.h"

#include "BatchingQueue.h"
#include "DeviceChecks.h"
#include "cuda/Cublas.h"
#include "cuda/CudaCommands.h"
#include "cuda/CudaDriver.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>

namespace fuel::rt {

using namespace cuda;
using detail::checkRange;
using detail::outOfRange;
using detail::unknownBuffer;

namespace {

std::atomic<uint64_t> nextHandleId{2ull << 40};
uint64_t newId() { return nextHandleId.fetch_add(1); }

constexpr uint64_t kMaxAlignment = 256; // cuMemAlloc's alignment
/// Timestamps are taken relative to a calibration event; it is renewed
/// when a command starts this long after it (float milliseconds lose
/// precision beyond).
constexpr double kRecalibrateMs = 10000;

} // namespace

class CudaQueue;

class CudaDevice::Impl {
public:
  const Driver *drv = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  bool retained = false;
  DeviceInfo info;
  CudaDeviceOptions options;
  int ccMajor = 0, ccMinor = 0;
  int maxThreadsPerBlock = 0;
  int maxBlock[3] = {0, 0, 0};
  int maxGrid[3] = {0, 0, 0};

  mutable std::mutex mu;
  struct Allocation {
    CUdeviceptr ptr = 0;
    uint64_t size = 0;
  };
  std::map<uint64_t, Allocation> buffers;
  uint64_t allocated = 0;
  struct KernelRec {
    uint64_t module = 0;
    CUfunction function = nullptr;
    uint32_t block[3] = {1, 1, 1};
    /// Bytes of each parameter of the PTX entry (8 or 4 where known).
    std::vector<uint8_t> params;
    /// A cuBLAS entry (no function).
    std::string libraryEntry;
  };
  std::map<uint64_t, KernelRec> kernels;
  struct ModuleRec {
    CUmodule module = nullptr; // null for a library
    std::vector<uint64_t> kernels;
  };
  std::map<uint64_t, ModuleRec> modules;
  uint64_t workspaceBytes = 0;
  const Cublas *cublas = nullptr;

  std::mutex stagingMu;
  void *staging = nullptr;
  uint64_t stagingBytes = 0;

  std::atomic<uint64_t> launches{0}, libraryCalls{0}, copies{0}, stagedBytes{0};
  std::atomic<uint64_t> peerCopyBytes{0}, stagedCopyBytes{0};
  std::atomic<bool> lost{false};

  /// Peer copies into this device: the stream they run on (made at the
  /// first) and, per source device, whether peer access from this
  /// device's context is enabled (true) or impossible (false).
  std::mutex peerMu;
  CUstream peerStream = nullptr;
  std::map<CUdevice, bool> peerAccess;

  ~Impl() {
    if (!drv)
      return;
    if (context)
      drv->cuCtxSetCurrent(context);
    for (auto &[id, m] : modules)
      if (m.module)
        drv->cuModuleUnload(m.module);
    for (auto &[id, a] : buffers)
      if (a.ptr)
        drv->cuMemFree(a.ptr);
    if (staging)
      drv->cuMemFreeHost(staging);
    if (peerStream)
      drv->cuStreamDestroy(peerStream);
    if (retained)
      drv->cuDevicePrimaryCtxRelease(device);
  }

  Status makeCurrent() const {
    return check(*drv, drv->cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }

  /// Marks the device lost on errors that mean so.
  Status note(Status s) {
    if (!s.isOk() && s.code() == StatusCode::Unavailable)
      lost = true;
    return s;
  }

  const Allocation *find(Buffer b) const {
    auto it = buffers.find(b.id);
    return it == buffers.end() ? nullptr : &it->second;
  }

  Status init(uint32_t ordinal, const CudaDeviceOptions &opts);
};

Status CudaDevice::Impl::init(uint32_t ordinal, const CudaDeviceOptions &opts) {
  options = opts;
  StatusOr<const Driver *> d = loadDriver(opts.driverLibrary);
  if (!d)
    return d.status();
  drv = *d;
  int count = 0;
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv, drv->cuDeviceGetCount(&count), "cuDeviceGetCount"));
  if (count <= 0)
    return Status::error(StatusCode::Unavailable,
                         "the CUDA driver reports no device");
  if (ordinal >= uint32_t(count))
    return Status::error(StatusCode::Unavailable,
                         "no device cuda:" + std::to_string(ordinal) +
                             " (the driver reports " + std::to_string(count) +
                             ")");
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv, drv->cuDeviceGet(&device, int(ordinal)), "cuDeviceGet"));
  FUEL_RT_RETURN_IF_ERROR(check(*drv,
                                drv->cuDevicePrimaryCtxRetain(&context, device),
                                "cuDevicePrimaryCtxRetain"));
  retained = true;
  FUEL_RT_RETURN_IF_ERROR(makeCurrent());
  char name[256] = {};
  if (drv->cuDeviceGetName(name, sizeof(name) - 1, device) == kSuccess)
    info.name = name;
  if (info.name.empty())
    info.name = "CUDA device";
  auto attribute = [&](int attr) {
    int v = 0;
    return drv->cuDeviceGetAttribute(&v, attr, device) == kSuccess ? v : 0;
  };
  ccMajor = attribute(kAttrComputeCapabilityMajor);
  ccMinor = attribute(kAttrComputeCapabilityMinor);
  maxThreadsPerBlock = attribute(kAttrMaxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    maxBlock[i] = attribute(kAttrMaxBlockDimX + i);
    maxGrid[i] = attribute(kAttrMaxGridDimX + i);
  }
  size_t total = 0;
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv, drv->cuDeviceTotalMem(&total, device), "cuDeviceTotalMem"));
  info.id = ::fuel::Device::cuda(ordinal);
  info.memoryLimit = opts.memoryLimit ? opts.memoryLimit : uint64_t(total);
  info.maxAlignment = kMaxAlignment;
  info.hostVisible = false;
  info.bindingOffsetAlignment = 1;
  stagingBytes = std::max<uint64_t>(opts.stagingBytes, 4096);
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv,
            drv->cuMemHostAlloc(&staging, size_t(stagingBytes),
                                kMemHostAllocPortable),
            "cuMemHostAlloc (the staging buffer)"));
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Queues
//===----------------------------------------------------------------------===//

class CudaQueue final : public detail::BatchingQueue<std::recursive_mutex> {
public:
  explicit CudaQueue(std::shared_ptr<CudaDevice::Impl> dev)
      : BatchingQueue(CudaDevice::kMaxBatch), dev_(std::move(dev)),
        drv_(dev_->drv) {}
  ~CudaQueue() override;

  Status init();

  const CudaDevice::Impl *device() const { return dev_.get(); }

  /// Enqueues every pending command up to `value`.
  void flushUpTo(uint64_t value) override;
  /// Makes `stream` wait for this queue's command `value` (flushed first).
  Status streamWaitFor(CUstream stream, uint64_t value);

private:
  using Pending = detail::PendingCommand;
  /// A command enqueued and not yet known to be complete.
  struct InFlight {
    uint64_t value = 0;
    CUevent done = nullptr;
    CUevent start = nullptr;
    CommandTiming *timing = nullptr;
  };

  Status validate(const Command &c, const Fence *waits,
                  size_t numWaits) override;
  Status waitFor(uint64_t value, uint64_t last) override;
  bool signalled(uint64_t value, uint64_t last) override;
  Status enqueue(const Pending &p);
  Status enqueueDispatch(const Command &c);
  Status enqueueLibrary(const Command &c, const std::string &entry);
  StatusOr<CUevent> takeEvent();
  /// Retires completed commands in order (with mu_ held); with `block`,
  /// waits for every one up to `value`.
  Status collect(uint64_t value, bool block);
  Status calibrate();

  std::shared_ptr<CudaDevice::Impl> dev_;
  const Driver *drv_;
  CUstream stream_ = nullptr;
  void *cublasHandle_ = nullptr;
  CUdeviceptr workspace_ = 0;
  uint64_t workspaceSize_ = 0;

  std::deque<InFlight> inFlight_;
  std::vector<CUevent> freeEvents_;
  uint64_t completed_ = 0;
  CUevent epoch_ = nullptr;
  uint64_t epochNs_ = 0;
};

Status CudaQueue::init() {
  FUEL_RT_RETURN_IF_ERROR(dev_->makeCurrent());
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv_, drv_->cuStreamCreate(&stream_, kStreamNonBlocking),
            "cuStreamCreate"));
  FUEL_RT_RETURN_IF_ERROR(check(
      *drv_, drv_->cuEventCreate(&epoch_, kEventDefault), "cuEventCreate"));
  return calibrate();
}

Status CudaQueue::calibrate() {
  // The host time of the epoch event: taken right after it completes on an
  // otherwise idle stream.
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv_, drv_->cuEventRecord(epoch_, stream_), "cuEventRecord"));
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv_, drv_->cuEventSynchronize(epoch_), "cuEventSynchronize"));
  epochNs_ = monotonicNs();
  return Status::ok();
}

CudaQueue::~CudaQueue() {
  (void)finish();
  (void)dev_->makeCurrent();
  std::lock_guard<std::recursive_mutex> lock(mu_);
  for (InFlight &f : inFlight_) {
    drv_->cuEventSynchronize(f.done);
    freeEvents_.push_back(f.done);
    if (f.start)
      freeEvents_.push_back(f.start);
  }
  for (CUevent e : freeEvents_)
    drv_->cuEventDestroy(e);
  if (epoch_)
    drv_->cuEventDestroy(epoch_);
  if (cublasHandle_ && dev_->cublas)
    dev_->cublas->destroy(cublasHandle_);
  if (workspace_)
    drv_->cuMemFree(workspace_);
  if (stream_)
    drv_->cuStreamDestroy(stream_);
}

Status CudaQueue::validate(const Command &c, const Fence *waits,
                           size_t numWaits) {
  if (dev_->lost)
    return detail::deviceLost("CUDA");
  std::lock_guard<std::mutex> lock(dev_->mu);
  if (c.kind == Command::Kind::Copy)
    return detail::checkCopyCommandIn(c,
                                      [&](Buffer b) { return dev_->find(b); });
  if (c.kind != Command::Kind::Dispatch)
    return Status::error(StatusCode::InvalidArgument,
                         "submit: unknown command kind");
  auto k = dev_->kernels.find(c.kernel.id);
  if (k == dev_->kernels.end())
    return detail::unknownKernel(c.kernel);
  for (int i = 0; i < 3; ++i) {
    if (c.grid[i] == 0)
      return Status::error(StatusCode::InvalidArgument,
                           "dispatch: grid dimension " + std::to_string(i) +
                               " is 0");
    if (dev_->maxGrid[i] > 0 && c.grid[i] > uint32_t(dev_->maxGrid[i]))
      return Status::error(StatusCode::InvalidArgument,
                           "dispatch: grid dimension " + std::to_string(i) +
                               " of " + std::to_string(c.grid[i]) +
                               " exceeds the device's maximum of " +
                               std::to_string(dev_->maxGrid[i]));
  }
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkDispatchArguments(c, dev_->workspaceBytes));
  const CudaDevice::Impl::KernelRec &kr = k->second;
  std::vector<uint64_t> needed; // per binding, the bytes it must hold
  if (!kr.libraryEntry.empty()) {
    if (c.numBindings != 3)
      return Status::error(StatusCode::InvalidArgument,
                           "dispatch: cuBLAS entry " + kr.libraryEntry +
                               " takes 3 bindings (A, B, C), not " +
                               std::to_string(c.numBindings));
    StatusOr<RowMajorGemm> g = parseGemmParams(kr.libraryEntry, c.pushConstants,
                                               c.numPushConstants, c.grid);
    if (!g)
      return g.status();
    needed = {gemmBytesA(*g), gemmBytesB(*g), gemmBytesC(*g)};
  } else {
    size_t params = kr.params.size();
    if (c.numBindings + c.numPushConstants > params)
      return Status::error(
          StatusCode::InvalidArgument,
          "dispatch: kernel " + std::to_string(c.kernel.id) + " takes " +
              std::to_string(params) + " parameters, not " +
              std::to_string(c.numBindings) + " bindings and " +
              std::to_string(c.numPushConstants) + " push constants");
    for (size_t i = 0; i < c.numBindings; ++i)
      if (kr.params[i] != 8)
        return Status::error(StatusCode::InvalidArgument,
                             "dispatch: parameter " + std::to_string(i) +
                                 " of kernel " + std::to_string(c.kernel.id) +
                                 " is not a 64-bit address for binding " +
                                 std::to_string(i));
  }
  for (size_t i = 0; i < c.numBindings; ++i) {
    const Binding &b = c.bindings[i];
    const auto *a = dev_->find(b.buffer);
    if (!a)
      return unknownBuffer("dispatch: binding " + std::to_string(i), b.buffer);
    if (b.offset > a->size || b.length > a->size - b.offset)
      return outOfRange("dispatch: binding " + std::to_string(i), b.offset,
                        b.length, a->size);
    if (i < needed.size() && b.length < needed[i])
      return Status::error(StatusCode::OutOfRange,
                           "dispatch: binding " + std::to_string(i) + " of " +
                               std::to_string(b.length) + " bytes; the gemm " +
                               "reads or writes " + std::to_string(needed[i]));
  }
  return Status::ok();
}

StatusOr<CUevent> CudaQueue::takeEvent() {
  if (!freeEvents_.empty()) {
    CUevent e = freeEvents_.back();
    freeEvents_.pop_back();
    return e;
  }
  CUevent e = nullptr;
  FUEL_RT_RETURN_IF_ERROR(
      check(*drv_, drv_->cuEventCreate(&e, kEventDefault), "cuEventCreate"));
  return e;
}

Status CudaQueue::streamWaitFor(CUstream stream, uint64_t value) {
  flushUpTo(value);
  std::lock_guard<std::recursive_mutex> lock(mu_);
  FUEL_RT_RETURN_IF_ERROR(failureAt(value));
  if (value <= completed_)
    return Status::ok();
  for (const InFlight &f : inFlight_)
    if (f.value >= value)
      return check(*drv_, drv_->cuStreamWaitEvent(stream, f.done, 0),
                   "cuStreamWaitEvent");
  return Status::ok();
}

Status CudaQueue::enqueueDispatch(const Command &c) {
  CUdeviceptr addresses[kMaxBindings];
  std::string entry;
  const CudaDevice::Impl::KernelRec *kr;
  {
    std::lock_guard<std::mutex> lock(dev_->mu);
    auto k = dev_->kernels.find(c.kernel.id);
    if (k == dev_->kernels.end())
      return Status::error(StatusCode::FailedPrecondition,
                           "dispatch: kernel " + std::to_string(c.kernel.id) +
                               " was unloaded before the command ran");
    kr = &k->second;
    for (size_t i = 0; i < c.numBindings; ++i) {
      const auto *a = dev_->find(c.bindings[i].buffer);
      if (!a)
        return Status::error(StatusCode::FailedPrecondition,
                             "dispatch: binding " + std::to_string(i) +
                                 ": buffer " +
                                 std::to_string(c.bindings[i].buffer.id) +
                                 " was freed before the command ran");
      addresses[i] = a->ptr + c.bindings[i].offset;
    }
    entry = kr->libraryEntry;
  }
  if (!entry.empty())
    return enqueueLibrary(c, entry);
  // Parameters past the bindings and push constants are zero.
  uint64_t storage[kMaxBindings + kMaxPushConstants + 64];
  void *args[kMaxBindings + kMaxPushConstants + 64];
  size_t numParams = std::min(kr->params.size(), std::size(storage));
  packKernelParams(addresses, c.numBindings, c.pushConstants,
                   c.numPushConstants, storage, args);
  for (size_t i = c.numBindings + c.numPushConstants; i < numParams; ++i) {
    storage[i] = 0;
    args[i] = &storage[i];
  }
  dev_->launches++;
  return check(*drv_,
               drv_->cuLaunchKernel(kr->function, c.grid[0], c.grid[1],
                                    c.grid[2], kr->block[0], kr->block[1],
                                    kr->block[2], 0, stream_, args, nullptr),
               "cuLaunchKernel");
}

Status CudaQueue::enqueueLibrary(const Command &c, const std::string &entry) {
  const Cublas *cb = dev_->cublas;
  if (!cb)
    return Status::error(StatusCode::Internal, "cuBLAS is not loaded");
  StatusOr<RowMajorGemm> g =
      parseGemmParams(entry, c.pushConstants, c.numPushConstants, c.grid);
  if (!g)
    return g.status();
  if (!cublasHandle_) {
    int s = cb->create(&cublasHandle_);
    if (s != 0) {
      cublasHandle_ = nullptr;
      return Status::error(StatusCode::Unavailable,
                           "cuda: cublasCreate_v2 failed with " +
                               cublasStatusText(s));
    }
    s = cb->setStream(cublasHandle_, stream_);
    if (s != 0)
      return Status::error(StatusCode::Internal,
                           "cuda: cublasSetStream_v2 failed with " +
                               cublasStatusText(s));
  }
  // The workspace: the largest any library kernel of the executable
  // declares (its registry record's workspace_bytes), reserved on the device
  // and allocated once per queue.
  uint64_t want = dev_->workspaceBytes;
  if (want > workspaceSize_) {
    if (workspace_)
      FUEL_RT_RETURN_IF_ERROR(check(*drv_, drv_->cuStreamSynchronize(stream_),
                                    "cuStreamSynchronize"));
    if (workspace_)
      drv_->cuMemFree(workspace_);
    workspace_ = 0;
    workspaceSize_ = 0;
    FUEL_RT_RETURN_IF_ERROR(check(*drv_,
                                  drv_->cuMemAlloc(&workspace_, size_t(want)),
                                  "cuMemAlloc (the cuBLAS workspace)"));
    workspaceSize_ = want;
    int s =
        cb->setWorkspace(cublasHandle_, reinterpret_cast<void *>(workspace_),
                         size_t(workspaceSize_));
    if (s != 0)
      return Status::error(StatusCode::Internal,
                           "cuda: cublasSetWorkspace_v2 failed with " +
                               cublasStatusText(s));
  }
  CUdeviceptr a, b, out;
  {
    std::lock_guard<std::mutex> lock(dev_->mu);
    const auto *ba = dev_->find(c.bindings[0].buffer);
    const auto *bb = dev_->find(c.bindings[1].buffer);
    const auto *bc = dev_->find(c.bindings[2].buffer);
    if (!ba || !bb || !bc)
      return Status::error(StatusCode::FailedPrecondition,
                           "dispatch: a buffer of cuBLAS entry " + entry +
                               " was freed before the command ran");
    a = ba->ptr + c.bindings[0].offset;
    b = bb->ptr + c.bindings[1].offset;
    out = bc->ptr + c.bindings[2].offset;
  }
  ColumnMajorGemm m = toColumnMajor(*g);
  const float alpha = 1.0f, beta = 0.0f;
  auto *first = reinterpret_cast<const float *>(m.firstIsB ? b : a);
  auto *second = reinterpret_cast<const float *>(m.firstIsB ? a : b);
  auto *dst = reinterpret_cast<float *>(out);
  dev_->libraryCalls++;
  int s;
  const char *call;
  if (entry == kCublasSgemmEntry) {
    call = "cublasSgemm_v2";
    s = cb->sgemm(cublasHandle_, m.opFirst, m.opSecond, m.m, m.n, m.k, &alpha,
                  first, m.ldFirst, second, m.ldSecond, &beta, dst, m.ldc);
  } else {
    call = "cublasSgemmStridedBatched";
    s = cb->sgemmStridedBatched(cublasHandle_, m.opFirst, m.opSecond, m.m, m.n,
                                m.k, &alpha, first, m.ldFirst, m.strideFirst,
                                second, m.ldSecond, m.strideSecond, &beta, dst,
                                m.ldc, m.strideC, m.batch);
  }
  if (s != 0)
    return Status::error(StatusCode::Internal, std::string("cuda: ") + call +
                                                   " failed with " +
                                                   cublasStatusText(s));
  return Status::ok();
}

Status CudaQueue::enqueue(const Pending &p) {
  const Command &c = p.command;
  for (size_t i = 0; i < p.numWaits; ++i) {
    const Fence &w = p.waits[i];
    if (w.queue == this)
      continue; // queue order
    if (const auto *other = dynamic_cast<const CudaQueue *>(w.queue);
        other && other->device() == dev_.get()) {
      FUEL_RT_RETURN_IF_ERROR(
          const_cast<CudaQueue *>(other)->streamWaitFor(stream_, w.value));
    } else {
      // Another device's queue: waited for by the host.
      FUEL_RT_RETURN_IF_ERROR(const_cast<Queue *>(w.queue)->wait(w));
    }
  }
  if (c.kind == Command::Kind::Dispatch)
    return enqueueDispatch(c);
  CUdeviceptr src, dst;
  {
    std::lock_guard<std::mutex> lock(dev_->mu);
    const auto *s = dev_->find(c.src);
    const auto *d = dev_->find(c.dst);
    if (!s || !d)
      return Status::error(StatusCode::FailedPrecondition,
                           "copy command: a buffer was freed before the "
                           "command ran");
    src = s->ptr + c.srcOffset;
    dst = d->ptr + c.dstOffset;
  }
  return forEachCopyPiece(
      dst, src, c.bytes, [&](uint64_t to, uint64_t from, uint64_t n) {
        dev_->copies++;
        return check(*drv_,
                     drv_->cuMemcpyDtoDAsync(to, from, size_t(n), stream_),
                     "cuMemcpyDtoDAsync");
      });
}

void CudaQueue::flushUpTo(uint64_t value) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (pending_.empty() || pending_.front().value > value)
    return;
  Status current = dev_->makeCurrent();
  size_t taken = 0;
  for (; taken < pending_.size() && pending_[taken].value <= value; ++taken) {
    const Pending &p = pending_[taken];
    if (failedAt() && p.value >= failedAt())
      continue; // skipped: an earlier command failed
    Status s = current;
    InFlight f;
    f.value = p.value;
    f.timing = p.command.timing;
    if (s.isOk() && f.timing) {
      StatusOr<CUevent> e = takeEvent();
      if (e) {
        f.start = *e;
        s = check(*drv_, drv_->cuEventRecord(f.start, stream_),
                  "cuEventRecord");
      } else {
        s = e.status();
      }
    }
    if (s.isOk())
      s = enqueue(p);
    if (s.isOk()) {
      StatusOr<CUevent> e = takeEvent();
      if (e) {
        f.done = *e;
        s = check(*drv_, drv_->cuEventRecord(f.done, stream_), "cuEventRecord");
      } else {
        s = e.status();
      }
    }
    if (!s.isOk()) {
      if (f.start)
        freeEvents_.push_back(f.start);
      if (f.done)
        freeEvents_.push_back(f.done);
      fail(p.value, dev_->note(std::move(s)));
      continue;
    }
    inFlight_.push_back(f);
  }
  pending_.erase(pending_.begin(), pending_.begin() + long(taken));
}

Status CudaQueue::collect(uint64_t value, bool block) {
  while (!inFlight_.empty()) {
    InFlight &f = inFlight_.front();
    CUresult r = block && f.value <= value ? drv_->cuEventSynchronize(f.done)
                                           : drv_->cuEventQuery(f.done);
    if (r == kErrorNotReady)
      break;
    if (r != kSuccess) {
      // The command (or one before it on the stream) failed on the device.
      fail(f.value, dev_->note(check(*drv_, r, "cuEventSynchronize")));
    } else if (f.timing && f.start) {
      float startMs = 0, endMs = 0;
      if (drv_->cuEventElapsedTime(&startMs, epoch_, f.start) == kSuccess &&
          drv_->cuEventElapsedTime(&endMs, epoch_, f.done) == kSuccess) {
        f.timing->startNs = epochNs_ + uint64_t(std::max(0.0f, startMs) * 1e6);
        f.timing->endNs = epochNs_ + uint64_t(std::max(startMs, endMs) * 1e6);
      }
    }
    completed_ = std::max(completed_, f.value);
    freeEvents_.push_back(f.done);
    if (f.start)
      freeEvents_.push_back(f.start);
    inFlight_.pop_front();
  }
  if (inFlight_.empty() && pending_.empty()) {
    // Everything submitted so far has run or failed.
    completed_ = nextValue_ - 1;
    if (monotonicNs() - epochNs_ > uint64_t(kRecalibrateMs * 1e6))
      (void)calibrate();
  }
  return Status::ok();
}

Status CudaQueue::waitFor(uint64_t value, uint64_t) {
  flushUpTo(value);
  {
    std::lock_guard<std::recursive_mutex> lock(mu_);
    FUEL_RT_RETURN_IF_ERROR(dev_->makeCurrent());
    (void)collect(value, true);
  }
  return failureAt(value);
}

bool CudaQueue::signalled(uint64_t value, uint64_t) {
  flushUpTo(value);
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (!dev_->makeCurrent().isOk())
    return false;
  (void)collect(value, false);
  if (value <= completed_)
    return true;
  uint64_t failed = failedAt();
  // A failed command and those after it signal once everything before
  // the failure has completed.
  return failed && value >= failed && completed_ + 1 >= failed;
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

CudaDevice::CudaDevice(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

CudaDevice::~CudaDevice() = default;

const DeviceInfo &CudaDevice::info() const { return impl_->info; }

std::pair<int, int> CudaDevice::computeCapability() const {
  return {impl_->ccMajor, impl_->ccMinor};
}

CudaDeviceCounters CudaDevice::counters() const {
  CudaDeviceCounters c;
  c.launches = impl_->launches;
  c.libraryCalls = impl_->libraryCalls;
  c.copies = impl_->copies;
  c.stagedBytes = impl_->stagedBytes;
  c.peerCopyBytes = impl_->peerCopyBytes;
  c.stagedCopyBytes = impl_->stagedCopyBytes;
  return c;
}

StatusOr<Buffer> CudaDevice::allocate(uint64_t size, uint64_t alignment) {
  Impl &d = *impl_;
  // cuMemAlloc aligns to kMaxAlignment: the alignment is only checked.
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkAlignment(alignment, kMaxAlignment).status());
  std::lock_guard<std::mutex> lock(d.mu);
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkMemoryLimit(size, d.allocated, d.info.memoryLimit));
  Impl::Allocation a;
  a.size = size;
  if (size) {
    FUEL_RT_RETURN_IF_ERROR(d.makeCurrent());
    CUresult r = d.drv->cuMemAlloc(&a.ptr, size_t(size));
    if (r != kSuccess)
      return d.note(check(*d.drv, r, "cuMemAlloc"))
          .withContext("allocate: " + std::to_string(size) + " bytes");
  }
  Buffer b{newId()};
  d.buffers.emplace(b.id, a);
  d.allocated += size;
  return b;
}

StatusOr<Buffer> CudaDevice::importHost(void *, uint64_t) {
  return Status::error(StatusCode::Unimplemented,
                       "importHost: CUDA buffers are device memory");
}

Status CudaDevice::free(Buffer buffer) {
  Impl &d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.buffers.find(buffer.id);
  if (it == d.buffers.end())
    return unknownBuffer("free", buffer);
  if (it->second.ptr) {
    FUEL_RT_RETURN_IF_ERROR(d.makeCurrent());
    FUEL_RT_RETURN_IF_ERROR(
        check(*d.drv, d.drv->cuMemFree(it->second.ptr), "cuMemFree"));
  }
  d.allocated -= it->second.size;
  d.buffers.erase(it);
  return Status::ok();
}

StatusOr<uint64_t> CudaDevice::bufferSize(Buffer buffer) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto *a = impl_->find(buffer);
  if (!a)
    return unknownBuffer("bufferSize", buffer);
  return a->size;
}

StatusOr<void *> CudaDevice::hostPointer(Buffer buffer) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (!impl_->find(buffer))
    return unknownBuffer("hostPointer", buffer);
  return Status::error(StatusCode::FailedPrecondition,
                       "hostPointer: CUDA buffers are device memory");
}

uint64_t CudaDevice::bytesAllocated() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->allocated;
}

Status CudaDevice::write(Buffer dst, uint64_t dstOffset, const void *src,
                         uint64_t bytes) {
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkHostPointer(src, bytes, "write: null source"));
  Impl &d = *impl_;
  CUdeviceptr base;
  {
    std::lock_guard<std::mutex> lock(d.mu);
    const auto *a = d.find(dst);
    if (!a)
      return unknownBuffer("write", dst);
    FUEL_RT_RETURN_IF_ERROR(checkRange("write", dstOffset, bytes, a->size));
    base = a->ptr + dstOffset;
  }
  if (!bytes)
    return Status::ok();
  std::lock_guard<std::mutex> lock(d.stagingMu);
  FUEL_RT_RETURN_IF_ERROR(d.makeCurrent());
  const auto *from = static_cast<const uint8_t *>(src);
  for (uint64_t done = 0; done < bytes; done += d.stagingBytes) {
    uint64_t n = std::min(d.stagingBytes, bytes - done);
    std::memcpy(d.staging, from + done, size_t(n));
    FUEL_RT_RETURN_IF_ERROR(d.note(
        check(*d.drv, d.drv->cuMemcpyHtoD(base + done, d.staging, size_t(n)),
              "cuMemcpyHtoD")));
    d.stagedBytes += n;
  }
  return Status::ok();
}

Status CudaDevice::read(Buffer src, uint64_t srcOffset, void *dst,
                        uint64_t bytes) {
  FUEL_RT_RETURN_IF_ERROR(
      detail::checkHostPointer(dst, bytes, "read: null destination"));
  Impl &d = *impl_;
  CUdeviceptr base;
  {
    std::lock_guard<std::mutex> lock(d.mu);
    const auto *a = d.find(src);
    if (!a)
      return unknownBuffer("read", src);
    FUEL_RT_RETURN_IF_ERROR(checkRange("read", srcOffset, bytes, a->size));
    base = a->ptr + srcOffset;
  }
  if (!bytes)
    return Status::ok();
  std::lock_guard<std::mutex> lock(d.stagingMu);
  FUEL_RT_RETURN_IF_ERROR(d.makeCurrent());
  auto *to = static_cast<uint8_t *>(dst);
  for (uint64_t done = 0; done < bytes; done += d.stagingBytes) {
    uint64_t n = std::min(d.stagingBytes, bytes - done);
    FUEL_RT_RETURN_IF_ERROR(d.note(
        check(*d.drv, d.drv->cuMemcpyDtoH(d.staging, base + done, size_t(n)),
              "cuMemcpyDtoH")));
    std::memcpy(to + done, d.staging, size_t(n));
    d.stagedBytes += n;
  }
  return Status::ok();
}

Status CudaDevice::copy(Buffer src, uint64_t srcOffset, Buffer dst,
                        uint64_t dstOffset, uint64_t bytes) {
  Impl &d = *impl_;
  CUdeviceptr from, to;
  {
    std::lock_guard<std::mutex> lock(d.mu);
    const auto *s = d.find(src);
    const auto *t = d.find(dst);
    if (!s)
      return unknownBuffer("copy: source", src);
    if (!t)
      return unknownBuffer("copy: destination", dst);
    FUEL_RT_RETURN_IF_ERROR(
        checkRange("copy: source", srcOffset, bytes, s->size));
    FUEL_RT_RETURN_IF_ERROR(
        checkRange("copy: destination", dstOffset, bytes, t->size));
    from = s->ptr + srcOffset;
    to = t->ptr + dstOffset;
  }
  FUEL_RT_RETURN_IF_ERROR(d.makeCurrent());
  return forEachCopyPiece(
      to, from, bytes, [&](uint64_t a, uint64_t b, uint64_t n) {
        return d.note(check(*d.drv, d.drv->cuMemcpyDtoD(a, b, size_t(n)),
                            "cuMemcpyDtoD"));
      });
}

namespace {

/// The device address of [offset, offset + bytes) of buffer `b` of `d`,
/// checked; `what` names the side.
StatusOr<CUdeviceptr> resolveRange(CudaDevice::Impl &d, const char *what,
                                   Buffer b, uint64_t offset, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(d.mu);
  const auto *a = d.find(b);
  if (!a)
    return unknownBuffer(what, b);
  FUEL_RT_RETURN_IF_ERROR(checkRange(what, offset, bytes, a->size));
  return a->ptr + offset;
}

/// Whether `dst` may copy from `src` GPU to GPU: the driver has the peer
/// functions, reports access, and peer access from dst's context to src's
/// is enabled (here, once per pair). Called with dst.peerMu held and dst's
/// context current.
StatusOr<bool> peerAccessible(CudaDevice::Impl &src, CudaDevice::Impl &dst) {
  const Driver &drv = *dst.drv;
  if (src.drv != dst.drv || !drv.cuDeviceCanAccessPeer)
    return false;
  auto it = dst.peerAccess.find(src.device);
  if (it != dst.peerAccess.end())
    return it->second;
  int can = 0;
  FUEL_RT_RETURN_IF_ERROR(
      check(drv, drv.cuDeviceCanAccessPeer(&can, dst.device, src.device),
            "cuDeviceCanAccessPeer"));
  if (can) {
    CUresult r = drv.cuCtxEnablePeerAccess(src.context, 0);
    if (r != kSuccess && r != kErrorPeerAccessAlreadyEnabled)
      return check(drv, r, "cuCtxEnablePeerAccess");
  }
  dst.peerAccess[src.device] = can != 0;
  return can != 0;
}

} // namespace

StatusOr<CudaCopyPath>
copyBetweenCudaDevices(CudaDevice &srcDevice, Buffer srcBuffer,
                       uint64_t srcOffset, CudaDevice &dstDevice,
                       Buffer dstBuffer, uint64_t dstOffset, uint64_t bytes,
                       bool allowPeer) {
  CudaDevice::Impl &src = *srcDevice.impl_;
  CudaDevice::Impl &dst = *dstDevice.impl_;
  std::string context =
      "copy " + src.info.id.str() + " -> " + dst.info.id.str();
  if (&src == &dst) {
    FUEL_RT_RETURN_IF_ERROR(
        srcDevice.copy(srcBuffer, srcOffset, dstBuffer, dstOffset, bytes)
            .withContext(context));
    return CudaCopyPath::SameDevice;
  }
  if (src.lost || dst.lost)
    return Status::error(
        StatusCode::Unavailable,
        context + ": " + (src.lost ? src.info.id.str() : dst.info.id.str()) +
            " was lost");
  StatusOr<CUdeviceptr> from =
      resolveRange(src, "source", srcBuffer, srcOffset, bytes);
  if (!from)
    return from.status().withContext(context);
  StatusOr<CUdeviceptr> to =
      resolveRange(dst, "destination", dstBuffer, dstOffset, bytes);
  if (!to)
    return to.status().withContext(context);
  if (allowPeer) {
    std::lock_guard<std::mutex> lock(dst.peerMu);
    FUEL_RT_RETURN_IF_ERROR(dst.makeCurrent().withContext(context));
    StatusOr<bool> peer = peerAccessible(src, dst);
    if (!peer)
      return dst.note(peer.status()).withContext(context);
    if (*peer && bytes) {
      const Driver &drv = *dst.drv;
      if (!dst.peerStream)
        FUEL_RT_RETURN_IF_ERROR(
            check(drv, drv.cuStreamCreate(&dst.peerStream, kStreamNonBlocking),
                  "cuStreamCreate")
                .withContext(context));
      Status s =
          check(drv,
                drv.cuMemcpyPeerAsync(*to, dst.context, *from, src.context,
                                      size_t(bytes), dst.peerStream),
                "cuMemcpyPeerAsync");
      if (s.isOk())
        s = check(drv, drv.cuStreamSynchronize(dst.peerStream),
                  "cuStreamSynchronize");
      FUEL_RT_RETURN_IF_ERROR(dst.note(std::move(s)).withContext(context));
      dst.peerCopyBytes += bytes;
    }
    if (*peer)
      return CudaCopyPath::Peer;
  }

  // Staged: device to the source's pinned buffer, that to the destination,
  // piece by piece (the buffer is portable: every context may use it).
  std::lock_guard<std::mutex> lock(src.stagingMu);
  for (uint64_t done = 0; done < bytes; done += src.stagingBytes) {
    uint64_t n = std::min(src.stagingBytes, bytes - done);
    FUEL_RT_RETURN_IF_ERROR(src.makeCurrent().withContext(context));
    FUEL_RT_RETURN_IF_ERROR(
        src.note(check(*src.drv,
                       src.drv->cuMemcpyDtoH(src.staging, *from + done,
                                             size_t(n)),
                       "cuMemcpyDtoH"))
            .withContext(context));
    FUEL_RT_RETURN_IF_ERROR(dst.makeCurrent().withContext(context));
    FUEL_RT_RETURN_IF_ERROR(
        dst.note(
               check(*dst.drv,
                     dst.drv->cuMemcpyHtoD(*to + done, src.staging, size_t(n)),
                     "cuMemcpyHtoD"))
            .withContext(context));
    dst.stagedCopyBytes += n;
  }
  return CudaCopyPath::Staged;
}

namespace {

/// The byte size of each parameter of PTX entry `name` (8 for .u64, .b64,
/// .s64, .f64 and pointers; 4 for 32-bit types; else the .align or 8).
std::vector<uint8_t> entryParams(const std::string &ptx,
                                 const std::string &name) {
  std::vector<uint8_t> out;
  for (size_t at = ptx.find(".entry"); at != std::string::npos;
       at = ptx.find(".entry", at + 1)) {
    size_t p = at + 6;
    while (p < ptx.size() && std::isspace((unsigned char)ptx[p]))
      ++p;
    if (ptx.compare(p, name.size(), name) != 0)
      continue;
    size_t e = p + name.size();
    if (e >= ptx.size() ||
        !(ptx[e] == '(' || std::isspace((unsigned char)ptx[e])))
      continue;
    size_t open = ptx.find('(', e);
    size_t brace = ptx.find('{', e);
    if (open == std::string::npos ||
        (brace != std::string::npos && brace < open))
      return out; // no parameters
    size_t close = ptx.find(')', open);
    std::string list = ptx.substr(open + 1, close - open - 1);
    for (size_t q = list.find(".param"); q != std::string::npos;
         q = list.find(".param", q + 1)) {
      size_t next = list.find(".param", q + 1);
      std::string one = list.substr(
          q, next == std::string::npos ? std::string::npos : next - q);
      uint8_t bytes = 8;
      for (const char *t : {".u32", ".s32", ".b32", ".f32"})
        if (one.find(t) != std::string::npos)
          bytes = 4;
      out.push_back(bytes);
    }
    return out;
  }
  return out;
}

} // namespace

StatusOr<ModuleHandle> CudaDevice::loadModule(const ModuleImage &image) {
  Impl &d = *impl_;
  if (d.lost)
    return Status::error(StatusCode::Unavailable,
                         "loadModule: the CUDA device was lost");
  FUEL_RT_RETURN_IF_ERROR(
      checkPtxImage(image.data, image.size, image.kernelNames));
  if (image.layouts.size() != image.kernelNames.size())
    return Status::error(StatusCode::InvalidArgument,
                         "loadModule: " + std::to_string(image.layouts.size()) +
                             " layouts for " +
                             std::to_string(image.kernelNames.size()) +
                             " kernels");
  for (size_t k = 0; k < image.layouts.size(); ++k) {
    const uint32_t *b = image.layouts[k].workgroupSize;
    uint64_t threads = uint64_t(b[0]) * b[1] * b[2];
    bool bad = threads == 0 || (d.maxThreadsPerBlock > 0 &&
                                threads > uint64_t(d.maxThreadsPerBlock));
    for (int i = 0; i < 3 && !bad; ++i)
      bad = d.maxBlock[i] > 0 && b[i] > uint32_t(d.maxBlock[i]);
    if (bad)
      return Status::error(
          StatusCode::InvalidArgument,
          "loadModule: kernel " + image.kernelNames[k] + ": block " +
              std::to_string(b[0]) + "x" + std::to_string(b[1]) + "x" +
              std::to_string(b[2]) + " is outside the device's limits (" +
              std::to_string(d.maxThreadsPerBlock) + " threads, " +
              std::to_string(d.maxBlock[0]) + "x" +
              std::to_string(d.maxBlock[1]) + "x" +
              std::to_string(d.maxBlock[2]) + ")");
  }
  // The driver takes NUL-terminated text.
  std::string ptx(static_cast<const char *>(image.data), image.size);
  if (!ptx.empty() && ptx.back() == '\0')
    ptx.pop_back();
  std::string text = ptx;
  text.push_back('\0');
  char errorLog[8192] = {}, infoLog[8192] = {};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes,
                   kJitInfoLogBuffer, kJitInfoLogBufferSizeBytes};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog) - 1),
                    infoLog, reinterpret_cast<void *>(sizeof(infoLog) - 1)};
  FUEL_RT_RETURN_IF_ERROR(d.makeCurrent());
  CUmodule module = nullptr;
  CUresult r =
      d.drv->cuModuleLoadDataEx(&module, text.data(), 4, options, values);
  if (r != kSuccess) {
    std::string msg =
        "loadModule: cuModuleLoadDataEx failed with " + errorText(d.drv, r);
    if (errorLog[0])
      msg += "; JIT error log:\n" + std::string(errorLog);
    if (infoLog[0])
      msg += "\nJIT info log:\n" + std::string(infoLog);
    return d.note(Status::error(statusCodeOf(r), msg));
  }
  Impl::ModuleRec rec;
  rec.module = module;
  ModuleHandle h;
  h.id = newId();
  std::vector<std::pair<uint64_t, Impl::KernelRec>> kernels;
  for (size_t k = 0; k < image.kernelNames.size(); ++k) {
    Impl::KernelRec kr;
    kr.module = h.id;
    CUresult g = d.drv->cuModuleGetFunction(&kr.function, module,
                                            image.kernelNames[k].c_str());
    if (g != kSuccess) {
      d.drv->cuModuleUnload(module);
      return check(*d.drv, g, "cuModuleGetFunction")
          .withContext("loadModule: kernel " + image.kernelNames[k]);
    }
    for (int i = 0; i < 3; ++i)
      kr.block[i] = image.layouts[k].workgroupSize[i];
    kr.params = entryParams(ptx, image.kernelNames[k]);
    uint64_t id = newId();
    kernels.emplace_back(id, std::move(kr));
    h.kernels.push_back(Kernel{id});
    rec.kernels.push_back(id);
  }
  std::lock_guard<std::mutex> lock(d.mu);
  for (auto &[id, kr] : kernels)
    d.kernels.emplace(id, std::move(kr));
  d.modules.emplace(h.id, std::move(rec));
  return h;
}

StatusOr<ModuleHandle>
CudaDevice::loadLibrary(const std::string &library,
                        const std::vector<std::string> &entries) {
  Impl &d = *impl_;
  if (library != "cublas")
    return Status::error(StatusCode::InvalidArgument,
                         "loadLibrary: the CUDA device has no library '" +
                             library + "' (expected cublas)");
  for (const std::string &e : entries)
    if (e != kCublasSgemmEntry && e != kCublasSgemmBatchedEntry &&
        e != "fuel_shim_cublas_sgemm_batched")
      return Status::error(StatusCode::InvalidArgument,
                           "loadLibrary: cublas has no entry '" + e +
                               "' (expected " + kCublasSgemmEntry + " or " +
                               kCublasSgemmBatchedEntry + ")");
  {
    std::lock_guard<std::mutex> lock(d.mu);
    if (!d.cublas) {
      std::string path = d.options.cublasSearchPath.empty()
                             ? defaultCublasSearchPath()
                             : d.options.cublasSearchPath;
      StatusOr<const Cublas *> c = loadCublas(path);
      if (!c)
        return c.status();
      d.cublas = *c;
    }
  }
  ModuleHandle h;
  h.id = newId();
  Impl::ModuleRec rec;
  std::lock_guard<std::mutex> lock(d.mu);
  for (const std::string &e : entries) {
    Impl::KernelRec kr;
    kr.module = h.id;
    kr.libraryEntry = e;
    uint64_t id = newId();
    d.kernels.emplace(id, std::move(kr));
    h.kernels.push_back(Kernel{id});
    rec.kernels.push_back(id);
  }
  d.modules.emplace(h.id, std::move(rec));
  return h;
}

Status CudaDevice::unloadModule(const ModuleHandle &module) {
  Impl &d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.modules.find(module.id);
  if (it == d.modules.end())
    return Status::error(StatusCode::InvalidArgument,
                         "unloadModule: module " + std::to_string(module.id) +
                             " is not loaded on this device");
  for (uint64_t k : it->second.kernels)
    d.kernels.erase(k);
  Status s = Status::ok();
  if (it->second.module) {
    FUEL_RT_RETURN_IF_ERROR(d.makeCurrent());
    s = check(*d.drv, d.drv->cuModuleUnload(it->second.module),
              "cuModuleUnload");
  }
  d.modules.erase(it);
  return s;
}

Status CudaDevice::reserveWorkspace(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->workspaceBytes = std::max(impl_->workspaceBytes, bytes);
  return Status::ok();
}

StatusOr<std::unique_ptr<Queue>> CudaDevice::createQueue() {
  if (impl_->lost)
    return Status::error(StatusCode::Unavailable,
                         "createQueue: the CUDA device was lost");
  auto q = std::make_unique<CudaQueue>(impl_);
  FUEL_RT_RETURN_IF_ERROR(q->init());
  return std::unique_ptr<Queue>(std::move(q));
}

StatusOr<std::unique_ptr<Device>>
openCudaDevice(uint32_t ordinal, const CudaDeviceOptions &options) {
  auto impl = std::make_shared<CudaDevice::Impl>();
  if (Status s = impl->init(ordinal, options); !s.isOk())
    return Status::error(s.code(), "cuda:" + std::to_string(ordinal) + ": " +
                                       s.message());
  return std::unique_ptr<Device>(new CudaDevice(std::move(impl)));
}

} // namespace fuel::rt
