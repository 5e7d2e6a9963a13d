//===- main.c - A C consumer of the installed compiler C API --------------===//
//
// Reads the IR file named on the command line, which must compute
// `c = a + b` over two f32 vectors (examples/runtime-c/vadd.mlir), compiles
// it with fuelCompileText (libFuelCAPI.so), loads the bytes with
// fuelExecutableLoadBytes (libfuelrt.so), runs them and checks every element
// against its own loop; then checks that bad IR gives an error status with
// a message. Exits 0 on success, nonzero with the reason otherwise.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Compiler.h"
#include "fuel-c/Runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Prints the message of a failed `status`, frees it, and returns 1; returns
// 0 on success.
static int failed(fuelStatus status, const char *what) {
  if (fuelStatusIsOk(status))
    return 0;
  fprintf(stderr, "fuel-capi-consumer: %s: %s\n", what,
          fuelStatusMessage(status));
  fuelStatusFree(status);
  return 1;
}

// The contents of `path`, NUL-terminated, in *outSize bytes; NULL on error.
static char *readFile(const char *path, size_t *outSize) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *data = NULL;
  size_t size = 0, cap = 0, n;
  char chunk[4096];
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (size + n + 1 > cap) {
      cap = 2 * (size + n + 1);
      char *grown = realloc(data, cap);
      if (!grown) {
        free(data);
        fclose(f);
        return NULL;
      }
      data = grown;
    }
    memcpy(data + size, chunk, n);
    size += n;
  }
  fclose(f);
  if (!data)
    data = calloc(1, 1);
  else
    data[size] = '\0';
  *outSize = size;
  return data;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <vadd.mlir>\n", argv[0]);
    return 2;
  }
  if (fuelCompilerCApiVersion() != FUEL_COMPILER_C_API_VERSION) {
    fprintf(stderr,
            "fuel-capi-consumer: the library is version %u, the "
            "header %u\n",
            (unsigned)fuelCompilerCApiVersion(),
            (unsigned)FUEL_COMPILER_C_API_VERSION);
    return 1;
  }
  size_t size = 0;
  char *text = readFile(argv[1], &size);
  if (!text) {
    fprintf(stderr, "fuel-capi-consumer: cannot read %s\n", argv[1]);
    return 1;
  }

  int status = 1;
  fuelBuffer exeBytes = NULL, bad = NULL;
  fuelRuntime rt = NULL;
  fuelExecutable exe = NULL;
  fuelSession session = NULL;
  float *a = NULL, *b = NULL, *c = NULL;
  if (failed(fuelCompileText(text, size, argv[1], NULL, &exeBytes),
             "fuelCompileText") ||
      failed(fuelRuntimeCreate(NULL, &rt), "runtime") ||
      failed(fuelExecutableLoadBytes(rt, fuelBufferData(exeBytes),
                                     fuelBufferSize(exeBytes), &exe),
             "loading the compiled bytes"))
    goto done;

  fuelTensorInfo info;
  if (failed(fuelExecutableInputInfo(exe, 0, &info), "input 0"))
    goto done;
  size_t n = info.byteSize / sizeof(float);
  a = malloc(info.byteSize), b = malloc(info.byteSize),
  c = malloc(info.byteSize);
  if (!a || !b || !c)
    goto done;
  for (size_t i = 0; i < n; ++i) {
    a[i] = (float)(i % 11) * 0.5f - 2.0f;
    b[i] = (float)(i % 5) * 0.25f;
  }
  if (failed(fuelSessionCreate(exe, &session), "session") ||
      failed(fuelSessionBindInput(session, 0, fuelDTypeF32, info.shape,
                                  info.rank, a, info.byteSize),
             "binding a") ||
      failed(fuelSessionBindInput(session, 1, fuelDTypeF32, info.shape,
                                  info.rank, b, info.byteSize),
             "binding b") ||
      failed(fuelSessionRun(session), "run") ||
      failed(fuelSessionReadOutput(session, 0, c, info.byteSize), "reading c"))
    goto done;
  for (size_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) {
      fprintf(stderr, "fuel-capi-consumer: c[%zu] = %g, expected %g\n", i,
              (double)c[i], (double)(a[i] + b[i]));
      goto done;
    }

  // Bad IR: an error status naming the source, no buffer.
  const char *broken = "func.func @f( {";
  fuelStatus s =
      fuelCompileText(broken, strlen(broken), "broken.mlir", NULL, &bad);
  if (fuelStatusIsOk(s) || bad ||
      !strstr(fuelStatusMessage(s), "broken.mlir")) {
    fprintf(stderr,
            "fuel-capi-consumer: bad IR gave no error naming it: "
            "%s\n",
            fuelStatusMessage(s));
    fuelStatusFree(s);
    goto done;
  }
  fuelStatusFree(s);
  printf("compiled %zu bytes with fuelCompileText, ran c = a + b over %zu "
         "elements: exact\n",
         fuelBufferSize(exeBytes), n);
  status = 0;
done:
  free(a), free(b), free(c), free(text);
  fuelSessionDestroy(session);
  fuelExecutableDestroy(exe);
  fuelRuntimeDestroy(rt);
  fuelBufferDestroy(exeBytes);
  fuelBufferDestroy(bad);
  return status;
}
