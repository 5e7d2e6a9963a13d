//===- OpKind.h - Op kinds of kernel-bearing nodes --------------*- C++ -*-===//
//
// The op kinds of SEMANTICS §4, the one definition shared by the planner, the
// kernel registry, the dialect (through checked conversions) and the runtime.
// The function, combiner or pool kind of an op is an op parameter, never part
// of its kind.
//
// Header-only and LLVM-free (C++17 standard library only).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_SUPPORT_OPKIND_H
#define FUEL_SUPPORT_OPKIND_H

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace fuel {

/// Kinds of kernel-bearing nodes (SEMANTICS §4).
enum class OpKind : uint8_t {
  Matmul,
  BatchMatmul,
  Conv2d,
  Pool,
  Reduce,
  Softmax,
  Elementwise,
  Transpose,
  Generic,
};

/// Every op kind, in declaration order.
inline constexpr std::array<OpKind, 9> kAllOpKinds = {
    OpKind::Matmul,      OpKind::BatchMatmul, OpKind::Conv2d,
    OpKind::Pool,        OpKind::Reduce,      OpKind::Softmax,
    OpKind::Elementwise, OpKind::Transpose,   OpKind::Generic};

/// Spelling used in IR, JSON, kernel ids and diagnostics. The view points at
/// a string literal, so data() is null-terminated.
constexpr std::string_view stringifyOpKind(OpKind kind) {
  switch (kind) {
  case OpKind::Matmul:
    return "matmul";
  case OpKind::BatchMatmul:
    return "batch_matmul";
  case OpKind::Conv2d:
    return "conv2d";
  case OpKind::Pool:
    return "pool";
  case OpKind::Reduce:
    return "reduce";
  case OpKind::Softmax:
    return "softmax";
  case OpKind::Elementwise:
    return "elementwise";
  case OpKind::Transpose:
    return "transpose";
  case OpKind::Generic:
    return "generic";
  }
  return "generic";
}

/// Inverse of stringifyOpKind; anything else yields std::nullopt.
constexpr std::optional<OpKind> symbolizeOpKind(std::string_view s) {
  for (OpKind kind : kAllOpKinds)
    if (stringifyOpKind(kind) == s)
      return kind;
  return std::nullopt;
}

} // namespace fuel

#endif // FUEL_SUPPORT_OPKIND_H
