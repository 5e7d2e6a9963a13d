//===- PackMatmul.h - Packed-B form of a matmul kernel body -----*- C++ -*-===//
//
// The rewrite fuel-apply-schedules applies before a schedule that asks for
// packed B panels (docs/CPU-CODEGEN.md, "Packed B panels"): a
// `linalg.matmul` or `linalg.batch_matmul` on tensors becomes a copy of B
// into column panels (`linalg.transpose` of an expand_shape view) and a
// contraction `linalg.generic` over the panels, writing C through an
// expand_shape view (no copy of C).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_CODEGEN_CPU_PACKMATMUL_H
#define FUEL_CODEGEN_CPU_PACKMATMUL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuel {

/// The largest panel (K x P elements) packMatmulB makes: the stack scratch
/// fuel-bufferize-kernels promotes by default (`max-stack-bytes`).
inline constexpr int64_t kMaxPanelBytes = 131072;

/// Whether `op` has the packed-B form `packMatmulB` writes for panels of
/// `panel` columns: a `linalg.matmul` (C[M,N] += A[M,K] * B[K,N]) or a
/// `linalg.batch_matmul` (C[b,M,N] += A[b,M,K] * B[b,K,N]) with the default
/// indexing maps, static shapes, N a multiple of `panel`, a panel of at
/// most kMaxPanelBytes and C computed in place (its init, or the fill's
/// destination, is not a tensor.empty).
bool canPackMatmulB(linalg::LinalgOp op, int64_t panel);

/// Rewrites `op` (for which canPackMatmulB holds) into packed-B form:
///
///   B3 = expand_shape B : [.., K, N] -> [.., K, N/P, P]
///   Bp = linalg.transpose B3 -> [.., N/P, K, P]            (the panels)
///   C3 = expand_shape of C's init (a fill of C becomes a fill of C3)
///   R3 = linalg.generic (.., m, n1, n0, k) ins(A, Bp) outs(C3)
///   R  = collapse_shape R3 : [.., M, N/P, P] -> [.., M, N]
///
/// with the contraction's body copied from `op`. With `panels` (a tensor of
/// type packedBType), B is not read: the contraction reads `panels`, B
/// already in panel layout (a constant packed at compile time). Returns the
/// generic.
linalg::GenericOp packMatmulB(RewriterBase &rewriter, linalg::LinalgOp op,
                              int64_t panel, Value panels = {});

/// The type of B in panels of `panel` columns: [.., N/P, K, P] for B of
/// type [.., K, N].
RankedTensorType packedBType(RankedTensorType bType, int64_t panel);

/// `values`, the row-major elements of B [.., K, N], in the panel layout
/// [.., N/P, K, P].
SmallVector<float> packBValues(ArrayRef<float> values, ArrayRef<int64_t> shape,
                               int64_t panel);

} // namespace mlir::fuel

#endif // FUEL_CODEGEN_CPU_PACKMATMUL_H
