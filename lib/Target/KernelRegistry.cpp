//===- KernelRegistry.cpp - The registered kernel variants ----------------===//
//
// Parses and validates the registry data file (kernels/registry.json, format
// in docs/KERNELS.md), computes each record's revision hash (SEMANTICS §1)
// and answers lookups by (op kind, dtypes, backend). Records are sorted by
// kernel id as soon as they are read, so nothing depends on file order.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/KernelRegistry.h"

#include "fuel/Target/ElementType.h"
#include "fuel/Target/JSONReader.h"
#include "fuel/Target/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace fuel::target {

using plan::DeviceKind;
using plan::OpKind;

//===----------------------------------------------------------------------===//
// Vocabulary
//===----------------------------------------------------------------------===//

static constexpr KernelSource kAllSources[] = {
    KernelSource::Generated, KernelSource::OpenBLAS, KernelSource::BLIS,
    KernelSource::CuBLAS};

std::string_view stringifyKernelSource(KernelSource source) {
  switch (source) {
  case KernelSource::Generated:
    return "generated";
  case KernelSource::OpenBLAS:
    return "openblas";
  case KernelSource::BLIS:
    return "blis";
  case KernelSource::CuBLAS:
    return "cublas";
  }
  return "generated";
}

std::optional<KernelSource> symbolizeKernelSource(std::string_view s) {
  for (KernelSource k : kAllSources)
    if (stringifyKernelSource(k) == s)
      return k;
  return std::nullopt;
}

std::string_view scheduleFolder(DeviceKind backend) {
  return backend == DeviceKind::Cpu ? "cpu" : "gpu";
}

std::optional<DeviceKind> libraryBackend(KernelSource source) {
  switch (source) {
  case KernelSource::Generated:
    return std::nullopt;
  case KernelSource::OpenBLAS:
  case KernelSource::BLIS:
    return DeviceKind::Cpu;
  case KernelSource::CuBLAS:
    return DeviceKind::Cuda;
  }
  return std::nullopt;
}

llvm::ArrayRef<KernelSource> allKernelSources() { return kAllSources; }

static std::string knownSourcesList() {
  std::string out;
  for (KernelSource k : kAllSources)
    out += (out.empty() ? "" : ", ") + std::string(stringifyKernelSource(k));
  return out;
}

llvm::Expected<std::vector<KernelSource>>
parseKernelSources(llvm::StringRef text) {
  std::set<KernelSource> set;
  if (text.trim().empty())
    return std::vector<KernelSource>{};
  llvm::SmallVector<llvm::StringRef> names;
  text.split(names, ',');
  for (llvm::StringRef name : names) {
    name = name.trim();
    if (name.empty())
      return llvm::createStringError(
          "empty kernel source name in '" + text.str() +
          "' (expected a comma list of " + knownSourcesList() + ")");
    std::optional<KernelSource> k = symbolizeKernelSource(name.str());
    if (!k)
      return llvm::createStringError("unknown kernel source '" + name.str() +
                                     "' (expected " + knownSourcesList() + ")");
    set.insert(*k);
  }
  return std::vector<KernelSource>(set.begin(), set.end());
}

std::string formatKernelSources(llvm::ArrayRef<KernelSource> sources) {
  std::set<KernelSource> set(sources.begin(), sources.end());
  std::string out;
  for (KernelSource k : set)
    out += (out.empty() ? "" : ",") + std::string(stringifyKernelSource(k));
  return out;
}

static constexpr llvm::StringLiteral kCaps[] = {"strided_input"};

llvm::ArrayRef<llvm::StringLiteral> knownKernelCaps() { return kCaps; }

bool DtypeKey::matches(llvm::ArrayRef<std::string> dtypes) const {
  if (!uniform)
    return llvm::ArrayRef<std::string>(types) == dtypes;
  return !dtypes.empty() && types.size() == 1 &&
         llvm::all_of(dtypes,
                      [&](const std::string &t) { return t == types[0]; });
}

std::string DtypeKey::str() const {
  if (uniform)
    return types.empty() ? std::string() : types[0];
  return "[" + llvm::join(types, ",") + "]";
}

std::string KernelCombination::str() const {
  return "(" + std::string(plan::stringifyDeviceKind(backend)) + ", " +
         std::string(plan::stringifyOpKind(op)) + ", " + dtypes.str() + ")";
}

