//===- fuel-run.cpp - Runs a fuel executable ------------------------------===//
//
// `fuel-run EXE [options]`, after iree-run-module: reads the inputs from
// .npy files (or generates them), runs the executable's function on the
// devices it was planned for, and writes, prints or checks the results;
// `--report` and `--trace` show what every command cost, `--dump` what the
// file holds. LLVM-free: it builds with and without the compiler.
// docs/FUEL-RUN.md is the manual.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/ArrayCompare.h"
#include "fuel/Runtime/ArrayPrint.h"
#include "fuel/Runtime/HostArray.h"
#include "fuel/Runtime/Json.h"
#include "fuel/Runtime/Measure.h"
#include "fuel/Runtime/Npy.h"
#include "fuel/Runtime/Random.h"
#include "fuel/Runtime/Runtime.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace fuel::rt;

namespace {

const char *const kUsage =
    "usage: fuel-run EXE [options]\n"
    "  --input=@FILE.npy        an argument, once per argument in order\n"
    "  --input=random:SEED      every argument from the input generator\n"
    "  --function=NAME          the entry to run (default: the only one)\n"
    "  --output=@FILE.npy       a result, once per result in order (default:\n"
    "                           print each as SHAPExDTYPE=[...])\n"
    "  --expected-output=@FILE.npy  compare a result, once per result\n"
    "  --tolerance=atol=A,rtol=R    tolerance of --expected-output\n"
    "  --threads=N              CPU threads (default: every core)\n"
    "  --lanes=N                queues per device that independent commands\n"
    "                           overlap on (default: 2, 1 with --threads=1\n"
    "                           on a cpu-only program; 1: in list order)\n"
    "  --run-on=caller|queues   where a cpu-only program runs: on this\n"
    "                           thread (default) or on the queue threads\n"
    "  --repeat=N               run N times (timings: median)\n"
    "  --warmup=N               run N times first, untimed (default: 0)\n"
    "  --report[=text|json]     per-command timings and predictions\n"
    "  --trace=FILE.json        a Chrome trace of the commands\n"
    "  --no-pipeline-cache      compile Vulkan pipelines afresh, cache "
    "nothing\n"
    "                           (the cache: $FUEL_CACHE_DIR, else\n"
    "                           $XDG_CACHE_HOME/fuel, else ~/.cache/fuel)\n"
    "  --cuda-library=FILE      the CUDA driver library dlopen opens "
    "(default:\n"
    "                           libcuda.so.1)\n"
    "  --cublas-path=DIRS       ':'-separated directories searched for "
    "libcublas\n"
    "                           before the loader's default (default: the\n"
    "                           toolkit's lib64 found when libfuelrt was "
    "built)\n"
    "  --dump                   print what the executable holds, run nothing\n"
    "\n"
    "usage: fuel-run --check-cpu EXE\n"
    "  whether this CPU has every feature EXE's CPU code needs, run nothing;\n"
    "  exits 0 when it has, 77 (and says what it lacks) when it has not\n"
    "\n"
    "usage: fuel-run --measure=MANIFEST --json=OUT [options]\n"
    "  --measure=MANIFEST       measure the jobs of a fuel-judge manifest\n"
    "  --json=OUT               where the results go ('-': stdout)\n"
    "  --budget=SECONDS         the whole run's wall time (default: 600)\n"
    "  --device=DEVICE          measure only the jobs on DEVICE (cpu,\n"
    "                           cuda:N, vulkan:N); the others are skipped\n"
    "  --threads=N              CPU threads (default: 1, as fuel-judge's\n"
    "                           --cpu-threads and fuel-plan's "
    "profile-threads)\n"
    "  --no-pipeline-cache, --cuda-library, --cublas-path as above\n";

struct Options {
  std::string exe;
  std::vector<std::string> inputs;
  std::optional<uint64_t> randomSeed;
  std::optional<std::string> function;
  std::vector<std::string> outputs;
  std::vector<std::string> expected;
  std::optional<std::string> tolerance;
  std::optional<unsigned> threads; ///< --threads; unset: the mode's default
  unsigned lanes = 0;
  SessionOptions::RunOn runOn = SessionOptions::RunOn::CallerThread;
  bool pipelineCache = true;
  std::optional<std::string> cudaLibrary;
  std::optional<std::string> cublasPath;
  uint64_t repeat = 1;
  uint64_t warmup = 0;
  enum class Report { None, Text, Json } report = Report::None;
  std::string trace;
  bool dump = false;
  bool checkCpu = false;
  std::string measure;
  std::string json;
  double budget = 600;
  std::optional<fuel::Device> device;
};

[[noreturn]] void fail(const std::string &message, int code = 1) {
  std::fprintf(stderr, "fuel-run: error: %s\n", message.c_str());
  std::exit(code);
}

void failStatus(const Status &s) { fail(s.message()); }

/// The runtime options the command line asks for (threads, pipeline cache,
/// CUDA driver and cuBLAS). Without --threads an executable runs on every
/// core, and --measure measures with one thread: the pool size fuel-judge
/// measures with and fuel-plan looks up by default (docs/FUEL-RUN.md).
RuntimeOptions runtimeOptions(const Options &o) {
  RuntimeOptions ro;
  ro.threads = o.threads.value_or(o.measure.empty() ? 0 : 1);
  ro.pipelineCache = o.pipelineCache;
  if (o.cudaLibrary)
    ro.cudaDriverLibrary = *o.cudaLibrary;
  if (o.cublasPath)
    ro.cublasSearchPath = *o.cublasPath;
  return ro;
}

/// The runtime of `ro`; exits with the runtime's error when it cannot start.
std::unique_ptr<Runtime> createRuntime(const RuntimeOptions &ro) {
  StatusOr<std::unique_ptr<Runtime>> rt = Runtime::create(ro);
  if (!rt)
    failStatus(rt.status());
  return std::move(*rt);
}

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

uint64_t parseCount(std::string_view flag, std::string_view v, uint64_t min) {
  uint64_t n = 0;
  if (v.empty() || v.size() > 12)
    fail(std::string(flag) + " expects a number, got '" + std::string(v) + "'",
         2);
  for (char c : v) {
    if (c < '0' || c > '9')
      fail(std::string(flag) + " expects a number, got '" + std::string(v) +
               "'",
           2);
    n = n * 10 + uint64_t(c - '0');
  }
  if (n < min)
    fail(std::string(flag) + " must be at least " + std::to_string(min), 2);
  return n;
}

/// The path of `@FILE`, or a usage error naming `flag`.
std::string fileArgument(std::string_view flag, std::string_view v) {
  if (v.size() < 2 || v[0] != '@')
    fail(std::string(flag) + " expects @FILE, got '" + std::string(v) + "'", 2);
  return std::string(v.substr(1));
}

Options parseOptions(int argc, char **argv) {
  Options o;
  bool sawRandom = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&](std::string_view flag) { return a.substr(flag.size()); };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (startsWith(a, "--input=")) {
      std::string_view v = value("--input=");
      if (startsWith(v, "random:")) {
        StatusOr<uint64_t> seed = parseRandomInputSpec(v);
        if (!seed)
          fail(seed.status().message(), 2);
        if (sawRandom)
          fail("--input=random:SEED may be given once", 2);
        sawRandom = true;
        o.randomSeed = *seed;
      } else {
        o.inputs.push_back(fileArgument("--input", v));
      }
    } else if (startsWith(a, "--function=")) {
      o.function = std::string(value("--function="));
    } else if (startsWith(a, "--output=")) {
      o.outputs.push_back(fileArgument("--output", value("--output=")));
    } else if (startsWith(a, "--expected-output=")) {
      o.expected.push_back(
          fileArgument("--expected-output", value("--expected-output=")));
    } else if (startsWith(a, "--tolerance=")) {
      o.tolerance = std::string(value("--tolerance="));
    } else if (startsWith(a, "--threads=")) {
      o.threads = unsigned(parseCount("--threads", value("--threads="), 1));
    } else if (startsWith(a, "--lanes=")) {
      uint64_t n = parseCount("--lanes", value("--lanes="), 1);
      if (n > kMaxSessionLanes)
        fail("--lanes: at most " + std::to_string(kMaxSessionLanes), 2);
      o.lanes = unsigned(n);
    } else if (startsWith(a, "--run-on=")) {
      std::string_view v = value("--run-on=");
      if (v == "caller")
        o.runOn = SessionOptions::RunOn::CallerThread;
      else if (v == "queues")
        o.runOn = SessionOptions::RunOn::QueueThreads;
      else
        fail("--run-on: expected caller or queues, got '" + std::string(v) +
                 "'",
             2);
    } else if (startsWith(a, "--repeat=")) {
      o.repeat = parseCount("--repeat", value("--repeat="), 1);
    } else if (startsWith(a, "--warmup=")) {
      o.warmup = parseCount("--warmup", value("--warmup="), 0);
    } else if (a == "--report" || a == "--report=text") {
      o.report = Options::Report::Text;
    } else if (a == "--report=json") {
      o.report = Options::Report::Json;
    } else if (startsWith(a, "--trace=")) {
      o.trace = std::string(value("--trace="));
      if (o.trace.empty())
        fail("--trace expects a file name", 2);
    } else if (a == "--no-pipeline-cache") {
      o.pipelineCache = false;
    } else if (startsWith(a, "--cuda-library=")) {
      o.cudaLibrary = std::string(value("--cuda-library="));
      if (o.cudaLibrary->empty())
        fail("--cuda-library expects a library file name or path", 2);
    } else if (startsWith(a, "--cublas-path=")) {
      o.cublasPath = std::string(value("--cublas-path="));
    } else if (a == "--dump") {
      o.dump = true;
    } else if (a == "--check-cpu") {
      o.checkCpu = true;
    } else if (startsWith(a, "--measure=")) {
      o.measure = std::string(value("--measure="));
      if (o.measure.empty())
        fail("--measure expects a manifest file", 2);
    } else if (startsWith(a, "--json=")) {
      o.json = std::string(value("--json="));
      if (o.json.empty())
        fail("--json expects a file name or '-'", 2);
    } else if (startsWith(a, "--budget=")) {
      std::string v(value("--budget="));
      char *end = nullptr;
      double b = std::strtod(v.c_str(), &end);
      if (v.empty() || !end || *end || !(b > 0) || b > 1e7)
        fail("--budget expects seconds (a number > 0), got '" + v + "'", 2);
      o.budget = b;
    } else if (startsWith(a, "--device=")) {
      std::string v(value("--device="));
      o.device = fuel::Device::parse(v);
      if (!o.device)
        fail("--device: '" + v + "' is not a device (cpu, cuda:N, vulkan:N)",
             2);
    } else if (startsWith(a, "-")) {
      fail("unknown option '" + std::string(a) + "'\n" + kUsage, 2);
    } else if (o.exe.empty()) {
      o.exe = std::string(a);
    } else {
      fail("more than one executable: '" + o.exe + "' and '" + std::string(a) +
               "'",
           2);
    }
  }
  if (!o.measure.empty()) {
    if (!o.exe.empty())
      fail("--measure takes no executable (the manifest lists them), got '" +
               o.exe + "'",
           2);
    if (o.json.empty())
      fail("--measure needs --json=OUT", 2);
    return o;
  }
  if (!o.json.empty() || o.device)
    fail("--json and --device go with --measure", 2);
  if (o.exe.empty())
    fail(std::string("no executable given\n") + kUsage, 2);
  if (sawRandom && !o.inputs.empty())
    fail("--input=random:SEED must be the only --input", 2);
  return o;
}

