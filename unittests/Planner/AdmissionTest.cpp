//===- AdmissionTest.cpp - Decision device, admission, filter chain -------===//
//
// SEMANTICS §3 steps 1, 2, 4 and 5: the admission table row by row, each
// filter's soft and hard behaviour, fallback freezing and both errors.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Testing/PlannerTestUtil.h"

#include "fuel/Planner/Admission.h"
#include "fuel/Planner/Error.h"

#include "gtest/gtest.h"

using namespace fuel::plan;
using fuel::plan::testing::makeCandidate;

namespace {

const std::vector<Device> kDevices = {Device::cpu(), Device::cuda(0),
                                      Device::vulkan(0)};

std::vector<AdmittedDevice> admit(Device decision, AdmissionOptions options) {
  llvm::Expected<std::vector<AdmittedDevice>> a =
      admitDevices(decision, kDevices, options);
  if (!a) {
    ADD_FAILURE() << llvm::toString(a.takeError());
    return {};
  }
  return *a;
}

/// Runs `expr` (an llvm::Expected), expects a PlanError of `kind`, returns
/// the error for inspection.
template <typename T>
std::unique_ptr<PlanError> expectError(llvm::Expected<T> e,
                                       PlanError::Kind kind) {
  if (e) {
    ADD_FAILURE() << "expected an error";
    return nullptr;
  }
  std::unique_ptr<PlanError> out;
  llvm::handleAllErrors(e.takeError(), [&](std::unique_ptr<PlanError> err) {
    out = std::move(err);
  });
  EXPECT_TRUE(out);
  if (out)
    EXPECT_EQ(out->getKind(), kind) << out->message();
  return out;
}

TEST(AdmissionTest, DecisionDevice) {
  llvm::Expected<Device> pinned =
      decideDevice(Device::cuda(0), Device::cpu(), "node 3");
  ASSERT_TRUE(bool(pinned));
  EXPECT_EQ(*pinned, Device::cuda(0));
  llvm::Expected<Device> pipeline =
      decideDevice(std::nullopt, Device::vulkan(1), "node 3");
  ASSERT_TRUE(bool(pipeline));
  EXPECT_EQ(*pipeline, Device::vulkan(1));
  auto err = expectError(decideDevice(std::nullopt, std::nullopt, "node 3"),
                         PlanError::Kind::NoDeviceContext);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->message(), "no device context for node 3: it carries no pin "
                            "and the pipeline's pinned-device is 'none'");
}

TEST(AdmissionTest, Table) {
  // Row 1: pinned or destructive -> the decision device only, whatever the
  // options.
  for (bool price : {false, true})
    for (bool allow : {false, true})
      EXPECT_EQ(admit(Device::cuda(0), {true, price, allow}),
                (std::vector<AdmittedDevice>{{Device::cuda(0), false}}));
  // Row 2: free, both on -> every device, decision device first.
  EXPECT_EQ(admit(Device::vulkan(0), {false, true, true}),
            (std::vector<AdmittedDevice>{{Device::vulkan(0), false},
                                         {Device::cpu(), false},
                                         {Device::cuda(0), false}}));
  // Rows 3 and 4: free, pricing or cost placement off -> fallbacks.
  std::vector<AdmittedDevice> fallback{{Device::cpu(), false},
                                       {Device::cuda(0), true},
                                       {Device::vulkan(0), true}};
  EXPECT_EQ(admit(Device::cpu(), {false, true, false}), fallback);
  EXPECT_EQ(admit(Device::cpu(), {false, false, true}), fallback);
  EXPECT_EQ(admit(Device::cpu(), {false, false, false}), fallback);
}

TEST(AdmissionTest, UnknownDecisionDevice) {
  auto err = expectError(admitDevices(Device::cuda(3), kDevices, {}),
                         PlanError::Kind::UnknownDevice);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->message(), "decision device 'cuda:3' is not in the topology "
                            "(devices: cpu, cuda:0, vulkan:0)");
}

SelectionContext context() {
  SelectionContext ctx;
  ctx.decision = {OpKind::Matmul, "f32", 0x0f0608, Device::cpu()};
  ctx.dtypes = {{"f32", "f32"}, {"f32"}};
  ctx.devicesPresent = kDevices;
  ctx.registered = {"(cpu, matmul, f16)", "(cuda, softmax, f32)"};
  return ctx;
}

Precision ulpPrecision(uint64_t u, bool bitStable = false) {
  Precision p;
  p.maxUlp = u;
  p.bitStable = bitStable;
  return p;
}

std::vector<std::string> ids(const Selection &s) {
  std::vector<std::string> out;
  for (const Candidate &c : s.candidates)
    out.push_back(c.kernelId);
  return out;
}

using Ids = std::vector<std::string>;

