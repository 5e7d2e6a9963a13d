//===- CompileCTest.c - fuel-c/Compiler.h from C11 ------------------------===//
//
// `CompileCTest PROGRAM.mlir TOPOLOGY.json`: compiles the two-layer program
// (Inputs/two-layer.mlir) with fuelCompileText, runs it with libfuelrt's C
// API and compares the output with the same layers computed here by plain
// loops in double; then checks that bad IR gives a located error status.
// Built as C11 without extensions, so the header is checked as C.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Compiler.h"
#include "fuel-c/Runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M = 8, K = 16, H = 32, N = 4 };

static int failures = 0;

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

static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc((size_t)n);
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

// A deterministic value in [-1, 1).
static float next(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (float)((*state >> 8) & 0xffff) / 32768.0f - 1.0f;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s two-layer.mlir topology.json\n", argv[0]);
    return 2;
  }
  if (fuelCompilerCApiVersion() != FUEL_COMPILER_C_API_VERSION) {
    fprintf(stderr, "library version %u, header %d\n",
            (unsigned)fuelCompilerCApiVersion(), FUEL_COMPILER_C_API_VERSION);
    return 1;
  }
  size_t size = 0;
  char *text = readFile(argv[1], &size);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  fuelCompileOptions options;
  memset(&options, 0, sizeof options);
  options.topology = argv[2];
  fuelBuffer executable = NULL;
  if (!OK(fuelCompileText(text, size, argv[1], &options, &executable)))
    return 1;
  free(text);

  static float x[M * K], w1[K * H], b1[H], w2[H * N], b2[N], y[M * N];
  unsigned state = 1;
  for (int i = 0; i < M * K; ++i)
    x[i] = next(&state);
  for (int i = 0; i < K * H; ++i)
    w1[i] = next(&state);
  for (int i = 0; i < H; ++i)
    b1[i] = next(&state);
  for (int i = 0; i < H * N; ++i)
    w2[i] = next(&state);
  for (int i = 0; i < N; ++i)
    b2[i] = next(&state);

  fuelRuntimeOptions runtimeOptions;
  memset(&runtimeOptions, 0, sizeof runtimeOptions);
  runtimeOptions.threads = 2;
  fuelRuntime rt = NULL;
  fuelExecutable exe = NULL;
  fuelSession session = NULL;
  if (!OK(fuelRuntimeCreate(&runtimeOptions, &rt)) ||
      !OK(fuelExecutableLoadBytes(rt, fuelBufferData(executable),
                                  fuelBufferSize(executable), &exe)) ||
      !OK(fuelSessionCreate(exe, &session)))
    return 1;
  fuelBufferDestroy(executable);
  const float *inputs[5] = {x, w1, b1, w2, b2};
  int64_t shapes[5][2] = {{M, K}, {K, H}, {H, 0}, {H, N}, {N, 0}};
  size_t ranks[5] = {2, 2, 1, 2, 1};
  size_t bytes[5] = {sizeof x, sizeof w1, sizeof b1, sizeof w2, sizeof b2};
  for (size_t i = 0; i < 5; ++i)
    OK(fuelSessionBindInput(session, i, fuelDTypeF32, shapes[i], ranks[i],
                            inputs[i], bytes[i]));
  OK(fuelSessionRun(session));
  OK(fuelSessionReadOutput(session, 0, y, sizeof y));

  // The reference: relu(x w1 + b1) w2 + b2, in double.
  double hidden[M][H];
  for (int m = 0; m < M; ++m)
    for (int h = 0; h < H; ++h) {
      double s = b1[h];
      for (int k = 0; k < K; ++k)
        s += (double)x[m * K + k] * w1[k * H + h];
      hidden[m][h] = s > 0 ? s : 0;
    }
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double s = b2[n];
      for (int h = 0; h < H; ++h)
        s += hidden[m][h] * w2[h * N + n];
      double want = (double)(float)s;
      if (!(fabs(y[m * N + n] - want) <= 1e-6 + 1e-5 * fabs(want))) {
        if (!bad)
          fprintf(stderr, "y[%d][%d] = %.9g, expected %.9g\n", m, n,
                  y[m * N + n], want);
        ++bad;
      }
    }
  if (bad) {
    fprintf(stderr, "%d of %d elements outside tolerance\n", bad, M * N);
    ++failures;
  }
  fuelSessionDestroy(session);
  fuelExecutableDestroy(exe);
  fuelRuntimeDestroy(rt);

  // Bad IR: an error status with the location and the parser's message.
  const char *badText = "func.func @f() {\n  %0 = arith.constant : f32\n}\n";
  fuelBuffer none = NULL;
  fuelStatus status =
      fuelCompileText(badText, strlen(badText), "bad.mlir", NULL, &none);
  if (fuelStatusIsOk(status) || none ||
      fuelStatusGetCode(status) != fuelStatusInvalidArgument ||
      !strstr(fuelStatusMessage(status), "bad.mlir:2:")) {
    fprintf(stderr, "bad IR: code %d, message '%s'\n",
            (int)fuelStatusGetCode(status), fuelStatusMessage(status));
    ++failures;
  }
  fuelStatusFree(status);

  if (failures) {
    fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  printf("compiler C API test passed: 8x4 output matches the loops\n");
  return 0;
}
