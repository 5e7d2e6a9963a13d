//===- MachineAttrs.cpp - Machine attributes of the fuel dialect ----------===//
//
// Parsing, printing and verification of the attributes that describe the
// machine: devices, device records with their GPU limits, links and
// topologies; conversion of `#fuel.topology` to and from the planner's plain
// struct, and the module queries the code generators read it through
// (CpuTarget.h, GpuLimits.h). The plan attributes are in PlanAttrs.cpp.
//
// Keyed attributes (devices of a topology, links, GPU limits) accept their
// fields in any order and report unknown, duplicate and missing fields by
// name; they print in one canonical order.
//
// The attribute storage classes are defined in PlanAttrs.cpp, with the rest
// of the generated code. Calls here to `get` and `getChecked` pass each
// parameter in its declared type (StringRef, ArrayRef), so that they resolve
// to the generated out-of-line builders rather than to the variadic template
// of the attribute base class, which needs the storage class to be complete.
//
//===----------------------------------------------------------------------===//

#include "AttrParsing.h"

#include "fuel/Dialect/Fuel/IR/FuelOps.h"

#include "fuel/Dialect/Fuel/IR/CpuTarget.h"
#include "fuel/Dialect/Fuel/IR/GpuLimits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fuel;
using namespace mlir::fuel::detail;

//===----------------------------------------------------------------------===//
// DeviceAttr
//===----------------------------------------------------------------------===//

LogicalResult DeviceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 DeviceKind kind, int64_t ordinal) {
  if (ordinal < 0)
    return emitError() << "device ordinal must be non-negative, got "
                       << ordinal;
  if (ordinal > UINT32_MAX)
    return emitError() << "device ordinal " << ordinal << " is too large";
  if (kind == DeviceKind::cpu && ordinal != 0)
    return emitError() << "the host device 'cpu' has no ordinal (got "
                       << ordinal << ")";
  return success();
}

std::string DeviceAttr::str() const {
  if (isHost())
    return "cpu";
  return (stringifyDeviceKind(getKind()) + ":" + Twine(getOrdinal())).str();
}

bool DeviceAttr::operator<(DeviceAttr other) const {
  return std::make_pair(uint32_t(getKind()), getOrdinal()) <
         std::make_pair(uint32_t(other.getKind()), other.getOrdinal());
}

void DeviceAttr::printBare(AsmPrinter &printer) const { printer << str(); }

FailureOr<DeviceAttr> DeviceAttr::parseBare(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kindName;
  if (parser.parseKeyword(&kindName))
    return failure();
  std::optional<DeviceKind> kind = symbolizeDeviceKind(kindName);
  if (!kind)
    return parser.emitError(loc) << "unknown device kind '" << kindName
                                 << "'; expected 'cpu', 'cuda:N' or 'vulkan:N'";
  if (*kind == DeviceKind::cpu) {
    if (succeeded(parser.parseOptionalColon()))
      return parser.emitError(loc)
             << "the host device 'cpu' takes no ordinal; write 'cpu'";
    return DeviceAttr::get(parser.getContext(), *kind, 0);
  }
  if (failed(parser.parseOptionalColon()))
    return parser.emitError(loc)
           << "device kind '" << kindName << "' needs an ordinal, e.g. '"
           << kindName << ":0'";
  SMLoc ordinalLoc = parser.getCurrentLocation();
  int64_t ordinal = 0;
  if (parser.parseInteger(ordinal))
    return failure();
  DeviceAttr device =
      DeviceAttr::getChecked([&] { return parser.emitError(ordinalLoc); },
                             parser.getContext(), *kind, ordinal);
  if (!device)
    return failure();
  return device;
}

Attribute DeviceAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<DeviceAttr> device = parseBare(parser);
  if (failed(device) || parser.parseGreater())
    return {};
  return *device;
}

void DeviceAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBare(printer);
  printer << '>';
}

Attribute DeviceAttr::getSingleDevice() const { return *this; }

