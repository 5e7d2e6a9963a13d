//===- Calibrate.cpp - Measured links and device figures ------------------===//
//
// `fuel-judge --calibrate-links` (Judge.h): copy timings through the copy
// benchmark's code (runtime/measure/LinkMeasure.h), fitted with fitLink, and
// each device's dispatch overhead measured on a one-element add compiled for
// it, written into a topology the `topology` option accepts.
//
//===----------------------------------------------------------------------===//

#include "Judge.h"

#include "LinkMeasure.h"

#include "fuel/Compiler/Compiler.h"
#include "fuel/Runtime/Measure.h"
#include "fuel/Runtime/Runtime.h"
#include "fuel/Target/TopologyFile.h"
#include "fuel/Target/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <ctime>

namespace fuel::judge {

namespace {

/// The dispatch overhead of `device`: the median time of a one-element add
/// dispatched there, through the runtime's measuring loop.
llvm::Expected<double> dispatchOverheadNs(const ::fuel::rt::Runtime &rt,
                                          const ::fuel::Device &device,
                                          llvm::StringRef topology) {
  std::string text = llvm::formatv(
      R"(func.func @dispatch(%a: tensor<1xf32>, %b: tensor<1xf32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1xf32>
  %r = linalg.add {{fuel.pin = #fuel.device<{0}>}
      ins(%a, %b : tensor<1xf32>, tensor<1xf32>)
      outs(%e : tensor<1xf32>) -> tensor<1xf32>
  return %r : tensor<1xf32>
})",
      device.str());
  mlir::DialectRegistry registry;
  mlir::fuel::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  // The diagnostics become an error message: no op text in them.
  context.printOpOnDiagnostic(false);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module)
    return llvm::createStringError("the dispatch probe does not parse: " +
                                   diagnostics);
  mlir::fuel::CompileOptions options;
  options.planning.topology = topology.str();
  mlir::FailureOr<std::vector<uint8_t>> bytes =
      mlir::fuel::compile(*module, options);
  if (mlir::failed(bytes))
    return llvm::createStringError("compiling the dispatch probe for " +
                                   device.str() + " failed: " + diagnostics);
  ::fuel::rt::Manifest m;
  m.version = ::fuel::rt::kJobManifestVersion;
  m.fuelVersion = ::fuel::target::kFuelVersion;
  ::fuel::rt::MeasureJob job;
  job.id = "dispatch-" + device.str();
  job.path = job.id;
  job.device = device;
  job.kernel = "dispatch probe";
  job.inputs = {{"f32", {1}}, {"f32", {1}}};
  job.bytes = std::move(*bytes);
  m.jobs.push_back(std::move(job));
  ::fuel::rt::MeasureOptions mo;
  mo.budgetSeconds = 2;
  std::vector<::fuel::rt::JobResult> r = ::fuel::rt::measureJobs(rt, m, mo);
  if (r.front().state != ::fuel::rt::JobResult::State::Measured)
    return llvm::createStringError("measuring the dispatch probe on " +
                                   device.str() + ": " + r.front().reason);
  return r.front().stats.medianNs;
}

} // namespace

