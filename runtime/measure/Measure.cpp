//===- Measure.cpp - Measuring kernels from a job manifest ----------------===//
//
// The manifest reader, the statistics and stopping rule, and the loop that
// runs each job's executable until its median is stable (Measure.h).
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Measure.h"

#include "fuel/Probe/Probe.h"
#include "fuel/Runtime/HostArray.h"
#include "fuel/Runtime/Random.h"
#include "fuel/Runtime/Runtime.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>

namespace fuel::rt {

namespace {

Status fieldError(const std::string &file, const json::Value &at,
                  const std::string &field, const std::string &message) {
  return Status::error(StatusCode::InvalidArgument,
                       file + ":" + std::to_string(at.line) + ":" +
                           std::to_string(at.column) + ": " + field + ": " +
                           message);
}

/// Reads the manifest's fields, each error naming its JSON path.
class ManifestReader {
public:
  ManifestReader(const std::string &file) : file(file) {}

  Status member(const json::Value &obj, const std::string &path,
                const char *key, json::Value::Kind kind,
                const json::Value *&out) {
    out = obj.find(key);
    std::string field = path + "." + key;
    if (!out)
      return fieldError(file, obj, field, "missing");
    if (out->kind != kind) {
      json::Value expected;
      expected.kind = kind;
      return fieldError(file, *out, field,
                        std::string("expected ") + expected.kindName() +
                            ", got " + out->kindName());
    }
    return Status::ok();
  }

  Status integer(const json::Value &obj, const std::string &path,
                 const char *key, int64_t min, int64_t &out) {
    const json::Value *v;
    FUEL_RT_RETURN_IF_ERROR(
        member(obj, path, key, json::Value::Kind::Number, v));
    std::optional<int64_t> n = v->integer();
    if (!n || *n < min)
      return fieldError(file, *v, path + "." + key,
                        "expected an integer of at least " +
                            std::to_string(min) + ", got " + v->text);
    out = *n;
    return Status::ok();
  }

  Status string(const json::Value &obj, const std::string &path,
                const char *key, std::string &out) {
    const json::Value *v;
    FUEL_RT_RETURN_IF_ERROR(
        member(obj, path, key, json::Value::Kind::String, v));
    if (v->text.empty())
      return fieldError(file, *v, path + "." + key, "is empty");
    out = v->text;
    return Status::ok();
  }

