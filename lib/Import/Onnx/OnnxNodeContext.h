//===- OnnxNodeContext.h - The node an op family lowers ---------*- C++ -*-===//
//
// What the op families (OnnxElementwise.cpp, OnnxNN.cpp, OnnxReduce.cpp,
// OnnxShape.cpp) lower a node with: the value an ONNX name stands for during
// import (a tensor value, its data when known at import time, or both), the
// import's state those values live in, the node context a lowering reads its
// inputs and attributes from and writes its outputs to, with the builders for
// the common IR shapes (broadcast elementwise generics, reductions, views),
// and the shape and attribute helpers the families share.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_IMPORT_ONNX_ONNXNODECONTEXT_H
#define FUEL_LIB_IMPORT_ONNX_ONNXNODECONTEXT_H

#include "OnnxProto.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <memory>
#include <optional>

namespace mlir::fuel::onnx {

using OnnxAttr = ::fuel::onnx_import::Attribute;
using ::fuel::onnx_import::Node;

/// Contents of a value known at import time. Floating-point data in `f`,
/// integer and boolean data in `i`, row-major.
struct ConstData {
  bool isFloat = true;
  std::vector<float> f;
  std::vector<int64_t> i;
  int64_t size() const { return isFloat ? f.size() : i.size(); }
  double at(int64_t k) const { return isFloat ? double(f[k]) : double(i[k]); }
  int64_t intAt(int64_t k) const { return isFloat ? int64_t(f[k]) : i[k]; }
  bool isSplat() const;
};

/// What an ONNX value name stands for: its static shape and ONNX element
/// type, and a tensor value, its contents, or both. Constants are
/// materialised (as arith.constant or dense_resource) only when an op that
/// is not folded reads them.
struct OnnxValue {
  SmallVector<int64_t> shape;
  int32_t type = 0;
  Value value;
  std::shared_ptr<const ConstData> data;
  /// The ONNX name (initializers name their dense_resource blobs by it).
  std::string name;

  bool isConst() const { return data != nullptr; }
  int64_t numElements() const;
};

/// Elementwise payload: the scalar arguments (one per input) to the result.
using PayloadFn =
    std::function<Value(OpBuilder &, Location, ArrayRef<Value> args)>;

/// The state of one import: the builder, what every ONNX name imported so
/// far stands for, and the unsupported uses found. The driver
/// (Importer.cpp) owns it; the node contexts read and write it.
class Importer {
public:
  Importer(MLIRContext *ctx, Location modelLoc)
      : ctx(ctx), b(ctx), modelLoc(modelLoc) {}

  MLIRContext *ctx;
  OpBuilder b;
  Location modelLoc;
  llvm::StringMap<OnnxValue> values;
  /// The outputs of nodes that were not lowered (an unsupported use): the
  /// nodes that read them are skipped, not reported again.
  llvm::StringSet<> poisoned;
  std::vector<std::string> unsupportedList;
  /// Set when the node being lowered records an unsupported use.
  bool nodeUnsupported = false;
  int64_t opset = 0;
};

/// The node being lowered.
class NodeContext {
public:
  NodeContext(Importer &importer, const Node &node, Location loc);

  const Node &node;
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;

  /// Inputs: a missing optional input has an empty name.
  unsigned numInputs() const { return node.inputs.size(); }
  bool hasInput(unsigned i) const;
  const OnnxValue &input(unsigned i) const;
  unsigned numOutputs() const { return node.outputs.size(); }
  bool wantsOutput(unsigned i) const;
  void setOutput(unsigned i, OnnxValue value);

  /// Attributes.
  const OnnxAttr *attr(StringRef name) const;
  int64_t getInt(StringRef name, int64_t dflt) const;
  float getFloat(StringRef name, float dflt) const;
  std::string getString(StringRef name, StringRef dflt) const;
  std::optional<std::vector<int64_t>> getInts(StringRef name) const;
  /// The `axis` attribute (`dflt` when absent) normalised against `rank`;
  /// an error at the node ("axis is outside the input's rank") when it lies
  /// outside [-rank, rank).
  FailureOr<int64_t> getAxis(int64_t dflt, int64_t rank);