//===----------------------------------------------------------------------===//
// KernelRecord
//===----------------------------------------------------------------------===//

static std::string hexDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%a", v);
  return buf;
}

std::string KernelRecord::canonicalText() const {
  // One `key=value` line per field in a fixed order; doubles in hexadecimal
  // floating point, so the text (and the hash) is exact.
  std::string out = "fuel-kernel-v1\n";
  auto line = [&](llvm::StringRef key, const std::string &value) {
    out += key.str() + "=" + value + "\n";
  };
  auto optional = [](const auto &v, auto fmt) -> std::string {
    return v ? fmt(*v) : std::string("-");
  };
  line("id", id);
  line("op", std::string(plan::stringifyOpKind(op)));
  line("dtypes", (dtypes.uniform ? "uniform " : "exact ") + dtypes.str());
  line("backend", std::string(plan::stringifyDeviceKind(backend)));
  line("source", std::string(stringifyKernelSource(source)));
  line("caps", llvm::join(caps, ","));
  line("precision.bit_stable", precision.bitStable ? "1" : "0");
  line("precision.max_ulp", optional(precision.maxUlp, [](uint64_t u) {
         return std::to_string(u);
       }));
  line("precision.max_relative", optional(precision.maxRelative, hexDouble));
  line("precision.max_absolute", optional(precision.maxAbsolute, hexDouble));
  line("precision.note", precision.note);
  line("efficiency_compute", hexDouble(efficiencyCompute));
  line("efficiency_memory", hexDouble(efficiencyMemory));
  line("overhead_ns", std::to_string(overheadNs));
  line("workspace_bytes", std::to_string(workspaceBytes));
  line("priority", std::to_string(priority));
  line("cost", costFunction);
  line("lowering", lowering);
  return out;
}

uint64_t KernelRecord::computeRevision() const {
  std::string text = canonicalText();
  text += "schedule=" + schedule + "\n";
  // The file's length first, so the file's bytes cannot be confused with
  // the lines around them. Absent and empty files hash differently.
  if (source == KernelSource::Generated && !scheduleFile.empty())
    text += "schedule_file=" + std::to_string(scheduleFile.size()) + ":" +
            scheduleFile + "\n";
  text += std::string("fuel=") + kFuelVersion + "\n";
  return llvm::xxh3_64bits(llvm::StringRef(text));
}

llvm::Expected<StaticCost> KernelRecord::cost(const CostQuery &query) const {
  return evaluateCost(costFunction, query);
}

bool KernelRecord::hasCap(llvm::StringRef cap) const {
  return llvm::is_contained(caps, cap);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// The only registry format version this build reads.
static constexpr int64_t kRegistryFormatVersion = 1;

static constexpr llvm::StringLiteral kTopKeys[] = {"version", "kernels"};
static constexpr llvm::StringLiteral kRecordKeys[] = {"id",
                                                      "op",
                                                      "dtype",
                                                      "dtypes",
                                                      "backend",
                                                      "source",
                                                      "caps",
                                                      "precision",
                                                      "precision_note",
                                                      "efficiency_compute",
                                                      "efficiency_memory",
                                                      "overhead_ns",
                                                      "workspace_bytes",
                                                      "priority",
                                                      "cost",
                                                      "schedule",
                                                      "lowering"};
static constexpr llvm::StringLiteral kPrecisionKeys[] = {
    "bit_stable", "max_ulp", "max_relative", "max_absolute"};

static constexpr double kMaxDouble = std::numeric_limits<double>::max();

namespace {
class RegistryParser {
public:
  RegistryParser(JSONReader &reader,
                 KernelRegistry::ScheduleFileLookup schedules)
      : r(reader), schedules(schedules) {}
  bool parse(const llvm::json::Value &root, std::vector<KernelRecord> &out);

private:
  bool parseRecord(const llvm::json::Value &value, llvm::StringRef path,
                   KernelRecord &out);
  bool parseDtypes(const llvm::json::Object &o, llvm::StringRef path,
                   DtypeKey &out);
  bool parsePrecision(const llvm::json::Value &value, llvm::StringRef path,
                      KernelRecord &out);
  bool requiredString(const llvm::json::Object &o, llvm::StringRef path,
                      llvm::StringRef key, std::string &out);
  bool checkLowering(llvm::StringRef path, const KernelRecord &record);

  JSONReader &r;
  KernelRegistry::ScheduleFileLookup schedules;
};
} // namespace

bool RegistryParser::requiredString(const llvm::json::Object &o,
                                    llvm::StringRef path, llvm::StringRef key,
                                    std::string &out) {
  const llvm::json::Value *v = r.required(o, path, key);
  return v && r.readString(*v, jsonField(path, key), out);
}

/// True when `name` is a non-empty run of [a-z0-9_]: the suffix of a kernel
/// id, the name in a lowering.
static bool isSnakeName(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isLower(c) || llvm::isDigit(c) || c == '_';
  });
}