bool DeviceAttr::admits(Attribute device) const { return device == *this; }

//===----------------------------------------------------------------------===//
// DeviceInfoAttr and LinkAttr
//===----------------------------------------------------------------------===//

/// True for a finite, non-negative f64 figure.
static bool isFigure(FloatAttr f) {
  if (!f || !f.getType().isF64())
    return false;
  double v = f.getValueAsDouble();
  return v >= 0 && std::isfinite(v);
}

LogicalResult DeviceInfoAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, DeviceAttr device,
    StringRef name, bool cpuType, DictionaryAttr peak, FloatAttr bytesPerNs,
    int64_t dispatchNs, int64_t memory, int64_t alignment, StringRef cpuTarget,
    StringRef cpuFeatures, GpuLimitsAttr limits, StringRef computeCapability,
    StringRef driver) {
  if (!device || !peak)
    return emitError() << "device_info needs a device and a peak dictionary";
  for (NamedAttribute entry : peak) {
    StringRef dtype = entry.getName().getValue();
    if (dtype.empty() || !llvm::all_of(dtype, [](char c) {
          return llvm::isAlnum(c) || c == '_';
        }))
      return emitError() << "peak key '" << dtype << "' of device '"
                         << device.str() << "' is not an element type name";
    if (!isFigure(dyn_cast<FloatAttr>(entry.getValue())))
      return emitError() << "peak figure '" << dtype << "' of device '"
                         << device.str()
                         << "' must be a finite, non-negative f64 (flop/ns)";
  }
  if (bytesPerNs && !isFigure(bytesPerNs))
    return emitError() << "bytes_per_ns of device '" << device.str()
                       << "' must be a finite, non-negative f64";
  if (dispatchNs < 0)
    return emitError() << "device '" << device.str()
                       << "' needs a non-negative dispatch_ns";
  // memory and alignment hold unsigned 64-bit values (a topology file allows
  // up to 2^64 - 1) in the int64_t parameters: every figure is valid memory
  // and the alignment is a power of two up to 2^63.
  if (!llvm::isPowerOf2_64(uint64_t(alignment)))
    return emitError() << "device '" << device.str()
                       << "' needs an alignment that is a power of two";
  if (cpuTarget.empty() && !cpuFeatures.empty())
    return emitError() << "device '" << device.str()
                       << "' has cpu_features but no cpu_target";
  if (!cpuTarget.empty()) {
    if (!toPlan(device).isHost())
      return emitError() << "device '" << device.str()
                         << "' has a cpu_target; only the host 'cpu' has one";
    std::string problem =
        ::fuel::plan::validateCpuTarget({cpuTarget.str(), cpuFeatures.str()});
    if (!problem.empty())
      return emitError() << "invalid cpu_target of device 'cpu': " << problem;
  }
  if (limits && toPlan(device).isHost())
    return emitError() << "device 'cpu' has limits; only GPU devices "
                          "(cuda:N, vulkan:N) have them";
  if (!computeCapability.empty()) {
    if (toPlan(device).kind != ::fuel::DeviceKind::Cuda)
      return emitError() << "device '" << device.str()
                         << "' has a compute_capability; only CUDA devices "
                            "(cuda:N) have one";
    if (!::fuel::plan::parseComputeCapability(computeCapability))
      return emitError() << "compute_capability of device '" << device.str()
                         << "' must be \"major.minor\" from \"3.0\" to "
                            "\"99.9\", got \""
                         << computeCapability << "\"";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GpuLimitsAttr
//===----------------------------------------------------------------------===//

LogicalResult GpuLimitsAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t subgroupSize,
    int64_t sharedMemoryBytes, int64_t maxWorkgroupInvocations,
    ArrayRef<int64_t> maxWorkgroupSize, int64_t minStorageBufferOffsetAlignment,
    int64_t maxPushConstantsBytes, llvm::APFloat timestampPeriod) {
  if (&timestampPeriod.getSemantics() != &llvm::APFloat::IEEEdouble())
    return emitError() << "gpu_limits timestamp_period_ns must be an f64";
  double timestampPeriodNs = timestampPeriod.convertToDouble();
  if (maxWorkgroupSize.size() != 3)
    return emitError() << "gpu_limits max_workgroup_size needs three sizes "
                          "[x, y, z], got "
                       << maxWorkgroupSize.size();
  auto checkRange = [&](StringRef key, int64_t v,
                        uint64_t max) -> LogicalResult {
    if (v < 0 || uint64_t(v) > max)
      return emitError() << "gpu_limits " << key << " " << v
                         << " is out of range [0, " << max << "]";
    return success();
  };
  if (failed(checkRange("subgroup_size", subgroupSize,
                        ::fuel::plan::kMaxSubgroupSize)) ||
      failed(checkRange("shared_memory_bytes", sharedMemoryBytes,
                        ::fuel::plan::kMaxSharedMemoryBytes)) ||
      failed(checkRange("max_workgroup_invocations", maxWorkgroupInvocations,
                        ::fuel::plan::kMaxWorkgroupInvocations)) ||
      failed(checkRange("min_storage_buffer_offset_alignment",
                        minStorageBufferOffsetAlignment,
                        ::fuel::plan::kMaxStorageBufferOffsetAlignment)) ||
      failed(checkRange("max_push_constants_bytes", maxPushConstantsBytes,
                        ::fuel::plan::kMaxPushConstantsBytes)))
    return failure();
  for (int64_t size : maxWorkgroupSize)
    if (failed(checkRange("max_workgroup_size", size,
                          ::fuel::plan::kMaxWorkgroupInvocations)))
      return failure();
  ::fuel::plan::GpuLimits l;
  l.subgroupSize = uint32_t(subgroupSize);
  l.sharedMemoryBytes = uint64_t(sharedMemoryBytes);
  l.maxWorkgroupInvocations = uint32_t(maxWorkgroupInvocations);
  for (int i = 0; i < 3; ++i)
    l.maxWorkgroupSize[i] = uint32_t(maxWorkgroupSize[i]);
  l.minStorageBufferOffsetAlignment = uint64_t(minStorageBufferOffsetAlignment);
  l.maxPushConstantsBytes = uint32_t(maxPushConstantsBytes);
  l.timestampPeriodNs = timestampPeriodNs;
  std::string problem = ::fuel::plan::validateGpuLimits(l);
  if (!problem.empty())
    return emitError() << "invalid gpu_limits: " << problem;
  return success();
}

::fuel::plan::GpuLimits GpuLimitsAttr::toPlan() const {
  ::fuel::plan::GpuLimits l;
  l.subgroupSize = uint32_t(getSubgroupSize());
  l.sharedMemoryBytes = uint64_t(getSharedMemoryBytes());
  l.maxWorkgroupInvocations = uint32_t(getMaxWorkgroupInvocations());
  ArrayRef<int64_t> sizes = getMaxWorkgroupSize();
  for (size_t i = 0; i < 3 && i < sizes.size(); ++i)
    l.maxWorkgroupSize[i] = uint32_t(sizes[i]);
  l.minStorageBufferOffsetAlignment =
      uint64_t(getMinStorageBufferOffsetAlignment());
  l.maxPushConstantsBytes = uint32_t(getMaxPushConstantsBytes());
  l.timestampPeriodNs = getTimestampPeriodNs().convertToDouble();
  return l;
}

GpuLimitsAttr GpuLimitsAttr::fromPlan(MLIRContext *ctx,
                                      const ::fuel::plan::GpuLimits &l) {
  int64_t sizes[3] = {l.maxWorkgroupSize[0], l.maxWorkgroupSize[1],
                      l.maxWorkgroupSize[2]};
  return get(ctx, l.subgroupSize, int64_t(l.sharedMemoryBytes),
             l.maxWorkgroupInvocations, sizes,
             int64_t(l.minStorageBufferOffsetAlignment),
             l.maxPushConstantsBytes, llvm::APFloat(l.timestampPeriodNs));
}

static constexpr StringLiteral kGpuLimitsKeys[] = {
    "subgroup_size",
    "shared_memory_bytes",
    "max_workgroup_invocations",
    "max_workgroup_size",
    "min_storage_buffer_offset_alignment",
    "max_push_constants_bytes",
    "timestamp_period_ns"};

Attribute GpuLimitsAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t subgroup = 0, shared = 0, invocations = 0, alignment = 0, push = 0;
  SmallVector<int64_t, 3> sizes = {0, 0, 0};
  double period = 0;
  SmallVector<StringRef> keys(std::begin(kGpuLimitsKeys),
                              std::end(kGpuLimitsKeys));
  FieldListParser fields(parser, "gpu_limits", keys);
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (fields.parse([&](StringRef key) -> ParseResult {
          if (key == "subgroup_size")
            return parseEqInt(parser, subgroup);
          if (key == "shared_memory_bytes")
            return parseEqInt(parser, shared);
          if (key == "max_workgroup_invocations")
            return parseEqInt(parser, invocations);
          if (key == "min_storage_buffer_offset_alignment")
            return parseEqInt(parser, alignment);
          if (key == "max_push_constants_bytes")
            return parseEqInt(parser, push);
          if (parser.parseEqual())
            return failure();
          if (key == "timestamp_period_ns")
            return parser.parseFloat(period);
          sizes.clear();
          return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                                [&]() -> ParseResult {
                                                  int64_t v;
                                                  if (parser.parseInteger(v))
                                                    return failure();
                                                  sizes.push_back(v);
                                                  return success();
                                                });
        }) ||
        parser.parseGreater())
      return {};
  }
  return GpuLimitsAttr::getChecked([&] { return parser.emitError(loc); },
                                   parser.getContext(), subgroup, shared,
                                   invocations, ArrayRef<int64_t>(sizes),
                                   alignment, push, llvm::APFloat(period));
}

void GpuLimitsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  bool first = true;
  auto field = [&](StringRef key) -> AsmPrinter & {
    printer << (first ? "" : ", ") << key << " = ";
    first = false;
    return printer;
  };
  // Unknown (0) figures are left out.
  if (getSubgroupSize())
    field("subgroup_size") << getSubgroupSize();
  if (getSharedMemoryBytes())
    field("shared_memory_bytes") << getSharedMemoryBytes();
  if (getMaxWorkgroupInvocations())
    field("max_workgroup_invocations") << getMaxWorkgroupInvocations();
  if (llvm::any_of(getMaxWorkgroupSize(), [](int64_t v) { return v != 0; })) {
    field("max_workgroup_size") << '[';
    llvm::interleaveComma(getMaxWorkgroupSize(), printer);
    printer << ']';
  }
  if (getMinStorageBufferOffsetAlignment())
    field("min_storage_buffer_offset_alignment")
        << getMinStorageBufferOffsetAlignment();
  if (getMaxPushConstantsBytes())
    field("max_push_constants_bytes") << getMaxPushConstantsBytes();
  if (!getTimestampPeriodNs().isZero()) {
    field("timestamp_period_ns");
    printer.printFloat(getTimestampPeriodNs());
  }
  printer << '>';
}

LogicalResult LinkAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               DeviceAttr from, DeviceAttr to,
                               int64_t bandwidth, int64_t latencyNs,
                               PathClass pathClass) {
  if (!from || !to)
    return emitError() << "link needs two devices";
  if (from == to)
    return emitError() << "link from '" << from.str() << "' to itself";
  if (bandwidth <= 0)
    return emitError() << "link '" << from.str() << "' -> '" << to.str()
                       << "' needs a positive bandwidth";
  if (latencyNs < 0)
    return emitError() << "link '" << from.str() << "' -> '" << to.str()
                       << "' has a negative latency";
  return success();
}