  /// An error at the node (the import fails).
  InFlightDiagnostic error();
  /// True once a shape this node computed or produced was refused (a
  /// negative dimension or more elements than kMaxTensorElements); the
  /// error is emitted then and the node's lowering fails.
  bool shapeRefused = false;
  /// False (emitting the error, setting shapeRefused) unless every
  /// dimension of `shape` is at least 0 and it holds at most
  /// kMaxTensorElements elements.
  bool checkShape(ArrayRef<int64_t> shape);
  /// Records that the node uses something not supported (reported with every
  /// other unsupported use in one list) and returns failure.
  LogicalResult unsupported(const Twine &reason);

  /// Checks that input `i` is f32; otherwise records it as unsupported.
  LogicalResult requireFloat(unsigned i);
  /// Input `i` as constant integers (axes, shapes, pads); records an
  /// unsupported use when it is not known at import time.
  FailureOr<std::vector<int64_t>> constInts(unsigned i, StringRef what);

  /// The tensor value of `v`, materialising a constant.
  Value materialize(const OnnxValue &v);
  Type elementType(int32_t onnxType);
  RankedTensorType tensorType(ArrayRef<int64_t> shape, Type elem);
  Value emptyTensor(ArrayRef<int64_t> shape, Type elem);
  /// A tensor.empty filled with `value` (f32).
  Value filled(ArrayRef<int64_t> shape, float value);

  /// A runtime value with its shape taken from its type.
  OnnxValue runtime(Value v, int32_t type);
  /// A value known at import time.
  OnnxValue constant(ConstData data, ArrayRef<int64_t> shape, int32_t type);

  /// One linalg.generic computing `body` over the ONNX (numpy) broadcast of
  /// `inputs` into `outShape`. Inputs of size-1 dimensions read index 0;
  /// splat constant inputs become scalar constants in the body.
  Value elementwise(ArrayRef<const OnnxValue *> inputs,
                    ArrayRef<int64_t> outShape, Type outElem, PayloadFn body);
  /// A linalg.generic reduction of `in` over `axes` (sorted, unique) into a
  /// tensor without them, starting from `init`; `combine(acc, x)`.
  Value reduce(
      Value in, ArrayRef<int64_t> axes, float init,
      std::function<Value(OpBuilder &, Location, Value acc, Value x)> combine);
  /// `v` viewed with `shape` (same element count): a collapse_shape and/or
  /// expand_shape, no copy.
  Value reshape(Value v, ArrayRef<int64_t> shape);
  /// `v` permuted by `perm` (linalg.transpose).
  Value transpose(Value v, ArrayRef<int64_t> perm);
  /// A static tensor.extract_slice of `v`.
  Value slice(Value v, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
              ArrayRef<int64_t> strides);

  /// A constant of shape `shape` whose element k is element `source(k)` of
  /// the constant `in`: how shape ops fold (Transpose, Slice, Gather, ...).
  OnnxValue remapConst(const OnnxValue &in, ArrayRef<int64_t> shape,
                       llvm::function_ref<int64_t(int64_t)> source);
  /// `v` with shape `shape` (same element count): a view, or the same data.
  OnnxValue reshaped(const OnnxValue &v, ArrayRef<int64_t> shape);
  /// `v` broadcast to `shape` as a tensor (a copy when it grows).
  Value broadcastTo(const OnnxValue &v, ArrayRef<int64_t> shape);

private:
  Importer &importer;
};

/// The ONNX broadcast of `shapes`, or nothing when they do not broadcast.
std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<SmallVector<int64_t>> shapes);

/// Normalises an axis in [-rank, rank) to [0, rank); nothing when outside.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape);

/// Reads attribute `name` of `node`, or null.
const OnnxAttr *findAttribute(const Node &node, StringRef name);

} // namespace mlir::fuel::onnx

#endif // FUEL_LIB_IMPORT_ONNX_ONNXNODECONTEXT_H
