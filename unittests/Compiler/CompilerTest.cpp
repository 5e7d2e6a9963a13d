//===- CompilerTest.cpp - The C++ compile API -----------------------------===//
//
// compile() from a context with only registerCompilerDialects: a two-layer
// MLP compiled to bytes, loaded with libfuelrt, run and compared with plain
// loops; the bytes deterministic, independent of the dialect registry and
// equal to fuel-compile's; the caller's own pass manager with the pipelines
// equal to lower(); errors at the module through the caller's handler; a
// kernel registry for one call; registerCompilerPasses and textual
// pipelines; the three examples; concurrent compiles in their own contexts.
//
//===----------------------------------------------------------------------===//

#include "fuel/Compiler/Compiler.h"

#include "../CpuHosts.h"
#include "fuel/Codegen/CPU/CpuObject.h"
#include "fuel/Dialect/Fuel/IR/FuelOps.h"
#include "fuel/Lowering/SerializeExecutable.h"
#include "fuel/Planning/Passes.h"
#include "fuel/Planning/PlanExport.h"
#include "fuel/Target/KernelRegistry.h"

#include "fuel-c/RuntimeCxx.h"
#include "fuel/Runtime/Executable.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::fuel;

namespace {

// relu(x @ w1 + b1) @ w2 + b2 on tensors: 8x16 -> 32 -> 4.
constexpr llvm::StringLiteral kMlp = R"mlir(
func.func @mlp(%x: tensor<8x16xf32> {fuel.residency = #fuel.device<cpu>},
               %w1: tensor<16x32xf32> {fuel.residency = #fuel.device<cpu>},
               %b1: tensor<32xf32> {fuel.residency = #fuel.device<cpu>},
               %w2: tensor<32x4xf32> {fuel.residency = #fuel.device<cpu>},
               %b2: tensor<4xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<8x4xf32> {fuel.residency = #fuel.device<cpu>}) {
  %zero = arith.constant 0.0 : f32
  %eh = tensor.empty() : tensor<8x32xf32>
  %acch = linalg.fill ins(%zero : f32) outs(%eh : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>)
                     outs(%acch : tensor<8x32xf32>) -> tensor<8x32xf32>
  %a = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<8x32xf32>, tensor<32xf32>) outs(%eh : tensor<8x32xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %eo = tensor.empty() : tensor<8x4xf32>
  %acco = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x4xf32>) -> tensor<8x4xf32>
  %o = linalg.matmul ins(%a, %w2 : tensor<8x32xf32>, tensor<32x4xf32>)
                     outs(%acco : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%o, %b2 : tensor<8x4xf32>, tensor<4xf32>) outs(%eo : tensor<8x4xf32>) {
  ^bb0(%v: f32, %b: f32, %u: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
)mlir";

constexpr int64_t kRows = 8, kIn = 16, kHidden = 32, kOut = 4;

std::string topologyFile(llvm::StringRef name) {
  return std::string(FUEL_TEST_TOPOLOGIES_DIR) + "/" + name.str();
}

/// The options the tests compile with: the cpu-only topology and generated
/// kernels (so that no library shim is needed to run).
CompileOptions cpuOptions() {
  CompileOptions options;
  options.planning.topology = topologyFile("cpu-only.json");
  options.planning.kernelSources = {"generated"};
  return options;
}

/// A context that knows only what registerCompilerDialects registers.
std::unique_ptr<MLIRContext> compilerContext() {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  return std::make_unique<MLIRContext>(registry);
}

OwningOpRef<ModuleOp> parse(MLIRContext &ctx, llvm::StringRef text,
                            llvm::StringRef name = "mlp.mlir") {
  return parseSourceString<ModuleOp>(text, &ctx, name);
}

OwningOpRef<ModuleOp> parseFile(MLIRContext &ctx, const std::string &path) {
  return parseSourceFile<ModuleOp>(path, &ctx);
}

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

/// The bytes of compiling `text` in a fresh context of `registry`, or empty.
std::vector<uint8_t> compileIn(const DialectRegistry &registry,
                               llvm::StringRef text,
                               const CompileOptions &options = cpuOptions()) {
  MLIRContext ctx(registry);
  OwningOpRef<ModuleOp> module = parse(ctx, text);
  if (!module)
    return {};
  FailureOr<std::vector<uint8_t>> bytes = compile(*module, options);
  return succeeded(bytes) ? std::move(*bytes) : std::vector<uint8_t>();
}

DialectRegistry compilerRegistry() {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  return registry;
}

/// The diagnostics a context reports, as (location, message).
struct Diagnostics {
  explicit Diagnostics(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error)
            errors.push_back({d.getLocation(), d.str()});
          return success();
        }) {}
  std::vector<std::pair<Location, std::string>> errors;
  ScopedDiagnosticHandler handler;
};

TEST(CompilerTest, CompiledMlpRunsAndMatchesPlainLoops) {
  auto ctx = compilerContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, kMlp);
  ASSERT_TRUE(module);
  SerializeStats stats;
  CompileOptions options = cpuOptions();
  options.stats = &stats;
  FailureOr<std::vector<uint8_t>> bytes = compile(*module, options);
  ASSERT_TRUE(succeeded(bytes));
  EXPECT_GE(stats.generatedKernels, 2u);
  EXPECT_EQ(stats.libraryKernels, 0u);
  EXPECT_GE(stats.launches, 2u);

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    for (float &x : v)
      x = dist(rng);
    return v;
  };
  std::vector<float> x = random(kRows * kIn), w1 = random(kIn * kHidden),
                     b1 = random(kHidden), w2 = random(kHidden * kOut),
                     b2 = random(kOut);

  // The reference, by plain loops in double.
  std::vector<double> hidden(kRows * kHidden), expected(kRows * kOut);
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kHidden; ++j) {
      double s = b1[j];
      for (int64_t k = 0; k < kIn; ++k)
        s += double(x[i * kIn + k]) * w1[k * kHidden + j];
      hidden[i * kHidden + j] = s > 0 ? s : 0;
    }
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kOut; ++j) {
      double s = b2[j];
      for (int64_t k = 0; k < kHidden; ++k)
        s += hidden[i * kHidden + k] * w2[k * kOut + j];
      expected[i * kOut + j] = s;
    }

  namespace capi = ::fuel::capi;
  capi::Runtime rt;
  fuelRuntimeOptions rtOptions = {};
  rtOptions.threads = 2;
  capi::Status s = capi::Runtime::create(&rtOptions, rt);
  ASSERT_TRUE(s) << s.message();
  capi::Executable exe;
  s = capi::Executable::loadBytes(rt, bytes->data(), bytes->size(), exe);
  ASSERT_TRUE(s) << s.message();
  size_t inputs = 0, outputs = 0;
  ASSERT_TRUE(exe.inputCount(inputs));
  ASSERT_TRUE(exe.outputCount(outputs));
  ASSERT_EQ(inputs, 5u);
  ASSERT_EQ(outputs, 1u);
  capi::Session session;
  s = capi::Session::create(exe, session);
  ASSERT_TRUE(s) << s.message();
  const std::vector<float> *data[] = {&x, &w1, &b1, &w2, &b2};
  const std::vector<int64_t> shapes[] = {
      {kRows, kIn}, {kIn, kHidden}, {kHidden}, {kHidden, kOut}, {kOut}};
  for (size_t i = 0; i < 5; ++i) {
    s = session.bindInput(i, fuelDTypeF32, shapes[i], data[i]->data(),
                          data[i]->size() * sizeof(float));
    ASSERT_TRUE(s) << "input " << i << ": " << s.message();
  }
  s = session.run();
  ASSERT_TRUE(s) << s.message();
  std::vector<float> y(kRows * kOut, NAN);
  s = session.readOutput(0, y.data(), y.size() * sizeof(float));
  ASSERT_TRUE(s) << s.message();
  for (size_t i = 0; i < y.size(); ++i)
    EXPECT_NEAR(y[i], expected[i], 1e-4 * (1 + std::fabs(expected[i])))
        << "element " << i;
}

TEST(CompilerTest, HostExecutablesLoadOnTheirHost) {
  // The MLP compiled for the host, for each host described by its CPU name
  // and /proc/cpuinfo flags: the executable records that name, needs only
  // flags the host lists, and the loader on that host accepts it; on the
  // same host without avx512f it refuses, naming the flag.
  for (const ::fuel::testing::NamedHost &h : ::fuel::testing::namedHosts()) {
    SCOPED_TRACE(h.cpu);
    mlir::fuel::ScopedHostCpu fake(
        mlir::fuel::hostCpuFromCpuinfo(h.cpu, h.flags));
    std::vector<uint8_t> bytes = compileIn(compilerRegistry(), kMlp);
    ASSERT_FALSE(bytes.empty());
    ::fuel::rt::LoadOptions onHost;
    onHost.hostCpuFeatures = h.flags;
    auto exe =
        ::fuel::rt::Executable::loadBytes(bytes.data(), bytes.size(), onHost);
    ASSERT_TRUE(exe) << exe.status().message();
    const ::fuel::rt::CpuTarget &target = (*exe)->program().cpuTarget;
    EXPECT_EQ(target.cpu, h.cpu);
    EXPECT_TRUE(llvm::is_contained(target.features, "avx512f"));
    for (const std::string &f : target.features)
      EXPECT_TRUE(llvm::is_contained(h.flags, f)) << f;
    ::fuel::rt::LoadOptions without = onHost;
    llvm::erase(*without.hostCpuFeatures, "avx512f");
    auto refused =
        ::fuel::rt::Executable::loadBytes(bytes.data(), bytes.size(), without);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.status().message().find("this CPU lacks avx512f"),
              std::string::npos)
        << refused.status().message();
  }
}

