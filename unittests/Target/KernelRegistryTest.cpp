//===- KernelRegistryTest.cpp - Tests of the kernel registry --------------===//
//
// The built-in registry's content and invariants (coverage per op kind and
// backend, library sources, precision claims per source, unique ids, revision
// hashes), lookups that do not depend on record order, and the validation
// errors of the registry format.
//
//===----------------------------------------------------------------------===//

#include "fuel/Target/KernelRegistry.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace fuel;
using namespace fuel::target;
using plan::DeviceKind;
using plan::OpKind;

namespace {

const DeviceKind kBackends[] = {DeviceKind::Cpu, DeviceKind::Cuda,
                                DeviceKind::Vulkan};

std::vector<std::string> ids(const std::vector<const KernelRecord *> &records) {
  std::vector<std::string> out;
  for (const KernelRecord *r : records)
    out.push_back(r->id);
  return out;
}

TEST(KernelRegistry, EmbeddedRegistryParses) {
  llvm::Expected<KernelRegistry> r =
      KernelRegistry::parse(KernelRegistry::embeddedText(), "registry.json");
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->records().size(), KernelRegistry::get().records().size());
  // 9 op kinds x 3 backends generated, + openblas, blis, cublas x 2 kinds.
  EXPECT_EQ(KernelRegistry::get().records().size(), 33u);
}

TEST(KernelRegistry, IdsAreUniqueAndSorted) {
  const KernelRegistry &reg = KernelRegistry::get();
  std::set<std::string> seen;
  std::string previous;
  for (const KernelRecord &r : reg.records()) {
    EXPECT_TRUE(seen.insert(r.id).second) << r.id;
    EXPECT_LT(previous, r.id);
    previous = r.id;
    EXPECT_EQ(reg.find(r.id), &r);
  }
  EXPECT_EQ(reg.find("cpu.generated.matmul_f64"), nullptr);
  ASSERT_NE(reg.find("cpu.openblas.matmul_f32"), nullptr);
}

TEST(KernelRegistry, EveryOpKindHasAGeneratedF32VariantOnEveryBackend) {
  const KernelRegistry &reg = KernelRegistry::get();
  for (OpKind op : plan::kAllOpKinds) {
    for (DeviceKind backend : kBackends) {
      // Unary, binary and ternary dtype keys all find the uniform f32 record.
      for (size_t operands : {2, 3, 4}) {
        std::vector<std::string> dtypes(operands, "f32");
        std::vector<const KernelRecord *> found =
            reg.lookup(op, dtypes, backend);
        auto generated = llvm::count_if(found, [](const KernelRecord *r) {
          return r->source == KernelSource::Generated;
        });
        EXPECT_EQ(generated, 1) << plan::stringifyOpKind(op) << " on "
                                << plan::stringifyDeviceKind(backend);
      }
      std::string id = std::string(plan::stringifyDeviceKind(backend)) +
                       ".generated." + std::string(plan::stringifyOpKind(op)) +
                       "_f32";
      EXPECT_NE(reg.find(id), nullptr) << id;
    }
  }
}