bool RegistryParser::checkLowering(llvm::StringRef path,
                                   const KernelRecord &record) {
  llvm::StringRef lowering(record.lowering);
  std::string source(stringifyKernelSource(record.source));
  // Generated kernels are compiled from a schedule file of their backend
  // (kernels/schedules/cpu/, or the set the GPU backends share,
  // kernels/schedules/gpu/); library kernels are called through a shim of
  // their library.
  std::string prefix, suffix, what;
  if (record.source == KernelSource::Generated) {
    prefix = "kernels/schedules/" +
             std::string(scheduleFolder(record.backend)) + "/";
    suffix = ".mlir";
    what = "the schedule file of a generated kernel";
  } else {
    prefix = "fuel_shim_" + source + "_";
    what = "the shim entry of a library kernel";
  }
  if (lowering.starts_with(prefix) && lowering.ends_with(suffix) &&
      lowering.size() > prefix.size() + suffix.size() &&
      isSnakeName(lowering.drop_front(prefix.size()).drop_back(suffix.size())))
    return true;
  return r.fail(path, "expected " + what + ", '" + prefix + "<name>" + suffix +
                          "' (name of [a-z0-9_]), got \"" + record.lowering +
                          "\"");
}

bool RegistryParser::parseDtypes(const llvm::json::Object &o,
                                 llvm::StringRef path, DtypeKey &out) {
  const llvm::json::Value *one = o.get("dtype");
  const llvm::json::Value *list = o.get("dtypes");
  if (one && list)
    return r.fail(path, "both \"dtype\" and \"dtypes\" (expected one: "
                        "\"dtype\" for all operands, \"dtypes\" for an exact "
                        "list)");
  if (!one && !list)
    return r.fail(path, "missing key \"dtype\" or \"dtypes\"");
  auto checkType = [&](const std::string &t, llvm::StringRef p) {
    if (isKnownElementType(t))
      return true;
    return r.fail(p, "unknown element type '" + t + "' (expected one of: " +
                         llvm::join(knownElementTypes(), ", ") + ")");
  };
  if (one) {
    std::string t;
    std::string p = jsonField(path, "dtype");
    if (!r.readString(*one, p, t) || !checkType(t, p))
      return false;
    out.uniform = true;
    out.types = {t};
    return true;
  }
  std::string p = jsonField(path, "dtypes");
  const llvm::json::Array *a = r.array(*list, p);
  if (!a)
    return false;
  if (a->size() < 2)
    return r.fail(p, "expected at least two element types (inputs, then the "
                     "output), got " +
                         llvm::Twine(a->size()));
  out.uniform = false;
  out.types.clear();
  for (size_t i = 0; i < a->size(); ++i) {
    std::string t;
    std::string ip = jsonIndex(p, i);
    if (!r.readString((*a)[i], ip, t) || !checkType(t, ip))
      return false;
    out.types.push_back(t);
  }
  return true;
}