Attribute DeviceInfoAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  std::string name, cpuTarget, cpuFeatures, computeCapability, driver;
  bool cpuType = false;
  DictionaryAttr peak = DictionaryAttr::get(ctx);
  FloatAttr bytesPerNs;
  int64_t dispatchNs = 0;
  uint64_t memory = 0, alignment = 64;
  FieldListParser fields(parser, "device_info",
                         {"name", "cpu_type", "peak", "bytes_per_ns",
                          "dispatch_ns", "memory", "alignment", "cpu_target",
                          "cpu_features", "limits", "compute_capability",
                          "driver"});
  GpuLimitsAttr limits;
  if (parser.parseLess())
    return {};
  FailureOr<DeviceAttr> device = DeviceAttr::parseBare(parser);
  if (failed(device) ||
      fields.parseAfterComma([&](StringRef key) -> ParseResult {
        if (key == "cpu_type") {
          cpuType = true;
          return success();
        }
        if (key == "dispatch_ns")
          return parseEqInt(parser, dispatchNs);
        // Unsigned figures, held in the int64_t parameters bit for bit.
        if (key == "memory")
          return parseEqUInt(parser, memory);
        if (key == "alignment")
          return parseEqUInt(parser, alignment);
        if (parser.parseEqual())
          return failure();
        if (key == "name")
          return parser.parseString(&name);
        if (key == "cpu_target")
          return parser.parseString(&cpuTarget);
        if (key == "cpu_features")
          return parser.parseString(&cpuFeatures);
        if (key == "compute_capability")
          return parser.parseString(&computeCapability);
        if (key == "driver")
          return parser.parseString(&driver);
        if (key == "limits") {
          limits = dyn_cast_or_null<GpuLimitsAttr>(
              GpuLimitsAttr::parse(parser, Type()));
          return failure(!limits);
        }
        if (key == "peak")
          return parser.parseAttribute(peak);
        double v;
        if (parser.parseFloat(v))
          return failure();
        bytesPerNs = getF64(ctx, v);
        return success();
      }) ||
      parser.parseGreater())
    return {};
  return DeviceInfoAttr::getChecked(
      [&] { return parser.emitError(loc); }, ctx, *device, StringRef(name),
      cpuType, peak, bytesPerNs, dispatchNs, int64_t(memory),
      int64_t(alignment), StringRef(cpuTarget), StringRef(cpuFeatures), limits,
      StringRef(computeCapability), StringRef(driver));
}

