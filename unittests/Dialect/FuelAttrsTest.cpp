//===- FuelAttrsTest.cpp - Building, reading and uniquing fuel attributes -===//
//
// Every fuel attribute built from C++, parsed from text and printed back, and
// checked for uniquing; the placement interface; kind and topology
// conversions to and from the planner's vocabulary.
//
//===----------------------------------------------------------------------===//

#include "fuel/Dialect/Fuel/IR/CpuTarget.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Dialect/Fuel/IR/GpuLimits.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fuel;

namespace {

class FuelAttrsTest : public ::testing::Test {
protected:
  FuelAttrsTest() { ctx.loadDialect<FuelDialect>(); }

  /// Parses `text` as an attribute; null on failure (diagnostics muted).
  Attribute parse(StringRef text) {
    ScopedDiagnosticHandler silence(&ctx,
                                    [](Diagnostic &) { return success(); });
    return parseAttribute(text, &ctx);
  }

  static std::string print(Attribute attr) {
    std::string s;
    llvm::raw_string_ostream os(s);
    attr.print(os);
    return s;
  }

  CandidateAttr makeCandidate(StringRef id, DeviceAttr device, int64_t time) {
    return CandidateAttr::get(
        &ctx, id, "generated", device.getKind(), device,
        ArrayAttr::get(&ctx, {}), PrecisionAttr::getDeterministic(&ctx),
        CostAttr::get(&ctx, 100, 200, 5), time, TimeSource::static_, 0, 0, 64,
        0, 0, DictionaryAttr::get(&ctx), ArrayAttr::get(&ctx, {}), 0, 0, false);
  }

