//===- RegistryPlannerTest.cpp - The registry through the filter chain ----===//
//
// Enumerates the real registry on every device of a CPU + CUDA + Vulkan
// topology and runs the planner's filter chain over it: `precision=reference`
// rejects every kernel of every op kind with FilterRejected (no registered
// source claims a numeric bound), `deterministic` keeps only the generated
// CPU kernels, and no requirement keeps every backend.
//
//===----------------------------------------------------------------------===//

#include "fuel/Planner/Admission.h"
#include "fuel/Planner/Error.h"
#include "fuel/Planner/PrecisionRules.h"
#include "fuel/Target/Candidates.h"

#include "gtest/gtest.h"

using namespace fuel;
using namespace fuel::plan;
using llvm::Expected;

namespace {

const std::vector<Device> kDevices = {Device::cpu(), Device::cuda(0),
                                      Device::vulkan(0)};

/// One candidate per registry record for (op, f32) on every device.
std::vector<Candidate> enumerate(OpKind op) {
  target::CandidateQuery query;
  query.op = op;
  query.dtypes = {"f32", "f32", "f32"};
  std::vector<AdmittedDevice> admitted;
  for (Device d : kDevices)
    admitted.push_back({d, false});
  std::vector<Candidate> out =
      target::buildCandidates(target::KernelRegistry::get(), query, admitted);
  for (Candidate &c : out)
    c.timeNs = 1000;
  return out;
}

Expected<Selection> select(OpKind op, llvm::StringRef requirement) {
  Expected<Precision> req = parsePrecisionRequirement(requirement);
  EXPECT_TRUE(static_cast<bool>(req));
  if (!req)
    return req.takeError();
  std::vector<AdmittedDevice> admitted;
  for (Device d : kDevices)
    admitted.push_back({d, false});
  FilterOptions options;
  options.requirement = *req;
  SelectionContext context;
  context.decision.op = op;
  context.decision.principalDtype = "f32";
  context.decision.decisionDevice = Device::cpu();
  context.devicesPresent = kDevices;
  return selectCandidates(enumerate(op), admitted, options, context);
}

TEST(RegistryPlannerTest, ReferenceRejectsEveryKernel) {
  for (OpKind op : kAllOpKinds) {
    SCOPED_TRACE(std::string(stringifyOpKind(op)));
    ASSERT_FALSE(enumerate(op).empty());
    Expected<Selection> selection = select(op, "reference");
    ASSERT_FALSE(static_cast<bool>(selection));
    llvm::Error err = selection.takeError();
    bool filterRejected = false;
    llvm::handleAllErrors(std::move(err), [&](const PlanError &e) {
      filterRejected = e.getKind() == PlanError::Kind::FilterRejected;
    });
    EXPECT_TRUE(filterRejected);
  }
}

TEST(RegistryPlannerTest, DeterministicKeepsGeneratedCpuKernels) {
  for (OpKind op : kAllOpKinds) {
    SCOPED_TRACE(std::string(stringifyOpKind(op)));
    Expected<Selection> selection = select(op, "deterministic");
    ASSERT_TRUE(static_cast<bool>(selection))
        << llvm::toString(selection.takeError());
    ASSERT_FALSE(selection->candidates.empty());
    for (const Candidate &c : selection->candidates) {
      EXPECT_EQ(c.device, Device::cpu());
      EXPECT_EQ(c.kernelSource, "generated");
    }
  }
}

TEST(RegistryPlannerTest, NoRequirementKeepsEveryBackend) {
  for (OpKind op : kAllOpKinds) {
    SCOPED_TRACE(std::string(stringifyOpKind(op)));
    Expected<Selection> selection = select(op, "none");
    ASSERT_TRUE(static_cast<bool>(selection))
        << llvm::toString(selection.takeError());
    for (Device d : kDevices)
      EXPECT_TRUE(llvm::any_of(selection->candidates, [&](const Candidate &c) {
        return c.device == d;
      })) << d.str();
  }
}

} // namespace
