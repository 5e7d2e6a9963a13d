//===- ElementType.h - Element type names known to fuel ---------*- C++ -*-===//
//
// The element type names that topology files (per-dtype peak rates) and the
// kernel registry (dtype keys, SEMANTICS §4) may use, with their storage
// sizes. Names are MLIR's builtin spellings.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_ELEMENTTYPE_H
#define FUEL_TARGET_ELEMENTTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace fuel::target {

/// Every element type name fuel knows, sorted: "bf16", "f16", "f32", "f64",
/// "i1", "i16", "i32", "i64", "i8".
llvm::ArrayRef<llvm::StringLiteral> knownElementTypes();

/// Storage size in bytes of a known element type (i1 is stored in a byte);
/// std::nullopt for an unknown name.
std::optional<uint64_t> elementByteSize(llvm::StringRef name);

/// True when `name` is one of knownElementTypes().
inline bool isKnownElementType(llvm::StringRef name) {
  return elementByteSize(name).has_value();
}

} // namespace fuel::target

#endif // FUEL_TARGET_ELEMENTTYPE_H
