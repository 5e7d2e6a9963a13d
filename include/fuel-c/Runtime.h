//===- Runtime.h - The C API of libfuelrt ----------------------- -*- C -*-===//
//
// Runs fuel executables from C (C11): a runtime opens the devices, an
// executable is loaded and verified from a file or bytes, a session binds
// inputs, runs (synchronously, or asynchronously with a wait), reads outputs
// and per-command timings. Exported from libfuelrt.so; docs/RUNTIME-SESSIONS.md
// describes the semantics, which are those of fuel/Runtime/Runtime.h.
//
// Handles are opaque. Every call returns a fuelStatus: NULL means success,
// anything else is an error carrying a code and a message, which the caller
// frees with fuelStatusFree. A NULL handle, a wrong input count, shape or
// dtype, running before every input is bound: each returns an error status.
// No C++ exception crosses this API. Handles may be destroyed in any order
// (a session keeps its executable, an executable its runtime, alive).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_C_RUNTIME_H
#define FUEL_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define FUEL_C_API __attribute__((visibility("default")))
#else
#define FUEL_C_API
#endif

/* The version of this API. The major version changes when a declaration
 * here changes incompatibly; the minor one when declarations are added
 * (docs/EMBEDDING.md, "What is stable"). */
#define FUEL_RUNTIME_C_API_VERSION_MAJOR 1
#define FUEL_RUNTIME_C_API_VERSION_MINOR 1
#define FUEL_RUNTIME_C_API_VERSION                                             \
  (FUEL_RUNTIME_C_API_VERSION_MAJOR * 1000 + FUEL_RUNTIME_C_API_VERSION_MINOR)

/* FUEL_RUNTIME_C_API_VERSION of the loaded libfuelrt, to check against the
 * header a caller was built with. */
FUEL_C_API uint32_t fuelRuntimeCApiVersion(void);

/* Handles. */
typedef struct fuelStatus_ *fuelStatus;
typedef struct fuelRuntime_ *fuelRuntime;
typedef struct fuelExecutable_ *fuelExecutable;
typedef struct fuelSession_ *fuelSession;

/* Status codes, as fuel::rt::StatusCode. */
typedef enum fuelStatusCode {
  fuelStatusOk = 0,
  fuelStatusInvalidArgument = 1,
  fuelStatusOutOfRange = 2,
  fuelStatusDataLoss = 3,
  fuelStatusFailedPrecondition = 4,
  fuelStatusUnavailable = 5,
  fuelStatusResourceExhausted = 6,
  fuelStatusInternal = 7,
  fuelStatusUnimplemented = 8,
  /* Not a code: widens the enumeration to every int, so that C++ may hold a
   * value a C caller passed outside the codes above (it is refused). */
  fuelStatusCodeMaxEnum = 0x7FFFFFFF
} fuelStatusCode;

/* Element types, numbered as the executable format numbers them. */
typedef enum fuelDType {
  fuelDTypeF32 = 0,
  fuelDTypeF16 = 1,
  fuelDTypeBF16 = 2,
  fuelDTypeF64 = 3,
  fuelDTypeI8 = 4,
  fuelDTypeI16 = 5,
  fuelDTypeI32 = 6,
  fuelDTypeI64 = 7,
  fuelDTypeU8 = 8,
  fuelDTypeBool = 9,
  /* Not a type: widens the enumeration to every int (see
   * fuelStatusCodeMaxEnum). */
  fuelDTypeMaxEnum = 0x7FFFFFFF
} fuelDType;

/* Nonzero when `status` is success (NULL). */
FUEL_C_API int fuelStatusIsOk(fuelStatus status);
/* The code; fuelStatusOk for NULL. */
FUEL_C_API fuelStatusCode fuelStatusGetCode(fuelStatus status);
/* The message ("" for NULL), valid until fuelStatusFree. */
FUEL_C_API const char *fuelStatusMessage(fuelStatus status);
/* Releases a status; NULL is allowed. */
FUEL_C_API void fuelStatusFree(fuelStatus status);
/* A status with `code` and a copy of `message` (NULL: ""), for libraries
 * and frontends layered on this API that report errors the same way
 * (libFuelCAPI.so does). fuelStatusOk gives NULL (success); a code outside
 * fuelStatusCode gives fuelStatusInternal. Free it with fuelStatusFree. */
FUEL_C_API fuelStatus fuelStatusCreate(fuelStatusCode code,
                                       const char *message);

/* How to create a runtime; zero-initialize for the defaults. */
typedef struct fuelRuntimeOptions {
  /* Threads of the CPU device; 0: every core. */
  uint32_t threads;
  /* The CPU device's memory limit in bytes; 0: the physical memory. */
  uint64_t cpuMemoryLimit;
  /* Where library-kernel shims are found; NULL: beside libfuelrt. */
  const char *shimDirectory;
} fuelRuntimeOptions;

/* Opens the CPU device; other devices open when an executable first
 * needs them. `options` may be NULL. */
FUEL_C_API fuelStatus fuelRuntimeCreate(const fuelRuntimeOptions *options,
                                        fuelRuntime *outRuntime);
/* How the runtime opens Vulkan devices (when an executable first needs
 * one); zero-initialize for the defaults. Since version 1.1. */
