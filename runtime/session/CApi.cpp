//===- CApi.cpp - The C API of libfuelrt ----------------------------------===//
//
// include/fuel-c/Runtime.h over fuel/Runtime/Runtime.h. Every entry point
// checks its handles and out-pointers, converts Status to fuelStatus, and
// catches whatever the C++ underneath might throw (std::bad_alloc), so that
// no exception crosses into C.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Runtime.h"
#include "fuel/Runtime/Runtime.h"

#include <exception>
#include <new>
#include <string>

using namespace fuel::rt;

struct fuelStatus_ {
  fuelStatusCode code;
  std::string message;
};

struct fuelRuntime_ {
  std::unique_ptr<Runtime> runtime;
};

struct fuelExecutable_ {
  std::shared_ptr<LoadedExecutable> exe;
};

struct fuelSession_ {
  std::unique_ptr<Session> session;
};

namespace {

/// What makeStatus returns when it cannot allocate; never freed.
fuelStatus_ outOfMemoryStatus{fuelStatusResourceExhausted,
                              "out of memory creating a status"};

fuelStatus makeStatus(fuelStatusCode code, std::string message) {
  // An allocation failure here leaves no way to report the message; a
  // static status says so (fuelStatusFree leaves it alone).
  try {
    return new fuelStatus_{code, std::move(message)};
  } catch (...) {
    return &outOfMemoryStatus;
  }
}

fuelStatus toC(const Status &s) {
  if (s.isOk())
    return nullptr;
  return makeStatus(static_cast<fuelStatusCode>(s.code()), s.message());
}

fuelStatus nullArgument(const char *function, const char *argument) {
  return makeStatus(fuelStatusInvalidArgument,
                    std::string(function) + ": " + argument + " is null");
}

/// Runs `body` (returning fuelStatus), turning exceptions into statuses.
template <class F> fuelStatus guarded(const char *function, F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return makeStatus(fuelStatusResourceExhausted,
                      std::string(function) + ": out of memory");
  } catch (const std::exception &e) {
    return makeStatus(fuelStatusInternal,
                      std::string(function) + ": " + e.what());
  } catch (...) {
    return makeStatus(fuelStatusInternal,
                      std::string(function) + ": unknown exception");
  }
}

bool validDType(fuelDType dtype) {
  return static_cast<unsigned>(dtype) <=
         static_cast<unsigned>(ElementType::Bool);
}

fuelStatus tensorInfo(const std::vector<TensorSpec> &list, size_t index,
                      const char *function, const char *what,
                      fuelTensorInfo *out) {
  if (index >= list.size())
    return makeStatus(
        fuelStatusInvalidArgument,
        std::string(function) + ": " + what + " " + std::to_string(index) +
            " does not exist; there are " + std::to_string(list.size()));
  const TensorSpec &t = list[index];
  out->name = t.name.c_str();
  out->dtype = static_cast<fuelDType>(t.dtype);
  out->rank = t.shape.size();
  out->shape = t.shape.data();
  out->byteSize = static_cast<size_t>(tensorByteSize(t));
  return nullptr;
}

} // namespace