bool RegistryParser::parsePrecision(const llvm::json::Value &value,
                                    llvm::StringRef path, KernelRecord &out) {
  if (std::optional<llvm::StringRef> preset = value.getAsString()) {
    if (*preset == "reference")
      out.precision = plan::Precision::reference();
    else if (*preset == "deterministic")
      out.precision = plan::Precision::deterministic();
    else if (*preset == "unaudited")
      out.precision = plan::Precision::unaudited();
    else
      return r.fail(path, "unknown precision preset '" + *preset +
                              "' (expected reference, deterministic, "
                              "unaudited or an object of bounds)");
    out.precisionPreset = preset->str();
    return true;
  }
  const llvm::json::Object *o = r.object(value, path);
  if (!o || !r.checkKeys(*o, path, kPrecisionKeys))
    return false;
  out.precision = plan::Precision();
  out.precisionPreset.clear();
  if (const llvm::json::Value *v = o->get("bit_stable"))
    if (!r.readBool(*v, jsonField(path, "bit_stable"), out.precision.bitStable))
      return false;
  if (const llvm::json::Value *v = o->get("max_ulp")) {
    uint64_t ulp = 0;
    if (!r.readUInt(*v, jsonField(path, "max_ulp"),
                    "a non-negative integer (ulp)", ulp))
      return false;
    out.precision.maxUlp = ulp;
  }
  for (auto [key, slot] :
       {std::pair<llvm::StringLiteral, std::optional<double> *>{
            "max_relative", &out.precision.maxRelative},
        {"max_absolute", &out.precision.maxAbsolute}}) {
    if (const llvm::json::Value *v = o->get(key)) {
      double d = 0;
      if (!r.readDouble(*v, jsonField(path, key), 0.0, /*inclusive=*/true,
                        kMaxDouble, "a non-negative, finite number", d))
        return false;
      *slot = d;
    }
  }
  return true;
}

