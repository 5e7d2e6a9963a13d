//===- TopologyFile.cpp - Topology files and the default topology ---------===//
//
// Reads and writes the version-1 topology file format (docs/TOPOLOGY.md) and
// builds the built-in default topology (SEMANTICS §9). The reader is strict:
// unknown keys, out-of-range figures and structural mistakes are errors that
// name the file, the JSON path and what was expected.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/TopologyFile.h"

#include "fuel/Target/ElementType.h"
#include "fuel/Target/JSONReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <map>

namespace fuel::target {

using plan::Device;
using plan::DeviceInfo;
using plan::DeviceKind;
using plan::Link;
using plan::PathClass;
using plan::Topology;

static constexpr llvm::StringLiteral kTopKeys[] = {"version", "devices",
                                                   "links"};
static constexpr llvm::StringLiteral kDeviceKeys[] = {"device",
                                                      "name",
                                                      "cpu_type",
                                                      "peak_flops_per_ns",
                                                      "bytes_per_ns",
                                                      "dispatch_overhead_ns",
                                                      "memory_bytes",
                                                      "alignment",
                                                      "cpu_target",
                                                      "limits",
                                                      "compute_capability",
                                                      "driver"};
static constexpr llvm::StringLiteral kLimitsKeys[] = {
    "subgroup_size",
    "shared_memory_bytes",
    "max_workgroup_invocations",
    "max_workgroup_size",
    "min_storage_buffer_offset_alignment",
    "max_push_constants_bytes",
    "timestamp_period_ns"};
static constexpr llvm::StringLiteral kCpuTargetKeys[] = {"cpu", "features"};
static constexpr llvm::StringLiteral kLinkKeys[] = {
    "from", "to", "path_class", "bandwidth_bytes_per_s", "latency_ns"};

static constexpr double kMaxDouble = std::numeric_limits<double>::max();
static constexpr const char kPositiveRate[] = "a positive, finite number";

namespace {
/// Parses one topology document. Remembers where each device was declared so
/// duplicate and unknown-device errors can point back at it.
class TopologyParser {
public:
  explicit TopologyParser(JSONReader &reader) : r(reader) {}

  bool parse(const llvm::json::Value &root, Topology &out);

private:
  bool parseDeviceName(const llvm::json::Value &value, llvm::StringRef path,
                       Device &out);
  bool parseDevice(const llvm::json::Value &value, llvm::StringRef path,
                   DeviceInfo &out);
  bool parseLimits(const llvm::json::Value &value, llvm::StringRef path,
                   plan::GpuLimits &out);
  bool parseLimit(const llvm::json::Object &o, llvm::StringRef path,
                  llvm::StringRef key, uint64_t max, bool powerOfTwo,
                  uint32_t multipleOf, uint64_t &out);
  bool parseLink(const llvm::json::Value &value, llvm::StringRef path,
                 Link &out);
  bool knownDevice(const Device &d, llvm::StringRef path, llvm::StringRef role);

