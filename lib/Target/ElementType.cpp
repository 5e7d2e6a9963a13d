//===- ElementType.cpp - Element type names known to fuel -----------------===//
//
// The table behind ElementType.h.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/ElementType.h"

namespace fuel::target {

namespace {
struct ElementTypeInfo {
  llvm::StringLiteral name;
  uint64_t bytes;
};
} // namespace

// Sorted by name so knownElementTypes() lists them in a stable order.
static constexpr ElementTypeInfo kElementTypes[] = {
    {"bf16", 2}, {"f16", 2}, {"f32", 4}, {"f64", 8}, {"i1", 1},
    {"i16", 2},  {"i32", 4}, {"i64", 8}, {"i8", 1},
};

static constexpr llvm::StringLiteral kElementTypeNames[] = {
    "bf16", "f16", "f32", "f64", "i1", "i16", "i32", "i64", "i8",
};

llvm::ArrayRef<llvm::StringLiteral> knownElementTypes() {
  return kElementTypeNames;
}

std::optional<uint64_t> elementByteSize(llvm::StringRef name) {
  for (const ElementTypeInfo &info : kElementTypes)
    if (info.name == name)
      return info.bytes;
  return std::nullopt;
}

} // namespace fuel::target
