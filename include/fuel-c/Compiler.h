//===- Compiler.h - The C API of fuel's compiler ---------------- -*- C -*-===//
//
// Plans and lowers a tensor program into a fuel executable from C (C11), for
// frontends written in C or reached through a foreign-function interface
// (Python ctypes, Rust): compile from IR text, or from an MlirModule the
// frontend built with MLIR's C API. The bytes returned are what libfuelrt
// loads (fuelExecutableLoadBytes). Exported from libFuelCAPI.so, which also
// exports the MLIR C API (mlir-c/IR.h, BuiltinTypes.h, BuiltinAttributes.h,
// Pass.h, Transforms.h, and the dialects func, arith, math, linalg and
// tensor), so that a frontend loads one library to build, compile and run a
// program.
// docs/EMBEDDING.md describes it; the semantics are those of
// mlir::fuel::compile (fuel/Compiler/Compiler.h).
//
// Errors are the runtime's fuelStatus (fuel-c/Runtime.h; libFuelCAPI.so
// depends on libfuelrt.so): one status idiom, one way to free it, across
// fuel's C APIs. A frontend that compiles also runs, so it has libfuelrt
// loaded anyway. NULL means success; an error status's message holds every
// error diagnostic of the compile, in emission order, each with its notes
// and as `name:line:col: error: message` where the op has a file location.
// A NULL required argument, an unknown or malformed option and IR that does
// not parse or compile each return an error status; no C++ exception
// crosses this API.
//
// Threading: calls on different MLIR contexts may run concurrently (text is
// compiled in a context of its own); one context serves one compile at a
// time, and a module must not be used by another thread while it compiles.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_C_COMPILER_H
#define FUEL_C_COMPILER_H

#include "fuel-c/Runtime.h"
#include "mlir-c/IR.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this API. The major version changes when a declaration
 * here changes incompatibly; the minor one when declarations are added. */
#define FUEL_COMPILER_C_API_VERSION_MAJOR 2
#define FUEL_COMPILER_C_API_VERSION_MINOR 0
#define FUEL_COMPILER_C_API_VERSION                                            \
  (FUEL_COMPILER_C_API_VERSION_MAJOR * 1000 + FUEL_COMPILER_C_API_VERSION_MINOR)

/* FUEL_COMPILER_C_API_VERSION of the loaded library, to check against the
 * header a frontend was built with (or, through ctypes, at all). */
FUEL_C_API uint32_t fuelCompilerCApiVersion(void);

/* An owned byte buffer: an executable, or the IR text of a stage. */
typedef struct fuelBuffer_ *fuelBuffer;

/* The bytes; valid until fuelBufferDestroy. A NUL byte follows them (not
 * counted in the size), so IR text may be read as a C string. NULL for a
 * NULL buffer. */
FUEL_C_API const void *fuelBufferData(fuelBuffer buffer);
/* The byte count; 0 for a NULL buffer. */
FUEL_C_API size_t fuelBufferSize(fuelBuffer buffer);
/* Releases a buffer; NULL is allowed. */
FUEL_C_API void fuelBufferDestroy(fuelBuffer buffer);

/* What a compile produces: the executable (the default), or the IR after
 * a stage of docs/ARCHITECTURE.md, as text (fuel-compile --emit). */
typedef enum fuelCompileStage {
  fuelCompileStageExecutable = 0,
  fuelCompileStagePlanned = 1,    /* after fuel-plan */
  fuelCompileStageOutlined = 2,   /* after fuel-outline-kernels */
  fuelCompileStageKernels = 3,    /* after fuel-apply-schedules */
  fuelCompileStageBufferized = 4, /* after fuel-bufferize-kernels */
  fuelCompileStageHost = 5,       /* after fuel-plan-buffers */
  fuelCompileStageLlvm = 6,       /* after convert-fuel-to-llvm */
  fuelCompileStageSpirv = 7,      /* after convert-fuel-to-spirv */
  fuelCompileStagePtx = 8,        /* after convert-fuel-to-nvvm */
  /* Not a stage: widens the enumeration to every int, so that C++ may hold
   * a value a C caller passed outside the stages above (it is refused). */
  fuelCompileStageMaxEnum = 0x7FFFFFFF
} fuelCompileStage;