TEST(CompilerTest, BytesAreDeterministicAndIndependentOfTheRegistry) {
  std::vector<uint8_t> first = compileIn(compilerRegistry(), kMlp);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(compileIn(compilerRegistry(), kMlp), first);

  // On one thread: the same bytes.
  {
    MLIRContext ctx(compilerRegistry(), MLIRContext::Threading::DISABLED);
    OwningOpRef<ModuleOp> module = parse(ctx, kMlp);
    ASSERT_TRUE(module);
    FailureOr<std::vector<uint8_t>> bytes = compile(*module, cpuOptions());
    ASSERT_TRUE(succeeded(bytes));
    EXPECT_EQ(*bytes, first);
  }

  // Every upstream dialect and extension: the same bytes.
  DialectRegistry all;
  registerAllDialects(all);
  registerAllExtensions(all);
  registerAllToLLVMIRTranslations(all);
  registerCompilerDialects(all);
  EXPECT_EQ(compileIn(all, kMlp), first);
}

TEST(CompilerTest, BytesEqualFuelCompilesOutput) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("fuel-compiler-test", dir));
  std::string input = (dir + "/mlp.mlir").str();
  std::string output = (dir + "/mlp.fuelx").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    ASSERT_FALSE(ec);
    os << kMlp;
  }
  std::string topology = "--topology=" + topologyFile("cpu-only.json");
  llvm::StringRef args[] = {FUEL_COMPILE_PATH,
                            input,
                            topology,
                            "--plan=kernel-sources=generated",
                            "-o",
                            output};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(FUEL_COMPILE_PATH, args, std::nullopt, {},
                                     0, 0, &error);
  ASSERT_EQ(rc, 0) << error;
  auto written = llvm::MemoryBuffer::getFile(output);
  ASSERT_TRUE(bool(written));
  std::vector<uint8_t> tool((*written)->getBufferStart(),
                            (*written)->getBufferEnd());
  EXPECT_EQ(compileIn(compilerRegistry(), kMlp), tool);
  llvm::sys::fs::remove_directories(dir);
}