void DeviceInfoAttr::print(AsmPrinter &printer) const {
  printer << '<';
  getDevice().printBare(printer);
  if (!getName().empty()) {
    printer << ", name = ";
    printer.printString(getName());
  }
  if (getCpuType())
    printer << ", cpu_type";
  // Rates print without their (always f64) type: `peak = {f32 = 3.2e+01}`.
  printer << ", peak = {";
  llvm::interleaveComma(getPeak(), printer, [&](NamedAttribute entry) {
    printer.printKeywordOrString(entry.getName().getValue());
    printer << " = ";
    printFloatLiteral(printer, entry.getValue());
  });
  printer << '}';
  if (FloatAttr bw = getBytesPerNs()) {
    printer << ", bytes_per_ns = ";
    printFloatLiteral(printer, bw);
  }
  printer << ", dispatch_ns = " << getDispatchNs()
          << ", memory = " << uint64_t(getMemory())
          << ", alignment = " << uint64_t(getAlignment());
  if (!getCpuTarget().empty()) {
    printer << ", cpu_target = ";
    printer.printString(getCpuTarget());
  }
  if (!getCpuFeatures().empty()) {
    printer << ", cpu_features = ";
    printer.printString(getCpuFeatures());
  }
  if (GpuLimitsAttr limits = getLimits()) {
    printer << ", limits = ";
    limits.print(printer);
  }
  if (!getComputeCapability().empty()) {
    printer << ", compute_capability = ";
    printer.printString(getComputeCapability());
  }
  if (!getDriver().empty()) {
    printer << ", driver = ";
    printer.printString(getDriver());
  }
  printer << '>';
}

