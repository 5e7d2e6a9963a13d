//===- CApiCTest.c - The C API used from C11 ------------------------------===//
//
// Compiled as C11 and linked against libfuelrt.so: loads the vadd
// executable named on the command line, checks its inputs and outputs,
// runs it synchronously and asynchronously, reads the result and the
// timings, and checks that misuse returns statuses with messages.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Runtime.h"

#include <stdalign.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

// Checks that `status` is ok; prints and frees it otherwise.
static int ok(fuelStatus status, int line) {
  if (fuelStatusIsOk(status))
    return 1;
  fprintf(stderr, "line %d: %s\n", line, fuelStatusMessage(status));
  fuelStatusFree(status);
  ++failures;
  return 0;
}
#define OK(expr) ok((expr), __LINE__)

// Checks that `status` is an error of `code` whose message contains `text`.
static void error(fuelStatus status, fuelStatusCode code, const char *text,
                  int line) {
  if (fuelStatusIsOk(status) || fuelStatusGetCode(status) != code ||
      !strstr(fuelStatusMessage(status), text)) {
    fprintf(stderr, "line %d: expected error %d containing '%s', got %d '%s'\n",
            line, (int)code, text, (int)fuelStatusGetCode(status),
            fuelStatusMessage(status));
    ++failures;
  }
  fuelStatusFree(status);
}
#define ERROR(expr, code, text) error((expr), (code), (text), __LINE__)

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s vadd.fuel\n", argv[0]);
    return 2;
  }
  fuelRuntimeOptions options = {0};
  options.threads = 2;
  fuelRuntime rt = NULL;
  if (!OK(fuelRuntimeCreate(&options, &rt)))
    return 1;
  fuelExecutable exe = NULL;
  if (!OK(fuelExecutableLoadFile(rt, argv[1], &exe)))
    return 1;
  size_t inputs = 0, outputs = 0;
  OK(fuelExecutableInputCount(exe, &inputs));
  OK(fuelExecutableOutputCount(exe, &outputs));
  CHECK(inputs == 2 && outputs == 1);
  fuelTensorInfo info;
  OK(fuelExecutableInputInfo(exe, 0, &info));
  CHECK(strcmp(info.name, "a") == 0 && info.dtype == fuelDTypeF32 &&
        info.rank == 1 && info.shape[0] == 1000 && info.byteSize == 4000);

  fuelSession session = NULL;
  if (!OK(fuelSessionCreate(exe, &session)))
    return 1;
  static alignas(64) float a[1000], b[1000], c[1000];
  for (int i = 0; i < 1000; ++i) {
    a[i] = (float)i;
    b[i] = 1.0f - (float)i * 0.25f;
  }
  int64_t shape[1] = {1000};
  ERROR(fuelSessionRun(session), fuelStatusFailedPrecondition, "not bound");
  ERROR(fuelSessionBindInput(session, 0, fuelDTypeI32, shape, 1, a, 4000),
        fuelStatusInvalidArgument, "expected 1000xf32");
  ERROR(fuelSessionBindInput(session, 3, fuelDTypeF32, shape, 1, a, 4000),
        fuelStatusInvalidArgument, "does not exist");
  ERROR(fuelSessionRun(NULL), fuelStatusInvalidArgument, "session is null");
  OK(fuelSessionBindInput(session, 0, fuelDTypeF32, shape, 1, a, sizeof a));
  OK(fuelSessionBindInput(session, 1, fuelDTypeF32, shape, 1, b, sizeof b));
  OK(fuelSessionRun(session));
  OK(fuelSessionReadOutput(session, 0, c, sizeof c));
  for (int i = 0; i < 1000; ++i)
    CHECK(c[i] == a[i] + b[i]);
  a[10] = 5.0f;
  OK(fuelSessionRunAsync(session));
  OK(fuelSessionWait(session));
  OK(fuelSessionReadOutput(session, 0, c, sizeof c));
  CHECK(c[10] == 5.0f + b[10]);
  size_t commands = 0;
  OK(fuelSessionCommandCount(session, &commands));
  CHECK(commands == 2);
  uint64_t ns[2];
  OK(fuelSessionCommandTimings(session, ns, 2));

  fuelSessionDestroy(session);
  fuelExecutableDestroy(exe);
  fuelRuntimeDestroy(rt);

  // A status made by a layered library, as libFuelCAPI makes them.
  CHECK(fuelStatusCreate(fuelStatusOk, "x") == NULL);
  ERROR(fuelStatusCreate(fuelStatusUnavailable, "no device"),
        fuelStatusUnavailable, "no device");
  if (failures)
    fprintf(stderr, "%d failures\n", failures);
  else
    printf("C API test passed\n");
  return failures ? 1 : 0;
}
