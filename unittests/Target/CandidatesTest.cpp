//===- CandidatesTest.cpp - Candidate construction from a registry --------===//
//
// buildCandidates turns the records for a node on its admitted devices into
// candidates (fields copied from the record, couplings only on their own
// device, device order then id order, nothing for an unregistered dtype),
// from whichever registry it is given; priceCandidate sets the static cost,
// time and footprint from the record and the device, reports prior rates
// and names the candidate in its errors.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/Candidates.h"

#include "fuel/Planner/CostModel.h"

#include <gtest/gtest.h>

using namespace fuel;
using namespace fuel::target;
using plan::Device;
using plan::OpKind;

namespace {

std::vector<std::string> ids(const std::vector<plan::Candidate> &candidates) {
  std::vector<std::string> out;
  for (const plan::Candidate &c : candidates)
    out.push_back(c.kernelId + "@" + c.device.str());
  return out;
}

CandidateQuery matmulF32() {
  CandidateQuery q;
  q.op = OpKind::Matmul;
  q.dtypes = {"f32", "f32", "f32"};
  return q;
}

TEST(Candidates, OnePerRecordOnEveryAdmittedDevice) {
  const KernelRegistry &reg = KernelRegistry::get();
  std::vector<plan::Candidate> candidates = buildCandidates(
      reg, matmulF32(), {{Device::cpu(), false}, {Device::cuda(0), true}});
  EXPECT_EQ(ids(candidates),
            (std::vector<std::string>{
                "cpu.blis.matmul_f32@cpu", "cpu.generated.matmul_f32@cpu",
                "cpu.openblas.matmul_f32@cpu", "cuda.cublas.matmul_f32@cuda:0",
                "cuda.generated.matmul_f32@cuda:0"}));
  for (const plan::Candidate &c : candidates) {
    const KernelRecord *r = reg.find(c.kernelId);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(c.caps, r->caps);
    EXPECT_EQ(c.kernelSource, stringifyKernelSource(r->source));
    EXPECT_EQ(c.revisionHash, r->revision);
    EXPECT_EQ(c.registryPriority, r->priority);
    EXPECT_EQ(c.precision.note, r->precision.note);
    EXPECT_EQ(c.fallback, c.device == Device::cuda(0));
    // Not priced yet.
    EXPECT_EQ(c.timeNs, 0);
  }
}

TEST(Candidates, ParamsAndCouplingsOnTheirDevice) {
  CandidateQuery q;
  q.op = OpKind::Elementwise;
  q.dtypes = {"f32", "f32"};
  q.params = {{"fn", "exp"}};
  plan::CouplingAdjustment adj;
  adj.otherNode = 7;
  adj.deltaNs = -250;
  q.couplings = {{Device::cuda(0), adj}};
  std::vector<plan::Candidate> candidates =
      buildCandidates(KernelRegistry::get(), q,
                      {{Device::cpu(), false}, {Device::cuda(0), false}});
  ASSERT_EQ(candidates.size(), 2u);
  for (const plan::Candidate &c : candidates) {
    EXPECT_EQ(c.param("fn"), std::optional<llvm::StringRef>("exp"));
    if (c.device == Device::cuda(0))
      EXPECT_EQ(c.couplings, std::vector<plan::CouplingAdjustment>{adj});
    else
      EXPECT_TRUE(c.couplings.empty());
  }
}

TEST(Candidates, NothingForAnUnregisteredDtype) {
  CandidateQuery q = matmulF32();
  q.dtypes = {"f64", "f64", "f64"};
  EXPECT_TRUE(
      buildCandidates(KernelRegistry::get(), q, {{Device::cpu(), false}})
          .empty());
}

TEST(Candidates, FromAnotherRegistry) {
  llvm::Expected<KernelRegistry> reg = KernelRegistry::parse(R"({
    "version": 1,
    "kernels": [{
      "id": "cpu.generated.matmul_tiled", "op": "matmul", "dtype": "f32",
      "backend": "cpu", "source": "generated", "precision": "unaudited",
      "precision_note": "unaudited: a test kernel",
      "efficiency_compute": 1, "efficiency_memory": 1, "overhead_ns": 0,
      "priority": 0, "cost": "matmul", "schedule": "tiled",
      "lowering": "kernels/schedules/cpu/matmul_tiled.mlir"}]})",
                                                             "test.json");
  ASSERT_TRUE(bool(reg)) << llvm::toString(reg.takeError());
  EXPECT_EQ(
      ids(buildCandidates(*reg, matmulF32(),
                          {{Device::cpu(), false}, {Device::cuda(0), false}})),
      std::vector<std::string>{"cpu.generated.matmul_tiled@cpu"});
}