/// A caller's own pass, run before fuel's pipelines: it sees the module
/// unplanned.
struct CountFunctionsPass
    : public PassWrapper<CountFunctionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountFunctionsPass)
  CountFunctionsPass(int *functions, int *nodes)
      : functions(functions), nodes(nodes) {}
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp) { ++*functions; });
    getOperation().walk([&](NodeOp) { ++*nodes; });
  }
  int *functions, *nodes;
};

TEST(CompilerTest, PipelinesInTheCallersPassManagerEqualLower) {
  for (CompileStage stage : {CompileStage::Planned, CompileStage::Host,
                             CompileStage::Spirv, CompileStage::Ptx}) {
    SCOPED_TRACE(stringifyCompileStage(stage).str());
    auto ctx = compilerContext();
    OwningOpRef<ModuleOp> viaLower = parse(*ctx, kMlp);
    ASSERT_TRUE(viaLower);
    ASSERT_TRUE(succeeded(lower(*viaLower, cpuOptions(), stage)));

    OwningOpRef<ModuleOp> own = parse(*ctx, kMlp);
    ASSERT_TRUE(own);
    int functions = 0, nodes = 0;
    PassManager pm(ctx.get(), ModuleOp::getOperationName());
    pm.addPass(std::make_unique<CountFunctionsPass>(&functions, &nodes));
    addPlanningPipeline(pm, cpuOptions().planning);
    addLoweringPipeline(pm, stage);
    ASSERT_TRUE(succeeded(pm.run(*own)));
    EXPECT_EQ(functions, 1);
    EXPECT_EQ(nodes, 0);
    EXPECT_EQ(print(*own), print(*viaLower));
    EXPECT_TRUE(isPlanned(*own));
    if (stage != CompileStage::Ptx)
      continue;
    // Serialized, the caller's module gives compile()'s bytes.
    SerializeStats stats;
    FailureOr<std::vector<uint8_t>> bytes = serialize(*own, &stats);
    ASSERT_TRUE(succeeded(bytes));
    EXPECT_EQ(*bytes, compileIn(compilerRegistry(), kMlp));
    EXPECT_GE(stats.generatedKernels, 2u);
    EXPECT_EQ(print(*own), print(*viaLower));
  }
  // Before the LLVM stage there is nothing to serialize: an error at the
  // module.
  auto ctx = compilerContext();
  OwningOpRef<ModuleOp> planned = parse(*ctx, kMlp);
  ASSERT_TRUE(succeeded(lower(*planned, cpuOptions(), CompileStage::Planned)));
  Diagnostics diagnostics(*ctx);
  EXPECT_TRUE(failed(serialize(*planned)));
  ASSERT_EQ(diagnostics.errors.size(), 1u);
  EXPECT_EQ(diagnostics.errors[0].first, planned->getLoc());
  EXPECT_NE(diagnostics.errors[0].second.find("needs exactly one fuel.program"),
            std::string::npos)
      << diagnostics.errors[0].second;
}

