//===- FuelAttrs.td - Attributes of the fuel dialect -------*- tablegen -*-===//
//
// Devices, costs, precision, decision contexts, candidates, alternative sets,
// couplings and topologies (SEMANTICS §1).
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_IR_FUELATTRS_TD
#define FUEL_DIALECT_FUEL_IR_FUELATTRS_TD

include "fuel/Dialect/Fuel/IR/FuelDialect.td"
include "fuel/Dialect/Fuel/IR/FuelEnums.td"
include "fuel/Dialect/Fuel/IR/FuelInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Fuel_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Fuel_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// DeviceAttr
//===----------------------------------------------------------------------===//

def Fuel_DeviceAttr : Fuel_Attr<"Device", "device",
    [DeclareAttrInterfaceMethods<Fuel_PlacementAttrInterface>]> {
  let summary = "A device: `cpu`, `cuda:N` or `vulkan:N`";
  let description = [{
    A device is where bytes live and kernels run. The host `cpu` has no
    ordinal; `cuda` and `vulkan` devices carry a non-negative ordinal.

    ```mlir
    #fuel.device<cpu>
    #fuel.device<cuda:0>
    #fuel.device<vulkan:1>
    ```

    Inside fuel ops devices print bare (`on cuda:0`). Device order, used by
    every tie-break, is `cpu` < `cuda:N` < `vulkan:N`, ordinals ascending.
  }];
  let parameters = (ins
    EnumParameter<Fuel_DeviceKind>:$kind,
    "int64_t":$ordinal
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The host device.
    static DeviceAttr getHost(::mlir::MLIRContext *ctx) {
      return get(ctx, ::mlir::fuel::DeviceKind::cpu, 0);
    }
    bool isHost() const { return getKind() == ::mlir::fuel::DeviceKind::cpu; }
    /// "cpu", "cuda:0", ...
    std::string str() const;
    /// Device order: cpu < cuda:N < vulkan:N, ordinals ascending.
    bool operator<(DeviceAttr other) const;
    /// Prints the bare form used inside ops (`cuda:0`).
    void printBare(::mlir::AsmPrinter &printer) const;
    /// Parses the bare form, with precise errors for unknown kinds, negative
    /// ordinals, `cpu:N` and missing ordinals.
    static ::mlir::FailureOr<DeviceAttr> parseBare(::mlir::AsmParser &parser);
  }];
}

//===----------------------------------------------------------------------===//
// CostAttr
//===----------------------------------------------------------------------===//

def Fuel_CostAttr : Fuel_Attr<"Cost", "cost"> {
  let summary = "Static cost of a kernel: flops, bytes and its own overhead";
  let description = [{
    ```mlir
    #fuel.cost<flops = 16777216, bytes = 720896, overhead_ns = 5000>
    ```
    `overhead_ns` is the variant's own overhead; the device's dispatch
    overhead is added when a time is computed (SEMANTICS §3 step 6). All
    figures are non-negative.
  }];
  let parameters = (ins "int64_t":$flops, "int64_t":$bytes,
                        "int64_t":$overhead_ns);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

def Fuel_PrecisionAttr : Fuel_Attr<"Precision", "precision"> {
  let summary = "A precision guarantee or requirement";
  let description = [{
    What a kernel claims about its numerics, or what a pipeline requires:
    bit stability, a maximum ulp error, a maximum relative and absolute
    error, and a free-form note. Absent bounds mean "no claim". The presets
    print by name:

    ```mlir
    #fuel.precision<reference>      // bit-stable, ulp 0, rel 0, abs 0
    #fuel.precision<deterministic>  // bit-stable only
    #fuel.precision<unaudited>      // no claim
    #fuel.precision<bit_stable, ulp = 1, rel = 1.000000e-05, note = "audited">
    #fuel.precision<deterministic, note = "fixed schedule">
    ```
    Negative or non-finite bounds are rejected.
  }];
  let parameters = (ins
    "bool":$bit_stable,
    OptionalParameter<"std::optional<uint64_t>">:$max_ulp,
    OptionalParameter<"::mlir::FloatAttr">:$max_relative,
    OptionalParameter<"::mlir::FloatAttr">:$max_absolute,
    StringRefParameter<"free-form note", "\"\"">:$note
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static PrecisionAttr getReference(::mlir::MLIRContext *ctx);
    static PrecisionAttr getDeterministic(::mlir::MLIRContext *ctx);
    static PrecisionAttr getUnaudited(::mlir::MLIRContext *ctx);
    /// The preset these bounds equal ("reference", "deterministic",
    /// "unaudited"), ignoring the note; empty when none.
    ::llvm::StringRef getPresetName() const;
    std::optional<double> getMaxRelativeValue() const;
    std::optional<double> getMaxAbsoluteValue() const;
    /// Prints the body without `<>` when it is a bare preset, with `<>`
    /// otherwise; used for the nested `precision = ...` field.
    void printNested(::mlir::AsmPrinter &printer) const;
    static ::mlir::FailureOr<PrecisionAttr>
    parseNested(::mlir::AsmParser &parser);
    /// Converts to the planner's plain struct.
    ::fuel::plan::Precision toPlan() const;
    /// Builds the attribute from the planner's struct.
    static PrecisionAttr fromPlan(::mlir::MLIRContext *ctx,
                                  const ::fuel::plan::Precision &precision);
  }];
}

