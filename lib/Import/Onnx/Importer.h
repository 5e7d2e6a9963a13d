//===- Importer.h - The ONNX importer's internal interface ------*- C++ -*-===//
//
// What the driver (Importer.cpp) and the op families (OnnxElementwise.cpp,
// OnnxNN.cpp, OnnxReduce.cpp, OnnxShape.cpp) share: the one registration
// table, which each family fills with its lowerings and their static checks,
// and the GELU the driver lowers a matched Erf pattern to. What a lowering
// works with is in OnnxNodeContext.h.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_IMPORT_ONNX_IMPORTER_H
#define FUEL_LIB_IMPORT_ONNX_IMPORTER_H

#include "OnnxNodeContext.h"

#include <string>
#include <vector>

namespace mlir::fuel::onnx {

/// A lowering: reads inputs through the context, sets its outputs.
using LowerFn = LogicalResult (*)(NodeContext &);
/// A static check of a node's attributes before anything is built: returns
/// the reason it is unsupported, or an empty string.
using CheckFn = std::string (*)(const Node &);

/// One entry of the registration table.
struct OpEntry {
  const char *opType;
  LowerFn lower;
  CheckFn check = nullptr;
};

void registerElementwiseOps(std::vector<OpEntry> &table);
void registerNNOps(std::vector<OpEntry> &table);
void registerReduceOps(std::vector<OpEntry> &table);
void registerShapeOps(std::vector<OpEntry> &table);

/// The Erf-based GELU of `x`, x * 0.5 * (1 + erf(x / sqrt(2))), as one
/// elementwise generic (OnnxElementwise.cpp).
Value buildGelu(NodeContext &nc, const OnnxValue &x);

} // namespace mlir::fuel::onnx

#endif // FUEL_LIB_IMPORT_ONNX_IMPORTER_H
