//===- OnnxProto.cpp - Reading ONNX models with the ONNX library ----------===//
//
// The one file that calls the ONNX library (libonnx, protobuf). It is built
// with exceptions: the checker, the version converter, shape inference and
// ParseData throw, and every exception is caught here and turned into an
// error string, so none crosses into the rest of the compiler (built without
// exceptions).
//
// External data is resolved before the checker runs: each tensor stored
// outside the model is read from a file beside it, whose path must stay inside
// the model's folder, and becomes raw data.
//
//===----------------------------------------------------------------------===//

#include "OnnxProto.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/defs/tensor_proto_util.h>
#include <onnx/onnx_pb.h>
#include <onnx/proto_utils.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <climits>
#include <cstring>
#include <exception>
#include <fstream>
#include <set>
#include <sstream>

#include <limits.h>
#include <stdlib.h>

using namespace fuel::onnx_import;

const char *fuel::onnx_import::dataTypeName(int32_t type) {
  if (::onnx::TensorProto_DataType_IsValid(type))
    return ::onnx::TensorProto_DataType_Name(
               static_cast<::onnx::TensorProto_DataType>(type))
        .c_str();
  return "unknown";
}

namespace {

/// The number of elements of `dims`, or -1 when a dimension is negative or
/// the product overflows.
int64_t elementCount(const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return -1;
    if (d != 0 && n > INT64_MAX / d)
      return -1;
    n *= d;
  }
  return n;
}

/// Bytes per element of the raw encodings read directly here.
int64_t rawElementBytes(int32_t type) {
  switch (type) {
  case kUint8:
  case kInt8:
  case kBool:
    return 1;
  case kFloat16:
    return 2;
  default:
    return 0;
  }
}