Attribute LinkAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t bandwidth = 0, latency = 0;
  PathClass pathClass = PathClass::device_copy;
  FieldListParser fields(parser, "link", {"bandwidth", "latency_ns", "class"});
  if (parser.parseLess())
    return {};
  FailureOr<DeviceAttr> from = DeviceAttr::parseBare(parser);
  if (failed(from) || parser.parseArrow())
    return {};
  FailureOr<DeviceAttr> to = DeviceAttr::parseBare(parser);
  if (failed(to) || fields.parseAfterComma([&](StringRef key) -> ParseResult {
        if (key == "bandwidth")
          return parseEqInt(parser, bandwidth);
        if (key == "latency_ns")
          return parseEqInt(parser, latency);
        SMLoc classLoc = parser.getCurrentLocation();
        std::string name;
        if (parser.parseEqual() || parser.parseKeywordOrString(&name))
          return failure();
        std::optional<PathClass> parsed = symbolizePathClass(name);
        if (!parsed)
          return parser.emitError(classLoc)
                 << "unknown path class '" << name
                 << "'; expected 'peer', 'shared-memory' or 'device-copy'";
        pathClass = *parsed;
        return success();
      }) ||
      parser.parseGreater() ||
      fields.require(loc, {"bandwidth", "latency_ns", "class"}))
    return {};
  return LinkAttr::getChecked([&] { return parser.emitError(loc); },
                              parser.getContext(), *from, *to, bandwidth,
                              latency, pathClass);
}

void LinkAttr::print(AsmPrinter &printer) const {
  printer << '<';
  getFrom().printBare(printer);
  printer << " -> ";
  getTo().printBare(printer);
  printer << ", bandwidth = " << getBandwidth()
          << ", latency_ns = " << getLatencyNs() << ", class = ";
  printer.printKeywordOrString(stringifyPathClass(getPathClass()));
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TopologyAttr
//===----------------------------------------------------------------------===//

/// Converts verified device and link records to the planner's struct.
static ::fuel::plan::Topology
buildPlanTopology(ArrayRef<DeviceInfoAttr> devices, ArrayRef<LinkAttr> links) {
  ::fuel::plan::Topology topology;
  for (DeviceInfoAttr info : devices) {
    ::fuel::plan::DeviceInfo d;
    d.device = toPlan(info.getDevice());
    d.name = info.getName().str();
    d.cpuType = info.getCpuType();
    for (NamedAttribute entry : info.getPeak())
      d.peakFlopsPerNs[entry.getName().str()] =
          cast<FloatAttr>(entry.getValue()).getValueAsDouble();
    if (FloatAttr bw = info.getBytesPerNs())
      d.bytesPerNs = bw.getValueAsDouble();
    d.dispatchOverheadNs = info.getDispatchNs();
    d.memoryBytes = uint64_t(info.getMemory());
    d.alignment = uint64_t(info.getAlignment());
    if (!info.getCpuTarget().empty())
      d.cpuTarget = ::fuel::plan::CpuTarget{info.getCpuTarget().str(),
                                            info.getCpuFeatures().str()};
    if (GpuLimitsAttr limits = info.getLimits())
      d.gpuLimits = limits.toPlan();
    if (!info.getComputeCapability().empty())
      d.computeCapability =
          ::fuel::plan::parseComputeCapability(info.getComputeCapability());
    d.driver = info.getDriver().str();
    topology.devices.push_back(std::move(d));
  }
  for (LinkAttr link : links) {
    ::fuel::plan::Link l;
    l.from = toPlan(link.getFrom());
    l.to = toPlan(link.getTo());
    l.bandwidthBytesPerSec = link.getBandwidth();
    l.latencyNs = link.getLatencyNs();
    switch (link.getPathClass()) {
    case PathClass::peer:
      l.pathClass = ::fuel::plan::PathClass::Peer;
      break;
    case PathClass::shared_memory:
      l.pathClass = ::fuel::plan::PathClass::SharedMemory;
      break;
    case PathClass::device_copy:
      l.pathClass = ::fuel::plan::PathClass::DeviceCopy;
      break;
    }
    topology.links.push_back(l);
  }
  return topology;
}

LogicalResult TopologyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<DeviceInfoAttr> devices,
                                   ArrayRef<LinkAttr> links, uint64_t hash) {
  // Each record is checked by its own verifier (records built with the
  // unchecked `get` are re-checked here); the whole by the planner's rules.
  for (DeviceInfoAttr d : devices)
    if (!d ||
        failed(DeviceInfoAttr::verify(
            emitError, d.getDevice(), d.getName(), d.getCpuType(), d.getPeak(),
            d.getBytesPerNs(), d.getDispatchNs(), d.getMemory(),
            d.getAlignment(), d.getCpuTarget(), d.getCpuFeatures(),
            d.getLimits(), d.getComputeCapability(), d.getDriver())))
      return d ? failure() : emitError() << "topology device is null";
  for (LinkAttr l : links)
    if (!l || failed(LinkAttr::verify(emitError, l.getFrom(), l.getTo(),
                                      l.getBandwidth(), l.getLatencyNs(),
                                      l.getPathClass())))
      return l ? failure() : emitError() << "topology link is null";
  ::fuel::plan::Topology topology = buildPlanTopology(devices, links);
  std::string problem = topology.validate();
  if (!problem.empty())
    return emitError() << "invalid topology: " << problem;
  uint64_t expected = topology.contentHash();
  if (hash != expected)
    return emitError() << "topology hash " << ::fuel::plan::formatHash(hash)
                       << " does not match its content (expected "
                       << ::fuel::plan::formatHash(expected) << ")";
  return success();
}

