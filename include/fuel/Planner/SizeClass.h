//===- SizeClass.h - Size classes and dtypes keys ---------------*- C++ -*-===//
//
// The decision-context figures of SEMANTICS §4: the size class of a node,
// computed per op kind from its shape figures, and the dtypes key (element
// types of the inputs, then of the outputs). Each field of a size class is
// `lg(x) = floor(log2(max(x, 1)))` clamped to 8 bits. Products of shape
// figures are computed exactly in 128 bits (saturating at 2^128 - 1, so a
// field can never exceed 127 before the clamp).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNER_SIZECLASS_H
#define FUEL_PLANNER_SIZECLASS_H

#include "fuel/Planner/OpKind.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fuel::plan {

/// `floor(log2(max(x, 1)))`, clamped to 255 (an 8-bit size-class field).
unsigned lg(uint64_t x);

/// matmul: `lg(M*N) << 16 | lg(M) << 8 | lg(K)`.
uint32_t sizeClassMatmul(uint64_t m, uint64_t n, uint64_t k);
/// batch_matmul: `lg(B*M*N) << 16 | lg(M) << 8 | lg(K)`.
uint32_t sizeClassBatchMatmul(uint64_t b, uint64_t m, uint64_t n, uint64_t k);
/// conv2d: `lg(N*OH*OW*OC) << 16 | lg(OC) << 8 | lg(IC*KH*KW)`.
uint32_t sizeClassConv2d(uint64_t n, uint64_t oh, uint64_t ow, uint64_t oc,
                         uint64_t ic, uint64_t kh, uint64_t kw);
/// pool: `lg(output elements) << 8 | lg(window elements)`.
uint32_t sizeClassPool(uint64_t outputElements, uint64_t windowElements);
/// reduce: `lg(input elements) << 8 | lg(reduced extent)`.
uint32_t sizeClassReduce(uint64_t inputElements, uint64_t reducedExtent);
/// softmax: `lg(elements) << 8 | lg(axis extent)`.
uint32_t sizeClassSoftmax(uint64_t elements, uint64_t axisExtent);
/// elementwise and generic: `lg(output elements)`; transpose: `lg(elements)`.
uint32_t sizeClassElements(uint64_t elements);

/// Dispatches on the op kind, reading `figures` in the order of the
/// per-kind functions above (matmul: M, N, K; batch_matmul: B, M, N, K;
/// conv2d: N, OH, OW, OC, IC, KH, KW; pool: output elements, window;
/// reduce: input elements, reduced extent; softmax: elements, axis extent;
/// elementwise, transpose, generic: elements). std::nullopt when the number
/// of figures does not match the kind.
std::optional<uint32_t> sizeClass(OpKind kind,
                                  llvm::ArrayRef<uint64_t> figures);

/// Number of shape figures sizeClass() expects for `kind`.
unsigned sizeClassArity(OpKind kind);

/// Hexadecimal spelling of a size class, e.g. "0x0f0608" (three bytes, the
/// way the decision context prints it).
std::string formatSizeClass(uint32_t sizeClass);

/// The dtypes key of a node (SEMANTICS §4): element types of the inputs,
/// then of the outputs. The principal dtype is the first input's.
struct DtypesKey {
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;

  /// The first input's element type; the first output's when the node has
  /// no tensor input; "" when it has neither.
  const std::string &principal() const;
  /// Inputs then outputs in one list: the form the kernel registry matches.
  std::vector<std::string> flat() const;
  /// "f32,f32->f32": inputs comma-separated, an arrow, then outputs.
  std::string str() const;

  friend bool operator==(const DtypesKey &a, const DtypesKey &b) {
    return a.inputs == b.inputs && a.outputs == b.outputs;
  }
  friend bool operator!=(const DtypesKey &a, const DtypesKey &b) {
    return !(a == b);
  }
  friend bool operator<(const DtypesKey &a, const DtypesKey &b) {
    return a.inputs != b.inputs ? a.inputs < b.inputs : a.outputs < b.outputs;
  }
};

} // namespace fuel::plan

#endif // FUEL_PLANNER_SIZECLASS_H