  JSONReader &r;
  /// Device -> the JSON path of its declaration.
  std::map<Device, std::string> declared;
};
} // namespace

bool TopologyParser::parseDeviceName(const llvm::json::Value &value,
                                     llvm::StringRef path, Device &out) {
  std::string text;
  if (!r.readString(value, path, text))
    return false;
  if (std::optional<Device> d = Device::parse(text)) {
    out = *d;
    return true;
  }
  llvm::StringRef kind = llvm::StringRef(text).split(':').first;
  if (!plan::symbolizeDeviceKind(kind.str()))
    return r.fail(path, "unknown device kind '" + kind + "' in \"" + text +
                            "\" (expected cpu, cuda:N or vulkan:N)");
  return r.fail(path, "malformed device \"" + text +
                          "\" (expected cpu, cuda:N or vulkan:N)");
}

bool TopologyParser::parseDevice(const llvm::json::Value &value,
                                 llvm::StringRef path, DeviceInfo &out) {
  const llvm::json::Object *o = r.object(value, path);
  if (!o || !r.checkKeys(*o, path, kDeviceKeys))
    return false;
  const llvm::json::Value *name = r.required(*o, path, "device");
  if (!name || !parseDeviceName(*name, jsonField(path, "device"), out.device))
    return false;

  if (const llvm::json::Value *v = o->get("name"))
    if (!r.readString(*v, jsonField(path, "name"), out.name))
      return false;
  if (const llvm::json::Value *v = o->get("driver"))
    if (!r.readString(*v, jsonField(path, "driver"), out.driver))
      return false;

  bool isCpu = out.device.isHost();
  out.cpuType = isCpu;
  if (const llvm::json::Value *v = o->get("cpu_type")) {
    std::string p = jsonField(path, "cpu_type");
    if (!r.readBool(*v, p, out.cpuType))
      return false;
    if (isCpu && !out.cpuType)
      return r.fail(p, "the host 'cpu' is always CPU-type (expected true)");
    if (out.device.kind == DeviceKind::Cuda && out.cpuType)
      return r.fail(p, "a CUDA device is never CPU-type (expected false)");
  }

  if (const llvm::json::Value *v = o->get("peak_flops_per_ns")) {
    std::string p = jsonField(path, "peak_flops_per_ns");
    const llvm::json::Object *rates = r.object(*v, p);
    if (!rates || !r.checkKeys(*rates, p, knownElementTypes()))
      return false;
    // Sorted, so the first bad rate reported does not depend on hash order.
    llvm::SmallVector<llvm::StringRef, 8> dtypes;
    for (const auto &kv : *rates)
      dtypes.push_back(kv.first);
    llvm::sort(dtypes);
    for (llvm::StringRef dtype : dtypes) {
      double d = 0;
      if (!r.readDouble(*rates->get(dtype), jsonField(p, dtype), 0.0,
                        /*inclusive=*/false, kMaxDouble, kPositiveRate, d))
        return false;
      out.peakFlopsPerNs[dtype.str()] = d;
    }
  }
  if (const llvm::json::Value *v = o->get("bytes_per_ns")) {
    double d = 0;
    if (!r.readDouble(*v, jsonField(path, "bytes_per_ns"), 0.0, false,
                      kMaxDouble, kPositiveRate, d))
      return false;
    out.bytesPerNs = d;
  }
  if (const llvm::json::Value *v = o->get("dispatch_overhead_ns"))
    if (!r.readInt(*v, jsonField(path, "dispatch_overhead_ns"), 0,
                   "a non-negative integer (ns)", out.dispatchOverheadNs))
      return false;
  if (const llvm::json::Value *v = o->get("memory_bytes"))
    if (!r.readUInt(*v, jsonField(path, "memory_bytes"),
                    "a non-negative integer (bytes)", out.memoryBytes))
      return false;
  if (const llvm::json::Value *v = o->get("alignment")) {
    std::string p = jsonField(path, "alignment");
    if (!r.readUInt(*v, p, "a power of two (bytes)", out.alignment))
      return false;
    if (!llvm::isPowerOf2_64(out.alignment))
      return r.fail(p,
                    "expected a power of two (bytes), got " + describeJSON(*v));
  }
  if (const llvm::json::Value *v = o->get("cpu_target")) {
    std::string p = jsonField(path, "cpu_target");
    if (!isCpu)
      return r.fail(p, "only the host 'cpu' has a cpu_target");
    plan::CpuTarget target;
    if (v->kind() == llvm::json::Value::String) {
      if (!r.readString(*v, p, target.cpu))
        return false;
    } else {
      const llvm::json::Object *t = v->getAsObject();
      if (!t)
        return r.fail(p, "expected an LLVM CPU name or an object {\"cpu\": "
                         "..., \"features\": ...}, got " +
                             describeJSON(*v));
      if (!r.checkKeys(*t, p, kCpuTargetKeys))
        return false;
      const llvm::json::Value *cpu = r.required(*t, p, "cpu");
      if (!cpu || !r.readString(*cpu, jsonField(p, "cpu"), target.cpu))
        return false;
      if (const llvm::json::Value *f = t->get("features"))
        if (!r.readString(*f, jsonField(p, "features"), target.features))
          return false;
    }
    std::string problem = plan::validateCpuTarget(target);
    if (!problem.empty())
      return r.fail(p, "expected a valid CPU target, got " + problem);
    out.cpuTarget = std::move(target);
  }
  if (const llvm::json::Value *v = o->get("limits")) {
    std::string p = jsonField(path, "limits");
    if (isCpu)
      return r.fail(p, "the host 'cpu' has no GPU limits (only cuda:N and "
                       "vulkan:N devices have \"limits\")");
    plan::GpuLimits limits;
    if (!parseLimits(*v, p, limits))
      return false;
    out.gpuLimits = limits;
  }
  if (const llvm::json::Value *v = o->get("compute_capability")) {
    std::string p = jsonField(path, "compute_capability");
    if (out.device.kind != DeviceKind::Cuda)
      return r.fail(p, "only CUDA devices (cuda:N) have a compute_capability");
    std::optional<llvm::StringRef> text = v->getAsString();
    std::optional<plan::ComputeCapability> cc;
    if (text)
      cc = plan::parseComputeCapability(*text);
    if (!cc)
      return r.fail(p, "expected a compute capability \"major.minor\" from "
                       "\"3.0\" to \"99.9\" (e.g. \"9.0\"), got " +
                           describeJSON(*v));
    out.computeCapability = *cc;
  }
  return true;
}

bool TopologyParser::parseLimit(const llvm::json::Object &o,
                                llvm::StringRef path, llvm::StringRef key,
                                uint64_t max, bool powerOfTwo,
                                uint32_t multipleOf, uint64_t &out) {
  const llvm::json::Value *v = o.get(key);
  if (!v)
    return true;
  std::string p = jsonField(path, key);
  std::string expectation =
      (powerOfTwo ? "a power of two from 1 to " : "an integer from 1 to ") +
      std::to_string(max);
  if (multipleOf > 1)
    expectation += ", a multiple of " + std::to_string(multipleOf);
  uint64_t value = 0;
  if (!r.readUInt(*v, p, expectation, value))
    return false;
  if (value == 0 || value > max ||
      (powerOfTwo && !llvm::isPowerOf2_64(value)) ||
      (multipleOf > 1 && value % multipleOf != 0))
    return r.fail(p, "expected " + expectation + ", got " + describeJSON(*v));
  out = value;
  return true;
}

bool TopologyParser::parseLimits(const llvm::json::Value &value,
                                 llvm::StringRef path, plan::GpuLimits &out) {
  const llvm::json::Object *o = r.object(value, path);
  if (!o || !r.checkKeys(*o, path, kLimitsKeys))
    return false;
  uint64_t v = 0;
  auto narrow = [](uint64_t x) { return static_cast<uint32_t>(x); };
  if (!parseLimit(*o, path, "subgroup_size", plan::kMaxSubgroupSize, true, 1,
                  v))
    return false;
  out.subgroupSize = narrow(v);
  v = 0;
  if (!parseLimit(*o, path, "shared_memory_bytes", plan::kMaxSharedMemoryBytes,
                  false, 1, out.sharedMemoryBytes))
    return false;
  if (!parseLimit(*o, path, "max_workgroup_invocations",
                  plan::kMaxWorkgroupInvocations, false, 1, v))
    return false;
  out.maxWorkgroupInvocations = narrow(v);
  v = 0;
  if (const llvm::json::Value *sizes = o->get("max_workgroup_size")) {
    std::string p = jsonField(path, "max_workgroup_size");
    const llvm::json::Array *a = r.array(*sizes, p);
    if (!a)
      return false;
    if (a->size() != 3)
      return r.fail(p, "expected three sizes [x, y, z], got " +
                           std::to_string(a->size()));
    std::string expectation = "an integer from 1 to " +
                              std::to_string(plan::kMaxWorkgroupInvocations);
    for (size_t i = 0; i < 3; ++i) {
      std::string pi = jsonIndex(p, i);
      uint64_t size = 0;
      if (!r.readUInt((*a)[i], pi, expectation, size))
        return false;
      if (size == 0 || size > plan::kMaxWorkgroupInvocations)
        return r.fail(pi, "expected " + expectation + ", got " +
                              describeJSON((*a)[i]));
      out.maxWorkgroupSize[i] = narrow(size);
    }
  }
  if (!parseLimit(*o, path, "min_storage_buffer_offset_alignment",
                  plan::kMaxStorageBufferOffsetAlignment, true, 1,
                  out.minStorageBufferOffsetAlignment))
    return false;
  if (!parseLimit(*o, path, "max_push_constants_bytes",
                  plan::kMaxPushConstantsBytes, false, 4, v))
    return false;
  out.maxPushConstantsBytes = narrow(v);
  if (const llvm::json::Value *t = o->get("timestamp_period_ns"))
    if (!r.readDouble(*t, jsonField(path, "timestamp_period_ns"), 0.0,
                      /*inclusive=*/false, plan::kMaxTimestampPeriodNs,
                      "a positive number of ns up to 1e9",
                      out.timestampPeriodNs))
      return false;
  // What relates two figures (a workgroup dimension within the invocations).
  std::string problem = plan::validateGpuLimits(out);
  if (!problem.empty())
    return r.fail(path, "expected consistent limits, got " + problem);
  return true;
}

bool TopologyParser::knownDevice(const Device &d, llvm::StringRef path,
                                 llvm::StringRef role) {
  if (declared.count(d))
    return true;
  std::string names;
  for (const auto &kv : declared)
    names += (names.empty() ? "" : ", ") + kv.first.str();
  return r.fail(path, "link " + role + " unknown device '" + d.str() +
                          "' (the devices are " + names + ")");
}

bool TopologyParser::parseLink(const llvm::json::Value &value,
                               llvm::StringRef path, Link &out) {
  const llvm::json::Object *o = r.object(value, path);
  if (!o || !r.checkKeys(*o, path, kLinkKeys))
    return false;
  const llvm::json::Value *from = r.required(*o, path, "from");
  if (!from || !parseDeviceName(*from, jsonField(path, "from"), out.from) ||
      !knownDevice(out.from, jsonField(path, "from"), "from"))
    return false;
  const llvm::json::Value *to = r.required(*o, path, "to");
  if (!to || !parseDeviceName(*to, jsonField(path, "to"), out.to) ||
      !knownDevice(out.to, jsonField(path, "to"), "to"))
    return false;
  if (out.from == out.to)
    return r.fail(path, "a link from '" + out.from.str() +
                            "' to itself (expected two distinct devices)");

  const llvm::json::Value *cls = r.required(*o, path, "path_class");
  std::string clsText;
  if (!cls || !r.readString(*cls, jsonField(path, "path_class"), clsText))
    return false;
  std::optional<PathClass> pc = plan::symbolizePathClass(clsText);
  if (!pc)
    return r.fail(jsonField(path, "path_class"),
                  "unknown path class '" + clsText +
                      "' (expected peer, shared-memory or device-copy)");
  out.pathClass = *pc;

  // A link that names only its class takes the class's defaults (SEMANTICS
  // §5).
  plan::PathDefaults defaults = plan::pathClassDefaults(*pc);
  out.bandwidthBytesPerSec = defaults.bandwidthBytesPerSec;
  out.latencyNs = defaults.latencyNs;
  if (const llvm::json::Value *v = o->get("bandwidth_bytes_per_s"))
    if (!r.readInt(*v, jsonField(path, "bandwidth_bytes_per_s"), 1,
                   "a positive integer (bytes per second)",
                   out.bandwidthBytesPerSec))
      return false;
  if (const llvm::json::Value *v = o->get("latency_ns"))
    if (!r.readInt(*v, jsonField(path, "latency_ns"), 0,
                   "a non-negative integer (ns)", out.latencyNs))
      return false;
  return true;
}

bool TopologyParser::parse(const llvm::json::Value &root, Topology &out) {
  const llvm::json::Object *top = r.object(root, "$");
  if (!top || !r.checkKeys(*top, "$", kTopKeys))
    return false;

  const llvm::json::Value *version = top->get("version");
  if (!version)
    return r.fail("$", "missing key \"version\" (expected " +
                           llvm::Twine(kTopologyFormatVersion) + ")");
  std::optional<int64_t> v = jsonInt64(*version);
  if (!v)
    return r.fail("$.version",
                  "expected an integer version, got " + describeJSON(*version));
  if (*v != kTopologyFormatVersion)
    return r.fail("$.version", "unsupported topology version " +
                                   llvm::Twine(*v) + " (this fuel reads " +
                                   llvm::Twine(kTopologyFormatVersion) + ")");

  const llvm::json::Value *devicesValue = r.required(*top, "$", "devices");
  if (!devicesValue)
    return false;
  const llvm::json::Array *devices = r.array(*devicesValue, "$.devices");
  if (!devices)
    return false;
  for (size_t i = 0; i < devices->size(); ++i) {
    std::string path = jsonIndex("$.devices", i);
    DeviceInfo info;
    if (!parseDevice((*devices)[i], path, info))
      return false;
    auto [it, inserted] = declared.try_emplace(info.device, path);
    if (!inserted) {
      std::string p = jsonField(path, "device");
      if (info.device.isHost())
        return r.fail(p, "a second 'cpu' device (the first is " + it->second +
                             "); expected exactly one host");
      return r.fail(p, "duplicate device '" + info.device.str() +
                           "' (already declared at " + it->second + ")");
    }
    out.devices.push_back(std::move(info));
  }
  if (!declared.count(Device::cpu()))
    return r.fail("$.devices",
                  "no 'cpu' device; expected exactly one host device \"cpu\"");

  if (const llvm::json::Value *linksValue = top->get("links")) {
    const llvm::json::Array *links = r.array(*linksValue, "$.links");
    if (!links)
      return false;
    std::map<std::pair<Device, Device>, std::string> seen;
    for (size_t i = 0; i < links->size(); ++i) {
      std::string path = jsonIndex("$.links", i);
      Link link;
      if (!parseLink((*links)[i], path, link))
        return false;
      auto [it, inserted] = seen.try_emplace({link.from, link.to}, path);
      if (!inserted)
        return r.fail(path, "duplicate link '" + link.from.str() + "' -> '" +
                                link.to.str() + "' (already declared at " +
                                it->second + ")");
      out.links.push_back(link);
    }
  }

  out.canonicalize();
  // Everything validate() checks was already diagnosed with a path; this is
  // the last line of defence should the two ever drift apart.
  std::string problem = out.validate();
  if (!problem.empty())
    return r.fail("$", problem);
  return true;
}

llvm::Expected<Topology> parseTopology(llvm::StringRef text,
                                       llvm::StringRef fileName) {
  JSONReader reader(fileName);
  std::optional<llvm::json::Value> root = reader.parse(text);
  if (!root)
    return reader.takeError();
  Topology topology;
  TopologyParser parser(reader);
  if (!parser.parse(*root, topology))
    return reader.takeError();
  return topology;
}

llvm::Expected<Topology> loadTopologyFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(
        path +
        ": error: cannot read topology file: " + buffer.getError().message());
  return parseTopology((*buffer)->getBuffer(), path);
}

