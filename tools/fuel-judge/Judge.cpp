//===- Judge.cpp - fuel-judge: measure, ingest, calibrate -----------------===//
//
// The ingest step, the in-process measuring loop with its budget, progress
// and summary (Judge.h).
//
//===----------------------------------------------------------------------===//

#include "Judge.h"

#include "fuel/Runtime/Measure.h"
#include "fuel/Runtime/Runtime.h"
#include "fuel/Target/Version.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

namespace fuel::judge {

MeasurementKey measurementKey(const JobKey &key, llvm::StringRef deviceName,
                              llvm::StringRef deviceDriver, int64_t poolThreads,
                              int64_t libraryThreads) {
  MeasurementKey m;
  m.kernelId = key.kernelId;
  m.revision = key.revision;
  m.opKind = key.opKind;
  m.dtypes = key.dtypes;
  m.shapes = key.shapes;
  m.params = key.params;
  m.sizeClass = uint32_t(key.sizeClass);
  m.deviceKind = key.deviceKind;
  m.deviceOrdinal = key.deviceOrdinal;
  m.deviceName = deviceName.str();
  m.deviceDriver = deviceDriver.str();
  m.poolThreads = poolThreads;
  m.libraryThreads = libraryThreads;
  return m;
}

//===----------------------------------------------------------------------===//
// Ingest
//===----------------------------------------------------------------------===//

namespace {

/// Reads the fields of one results file, every error naming the file and
/// the JSON path of the field.
class ResultsReader {
public:
  explicit ResultsReader(llvm::StringRef file) : file(file) {}

  llvm::Error error(const std::string &field, const std::string &message) {
    return llvm::createStringError(
        llvm::formatv("{0}: {1}: {2}", file, field, message).str());
  }

  llvm::Expected<llvm::StringRef> string(const llvm::json::Object &o,
                                         const std::string &path,
                                         llvm::StringRef key) {
    std::optional<llvm::StringRef> s = o.getString(key);
    if (!s)
      return error(path + "." + key.str(),
                   o.get(key) ? "expected a string" : "missing");
    return *s;
  }
  llvm::Expected<int64_t> integer(const llvm::json::Object &o,
                                  const std::string &path, llvm::StringRef key,
                                  int64_t min) {
    std::optional<int64_t> n = o.getInteger(key);
    if (!n || *n < min)
      return error(path + "." + key.str(),
                   o.get(key) ? "expected an integer of at least " +
                                    std::to_string(min)
                              : "missing");
    return *n;
  }
  llvm::Expected<double> number(const llvm::json::Object &o,
                                const std::string &path, llvm::StringRef key) {
    std::optional<double> n = o.getNumber(key);
    if (!n || !std::isfinite(*n) || *n < 0)
      return error(path + "." + key.str(),
                   o.get(key) ? "expected a number >= 0" : "missing");
    return *n;
  }