TEST(KernelRegistry, LibrarySources) {
  const KernelRegistry &reg = KernelRegistry::get();
  std::vector<std::string> f32(3, "f32");
  for (OpKind op : plan::kAllOpKinds) {
    bool blas = op == OpKind::Matmul || op == OpKind::BatchMatmul;
    std::string kind(plan::stringifyOpKind(op));
    std::vector<std::string> expectCpu = {"cpu.generated." + kind + "_f32"};
    std::vector<std::string> expectCuda = {"cuda.generated." + kind + "_f32"};
    if (blas) {
      expectCpu = {"cpu.blis." + kind + "_f32",
                   "cpu.generated." + kind + "_f32",
                   "cpu.openblas." + kind + "_f32"};
      expectCuda = {"cuda.cublas." + kind + "_f32",
                    "cuda.generated." + kind + "_f32"};
    }
    EXPECT_EQ(ids(reg.lookup(op, f32, DeviceKind::Cpu)), expectCpu);
    EXPECT_EQ(ids(reg.lookup(op, f32, DeviceKind::Cuda)), expectCuda);
    EXPECT_EQ(ids(reg.lookup(op, f32, DeviceKind::Vulkan)),
              std::vector<std::string>{"vulkan.generated." + kind + "_f32"});
  }
  using KS = KernelSource;
  EXPECT_EQ(reg.sourcesFor(DeviceKind::Cpu),
            (std::vector<KS>{KS::Generated, KS::OpenBLAS, KS::BLIS}));
  EXPECT_EQ(reg.sourcesFor(DeviceKind::Cuda),
            (std::vector<KS>{KS::Generated, KS::CuBLAS}));
  EXPECT_EQ(reg.sourcesFor(DeviceKind::Vulkan),
            (std::vector<KS>{KS::Generated}));
}

TEST(KernelRegistry, NoVariantForOtherDtypes) {
  const KernelRegistry &reg = KernelRegistry::get();
  EXPECT_TRUE(reg.lookup(OpKind::Matmul, {"f16", "f16", "f16"}, DeviceKind::Cpu)
                  .empty());
  EXPECT_TRUE(reg.lookup(OpKind::Matmul, {"f32", "f32", "f16"}, DeviceKind::Cpu)
                  .empty());
  EXPECT_TRUE(reg.lookup(OpKind::Matmul, {}, DeviceKind::Cpu).empty());
}

TEST(KernelRegistry, PrecisionClaimsPerSource) {
  for (const KernelRecord &r : KernelRegistry::get().records()) {
    bool deterministic =
        r.source == KernelSource::Generated && r.backend == DeviceKind::Cpu;
    plan::Precision expected = deterministic ? plan::Precision::deterministic()
                                             : plan::Precision::unaudited();
    expected.note = r.precision.note;
    EXPECT_EQ(r.precision, expected) << r.id;
    EXPECT_EQ(r.precisionPreset, deterministic ? "deterministic" : "unaudited")
        << r.id;
    EXPECT_FALSE(r.precision.note.empty()) << r.id;
    // So a `reference` requirement (ulp 0, rel 0, abs 0, bit-stable) rejects
    // every kernel: none claims an ulp, relative or absolute bound.
    EXPECT_FALSE(r.precision.maxUlp || r.precision.maxRelative ||
                 r.precision.maxAbsolute)
        << r.id;
  }
}

TEST(KernelRegistry, RecordFiguresAreInRange) {
  for (const KernelRecord &r : KernelRegistry::get().records()) {
    EXPECT_GT(r.efficiencyCompute, 0.0) << r.id;
    EXPECT_LE(r.efficiencyCompute, 1.0) << r.id;
    EXPECT_GT(r.efficiencyMemory, 0.0) << r.id;
    EXPECT_LE(r.efficiencyMemory, 1.0) << r.id;
    EXPECT_GE(r.overheadNs, 0) << r.id;
    EXPECT_FALSE(r.schedule.empty()) << r.id;
    const CostFunctionInfo *fn = lookupCostFunction(r.costFunction);
    ASSERT_NE(fn, nullptr) << r.id;
    EXPECT_EQ(fn->kind, r.op) << r.id;
    // Generated kernels read strided views directly; libraries need packing.
    EXPECT_EQ(r.hasCap("strided_input"), r.source == KernelSource::Generated)
        << r.id;
  }
}

TEST(KernelRegistry, LibrariesOutrankGeneratedOnTies) {
  const KernelRegistry &reg = KernelRegistry::get();
  EXPECT_GT(reg.find("cpu.openblas.matmul_f32")->priority,
            reg.find("cpu.blis.matmul_f32")->priority);
  EXPECT_GT(reg.find("cpu.blis.matmul_f32")->priority,
            reg.find("cpu.generated.matmul_f32")->priority);
  EXPECT_GT(reg.find("cuda.cublas.matmul_f32")->priority,
            reg.find("cuda.generated.matmul_f32")->priority);
}