bool RegistryParser::parseRecord(const llvm::json::Value &value,
                                 llvm::StringRef path, KernelRecord &out) {
  const llvm::json::Object *o = r.object(value, path);
  if (!o || !r.checkKeys(*o, path, kRecordKeys))
    return false;

  std::string text;
  if (!requiredString(*o, path, "op", text))
    return false;
  std::optional<OpKind> op = plan::symbolizeOpKind(text);
  if (!op) {
    std::string kinds;
    for (OpKind k : plan::kAllOpKinds)
      kinds +=
          (kinds.empty() ? "" : ", ") + std::string(plan::stringifyOpKind(k));
    return r.fail(jsonField(path, "op"), "unknown op kind '" + text +
                                             "' (expected one of: " + kinds +
                                             ")");
  }
  out.op = *op;

  if (!parseDtypes(*o, path, out.dtypes))
    return false;

  if (!requiredString(*o, path, "backend", text))
    return false;
  std::optional<DeviceKind> backend = plan::symbolizeDeviceKind(text);
  if (!backend)
    return r.fail(jsonField(path, "backend"),
                  "unknown backend '" + text +
                      "' (expected cpu, cuda or vulkan)");
  out.backend = *backend;

  if (!requiredString(*o, path, "source", text))
    return false;
  std::optional<KernelSource> source = symbolizeKernelSource(text);
  if (!source)
    return r.fail(jsonField(path, "source"),
                  "unknown kernel source '" + text +
                      "' (expected generated, openblas, blis or cublas)");
  out.source = *source;
  if (std::optional<DeviceKind> lib = libraryBackend(*source);
      lib && *lib != out.backend)
    return r.fail(
        jsonField(path, "backend"),
        "source '" + text + "' runs on '" +
            std::string(plan::stringifyDeviceKind(*lib)) + "', not '" +
            std::string(plan::stringifyDeviceKind(out.backend)) + "'");

  // Ids are `<backend>.<source>.<op kind>_<suffix>`: the id says what the
  // record is, so a copy-pasted record with a stale id is caught here.
  if (!requiredString(*o, path, "id", out.id))
    return false;
  std::string prefix = std::string(plan::stringifyDeviceKind(out.backend)) +
                       "." + std::string(stringifyKernelSource(out.source)) +
                       "." + std::string(plan::stringifyOpKind(out.op)) + "_";
  llvm::StringRef id(out.id);
  bool wellFormed =
      id.starts_with(prefix) && isSnakeName(id.drop_front(prefix.size()));
  if (!wellFormed)
    return r.fail(jsonField(path, "id"),
                  "expected an id of the form '" + prefix +
                      "<suffix>' (suffix of [a-z0-9_]), got \"" + out.id +
                      "\"");

  out.caps.clear();
  if (const llvm::json::Value *v = o->get("caps")) {
    std::string p = jsonField(path, "caps");
    const llvm::json::Array *caps = r.array(*v, p);
    if (!caps)
      return false;
    for (size_t i = 0; i < caps->size(); ++i) {
      std::string cap, ip = jsonIndex(p, i);
      if (!r.readString((*caps)[i], ip, cap))
        return false;
      if (!llvm::is_contained(knownKernelCaps(), cap))
        return r.fail(ip, "unknown capability '" + cap +
                              "' (expected one of: " +
                              llvm::join(knownKernelCaps(), ", ") + ")");
      if (llvm::is_contained(out.caps, cap))
        return r.fail(ip, "duplicate capability '" + cap + "'");
      out.caps.push_back(cap);
    }
    llvm::sort(out.caps);
  }

  const llvm::json::Value *precision = r.required(*o, path, "precision");
  if (!precision ||
      !parsePrecision(*precision, jsonField(path, "precision"), out))
    return false;
  // The note says why the claim holds; a claim without a reason is not
  // accepted.
  if (!requiredString(*o, path, "precision_note", out.precision.note))
    return false;
  if (out.precision.note.empty())
    return r.fail(jsonField(path, "precision_note"),
                  "expected a non-empty explanation of the precision claim");

  for (auto [key, slot] : {std::pair<llvm::StringLiteral, double *>{
                               "efficiency_compute", &out.efficiencyCompute},
                           {"efficiency_memory", &out.efficiencyMemory}}) {
    const llvm::json::Value *v = r.required(*o, path, key);
    if (!v || !r.readDouble(*v, jsonField(path, key), 0.0, /*inclusive=*/false,
                            1.0, "a fraction in (0, 1]", *slot))
      return false;
  }

  const llvm::json::Value *overhead = r.required(*o, path, "overhead_ns");
  if (!overhead || !r.readInt(*overhead, jsonField(path, "overhead_ns"), 0,
                              "a non-negative integer (ns)", out.overheadNs))
    return false;

  out.workspaceBytes = 0;
  if (const llvm::json::Value *v = o->get("workspace_bytes"))
    if (!r.readUInt(*v, jsonField(path, "workspace_bytes"),
                    "a non-negative integer (bytes)", out.workspaceBytes))
      return false;
  const llvm::json::Value *priority = r.required(*o, path, "priority");
  if (!priority || !r.readInt(*priority, jsonField(path, "priority"),
                              std::numeric_limits<int64_t>::min(), "an integer",
                              out.priority))
    return false;

  if (!requiredString(*o, path, "cost", out.costFunction))
    return false;
  const CostFunctionInfo *fn = lookupCostFunction(out.costFunction);
  if (!fn) {
    std::string names;
    for (const CostFunctionInfo &info : allCostFunctions())
      names += (names.empty() ? "" : ", ") + info.name.str();
    return r.fail(jsonField(path, "cost"),
                  "unknown cost function '" + out.costFunction +
                      "' (expected one of: " + names + ")");
  }
  if (fn->kind != out.op)
    return r.fail(jsonField(path, "cost"),
                  "cost function '" + out.costFunction + "' prices '" +
                      std::string(plan::stringifyOpKind(fn->kind)) +
                      "', not '" + std::string(plan::stringifyOpKind(out.op)) +
                      "'");

  if (!requiredString(*o, path, "schedule", out.schedule))
    return false;
  if (out.schedule.empty())
    return r.fail(jsonField(path, "schedule"),
                  "expected a non-empty schedule (the codegen schedule or the "
                  "library call)");

  if (!requiredString(*o, path, "lowering", out.lowering) ||
      !checkLowering(jsonField(path, "lowering"), out))
    return false;

  out.scheduleFile.clear();
  if (out.source == KernelSource::Generated && schedules)
    if (std::optional<llvm::StringRef> file = schedules(out.lowering))
      out.scheduleFile = file->str();
  out.revision = out.computeRevision();
  return true;
}