  const std::string &file;
};

bool safeRelativePath(const std::string &p) {
  if (p.empty() || p[0] == '/')
    return false;
  std::stringstream ss(p);
  std::string part;
  while (std::getline(ss, part, '/'))
    if (part == "..")
      return false;
  return true;
}

double quantile(const std::vector<double> &sorted, double q) {
  double pos = q * double(sorted.size() - 1);
  size_t lo = size_t(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - double(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return quantile(v, 0.5);
}

std::string formatDouble(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

} // namespace

StatusOr<Manifest> parseManifest(std::string_view text, const std::string &file,
                                 const std::string &baseDir) {
  StatusOr<json::Value> doc = json::parse(text, file);
  if (!doc)
    return doc.status();
  if (doc->kind != json::Value::Kind::Object)
    return fieldError(file, *doc, "manifest", "expected an object");
  ManifestReader r(file);
  Manifest m;
  std::string format;
  FUEL_RT_RETURN_IF_ERROR(r.string(*doc, "manifest", "format", format));
  if (format != "fuel-judge-jobs")
    return fieldError(file, *doc->find("format"), "manifest.format",
                      "expected \"fuel-judge-jobs\", got \"" + format + "\"");
  FUEL_RT_RETURN_IF_ERROR(r.integer(*doc, "manifest", "version", 1, m.version));
  if (m.version != kJobManifestVersion)
    return fieldError(file, *doc->find("version"), "manifest.version",
                      "version " + std::to_string(m.version) +
                          " is not the version this build reads (" +
                          std::to_string(kJobManifestVersion) + ")");
  FUEL_RT_RETURN_IF_ERROR(
      r.string(*doc, "manifest", "fuel_version", m.fuelVersion));
  const json::Value *jobs;
  FUEL_RT_RETURN_IF_ERROR(
      r.member(*doc, "manifest", "jobs", json::Value::Kind::Array, jobs));
  std::set<std::string> ids;
  for (size_t i = 0; i < jobs->elements.size(); ++i) {
    const json::Value &j = jobs->elements[i];
    std::string path = "jobs[" + std::to_string(i) + "]";
    if (j.kind != json::Value::Kind::Object)
      return fieldError(file, j, path, "expected an object");
    MeasureJob job;
    FUEL_RT_RETURN_IF_ERROR(r.string(j, path, "id", job.id));
    if (!ids.insert(job.id).second)
      return fieldError(file, *j.find("id"), path + ".id",
                        "duplicate job id '" + job.id + "'");
    FUEL_RT_RETURN_IF_ERROR(r.string(j, path, "executable", job.executable));
    if (!safeRelativePath(job.executable))
      return fieldError(file, *j.find("executable"), path + ".executable",
                        "'" + job.executable +
                            "' is not a relative path inside the manifest's "
                            "directory");
    job.path =
        baseDir.empty() ? job.executable : baseDir + "/" + job.executable;
    std::string device;
    FUEL_RT_RETURN_IF_ERROR(r.string(j, path, "device", device));
    std::optional<::fuel::Device> d = ::fuel::Device::parse(device);
    if (!d)
      return fieldError(file, *j.find("device"), path + ".device",
                        "'" + device +
                            "' is not a device (cpu, cuda:N, "
                            "vulkan:N)");
    job.device = *d;
    FUEL_RT_RETURN_IF_ERROR(r.string(j, path, "kernel", job.kernel));
    FUEL_RT_RETURN_IF_ERROR(r.integer(j, path, "layer1_ns", 0, job.layer1Ns));
    const json::Value *inputs;
    FUEL_RT_RETURN_IF_ERROR(
        r.member(j, path, "inputs", json::Value::Kind::Array, inputs));
    for (size_t k = 0; k < inputs->elements.size(); ++k) {
      const json::Value &in = inputs->elements[k];
      std::string ipath = path + ".inputs[" + std::to_string(k) + "]";
      if (in.kind != json::Value::Kind::Object)
        return fieldError(file, in, ipath, "expected an object");
      JobInput input;
      FUEL_RT_RETURN_IF_ERROR(r.string(in, ipath, "dtype", input.dtype));
      const json::Value *shape;
      FUEL_RT_RETURN_IF_ERROR(
          r.member(in, ipath, "shape", json::Value::Kind::Array, shape));
      for (size_t s = 0; s < shape->elements.size(); ++s) {
        std::optional<int64_t> dim = shape->elements[s].integer();
        if (!dim || *dim < 0)
          return fieldError(file, shape->elements[s],
                            ipath + ".shape[" + std::to_string(s) + "]",
                            "expected a dimension (an integer >= 0)");
        input.shape.push_back(*dim);
      }
      job.inputs.push_back(std::move(input));
    }
    const json::Value *key;
    FUEL_RT_RETURN_IF_ERROR(
        r.member(j, path, "key", json::Value::Kind::Object, key));
    job.key = *key;
    m.jobs.push_back(std::move(job));
  }
  return m;
}

StatusOr<Manifest> readManifestFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error(StatusCode::InvalidArgument,
                         path + ": cannot open the manifest");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string dir;
  size_t slash = path.rfind('/');
  if (slash != std::string::npos)
    dir = path.substr(0, slash == 0 ? 1 : slash);
  return parseManifest(ss.str(), path, dir);
}

SampleStats summarizeSamples(std::vector<double> samples) {
  SampleStats s;
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  s.medianNs = quantile(samples, 0.5);
  s.p10Ns = quantile(samples, 0.1);
  s.p90Ns = quantile(samples, 0.9);
  std::vector<double> dev;
  dev.reserve(samples.size());
  for (double x : samples)
    dev.push_back(std::fabs(x - s.medianNs));
  s.noiseNs = medianOf(std::move(dev));
  return s;
}

bool isStable(const std::vector<double> &samples, double previousMedian,
              const StopRule &rule, uint64_t elapsedNs) {
  if (samples.size() < rule.minIterations || elapsedNs < rule.minTimeNs ||
      previousMedian <= 0)
    return false;
  double m = medianOf(samples);
  return std::fabs(m - previousMedian) < rule.relativeChange * previousMedian;
}

StatusOr<DeviceIdentity> probeDeviceIdentity(const ::fuel::Device &device,
                                             const std::string &cudaLibrary) {
  probe::ProbeResult found;
  switch (device.kind) {
  case ::fuel::DeviceKind::Cpu:
    found = probe::probeCpu();
    break;
  case ::fuel::DeviceKind::Cuda:
    found = probe::probeCuda(cudaLibrary.c_str());
    break;
  case ::fuel::DeviceKind::Vulkan:
    found = probe::probeVulkan();
    break;
  }
  for (const probe::ProbedDevice &d : found.devices) {
    if (d.device() != device)
      continue;
    DeviceIdentity id;
    id.name = d.name;
    id.driver = d.identityDriver();
    return id;
  }
  std::string why;
  for (const std::string &n : found.notes)
    why += (why.empty() ? "" : "; ") + n;
  return Status::error(StatusCode::Unavailable,
                       device.str() + " is not on this machine" +
                           (why.empty() ? "" : " (" + why + ")"));
}

const char *stateName(JobResult::State state) {
  switch (state) {
  case JobResult::State::Measured:
    return "measured";
  case JobResult::State::Skipped:
    return "skipped";
  case JobResult::State::Failed:
    return "failed";
  case JobResult::State::Pending:
    return "pending";
  }
  return "pending";
}

namespace {

/// Runs one job: load, bind random inputs, warm up, repeat in batches until
/// stable or `budgetNs` is spent. The sample of a run is the sum of its
/// dispatch commands' times: the kernel, without the copies that bring the
/// inputs to its device.
void measureOne(const Runtime &runtime, const MeasureJob &job,
                const MeasureOptions &options, uint64_t budgetNs,
                JobResult &result) {
  uint64_t start = monotonicNs();
  auto failWith = [&](const std::string &why) {
    result.state = JobResult::State::Failed;
    result.reason = why;
  };
  StatusOr<std::shared_ptr<LoadedExecutable>> exe =
      job.bytes.empty()
          ? runtime.loadExecutableFile(job.path)
          : runtime.loadExecutableBytes(job.bytes.data(), job.bytes.size());
  if (!exe)
    return failWith(exe.status().message());
  const Program &p = (*exe)->program();
  if (p.inputs.size() != job.inputs.size())
    return failWith(job.path + " takes " + std::to_string(p.inputs.size()) +
                    " inputs, the manifest lists " +
                    std::to_string(job.inputs.size()));
  std::vector<HostArray> inputs;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const TensorSpec &t = p.inputs[i];
    if (job.inputs[i].dtype != elementTypeName(t.dtype) ||
        job.inputs[i].shape != t.shape)
      return failWith("input " + std::to_string(i) + " of " + job.path +
                      " is " + formatTensorType(t.dtype, t.shape) +
                      ", the manifest says " +
                      formatTensorType(t.dtype, job.inputs[i].shape) + " of " +
                      job.inputs[i].dtype);
    // The executable spells u8 where host arrays spell ui8 (MLIR's name).
    std::optional<DType> dt = t.dtype == ElementType::U8
                                  ? std::optional<DType>(DType::U8)
                                  : parseDType(elementTypeName(t.dtype));
    if (!dt)
      return failWith("input " + std::to_string(i) + " is " +
                      elementTypeName(t.dtype) +
                      ", which the input generator cannot fill");
    StatusOr<HostArray> a = HostArray::allocate(*dt, t.shape);
    if (!a)
      return failWith(a.status().message());
    inputs.push_back(std::move(*a));
  }
  if (Status s = fillRandomInputs(inputs, options.seed); !s)
    return failWith(s.message());
  SessionOptions so;
  so.lanes = 1;
  StatusOr<std::unique_ptr<Session>> session = Session::create(*exe, so);
  if (!session)
    return failWith(session.status().message());
  Session &s = **session;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status st = s.bindInput(i, p.inputs[i].dtype, p.inputs[i].shape,
                                inputs[i].data(), inputs[i].byteSize());
        !st)
      return failWith(st.message());

  auto sample = [&]() -> double {
    const std::vector<CommandTime> &times = s.commandTimes();
    uint64_t ns = 0;
    for (size_t c = 0; c < p.commands.size() && c < times.size(); ++c)
      if (p.commands[c].kind == CommandKind::Dispatch)
        ns += times[c].durationNs();
    return double(ns);
  };
  const StopRule &rule = options.rule;
  for (uint64_t w = 0; w < rule.warmupIterations; ++w) {
    if (Status st = s.run(); !st)
      return failWith(st.message());
    if (monotonicNs() - start >= budgetNs && w > 0)
      break;
  }
  std::vector<double> samples;
  uint64_t timedStart = monotonicNs();
  double previousMedian = 0;
  while (true) {
    uint64_t batch = std::max<uint64_t>(5, uint64_t(samples.size() / 4));
    bool outOfTime = false;
    for (uint64_t b = 0; b < batch; ++b) {
      if (Status st = s.run(); !st)
        return failWith(st.message());
      samples.push_back(sample());
      if (monotonicNs() - start >= budgetNs) {
        outOfTime = true;
        break;
      }
    }
    uint64_t elapsed = monotonicNs() - timedStart;
    if (isStable(samples, previousMedian, rule, elapsed)) {
      result.stable = true;
      break;
    }
    if (outOfTime || samples.size() >= rule.maxIterations)
      break;
    previousMedian = medianOf(samples);
  }
  result.state = JobResult::State::Measured;
  result.stats = summarizeSamples(samples);
  result.iterations = samples.size();
  result.poolThreads = runtime.threadCount();
  result.libraryThreads = 1; // the shims ask their library for one thread
}

} // namespace

std::vector<JobResult> measureJobs(const Runtime &runtime,
                                   const Manifest &manifest,
                                   const MeasureOptions &options) {
  std::vector<JobResult> results(manifest.jobs.size());
  uint64_t start = monotonicNs();
  uint64_t budgetNs =
      options.budgetSeconds <= 0 ? 0 : uint64_t(options.budgetSeconds * 1e9);
  // Identities probed once per device.
  std::vector<std::pair<::fuel::Device, StatusOr<DeviceIdentity>>> identities;
  auto identityOf = [&](const ::fuel::Device &d) -> StatusOr<DeviceIdentity> {
    for (auto &entry : identities)
      if (entry.first == d)
        return entry.second;
    identities.emplace_back(d, probeDeviceIdentity(d, options.cudaLibrary));
    return identities.back().second;
  };
  // Jobs this run will attempt, for the budget's split.
  size_t runnable = 0;
  for (const MeasureJob &job : manifest.jobs)
    if (!options.device || *options.device == job.device)
      ++runnable;
  for (size_t i = 0; i < manifest.jobs.size(); ++i) {
    const MeasureJob &job = manifest.jobs[i];
    JobResult &r = results[i];
    r.id = job.id;
    if (options.device && *options.device != job.device) {
      r.state = JobResult::State::Skipped;
      r.reason = "not on the device measured (" + options.device->str() + ")";
      continue;
    }
    uint64_t used = monotonicNs() - start;
    if (used >= budgetNs) {
      r.state = JobResult::State::Pending;
      r.reason = "the budget was spent before it started";
      --runnable;
      continue;
    }
    StatusOr<DeviceIdentity> identity = identityOf(job.device);
    if (!identity) {
      r.state = JobResult::State::Skipped;
      r.reason = identity.status().message();
      --runnable;
      continue;
    }
    if (StatusOr<Device *> dev = runtime.openDevice(job.device); !dev) {
      r.state = JobResult::State::Skipped;
      r.reason = dev.status().message();
      --runnable;
      continue;
    }
    r.identity = *identity;
    double leftSeconds = double(budgetNs - used) / 1e9;
    if (options.onJobStart)
      options.onJobStart(i, job, leftSeconds);
    uint64_t share = (budgetNs - used) / std::max<size_t>(runnable, 1);
    measureOne(runtime, job, options, share, r);
    r.timestamp = int64_t(std::time(nullptr));
    --runnable;
  }
  return results;
}

std::string resultsJson(const Manifest &manifest,
                        const std::vector<JobResult> &results,
                        const std::string &fuelVersion) {
  std::string s = "{\n  \"format\": \"fuel-judge-results\",\n  \"version\": " +
                  std::to_string(kJobResultsVersion) +
                  ",\n  \"fuel_version\": " + json::quote(fuelVersion) +
                  ",\n  \"jobs\": [";
  for (size_t i = 0; i < results.size(); ++i) {
    const JobResult &r = results[i];
    const MeasureJob &job = manifest.jobs[i];
    s += i ? ",\n    {" : "\n    {";
    s += "\"id\": " + json::quote(r.id);
    s += ", \"state\": " + json::quote(stateName(r.state));
    if (!r.reason.empty())
      s += ", \"reason\": " + json::quote(r.reason);
    s += ", \"device\": " + json::quote(job.device.str());
    s += ", \"kernel\": " + json::quote(job.kernel);
    s += ", \"layer1_ns\": " + std::to_string(job.layer1Ns);
    if (r.state == JobResult::State::Measured) {
      s += ", \"median_ns\": " + formatDouble(r.stats.medianNs);
      s += ", \"p10_ns\": " + formatDouble(r.stats.p10Ns);
      s += ", \"p90_ns\": " + formatDouble(r.stats.p90Ns);
      s += ", \"noise_ns\": " + formatDouble(r.stats.noiseNs);
      s += ", \"iterations\": " + std::to_string(r.iterations);
      s += std::string(", \"stable\": ") + (r.stable ? "true" : "false");
      s += ", \"device_name\": " + json::quote(r.identity.name);
      s += ", \"device_driver\": " + json::quote(r.identity.driver);
      s += ", \"pool_threads\": " + std::to_string(r.poolThreads);
      s += ", \"library_threads\": " + std::to_string(r.libraryThreads);
      s += ", \"timestamp\": " + std::to_string(r.timestamp);
    }
    s += ", \"key\": " + json::write(job.key);
    s += "}";
  }
  s += "\n  ]\n}\n";
  return s;
}

} // namespace fuel::rt