TEST(KernelRegistry, RecordCost) {
  const KernelRecord *r = KernelRegistry::get().find("cpu.openblas.matmul_f32");
  ASSERT_NE(r, nullptr);
  CostQuery q;
  q.dims = {64, 32, 16};
  llvm::Expected<StaticCost> c = r->cost(q);
  ASSERT_TRUE(bool(c));
  EXPECT_EQ(c->flops, 2u * 64 * 32 * 16);
}

TEST(KernelRegistry, Combinations) {
  std::vector<KernelCombination> all = KernelRegistry::get().allCombinations();
  EXPECT_EQ(all.size(), 27u);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(all.front().str(), "(cpu, matmul, f32)");
  EXPECT_EQ(all.back().str(), "(vulkan, generic, f32)");
}

TEST(KernelRegistry, Revisions) {
  const KernelRegistry &reg = KernelRegistry::get();
  std::set<uint64_t> revisions;
  for (const KernelRecord &r : reg.records()) {
    EXPECT_NE(r.revision, 0u) << r.id;
    EXPECT_EQ(r.revision, r.computeRevision()) << r.id;
    EXPECT_TRUE(revisions.insert(r.revision).second) << r.id;
  }
  // Any change of the record or its schedule changes the revision.
  KernelRecord r = *reg.find("cpu.generated.matmul_f32");
  uint64_t base = r.computeRevision();
  KernelRecord changed = r;
  changed.schedule += " ";
  EXPECT_NE(changed.computeRevision(), base);
  changed = r;
  changed.efficiencyCompute = std::nextafter(r.efficiencyCompute, 0.0);
  EXPECT_NE(changed.computeRevision(), base);
  changed = r;
  changed.precision.note += ".";
  EXPECT_NE(changed.computeRevision(), base);
  changed = r;
  changed.priority += 1;
  EXPECT_NE(changed.computeRevision(), base);
  changed = r;
  changed.lowering = "kernels/schedules/cpu/matmul_v2.mlir";
  EXPECT_NE(changed.computeRevision(), base);
}

// The schedule file's bytes enter a generated record's revision: two
// contents give two revisions, the same content the same one, and a file
// that is present differs from one that is absent.
TEST(KernelRegistry, ScheduleFileInRevision) {
  KernelRecord r = *KernelRegistry::get().find("cpu.generated.matmul_f32");
  KernelRecord a = r, b = r, absent = r;
  a.scheduleFile = "transform.named_sequence @avx2() { transform.yield }\n";
  b.scheduleFile = "transform.named_sequence @avx2() { transform.yield }\n ";
  absent.scheduleFile.clear();
  EXPECT_NE(a.computeRevision(), b.computeRevision());
  EXPECT_NE(a.computeRevision(), absent.computeRevision());
  KernelRecord again = r;
  again.scheduleFile = a.scheduleFile;
  EXPECT_EQ(again.computeRevision(), a.computeRevision());
  // A library record has no schedule file: its revision ignores the field.
  KernelRecord lib = *KernelRegistry::get().find("cpu.openblas.matmul_f32");
  KernelRecord libWithFile = lib;
  libWithFile.scheduleFile = a.scheduleFile;
  EXPECT_EQ(lib.computeRevision(), libWithFile.computeRevision());
}

namespace {
std::optional<llvm::StringRef> scheduleV1(llvm::StringRef path) {
  if (path == "kernels/schedules/cpu/matmul.mlir")
    return llvm::StringRef("// v1\n");
  return std::nullopt;
}
std::optional<llvm::StringRef> scheduleV2(llvm::StringRef path) {
  if (path == "kernels/schedules/cpu/matmul.mlir")
    return llvm::StringRef("// v2\n");
  return std::nullopt;
}
} // namespace

