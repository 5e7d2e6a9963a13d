//===- FuelProgram.h - Helpers over the host program ops --------*- C++ -*-===//
//
// What the verifier, fuel-plan-buffers and fuel-serialize-executable share
// about `fuel.program`: byte sizes of tensor types and where the bytes of a
// buffer value (a buffer or a view of one) live.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELPROGRAM_H
#define FUEL_DIALECT_FUEL_IR_FUELPROGRAM_H

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include <cstdint>
#include <optional>

namespace mlir::fuel {

/// Bytes per element of `type` (an integer, float or index-free scalar type
/// whose width is a multiple of 8, or i1 stored as one byte), else nullopt.
std::optional<uint64_t> elementByteSize(Type type);

/// Bytes of a statically shaped tensor of `type`, else nullopt (dynamic
/// shape, unsupported element type or a size that overflows 64 bits).
std::optional<uint64_t> tensorByteSize(Type type);

/// Where the bytes of a buffer value lie: its root `fuel.buffer`, the byte
/// offset in it and the byte length.
struct BufferRange {
  BufferOp root;
  uint64_t offset = 0;
  uint64_t length = 0;
};

/// The range of `value`, a result of `fuel.buffer` or `fuel.buffer_view`
/// (views compose); nullopt for any other value.
std::optional<BufferRange> resolveBufferRange(Value value);

/// The kernel `kernel` (`@executable::@kernel`) names from inside `module`:
/// a kernel function or `fuel.library_kernel` of a `fuel.executable`, with
/// the executable in `executable`; null when there is none.
Operation *lookupProgramKernel(ModuleOp module, SymbolRefAttr kernel,
                               ExecutableOp *executable = nullptr);

} // namespace mlir::fuel

#endif // FUEL_DIALECT_FUEL_IR_FUELPROGRAM_H
