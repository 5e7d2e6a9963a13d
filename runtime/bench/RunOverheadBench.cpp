//===- RunOverheadBench.cpp - Whole-run overhead of chains of commands ----===//
//
// One process of the whole-run benchmark (scripts/bench-run-overhead.py
// runs it in fresh processes and aggregates): executables of tiny dependent
// commands -- chains of 1, 10, 30 and 100 dispatches of a trivial kernel,
// and a fan-out of one dispatch followed by 10 independent ones -- loaded
// through the runtime and run with Session::run, as fuel-run runs a model.
// Per run it prints the wall time of Session::run and the wall time minus
// the sum of the commands' own times (CommandTime): the runtime's overhead
// for the whole run, hand-offs between threads included, which a warm loop
// of single dispatches (fuel-bench-dispatch-overhead) does not see.
//
// usage: fuel-bench-run-overhead [--threads=N] [--run-on=caller|queues]
//            [--lanes=N] [--runs=N] [--warmup=N]
// One JSON object per case and line: {"case", "commands", "threads",
// "run_on", "lanes", "wall_ns": [...], "overhead_ns": [...]}.
//
//===----------------------------------------------------------------------===//

#include "fuel/Runtime/Devices.h"
#include "fuel/Runtime/ExecutableWriter.h"
#include "fuel/Runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace fuel::rt;

namespace {

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "fuel-bench-run-overhead: %s\n", message.c_str());
  std::exit(1);
}

/// `chain` dependent dispatches (each after the one before), or, with
/// `fanOut`, one dispatch and `fanOut` dispatches after it, independent of
/// each other. Every dispatch is one workgroup of fuel_bench_trivial on its
/// own 64-byte slot of the output.
std::vector<uint8_t> buildProgram(const std::vector<uint8_t> &module,
                                  uint32_t chain, uint32_t fanOut) {
  uint32_t dispatches = fanOut ? fanOut + 1 : chain;
  ExecutableWriter w;
  w.setFuelVersion("fuel-bench-run-overhead");
  w.setFunction(fanOut ? "fanout" : "chain");
  uint32_t cpu = w.addDevice(::fuel::Device::cpu(), 64);
  w.addModule(cpu, ModuleFormat::ElfSharedObject,
              {{"fuel_bench_trivial", 0, {}, {}}},
              {module.data(), module.size()});
  uint32_t out = w.addOutput("counters", ElementType::I32,
                             {int64_t(dispatches) * 16}, cpu);
  uint32_t buffer = w.program().outputs[out].buffer;
  for (uint32_t i = 0; i < dispatches; ++i) {
    Dispatch d;
    d.grid = {1, 1, 1};
    d.bindings = {{buffer, uint64_t(i) * 64, 64}};
    std::vector<uint32_t> deps;
    if (i)
      deps.push_back(fanOut ? 0 : i - 1);
    CommandReport r;
    r.nodeId = int64_t(i) + 1;
    r.opKind = "fuel.bench";
    r.kernelId = "cpu.bench.trivial";
    r.source = "generated";
    r.predictedNs = 100;
    w.addDispatch(d, std::move(deps), r);
  }
  StatusOr<std::vector<uint8_t>> bytes = w.finish();
  if (!bytes)
    die(bytes.status().message());
  return *bytes;
}

uint64_t parse(const char *arg, const char *flag) {
  char *end = nullptr;
  unsigned long long v = std::strtoull(arg + std::strlen(flag), &end, 10);
  if (!end || *end || end == arg + std::strlen(flag))
    die(std::string("bad value in ") + arg);
  return v;
}

} // namespace

int main(int argc, char **argv) {
  unsigned threads = 1, lanes = 0;
  uint64_t runs = 50, warmup = 5;
  SessionOptions::RunOn runOn = SessionOptions::RunOn::CallerThread;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!std::strncmp(a, "--threads=", 10))
      threads = unsigned(parse(a, "--threads="));
    else if (!std::strncmp(a, "--lanes=", 8))
      lanes = unsigned(parse(a, "--lanes="));
    else if (!std::strncmp(a, "--runs=", 7))
      runs = parse(a, "--runs=");
    else if (!std::strncmp(a, "--warmup=", 9))
      warmup = parse(a, "--warmup=");
    else if (!std::strcmp(a, "--run-on=caller"))
      runOn = SessionOptions::RunOn::CallerThread;
    else if (!std::strcmp(a, "--run-on=queues"))
      runOn = SessionOptions::RunOn::QueueThreads;
    else
      die(std::string("unknown argument ") + a);
  }
  if (!runs)
    die("--runs must be at least 1");

  std::string path = runtimeDirectory() + "/libfuel-bench-kernels.so";
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> module(std::istreambuf_iterator<char>(in), {});
  if (module.empty())
    die("cannot read " + path);

  RuntimeOptions ro;
  ro.threads = threads;
  StatusOr<std::unique_ptr<Runtime>> rt = Runtime::create(ro);
  if (!rt)
    die(rt.status().message());

  struct Case {
    const char *name;
    uint32_t chain, fanOut;
  };
  const Case cases[] = {{"chain1", 1, 0},
                        {"chain10", 10, 0},
                        {"chain30", 30, 0},
                        {"chain100", 100, 0},
                        {"fanout10", 0, 10}};
  for (const Case &c : cases) {
    std::vector<uint8_t> bytes = buildProgram(module, c.chain, c.fanOut);
    auto exe = (*rt)->loadExecutableBytes(bytes.data(), bytes.size());
    if (!exe)
      die(exe.status().message());
    SessionOptions so;
    so.lanes = lanes;
    so.runOn = runOn;
    auto session = Session::create(*exe, so);
    if (!session)
      die(session.status().message());
    Session &s = **session;
    std::vector<uint64_t> wall, overhead;
    for (uint64_t r = 0; r < warmup + runs; ++r) {
      uint64_t start = monotonicNs();
      if (Status st = s.run(); !st)
        die(st.message());
      uint64_t ns = monotonicNs() - start;
      uint64_t kernels = 0;
      for (const CommandTime &t : s.commandTimes())
        kernels += t.durationNs();
      if (r < warmup)
        continue;
      wall.push_back(ns);
      overhead.push_back(ns > kernels ? ns - kernels : 0);
    }
    uint32_t commands = c.fanOut ? c.fanOut + 1 : c.chain;
    std::string line =
        std::string("{\"case\": \"") + c.name +
        "\", \"commands\": " + std::to_string(commands) +
        ", \"threads\": " + std::to_string(threads) + ", \"run_on\": \"" +
        (s.lastRunOnCaller() ? "caller" : "queues") +
        "\", \"lanes\": " + std::to_string(s.laneLimit()) + ", \"wall_ns\": [";
    for (size_t i = 0; i < wall.size(); ++i)
      line += (i ? ", " : "") + std::to_string(wall[i]);
    line += "], \"overhead_ns\": [";
    for (size_t i = 0; i < overhead.size(); ++i)
      line += (i ? ", " : "") + std::to_string(overhead[i]);
    line += "]}";
    std::printf("%s\n", line.c_str());
  }
  return 0;
}
