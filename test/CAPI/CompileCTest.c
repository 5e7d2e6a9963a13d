//===- CompileCTest.c - fuel-c/Compiler.h from C11 ------------------------===//
//
// `CompileCTest PROGRAM.mlir TOPOLOGY.json`: compiles the two-layer program
// (Inputs/two-layer.mlir) with fuelCompileText, runs it with libfuelrt's C
// API and compares the output with the same layers computed here by plain
// loops in double; checks that bad IR gives a located error status; then,
// as a C frontend would, builds a layer (fill + matmul) op by op with the
// MLIR C API that libFuelCAPI.so exports, compiles it with
// fuelCompileModule, runs it and checks it against loops, and checks that
// its printed text compiles to the same bytes. Built as C11 without
// extensions, so the header is checked as C.
//
//===----------------------------------------------------------------------===//

#include "fuel-c/Compiler.h"
#include "fuel-c/Runtime.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/IR.h"

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

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static MlirType nullType(void) {
  MlirType none = {NULL};
  return none;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, str(name)), value);
}

// Creates an op of `name` at the end of `block`: `operands`, one result of
// `result` (unless null), `attributes`, and `regions` empty regions.
static MlirOperation append(MlirBlock block, const char *name, MlirLocation loc,
                            intptr_t nOperands, const MlirValue *operands,
                            MlirType result, intptr_t nAttributes,
                            const MlirNamedAttribute *attributes,
                            intptr_t nRegions, MlirRegion *regions) {
  MlirOperationState state = mlirOperationStateGet(str(name), loc);
  mlirOperationStateAddOperands(&state, nOperands, operands);
  if (!mlirTypeIsNull(result))
    mlirOperationStateAddResults(&state, 1, &result);
  mlirOperationStateAddAttributes(&state, nAttributes, attributes);
  mlirOperationStateAddOwnedRegions(&state, nRegions, regions);
  MlirOperation op = mlirOperationCreate(&state);
  mlirBlockAppendOwnedOperation(block, op);
  return op;
}

// func.func @layer(%x: tensor<RxCxf32>, %w: tensor<CxNxf32>) -> RxN:
// linalg.fill of 0.0 into tensor.empty, linalg.matmul, func.return; built
// op by op in `ctx`, which has fuel's dialects.
static MlirModule buildLayer(MlirContext ctx, int64_t rows, int64_t inner,
                             int64_t cols) {
  const char *dialects[] = {"func", "arith", "tensor", "linalg"};
  for (size_t i = 0; i < 4; ++i)
    mlirContextGetOrLoadDialect(ctx, str(dialects[i]));
  MlirLocation loc = mlirLocationFileLineColGet(ctx, str("built-by-c"), 1, 1);
  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirType f32 = mlirF32TypeGet(ctx);
  int64_t sx[2] = {rows, inner}, sw[2] = {inner, cols}, sy[2] = {rows, cols};
  MlirAttribute noEncoding = mlirAttributeGetNull();
  MlirType args[2] = {mlirRankedTensorTypeGet(2, sx, f32, noEncoding),
                      mlirRankedTensorTypeGet(2, sw, f32, noEncoding)};
  MlirType ty = mlirRankedTensorTypeGet(2, sy, f32, noEncoding);
  MlirType fnType = mlirFunctionTypeGet(ctx, 2, args, 1, &ty);

  MlirLocation argLocs[2] = {loc, loc};
  MlirBlock entry = mlirBlockCreate(2, args, argLocs);
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, entry);
  MlirNamedAttribute fnAttrs[2] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, str("layer"))),
      named(ctx, "function_type", mlirTypeAttrGet(fnType))};
  append(mlirModuleGetBody(module), "func.func", loc, 0, NULL, nullType(), 2,
         fnAttrs, 1, &body);

  MlirNamedAttribute zeroAttr =
      named(ctx, "value", mlirFloatAttrDoubleGet(ctx, f32, 0.0));
  MlirValue zero = mlirOperationGetResult(
      append(entry, "arith.constant", loc, 0, NULL, f32, 1, &zeroAttr, 0, NULL),
      0);
  MlirValue empty = mlirOperationGetResult(
      append(entry, "tensor.empty", loc, 0, NULL, ty, 0, NULL, 0, NULL), 0);

  // Named linalg ops: operand segments (ins, outs), and the body their
  // region builder fills in.
  int32_t oneOne[2] = {1, 1}, twoOne[2] = {2, 1};
  MlirNamedAttribute fillSegments =
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, oneOne));
  MlirValue fillOperands[2] = {zero, empty};
  MlirRegion fillRegion = mlirRegionCreate();
  MlirOperation fill = append(entry, "linalg.fill", loc, 2, fillOperands, ty, 1,
                              &fillSegments, 1, &fillRegion);
  mlirLinalgFillBuiltinNamedOpRegion(fill);

  MlirNamedAttribute matmulSegments =
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, twoOne));
  MlirValue matmulOperands[3] = {mlirBlockGetArgument(entry, 0),
                                 mlirBlockGetArgument(entry, 1),
                                 mlirOperationGetResult(fill, 0)};
  MlirRegion matmulRegion = mlirRegionCreate();
  MlirOperation matmul = append(entry, "linalg.matmul", loc, 3, matmulOperands,
                                ty, 1, &matmulSegments, 1, &matmulRegion);
  mlirLinalgFillBuiltinNamedOpRegion(matmul);

  MlirValue y = mlirOperationGetResult(matmul, 0);
  append(entry, "func.return", loc, 1, &y, nullType(), 0, NULL, 0, NULL);
  return module;
}