TEST(CompilerTest, ConfigurePassManagerSeesThePassesAndCanStopTheCompile) {
  auto ctx = compilerContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, kMlp);
  ASSERT_TRUE(module);
  std::string before = print(*module);
  CompileOptions options = cpuOptions();
  std::string pipeline;
  options.configurePassManager = [&](PassManager &pm) -> LogicalResult {
    llvm::raw_string_ostream os(pipeline);
    pm.printAsTextualPipeline(os);
    return failure();
  };
  EXPECT_TRUE(failed(compile(*module, options)));
  EXPECT_NE(pipeline.find("fuel-attach-topology"), std::string::npos)
      << pipeline;
  EXPECT_NE(pipeline.find("convert-fuel-to-llvm"), std::string::npos);
  EXPECT_NE(pipeline.find("fuel-serialize-executable"), std::string::npos);
  // Nothing ran.
  EXPECT_EQ(print(*module), before);
}

TEST(CompilerTest, TimingShowsThePassesAndSerializationSteps) {
  std::string report;
  {
    llvm::raw_string_ostream os(report);
    DefaultTimingManager tm;
    tm.setEnabled(true);
    tm.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
    tm.setOutput(
        createOutputStrategy(DefaultTimingManager::OutputFormat::Text, os));
    auto ctx = compilerContext();
    OwningOpRef<ModuleOp> module = parse(*ctx, kMlp);
    ASSERT_TRUE(module);
    CompileOptions options = cpuOptions();
    options.timing = tm.getRootTimer();
    TimingScope root = tm.getRootScope();
    ASSERT_TRUE(succeeded(compile(*module, options)));
    root.stop();
    tm.print();
  }
  // The passes at the top level (the compile's own timer hidden), the
  // serialization steps nested in its pass.
  // Each tree line is the times, then "%)", two spaces and the indented
  // name.
  EXPECT_NE(report.find("%)  FuelAttachTopologyPass\n"), std::string::npos)
      << report;
  size_t serialize = report.find("%)  FuelSerializeExecutablePass\n");
  ASSERT_NE(serialize, std::string::npos) << report;
  size_t next = report.find('\n', serialize) + 1;
  llvm::StringRef line = llvm::StringRef(report).substr(next).split('\n').first;
  EXPECT_TRUE(line.ends_with("%)    kernel modules")) << report;
  EXPECT_EQ(report.find("fuel compile"), std::string::npos) << report;
}