TEST(AdmissionTest, NoBackendForOpBeforeFilters) {
  std::vector<AdmittedDevice> admitted = admit(Device::cpu(), {});
  // A candidate on a device that was not admitted does not count.
  std::vector<Candidate> cands = {makeCandidate("x", Device::cuda(5), 1)};
  FilterOptions opts;
  opts.requirement = Precision::reference();
  auto err = expectError(selectCandidates(cands, admitted, opts, context()),
                         PlanError::Kind::NoBackendForOp);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->op(), "matmul");
  EXPECT_EQ(err->dtypes(), "f32,f32->f32");
  EXPECT_EQ(err->devicesPresent(), (Ids{"cpu", "cuda:0", "vulkan:0"}));
  EXPECT_EQ(err->registered(),
            (Ids{"(cpu, matmul, f16)", "(cuda, softmax, f32)"}));
  EXPECT_EQ(err->message(),
            "no backend for op 'matmul' with dtypes (f32,f32->f32) on the "
            "admitted devices; devices present: cpu, cuda:0, vulkan:0; "
            "registered (backend, op, dtypes): (cpu, matmul, f16), (cuda, "
            "softmax, f32)");
}

TEST(AdmissionTest, HardFilterRemovesOnlyTheEmptiedDevice) {
  std::vector<AdmittedDevice> admitted = admit(Device::cpu(), {});
  std::vector<Candidate> cands = {
      makeCandidate("cpu.a", Device::cpu(), 10),
      makeCandidate("cuda.a", Device::cuda(0), 10, "generated", 0, 0,
                    ulpPrecision(0)),
      makeCandidate("cuda.b", Device::cuda(0), 10),
      makeCandidate("vk.a", Device::vulkan(0), 10, "generated", 0, 0,
                    ulpPrecision(1))};
  FilterOptions opts;
  opts.requirement.maxUlp = 1;
  llvm::Expected<Selection> s =
      selectCandidates(cands, admitted, opts, context());
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(ids(*s), (Ids{"cuda.a", "vk.a"}));
  EXPECT_EQ(s->devices,
            (std::vector<Device>{Device::cuda(0), Device::vulkan(0)}));
  EXPECT_FALSE(s->usedFallback);
  ASSERT_FALSE(s->trace.empty());
  EXPECT_EQ(s->trace[0].filter, kPrecisionFloorFilter);
  EXPECT_EQ(s->trace[0].device, Device::cpu());
  EXPECT_EQ(s->trace[0].action, FilterStep::Action::RemovedDevice);
  EXPECT_EQ(s->trace[0].actionName(), "removed-device");
  EXPECT_EQ(s->trace[0].before, 1u);
}

TEST(AdmissionTest, HardFilterRejectingEverythingLeavesTheSetUnchanged) {
  std::vector<AdmittedDevice> admitted = admit(Device::cpu(), {});
  std::vector<Candidate> cands = {makeCandidate("cpu.a", Device::cpu(), 10),
                                  makeCandidate("cpu.b", Device::cpu(), 20),
                                  makeCandidate("cuda.a", Device::cuda(0), 5)};
  std::vector<Candidate> before = cands;
  FilterOptions opts;
  opts.requirement = Precision::deterministic();
  auto err = expectError(selectCandidates(cands, admitted, opts, context()),
                         PlanError::Kind::FilterRejected);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->filter(), "precision-floor");
  EXPECT_EQ(err->count(), 3u);
  EXPECT_EQ(err->context(),
            "matmul f32 size_class=0x0f0608 decision_device=cpu");
  EXPECT_EQ(err->message(),
            "filter 'precision-floor' rejected every candidate (3) of matmul "
            "f32 size_class=0x0f0608 decision_device=cpu (requirement "
            "deterministic)");
  EXPECT_EQ(cands, before);
}

TEST(AdmissionTest, SoftStridedPreference) {
  std::vector<AdmittedDevice> admitted = admit(Device::cpu(), {true});
  std::vector<Candidate> cands = {makeCandidate("plain", Device::cpu(), 10),
                                  makeCandidate("strided", Device::cpu(), 20)};
  cands[1].caps = {"strided_input"};
  FilterOptions opts;
  // Contiguous operands: the preference is inactive.
  llvm::Expected<Selection> s =
      selectCandidates(cands, admitted, opts, context());
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(ids(*s), (Ids{"plain", "strided"}));
  EXPECT_EQ(s->trace[1].action, FilterStep::Action::Inactive);
  // A non-contiguous operand: prefer the strided-input kernel.
  opts.hasNonContiguousOperand = true;
  s = selectCandidates(cands, admitted, opts, context());
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(ids(*s), (Ids{"strided"}));
  EXPECT_EQ(s->trace[1].filter, kStridedInputFilter);
  EXPECT_EQ(s->trace[1].action, FilterStep::Action::Applied);
  EXPECT_EQ(s->trace[1].before, 2u);
  EXPECT_EQ(s->trace[1].after, 1u);
  // Nobody has the cap: the soft filter is skipped, nothing removed.
  cands[1].caps.clear();
  s = selectCandidates(cands, admitted, opts, context());
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(ids(*s), (Ids{"plain", "strided"}));
  EXPECT_EQ(s->trace[1].action, FilterStep::Action::Skipped);
  EXPECT_EQ(s->trace[1].actionName(), "skipped");
}