// Appends printed IR to a growing string.
typedef struct Text {
  char *data;
  size_t size;
} Text;

static void appendText(MlirStringRef chunk, void *userData) {
  Text *text = (Text *)userData;
  char *grown = realloc(text->data, text->size + chunk.length + 1);
  if (!grown)
    return;
  memcpy(grown + text->size, chunk.data, chunk.length);
  text->size += chunk.length;
  grown[text->size] = 0;
  text->data = grown;
}

// Builds, compiles and runs the layer; 0 on success.
static int builtModule(fuelRuntime rt, const char *topology) {
  enum { R = 5, C = 7, N = 3 };
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  fuelRegisterCompilerDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  MlirModule module = buildLayer(ctx, R, C, N);
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  int result = 1;
  if (!mlirOperationVerify(moduleOp)) {
    fprintf(stderr, "the built module does not verify\n");
    goto done;
  }
  fuelCompileOptions options;
  memset(&options, 0, sizeof options);
  options.topology = topology;
  fuelBuffer built = NULL, parsed = NULL;
  if (!OK(fuelCompileModule(module, &options, &built)))
    goto done;
  // The printed module, compiled as text, gives the same bytes.
  Text text = {NULL, 0};
  mlirOperationPrint(moduleOp, appendText, &text);
  if (!text.data || !OK(fuelCompileText(text.data, text.size, "built.mlir",
                                        &options, &parsed))) {
    free(text.data);
    fuelBufferDestroy(built);
    goto done;
  }
  free(text.data);
  if (fuelBufferSize(built) != fuelBufferSize(parsed) ||
      memcmp(fuelBufferData(built), fuelBufferData(parsed),
             fuelBufferSize(built)) != 0) {
    fprintf(stderr, "the built module and its text compile differently\n");
    ++failures;
  }
  fuelBufferDestroy(parsed);

  static float x[R * C], w[C * N], y[R * N];
  unsigned state = 3;
  for (int i = 0; i < R * C; ++i)
    x[i] = next(&state);
  for (int i = 0; i < C * N; ++i)
    w[i] = next(&state);
  fuelExecutable exe = NULL;
  fuelSession session = NULL;
  int64_t shapeX[2] = {R, C}, shapeW[2] = {C, N};
  if (OK(fuelExecutableLoadBytes(rt, fuelBufferData(built),
                                 fuelBufferSize(built), &exe)) &&
      OK(fuelSessionCreate(exe, &session)) &&
      OK(fuelSessionBindInput(session, 0, fuelDTypeF32, shapeX, 2, x,
                              sizeof x)) &&
      OK(fuelSessionBindInput(session, 1, fuelDTypeF32, shapeW, 2, w,
                              sizeof w)) &&
      OK(fuelSessionRun(session)) &&
      OK(fuelSessionReadOutput(session, 0, y, sizeof y))) {
    result = 0;
    for (int r = 0; r < R; ++r)
      for (int n = 0; n < N; ++n) {
        double s = 0;
        for (int c = 0; c < C; ++c)
          s += (double)x[r * C + c] * w[c * N + n];
        double want = (double)(float)s;
        if (!(fabs(y[r * N + n] - want) <= 1e-6 + 1e-5 * fabs(want))) {
          fprintf(stderr, "built: y[%d][%d] = %.9g, expected %.9g\n", r, n,
                  y[r * N + n], want);
          result = 1;
        }
      }
  }
  fuelSessionDestroy(session);
  fuelExecutableDestroy(exe);
  fuelBufferDestroy(built);
done:
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return result;
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

  // A module built op by op through the MLIR C API.
  if (builtModule(rt, argv[2]))
    ++failures;
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
  printf("compiler C API test passed: the parsed and the built program "
         "match the loops\n");
  return 0;
}
