//===- FakeCudaDriver.c - A test double of libcuda.so.1 -------------------===//
//
// A TEST DOUBLE, not a driver: a libcuda.so.1 built in the test tree that
// implements the driver API entry points the CUDA device uses on host
// memory (device addresses are host addresses), runs every stream operation
// at once, timestamps events with CLOCK_MONOTONIC, accepts PTX text with
// .version/.target and finds `.entry` names in it, and refuses every kernel
// launch with CUDA_ERROR_NOT_SUPPORTED. It lets the device's memory,
// staging, copy ordering, fences and error paths be tested where no GPU
// exists. A PTX image containing "fake-jit-error" fails to load with a JIT
// error log. FUEL_FAKE_CUDA_DEVICES (default 1) and FUEL_FAKE_CUDA_MEMORY
// (bytes, default 1 GiB) set what it reports. Each device has its own
// primary context; peer access (cuDeviceCanAccessPeer) is reported between
// every two devices unless FUEL_FAKE_CUDA_PEER is "0", and cuMemcpyPeerAsync
// refuses a copy unless peer access was enabled from one context to the
// other (the real driver would stage it; the double checks that fuel asked).
//
//===----------------------------------------------------------------------===//

#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum {
  OK = 0,
  INVALID_VALUE = 1,
  OUT_OF_MEMORY = 2,
  NOT_INITIALIZED = 3,
  INVALID_DEVICE = 101,
  INVALID_PTX = 218,
  PEER_ACCESS_UNSUPPORTED = 217,
  NOT_FOUND = 500,
  PEER_ACCESS_ALREADY_ENABLED = 704,
  PEER_ACCESS_NOT_ENABLED = 705,
  NOT_SUPPORTED = 801
};

/* The most devices the double reports. */
#define MAX_DEVICES 8

static int initialized;

static int deviceCount(void) {
  const char *v = getenv("FUEL_FAKE_CUDA_DEVICES");
  int n = v ? atoi(v) : 1;
  return n < 0 ? 0 : n > MAX_DEVICES ? MAX_DEVICES : n;
}

static unsigned long long memoryBytes(void) {
  const char *v = getenv("FUEL_FAKE_CUDA_MEMORY");
  return v ? strtoull(v, NULL, 10) : (1ull << 30);
}

static double nowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

EXPORT CUresult cuInit(unsigned flags) {
  if (flags != 0)
    return INVALID_VALUE;
  initialized = 1;
  return OK;
}

EXPORT CUresult cuGetErrorName(CUresult code, const char **name) {
  *name = code == NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" : "FAKE_ERROR";
  return OK;
}

EXPORT CUresult cuGetErrorString(CUresult code, const char **text) {
  (void)code;
  *text = "an error of the fake driver";
  return OK;
}

EXPORT CUresult cuDeviceGetCount(int *count) {
  if (!initialized)
    return NOT_INITIALIZED;
  *count = deviceCount();
  return OK;
}

EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= deviceCount())
    return INVALID_DEVICE;
  *device = ordinal;
  return OK;
}

EXPORT CUresult cuDriverGetVersion(int *version) {
  *version = 12040;
  return OK;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, int device) {
  snprintf(name, (size_t)len, "Fake CUDA Device %d (test double)", device);
  return OK;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  (void)device;
  *bytes = (size_t)memoryBytes();
  return OK;
}

EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  switch (attribute) {
  case 1: /* max threads per block */
    *value = 1024;
    return OK;
  case 2:
  case 3:
    *value = 1024;
    return OK;
  case 4:
    *value = 64;
    return OK;
  case 5:
    *value = 2147483647;
    return OK;
  case 6:
  case 7:
    *value = 65535;
    return OK;
  case 13: /* clock, kHz */
    *value = 1500000;
    return OK;
  case 16: /* SMs */
    *value = 10;
    return OK;
  case 36: /* memory clock, kHz */
    *value = 1000000;
    return OK;
  case 37: /* bus width, bits */
    *value = 256;
    return OK;
  case 75:
    *value = 8;
    return OK;
  case 76:
    *value = 6;
    return OK;
  default:
    *value = 0;
    return INVALID_VALUE;
  }
}

EXPORT CUresult cuDeviceGetPCIBusId(char *id, int len, int device) {
  snprintf(id, (size_t)len, "0000:f%d:00.0", device);
  return OK;
}

/* One primary context per device; the current one is per process (the
   tests' threads all use the device through the same calls). */
static int contextTokens[MAX_DEVICES];
static int currentDevice = -1;
/* peerEnabled[a][b]: context a may access device b's memory. */
static int peerEnabled[MAX_DEVICES][MAX_DEVICES];

static int contextDevice(const void *ctx) {
  for (int d = 0; d < MAX_DEVICES; ++d)
    if (ctx == &contextTokens[d])
      return d;
  return -1;
}

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  if (device < 0 || device >= deviceCount())
    return INVALID_DEVICE;
  *ctx = &contextTokens[device];
  return OK;
}
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  (void)device;
  return OK;
}
EXPORT CUresult cuCtxSetCurrent(void *ctx) {
  int d = contextDevice(ctx);
  if (d < 0)
    return INVALID_VALUE;
  currentDevice = d;
  return OK;
}

static int peerReported(void) {
  const char *v = getenv("FUEL_FAKE_CUDA_PEER");
  return !(v && strcmp(v, "0") == 0);
}

EXPORT CUresult cuDeviceCanAccessPeer(int *can, int device, int peer) {
  if (device < 0 || device >= deviceCount() || peer < 0 ||
      peer >= deviceCount())
    return INVALID_DEVICE;
  *can = device != peer && peerReported();
  return OK;
}

