//===- KernelRegistry.h - The registered kernel variants --------*- C++ -*-===//
//
// The kernel registry (SEMANTICS §1, §3 steps 3-6): declarative records, one
// per kernel variant, keyed by (op kind, dtypes, backend). The records live in
// the checked-in data file kernels/registry.json, embedded into the library
// at build time and parsed and validated once. docs/KERNELS.md documents the
// format and the claims each record makes.
//
// Record order never decides anything: records are kept sorted by kernel id
// and every query returns them in that order.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_TARGET_KERNELREGISTRY_H
#define FUEL_TARGET_KERNELREGISTRY_H

#include "fuel/Planner/Device.h"
#include "fuel/Planner/OpKind.h"
#include "fuel/Planner/Precision.h"
#include "fuel/Target/CostModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace fuel::target {

/// Who wrote a kernel (SEMANTICS §1). The enumerator order is the order
/// sourcesFor() reports.
enum class KernelSource : uint8_t { Generated, OpenBLAS, BLIS, CuBLAS };

/// "generated", "openblas", "blis", "cublas".
std::string_view stringifyKernelSource(KernelSource source);
/// Inverse of stringifyKernelSource.
std::optional<KernelSource> symbolizeKernelSource(std::string_view s);
/// The one backend a library source runs on; std::nullopt for `generated`,
/// which exists for every backend.
std::optional<plan::DeviceKind> libraryBackend(KernelSource source);

/// Every kernel source, in KernelSource order.
llvm::ArrayRef<KernelSource> allKernelSources();

/// The folder under kernels/schedules/ whose files compile `backend`'s
/// generated kernels: "cpu" for the CPU, "gpu" for Vulkan and CUDA, which
/// share one schedule set (each schedule's sequence @gpu; the conversion of
/// each target turns the same scheduled loops into its code).
std::string_view scheduleFolder(plan::DeviceKind backend);

/// Parses the `kernel-sources` option (SEMANTICS §3 step 3, §9): a comma
/// list of source names ("generated,openblas"). Empty text means every
/// source and gives an empty list. The result is in KernelSource order
/// without duplicates. An unknown or empty name is an error that names it
/// and lists the known sources.
llvm::Expected<std::vector<KernelSource>>
parseKernelSources(llvm::StringRef text);

/// The canonical spelling of a source list: the names in KernelSource order,
/// comma-separated; "" for the empty list (every source).
std::string formatKernelSources(llvm::ArrayRef<KernelSource> sources);

/// The capability names a record may list: "strided_input" (reads operands
/// through arbitrary strides without packing them first, SEMANTICS §3 step 5).
llvm::ArrayRef<llvm::StringLiteral> knownKernelCaps();

/// The dtypes a record serves (SEMANTICS §4: input element types, then the
/// output's). Either uniform — every operand and the result have one type,
/// whatever their number (the form for ops with a variable number of inputs,
/// such as elementwise) — or an exact list.
struct DtypeKey {
  bool uniform = true;
  /// One type when uniform; otherwise the exact list, inputs then output.
  std::vector<std::string> types;

  /// True when a node with dtypes key `dtypes` may use a record with this key.
  bool matches(llvm::ArrayRef<std::string> dtypes) const;
  /// "f32" when uniform, "[f16,f16,f32]" when exact.
  std::string str() const;

  friend bool operator==(const DtypeKey &a, const DtypeKey &b) {
    return a.uniform == b.uniform && a.types == b.types;
  }
  friend bool operator<(const DtypeKey &a, const DtypeKey &b) {
    return std::tie(a.uniform, a.types) < std::tie(b.uniform, b.types);
  }
};

/// One registered kernel variant.
struct KernelRecord {
  /// Unique kernel id, `<backend>.<source>.<op kind>_<suffix>`, e.g.
  /// "cpu.openblas.matmul_f32".
  std::string id;
  plan::OpKind op = plan::OpKind::Generic;
  DtypeKey dtypes;
  plan::DeviceKind backend = plan::DeviceKind::Cpu;
  KernelSource source = KernelSource::Generated;
  /// Capability names, sorted, from knownKernelCaps().
  std::vector<std::string> caps;
  /// The precision guarantee (SEMANTICS §6); its note says why.
  plan::Precision precision;
  /// The preset the record named ("reference", "deterministic",
  /// "unaudited"), or empty when it spelt its bounds out.
  std::string precisionPreset;
  /// Fractions, in (0, 1], of the device's peak flop/ns and B/ns this kernel
  /// reaches (SEMANTICS §3 step 6).
  double efficiencyCompute = 1.0;
  double efficiencyMemory = 1.0;
  /// The variant's own overhead on top of the device's dispatch overhead.
  int64_t overheadNs = 0;
  /// Scratch memory one invocation needs on the device, in bytes, counted in
  /// the candidate's footprint (SEMANTICS §3). Library workspaces are fixed
  /// block buffers, so this is a constant per record.
  uint64_t workspaceBytes = 0;
  /// Higher wins a final tie (SEMANTICS §6 winner order).
  int64_t priority = 0;
  /// Name of the cost function (CostModel.h); it prices this op kind.
  std::string costFunction;
  /// The codegen schedule (generated kernels) or the library call (library
  /// kernels), in words; hashed into the revision.
  std::string schedule;
  /// The bytes of the schedule file `lowering` names, when the record is
  /// generated and the file was in the tree at build time (embedded then,
  /// see scheduleFileText()); empty otherwise. Hashed into the revision, so
  /// editing a schedule file changes the revision of its record.
  std::string scheduleFile;
  /// What lowering turns the record into: for a generated kernel its
  /// schedule file, `kernels/schedules/<backend>/<name>.mlir`; for a library
  /// kernel the runtime's shim entry, `fuel_shim_<source>_<name>` (names of
  /// [a-z0-9_]). Part of canonicalText(), so it enters the revision.
  std::string lowering;
  /// SEMANTICS §1 revision hash; computed when the registry is parsed.
  uint64_t revision = 0;