extern "C" {

int fuelStatusIsOk(fuelStatus status) { return status == nullptr; }

fuelStatusCode fuelStatusGetCode(fuelStatus status) {
  return status ? status->code : fuelStatusOk;
}

const char *fuelStatusMessage(fuelStatus status) {
  return status ? status->message.c_str() : "";
}

void fuelStatusFree(fuelStatus status) {
  if (status && status != &outOfMemoryStatus)
    delete status;
}

fuelStatus fuelStatusCreate(fuelStatusCode code, const char *message) {
  if (code == fuelStatusOk)
    return nullptr;
  try {
    std::string text = message ? message : "";
    if (static_cast<unsigned>(code) >
        static_cast<unsigned>(fuelStatusUnimplemented)) {
      text = "status code " + std::to_string(static_cast<int>(code)) +
             " is not a fuelStatusCode: " + text;
      code = fuelStatusInternal;
    }
    return makeStatus(code, std::move(text));
  } catch (...) {
    return &outOfMemoryStatus;
  }
}

fuelStatus fuelRuntimeCreate(const fuelRuntimeOptions *options,
                             fuelRuntime *outRuntime) {
  return fuelRuntimeCreateWithVulkanOptions(options, nullptr, outRuntime);
}

fuelStatus fuelRuntimeCreateWithVulkanOptions(const fuelRuntimeOptions *options,
                                              const fuelVulkanOptions *vulkan,
                                              fuelRuntime *outRuntime) {
  return guarded("fuelRuntimeCreate", [&]() -> fuelStatus {
    if (!outRuntime)
      return nullArgument("fuelRuntimeCreate", "outRuntime");
    *outRuntime = nullptr;
    RuntimeOptions o;
    if (options) {
      o.threads = options->threads;
      o.cpuMemoryLimit = options->cpuMemoryLimit;
      if (options->shimDirectory)
        o.shimDirectory = options->shimDirectory;
    }
    if (vulkan) {
      o.pipelineCache = vulkan->disablePipelineCache == 0;
      if (vulkan->cacheDir)
        o.cacheDir = vulkan->cacheDir;
      o.vulkanMemoryLimit = vulkan->memoryLimit;
    }
    StatusOr<std::unique_ptr<Runtime>> rt = Runtime::create(o);
    if (!rt)
      return toC(rt.status());
    *outRuntime = new fuelRuntime_{std::move(*rt)};
    return nullptr;
  });
}

void fuelRuntimeDestroy(fuelRuntime runtime) { delete runtime; }

fuelStatus fuelRuntimeThreadCount(fuelRuntime runtime, uint32_t *outThreads) {
  if (!runtime)
    return nullArgument("fuelRuntimeThreadCount", "runtime");
  if (!outThreads)
    return nullArgument("fuelRuntimeThreadCount", "outThreads");
  *outThreads = runtime->runtime->threadCount();
  return nullptr;
}

static fuelStatus finishLoad(StatusOr<std::shared_ptr<LoadedExecutable>> exe,
                             fuelExecutable *outExecutable) {
  if (!exe)
    return toC(exe.status());
  *outExecutable = new fuelExecutable_{std::move(*exe)};
  return nullptr;
}

fuelStatus fuelExecutableLoadFile(fuelRuntime runtime, const char *path,
                                  fuelExecutable *outExecutable) {
  return guarded("fuelExecutableLoadFile", [&]() -> fuelStatus {
    if (!outExecutable)
      return nullArgument("fuelExecutableLoadFile", "outExecutable");
    *outExecutable = nullptr;
    if (!runtime)
      return nullArgument("fuelExecutableLoadFile", "runtime");
    if (!path)
      return nullArgument("fuelExecutableLoadFile", "path");
    return finishLoad(runtime->runtime->loadExecutableFile(path),
                      outExecutable);
  });
}

fuelStatus fuelExecutableLoadBytes(fuelRuntime runtime, const void *data,
                                   size_t size, fuelExecutable *outExecutable) {
  return guarded("fuelExecutableLoadBytes", [&]() -> fuelStatus {
    if (!outExecutable)
      return nullArgument("fuelExecutableLoadBytes", "outExecutable");
    *outExecutable = nullptr;
    if (!runtime)
      return nullArgument("fuelExecutableLoadBytes", "runtime");
    if (!data)
      return nullArgument("fuelExecutableLoadBytes", "data");
    return finishLoad(runtime->runtime->loadExecutableBytes(data, size),
                      outExecutable);
  });
}

void fuelExecutableDestroy(fuelExecutable executable) { delete executable; }

fuelStatus fuelExecutableFunctionName(fuelExecutable executable,
                                      const char **outName) {
  if (!executable)
    return nullArgument("fuelExecutableFunctionName", "executable");
  if (!outName)
    return nullArgument("fuelExecutableFunctionName", "outName");
  *outName = executable->exe->program().function.c_str();
  return nullptr;
}

fuelStatus fuelExecutableInputCount(fuelExecutable executable,
                                    size_t *outCount) {
  if (!executable)
    return nullArgument("fuelExecutableInputCount", "executable");
  if (!outCount)
    return nullArgument("fuelExecutableInputCount", "outCount");
  *outCount = executable->exe->program().inputs.size();
  return nullptr;
}

fuelStatus fuelExecutableOutputCount(fuelExecutable executable,
                                     size_t *outCount) {
  if (!executable)
    return nullArgument("fuelExecutableOutputCount", "executable");
  if (!outCount)
    return nullArgument("fuelExecutableOutputCount", "outCount");
  *outCount = executable->exe->program().outputs.size();
  return nullptr;
}

fuelStatus fuelExecutableInputInfo(fuelExecutable executable, size_t index,
                                   fuelTensorInfo *outInfo) {
  if (!executable)
    return nullArgument("fuelExecutableInputInfo", "executable");
  if (!outInfo)
    return nullArgument("fuelExecutableInputInfo", "outInfo");
  return tensorInfo(executable->exe->program().inputs, index,
                    "fuelExecutableInputInfo", "input", outInfo);
}

fuelStatus fuelExecutableOutputInfo(fuelExecutable executable, size_t index,
                                    fuelTensorInfo *outInfo) {
  if (!executable)
    return nullArgument("fuelExecutableOutputInfo", "executable");
  if (!outInfo)
    return nullArgument("fuelExecutableOutputInfo", "outInfo");
  return tensorInfo(executable->exe->program().outputs, index,
                    "fuelExecutableOutputInfo", "output", outInfo);
}

fuelStatus fuelSessionCreate(fuelExecutable executable,
                             fuelSession *outSession) {
  return fuelSessionCreateWithOptions(executable, nullptr, outSession);
}

fuelStatus fuelSessionCreateWithOptions(fuelExecutable executable,
                                        const fuelSessionOptions *options,
                                        fuelSession *outSession) {
  return guarded("fuelSessionCreate", [&]() -> fuelStatus {
    if (!outSession)
      return nullArgument("fuelSessionCreate", "outSession");
    *outSession = nullptr;
    if (!executable)
      return nullArgument("fuelSessionCreate", "executable");
    SessionOptions o;
    if (options)
      o.lanes = options->lanes;
    StatusOr<std::unique_ptr<Session>> s = Session::create(executable->exe, o);
    if (!s)
      return toC(s.status());
    *outSession = new fuelSession_{std::move(*s)};
    return nullptr;
  });
}

void fuelSessionDestroy(fuelSession session) { delete session; }

fuelStatus fuelSessionBindInput(fuelSession session, size_t index,
                                fuelDType dtype, const int64_t *shape,
                                size_t rank, const void *data, size_t bytes) {
  return guarded("fuelSessionBindInput", [&]() -> fuelStatus {
    if (!session)
      return nullArgument("fuelSessionBindInput", "session");
    if (!shape && rank)
      return nullArgument("fuelSessionBindInput", "shape");
    if (!data && bytes)
      return nullArgument("fuelSessionBindInput", "data");
    if (!validDType(dtype))
      return makeStatus(fuelStatusInvalidArgument,
                        "fuelSessionBindInput: dtype " +
                            std::to_string(static_cast<int>(dtype)) +
                            " is not a fuelDType");
    std::vector<int64_t> dims(shape, shape + rank);
    return toC(session->session->bindInput(
        index, static_cast<ElementType>(dtype), dims, data, bytes));
  });
}

fuelStatus fuelSessionRun(fuelSession session) {
  return guarded("fuelSessionRun", [&]() -> fuelStatus {
    if (!session)
      return nullArgument("fuelSessionRun", "session");
    return toC(session->session->run());
  });
}

fuelStatus fuelSessionRunAsync(fuelSession session) {
  return guarded("fuelSessionRunAsync", [&]() -> fuelStatus {
    if (!session)
      return nullArgument("fuelSessionRunAsync", "session");
    return toC(session->session->runAsync());
  });
}

fuelStatus fuelSessionWait(fuelSession session) {
  return guarded("fuelSessionWait", [&]() -> fuelStatus {
    if (!session)
      return nullArgument("fuelSessionWait", "session");
    return toC(session->session->wait());
  });
}

fuelStatus fuelSessionReadOutput(fuelSession session, size_t index, void *data,
                                 size_t bytes) {
  return guarded("fuelSessionReadOutput", [&]() -> fuelStatus {
    if (!session)
      return nullArgument("fuelSessionReadOutput", "session");
    return toC(session->session->readOutput(index, data, bytes));
  });
}

fuelStatus fuelSessionCommandCount(fuelSession session, size_t *outCount) {
  if (!session)
    return nullArgument("fuelSessionCommandCount", "session");
  if (!outCount)
    return nullArgument("fuelSessionCommandCount", "outCount");
  *outCount = session->session->program().commands.size();
  return nullptr;
}

fuelStatus fuelSessionCommandTimings(fuelSession session, uint64_t *outNs,
                                     size_t count) {
  if (!session)
    return nullArgument("fuelSessionCommandTimings", "session");
  if (!outNs && count)
    return nullArgument("fuelSessionCommandTimings", "outNs");
  const std::vector<CommandTime> &times = session->session->commandTimes();
  size_t total = session->session->program().commands.size();
  if (count > total)
    return makeStatus(fuelStatusInvalidArgument,
                      "fuelSessionCommandTimings: " + std::to_string(count) +
                          " timings asked, the executable has " +
                          std::to_string(total) + " commands");
  if (times.size() < count)
    return makeStatus(fuelStatusFailedPrecondition,
                      "fuelSessionCommandTimings: no run has finished yet");
  for (size_t i = 0; i < count; ++i)
    outNs[i] = times[i].durationNs();
  return nullptr;
}

fuelStatus fuelSessionCommandLanes(fuelSession session, uint32_t *outLanes,
                                   size_t count) {
  if (!session)
    return nullArgument("fuelSessionCommandLanes", "session");
  if (!outLanes && count)
    return nullArgument("fuelSessionCommandLanes", "outLanes");
  const std::vector<uint32_t> &lanes = session->session->commandLanes();
  if (count > lanes.size())
    return makeStatus(fuelStatusInvalidArgument,
                      "fuelSessionCommandLanes: " + std::to_string(count) +
                          " lanes asked, the executable has " +
                          std::to_string(lanes.size()) + " commands");
  for (size_t i = 0; i < count; ++i)
    outLanes[i] = lanes[i];
  return nullptr;
}

uint32_t fuelRuntimeCApiVersion(void) { return FUEL_RUNTIME_C_API_VERSION; }

} // extern "C"