// Parsing reads each generated record's schedule file through the lookup it
// is given: editing a file's bytes changes that record's revision only.
TEST(KernelRegistry, ParseHashesScheduleFiles) {
  llvm::Expected<KernelRegistry> v1 = KernelRegistry::parse(
      KernelRegistry::embeddedText(), "registry.json", &scheduleV1);
  llvm::Expected<KernelRegistry> v2 = KernelRegistry::parse(
      KernelRegistry::embeddedText(), "registry.json", &scheduleV2);
  ASSERT_TRUE(bool(v1)) << llvm::toString(v1.takeError());
  ASSERT_TRUE(bool(v2)) << llvm::toString(v2.takeError());
  ASSERT_EQ(v1->records().size(), v2->records().size());
  for (size_t i = 0; i < v1->records().size(); ++i) {
    const KernelRecord &x = v1->records()[i], &y = v2->records()[i];
    if (x.id == "cpu.generated.matmul_f32") {
      EXPECT_EQ(x.scheduleFile, "// v1\n");
      EXPECT_NE(x.revision, y.revision);
    } else {
      EXPECT_EQ(x.revision, y.revision) << x.id;
    }
  }
}

// The built-in registry hashes exactly the schedule files embedded at build
// time, and every embedded file is one the tree holds under
// kernels/schedules/<backend>/.
TEST(KernelRegistry, EmbeddedScheduleFiles) {
  for (const std::string &path : KernelRegistry::embeddedScheduleFiles()) {
    EXPECT_TRUE(llvm::StringRef(path).starts_with("kernels/schedules/"))
        << path;
    EXPECT_TRUE(llvm::StringRef(path).ends_with(".mlir")) << path;
  }
  for (const KernelRecord &r : KernelRegistry::get().records()) {
    std::optional<llvm::StringRef> file =
        KernelRegistry::scheduleFileText(r.lowering);
    if (r.source == KernelSource::Generated && file)
      EXPECT_EQ(r.scheduleFile, file->str()) << r.id;
    else
      EXPECT_TRUE(r.scheduleFile.empty()) << r.id;
  }
}

TEST(KernelRegistry, KernelSourcesOption) {
  auto parse = [](llvm::StringRef text) -> std::string {
    llvm::Expected<std::vector<KernelSource>> s = parseKernelSources(text);
    if (!s)
      return "error: " + llvm::toString(s.takeError());
    return formatKernelSources(*s);
  };
  EXPECT_EQ(parse(""), "");
  EXPECT_EQ(parse("generated"), "generated");
  // Canonical: KernelSource order, no duplicates.
  EXPECT_EQ(parse("openblas,generated,openblas"), "generated,openblas");
  EXPECT_EQ(parse("cublas,blis"), "blis,cublas");
  EXPECT_EQ(parse("mkl"), "error: unknown kernel source 'mkl' (expected "
                          "generated, openblas, blis, cublas)");
  EXPECT_EQ(parse("generated,"),
            "error: empty kernel source name in 'generated,' (expected a "
            "comma list of generated, openblas, blis, cublas)");
}

/// The embedded registry with its records in a shuffled order.
std::string shuffledRegistry(uint64_t seed) {
  llvm::Expected<llvm::json::Value> doc =
      llvm::json::parse(KernelRegistry::embeddedText());
  EXPECT_TRUE(bool(doc));
  llvm::json::Array &kernels = *doc->getAsObject()->getArray("kernels");
  std::mt19937_64 rng(seed);
  // Fisher-Yates with our own index mapping (no std distribution).
  for (size_t i = kernels.size(); i > 1; --i)
    std::swap(kernels[i - 1], kernels[rng() % i]);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *doc;
  return text;
}