  /// Canonical text of every field but `schedule` and `revision`, doubles in
  /// hexadecimal floating point: the record part of the revision hash.
  std::string canonicalText() const;
  /// llvm::xxh3_64bits over canonicalText(), the schedule text, the schedule
  /// file's bytes (when present) and FUEL_VERSION (SEMANTICS §1).
  uint64_t computeRevision() const;
  /// Flops and bytes of one invocation, from the record's cost function.
  llvm::Expected<StaticCost> cost(const CostQuery &query) const;
  /// True when caps contains `cap`.
  bool hasCap(llvm::StringRef cap) const;
};

/// One registered (backend, op kind, dtypes) combination, for NoBackendForOp
/// messages (SEMANTICS §3 step 4).
struct KernelCombination {
  plan::DeviceKind backend;
  plan::OpKind op;
  DtypeKey dtypes;

  /// "(cpu, matmul, f32)".
  std::string str() const;
  friend bool operator==(const KernelCombination &a,
                         const KernelCombination &b) {
    return a.backend == b.backend && a.op == b.op && a.dtypes == b.dtypes;
  }
  friend bool operator<(const KernelCombination &a,
                        const KernelCombination &b) {
    return std::tie(a.backend, a.op, a.dtypes) <
           std::tie(b.backend, b.op, b.dtypes);
  }
};

/// The registry: every record, validated, sorted by id.
class KernelRegistry {
public:
  /// The registry built into fuel (kernels/registry.json), parsed and
  /// validated on first use. An invalid embedded registry is a build defect
  /// (the unit tests parse it) and aborts with the validation message.
  static const KernelRegistry &get();

  /// The text of kernels/registry.json as embedded at build time.
  static llvm::StringRef embeddedText();

  /// The bytes of the schedule file at `path` (relative to the source tree,
  /// e.g. "kernels/schedules/cpu/matmul.mlir") as embedded at build time:
  /// every kernels/schedules/<backend>/*.mlir file is. std::nullopt when no
  /// such file was in the tree.
  static std::optional<llvm::StringRef> scheduleFileText(llvm::StringRef path);

  /// The embedded schedule files' paths, sorted.
  static std::vector<std::string> embeddedScheduleFiles();

  /// Looks up the bytes of a schedule file by its path; returns std::nullopt
  /// when there is none.
  using ScheduleFileLookup =
      std::optional<llvm::StringRef> (*)(llvm::StringRef path);

  /// Parses and validates registry text. Errors name `fileName`, the JSON
  /// position or path, and what was expected. Each generated record's
  /// `scheduleFile` is read through `schedules` (by default the files
  /// embedded at build time) before its revision is computed.
  static llvm::Expected<KernelRegistry>
  parse(llvm::StringRef text, llvm::StringRef fileName,
        ScheduleFileLookup schedules = &KernelRegistry::scheduleFileText);

  /// Every record, sorted by id.
  llvm::ArrayRef<KernelRecord> records() const { return recordsById; }

  /// The record with this id, or nullptr.
  const KernelRecord *find(llvm::StringRef id) const;

  /// The records for (op, dtypes, backend), sorted by id (SEMANTICS §3 step
  /// 3). `dtypes` is the node's dtypes key: inputs then output.
  std::vector<const KernelRecord *> lookup(plan::OpKind op,
                                           llvm::ArrayRef<std::string> dtypes,
                                           plan::DeviceKind backend) const;

  /// Every (backend, op kind, dtypes) combination with at least one record,
  /// sorted and without duplicates.
  std::vector<KernelCombination> allCombinations() const;

  /// The kernel sources registered for a backend, in KernelSource order.
  std::vector<KernelSource> sourcesFor(plan::DeviceKind backend) const;

private:
  std::vector<KernelRecord> recordsById;
};

} // namespace fuel::target

#endif // FUEL_TARGET_KERNELREGISTRY_H