std::optional<std::pair<std::string, std::string>>
mlir::fuel::getCpuTarget(ModuleOp module) {
  auto topology =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  if (!topology)
    return std::nullopt;
  for (DeviceInfoAttr info : topology.getDevices())
    if (toPlan(info.getDevice()).isHost() && !info.getCpuTarget().empty())
      return std::make_pair(info.getCpuTarget().str(),
                            info.getCpuFeatures().str());
  return std::nullopt;
}

std::optional<::fuel::plan::GpuLimits>
mlir::fuel::getGpuLimits(ModuleOp module, const ::fuel::Device &device) {
  auto topology =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  if (!topology)
    return std::nullopt;
  for (DeviceInfoAttr info : topology.getDevices())
    if (toPlan(info.getDevice()) == device)
      if (GpuLimitsAttr limits = info.getLimits())
        return limits.toPlan();
  return std::nullopt;
}

::fuel::plan::ComputeCapability
mlir::fuel::getComputeCapability(ModuleOp module,
                                 const ::fuel::Device &device) {
  auto topology =
      module->getAttrOfType<TopologyAttr>(FuelDialect::kTopologyAttrName);
  if (topology)
    for (DeviceInfoAttr info : topology.getDevices())
      if (toPlan(info.getDevice()) == device &&
          !info.getComputeCapability().empty())
        if (auto cc = ::fuel::plan::parseComputeCapability(
                info.getComputeCapability()))
          return *cc;
  return ::fuel::plan::kDefaultComputeCapability;
}

::fuel::plan::Topology TopologyAttr::toPlan() const {
  return buildPlanTopology(getDevices(), getLinks());
}