std::string printTopologyJSON(const Topology &input) {
  Topology t = input;
  t.canonicalize();
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream j(os, /*IndentSize=*/2);
  auto rawDouble = [&](llvm::StringRef key, double v) {
    j.attributeBegin(key);
    j.rawValue(formatDouble(v));
    j.attributeEnd();
  };
  j.object([&] {
    j.attribute("version", kTopologyFormatVersion);
    j.attributeArray("devices", [&] {
      for (const DeviceInfo &d : t.devices) {
        j.object([&] {
          j.attribute("device", d.device.str());
          j.attribute("name", d.name);
          j.attribute("cpu_type", d.cpuType);
          j.attributeObject("peak_flops_per_ns", [&] {
            for (const auto &[dtype, rate] : d.peakFlopsPerNs)
              rawDouble(dtype, rate);
          });
          if (d.bytesPerNs)
            rawDouble("bytes_per_ns", *d.bytesPerNs);
          j.attribute("dispatch_overhead_ns", d.dispatchOverheadNs);
          j.attribute("memory_bytes", d.memoryBytes);
          j.attribute("alignment", d.alignment);
          if (d.cpuTarget) {
            if (d.cpuTarget->features.empty())
              j.attribute("cpu_target", d.cpuTarget->cpu);
            else
              j.attributeObject("cpu_target", [&] {
                j.attribute("cpu", d.cpuTarget->cpu);
                j.attribute("features", d.cpuTarget->features);
              });
          }
          if (d.gpuLimits) {
            // Unknown (0) figures are left out: the reader rejects a 0.
            const plan::GpuLimits &l = *d.gpuLimits;
            j.attributeObject("limits", [&] {
              auto opt = [&](llvm::StringRef key, uint64_t v) {
                if (v)
                  j.attribute(key, v);
              };
              opt("subgroup_size", l.subgroupSize);
              opt("shared_memory_bytes", l.sharedMemoryBytes);
              opt("max_workgroup_invocations", l.maxWorkgroupInvocations);
              if (l.maxWorkgroupSize[0])
                j.attributeArray("max_workgroup_size", [&] {
                  for (uint32_t size : l.maxWorkgroupSize)
                    j.value(static_cast<int64_t>(size));
                });
              opt("min_storage_buffer_offset_alignment",
                  l.minStorageBufferOffsetAlignment);
              opt("max_push_constants_bytes", l.maxPushConstantsBytes);
              if (l.timestampPeriodNs > 0)
                rawDouble("timestamp_period_ns", l.timestampPeriodNs);
            });
          }
          if (d.computeCapability)
            j.attribute("compute_capability", d.computeCapability->str());
          if (!d.driver.empty())
            j.attribute("driver", d.driver);
        });
      }
    });
    j.attributeArray("links", [&] {
      for (const Link &l : t.links) {
        j.object([&] {
          j.attribute("from", l.from.str());
          j.attribute("to", l.to.str());
          j.attribute("path_class",
                      std::string(plan::stringifyPathClass(l.pathClass)));
          j.attribute("bandwidth_bytes_per_s", l.bandwidthBytesPerSec);
          j.attribute("latency_ns", l.latencyNs);
        });
      }
    });
  });
  os << "\n";
  return text;
}