TEST(CompilerTest, StagesHaveTheirNames) {
  for (CompileStage stage :
       {CompileStage::Planned, CompileStage::Outlined, CompileStage::Kernels,
        CompileStage::Bufferized, CompileStage::Host, CompileStage::Llvm,
        CompileStage::Spirv, CompileStage::Ptx})
    EXPECT_EQ(symbolizeCompileStage(stringifyCompileStage(stage)), stage);
  EXPECT_EQ(stringifyCompileStage(CompileStage::Ptx), "ptx");
  EXPECT_EQ(stringifyCompileStage(CompileStage::Bufferized), "bufferized");
  EXPECT_EQ(symbolizeCompileStage("asm"), std::nullopt);
}

/// Compiles kMlp with `options` in a fresh context and returns the errors.
std::vector<std::pair<Location, std::string>>
compileErrors(const CompileOptions &options, Location *moduleLoc) {
  auto ctx = compilerContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, kMlp);
  EXPECT_TRUE(module);
  *moduleLoc = module->getLoc();
  Diagnostics diagnostics(*ctx);
  EXPECT_TRUE(failed(compile(*module, options)));
  return diagnostics.errors;
}

TEST(CompilerTest, BadPinnedDeviceIsAnErrorAtTheModule) {
  auto ctx = compilerContext();
  for (auto [device, message] :
       {std::pair<const char *, const char *>{
            "tpu:x", "invalid 'pinned-device' option 'tpu:x'"},
        {"cuda:0", "pinned-device 'cuda:0' is not a device of the topology"}}) {
    SCOPED_TRACE(device);
    OwningOpRef<ModuleOp> module = parse(*ctx, kMlp);
    ASSERT_TRUE(module);
    Diagnostics diagnostics(*ctx);
    CompileOptions options = cpuOptions();
    options.planning.pinnedDevice = device;
    EXPECT_TRUE(failed(compile(*module, options)));
    ASSERT_EQ(diagnostics.errors.size(), 1u);
    EXPECT_EQ(diagnostics.errors[0].first, module->getLoc());
    EXPECT_NE(diagnostics.errors[0].second.find(message), std::string::npos)
        << diagnostics.errors[0].second;
  }
}

TEST(CompilerTest, MissingTopologyFileIsAnErrorAtTheModule) {
  CompileOptions options = cpuOptions();
  options.planning.topology = topologyFile("no-such-topology.json");
  auto ctx = compilerContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, kMlp);
  ASSERT_TRUE(module);
  Diagnostics diagnostics(*ctx);
  EXPECT_TRUE(failed(compile(*module, options)));
  ASSERT_EQ(diagnostics.errors.size(), 1u);
  EXPECT_EQ(diagnostics.errors[0].first, module->getLoc());
  EXPECT_NE(diagnostics.errors[0].second.find("cannot use topology '"),
            std::string::npos)
      << diagnostics.errors[0].second;
  EXPECT_NE(diagnostics.errors[0].second.find("no-such-topology.json"),
            std::string::npos);
}

TEST(CompilerTest, UnknownKernelSourceIsAnErrorAtTheModule) {
  CompileOptions options = cpuOptions();
  options.planning.kernelSources = {"generated", "magic"};
  Location loc = UnknownLoc::get(compilerContext().get());
  auto errors = compileErrors(options, &loc);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].first, loc);
  EXPECT_NE(errors[0].second.find("invalid 'kernel-sources' option "
                                  "'generated,magic'"),
            std::string::npos)
      << errors[0].second;
}