/// IEEE half to float, exactly.
float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      // Subnormal: normalise.
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400));
      bits = sign | (uint32_t(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// Converts a TensorProto (with its data inline) to TensorData. Throws the
/// ONNX library's exceptions; callers catch.
bool convertTensor(const ::onnx::TensorProto &t, TensorData &out,
                   std::string &error) {
  out.name = t.name();
  out.type = t.data_type();
  out.dims.assign(t.dims().begin(), t.dims().end());
  int64_t n = elementCount(out.dims);
  if (n < 0) {
    error = "tensor '" + t.name() + "' has invalid dimensions";
    return false;
  }
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    error = "tensor '" + t.name() + "' has external data that was not read";
    return false;
  }
  auto sizeMismatch = [&](size_t got) {
    error = "tensor '" + t.name() + "' holds " + std::to_string(got) +
            " elements but its dimensions need " + std::to_string(n);
    return false;
  };
  switch (out.type) {
  case kFloat: {
    std::vector<float> v = ::onnx::ParseData<float>(&t);
    if (int64_t(v.size()) != n)
      return sizeMismatch(v.size());
    out.floats = std::move(v);
    return true;
  }
  case kDouble: {
    std::vector<double> v = ::onnx::ParseData<double>(&t);
    if (int64_t(v.size()) != n)
      return sizeMismatch(v.size());
    out.floats.assign(v.begin(), v.end());
    return true;
  }
  case kInt64: {
    std::vector<int64_t> v = ::onnx::ParseData<int64_t>(&t);
    if (int64_t(v.size()) != n)
      return sizeMismatch(v.size());
    out.ints = std::move(v);
    return true;
  }
  case kInt32: {
    std::vector<int32_t> v = ::onnx::ParseData<int32_t>(&t);
    if (int64_t(v.size()) != n)
      return sizeMismatch(v.size());
    out.ints.assign(v.begin(), v.end());
    return true;
  }
  case kUint8:
  case kInt8:
  case kBool:
  case kFloat16: {
    // Raw bytes, or one int32_data entry per element.
    int64_t width = rawElementBytes(out.type);
    std::vector<int64_t> bitsOf;
    if (t.has_raw_data()) {
      const std::string &raw = t.raw_data();
      if (int64_t(raw.size()) != n * width)
        return sizeMismatch(raw.size() / width);
      for (int64_t i = 0; i < n; ++i) {
        const unsigned char *p =
            reinterpret_cast<const unsigned char *>(raw.data()) + i * width;
        int64_t v = width == 2 ? int64_t(p[0] | (p[1] << 8)) : int64_t(p[0]);
        if (out.type == kInt8)
          v = int8_t(p[0]);
        bitsOf.push_back(v);
      }
    } else {
      if (t.int32_data_size() != n)
        return sizeMismatch(t.int32_data_size());
      bitsOf.assign(t.int32_data().begin(), t.int32_data().end());
    }
    if (out.type == kFloat16) {
      for (int64_t b : bitsOf)
        out.floats.push_back(halfToFloat(uint16_t(b)));
    } else {
      if (out.type == kBool)
        for (int64_t &b : bitsOf)
          b = b != 0;
      out.ints = std::move(bitsOf);
    }
    return true;
  }
  default:
    // Kept without contents; the importer refuses it where it is used.
    return true;
  }
}

/// True when `path` (relative, normalised lexically) stays inside its base.
bool staysInside(const std::string &path) {
  if (path.empty() || path[0] == '/')
    return false;
  int depth = 0;
  std::stringstream ss(path);
  std::string part;
  while (std::getline(ss, part, '/')) {
    if (part.empty() || part == ".")
      continue;
    if (part == "..") {
      if (--depth < 0)
        return false;
    } else {
      ++depth;
    }
  }
  return depth > 0;
}

/// Reads the external data of `t` into its raw data.
bool resolveExternal(::onnx::TensorProto &t, const std::string &modelDir,
                     std::string &error) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &entry : t.external_data()) {
    try {
      if (entry.key() == "location")
        location = entry.value();
      else if (entry.key() == "offset")
        offset = std::stoll(entry.value());
      else if (entry.key() == "length")
        length = std::stoll(entry.value());
    } catch (const std::exception &) {
      error = "tensor '" + t.name() + "': external data field '" + entry.key() +
              "' is not a number";
      return false;
    }
  }
  std::string what = "tensor '" + t.name() + "': external data '" + location;
  if (modelDir.empty()) {
    error = what + "' cannot be read: the model was not read from a file";
    return false;
  }
  if (location.empty() || !staysInside(location)) {
    error = what + "' is outside the model's folder";
    return false;
  }
  // The lexical check above, then the real path, which resolves symlinks.
  char dirReal[PATH_MAX], fileReal[PATH_MAX];
  std::string full = modelDir + "/" + location;
  if (!realpath(modelDir.c_str(), dirReal) ||
      !realpath(full.c_str(), fileReal)) {
    error = what + "' cannot be opened";
    return false;
  }
  std::string base = std::string(dirReal) + "/";
  if (std::string(fileReal).compare(0, base.size(), base) != 0) {
    error = what + "' is outside the model's folder";
    return false;
  }
  std::ifstream in(fileReal, std::ios::binary);
  if (!in) {
    error = what + "' cannot be opened";
    return false;
  }
  in.seekg(0, std::ios::end);
  int64_t size = in.tellg();
  if (offset < 0 || offset > size || (length >= 0 && length > size - offset)) {
    error = what + "': offset " + std::to_string(offset) + " and length " +
            std::to_string(length) + " exceed the file's " +
            std::to_string(size) + " bytes";
    return false;
  }
  if (length < 0)
    length = size - offset;
  std::string bytes(length, '\0');
  in.seekg(offset);
  in.read(bytes.data(), length);
  if (!in) {
    error = what + "' cannot be read";
    return false;
  }
  t.clear_external_data();
  t.set_data_location(::onnx::TensorProto::DEFAULT);
  t.set_raw_data(std::move(bytes));
  return true;
}

bool resolveGraphExternal(::onnx::GraphProto &g, const std::string &modelDir,
                          std::string &error);