  llvm::Expected<JobKey> key(const llvm::json::Object &o,
                             const std::string &path) {
    JobKey k;
    auto s = [&](llvm::StringRef name, std::string &out) -> llvm::Error {
      llvm::Expected<llvm::StringRef> v = string(o, path, name);
      if (!v)
        return v.takeError();
      out = v->str();
      return llvm::Error::success();
    };
    if (llvm::Error e = s("kernel_id", k.kernelId))
      return std::move(e);
    if (llvm::Error e = s("op_kind", k.opKind))
      return std::move(e);
    if (llvm::Error e = s("device_kind", k.deviceKind))
      return std::move(e);
    if (k.deviceKind != "cpu" && k.deviceKind != "cuda" &&
        k.deviceKind != "vulkan")
      return error(path + ".device_kind",
                   "'" + k.deviceKind + "' is not cpu, cuda or vulkan");
    std::string revision;
    if (llvm::Error e = s("revision", revision))
      return std::move(e);
    llvm::StringRef hex(revision);
    if (!hex.consume_front("0x") || hex.empty() || hex.size() > 16 ||
        hex.getAsInteger(16, k.revision))
      return error(path + ".revision",
                   "'" + revision + "' is not 0x and up to 16 hex digits");
    llvm::Expected<int64_t> ordinal = integer(o, path, "device_ordinal", 0);
    if (!ordinal)
      return ordinal.takeError();
    k.deviceOrdinal = *ordinal;
    llvm::Expected<int64_t> sizeClass = integer(o, path, "size_class", 0);
    if (!sizeClass)
      return sizeClass.takeError();
    k.sizeClass = uint64_t(*sizeClass);
    const llvm::json::Array *dtypes = o.getArray("dtypes");
    if (!dtypes)
      return error(path + ".dtypes", "expected an array of strings");
    for (size_t i = 0; i < dtypes->size(); ++i) {
      std::optional<llvm::StringRef> d = (*dtypes)[i].getAsString();
      if (!d)
        return error(path + ".dtypes[" + std::to_string(i) + "]",
                     "expected a string");
      k.dtypes.push_back(d->str());
    }
    const llvm::json::Array *shapes = o.getArray("shapes");
    if (!shapes || shapes->size() != k.dtypes.size())
      return error(path + ".shapes",
                   "expected an array of shapes, one per dtype");
    for (size_t i = 0; i < shapes->size(); ++i) {
      const llvm::json::Array *dims = (*shapes)[i].getAsArray();
      std::string spath = path + ".shapes[" + std::to_string(i) + "]";
      if (!dims)
        return error(spath, "expected an array of dimensions");
      std::vector<int64_t> shape;
      for (size_t d = 0; d < dims->size(); ++d) {
        std::optional<int64_t> n = (*dims)[d].getAsInteger();
        if (!n || *n < 0)
          return error(spath + "[" + std::to_string(d) + "]",
                       "expected a dimension (an integer >= 0)");
        shape.push_back(*n);
      }
      k.shapes.push_back(std::move(shape));
    }
    const llvm::json::Array *params = o.getArray("params");
    if (!params)
      return error(path + ".params", "expected an array of [key, value]");
    for (size_t i = 0; i < params->size(); ++i) {
      const llvm::json::Array *kv = (*params)[i].getAsArray();
      std::optional<llvm::StringRef> pk, pv;
      if (kv && kv->size() == 2) {
        pk = (*kv)[0].getAsString();
        pv = (*kv)[1].getAsString();
      }
      if (!pk || !pv)
        return error(path + ".params[" + std::to_string(i) + "]",
                     "expected [key, value], two strings");
      k.params.emplace_back(pk->str(), pv->str());
    }
    std::sort(k.params.begin(), k.params.end());
    return k;
  }