//===----------------------------------------------------------------------===//
// DecisionAttr
//===----------------------------------------------------------------------===//

def Fuel_DecisionAttr : Fuel_Attr<"Decision", "decision"> {
  let summary = "The context of a decision point";
  let description = [{
    Identifies a decision point: the node's op kind, its principal element
    type, its size class (SEMANTICS §4, printed in hexadecimal) and the
    decision device (SEMANTICS §3 step 1).

    ```mlir
    #fuel.decision<op = matmul, dtype = f32, size_class = 0x0f0608, device = cpu>
    ```
  }];
  let parameters = (ins
    EnumParameter<Fuel_OpKind>:$op_kind,
    "::mlir::Type":$dtype,
    "uint64_t":$size_class,
    "::mlir::fuel::DeviceAttr":$device
  );
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// CouplingAttr
//===----------------------------------------------------------------------===//

def Fuel_CouplingAttr : Fuel_Attr<"Coupling", "coupling"> {
  let summary = "A cost adjustment conditional on another node's placement";
  let description = [{
    A signed time delta that applies when another node (`node`, its id in the
    same function) is placed on a given device or on any device of a given
    backend.

    On a candidate the adjustment applies to that candidate:
    ```mlir
    #fuel.coupling<node = 3, device = cuda:0, delta_ns = -500>
    ```
    As a frontend annotation (`fuel.coupling = [...]` on an op) it also says
    which device of *this* node it applies to (`on`); enumeration copies it
    onto the candidates of that device:
    ```mlir
    #fuel.coupling<on = cpu, node = 3, backend = cuda, delta_ns = 2000>
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::fuel::DeviceAttr">:$on,
    "int64_t":$node,
    "::mlir::Attribute":$condition,
    "int64_t":$delta_ns
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The device condition, or null when the condition is a backend.
    DeviceAttr getConditionDevice() const;
    /// The backend condition, or std::nullopt when it is a device.
    std::optional<DeviceKind> getConditionBackend() const;
  }];
}

//===----------------------------------------------------------------------===//
// CandidateAttr
//===----------------------------------------------------------------------===//

def Fuel_CandidateAttr : Fuel_Attr<"Candidate", "candidate"> {
  let summary = "One way to run a node: a kernel variant on a device";
  let description = [{
    Every field of SEMANTICS §1. The kernel id names the registry record the
    candidate came from (a string, not a symbol). Fields may be written in
    any order; they print in the order below, and fields at their default
    (no caps, no params, no coupling, priority 0, transfer 0, revision 0, not
    a fallback) are omitted.

    ```mlir
    #fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas",
      backend = cpu, device = cpu, caps = [strided_input],
      revision = 0x9c1e47a2d0b3f811, priority = 10, precision = unaudited,
      cost = <flops = 16777216, bytes = 720896, overhead_ns = 500>,
      time_ns = 147000 static, host_bytes = 720896, device_bytes = 0,
      transfer_ns = 0, params = {fn = "add"},
      coupling = [#fuel.coupling<node = 3, backend = cuda, delta_ns = -500>],
      fallback>
    ```

    A measured candidate (SEMANTICS §3 step 7, a profile-database hit)
    also carries the measurement's noise (median absolute deviation, ns)
    and the Layer-1 time the measurement replaced, which orders ties within
    noise (SEMANTICS §6); both are printed only when the time is measured:

    ```mlir
    time_ns = 131000 measured, noise_ns = 900, static_time_ns = 147000
    ```

    The backend must equal the device's kind; times and byte counts are
    non-negative; a static candidate has no noise or static time.
  }];
  let parameters = (ins
    StringRefParameter<"kernel id">:$kernel_id,
    StringRefParameter<"kernel source">:$source,
    EnumParameter<Fuel_DeviceKind>:$backend,
    "::mlir::fuel::DeviceAttr":$device,
    "::mlir::ArrayAttr":$caps,
    "::mlir::fuel::PrecisionAttr":$precision,
    "::mlir::fuel::CostAttr":$cost,
    "int64_t":$time_ns,
    EnumParameter<Fuel_TimeSource>:$time_source,
    "int64_t":$noise_ns,
    "int64_t":$static_time_ns,
    "int64_t":$host_bytes,
    "int64_t":$device_bytes,
    "int64_t":$transfer_ns,
    "::mlir::DictionaryAttr":$params,
    "::mlir::ArrayAttr":$coupling,
    "uint64_t":$revision,
    "int64_t":$priority,
    "bool":$fallback
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// AlternativeSetAttr
//===----------------------------------------------------------------------===//

def Fuel_AlternativeSetAttr : Fuel_Attr<"AlternativeSet", "alternatives"> {
  let summary = "A node's ranked candidates and its decision context";
  let description = [{
    The candidates of one decision point, winner first, together with the
    decision context. Candidates are printed as attributes, so equal
    candidates of different nodes share one alias in printed IR.

    ```mlir
    #fuel.alternatives<decision = <op = matmul, dtype = f32,
                         size_class = 0x0f0608, device = cpu>,
                       [#fuel.candidate<...>, #fuel.candidate<...>]>
    ```
    A set holds at least one candidate, and no two candidates share a
    (kernel id, device) pair.
  }];
  let parameters = (ins
    "::mlir::fuel::DecisionAttr":$decision,
    ArrayRefParameter<"::mlir::fuel::CandidateAttr">:$candidates
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Index 0: the winner.
    CandidateAttr getWinner() const { return getCandidates().front(); }
  }];
}

//===----------------------------------------------------------------------===//
// Topology
//===----------------------------------------------------------------------===//

def Fuel_GpuLimitsAttr : Fuel_Attr<"GpuLimits", "gpu_limits"> {
  let summary = "The limits code generation reads of a GPU device";
  let description = [{
    The `limits` of a GPU device (`cuda:N`, `vulkan:N`) in a topology
    (docs/TOPOLOGY.md): what its kernels' tiles, workgroups and reductions
    are sized from, and the alignment of the buffer ranges a dispatch binds.

    ```mlir
    #fuel.gpu_limits<subgroup_size = 8, shared_memory_bytes = 32768,
      max_workgroup_invocations = 1024, max_workgroup_size = [1024, 1024, 1024],
      min_storage_buffer_offset_alignment = 16, max_push_constants_bytes = 128,
      timestamp_period_ns = 1.0>
    ```
    Every field is optional; an absent field (printed as nothing) is 0,
    unknown. Present figures follow the topology file's ranges: the subgroup
    size and the offset alignment are powers of two, a workgroup dimension
    is within the invocations, push constants are a multiple of 4.
  }];
  let parameters = (ins
    "int64_t":$subgroup_size,
    "int64_t":$shared_memory_bytes,
    "int64_t":$max_workgroup_invocations,
    ArrayRefParameter<"int64_t", "x, y, z (all 0 when unknown)">:$max_workgroup_size,
    "int64_t":$min_storage_buffer_offset_alignment,
    "int64_t":$max_push_constants_bytes,
    APFloatParameter<"nanoseconds per timestamp tick (f64)">:$timestamp_period_ns
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Converts to the planner's plain struct.
    ::fuel::plan::GpuLimits toPlan() const;
    /// Builds the attribute from the planner's struct.
    static GpuLimitsAttr fromPlan(::mlir::MLIRContext *ctx,
                                  const ::fuel::plan::GpuLimits &limits);
  }];
}

def Fuel_DeviceInfoAttr : Fuel_Attr<"DeviceInfo", "device_info"> {
  let summary = "A device of a topology and its capabilities";
  let description = [{
    ```mlir
    #fuel.device_info<cuda:0, name = "H100", peak = {f16 = 4.0e+05, f32 = 5.0e+04},
      bytes_per_ns = 3.0e+03, dispatch_ns = 5000, memory = 85899345920,
      alignment = 256>
    ```
    `cpu_type` marks a device whose compute units are CPU cores (the host,
    or a Vulkan device of CPU type such as Mesa lavapipe). `peak` maps an
    element type name to flop/ns; an absent `bytes_per_ns` or dtype takes
    the priors of SEMANTICS §3 step 6.

    On the host only, `cpu_target = "<LLVM CPU name>"` and optionally
    `cpu_features = "+avx2,+fma"` name the code-generation target of the
    host's kernels (docs/TOPOLOGY.md); without them the compiler targets
    the compiling host:

    ```mlir
    #fuel.device_info<cpu, cpu_type, peak = {f32 = 3.2e+01}, dispatch_ns = 2000,
      memory = 17179869184, alignment = 64, cpu_target = "znver3",
      cpu_features = "+avx2,+fma">
    ```

    On GPU devices only, `limits = <...>` holds the device's
    `#fuel.gpu_limits` (docs/TOPOLOGY.md):

    ```mlir
    #fuel.device_info<vulkan:0, cpu_type, peak = {f32 = 8.0e+00},
      dispatch_ns = 20000, memory = 2147483648, alignment = 64,
      limits = <subgroup_size = 8, shared_memory_bytes = 32768>>
    ```

    On CUDA devices only, `compute_capability = "9.0"` names the chip CUDA
    code generation targets (`sm_90`); absent, it targets 9.0.

    `driver = "..."` names the driver's version (GPU devices); with the
    name it is the identity profile-database keys carry (docs/TOPOLOGY.md).
  }];
  let parameters = (ins
    "::mlir::fuel::DeviceAttr":$device,
    StringRefParameter<"description", "\"\"">:$name,
    "bool":$cpu_type,
    "::mlir::DictionaryAttr":$peak,
    OptionalParameter<"::mlir::FloatAttr">:$bytes_per_ns,
    "int64_t":$dispatch_ns,
    "int64_t":$memory,
    "int64_t":$alignment,
    StringRefParameter<"LLVM CPU name of the code-generation target", "\"\"">:$cpu_target,
    StringRefParameter<"LLVM target features", "\"\"">:$cpu_features,
    OptionalParameter<"::mlir::fuel::GpuLimitsAttr">:$limits,
    StringRefParameter<"CUDA compute capability, \"major.minor\"", "\"\"">:$compute_capability,
    StringRefParameter<"driver version", "\"\"">:$driver
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Fuel_LinkAttr : Fuel_Attr<"Link", "link"> {
  let summary = "A directed link between two devices of a topology";
  let description = [{
    ```mlir
    #fuel.link<cpu -> cuda:0, bandwidth = 25000000000, latency_ns = 10000,
               class = device-copy>
    ```
    Bandwidth in bytes per second, latency in ns.
  }];
  let parameters = (ins
    "::mlir::fuel::DeviceAttr":$from,
    "::mlir::fuel::DeviceAttr":$to,
    "int64_t":$bandwidth,
    "int64_t":$latency_ns,
    EnumParameter<Fuel_PathClass>:$path_class
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Fuel_TopologyAttr : Fuel_Attr<"Topology", "topology"> {
  let summary = "Devices, their capabilities and the links between them";
  let description = [{
    The machine a module is planned for, stamped on the module as
    `fuel.topology`, so a planned module can be re-costed, exported and
    explained without the file it came from.

    ```mlir
    #fuel.topology<hash = 0x1f2e3d4c5b6a7988,
      devices = [<cpu, cpu_type, peak = {f32 = 3.2e+01}, bytes_per_ns = 2.0e+01,
                  dispatch_ns = 1000, memory = 17179869184, alignment = 64>],
      links = []>
    ```
    Exactly one device is `cpu`; devices are distinct; links join known,
    distinct devices with a positive bandwidth. `hash` is the content hash
    (`xxh3_64bits` over the canonical serialisation); when omitted it is
    computed, when given it must match.
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::fuel::DeviceInfoAttr">:$devices,
    ArrayRefParameter<"::mlir::fuel::LinkAttr">:$links,
    "uint64_t":$hash
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Converts to the planner's plain struct.
    ::fuel::plan::Topology toPlan() const;
    /// Builds the attribute (hash included) from the planner's struct.
    static TopologyAttr fromPlan(::mlir::MLIRContext *ctx,
                                 const ::fuel::plan::Topology &topology);
    /// The record of `device`, or null.
    DeviceInfoAttr lookup(DeviceAttr device) const;
  }];
}

//===----------------------------------------------------------------------===//
// PlanConfigAttr
//===----------------------------------------------------------------------===//

def Fuel_PlanConfigAttr : Fuel_Attr<"PlanConfig", "config"> {
  let summary = "The planning configuration several passes share";
  let description = [{
    Stamped on the module as `fuel.config` by `fuel-attach-topology`, next
    to `fuel.topology`, so every planning pass reads the same configuration
    (SEMANTICS §3 step 2): whether transfers are priced, whether nodes may be
    placed by cost, the pipeline's pinned device (`none` when there is none)
    and the precision requirement, in the canonical spelling of the
    `precision` option (`none`, `reference`, `deterministic` or a list such
    as `bit-stable,ulp<=1,rel<=1e-05`), and, when the `kernel-sources`
    option restricts them, the kernel sources enumeration admits (SEMANTICS
    §3 step 3), in canonical order (`generated`, `openblas`, `blis`,
    `cublas`); absent means every source. The requirement is held as a
    `#fuel.precision` and the sources as a list, so the passes read them
    without parsing; both print as the option spells them.

    ```mlir
    #fuel.config<price_transfers = true, allow_cost_placement = true,
                 pinned_device = cpu, precision = "none",
                 kernel_sources = "generated,openblas">
    ```
  }];
  let parameters = (ins
    "bool":$price_transfers,
    "bool":$allow_cost_placement,
    OptionalParameter<"::mlir::fuel::DeviceAttr">:$pinned_device,
    AttrParameter<"::mlir::fuel::PrecisionAttr",
                  "precision requirement">:$precision_requirement,
    OptionalArrayRefParameter<"::fuel::target::KernelSource",
                              "kernel sources, empty for all">:$sources
  );
  let builders = [
    AttrBuilder<(ins "bool":$price_transfers, "bool":$allow_cost_placement,
                     "::mlir::fuel::DeviceAttr":$pinned_device,
                     "const ::fuel::plan::Precision &":$requirement,
                     CArg<"::llvm::ArrayRef<::fuel::target::KernelSource>",
                          "{}">:$sources), [{
      return $_get($_ctxt, price_transfers, allow_cost_placement,
                   pinned_device,
                   ::mlir::fuel::PrecisionAttr::fromPlan($_ctxt, requirement),
                   sources);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The precision requirement as the planner's struct.
    ::fuel::plan::Precision getRequirement() const;
    /// The precision requirement in the `precision` option's canonical
    /// spelling, as it prints.
    std::string getPrecision() const;
    /// The admitted kernel sources; empty means every source.
    std::vector<::fuel::target::KernelSource> getSourceList() const;
    /// The admitted kernel sources in the `kernel-sources` option's
    /// canonical spelling, as they print; empty for every source.
    std::string getKernelSources() const;
  }];
}

//===----------------------------------------------------------------------===//
// PredictedAttr
//===----------------------------------------------------------------------===//

def Fuel_PredictedAttr : Fuel_Attr<"Predicted", "predicted"> {
  let summary = "A function's predicted time and its parts";
  let description = [{
    The placement objective of a function (SEMANTICS §5), recorded on it as
    `fuel.predicted_ns` by `fuel-place`: the total and its three parts — the
    chosen candidates' times, the copies' cost, and the satisfied coupling
    deltas (signed). The total is the saturating sum of the parts.

    ```mlir
    func.func @f(...) attributes {fuel.predicted_ns =
        #fuel.predicted<total = 1020000, nodes = 200000, copies = 820000,
                        coupling = 0>}
    ```
  }];
  let parameters = (ins "int64_t":$total, "int64_t":$nodes, "int64_t":$copies,
                        "int64_t":$coupling);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // FUEL_DIALECT_FUEL_IR_FUELATTRS_TD