TEST(AdmissionTest, SoftBitStablePreferenceOnlyWhenAsked) {
  std::vector<AdmittedDevice> admitted = admit(Device::cpu(), {});
  std::vector<Candidate> cands = {
      makeCandidate("cpu.fast", Device::cpu(), 10),
      makeCandidate("cpu.stable", Device::cpu(), 20, "generated", 0, 0,
                    Precision::deterministic()),
      makeCandidate("cuda.fast", Device::cuda(0), 5)};
  FilterOptions opts;
  llvm::Expected<Selection> s =
      selectCandidates(cands, admitted, opts, context());
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(ids(*s), (Ids{"cpu.fast", "cpu.stable", "cuda.fast"}));
  opts.preferBitStable = true;
  s = selectCandidates(cands, admitted, opts, context());
  ASSERT_TRUE(bool(s));
  // Per device with minimum 1: cpu keeps the stable one; cuda has none
  // stable, so the filter is skipped there.
  EXPECT_EQ(ids(*s), (Ids{"cpu.stable", "cuda.fast"}));
  std::vector<FilterStep::Action> actions;
  for (const FilterStep &step : s->trace)
    if (step.filter == kBitStableFilter)
      actions.push_back(step.action);
  EXPECT_EQ(actions,
            (std::vector<FilterStep::Action>{FilterStep::Action::Applied,
                                             FilterStep::Action::Skipped}));
}

TEST(AdmissionTest, FallbackOnlyWhenDecisionDeviceHasNoSurvivor) {
  std::vector<AdmittedDevice> admitted = admit(Device::cpu(), {false, false});
  std::vector<Candidate> cands = {makeCandidate("cpu.a", Device::cpu(), 100),
                                  makeCandidate("cuda.a", Device::cuda(0), 5),
                                  makeCandidate("vk.a", Device::vulkan(0), 1)};
  llvm::Expected<Selection> s =
      selectCandidates(cands, admitted, {}, context());
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(ids(*s), (Ids{"cpu.a"}));
  EXPECT_FALSE(s->usedFallback);
  // Fallback devices were not consulted: the trace names only cpu.
  for (const FilterStep &step : s->trace)
    EXPECT_EQ(step.device, Device::cpu());
}

TEST(AdmissionTest, FallbackSetFrozenToItsWinner) {
  std::vector<AdmittedDevice> admitted =
      admit(Device::cpu(), {false, true, false});
  // No cpu variant at all.
  std::vector<Candidate> cands = {
      makeCandidate("cuda.slow", Device::cuda(0), 50),
      makeCandidate("cuda.fast", Device::cuda(0), 5),
      makeCandidate("vk.a", Device::vulkan(0), 7)};
  llvm::Expected<Selection> s =
      selectCandidates(cands, admitted, {}, context());
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(ids(*s), (Ids{"cuda.fast"}));
  EXPECT_TRUE(s->usedFallback);
  EXPECT_TRUE(s->candidates[0].fallback);
  EXPECT_EQ(s->devices, (std::vector<Device>{Device::cuda(0)}));
}

TEST(AdmissionTest, FallbackAfterTheHardFilterEmptiesTheDecisionDevice) {
  std::vector<AdmittedDevice> admitted = admit(Device::cpu(), {false, false});
  std::vector<Candidate> cands = {
      makeCandidate("cpu.a", Device::cpu(), 1),
      makeCandidate("cuda.a", Device::cuda(0), 9, "cublas", 0, 0,
                    ulpPrecision(0)),
      makeCandidate("vk.a", Device::vulkan(0), 3),
      makeCandidate("vk.b", Device::vulkan(0), 8, "generated", 0, 0,
                    ulpPrecision(0))};
  FilterOptions opts;
  opts.requirement.maxUlp = 0;
  llvm::Expected<Selection> s =
      selectCandidates(cands, admitted, opts, context());
  ASSERT_TRUE(bool(s));
  EXPECT_EQ(ids(*s), (Ids{"vk.b"}));
  EXPECT_TRUE(s->usedFallback);
  EXPECT_TRUE(s->candidates[0].fallback);
  // Everything rejected everywhere: FilterRejected counts all four.
  opts.requirement.maxUlp.reset();
  opts.requirement.bitStable = true;
  auto err = expectError(selectCandidates(cands, admitted, opts, context()),
                         PlanError::Kind::FilterRejected);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->count(), 4u);
}

TEST(AdmissionTest, PinnedNodeWithoutVariantIsNoBackendForOp) {
  std::vector<AdmittedDevice> admitted = admit(Device::cuda(0), {true});
  std::vector<Candidate> cands = {makeCandidate("cpu.a", Device::cpu(), 1)};
  expectError(selectCandidates(cands, admitted, {}, context()),
              PlanError::Kind::NoBackendForOp);
}

} // namespace