/// A cpu with rates, and a cuda:0 without any (it takes the GPU priors).
plan::Topology testTopology() {
  plan::Topology t;
  plan::DeviceInfo cpu;
  cpu.device = Device::cpu();
  cpu.peakFlopsPerNs = {{"f32", 100.0}};
  cpu.bytesPerNs = 20.0;
  cpu.dispatchOverheadNs = 100;
  plan::DeviceInfo cuda;
  cuda.device = Device::cuda(0);
  cuda.dispatchOverheadNs = 5000;
  t.devices = {cpu, cuda};
  return t;
}

PricingQuery matmul64() {
  PricingQuery q;
  q.cost.dims = {64, 64, 64};
  q.cost.elementBytes = 4;
  q.dtype = "f32";
  q.operandBytes = 2 * 64 * 64 * 4;
  q.resultBytes = 64 * 64 * 4;
  return q;
}

plan::Candidate candidateOf(llvm::StringRef id, Device device) {
  plan::Candidate c;
  c.kernelId = id.str();
  c.device = device;
  return c;
}

TEST(Candidates, PricedFromTheRecordAndTheDevice) {
  const KernelRegistry &reg = KernelRegistry::get();
  plan::Topology topology = testTopology();
  plan::Candidate c = candidateOf("cpu.blis.matmul_f32", Device::cpu());
  llvm::Expected<std::string> priors =
      priceCandidate(reg, topology, matmul64(), c);
  ASSERT_TRUE(bool(priors)) << llvm::toString(priors.takeError());
  EXPECT_EQ(*priors, "");
  const KernelRecord *r = reg.find(c.kernelId);
  EXPECT_EQ(c.cost.flops, 2u * 64 * 64 * 64);
  EXPECT_EQ(c.cost.bytes, 3u * 64 * 64 * 4);
  EXPECT_EQ(c.cost.overheadNs, r->overheadNs);
  plan::KernelTime time = plan::kernelTime(
      *topology.find(Device::cpu()), "f32", {c.cost.flops, c.cost.bytes},
      {r->efficiencyCompute, r->efficiencyMemory, r->overheadNs});
  EXPECT_EQ(c.timeNs, time.timeNs);
  EXPECT_GT(c.timeNs, 0);
  EXPECT_EQ(c.timeSource, plan::TimeSource::Static);
  // The host tier holds operands, result and the 4 MiB BLIS workspace.
  EXPECT_EQ(c.hostBytes, 3u * 64 * 64 * 4 + r->workspaceBytes);
  EXPECT_EQ(c.deviceBytes, 0u);
}

TEST(Candidates, PriorsAreReported) {
  plan::Topology topology = testTopology();
  plan::Candidate c = candidateOf("cuda.generated.matmul_f32", Device::cuda(0));
  llvm::Expected<std::string> priors =
      priceCandidate(KernelRegistry::get(), topology, matmul64(), c);
  ASSERT_TRUE(bool(priors)) << llvm::toString(priors.takeError());
  EXPECT_NE(priors->find("cuda:0"), std::string::npos) << *priors;
  EXPECT_EQ(c.hostBytes, 0u);
  EXPECT_EQ(c.deviceBytes, 3u * 64 * 64 * 4);
}

TEST(Candidates, PricingErrorsNameTheCandidate) {
  const KernelRegistry &reg = KernelRegistry::get();
  plan::Topology topology = testTopology();
  auto error = [&](plan::Candidate c, PricingQuery q) {
    llvm::Expected<std::string> r = priceCandidate(reg, topology, q, c);
    return r ? std::string() : llvm::toString(r.takeError());
  };
  EXPECT_EQ(
      error(candidateOf("cpu.generated.matmul_f64", Device::cpu()), matmul64()),
      "candidate 'cpu.generated.matmul_f64' names no kernel of the "
      "registry; re-run fuel-enumerate-candidates");
  EXPECT_EQ(error(candidateOf("vulkan.generated.matmul_f32", Device::vulkan(0)),
                  matmul64()),
            "candidate 'vulkan.generated.matmul_f32' is on device 'vulkan:0', "
            "which the topology does not have");
  PricingQuery twoDims = matmul64();
  twoDims.cost.dims = {64, 64};
  EXPECT_EQ(
      error(candidateOf("cpu.generated.matmul_f32", Device::cpu()), twoDims),
      "cannot price 'cpu.generated.matmul_f32': cost function 'matmul' "
      "takes 3 dimensions, got 2");
}

} // namespace