llvm::Expected<std::string> calibrateLinks(const CalibrateOptions &options,
                                           ProfileDB *db,
                                           llvm::raw_ostream &log) {
  llvm::Expected<plan::Topology> topo =
      target::resolveTopology(options.topology);
  if (!topo)
    return topo.takeError();
  llvm::Expected<std::unique_ptr<::fuel::rt::Runtime>> rt =
      createRuntime(options.threads);
  if (!rt)
    return rt.takeError();
  ::fuel::rt::Device *cpu = (*rt)->device(::fuel::Device::cpu());
  if (!cpu)
    return llvm::createStringError("the runtime has no cpu device");

  auto repetitions = [](uint64_t n) -> int {
    return n <= (256u << 10) ? 21 : (n <= (8u << 20) ? 9 : 5);
  };
  auto recordLink = [&](const ::fuel::rt::LinkPairTiming &t) -> llvm::Error {
    log << llvm::formatv("fuel-judge: {0}->{1}:", t.from, t.to);
    for (const ::fuel::rt::LinkSample &s : t.samples)
      log << llvm::formatv(" {0} {1:f0} ns", ::fuel::rt::humanBytes(s.bytes),
                           s.ns);
    if (!t.fit.ok) {
      log << ", fit failed: " << t.fit.error << "\n";
      return llvm::Error::success();
    }
    log << llvm::formatv(", fit latency {0:f0} ns, {1:f2} GB/s\n",
                         t.fit.latencyNsClamped(), t.fit.bytesPerNs);
    if (!db)
      return llvm::Error::success();
    LinkMeasurement link;
    link.from = t.from;
    link.to = t.to;
    for (const ::fuel::rt::LinkSample &s : t.samples) {
      link.sizes.push_back(s.bytes);
      link.timesNs.push_back(s.ns);
    }
    link.latencyNs = t.fit.latencyNsClamped();
    link.bandwidthBytesPerSec = double(t.fit.bandwidthBytesPerSecond());
    link.timestamp = int64_t(std::time(nullptr));
    link.fuelVersion = ::fuel::target::kFuelVersion;
    return db->insertLink(link);
  };

  for (plan::DeviceInfo &info : topo->devices) {
    ::fuel::Device d = info.device;
    ::fuel::rt::Device *dev = cpu;
    if (d != ::fuel::Device::cpu()) {
      ::fuel::rt::StatusOr<::fuel::rt::Device *> opened = (*rt)->openDevice(d);
      if (!opened) {
        log << "fuel-judge: " << d.str()
            << " is not present, its figures kept: "
            << opened.status().message() << "\n";
        continue;
      }
      dev = *opened;
    }
    ::fuel::rt::StatusOr<std::vector<::fuel::rt::LinkPairTiming>> timed =
        ::fuel::rt::timeDeviceLinks(*cpu, *dev, options.sizes, repetitions);
    if (!timed)
      return llvm::createStringError(timed.status().message());
    for (const ::fuel::rt::LinkPairTiming &t : *timed) {
      bool within = t.from == t.to;
      // On the host, the three directions are all copies within it: only
      // the last (Device::copy) is the one to keep.
      if (d == ::fuel::Device::cpu() && &t != &timed->back())
        continue;
      if (llvm::Error e = within ? llvm::Error::success() : recordLink(t))
        return std::move(e);
      if (!t.fit.ok)
        continue;
      if (within) {
        // A copy reads and writes each byte: the streaming rate is twice.
        info.bytesPerNs = 2 * t.fit.bytesPerNs;
        log << llvm::formatv("fuel-judge: {0} streaming {1:f2} GB/s\n", d.str(),
                             *info.bytesPerNs);
        continue;
      }
      ::fuel::Device from = *::fuel::Device::parse(t.from);
      ::fuel::Device to = *::fuel::Device::parse(t.to);
      plan::Link link;
      link.from = from;
      link.to = to;
      link.pathClass = info.cpuType ? plan::PathClass::SharedMemory
                                    : plan::PathClass::DeviceCopy;
      if (const plan::Link *old = topo->findLink(from, to))
        link.pathClass = old->pathClass;
      link.bandwidthBytesPerSec =
          std::max<int64_t>(1, int64_t(t.fit.bandwidthBytesPerSecond()));
      link.latencyNs = int64_t(std::llround(t.fit.latencyNsClamped()));
      auto it = std::find_if(
          topo->links.begin(), topo->links.end(),
          [&](const plan::Link &l) { return l.from == from && l.to == to; });
      if (it != topo->links.end())
        *it = link;
      else
        topo->links.push_back(link);
    }
    llvm::Expected<double> overhead =
        dispatchOverheadNs(**rt, d, options.topology);
    if (!overhead)
      return overhead.takeError();
    info.dispatchOverheadNs = int64_t(std::llround(*overhead));
    log << llvm::formatv("fuel-judge: {0} dispatch overhead {1} ns\n", d.str(),
                         info.dispatchOverheadNs);
  }
  topo->canonicalize();
  if (std::string problem = topo->validate(); !problem.empty())
    return llvm::createStringError("the calibrated topology is not valid: " +
                                   problem);
  return target::printTopologyJSON(*topo);
}

} // namespace fuel::judge