TopologyAttr TopologyAttr::fromPlan(MLIRContext *ctx,
                                    const ::fuel::plan::Topology &input) {
  ::fuel::plan::Topology topology = input;
  topology.canonicalize();
  SmallVector<DeviceInfoAttr> devices;
  for (const ::fuel::plan::DeviceInfo &d : topology.devices) {
    SmallVector<NamedAttribute> peak;
    for (const auto &[dtype, rate] : d.peakFlopsPerNs)
      peak.emplace_back(StringAttr::get(ctx, dtype), getF64(ctx, rate));
    devices.push_back(DeviceInfoAttr::get(
        ctx, mlir::fuel::fromPlan(ctx, d.device), d.name, d.cpuType,
        DictionaryAttr::get(ctx, peak),
        d.bytesPerNs ? getF64(ctx, *d.bytesPerNs) : FloatAttr(),
        d.dispatchOverheadNs, int64_t(d.memoryBytes), int64_t(d.alignment),
        d.cpuTarget ? StringRef(d.cpuTarget->cpu) : StringRef(),
        d.cpuTarget ? StringRef(d.cpuTarget->features) : StringRef(),
        d.gpuLimits ? GpuLimitsAttr::fromPlan(ctx, *d.gpuLimits)
                    : GpuLimitsAttr(),
        d.computeCapability ? d.computeCapability->str() : std::string(),
        d.driver));
  }
  SmallVector<LinkAttr> links;
  for (const ::fuel::plan::Link &l : topology.links) {
    PathClass pathClass = PathClass::device_copy;
    if (l.pathClass == ::fuel::plan::PathClass::Peer)
      pathClass = PathClass::peer;
    else if (l.pathClass == ::fuel::plan::PathClass::SharedMemory)
      pathClass = PathClass::shared_memory;
    links.push_back(LinkAttr::get(
        ctx, mlir::fuel::fromPlan(ctx, l.from), mlir::fuel::fromPlan(ctx, l.to),
        l.bandwidthBytesPerSec, l.latencyNs, pathClass));
  }
  return get(ctx, devices, links, topology.contentHash());
}

DeviceInfoAttr TopologyAttr::lookup(DeviceAttr device) const {
  for (DeviceInfoAttr info : getDevices())
    if (info.getDevice() == device)
      return info;
  return {};
}

Attribute TopologyAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::optional<uint64_t> hash;
  SmallVector<DeviceInfoAttr> devices;
  SmallVector<LinkAttr> links;
  FieldListParser fields(parser, "topology", {"hash", "devices", "links"});
  auto parseList = [&](auto &out, auto parseOne) {
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          auto attr = llvm::dyn_cast_or_null<
              typename std::decay_t<decltype(out)>::value_type>(
              parseOne(parser, Type()));
          if (!attr)
            return failure();
          out.push_back(attr);
          return success();
        });
  };
  if (parser.parseLess() || fields.parse([&](StringRef key) -> ParseResult {
        if (key == "hash") {
          uint64_t h;
          if (parseEqUInt(parser, h))
            return failure();
          hash = h;
          return success();
        }
        if (parser.parseEqual())
          return failure();
        if (key == "devices")
          return parseList(devices, &DeviceInfoAttr::parse);
        return parseList(links, &LinkAttr::parse);
      }) ||
      parser.parseGreater() || fields.require(loc, {"devices"}))
    return {};
  auto emitError = [&] { return parser.emitError(loc); };
  if (!hash) {
    // No hash written: compute it. Records are already verified; a topology
    // that breaks the planner's rules is reported by getChecked below.
    hash = buildPlanTopology(devices, links).contentHash();
  }
  return TopologyAttr::getChecked(emitError, parser.getContext(),
                                  ArrayRef<DeviceInfoAttr>(devices),
                                  ArrayRef<LinkAttr>(links), *hash);
}

void TopologyAttr::print(AsmPrinter &printer) const {
  printer << "<hash = ";
  printer << ::fuel::plan::formatHash(getHash());
  printer << ", devices = [";
  llvm::interleaveComma(getDevices(), printer,
                        [&](DeviceInfoAttr d) { d.print(printer); });
  printer << "], links = [";
  llvm::interleaveComma(getLinks(), printer,
                        [&](LinkAttr l) { l.print(printer); });
  printer << "]>";
}