TEST(KernelRegistry, RecordOrderDecidesNothing) {
  const KernelRegistry &reg = KernelRegistry::get();
  for (uint64_t seed : {1, 2, 3}) {
    llvm::Expected<KernelRegistry> shuffled =
        KernelRegistry::parse(shuffledRegistry(seed), "shuffled.json");
    ASSERT_TRUE(bool(shuffled)) << llvm::toString(shuffled.takeError());
    ASSERT_EQ(shuffled->records().size(), reg.records().size());
    for (size_t i = 0; i < reg.records().size(); ++i) {
      EXPECT_EQ(shuffled->records()[i].id, reg.records()[i].id);
      EXPECT_EQ(shuffled->records()[i].revision, reg.records()[i].revision);
    }
    for (OpKind op : plan::kAllOpKinds)
      for (DeviceKind backend : kBackends)
        EXPECT_EQ(ids(shuffled->lookup(op, {"f32", "f32", "f32"}, backend)),
                  ids(reg.lookup(op, {"f32", "f32", "f32"}, backend)));
    EXPECT_EQ(shuffled->allCombinations(), reg.allCombinations());
  }
}

//===----------------------------------------------------------------------===//
// Validation errors
//===----------------------------------------------------------------------===//

/// A valid record whose fields `patch` overrides (JSON object text).
std::string registryWith(llvm::StringRef patch, bool twice = false) {
  llvm::json::Object record{{"id", "cpu.generated.matmul_f32"},
                            {"op", "matmul"},
                            {"dtype", "f32"},
                            {"backend", "cpu"},
                            {"source", "generated"},
                            {"caps", llvm::json::Array{"strided_input"}},
                            {"precision", "deterministic"},
                            {"precision_note", "fixed schedule"},
                            {"efficiency_compute", 0.5},
                            {"efficiency_memory", 0.5},
                            {"overhead_ns", 0},
                            {"workspace_bytes", 0},
                            {"priority", 0},
                            {"cost", "matmul"},
                            {"schedule", "naive"},
                            {"lowering", "kernels/schedules/cpu/matmul.mlir"}};
  llvm::Expected<llvm::json::Value> p = llvm::json::parse(patch);
  EXPECT_TRUE(bool(p));
  for (auto &kv : *p->getAsObject()) {
    if (kv.second.kind() == llvm::json::Value::Null)
      record.erase(kv.first);
    else
      record[kv.first] = kv.second;
  }
  llvm::json::Array kernels{llvm::json::Value(llvm::json::Object(record))};
  if (twice)
    kernels.push_back(llvm::json::Object(record));
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(
      llvm::json::Object{{"version", 1}, {"kernels", std::move(kernels)}});
  return text;
}

std::string registryError(const std::string &text) {
  llvm::Expected<KernelRegistry> r = KernelRegistry::parse(text, "k.json");
  if (r)
    return "";
  return llvm::toString(r.takeError());
}

TEST(KernelRegistryErrors, BaseRecordIsValid) {
  EXPECT_EQ(registryError(registryWith("{}")), "");
  // A library kernel is lowered to a shim entry of its library.
  EXPECT_EQ(registryError(registryWith(
                R"({"source": "openblas", "id": "cpu.openblas.matmul_f32",
                    "lowering": "fuel_shim_openblas_sgemm"})")),
            "");
}