TEST(CompilerTest, PlannedModuleKeepsItsTopology) {
  auto ctx = compilerContext();
  OwningOpRef<ModuleOp> module = parse(*ctx, kMlp);
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(lower(*module, cpuOptions(), CompileStage::Planned)));
  ASSERT_TRUE(isPlanned(*module));
  std::string planned = print(*module);

  // Another topology: an error at the module naming both hashes.
  {
    Diagnostics diagnostics(*ctx);
    OwningOpRef<ModuleOp> copy = module->clone();
    CompileOptions options;
    options.planning.topology = topologyFile("cpu-avx512.json");
    EXPECT_TRUE(failed(compile(*copy, options)));
    ASSERT_EQ(diagnostics.errors.size(), 1u);
    EXPECT_EQ(diagnostics.errors[0].first, copy->getLoc());
    EXPECT_NE(diagnostics.errors[0].second.find(
                  "the module is already planned for topology 0x"),
              std::string::npos)
        << diagnostics.errors[0].second;
    EXPECT_EQ(print(*copy), planned);
  }
  // A planning option other than the topology: an error naming it.
  {
    Diagnostics diagnostics(*ctx);
    OwningOpRef<ModuleOp> copy = module->clone();
    CompileOptions options;
    options.planning.pinnedDevice = "none";
    EXPECT_TRUE(failed(compile(*copy, options)));
    ASSERT_EQ(diagnostics.errors.size(), 1u);
    EXPECT_NE(diagnostics.errors[0].second.find(
                  "the planning option 'pinned-device' applies only to a "
                  "module fuel plans"),
              std::string::npos)
        << diagnostics.errors[0].second;
  }
  // The same topology, or none: lowered as it is, to the bytes of an
  // unplanned compile.
  for (std::string topology : {topologyFile("cpu-only.json"), std::string()}) {
    OwningOpRef<ModuleOp> copy = module->clone();
    CompileOptions options;
    options.planning.topology = topology;
    FailureOr<std::vector<uint8_t>> bytes = compile(*copy, options);
    ASSERT_TRUE(succeeded(bytes));
    EXPECT_EQ(*bytes, compileIn(compilerRegistry(), kMlp));
  }
}

/// Two cpu matmul kernels on the built-in matmul schedule, one ten times as
/// efficient as the other.
::fuel::target::KernelRegistry twoKernelRegistry() {
  auto record = [](llvm::StringRef name, llvm::StringRef efficiency) {
    return (R"({"id": "cpu.generated.matmul_)" + name +
            R"(", "op": "matmul", "dtype": "f32", "backend": "cpu",
      "source": "generated", "caps": ["strided_input"],
      "precision": "deterministic",
      "precision_note": "deterministic: a test kernel",
      "efficiency_compute": )" +
            efficiency + R"(, "efficiency_memory": )" + efficiency +
            R"(, "overhead_ns": 0, "workspace_bytes": 262144, "priority": 0,
      "cost": "matmul", "schedule": "test",
      "lowering": "kernels/schedules/cpu/matmul.mlir"})")
        .str();
  };
  std::string text = R"({"version": 1, "kernels": [)" + record("slow", "0.05") +
                     ", " + record("fast", "0.5") + "]}";
  llvm::Expected<::fuel::target::KernelRegistry> reg =
      ::fuel::target::KernelRegistry::parse(text, "test-registry.json");
  EXPECT_TRUE(bool(reg)) << llvm::toString(reg.takeError());
  return reg ? std::move(*reg) : ::fuel::target::KernelRegistry();
}

std::vector<std::string> winners(ModuleOp module) {
  std::vector<std::string> ids;
  module.walk([&](NodeOp node) {
    if (CandidateAttr c = getWinner(node))
      ids.push_back(c.getKernelId().str());
  });
  return ids;
}