bool topologiesEqual(const Topology &a, const Topology &b) {
  Topology x = a, y = b;
  x.canonicalize();
  y.canonicalize();
  if (x.devices.size() != y.devices.size() || x.links.size() != y.links.size())
    return false;
  for (size_t i = 0; i < x.devices.size(); ++i) {
    const DeviceInfo &p = x.devices[i], &q = y.devices[i];
    if (p.device != q.device || p.name != q.name || p.cpuType != q.cpuType ||
        p.peakFlopsPerNs != q.peakFlopsPerNs || p.bytesPerNs != q.bytesPerNs ||
        p.dispatchOverheadNs != q.dispatchOverheadNs ||
        p.memoryBytes != q.memoryBytes || p.alignment != q.alignment ||
        p.cpuTarget != q.cpuTarget || p.gpuLimits != q.gpuLimits ||
        p.computeCapability != q.computeCapability || p.driver != q.driver)
      return false;
  }
  for (size_t i = 0; i < x.links.size(); ++i) {
    const Link &p = x.links[i], &q = y.links[i];
    if (p.from != q.from || p.to != q.to ||
        p.bandwidthBytesPerSec != q.bandwidthBytesPerSec ||
        p.latencyNs != q.latencyNs || p.pathClass != q.pathClass)
      return false;
  }
  return true;
}

Topology defaultTopology() {
  // Fixed figures for a modest host (docs/TOPOLOGY.md): never probed, so a
  // plan made without a topology is the same on every machine.
  DeviceInfo host;
  host.device = Device::cpu();
  host.name = "host (built-in default topology)";
  host.cpuType = true;
  host.peakFlopsPerNs = {{"f32", 32.0}, {"f64", 16.0}};
  host.bytesPerNs = 20.0;
  host.dispatchOverheadNs = 2'000;
  host.memoryBytes = 16ull << 30;
  host.alignment = 64;
  Topology t;
  t.devices.push_back(std::move(host));
  return t;
}

llvm::Expected<Topology> resolveTopology(llvm::StringRef spec) {
  if (spec.empty())
    return defaultTopology();
  if (spec == "probe")
    return probeTopology();
  return loadTopologyFile(spec);
}

} // namespace fuel::target