TEST(KernelRegistryErrors, Messages) {
  struct Case {
    const char *patch;
    const char *message;
  } cases[] = {
      {R"({"op": "gemm"})",
       "$.kernels[0].op: unknown op kind 'gemm' (expected one of: matmul, "
       "batch_matmul, conv2d, pool, reduce, softmax, elementwise, transpose, "
       "generic)"},
      {R"({"backend": "tpu"})",
       "$.kernels[0].backend: unknown backend 'tpu' (expected cpu, cuda or "
       "vulkan)"},
      {R"({"source": "mkl"})",
       "$.kernels[0].source: unknown kernel source 'mkl' (expected generated, "
       "openblas, blis or cublas)"},
      {R"({"source": "cublas", "id": "cpu.cublas.matmul_f32"})",
       "$.kernels[0].backend: source 'cublas' runs on 'cuda', not 'cpu'"},
      {R"({"id": "cpu.openblas.matmul_f32"})",
       "$.kernels[0].id: expected an id of the form "
       "'cpu.generated.matmul_<suffix>' (suffix of [a-z0-9_]), got "
       "\"cpu.openblas.matmul_f32\""},
      {R"({"id": "cpu.generated.matmul_"})",
       "$.kernels[0].id: expected an id of the form "
       "'cpu.generated.matmul_<suffix>' (suffix of [a-z0-9_]), got "
       "\"cpu.generated.matmul_\""},
      {R"({"dtype": "f33"})",
       "$.kernels[0].dtype: unknown element type 'f33' (expected one of: "
       "bf16, f16, f32, f64, i1, i16, i32, i64, i8)"},
      {R"({"dtypes": ["f32", "f32", "f32"]})",
       "$.kernels[0]: both \"dtype\" and \"dtypes\" (expected one: \"dtype\" "
       "for all operands, \"dtypes\" for an exact list)"},
      {R"({"dtype": null})",
       "$.kernels[0]: missing key \"dtype\" or \"dtypes\""},
      {R"({"dtype": null, "dtypes": ["f32"]})",
       "$.kernels[0].dtypes: expected at least two element types (inputs, "
       "then the output), got 1"},
      {R"({"caps": ["fast"]})",
       "$.kernels[0].caps[0]: unknown capability 'fast' (expected one of: "
       "strided_input)"},
      {R"({"caps": ["strided_input", "strided_input"]})",
       "$.kernels[0].caps[1]: duplicate capability 'strided_input'"},
      {R"({"precision": "exact"})",
       "$.kernels[0].precision: unknown precision preset 'exact' (expected "
       "reference, deterministic, unaudited or an object of bounds)"},
      {R"({"precision": {"max_ulp": -1}})",
       "$.kernels[0].precision.max_ulp: expected a non-negative integer "
       "(ulp), got -1"},
      {R"({"precision": {"max_relative": -1e-5}})",
       "$.kernels[0].precision.max_relative: expected a non-negative, finite "
       "number, got -1e-05"},
      {R"({"precision": {"ulp": 1}})",
       "$.kernels[0].precision.ulp: unknown key (expected one of: "
       "bit_stable, max_ulp, max_relative, max_absolute)"},
      {R"({"precision_note": ""})",
       "$.kernels[0].precision_note: expected a non-empty explanation of the "
       "precision claim"},
      {R"({"efficiency_compute": 0})",
       "$.kernels[0].efficiency_compute: expected a fraction in (0, 1], got "
       "0"},
      {R"({"efficiency_memory": 1.5})",
       "$.kernels[0].efficiency_memory: expected a fraction in (0, 1], got "
       "1.5"},
      {R"({"overhead_ns": -1})",
       "$.kernels[0].overhead_ns: expected a non-negative integer (ns), got "
       "-1"},
      {R"({"workspace_bytes": -1})",
       "$.kernels[0].workspace_bytes: expected a non-negative integer "
       "(bytes), got -1"},
      {R"({"priority": 1.5})",
       "$.kernels[0].priority: expected an integer, got 1.5"},
      {R"({"cost": "gemm"})",
       "$.kernels[0].cost: unknown cost function 'gemm' (expected one of: "
       "matmul, batch_matmul, conv2d, pool, reduce, softmax, elementwise, "
       "transpose, generic)"},
      {R"({"cost": "softmax"})",
       "$.kernels[0].cost: cost function 'softmax' prices 'softmax', not "
       "'matmul'"},
      {R"({"schedule": ""})",
       "$.kernels[0].schedule: expected a non-empty schedule (the codegen "
       "schedule or the library call)"},
      {R"({"schedule": null})", "$.kernels[0]: missing key \"schedule\""},
      {R"({"shedule": "x"})",
       "$.kernels[0].shedule: unknown key (expected one of: id, op, dtype, "
       "dtypes, backend, source, caps, precision, precision_note, "
       "efficiency_compute, efficiency_memory, overhead_ns, workspace_bytes, "
       "priority, cost, schedule, lowering)"},
      {R"({"lowering": null})", "$.kernels[0]: missing key \"lowering\""},
      {R"({"lowering": 1})", "$.kernels[0].lowering: expected a string, got 1"},
      {R"({"lowering": "kernels/schedules/cuda/matmul.mlir"})",
       "$.kernels[0].lowering: expected the schedule file of a generated "
       "kernel, 'kernels/schedules/cpu/<name>.mlir' (name of [a-z0-9_]), got "
       "\"kernels/schedules/cuda/matmul.mlir\""},
      {R"({"backend": "vulkan", "id": "vulkan.generated.matmul_f32",
           "lowering": "kernels/schedules/vulkan/matmul.mlir"})",
       "$.kernels[0].lowering: expected the schedule file of a generated "
       "kernel, 'kernels/schedules/gpu/<name>.mlir' (name of [a-z0-9_]), got "
       "\"kernels/schedules/vulkan/matmul.mlir\""},
      {R"({"lowering": "kernels/schedules/cpu/.mlir"})",
       "$.kernels[0].lowering: expected the schedule file of a generated "
       "kernel, 'kernels/schedules/cpu/<name>.mlir' (name of [a-z0-9_]), got "
       "\"kernels/schedules/cpu/.mlir\""},
      {R"({"lowering": "kernels/schedules/cpu/Matmul.mlir"})",
       "$.kernels[0].lowering: expected the schedule file of a generated "
       "kernel, 'kernels/schedules/cpu/<name>.mlir' (name of [a-z0-9_]), got "
       "\"kernels/schedules/cpu/Matmul.mlir\""},
      {R"({"source": "openblas", "id": "cpu.openblas.matmul_f32"})",
       "$.kernels[0].lowering: expected the shim entry of a library kernel, "
       "'fuel_shim_openblas_<name>' (name of [a-z0-9_]), got "
       "\"kernels/schedules/cpu/matmul.mlir\""},
      {R"({"source": "openblas", "id": "cpu.openblas.matmul_f32",
           "lowering": "fuel_shim_blis_sgemm"})",
       "$.kernels[0].lowering: expected the shim entry of a library kernel, "
       "'fuel_shim_openblas_<name>' (name of [a-z0-9_]), got "
       "\"fuel_shim_blis_sgemm\""},
  };
  for (const Case &c : cases)
    EXPECT_EQ(registryError(registryWith(c.patch)),
              std::string("k.json: error: ") + c.message)
        << c.patch;
}