TEST(CompilerTest, KernelRegistryChangesTheChoiceForOneCall) {
  constexpr llvm::StringLiteral kMatmul = R"mlir(
func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}
)mlir";
  ::fuel::target::KernelRegistry registry = twoKernelRegistry();
  auto ctx = compilerContext();
  CompileOptions options = cpuOptions();
  options.kernelRegistry = &registry;

  OwningOpRef<ModuleOp> planned = parse(*ctx, kMatmul);
  ASSERT_TRUE(planned);
  ASSERT_TRUE(succeeded(lower(*planned, options, CompileStage::Planned)));
  EXPECT_EQ(winners(*planned),
            std::vector<std::string>{"cpu.generated.matmul_fast"});
  // The context's registry is the built-in one again.
  EXPECT_EQ(&getKernelRegistry(ctx.get()),
            &::fuel::target::KernelRegistry::get());

  OwningOpRef<ModuleOp> builtIn = parse(*ctx, kMatmul);
  ASSERT_TRUE(succeeded(lower(*builtIn, cpuOptions(), CompileStage::Planned)));
  EXPECT_EQ(winners(*builtIn),
            std::vector<std::string>{"cpu.generated.matmul_f32"});

  // A compile with the substitute registry serializes its kernel.
  OwningOpRef<ModuleOp> compiled = parse(*ctx, kMatmul);
  FailureOr<std::vector<uint8_t>> bytes = compile(*compiled, options);
  ASSERT_TRUE(succeeded(bytes));
  std::string text(bytes->begin(), bytes->end());
  EXPECT_NE(text.find("cpu.generated.matmul_fast"), std::string::npos);

  // A registry the caller set on the context is kept and restored.
  ::fuel::target::KernelRegistry other = twoKernelRegistry();
  setKernelRegistry(ctx.get(), &other);
  OwningOpRef<ModuleOp> again = parse(*ctx, kMatmul);
  ASSERT_TRUE(succeeded(lower(*again, options, CompileStage::Planned)));
  EXPECT_EQ(&getKernelRegistry(ctx.get()), &other);
  setKernelRegistry(ctx.get(), nullptr);
}

TEST(CompilerTest, RegisterCompilerPassesEnablesTextualPipelines) {
  // Idempotent, and safe from several threads at once.
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([] { registerCompilerPasses(); });
  for (std::thread &t : threads)
    t.join();
  registerCompilerPasses();

  auto ctx = compilerContext();
  std::string error;
  llvm::raw_string_ostream os(error);
  std::string pipeline =
      "builtin.module(fuel-plan{topology=" + topologyFile("cpu-only.json") +
      " kernel-sources=generated},fuel-lower)";
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, os);
  ASSERT_TRUE(succeeded(parsed)) << error;
  PassManager pm(ctx.get(), ModuleOp::getOperationName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  OwningOpRef<ModuleOp> textual = parse(*ctx, kMlp);
  ASSERT_TRUE(succeeded(pm.run(*textual)));

  OwningOpRef<ModuleOp> viaLower = parse(*ctx, kMlp);
  ASSERT_TRUE(succeeded(lower(*viaLower, cpuOptions(), CompileStage::Spirv)));
  EXPECT_EQ(print(*textual), print(*viaLower));
}

TEST(CompilerTest, CompilerDialectsAloneCompileTheExamples) {
  for (const char *name : {"mlp.mlir", "convnet.mlir", "transformer.mlir"}) {
    SCOPED_TRACE(name);
    auto ctx = compilerContext();
    Diagnostics diagnostics(*ctx);
    OwningOpRef<ModuleOp> module =
        parseFile(*ctx, std::string(FUEL_EXAMPLES_DIR) + "/" + name);
    ASSERT_TRUE(module);
    CompileOptions options;
    options.planning.topology = topologyFile("cpu-only.json");
    FailureOr<std::vector<uint8_t>> bytes = compile(*module, options);
    ASSERT_TRUE(succeeded(bytes))
        << (diagnostics.errors.empty() ? "" : diagnostics.errors[0].second);
    EXPECT_GT(bytes->size(), 1000u);
    // Loadable.
    ::fuel::capi::Runtime rt;
    ASSERT_TRUE(::fuel::capi::Runtime::create(nullptr, rt));
    ::fuel::capi::Executable exe;
    ::fuel::capi::Status s = ::fuel::capi::Executable::loadBytes(
        rt, bytes->data(), bytes->size(), exe);
    EXPECT_TRUE(s) << s.message();
  }
}

TEST(CompilerTest, TheLibrariesDefineNoCommandLineOption) {
  // Every option of a compile comes from CompileOptions: fuel's libraries
  // (all linked into this test) register no global cl::opt, which a
  // compile on another thread could see change.
  registerCompilerPasses();
  // LLVM's and MLIR's own options are there.
  EXPECT_GT(llvm::cl::getRegisteredOptions().size(), 10u);
  for (const auto &entry : llvm::cl::getRegisteredOptions())
    EXPECT_FALSE(entry.first.starts_with("fuel")) << entry.first.str();
}