  MLIRContext ctx;
};

TEST_F(FuelAttrsTest, DeviceBuildParsePrintUnique) {
  DeviceAttr cpu = DeviceAttr::getHost(&ctx);
  DeviceAttr cuda0 = DeviceAttr::get(&ctx, DeviceKind::cuda, 0);
  EXPECT_TRUE(cpu.isHost());
  EXPECT_EQ(cpu.str(), "cpu");
  EXPECT_EQ(cuda0.str(), "cuda:0");
  EXPECT_EQ(print(cuda0), "#fuel.device<cuda:0>");
  EXPECT_EQ(parse("#fuel.device<cuda:0>"), cuda0);
  EXPECT_EQ(DeviceAttr::get(&ctx, DeviceKind::cuda, 0), cuda0);
  EXPECT_NE(DeviceAttr::get(&ctx, DeviceKind::cuda, 1), cuda0);
  // Device order: cpu < cuda:N < vulkan:N, ordinals ascending.
  DeviceAttr cuda1 = DeviceAttr::get(&ctx, DeviceKind::cuda, 1);
  DeviceAttr vk0 = DeviceAttr::get(&ctx, DeviceKind::vulkan, 0);
  EXPECT_TRUE(cpu < cuda0);
  EXPECT_TRUE(cuda0 < cuda1);
  EXPECT_TRUE(cuda1 < vk0);
  EXPECT_FALSE(vk0 < cpu);
  // Planner conversion round-trips.
  EXPECT_EQ(fromPlan(&ctx, toPlan(vk0)), vk0);
  EXPECT_EQ(toPlan(cuda1), ::fuel::plan::Device::cuda(1));
}

TEST_F(FuelAttrsTest, DeviceRejectsBadInput) {
  auto emitLambda = [&] { return emitError(UnknownLoc::get(&ctx)); };
  function_ref<InFlightDiagnostic()> emit = emitLambda;
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_FALSE(
      DeviceAttr::getChecked(emit, &ctx, DeviceKind::cuda, int64_t(-1)));
  EXPECT_FALSE(DeviceAttr::getChecked(emit, &ctx, DeviceKind::cpu, int64_t(1)));
  EXPECT_FALSE(parse("#fuel.device<cpu:0>"));
  EXPECT_FALSE(parse("#fuel.device<tpu:0>"));
  EXPECT_FALSE(parse("#fuel.device<cuda>"));
}

// Tests that the attribute enums and fuel/Support's convert both ways, kind
// for kind, and that both spell every kind the same.
TEST(FuelEnumConversionTest, KindsMatchSupport) {
  for (::fuel::DeviceKind kind : ::fuel::kAllDeviceKinds) {
    DeviceKind ods = fromPlan(kind);
    EXPECT_EQ(toPlan(ods), kind);
    EXPECT_EQ(stringifyDeviceKind(ods).str(),
              std::string(::fuel::stringifyDeviceKind(kind)));
  }
  for (::fuel::OpKind kind : ::fuel::kAllOpKinds) {
    OpKind ods = fromPlan(kind);
    EXPECT_EQ(toPlan(ods), kind);
    EXPECT_EQ(stringifyOpKind(ods).str(),
              std::string(::fuel::stringifyOpKind(kind)));
  }
}

TEST_F(FuelAttrsTest, PlacementInterface) {
  DeviceAttr cpu = DeviceAttr::getHost(&ctx);
  DeviceAttr cuda0 = DeviceAttr::get(&ctx, DeviceKind::cuda, 0);
  auto placement = dyn_cast<PlacementAttrInterface>(cuda0);
  ASSERT_TRUE(placement);
  EXPECT_EQ(placement.getSingleDevice(), cuda0);
  EXPECT_TRUE(placement.admits(cuda0));
  EXPECT_FALSE(placement.admits(cpu));
  // Other attributes do not implement it.
  EXPECT_FALSE(isa<PlacementAttrInterface>(CostAttr::get(&ctx, 1, 2, 3)));
}

TEST_F(FuelAttrsTest, CostAndPrecision) {
  CostAttr cost = CostAttr::get(&ctx, 16, 32, 5);
  EXPECT_EQ(cost.getFlops(), 16);
  EXPECT_EQ(cost.getOverheadNs(), 5);
  EXPECT_EQ(parse("#fuel.cost<flops = 16, bytes = 32, overhead_ns = 5>"), cost);
  EXPECT_FALSE(parse("#fuel.cost<flops = -1, bytes = 32, overhead_ns = 5>"));

  PrecisionAttr ref = PrecisionAttr::getReference(&ctx);
  EXPECT_EQ(ref.getPresetName(), "reference");
  EXPECT_EQ(print(ref), "#fuel.precision<reference>");
  EXPECT_EQ(parse("#fuel.precision<bit_stable, ulp = 0, rel = 0.0, abs = 0.0>"),
            ref);
  EXPECT_EQ(PrecisionAttr::getDeterministic(&ctx).getPresetName(),
            "deterministic");
  EXPECT_EQ(PrecisionAttr::getUnaudited(&ctx).getPresetName(), "unaudited");
  auto custom = cast<PrecisionAttr>(
      parse("#fuel.precision<ulp = 1, rel = 1.0e-5, note = \"n\">"));
  EXPECT_FALSE(custom.getBitStable());
  EXPECT_EQ(custom.getMaxUlp(), uint64_t(1));
  EXPECT_EQ(custom.getMaxRelativeValue(), 1.0e-5);
  EXPECT_EQ(custom.getMaxAbsoluteValue(), std::nullopt);
  EXPECT_EQ(custom.getNote(), "n");
  EXPECT_EQ(custom.getPresetName(), "");
  EXPECT_FALSE(parse("#fuel.precision<rel = -1.0>"));
  EXPECT_FALSE(parse("#fuel.precision<ulp = -1>"));
}

TEST_F(FuelAttrsTest, DecisionAndCoupling) {
  DeviceAttr cpu = DeviceAttr::getHost(&ctx);
  Builder b(&ctx);
  DecisionAttr decision =
      DecisionAttr::get(&ctx, OpKind::matmul, b.getF32Type(), 0x0f0608, cpu);
  EXPECT_EQ(print(decision), "#fuel.decision<op = matmul, dtype = f32, "
                             "size_class = 0x0f0608, device = cpu>");
  EXPECT_EQ(parse(print(decision)), decision);

  CouplingAttr byBackend = CouplingAttr::get(
      &ctx, cpu, 3, DeviceKindAttr::get(&ctx, DeviceKind::cuda), -500);
  EXPECT_EQ(byBackend.getConditionBackend(), DeviceKind::cuda);
  EXPECT_FALSE(byBackend.getConditionDevice());
  EXPECT_EQ(parse(print(byBackend)), byBackend);
  CouplingAttr byDevice = CouplingAttr::get(&ctx, nullptr, 4, cpu, 7);
  EXPECT_EQ(byDevice.getConditionDevice(), cpu);
  EXPECT_EQ(byDevice.getConditionBackend(), std::nullopt);
  EXPECT_EQ(parse(print(byDevice)), byDevice);
}

TEST_F(FuelAttrsTest, CandidateAndAlternatives) {
  DeviceAttr cpu = DeviceAttr::getHost(&ctx);
  DeviceAttr cuda0 = DeviceAttr::get(&ctx, DeviceKind::cuda, 0);
  CandidateAttr a = makeCandidate("cpu.generated.matmul_f32", cpu, 900);
  CandidateAttr b = makeCandidate("cuda.generated.matmul_f32", cuda0, 100);
  EXPECT_EQ(makeCandidate("cpu.generated.matmul_f32", cpu, 900), a);
  EXPECT_EQ(parse(print(a)), a);
  EXPECT_EQ(a.getKernelId(), "cpu.generated.matmul_f32");
  EXPECT_EQ(a.getBackend(), DeviceKind::cpu);
  EXPECT_EQ(a.getTimeNs(), 900);

  Builder builder(&ctx);
  DecisionAttr decision = DecisionAttr::get(
      &ctx, OpKind::matmul, builder.getF32Type(), 0x0f0608, cpu);
  AlternativeSetAttr set = AlternativeSetAttr::get(&ctx, decision, {b, a});
  EXPECT_EQ(set.getWinner(), b);
  EXPECT_EQ(set.getCandidates().size(), 2u);
  EXPECT_EQ(parse(print(set)), set);

  // Backend must match the device kind; duplicates are rejected.
  auto emitLambda = [&] { return emitError(UnknownLoc::get(&ctx)); };
  function_ref<InFlightDiagnostic()> emit = emitLambda;
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_FALSE(CandidateAttr::getChecked(
      emit, &ctx, StringRef("k"), StringRef("generated"), DeviceKind::cuda, cpu,
      ArrayAttr::get(&ctx, {}), PrecisionAttr::getUnaudited(&ctx),
      CostAttr::get(&ctx, 0, 0, 0), int64_t(1), TimeSource::static_, int64_t(0),
      int64_t(0), int64_t(0), int64_t(0), int64_t(0), DictionaryAttr::get(&ctx),
      ArrayAttr::get(&ctx, {}), uint64_t(0), int64_t(0), false));
  EXPECT_FALSE(AlternativeSetAttr::getChecked(emit, &ctx, decision, {a, a}));
  EXPECT_FALSE(AlternativeSetAttr::getChecked(emit, &ctx, decision, {}));
}

TEST_F(FuelAttrsTest, TopologyConversionAndHash) {
  ::fuel::plan::Topology topology;
  ::fuel::plan::DeviceInfo host;
  host.device = ::fuel::plan::Device::cpu();
  host.cpuType = true;
  host.name = "host";
  host.peakFlopsPerNs["f32"] = 32.0;
  host.bytesPerNs = 20.0;
  host.dispatchOverheadNs = 1000;
  host.memoryBytes = 1 << 30;
  ::fuel::plan::DeviceInfo gpu;
  gpu.device = ::fuel::plan::Device::cuda(0);
  gpu.peakFlopsPerNs["f32"] = 50000.0;
  gpu.alignment = 256;
  topology.devices = {gpu, host};
  topology.links.push_back({::fuel::plan::Device::cpu(),
                            ::fuel::plan::Device::cuda(0), 25'000'000'000,
                            10'000, ::fuel::plan::PathClass::DeviceCopy});

  TopologyAttr attr = TopologyAttr::fromPlan(&ctx, topology);
  EXPECT_EQ(attr.getHash(), topology.contentHash());
  // Devices are canonicalised into device order.
  ASSERT_EQ(attr.getDevices().size(), 2u);
  EXPECT_TRUE(attr.getDevices()[0].getDevice().isHost());
  EXPECT_EQ(
      attr.lookup(DeviceAttr::get(&ctx, DeviceKind::cuda, 0)).getAlignment(),
      256);
  EXPECT_FALSE(attr.lookup(DeviceAttr::get(&ctx, DeviceKind::cuda, 1)));

  ::fuel::plan::Topology back = attr.toPlan();
  topology.canonicalize();
  ASSERT_EQ(back.devices.size(), topology.devices.size());
  for (size_t i = 0; i < back.devices.size(); ++i) {
    EXPECT_EQ(back.devices[i].device, topology.devices[i].device);
    EXPECT_EQ(back.devices[i].name, topology.devices[i].name);
    EXPECT_EQ(back.devices[i].peakFlopsPerNs,
              topology.devices[i].peakFlopsPerNs);
    EXPECT_EQ(back.devices[i].bytesPerNs, topology.devices[i].bytesPerNs);
    EXPECT_EQ(back.devices[i].alignment, topology.devices[i].alignment);
  }
  EXPECT_EQ(back.contentHash(), attr.getHash());
  // Text round trip keeps the attribute identical.
  EXPECT_EQ(parse(print(attr)), attr);
}

// Figures at the top of the file format's ranges print as IR that parses
// back to the same attribute: memory of 2^63 and 2^64 - 1, an alignment of
// 2^63 (held unsigned), and rates whose default MLIR spelling would be a
// hexadecimal bit pattern (whole numbers of 7 or more digits) or inexact.
TEST_F(FuelAttrsTest, TopologyExtremeFiguresRoundTrip) {
  const double rates[] = {
      1000001.0, 2147483648.0, 123456789.0, 9007199254740993.0,     1e22,
      0.1,       1.0 / 3.0,    5e-324,      1.7976931348623157e308, 32.0,
      0.0};
  for (double rate : rates) {
    ::fuel::plan::Topology topology;
    ::fuel::plan::DeviceInfo host;
    host.device = ::fuel::plan::Device::cpu();
    host.cpuType = true;
    host.peakFlopsPerNs["f32"] = rate;
    host.bytesPerNs = rate;
    host.memoryBytes = ~uint64_t(0);
    host.alignment = uint64_t(1) << 63;
    ::fuel::plan::DeviceInfo gpu;
    gpu.device = ::fuel::plan::Device::cuda(0);
    gpu.peakFlopsPerNs["f16"] = rate;
    gpu.memoryBytes = uint64_t(1) << 63;
    topology.devices = {host, gpu};
    TopologyAttr attr = TopologyAttr::fromPlan(&ctx, topology);
    std::string text = print(attr);
    SCOPED_TRACE(text);
    EXPECT_EQ(text.find("0x", text.find("devices")), std::string::npos);
    EXPECT_NE(text.find("memory = 18446744073709551615"), std::string::npos);
    EXPECT_NE(text.find("alignment = 9223372036854775808"), std::string::npos);
    Attribute parsed = parse(text);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed, attr);
    ::fuel::plan::Topology back = cast<TopologyAttr>(parsed).toPlan();
    ASSERT_EQ(back.devices.size(), 2u);
    EXPECT_EQ(back.devices[0].peakFlopsPerNs.at("f32"), rate);
    EXPECT_EQ(back.devices[0].bytesPerNs, rate);
    EXPECT_EQ(back.devices[0].memoryBytes, ~uint64_t(0));
    EXPECT_EQ(back.devices[0].alignment, uint64_t(1) << 63);
    EXPECT_EQ(back.devices[1].memoryBytes, uint64_t(1) << 63);
  }
  // A negative figure is refused, not wrapped.
  EXPECT_FALSE(parse("#fuel.topology<devices = [<cpu, memory = -1>]>"));
  EXPECT_FALSE(parse("#fuel.topology<devices = [<cpu, alignment = -64>]>"));
}

// The cpu target survives the conversions and is what getCpuTarget reads
// off a module; a module without a topology or without a target has none.
TEST_F(FuelAttrsTest, CpuTarget) {
  ::fuel::plan::Topology topology;
  ::fuel::plan::DeviceInfo host;
  host.device = ::fuel::plan::Device::cpu();
  host.cpuType = true;
  host.peakFlopsPerNs["f32"] = 32.0;
  topology.devices = {host};
  TopologyAttr plain = TopologyAttr::fromPlan(&ctx, topology);
  topology.devices[0].cpuTarget =
      ::fuel::plan::CpuTarget{"znver3", "+avx2,+fma"};
  TopologyAttr targeted = TopologyAttr::fromPlan(&ctx, topology);
  EXPECT_NE(plain.getHash(), targeted.getHash());
  EXPECT_EQ(targeted.getDevices()[0].getCpuTarget(), "znver3");
  EXPECT_EQ(targeted.getDevices()[0].getCpuFeatures(), "+avx2,+fma");
  ASSERT_TRUE(targeted.toPlan().devices[0].cpuTarget.has_value());
  EXPECT_EQ(*targeted.toPlan().devices[0].cpuTarget,
            *topology.devices[0].cpuTarget);
  EXPECT_EQ(parse(print(targeted)), targeted);

  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  EXPECT_FALSE(getCpuTarget(*module).has_value());
  (*module)->setAttr(FuelDialect::kTopologyAttrName, plain);
  EXPECT_FALSE(getCpuTarget(*module).has_value());
  (*module)->setAttr(FuelDialect::kTopologyAttrName, targeted);
  std::optional<std::pair<std::string, std::string>> target =
      getCpuTarget(*module);
  ASSERT_TRUE(target.has_value());
  EXPECT_EQ(target->first, "znver3");
  EXPECT_EQ(target->second, "+avx2,+fma");
}

// GPU limits survive fromPlan/toPlan and print/parse, change the hash, and
// are what getGpuLimits reads for the device asked about; a module without
// a topology, a device it lacks or a device without limits gives none.
TEST_F(FuelAttrsTest, GpuLimits) {
  ::fuel::plan::Topology topology;
  ::fuel::plan::DeviceInfo host;
  host.device = ::fuel::plan::Device::cpu();
  host.cpuType = true;
  ::fuel::plan::DeviceInfo vk;
  vk.device = ::fuel::plan::Device::vulkan(0);
  vk.cpuType = true;
  ::fuel::plan::DeviceInfo other;
  other.device = ::fuel::plan::Device::vulkan(1);
  topology.devices = {host, vk, other};
  TopologyAttr plain = TopologyAttr::fromPlan(&ctx, topology);

  ::fuel::plan::GpuLimits limits;
  limits.subgroupSize = 8;
  limits.sharedMemoryBytes = 32768;
  limits.maxWorkgroupInvocations = 1024;
  limits.maxWorkgroupSize[0] = 1024;
  limits.maxWorkgroupSize[1] = 512;
  limits.maxWorkgroupSize[2] = 64;
  limits.minStorageBufferOffsetAlignment = 16;
  limits.maxPushConstantsBytes = 128;
  limits.timestampPeriodNs = 0.25;
  topology.devices[1].gpuLimits = limits;
  TopologyAttr limited = TopologyAttr::fromPlan(&ctx, topology);
  EXPECT_NE(plain.getHash(), limited.getHash());
  EXPECT_EQ(limited.getHash(), topology.contentHash());
  ASSERT_TRUE(limited.getDevices()[1].getLimits());
  EXPECT_FALSE(limited.getDevices()[0].getLimits());
  EXPECT_EQ(limited.getDevices()[1].getLimits().getSubgroupSize(), 8);
  ASSERT_TRUE(limited.toPlan().devices[1].gpuLimits.has_value());
  EXPECT_EQ(*limited.toPlan().devices[1].gpuLimits, limits);
  EXPECT_EQ(parse(print(limited)), limited);
  // A partial set of limits round-trips too: the rest stay unknown.
  ::fuel::plan::GpuLimits partial;
  partial.subgroupSize = 32;
  GpuLimitsAttr partialAttr = GpuLimitsAttr::fromPlan(&ctx, partial);
  EXPECT_EQ(print(partialAttr), "#fuel.gpu_limits<subgroup_size = 32>");
  EXPECT_EQ(parse(print(partialAttr)), partialAttr);
  EXPECT_EQ(partialAttr.toPlan(), partial);

  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  ::fuel::Device vulkan0 = ::fuel::Device::vulkan(0);
  EXPECT_FALSE(getGpuLimits(*module, vulkan0).has_value());
  (*module)->setAttr(FuelDialect::kTopologyAttrName, plain);
  EXPECT_FALSE(getGpuLimits(*module, vulkan0).has_value());
  (*module)->setAttr(FuelDialect::kTopologyAttrName, limited);
  std::optional<::fuel::plan::GpuLimits> read = getGpuLimits(*module, vulkan0);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(*read, limits);
  EXPECT_FALSE(getGpuLimits(*module, ::fuel::Device::vulkan(1)).has_value());
  EXPECT_FALSE(getGpuLimits(*module, ::fuel::Device::vulkan(2)).has_value());
  EXPECT_FALSE(getGpuLimits(*module, ::fuel::Device::cpu()).has_value());
}

} // namespace

TEST_F(FuelAttrsTest, PlanConfigPrintsAsTheOptionsSpellThem) {
  // The configuration holds its requirement and sources typed and prints
  // them as the `precision` and `kernel-sources` options spell them: the
  // texts below print back unchanged.
  for (StringRef text : {
           "#fuel.config<price_transfers = true, allow_cost_placement = true, "
           "pinned_device = cpu, precision = \"none\">",
           "#fuel.config<price_transfers = false, allow_cost_placement = "
           "false, pinned_device = none, precision = \"reference\", "
           "kernel_sources = \"generated,openblas\">",
           "#fuel.config<price_transfers = true, allow_cost_placement = true, "
           "pinned_device = cuda:0, precision = \"bit-stable,ulp<=1,"
           "rel<=1e-05\", kernel_sources = \"cublas\">",
           "#fuel.config<price_transfers = true, allow_cost_placement = true, "
           "pinned_device = cpu, precision = \"deterministic\", "
           "kernel_sources = \"generated,openblas,blis,cublas\">",
       }) {
    auto config = dyn_cast_or_null<PlanConfigAttr>(parse(text));
    ASSERT_TRUE(config) << text.str();
    EXPECT_EQ(print(config), text);
  }

  // Built from the planner's structs (as fuel-attach-topology builds it),
  // the same attribute as its text.
  ::fuel::plan::Precision requirement;
  requirement.bitStable = true;
  requirement.maxUlp = 1;
  requirement.maxRelative = 1e-5;
  PlanConfigAttr built = PlanConfigAttr::get(
      &ctx, true, true, DeviceAttr::get(&ctx, DeviceKind::cuda, 0), requirement,
      {::fuel::target::KernelSource::CuBLAS});
  EXPECT_EQ(print(built), "#fuel.config<price_transfers = true, "
                          "allow_cost_placement = true, pinned_device = "
                          "cuda:0, precision = \"bit-stable,ulp<=1,"
                          "rel<=1e-05\", kernel_sources = \"cublas\">");
  EXPECT_EQ(parse(print(built)), built);
  EXPECT_EQ(built.getRequirement().maxUlp, std::optional<uint64_t>(1));
  EXPECT_EQ(built.getSourceList(), std::vector<::fuel::target::KernelSource>{
                                       ::fuel::target::KernelSource::CuBLAS});
  EXPECT_EQ(built.getPrecision(), "bit-stable,ulp<=1,rel<=1e-05");
  EXPECT_EQ(built.getKernelSources(), "cublas");

  // Text that is not canonical, or names what does not exist, is refused.
  EXPECT_FALSE(parse("#fuel.config<price_transfers = true, "
                     "allow_cost_placement = true, pinned_device = cpu, "
                     "precision = \"none\", kernel_sources = "
                     "\"openblas,generated\">"));
  EXPECT_FALSE(parse("#fuel.config<price_transfers = true, "
                     "allow_cost_placement = true, pinned_device = cpu, "
                     "precision = \"ulp<=1,bit-stable\">"));
  EXPECT_FALSE(parse("#fuel.config<price_transfers = true, "
                     "allow_cost_placement = true, pinned_device = cpu, "
                     "precision = \"fast\">"));
}