TEST(KernelRegistryErrors, DuplicateId) {
  EXPECT_EQ(registryError(registryWith("{}", /*twice=*/true)),
            "k.json: error: $.kernels[1].id: duplicate kernel id "
            "'cpu.generated.matmul_f32' (already declared at $.kernels[0])");
}

TEST(KernelRegistryErrors, Version) {
  EXPECT_EQ(registryError(R"({"version": 2, "kernels": []})"),
            "k.json: error: $.version: unsupported registry version 2 (this "
            "fuel reads 1)");
  EXPECT_EQ(registryError(R"({"version": 1, "kernels": [})"),
            "k.json:1:28: error: Invalid JSON value");
}

TEST(KernelRegistryErrors, ExactDtypeLists) {
  llvm::Expected<KernelRegistry> r = KernelRegistry::parse(
      registryWith(R"({"dtype": null, "dtypes": ["f16", "f16", "f32"]})"),
      "k.json");
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->records()[0].dtypes.str(), "[f16,f16,f32]");
  EXPECT_EQ(
      ids(r->lookup(OpKind::Matmul, {"f16", "f16", "f32"}, DeviceKind::Cpu))
          .size(),
      1u);
  EXPECT_TRUE(r->lookup(OpKind::Matmul, {"f16", "f16", "f16"}, DeviceKind::Cpu)
                  .empty());
  EXPECT_TRUE(
      r->lookup(OpKind::Matmul, {"f16", "f32"}, DeviceKind::Cpu).empty());
}

} // namespace