/// The host array type of an executable's element type.
std::optional<DType> hostDType(ElementType t) {
  switch (t) {
  case ElementType::F32:
    return DType::F32;
  case ElementType::F16:
    return DType::F16;
  case ElementType::F64:
    return DType::F64;
  case ElementType::I8:
    return DType::I8;
  case ElementType::I16:
    return DType::I16;
  case ElementType::I32:
    return DType::I32;
  case ElementType::I64:
    return DType::I64;
  case ElementType::U8:
    return DType::U8;
  case ElementType::Bool:
    return DType::Bool;
  case ElementType::BF16:
    return std::nullopt;
  }
  return std::nullopt;
}

DType requireHostDType(const TensorSpec &t, const std::string &what) {
  std::optional<DType> d = hostDType(t.dtype);
  if (!d)
    fail(what + " (" + t.name + ") is " + elementTypeName(t.dtype) +
         ", which fuel-run cannot read or write");
  return *d;
}

uint64_t median(std::vector<uint64_t> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string hex(uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

/// What the report says of one command.
struct CommandRow {
  size_t index = 0;
  std::string kind; ///< "dispatch" or "copy".
  const CommandReport *report = nullptr;
  std::string device;
  uint32_t deviceIndex = 0; ///< A copy's source device.
  uint32_t toIndex = 0;     ///< A copy's destination device.
  uint32_t lane = 0;        ///< The queue of its device it ran on.
  uint64_t bytes = 0;       ///< Copies only.
  uint64_t measuredNs = 0;
};

std::vector<CommandRow>
commandRows(const Program &p, const std::vector<uint32_t> &lanes,
            const std::vector<std::vector<CommandTime>> &runs) {
  std::vector<CommandRow> rows;
  for (size_t i = 0; i < p.commands.size(); ++i) {
    const CommandSpec &c = p.commands[i];
    CommandRow r;
    r.index = i;
    r.report = &c.report;
    if (c.kind == CommandKind::Dispatch) {
      r.kind = "dispatch";
      r.deviceIndex = dispatchDevice(p, c.dispatch);
    } else {
      r.kind = "copy";
      r.deviceIndex = p.buffers[c.copy.src].device;
      r.toIndex = p.buffers[c.copy.dst].device;
      r.bytes = c.copy.bytes;
    }
    r.device = p.devices[r.deviceIndex].device.str();
    if (c.kind == CommandKind::Copy && r.toIndex != r.deviceIndex)
      r.device += "->" + p.devices[r.toIndex].device.str();
    r.lane = lanes[i];
    std::vector<uint64_t> ns;
    for (const auto &run : runs)
      ns.push_back(run[i].durationNs());
    r.measuredNs = median(ns);
    rows.push_back(std::move(r));
  }
  return rows;
}

/// Wall time of whole runs (Session::run, submit to completion): what the
/// commands' times leave out — dispatch and wait overhead, the gaps between
/// commands — and what they double-count where commands overlap on lanes.
struct RunTimes {
  uint64_t medianNs = 0;
  uint64_t minNs = 0;
  /// Every timed run, in order.
  std::vector<uint64_t> runsNs;
};

RunTimes runTimes(const std::vector<uint64_t> &ns) {
  RunTimes t;
  t.medianNs = median(ns);
  t.minNs = ns.empty() ? 0 : *std::min_element(ns.begin(), ns.end());
  t.runsNs = ns;
  return t;
}

void printTextReport(const Program &p, const std::vector<CommandRow> &rows,
                     uint64_t uploadNs, uint64_t repeat, RunTimes run) {
  std::printf("report: %s, %zu commands, median of %" PRIu64 " runs\n",
              p.function.c_str(), rows.size(), repeat);
  // The device column fits "cpu->vulkan:0" of cross-device copies.
  int deviceWidth = 9;
  for (const CommandRow &r : rows)
    deviceWidth = std::max(deviceWidth, int(r.device.size()));
  std::printf("%4s %6s %-9s %-10s %-*s %4s %-28s %-10s %12s %12s %10s\n", "#",
              "node", "kind", "op", deviceWidth, "device", "lane", "kernel",
              "source", "predicted_ns", "measured_ns", "bytes");
  uint64_t predicted = 0, measured = 0;
  for (const CommandRow &r : rows) {
    const CommandReport &rep = *r.report;
    std::string bytes = r.kind == "copy" ? std::to_string(r.bytes) : "-";
    std::printf("%4zu %6" PRId64 " %-9s %-10s %-*s %4u %-28s %-10s %12" PRIu64
                " %12" PRIu64 " %10s\n",
                r.index, rep.nodeId, r.kind.c_str(),
                rep.opKind.empty() ? "-" : rep.opKind.c_str(), deviceWidth,
                r.device.c_str(), unsigned(r.lane),
                rep.kernelId.empty() ? "-" : rep.kernelId.c_str(),
                rep.source.empty() ? "-" : rep.source.c_str(), rep.predictedNs,
                r.measuredNs, bytes.c_str());
    predicted += rep.predictedNs;
    measured += r.measuredNs;
  }
  std::printf("input upload: %" PRIu64 " ns (outside the plan)\n", uploadNs);
  std::printf("total: predicted %" PRIu64 " ns, measured %" PRIu64 " ns\n",
              predicted, measured);
  std::printf("run: median %" PRIu64 " ns, min %" PRIu64 " ns (wall)\n",
              run.medianNs, run.minNs);
}

void printJsonReport(const Program &p, const std::vector<CommandRow> &rows,
                     uint64_t uploadNs, uint64_t repeat, unsigned threads,
                     unsigned lanes, bool onCaller, RunTimes run) {
  uint64_t predicted = 0, measured = 0;
  std::string s = "{\n  \"function\": " + json::quote(p.function) +
                  ",\n  \"repeat\": " + std::to_string(repeat) +
                  ",\n  \"threads\": " + std::to_string(threads) +
                  ",\n  \"lanes\": " + std::to_string(lanes) +
                  ",\n  \"run_on\": \"" + (onCaller ? "caller" : "queues") +
                  "\"" +
                  ",\n  \"input_upload_ns\": " + std::to_string(uploadNs) +
                  ",\n  \"commands\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const CommandRow &r = rows[i];
    const CommandReport &rep = *r.report;
    s += i ? ",\n    {" : "\n    {";
    s += "\"index\": " + std::to_string(r.index);
    s += ", \"node\": " + std::to_string(rep.nodeId);
    s += ", \"kind\": " + json::quote(r.kind);
    s += ", \"op\": " + json::quote(rep.opKind);
    s += ", \"device\": " + json::quote(r.device);
    s += ", \"lane\": " + std::to_string(r.lane);
    s += ", \"kernel\": " + json::quote(rep.kernelId);
    s += ", \"source\": " + json::quote(rep.source);
    s += ", \"revision\": " + json::quote(hex(rep.revision));
    s += ", \"predicted_ns\": " + std::to_string(rep.predictedNs);
    s += ", \"measured_ns\": " + std::to_string(r.measuredNs);
    if (r.kind == "copy") {
      s += ", \"bytes\": " + std::to_string(r.bytes);
      s += ", \"from\": " + json::quote(p.devices[r.deviceIndex].device.str());
      s += ", \"to\": " + json::quote(p.devices[r.toIndex].device.str());
    }
    s += "}";
    predicted += rep.predictedNs;
    measured += r.measuredNs;
  }
  s += "\n  ],\n  \"total_predicted_ns\": " + std::to_string(predicted) +
       ",\n  \"total_measured_ns\": " + std::to_string(measured) +
       ",\n  \"run_median_ns\": " + std::to_string(run.medianNs) +
       ",\n  \"run_min_ns\": " + std::to_string(run.minNs) +
       ",\n  \"run_ns\": [";
  for (size_t i = 0; i < run.runsNs.size(); ++i)
    s += (i ? ", " : "") + std::to_string(run.runsNs[i]);
  s += "]\n}\n";
  std::fputs(s.c_str(), stdout);
}

/// A Chrome trace (chrome://tracing, Perfetto): one complete event per
/// command and run, one track per device, times in microseconds from the
/// first command.
void writeTrace(const std::string &path, const Program &p, const Session &ses,
                const std::vector<std::vector<CommandTime>> &runs) {
  uint64_t origin = UINT64_MAX;
  for (const auto &run : runs)
    for (const CommandTime &t : run)
      origin = std::min(origin, t.startNs);
  std::vector<CommandRow> rows = commandRows(p, ses.commandLanes(), runs);
  // One track per device and lane: tid = device * kMaxSessionLanes + lane.
  std::string s = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
  bool first = true;
  for (size_t d = 0; d < p.devices.size(); ++d)
    for (unsigned l = 0; l < ses.laneCount(d); ++l) {
      s += first ? "\n" : ",\n";
      first = false;
      s += "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, "
           "\"tid\": " +
           std::to_string(d * kMaxSessionLanes + l) +
           ", \"args\": {\"name\": " +
           json::quote(p.devices[d].device.str() + " lane " +
                       std::to_string(l)) +
           "}}";
    }
  for (size_t run = 0; run < runs.size(); ++run) {
    for (const CommandRow &r : rows) {
      const CommandTime &t = runs[run][r.index];
      size_t tid = size_t(r.deviceIndex) * kMaxSessionLanes + r.lane;
      char times[96];
      std::snprintf(times, sizeof times, "\"ts\": %.3f, \"dur\": %.3f",
                    double(t.startNs - origin) / 1000.0,
                    double(t.durationNs()) / 1000.0);
      std::string name = r.report->kernelId.empty()
                             ? r.kind + " " + std::to_string(r.index)
                             : r.report->kernelId;
      s += ",\n{\"name\": " + json::quote(name) +
           ", \"cat\": " + json::quote(r.kind) + ", \"ph\": \"X\", " + times +
           ", \"pid\": 1, \"tid\": " + std::to_string(tid) +
           ", \"args\": {\"command\": " + std::to_string(r.index) +
           ", \"run\": " + std::to_string(run) +
           ", \"lane\": " + std::to_string(r.lane) +
           ", \"node\": " + std::to_string(r.report->nodeId) +
           ", \"predicted_ns\": " + std::to_string(r.report->predictedNs) +
           "}}";
    }
  }
  s += "\n]}\n";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << s;
  out.close();
  if (!out)
    fail("--trace: cannot write '" + path + "'");
}

/// `--measure`: every job of the manifest, results to `--json`.
int measureMain(const Options &o) {
  StatusOr<Manifest> manifest = readManifestFile(o.measure);
  if (!manifest)
    failStatus(manifest.status());
  RuntimeOptions ro = runtimeOptions(o);
  std::unique_ptr<Runtime> runtime = createRuntime(ro);
  MeasureOptions mo;
  mo.budgetSeconds = o.budget;
  mo.device = o.device;
  mo.cudaLibrary = ro.cudaDriverLibrary;
  size_t total = manifest->jobs.size();
  mo.onJobStart = [&](size_t i, const MeasureJob &job, double left) {
    std::fprintf(stderr, "fuel-run: [%zu/%zu] %s on %s (%.1f s left)\n", i + 1,
                 total, job.kernel.c_str(), job.device.str().c_str(), left);
  };
  std::vector<JobResult> results = measureJobs(*runtime, *manifest, mo);
  std::string text = resultsJson(*manifest, results, manifest->fuelVersion);
  if (o.json == "-") {
    std::fputs(text.c_str(), stdout);
  } else {
    // Written beside and renamed, so a reader never sees half a file.
    std::string tmp = o.json + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << text;
      out.close();
      if (!out)
        fail("--json: cannot write '" + tmp + "'");
    }
    if (std::rename(tmp.c_str(), o.json.c_str()) != 0)
      fail("--json: cannot write '" + o.json + "'");
  }
  size_t counts[4] = {0, 0, 0, 0};
  for (const JobResult &r : results)
    ++counts[size_t(r.state)];
  std::fprintf(stderr,
               "fuel-run: %zu measured, %zu skipped, %zu failed, %zu pending\n",
               counts[0], counts[1], counts[2], counts[3]);
  for (const JobResult &r : results)
    if (r.state != JobResult::State::Measured)
      std::fprintf(stderr, "fuel-run: %s %s: %s\n", stateName(r.state),
                   r.id.c_str(), r.reason.c_str());
  return 0;
}