  std::string file;
};

} // namespace

llvm::Expected<size_t> ingestResults(llvm::StringRef path, ProfileDB &db) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return llvm::createStringError(
        buf.getError(), "--ingest: cannot read '%s': %s", path.str().c_str(),
        buf.getError().message().c_str());
  llvm::Expected<llvm::json::Value> doc =
      llvm::json::parse((*buf)->getBuffer());
  if (!doc)
    return llvm::createStringError(
        llvm::formatv("{0}: not JSON: {1}", path,
                      llvm::toString(doc.takeError()))
            .str());
  ResultsReader r(path);
  const llvm::json::Object *top = doc->getAsObject();
  if (!top)
    return r.error("results", "expected an object");
  llvm::Expected<llvm::StringRef> format = r.string(*top, "results", "format");
  if (!format)
    return format.takeError();
  if (*format != "fuel-judge-results")
    return r.error("results.format", "expected \"fuel-judge-results\", got \"" +
                                         format->str() + "\"");
  llvm::Expected<int64_t> version = r.integer(*top, "results", "version", 1);
  if (!version)
    return version.takeError();
  if (*version != ::fuel::rt::kJobResultsVersion)
    return r.error("results.version",
                   "version " + std::to_string(*version) +
                       " is not the version this build reads (" +
                       std::to_string(::fuel::rt::kJobResultsVersion) + ")");
  llvm::Expected<llvm::StringRef> fuelVersion =
      r.string(*top, "results", "fuel_version");
  if (!fuelVersion)
    return fuelVersion.takeError();
  const llvm::json::Array *jobs = top->getArray("jobs");
  if (!jobs)
    return r.error("results.jobs", "expected an array");
  std::vector<std::pair<MeasurementKey, Measurement>> rows;
  for (size_t i = 0; i < jobs->size(); ++i) {
    std::string jp = "jobs[" + std::to_string(i) + "]";
    const llvm::json::Object *j = (*jobs)[i].getAsObject();
    if (!j)
      return r.error(jp, "expected an object");
    llvm::Expected<llvm::StringRef> state = r.string(*j, jp, "state");
    if (!state)
      return state.takeError();
    if (*state != "measured")
      continue;
    const llvm::json::Object *keyObj = j->getObject("key");
    if (!keyObj)
      return r.error(jp + ".key", "expected an object");
    llvm::Expected<JobKey> key = r.key(*keyObj, jp + ".key");
    if (!key)
      return key.takeError();
    llvm::Expected<llvm::StringRef> name = r.string(*j, jp, "device_name");
    if (!name)
      return name.takeError();
    std::optional<llvm::StringRef> driver = j->getString("device_driver");
    if (!driver)
      return r.error(jp + ".device_driver", "expected a string");
    llvm::Expected<int64_t> pool = r.integer(*j, jp, "pool_threads", 1);
    if (!pool)
      return pool.takeError();
    llvm::Expected<int64_t> lib = r.integer(*j, jp, "library_threads", 1);
    if (!lib)
      return lib.takeError();
    Measurement m;
    for (auto [field, out] :
         {std::pair<const char *, double *>{"median_ns", &m.medianNs},
          {"p10_ns", &m.p10Ns},
          {"p90_ns", &m.p90Ns},
          {"noise_ns", &m.noiseNs}}) {
      llvm::Expected<double> v = r.number(*j, jp, field);
      if (!v)
        return v.takeError();
      *out = *v;
    }
    if (!(m.p10Ns <= m.medianNs && m.medianNs <= m.p90Ns))
      return r.error(jp, "expected p10_ns <= median_ns <= p90_ns");
    llvm::Expected<int64_t> iters = r.integer(*j, jp, "iterations", 1);
    if (!iters)
      return iters.takeError();
    m.iterations = *iters;
    llvm::Expected<int64_t> ts = r.integer(*j, jp, "timestamp", 0);
    if (!ts)
      return ts.takeError();
    m.timestamp = *ts;
    m.fuelVersion = fuelVersion->str();
    rows.emplace_back(measurementKey(*key, *name, *driver, *pool, *lib), m);
  }
  if (llvm::Error e = db.insertAll(rows))
    return std::move(e);
  return rows.size();
}

//===----------------------------------------------------------------------===//
// Measuring here
//===----------------------------------------------------------------------===//

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string formatSeconds(double s) {
  if (s < 100)
    return llvm::formatv("{0:f1} s", s).str();
  return llvm::formatv("{0} min {1} s", int64_t(s) / 60, int64_t(s) % 60).str();
}

/// The progress of the measuring loop: a bar redrawn in place on a
/// terminal, one line per job elsewhere (logs, CI).
class Progress {
public:
  Progress(llvm::raw_ostream &os, bool bar, size_t total)
      : os(os), bar(bar), total(total) {}
  void start(size_t done, const std::string &kernel, const std::string &device,
             std::optional<double> etaSeconds) {
    std::string eta = etaSeconds ? formatSeconds(*etaSeconds) : "?";
    if (bar) {
      constexpr size_t width = 24;
      size_t filled = total ? done * width / total : width;
      std::string b(filled, '#');
      b.resize(width, '.');
      os << llvm::formatv("\r\x1b[2K[{0}] {1}/{2} {3} on {4}, ETA {5}", b, done,
                          total, kernel, device, eta);
    } else {
      os << llvm::formatv("fuel-judge: [{0}/{1}] {2} on {3}, ETA {4}\n",
                          done + 1, total, kernel, device, eta);
    }
    os.flush();
  }
  void finish() {
    if (bar)
      os << "\r\x1b[2K";
    os.flush();
  }

private:
  llvm::raw_ostream &os;
  bool bar;
  size_t total;
};

} // namespace

llvm::Expected<std::unique_ptr<rt::Runtime>> createRuntime(unsigned threads) {
  rt::RuntimeOptions ro;
  ro.threads = threads;
  rt::StatusOr<std::unique_ptr<rt::Runtime>> runtime = rt::Runtime::create(ro);
  if (!runtime)
    return llvm::createStringError(runtime.status().message());
  return std::move(*runtime);
}

