//===- OnnxProto.h - An ONNX model as plain C++ values ----------*- C++ -*-===//
//
// What the importer reads from an ONNX ModelProto, in types of its own so that
// only OnnxProto.cpp includes the ONNX and protobuf headers (and is the one
// file built with exceptions). readModel parses, checks, converts the model to
// the importer's opset and flattens the graph; readTensor parses one
// serialized TensorProto (a --fold-input file).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_LIB_IMPORT_ONNX_ONNXPROTO_H
#define FUEL_LIB_IMPORT_ONNX_ONNXPROTO_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fuel::onnx_import {

/// ONNX TensorProto.DataType values the importer names.
enum DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
};

/// The name of an ONNX data type ("FLOAT", "INT64", ...).
const char *dataTypeName(int32_t type);

/// A tensor's contents. Floating-point types are held in `floats`, integer
/// and boolean types in `ints`, exactly.
struct TensorData {
  std::string name;
  int32_t type = kUndefined;
  std::vector<int64_t> dims;
  std::vector<float> floats;
  std::vector<int64_t> ints;
};

/// One attribute of a node. `type` is AttributeProto.AttributeType.
struct Attribute {
  enum Type : int32_t {
    kFloat = 1,
    kInt = 2,
    kString = 3,
    kTensor = 4,
    kFloats = 6,
    kInts = 7,
  };
  std::string name;
  int32_t type = 0;
  float f = 0;
  int64_t i = 0;
  std::string s;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::optional<TensorData> t;
};

/// A graph input or output. A dimension of -1 is dynamic; its parameter
/// name (if any) is in `dimParams`.
struct ValueInfo {
  std::string name;
  int32_t type = kUndefined;
  bool hasShape = false;
  bool isTensor = true;
  std::vector<int64_t> dims;
  std::vector<std::string> dimParams;
};

struct Node {
  std::string name;
  std::string opType;
  std::string domain;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<Attribute> attributes;
};

/// A model after checking and conversion.
struct Model {
  int64_t opset = 0;         // of the default domain, after conversion
  int64_t originalOpset = 0; // as stamped in the file
  std::string graphName;
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::vector<TensorData> initializers;
  std::vector<Node> nodes;
  /// Statically shaped values ONNX shape inference found (value_info), for
  /// the cross-check only.
  std::vector<ValueInfo> inferred;
  /// Non-fatal findings (shape inference failures), reported as warnings.
  std::vector<std::string> warnings;
};

/// The opset the importer converts to and the highest it accepts.
constexpr int64_t kTargetOpset = 17;

/// Parses `bytes` as a ModelProto and fills `model`. `modelDir` is the folder
/// the model was read from (empty when it came from memory: then external
/// data is refused). On failure returns false with `error` set; never throws.
bool readModel(const std::string &bytes, const std::string &modelDir,
               Model &model, std::string &error);

/// Parses `bytes` as one serialized TensorProto. Never throws.
bool readTensor(const std::string &bytes, TensorData &tensor,
                std::string &error);

} // namespace fuel::onnx_import

#endif // FUEL_LIB_IMPORT_ONNX_ONNXPROTO_H
