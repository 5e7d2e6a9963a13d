//===- main.c - A C11 program that runs a fuel executable -----------------===//
//
// A consumer of Fuel::Runtime alone: it includes only fuel-c/Runtime.h and
// links only libfuelrt.so, with neither MLIR nor LLVM on its include or link
// line. It loads the executable named on its command line, which must
// compute `c = a + b` elementwise over two f32 tensors of one shape (as
// vadd.mlir here does), runs it on inputs it makes itself, and checks the
// output against its own loop. Exits 0 when every element matches, and
// nonzero with the reason otherwise.
//
//   fuel-compile vadd.mlir -o vadd.fuelx && fuel-runtime-c vadd.fuelx
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// Prints `what` and the status's message, frees it, and returns 1 when
// `status` is an error; returns 0 on success.
static int failed(fuelStatus status, const char *what) {
  if (fuelStatusIsOk(status))
    return 0;
  fprintf(stderr, "fuel-runtime-c: %s: %s\n", what, fuelStatusMessage(status));
  fuelStatusFree(status);
  return 1;
}

// Nonzero when `info` is an f32 tensor of the shape `shape` of rank `rank`.
static int sameF32Shape(const fuelTensorInfo *info, const int64_t *shape,
                        size_t rank) {
  if (info->dtype != fuelDTypeF32 || info->rank != rank)
    return 0;
  for (size_t d = 0; d < rank; ++d)
    if (info->shape[d] != shape[d])
      return 0;
  return 1;
}

// Checks the executable's signature, runs it once and compares; returns the
// exit status.
static int run(fuelRuntime rt, fuelExecutable exe) {
  const char *function = NULL;
  size_t inputs = 0, outputs = 0;
  if (failed(fuelExecutableFunctionName(exe, &function), "function name") ||
      failed(fuelExecutableInputCount(exe, &inputs), "input count") ||
      failed(fuelExecutableOutputCount(exe, &outputs), "output count"))
    return 1;
  if (inputs != 2 || outputs != 1) {
    fprintf(stderr,
            "fuel-runtime-c: @%s has %zu inputs and %zu outputs; expected "
            "c = a + b (2 inputs, 1 output)\n",
            function, inputs, outputs);
    return 1;
  }
  fuelTensorInfo a, b, c;
  if (failed(fuelExecutableInputInfo(exe, 0, &a), "input 0") ||
      failed(fuelExecutableInputInfo(exe, 1, &b), "input 1") ||
      failed(fuelExecutableOutputInfo(exe, 0, &c), "output 0"))
    return 1;
  if (a.dtype != fuelDTypeF32 || !sameF32Shape(&b, a.shape, a.rank) ||
      !sameF32Shape(&c, a.shape, a.rank)) {
    fprintf(stderr,
            "fuel-runtime-c: @%s: inputs and output must be f32 tensors of "
            "one shape\n",
            function);
    return 1;
  }
  size_t n = a.byteSize / sizeof(float);

  // Inputs with exact f32 sums (quarters and halves of small integers), so
  // the comparison can be exact.
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *out = malloc(n * sizeof(float));
  if (!x || !y || !out) {
    fprintf(stderr, "fuel-runtime-c: out of memory for %zu elements\n", n);
    free(x), free(y), free(out);
    return 1;
  }
  for (size_t i = 0; i < n; ++i) {
    x[i] = (float)(i % 17) * 0.25f - 2.0f;
    y[i] = (float)((i * 7) % 13) * 0.5f - 3.0f;
    out[i] = NAN;
  }

  int status = 1;
  fuelSession session = NULL;
  if (failed(fuelSessionCreate(exe, &session), "session") ||
      failed(fuelSessionBindInput(session, 0, fuelDTypeF32, a.shape, a.rank, x,
                                  a.byteSize),
             "binding a") ||
      failed(fuelSessionBindInput(session, 1, fuelDTypeF32, b.shape, b.rank, y,
                                  b.byteSize),
             "binding b") ||
      failed(fuelSessionRun(session), "run") ||
      failed(fuelSessionReadOutput(session, 0, out, c.byteSize), "reading c"))
    goto done;

  size_t wrong = 0, first = 0;
  double maxError = 0;
  for (size_t i = 0; i < n; ++i) {
    double want = (double)x[i] + (double)y[i];
    double error = fabs((double)out[i] - want);
    if (!(error == 0)) { // NaN counts as wrong.
      if (wrong++ == 0)
        first = i;
      if (error > maxError || error != error)
        maxError = error;
    }
  }
  uint32_t threads = 0;
  if (failed(fuelRuntimeThreadCount(rt, &threads), "thread count"))
    goto done;
  if (wrong) {
    fprintf(stderr,
            "fuel-runtime-c: @%s: %zu of %zu elements differ from a + b "
            "(first at %zu: %g, expected %g; max error %g)\n",
            function, wrong, n, first, (double)out[first],
            (double)x[first] + (double)y[first], maxError);
    goto done;
  }
  printf("@%s: c = a + b over %zu f32 elements on %u threads: max error 0\n",
         function, n, threads);
  status = 0;
done:
  fuelSessionDestroy(session);
  free(x), free(y), free(out);
  return status;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <executable.fuelx>\n", argv[0]);
    return 2;
  }
  // A libfuelrt of another major version, or an older minor one, may lack
  // or change what this program calls.
  uint32_t version = fuelRuntimeCApiVersion();
  if (version / 1000 != FUEL_RUNTIME_C_API_VERSION_MAJOR ||
      version < FUEL_RUNTIME_C_API_VERSION) {
    fprintf(stderr,
            "fuel-runtime-c: libfuelrt has C API version %u, this program "
            "was built for %u\n",
            (unsigned)version, (unsigned)FUEL_RUNTIME_C_API_VERSION);
    return 1;
  }
  fuelRuntimeOptions options = {0};
  options.threads = 2;
  fuelRuntime rt = NULL;
  fuelExecutable exe = NULL;
  int status = 1;
  if (!failed(fuelRuntimeCreate(&options, &rt), "runtime") &&
      !failed(fuelExecutableLoadFile(rt, argv[1], &exe), argv[1]))
    status = run(rt, exe);
  fuelExecutableDestroy(exe);
  fuelRuntimeDestroy(rt);
  return status;
}