llvm::Expected<std::vector<JudgedJob>>
measureProgram(mlir::ModuleOp module, ProfileDB &db,
               const JudgeOptions &options, llvm::raw_ostream &log) {
  Clock::time_point start = Clock::now();
  llvm::Expected<std::vector<Job>> jobs =
      enumerateJobs(module, options.topology);
  if (!jobs)
    return jobs.takeError();

  llvm::Expected<std::unique_ptr<::fuel::rt::Runtime>> rt =
      createRuntime(options.threads);
  if (!rt)
    return rt.takeError();
  int64_t poolThreads = (*rt)->threadCount();

  std::vector<JudgedJob> out(jobs->size());
  std::vector<MeasurementKey> keys(jobs->size());
  std::vector<size_t> pending;
  std::vector<
      std::pair<std::string, ::fuel::rt::StatusOr<::fuel::rt::DeviceIdentity>>>
      identities;
  for (size_t i = 0; i < jobs->size(); ++i) {
    const Job &job = (*jobs)[i];
    JudgedJob &r = out[i];
    r.id = job.id;
    r.kernel = job.key.kernelId;
    r.device = job.key.device();
    r.function = job.function;
    r.nodeId = job.nodeId;
    r.layer1Ns = job.layer1Ns;
    std::optional<::fuel::Device> device = ::fuel::Device::parse(r.device);
    auto it = std::find_if(identities.begin(), identities.end(),
                           [&](const auto &e) { return e.first == r.device; });
    if (it == identities.end()) {
      // The CUDA driver createRuntime opens: the default one.
      identities.emplace_back(
          r.device, ::fuel::rt::probeDeviceIdentity(
                        *device, rt::RuntimeOptions().cudaDriverLibrary));
      it = identities.end() - 1;
    }
    if (!it->second) {
      r.outcome = JudgedJob::Outcome::Skipped;
      r.reason = it->second.status().message();
      continue;
    }
    keys[i] = measurementKey(job.key, it->second->name, it->second->driver,
                             poolThreads, 1);
    llvm::Expected<std::optional<Measurement>> hit = db.lookup(keys[i]);
    if (!hit)
      return hit.takeError();
    if (*hit) {
      r.outcome = JudgedJob::Outcome::AlreadyMeasured;
      r.medianNs = (*hit)->medianNs;
      r.noiseNs = (*hit)->noiseNs;
      r.iterations = uint64_t((*hit)->iterations);
      continue;
    }
    pending.push_back(i);
  }

  Progress progress(log, options.progressBar, pending.size());
  double spentOnJobs = 0;
  size_t done = 0;
  for (size_t p = 0; p < pending.size(); ++p) {
    size_t i = pending[p];
    const Job &job = (*jobs)[i];
    JudgedJob &r = out[i];
    double left = options.budgetSeconds - secondsSince(start);
    if (left <= 0)
      break; // the rest stay Left
    std::optional<double> eta;
    if (done)
      eta = std::min(left,
                     spentOnJobs / double(done) * double(pending.size() - p));
    progress.start(p, r.kernel, r.device, eta);
    Clock::time_point jobStart = Clock::now();
    llvm::Expected<std::vector<uint8_t>> bytes =
        compileJob(job, options.topology);
    if (!bytes) {
      r.outcome = JudgedJob::Outcome::Failed;
      r.reason = llvm::toString(bytes.takeError());
      continue;
    }
    ::fuel::rt::Manifest one;
    one.version = ::fuel::rt::kJobManifestVersion;
    one.fuelVersion = ::fuel::target::kFuelVersion;
    ::fuel::rt::MeasureJob mj;
    mj.id = job.id;
    mj.executable = job.id + ".fuelx";
    mj.path = job.id + ".fuelx";
    mj.bytes = std::move(*bytes);
    mj.device = *::fuel::Device::parse(r.device);
    mj.kernel = r.kernel;
    mj.layer1Ns = job.layer1Ns;
    for (size_t k = 0; k < job.inputDtypes.size(); ++k)
      mj.inputs.push_back({job.inputDtypes[k], job.inputShapes[k]});
    one.jobs.push_back(std::move(mj));
    ::fuel::rt::MeasureOptions mo;
    // This job's share of what is left: the jobs after it get theirs.
    left = options.budgetSeconds - secondsSince(start);
    mo.budgetSeconds = std::max(left / double(pending.size() - p), 1e-3);
    std::vector<::fuel::rt::JobResult> res =
        ::fuel::rt::measureJobs(**rt, one, mo);
    const ::fuel::rt::JobResult &jr = res.front();
    r.judgeSeconds = secondsSince(jobStart);
    spentOnJobs += r.judgeSeconds;
    ++done;
    if (jr.state != ::fuel::rt::JobResult::State::Measured) {
      r.outcome = jr.state == ::fuel::rt::JobResult::State::Skipped
                      ? JudgedJob::Outcome::Skipped
                      : JudgedJob::Outcome::Failed;
      r.reason = jr.reason;
      continue;
    }
    Measurement m;
    m.medianNs = jr.stats.medianNs;
    m.p10Ns = jr.stats.p10Ns;
    m.p90Ns = jr.stats.p90Ns;
    m.noiseNs = jr.stats.noiseNs;
    m.iterations = int64_t(jr.iterations);
    m.timestamp = jr.timestamp;
    m.fuelVersion = ::fuel::target::kFuelVersion;
    // One transaction per job: a kill loses at most the job in flight.
    if (llvm::Error e = db.insert(keys[i], m))
      return std::move(e);
    r.outcome = JudgedJob::Outcome::Measured;
    r.medianNs = m.medianNs;
    r.noiseNs = m.noiseNs;
    r.iterations = jr.iterations;
  }
  progress.finish();
  return out;
}