TEST(CompilerTest, ConcurrentCompilesInOwnContextsGiveTheSequentialBytes) {
  // The small MLP, and the example transformer, whose kernels are compiled
  // in several parts on each context's own threads.
  auto transformer = llvm::MemoryBuffer::getFile(
      std::string(FUEL_EXAMPLES_DIR) + "/transformer.mlir");
  ASSERT_TRUE(bool(transformer));
  for (llvm::StringRef program :
       {llvm::StringRef(kMlp), (*transformer)->getBuffer()}) {
    std::vector<uint8_t> sequential = compileIn(compilerRegistry(), program);
    ASSERT_FALSE(sequential.empty());
    constexpr int kThreads = 4;
    std::vector<std::vector<uint8_t>> results(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i)
      threads.emplace_back(
          [&, i] { results[i] = compileIn(compilerRegistry(), program); });
    for (std::thread &t : threads)
      t.join();
    for (int i = 0; i < kThreads; ++i)
      EXPECT_EQ(results[i], sequential) << "thread " << i;
  }
}

} // namespace

TEST(CompilerTest, PlanningOptionTextReadsEveryOptionButTheTopology) {
  PlanningOptions o;
  std::string error;
  ASSERT_TRUE(succeeded(parsePlanningOptions(
      "precision='bit-stable,ulp<=1' prefer-bit-stable pinned-device=none "
      "price-transfers=false allow-cost-placement=0 "
      "require-transfer-pricing=true kernel-sources=generated,openblas "
      "keep-per-device=3 placement-algorithm=mincut export-plan=\"a b.json\" "
      "import-plan=p.json export-dot=d.dot explain profile=m.db "
      "profile-threads=4",
      o, error)))
      << error;
  EXPECT_EQ(o.precision, "bit-stable,ulp<=1");
  EXPECT_TRUE(o.preferBitStable);
  EXPECT_EQ(o.pinnedDevice, "none");
  EXPECT_FALSE(o.priceTransfers);
  EXPECT_FALSE(o.allowCostPlacement);
  EXPECT_TRUE(o.requireTransferPricing);
  EXPECT_EQ(o.kernelSources,
            (std::vector<std::string>{"generated", "openblas"}));
  EXPECT_EQ(o.keepPerDevice, 3u);
  EXPECT_EQ(o.placementAlgorithm, ::fuel::plan::PlacementAlgorithm::MinCut);
  EXPECT_EQ(o.exportPlan, "a b.json");
  EXPECT_EQ(o.importPlan, "p.json");
  EXPECT_EQ(o.exportDot, "d.dot");
  EXPECT_TRUE(o.explain);
  EXPECT_EQ(o.profile, "m.db");
  EXPECT_EQ(o.profileThreads, 4);

  // Empty text keeps the values; later keys override earlier ones.
  PlanningOptions same = o;
  ASSERT_TRUE(succeeded(parsePlanningOptions("  ", same, error)));
  EXPECT_EQ(same, o);
  ASSERT_TRUE(succeeded(parsePlanningOptions(
      "keep-per-device=1 keep-per-device=5", same, error)));
  EXPECT_EQ(same.keepPerDevice, 5u);

  struct Bad {
    const char *text, *message;
  } bad[] = {
      {"bogus=1", "unknown fuel-plan option 'bogus'"},
      {"topology=m.json", "fuel-plan option 'topology' is not read"},
      {"price-transfers=maybe",
       "fuel-plan option 'price-transfers': 'maybe' is not a boolean"},
      {"keep-per-device=-1",
       "fuel-plan option 'keep-per-device': '-1' is not an unsigned"},
      {"placement-algorithm=fastest", "'fastest' is not a placement algorithm"},
      {"precision", "fuel-plan option 'precision' needs a value"},
      {"profile", "fuel-plan option 'profile' needs a value"},
      {"profile-threads=0",
       "fuel-plan option 'profile-threads': '0' is not a positive integer"},
      {"precision='none", "unterminated quote in the value of 'precision'"},
  };
  for (const Bad &b : bad) {
    PlanningOptions untouched;
    error.clear();
    EXPECT_TRUE(failed(parsePlanningOptions(b.text, untouched, error)))
        << b.text;
    EXPECT_NE(error.find(b.message), std::string::npos)
        << b.text << ": " << error;
  }
}