EXPORT CUresult cuCtxEnablePeerAccess(void *peerCtx, unsigned flags) {
  int peer = contextDevice(peerCtx);
  if (flags != 0 || peer < 0 || currentDevice < 0)
    return INVALID_VALUE;
  if (peer == currentDevice)
    return INVALID_DEVICE;
  if (!peerReported())
    return PEER_ACCESS_UNSUPPORTED;
  if (peerEnabled[currentDevice][peer])
    return PEER_ACCESS_ALREADY_ENABLED;
  peerEnabled[currentDevice][peer] = 1;
  return OK;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  if (bytes == 0)
    return INVALID_VALUE;
  if (bytes > memoryBytes())
    return OUT_OF_MEMORY;
  void *p = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p)
    return OUT_OF_MEMORY;
  /* Fresh device memory holds garbage, not zeros. */
  memset(p, 0xA5, bytes);
  *ptr = (CUdeviceptr)(uintptr_t)p;
  return OK;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr) {
  free((void *)(uintptr_t)ptr);
  return OK;
}

EXPORT CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned flags) {
  (void)flags;
  *ptr = malloc(bytes ? bytes : 1);
  return *ptr ? OK : OUT_OF_MEMORY;
}

EXPORT CUresult cuMemFreeHost(void *ptr) {
  free(ptr);
  return OK;
}

/* Copies must not overlap, as the driver's: the double checks it. */
static CUresult copyBytes(void *dst, const void *src, size_t n) {
  const char *d = (const char *)dst, *s = (const char *)src;
  if (n && d < s + n && s < d + n)
    return INVALID_VALUE;
  memcpy(dst, src, n);
  return OK;
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
  return copyBytes((void *)(uintptr_t)dst, src, n);
}
EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  return copyBytes(dst, (const void *)(uintptr_t)src, n);
}
EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  return copyBytes((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
}
EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dst, void *dstCtx,
                                  CUdeviceptr src, void *srcCtx, size_t n,
                                  void *stream) {
  (void)stream;
  int to = contextDevice(dstCtx), from = contextDevice(srcCtx);
  if (to < 0 || from < 0)
    return INVALID_VALUE;
  if (!peerEnabled[to][from] && !peerEnabled[from][to])
    return PEER_ACCESS_NOT_ENABLED;
  return copyBytes((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
}

EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n,
                                     void *stream) {
  (void)stream;
  return cuMemcpyDtoD_v2(dst, src, n);
}

struct FakeStream {
  int id;
};
EXPORT CUresult cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = calloc(1, sizeof(struct FakeStream));
  return OK;
}
EXPORT CUresult cuStreamDestroy_v2(void *stream) {
  free(stream);
  return OK;
}
EXPORT CUresult cuStreamSynchronize(void *stream) {
  (void)stream;
  return OK;
}
EXPORT CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  (void)stream;
  (void)flags;
  return event ? OK : INVALID_VALUE;
}

struct FakeEvent {
  double ms;
  int recorded;
};
EXPORT CUresult cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = calloc(1, sizeof(struct FakeEvent));
  return OK;
}
EXPORT CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return OK;
}
EXPORT CUresult cuEventRecord(void *event, void *stream) {
  (void)stream;
  struct FakeEvent *e = (struct FakeEvent *)event;
  e->ms = nowMs();
  e->recorded = 1;
  return OK;
}
EXPORT CUresult cuEventQuery(void *event) { return event ? OK : INVALID_VALUE; }
EXPORT CUresult cuEventSynchronize(void *event) {
  return event ? OK : INVALID_VALUE;
}
EXPORT CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  struct FakeEvent *a = (struct FakeEvent *)start, *b = (struct FakeEvent *)end;
  if (!a->recorded || !b->recorded)
    return INVALID_VALUE;
  *ms = (float)(b->ms - a->ms);
  return OK;
}

struct FakeModule {
  char *text;
};
EXPORT CUresult cuModuleLoadDataEx(void **module, const void *image,
                                   unsigned numOptions, int *options,
                                   void **values) {
  const char *text = (const char *)image;
  if (strstr(text, "fake-jit-error")) {
    for (unsigned i = 0; i < numOptions; ++i)
      if (options[i] == 5) /* CU_JIT_ERROR_LOG_BUFFER */
        snprintf((char *)values[i], 256,
                 "ptxas application ptx input, line 3; error   : fake JIT "
                 "error of the test double");
    return INVALID_PTX;
  }
  struct FakeModule *m = calloc(1, sizeof *m);
  m->text = strdup(text);
  *module = m;
  return OK;
}
EXPORT CUresult cuModuleUnload(void *module) {
  struct FakeModule *m = (struct FakeModule *)module;
  free(m->text);
  free(m);
  return OK;
}
EXPORT CUresult cuModuleGetFunction(void **function, void *module,
                                    const char *name) {
  struct FakeModule *m = (struct FakeModule *)module;
  char pattern[512];
  snprintf(pattern, sizeof pattern, ".entry %s(", name);
  const char *at = strstr(m->text, pattern);
  if (!at)
    return NOT_FOUND;
  *function = (void *)at;
  return OK;
}
EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                               unsigned bx, unsigned by, unsigned bz,
                               unsigned shared, void *stream, void **params,
                               void **extra) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
  (void)shared, (void)stream, (void)params, (void)extra;
  return NOT_SUPPORTED; /* the test double runs no kernel */
}