void printSummary(const std::vector<JudgedJob> &jobs, llvm::raw_ostream &os) {
  size_t counts[5] = {0, 0, 0, 0, 0};
  for (const JudgedJob &j : jobs)
    ++counts[size_t(j.outcome)];
  os << llvm::formatv("fuel-judge: {0} jobs: {1} measured, {2} already in the "
                      "database, {3} skipped, {4} failed, {5} left\n",
                      jobs.size(), counts[0], counts[1], counts[2], counts[3],
                      counts[4]);
  for (const JudgedJob &j : jobs)
    if (j.outcome == JudgedJob::Outcome::Skipped ||
        j.outcome == JudgedJob::Outcome::Failed)
      os << llvm::formatv("  {0} {1} on {2}: {3}\n",
                          j.outcome == JudgedJob::Outcome::Skipped ? "skipped"
                                                                   : "failed",
                          j.kernel, j.device, j.reason);
  if (counts[4]) {
    os << "left (the budget ran out; a rerun measures them):\n";
    for (const JudgedJob &j : jobs)
      if (j.outcome == JudgedJob::Outcome::Left)
        os << llvm::formatv("  {0} {1} on {2} (@{3} node {4})\n", j.id,
                            j.kernel, j.device, j.function, j.nodeId);
  }
  std::vector<const JudgedJob *> measured;
  for (const JudgedJob &j : jobs)
    if (j.outcome == JudgedJob::Outcome::Measured ||
        j.outcome == JudgedJob::Outcome::AlreadyMeasured)
      measured.push_back(&j);
  if (measured.empty())
    return;
  auto relError = [](const JudgedJob *j) {
    return j->medianNs > 0 ? (double(j->layer1Ns) - j->medianNs) / j->medianNs
                           : 0.0;
  };
  // Largest |error| first; ties by id, so the table is deterministic.
  std::stable_sort(measured.begin(), measured.end(),
                   [&](const JudgedJob *a, const JudgedJob *b) {
                     double ea = std::fabs(relError(a)),
                            eb = std::fabs(relError(b));
                     if (ea != eb)
                       return ea > eb;
                     return a->id < b->id;
                   });
  os << llvm::formatv("{0,-36} {1,-9} {2,14} {3,14} {4,10} {5,9} {6,9}\n",
                      "kernel", "device", "layer1 ns", "measured ns",
                      "noise ns", "error", "judge s");
  for (const JudgedJob *j : measured)
    os << llvm::formatv("{0,-36} {1,-9} {2,14} {3,14} {4,10} {5,8}% {6,9}\n",
                        j->kernel, j->device, j->layer1Ns,
                        llvm::formatv("{0:f0}", j->medianNs).str(),
                        llvm::formatv("{0:f0}", j->noiseNs).str(),
                        llvm::formatv("{0:f1}", 100 * relError(j)).str(),
                        j->outcome == JudgedJob::Outcome::Measured
                            ? llvm::formatv("{0:f2}", j->judgeSeconds).str()
                            : std::string("-"));
}

} // namespace fuel::judge