bool resolveAttributeExternal(::onnx::AttributeProto &a,
                              const std::string &modelDir, std::string &error) {
  if (a.has_t() && a.t().data_location() == ::onnx::TensorProto::EXTERNAL &&
      !resolveExternal(*a.mutable_t(), modelDir, error))
    return false;
  if (a.has_g() && !resolveGraphExternal(*a.mutable_g(), modelDir, error))
    return false;
  for (auto &g : *a.mutable_graphs())
    if (!resolveGraphExternal(g, modelDir, error))
      return false;
  return true;
}

bool resolveGraphExternal(::onnx::GraphProto &g, const std::string &modelDir,
                          std::string &error) {
  for (auto &t : *g.mutable_initializer())
    if (t.data_location() == ::onnx::TensorProto::EXTERNAL &&
        !resolveExternal(t, modelDir, error))
      return false;
  for (auto &n : *g.mutable_node())
    for (auto &a : *n.mutable_attribute())
      if (!resolveAttributeExternal(a, modelDir, error))
        return false;
  return true;
}

ValueInfo convertValueInfo(const ::onnx::ValueInfoProto &v) {
  ValueInfo info;
  info.name = v.name();
  if (!v.type().has_tensor_type()) {
    info.isTensor = false;
    return info;
  }
  const auto &tt = v.type().tensor_type();
  info.type = tt.elem_type();
  if (tt.has_shape()) {
    info.hasShape = true;
    for (const auto &d : tt.shape().dim()) {
      info.dims.push_back(
          d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
      info.dimParams.push_back(d.has_dim_param() ? d.dim_param() : "");
    }
  }
  return info;
}

bool convertAttribute(const ::onnx::AttributeProto &a, Attribute &out,
                      std::string &error) {
  out.name = a.name();
  out.type = a.type();
  out.f = a.f();
  out.i = a.i();
  out.s = a.s();
  out.floats.assign(a.floats().begin(), a.floats().end());
  out.ints.assign(a.ints().begin(), a.ints().end());
  if (a.has_t()) {
    TensorData t;
    if (!convertTensor(a.t(), t, error))
      return false;
    out.t = std::move(t);
  }
  return true;
}

int64_t defaultOpset(const ::onnx::ModelProto &m) {
  int64_t v = 0;
  for (const auto &o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      v = o.version();
  return v;
}

/// The version converter's graph import (onnx::graphProtoToGraph in 1.12)
/// dereferences every name it reads without checking it, so a graph whose
/// node reads, or whose output names, a value nothing defines crashes it.
/// Refuses such a graph first, naming the value: every non-empty node input
/// and every graph output must be a graph input, an initializer or an output
/// of an earlier node.
bool checkNamesDefined(const ::onnx::GraphProto &g, std::string &error) {
  std::set<std::string> defined;
  for (const auto &v : g.input())
    defined.insert(v.name());
  for (const auto &t : g.initializer())
    defined.insert(t.name());
  for (int i = 0; i < g.node_size(); ++i) {
    const auto &n = g.node(i);
    for (const std::string &in : n.input())
      if (!in.empty() && !defined.count(in)) {
        error = "node '" + (n.name().empty() ? std::to_string(i) : n.name()) +
                "' (" + n.op_type() + ") reads '" + in +
                "', which is neither a graph input, an initializer nor an "
                "output of an earlier node";
        return false;
      }
    for (const std::string &out : n.output())
      if (!out.empty())
        defined.insert(out);
  }
  for (const auto &v : g.output())
    if (!defined.count(v.name())) {
      error = "graph output '" + v.name() + "' is not computed by any node";
      return false;
    }
  return true;
}

bool readModelImpl(const std::string &bytes, const std::string &modelDir,
                   Model &model, std::string &error) {
  ::onnx::ModelProto proto;
  if (bytes.empty() ||
      !::onnx::ParseProtoFromBytes(&proto, bytes.data(), bytes.size())) {
    error = "not an ONNX model: the file does not parse as a ModelProto";
    return false;
  }
  if (!proto.has_graph() || proto.opset_import_size() == 0) {
    error = "not an ONNX model: it has no graph or no opset_import";
    return false;
  }
  model.originalOpset = defaultOpset(proto);
  if (model.originalOpset > kTargetOpset) {
    error = "the model uses opset " + std::to_string(model.originalOpset) +
            "; fuel imports opset " + std::to_string(kTargetOpset) +
            " and older (the ONNX library's shape inference is not reliable "
            "above it)";
    return false;
  }
  if (model.originalOpset <= 0) {
    error = "the model imports no opset of the default ONNX domain";
    return false;
  }
  if (!resolveGraphExternal(*proto.mutable_graph(), modelDir, error))
    return false;
  try {
    ::onnx::checker::check_model(proto);
  } catch (const std::exception &e) {
    error = std::string("the ONNX checker rejects the model: ") + e.what();
    return false;
  }
  if (model.originalOpset < kTargetOpset) {
    if (!checkNamesDefined(proto.graph(), error))
      return false;
    try {
      proto = ::onnx::version_conversion::ConvertVersion(proto, kTargetOpset);
    } catch (const std::exception &e) {
      error = "cannot convert the model from opset " +
              std::to_string(model.originalOpset) + " to " +
              std::to_string(kTargetOpset) + ": " + e.what();
      return false;
    }
  }
  model.opset = defaultOpset(proto);

  // ONNX's own shape inference, kept for the cross-check only.
  ::onnx::ModelProto inferred = proto;
  try {
    ::onnx::ShapeInferenceOptions options(/*check_type=*/true,
                                          /*error_mode=*/1,
                                          /*enable_data_propagation=*/true);
    ::onnx::shape_inference::InferShapes(
        inferred, ::onnx::OpSchemaRegistry::Instance(), options);
    for (const auto &v : inferred.graph().value_info())
      model.inferred.push_back(convertValueInfo(v));
  } catch (const std::exception &e) {
    model.warnings.push_back(std::string("ONNX shape inference failed: ") +
                             e.what());
  }

  const auto &g = proto.graph();
  model.graphName = g.name();
  for (const auto &v : g.input())
    model.inputs.push_back(convertValueInfo(v));
  for (const auto &v : g.output())
    model.outputs.push_back(convertValueInfo(v));
  for (const auto &t : g.initializer()) {
    TensorData data;
    if (!convertTensor(t, data, error))
      return false;
    model.initializers.push_back(std::move(data));
  }
  for (const auto &n : g.node()) {
    Node node;
    node.name = n.name();
    node.opType = n.op_type();
    node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    for (const auto &a : n.attribute()) {
      Attribute attr;
      if (!convertAttribute(a, attr, error)) {
        error = "node '" + n.name() + "' (" + n.op_type() + "), attribute '" +
                a.name() + "': " + error;
        return false;
      }
      node.attributes.push_back(std::move(attr));
    }
    model.nodes.push_back(std::move(node));
  }
  return true;
}

} // namespace

bool fuel::onnx_import::readModel(const std::string &bytes,
                                  const std::string &modelDir, Model &model,
                                  std::string &error) {
  try {
    return readModelImpl(bytes, modelDir, model, error);
  } catch (const std::exception &e) {
    error = std::string("cannot read the ONNX model: ") + e.what();
  } catch (...) {
    error = "cannot read the ONNX model: unknown error";
  }
  return false;
}

bool fuel::onnx_import::readTensor(const std::string &bytes, TensorData &tensor,
                                   std::string &error) {
  try {
    ::onnx::TensorProto proto;
    if (!::onnx::ParseProtoFromBytes(&proto, bytes.data(), bytes.size())) {
      error = "does not parse as a TensorProto";
      return false;
    }
    if (proto.data_location() == ::onnx::TensorProto::EXTERNAL) {
      error = "holds external data, which a tensor file may not";
      return false;
    }
    return convertTensor(proto, tensor, error);
  } catch (const std::exception &e) {
    error = e.what();
  } catch (...) {
    error = "unknown error";
  }
  return false;
}
