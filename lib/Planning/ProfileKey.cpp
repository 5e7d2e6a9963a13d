//===- ProfileKey.cpp - Profile-database keys of candidates ---------------===//
//
// See ProfileKey.h. Element types print as MLIR spells them ("f32"), op
// kinds as the dialect does ("matmul"), devices as "cpu" | "cuda" |
// "vulkan" with their ordinal.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planning/ProfileKey.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuel;
namespace plan = ::fuel::plan;

/// Appends the element type and the shape of a value of `type`.
static void addValue(Type type, ::fuel::judge::MeasurementKey &key) {
  std::string dtype;
  llvm::raw_string_ostream os(dtype);
  std::vector<int64_t> shape;
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    os << shaped.getElementType();
    if (shaped.hasRank())
      shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  } else {
    os << type;
  }
  key.dtypes.push_back(std::move(dtype));
  key.shapes.push_back(std::move(shape));
}

::fuel::judge::MeasurementKey
mlir::fuel::measurementKey(NodeOp node, const plan::Candidate &c,
                           uint32_t sizeClass, const plan::Topology &topology,
                           const ProfileKeySettings &settings) {
  ::fuel::judge::MeasurementKey key;
  key.kernelId = c.kernelId;
  key.revision = c.revisionHash;
  key.opKind = stringifyOpKind(node.getKind()).str();
  for (Value v : node.getInputs())
    addValue(v.getType(), key);
  for (Type t : node.getResultTypes())
    addValue(t, key);
  key.params = c.params;
  llvm::stable_sort(key.params, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  key.sizeClass = sizeClass;
  key.deviceKind = std::string(stringifyDeviceKind(c.device.kind));
  key.deviceOrdinal = c.device.isHost() ? 0 : c.device.ordinal;
  if (const plan::DeviceInfo *info = topology.find(c.device)) {
    key.deviceName = info->name;
    key.deviceDriver = info->driver;
  }
  key.poolThreads = settings.poolThreads;
  key.libraryThreads = settings.libraryThreads;
  return key;
}