bool RegistryParser::parse(const llvm::json::Value &root,
                           std::vector<KernelRecord> &out) {
  const llvm::json::Object *top = r.object(root, "$");
  if (!top || !r.checkKeys(*top, "$", kTopKeys))
    return false;
  const llvm::json::Value *version = r.required(*top, "$", "version");
  if (!version)
    return false;
  std::optional<int64_t> v = jsonInt64(*version);
  if (!v || *v != kRegistryFormatVersion)
    return r.fail("$.version", "unsupported registry version " +
                                   describeJSON(*version) +
                                   " (this fuel reads " +
                                   llvm::Twine(kRegistryFormatVersion) + ")");
  const llvm::json::Value *kernelsValue = r.required(*top, "$", "kernels");
  if (!kernelsValue)
    return false;
  const llvm::json::Array *kernels = r.array(*kernelsValue, "$.kernels");
  if (!kernels)
    return false;
  std::map<std::string, std::string> idPaths;
  for (size_t i = 0; i < kernels->size(); ++i) {
    std::string path = jsonIndex("$.kernels", i);
    KernelRecord record;
    if (!parseRecord((*kernels)[i], path, record))
      return false;
    auto [it, inserted] = idPaths.try_emplace(record.id, path);
    if (!inserted)
      return r.fail(jsonField(path, "id"), "duplicate kernel id '" + record.id +
                                               "' (already declared at " +
                                               it->second + ")");
    out.push_back(std::move(record));
  }
  // Ids are unique, so this order is total and independent of the file's.
  llvm::sort(out, [](const KernelRecord &a, const KernelRecord &b) {
    return a.id < b.id;
  });
  return true;
}

//===----------------------------------------------------------------------===//
// KernelRegistry
//===----------------------------------------------------------------------===//

static const char kEmbeddedRegistry[] = {
#include "RegistryData.inc"
};

namespace {
struct EmbeddedScheduleFile {
  const char *path;
  const char *bytes;
  size_t size;
};
} // namespace

#include "ScheduleData.inc"

std::optional<llvm::StringRef>
KernelRegistry::scheduleFileText(llvm::StringRef path) {
  for (const EmbeddedScheduleFile *f = kScheduleFiles; f->path; ++f)
    if (path == f->path)
      return llvm::StringRef(f->bytes, f->size);
  return std::nullopt;
}

std::vector<std::string> KernelRegistry::embeddedScheduleFiles() {
  std::vector<std::string> out;
  for (const EmbeddedScheduleFile *f = kScheduleFiles; f->path; ++f)
    out.push_back(f->path);
  llvm::sort(out);
  return out;
}

llvm::StringRef KernelRegistry::embeddedText() {
  return llvm::StringRef(kEmbeddedRegistry, sizeof(kEmbeddedRegistry));
}

llvm::Expected<KernelRegistry>
KernelRegistry::parse(llvm::StringRef text, llvm::StringRef fileName,
                      ScheduleFileLookup schedules) {
  JSONReader reader(fileName);
  std::optional<llvm::json::Value> root = reader.parse(text);
  if (!root)
    return reader.takeError();
  KernelRegistry registry;
  RegistryParser parser(reader, schedules);
  if (!parser.parse(*root, registry.recordsById))
    return reader.takeError();
  return registry;
}

const KernelRegistry &KernelRegistry::get() {
  static const KernelRegistry registry = [] {
    llvm::Expected<KernelRegistry> parsed =
        parse(embeddedText(), "kernels/registry.json");
    if (!parsed)
      llvm::report_fatal_error(
          llvm::Twine("invalid built-in kernel registry: ") +
          llvm::toString(parsed.takeError()));
    return std::move(*parsed);
  }();
  return registry;
}

const KernelRecord *KernelRegistry::find(llvm::StringRef id) const {
  auto it = llvm::lower_bound(recordsById, id,
                              [](const KernelRecord &r, llvm::StringRef id) {
                                return llvm::StringRef(r.id) < id;
                              });
  if (it != recordsById.end() && it->id == id)
    return &*it;
  return nullptr;
}

std::vector<const KernelRecord *>
KernelRegistry::lookup(OpKind op, llvm::ArrayRef<std::string> dtypes,
                       DeviceKind backend) const {
  std::vector<const KernelRecord *> out;
  for (const KernelRecord &r : recordsById)
    if (r.op == op && r.backend == backend && r.dtypes.matches(dtypes))
      out.push_back(&r);
  return out;
}

std::vector<KernelCombination> KernelRegistry::allCombinations() const {
  std::set<KernelCombination> set;
  for (const KernelRecord &r : recordsById)
    set.insert({r.backend, r.op, r.dtypes});
  return {set.begin(), set.end()};
}

std::vector<KernelSource> KernelRegistry::sourcesFor(DeviceKind backend) const {
  std::set<KernelSource> set;
  for (const KernelRecord &r : recordsById)
    if (r.backend == backend)
      set.insert(r.source);
  return {set.begin(), set.end()};
}

} // namespace fuel::target