int runMain(const Options &o) {
  if (!o.measure.empty())
    return measureMain(o);
  if (o.checkCpu || o.dump) {
    // Inspecting needs no device and no CPU feature.
    LoadOptions lo;
    lo.checkCpuFeatures = false;
    StatusOr<std::unique_ptr<Executable>> exe = Executable::loadFile(o.exe, lo);
    if (!exe)
      failStatus(exe.status());
    if (o.dump) {
      std::fputs(describeProgram((*exe)->program()).c_str(), stdout);
      return 0;
    }
    // The loader's own decision on the program it verified: with the CPU
    // check on, only this CPU's features can refuse it now.
    if (Status s = verifyProgram((*exe)->program(), LoadOptions{}); !s) {
      std::printf("%s: %s\n", o.exe.c_str(), s.message().c_str());
      return 77;
    }
    std::printf("%s: this CPU has every feature its code needs\n",
                o.exe.c_str());
    return 0;
  }

  std::unique_ptr<Runtime> runtime = createRuntime(runtimeOptions(o));
  StatusOr<std::shared_ptr<LoadedExecutable>> exe =
      runtime->loadExecutableFile(o.exe);
  if (!exe)
    failStatus(exe.status());
  const Program &p = (*exe)->program();

  // The format holds one entry per executable.
  if (o.function && *o.function != p.function)
    fail("no function '" + *o.function + "' in " + o.exe +
         "; an executable has one entry, and this one's is '" + p.function +
         "'");

  // Inputs, in host memory.
  std::vector<HostArray> inputs;
  if (o.randomSeed) {
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      StatusOr<HostArray> a = HostArray::allocate(
          requireHostDType(p.inputs[i], "argument " + std::to_string(i)),
          p.inputs[i].shape);
      if (!a)
        failStatus(a.status());
      inputs.push_back(std::move(*a));
    }
    if (Status s = fillRandomInputs(inputs, *o.randomSeed); !s)
      failStatus(s);
  } else {
    if (o.inputs.size() != p.inputs.size())
      fail(o.exe + " takes " + std::to_string(p.inputs.size()) +
           " arguments, " + std::to_string(o.inputs.size()) + " --input given");
    for (size_t i = 0; i < o.inputs.size(); ++i) {
      const TensorSpec &t = p.inputs[i];
      std::string what = "argument " + std::to_string(i);
      DType dt = requireHostDType(t, what);
      StatusOr<HostArray> a = readNpyFile(o.inputs[i]);
      if (!a)
        failStatus(a.status());
      if (Status s = checkArrayType(a->dtype(), a->shape(), dt, t.shape,
                                    o.inputs[i], what + " (" + t.name + ")");
          !s)
        failStatus(s);
      inputs.push_back(std::move(*a));
    }
  }
  if (!o.outputs.empty() && o.outputs.size() != p.outputs.size())
    fail(o.exe + " returns " + std::to_string(p.outputs.size()) + " results, " +
         std::to_string(o.outputs.size()) + " --output given");
  if (!o.expected.empty() && o.expected.size() != p.outputs.size())
    fail(o.exe + " returns " + std::to_string(p.outputs.size()) + " results, " +
         std::to_string(o.expected.size()) + " --expected-output given");

  SessionOptions so;
  so.lanes = o.lanes;
  so.runOn = o.runOn;
  StatusOr<std::unique_ptr<Session>> session = Session::create(*exe, so);
  if (!session)
    failStatus(session.status());
  Session &s = **session;
  // Placing the inputs on their devices: the report's "input upload".
  uint64_t uploadStart = monotonicNs();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status st = s.bindInput(i, p.inputs[i].dtype, p.inputs[i].shape,
                                inputs[i].data(), inputs[i].byteSize());
        !st)
      failStatus(st);
  uint64_t uploadNs = monotonicNs() - uploadStart;

  std::vector<std::vector<CommandTime>> runs;
  std::vector<uint64_t> runNs;
  for (uint64_t r = 0; r < o.warmup; ++r)
    if (Status st = s.run(); !st)
      failStatus(st);
  for (uint64_t r = 0; r < o.repeat; ++r) {
    uint64_t start = monotonicNs();
    if (Status st = s.run(); !st)
      failStatus(st);
    runNs.push_back(monotonicNs() - start);
    runs.push_back(s.commandTimes());
  }

  // Results.
  int status = 0;
  for (size_t j = 0; j < p.outputs.size(); ++j) {
    const TensorSpec &t = p.outputs[j];
    std::string what = "result " + std::to_string(j);
    StatusOr<HostArray> out =
        HostArray::allocate(requireHostDType(t, what), t.shape);
    if (!out)
      failStatus(out.status());
    if (Status st = s.readOutput(j, out->mutableData(), out->byteSize()); !st)
      failStatus(st);
    if (!o.outputs.empty()) {
      if (Status st = writeNpyFile(o.outputs[j], *out); !st)
        failStatus(st);
    } else if (o.report != Options::Report::Json) {
      std::printf("%s\n", formatArray(*out).c_str());
    }
    if (!o.expected.empty()) {
      StatusOr<HostArray> ref = readNpyFile(o.expected[j]);
      if (!ref)
        failStatus(ref.status());
      Tolerance tol = defaultTolerance(out->dtype());
      if (o.tolerance) {
        StatusOr<Tolerance> parsed = parseTolerance(*o.tolerance, tol);
        if (!parsed)
          failStatus(parsed.status());
        tol = *parsed;
      }
      StatusOr<Comparison> cmp = compareArrays(*out, *ref, tol, what);
      if (!cmp)
        failStatus(cmp.status());
      std::fprintf(o.report == Options::Report::Json ? stderr : stdout, "%s\n",
                   cmp->summary.c_str());
      if (!cmp->matches())
        status = 1;
    }
  }

  if (o.report != Options::Report::None) {
    std::vector<CommandRow> rows = commandRows(p, s.commandLanes(), runs);
    if (o.report == Options::Report::Json)
      printJsonReport(p, rows, uploadNs, o.repeat, runtime->threadCount(),
                      s.laneLimit(), s.lastRunOnCaller(), runTimes(runNs));
    else
      printTextReport(p, rows, uploadNs, o.repeat, runTimes(runNs));
  }
  if (!o.trace.empty())
    writeTrace(o.trace, p, s, runs);
  return status;
}

} // namespace

int main(int argc, char **argv) { return runMain(parseOptions(argc, argv)); }