/* Severity of a diagnostic passed to a fuelDiagnosticHandler. */
typedef enum fuelDiagnosticSeverity {
  fuelDiagnosticError = 0,
  fuelDiagnosticWarning = 1,
  fuelDiagnosticNote = 2,
  fuelDiagnosticRemark = 3
} fuelDiagnosticSeverity;

/* Receives one diagnostic (with its notes, formatted as in an error status)
 * as it is emitted; `text` is valid during the call only. Calls come one at
 * a time, possibly from the compile's worker threads. */
typedef void (*fuelDiagnosticHandler)(fuelDiagnosticSeverity severity,
                                      const char *text, void *userData);

/* How to compile; zero-initialize for the defaults of fuel-compile. The
 * layout belongs to the major version: a field is added only with a new
 * major version, so the struct a frontend passes is the one the library
 * reads. */
typedef struct fuelCompileOptions {
  /* A topology JSON file, "probe" (this machine), or NULL or "": the
   * module's stamped topology, else the built-in default
   * (fuel-compile --topology). */
  const char *topology;
  /* The fuel-plan options, as fuel-compile --plan takes them:
   * space-separated key=value, every option but `topology`
   * (docs/SEMANTICS.md §9); NULL or "": the defaults. An unknown key or a
   * bad value is an error naming it. They apply only to a module that is
   * not planned yet: a planned one must keep the defaults. */
  const char *planOptions;
  /* fuelCompileStageExecutable (0): the executable's bytes; another stage:
   * the IR after it, as text. */
  fuelCompileStage stage;
  /* When set, called with every diagnostic: errors, which also go into the
   * returned status, warnings, and remarks (explain=true). */
  fuelDiagnosticHandler diagnosticHandler;
  void *diagnosticUserData;
  /* The CUDA toolkit directory whose libdevice the PTX of cuda kernels
   * links for math functions without an approximation or an NVPTX
   * instruction (fuel-compile --cuda-toolkit): NULL: the toolkit CMake
   * found when fuel was built (none if it found none); "": none; else the
   * directory, which must hold nvvm/libdevice/libdevice.10.bc once a cuda
   * kernel is lowered (an error naming it otherwise). Never taken from the
   * environment. Since version 2.0. */
  const char *cudaToolkit;
} fuelCompileOptions;

/* Parses `length` bytes of IR text at `text` (no NUL needed) as a module
 * named `sourceName` in diagnostics (NULL: "<input>"), in a context of its
 * own with fuel's dialects, and compiles it. `options` may be NULL. On
 * success *outBuffer holds the result, which the caller releases with
 * fuelBufferDestroy; on error it is NULL. */
FUEL_C_API fuelStatus fuelCompileText(const char *text, size_t length,
                                      const char *sourceName,
                                      const fuelCompileOptions *options,
                                      fuelBuffer *outBuffer);

/* Compiles `module`, which stays unchanged (a copy is lowered), in its own
 * context. Parsing or building fuel's attributes needs the fuel dialect in
 * that context (create it with a registry fuelRegisterCompilerDialects
 * filled); the compile appends the rest it needs (nothing, for such a
 * context). Diagnostics of the compile go into the status and the options'
 * handler, not to the context's handlers. The same module gives the same
 * bytes as fuelCompileText on its text. */
FUEL_C_API fuelStatus fuelCompileModule(MlirModule module,
                                        const fuelCompileOptions *options,
                                        fuelBuffer *outBuffer);

/* Inserts every dialect, extension and translation fuel's input, planning
 * and lowering use (the fuel dialect, func, arith, math, linalg, tensor and
 * the lowering's) into `registry`, for mlirContextCreateWithRegistry. */
FUEL_C_API void fuelRegisterCompilerDialects(MlirDialectRegistry registry);

/* Registers fuel's passes and pipelines with MLIR's global pass registry,
 * for mlirParsePassPipeline; the compile calls above do not need it.
 * Idempotent, but the registry has no lock: call it before threads parse
 * textual pipelines. */
FUEL_C_API void fuelRegisterCompilerPasses(void);

/* The fuel dialect alone: mlirGetDialectHandle__fuel__(). */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Fuel, fuel);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FUEL_C_COMPILER_H */