typedef struct fuelVulkanOptions {
  /* Nonzero: compile pipelines afresh and cache nothing on disk. */
  uint32_t disablePipelineCache;
  /* Where pipeline caches live; NULL: $FUEL_CACHE_DIR, else
   * $XDG_CACHE_HOME/fuel, else $HOME/.cache/fuel. */
  const char *cacheDir;
  /* Each Vulkan device's memory limit in bytes; 0: its device-local heaps. */
  uint64_t memoryLimit;
} fuelVulkanOptions;

/* As fuelRuntimeCreate, with Vulkan options; either may be NULL. Since
 * version 1.1. */
FUEL_C_API fuelStatus fuelRuntimeCreateWithVulkanOptions(
    const fuelRuntimeOptions *options, const fuelVulkanOptions *vulkan,
    fuelRuntime *outRuntime);
FUEL_C_API void fuelRuntimeDestroy(fuelRuntime runtime);
/* Threads that run one CPU dispatch. */
FUEL_C_API fuelStatus fuelRuntimeThreadCount(fuelRuntime runtime,
                                             uint32_t *outThreads);

/* Loads, verifies and prepares an executable (modules loaded, constants
 * uploaded). The file is mapped; bytes are copied. */
FUEL_C_API fuelStatus fuelExecutableLoadFile(fuelRuntime runtime,
                                             const char *path,
                                             fuelExecutable *outExecutable);
FUEL_C_API fuelStatus fuelExecutableLoadBytes(fuelRuntime runtime,
                                              const void *data, size_t size,
                                              fuelExecutable *outExecutable);
FUEL_C_API void fuelExecutableDestroy(fuelExecutable executable);

/* An input or output. Pointers stay valid while the executable lives. */
typedef struct fuelTensorInfo {
  const char *name;
  fuelDType dtype;
  size_t rank;
  const int64_t *shape;
  /* Elements x element size. */
  size_t byteSize;
} fuelTensorInfo;

FUEL_C_API fuelStatus fuelExecutableFunctionName(fuelExecutable executable,
                                                 const char **outName);
FUEL_C_API fuelStatus fuelExecutableInputCount(fuelExecutable executable,
                                               size_t *outCount);
FUEL_C_API fuelStatus fuelExecutableOutputCount(fuelExecutable executable,
                                                size_t *outCount);
FUEL_C_API fuelStatus fuelExecutableInputInfo(fuelExecutable executable,
                                              size_t index,
                                              fuelTensorInfo *outInfo);
FUEL_C_API fuelStatus fuelExecutableOutputInfo(fuelExecutable executable,
                                               size_t index,
                                               fuelTensorInfo *outInfo);

/* A session: device arenas allocated once, reused by every run. */
FUEL_C_API fuelStatus fuelSessionCreate(fuelExecutable executable,
                                        fuelSession *outSession);

/* How to create a session; zero-initialize for the defaults. */
typedef struct fuelSessionOptions {
  /* Queues per device that independent commands overlap on, at most 16;
   * 1: each device runs its commands in list order; 0: the default (2). */
  uint32_t lanes;
} fuelSessionOptions;

/* As fuelSessionCreate; `options` may be NULL. */
FUEL_C_API fuelStatus fuelSessionCreateWithOptions(
    fuelExecutable executable, const fuelSessionOptions *options,
    fuelSession *outSession);
/* Waits for a run in flight, then releases the session. */
FUEL_C_API void fuelSessionDestroy(fuelSession session);

/* Binds input `index`: `dtype` and the `rank` dimensions at `shape` must be
 * the input's, `bytes` its byte size. Aligned host memory binds zero-copy
 * and must then stay valid and unchanged until the runs using it finish;
 * otherwise it is copied now. The runtime never writes into `data`. */
FUEL_C_API fuelStatus fuelSessionBindInput(fuelSession session, size_t index,
                                           fuelDType dtype,
                                           const int64_t *shape, size_t rank,
                                           const void *data, size_t bytes);
/* Runs every command and waits. */
FUEL_C_API fuelStatus fuelSessionRun(fuelSession session);
/* Submits every command and returns; fuelSessionWait finishes the run. */
FUEL_C_API fuelStatus fuelSessionRunAsync(fuelSession session);
FUEL_C_API fuelStatus fuelSessionWait(fuelSession session);
/* Copies output `index` of the last finished run; `bytes` must be its
 * byte size. */
FUEL_C_API fuelStatus fuelSessionReadOutput(fuelSession session, size_t index,
                                            void *data, size_t bytes);
/* Commands of the executable (the length of the timings). */
FUEL_C_API fuelStatus fuelSessionCommandCount(fuelSession session,
                                              size_t *outCount);
/* Writes the duration in nanoseconds of each of the first `count` commands
 * of the last finished run; `count` may not exceed the command count. */
FUEL_C_API fuelStatus fuelSessionCommandTimings(fuelSession session,
                                                uint64_t *outNs, size_t count);
/* Writes the lane (queue of its device) of each of the first `count`
 * commands, fixed when the session was created. */
FUEL_C_API fuelStatus fuelSessionCommandLanes(fuelSession session,
                                              uint32_t *outLanes, size_t count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FUEL_C_RUNTIME_H */
