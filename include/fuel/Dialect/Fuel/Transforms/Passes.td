//===- Passes.td - Passes of the fuel dialect --------------*- tablegen -*-===//
//
// The passes that turn a tensor program into a plan and lower the plan,
// grouped by the IR stage they produce (docs/ARCHITECTURE.md, "The IR, stage
// by stage"). Planning: the topology and configuration stamp (stage 2), node
// formation (stage 3, SEMANTICS §4), phase A (stage 4, SEMANTICS §3), phase
// B: placement and copy insertion (stage 5, SEMANTICS §5 and §8), and the
// module passes that export, import and draw a plan. Lowering (stage 6):
// outlining, the kernels' schedules (cpu, vulkan and cuda) and the cpu
// kernels' bufferization, the host program, and serialization; the
// conversions to target code that run before serialization are in
// include/fuel/Conversion/Passes.td. Each pass can run alone from what the IR
// holds; the `fuel-plan` and `fuel-plan-candidates` pipelines
// (PlanPipeline.cpp) run the planning passes in order, `fuel-lower`
// (LowerPipeline.cpp) the lowering up to serialization. docs/FuelPasses.md is
// generated from this file.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_DIALECT_FUEL_TRANSFORMS_PASSES_TD
#define FUEL_DIALECT_FUEL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Stage 2: topology and configuration
//===----------------------------------------------------------------------===//

def FuelAttachTopologyPass : Pass<"fuel-attach-topology", "mlir::ModuleOp"> {
  let summary = "Stamps the topology and the planning configuration on the module";
  let description = [{
    Objective: give every later pass one machine and one configuration to
    read. The pass sets `fuel.topology` (the devices, their rates and the
    links, with a content hash) and `fuel.config` (`price-transfers`,
    `allow-cost-placement`, `pinned-device`, `precision`: SEMANTICS §3 step
    2; `kernel-sources`: step 3) on the module. Function passes cannot modify their parent, so they
    only read these, and report a diagnostic when they are missing.

    Topology source (SEMANTICS §9): `topology=FILE` reads a JSON topology
    file (docs/TOPOLOGY.md), `topology=probe` enumerates the machine the
    compiler runs on; with no option a module that already carries a
    topology keeps it, and any other module gets the built-in default (one
    host CPU with fixed figures, never probed). An explicit topology whose
    content hash differs from the one a module already carries is an error:
    re-planning never silently changes the machine.

    The configuration is always rewritten from the options, so the
    configuration a module shows is the one its plan was made with.
    `require-transfer-pricing` with `price-transfers=false` fails here, and
    so does a `kernel-sources` list naming an unknown source (the sources are
    `generated`, `openblas`, `blis`, `cublas`); the list is recorded in
    canonical order, and not at all when it is empty (every source).

    ```mlir
    module attributes {
      fuel.config = #fuel.config<price_transfers = true,
        allow_cost_placement = true, pinned_device = cpu, precision = "none">,
      fuel.topology = #fuel.topology<hash = 0x..., devices = [...], links = [...]>}
    ```

    Known limits: a probed topology describes the compiling machine; lit
    tests always pass explicit files.
  }];
  let dependentDialects = ["mlir::fuel::FuelDialect"];
  let options = [
    Option<"topology", "topology", "std::string", "\"\"",
           "Topology JSON file, 'probe', or empty (keep the module's, else "
           "the built-in default)">,
    Option<"precision", "precision", "std::string", "\"none\"",
           "Precision requirement: none, reference, deterministic, or a list "
           "such as 'bit-stable,ulp<=1,rel<=1e-5'">,
    Option<"pinnedDevice", "pinned-device", "std::string", "\"cpu\"",
           "Decision device of nodes without a pin ('cpu', 'cuda:N', "
           "'vulkan:N' or 'none')">,
    Option<"priceTransfers", "price-transfers", "bool", "true",
           "Price transfers between devices (off: nodes stay on their "
           "decision device unless it has no kernel)">,
    Option<"allowCostPlacement", "allow-cost-placement", "bool", "true",
           "Let cost move free nodes off their decision device">,
    Option<"requireTransferPricing", "require-transfer-pricing", "bool",
           "false", "Fail when price-transfers is off">,
    Option<"kernelSources", "kernel-sources", "std::string", "\"\"",
           "Kernel sources enumeration admits, a comma list of generated, "
           "openblas, blis, cublas (empty: every source)">
  ];
}

//===----------------------------------------------------------------------===//
// Stage 3: node formation
//===----------------------------------------------------------------------===//

def FuelFormNodesPass : Pass<"fuel-form-nodes", "mlir::func::FuncOp"> {
  let summary = "Wraps every kernel-bearing op into a fuel.node";
  let description = [{
    Objective: make each decision point of SEMANTICS §4 an op of its own.
    Every kernel-bearing op — named linalg ops, `linalg.softmax`, and
    `linalg.generic` classified through the contraction and convolution
    interfaces, its iterator types and indexing maps — becomes a `fuel.node`
    carrying an id (program order, unique in the function) and its op kind.

    The node's body holds the root op, clones of its destination init chain
    (`tensor.empty`, a `linalg.fill` of a scalar) and clones of the scalar
    and splat constants it uses, cloned into every node that uses them;
    every other value becomes an operand, in first-use order — a non-splat
    tensor constant or a `dense_resource` blob among them, which stays
    outside as load-time data (SEMANTICS §5). Views
    (`tensor.extract_slice`, `expand_shape`, `collapse_shape`, `cast`,
    `reshape`) stay outside; any other op that is not a node is a host op
    and is left alone. `fuel.pin`, `fuel.kernel`, `fuel.destructive` and
    `fuel.coupling` on an ingress op become the node's `pin`, `kernel`,
    `destructive` and `coupling`.

    ```mlir
    // before
    %e = tensor.empty() : tensor<4x8xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>)
                       outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    // after
    %m = fuel.node 0 matmul (%a, %b)
        : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%x: tensor<4x16xf32>, %y: tensor<16x8xf32>):
      %e = tensor.empty() : tensor<4x8xf32>
      %r = linalg.matmul ins(%x, %y : ...) outs(%e : ...) -> tensor<4x8xf32>
      fuel.yield %r : tensor<4x8xf32>
    }
    ```

    Existing nodes are kept with their ids; new nodes take ids after the
    largest, so running the pass twice changes nothing. Init-chain ops and
    constants left without users are erased.

    Errors (at the offending op): a function with several blocks, an op
    with nested regions that is not kernel-bearing, a dynamically shaped
    tensor, a linalg op on memrefs, `fuel.kernel` on an op that does not
    become a node. Known limits: `linalg.fill` whose result
    feeds anything but an init becomes an elementwise node of its own.
  }];
  let dependentDialects = ["mlir::fuel::FuelDialect"];
  let statistics = [
    Statistic<"numNodes", "nodes", "Number of nodes formed">,
    Statistic<"numHostOps", "host-ops", "Number of ops left to run on the host">
  ];
}

//===----------------------------------------------------------------------===//
// Stage 4: phase A
//===----------------------------------------------------------------------===//

def FuelEnumerateCandidatesPass
    : Pass<"fuel-enumerate-candidates", "mlir::func::FuncOp"> {
  let summary = "Gives every node its decision context and every admitted candidate";
  let description = [{
    Objective: SEMANTICS §3 steps 1-4 for each node. The decision device is
    the node's pin, else the configuration's `pinned_device`; with neither
    the node has no device context, an error. Admission follows the table of
    SEMANTICS §3 step 2 (pinned or destructive: the decision device only;
    free with pricing and cost placement: every device of the topology;
    otherwise the decision device with every other device as a fallback).
    Every registry variant for (op kind, dtypes, backend) on every admitted
    device becomes a candidate — only variants of the admitted kernel
    sources (the `kernel-sources` option, else the configuration's
    `kernel_sources`, else every source), and for a node with a `kernel`
    clause only that kernel, on the admitted devices that have it — tagged
    `fallback` on fallback devices, with
    the node's op params and the coupling adjustments of its `coupling`
    clause whose `on` device matches. Costs and times are left at zero for
    `fuel-annotate-costs`. The registry is the context's: the one built into
    fuel unless an embedder set another with `mlir::fuel::setKernelRegistry`
    (docs/KERNELS.md).

    The alternative set is rebuilt from scratch, so earlier candidates are
    replaced; candidates are listed by admitted device, then kernel id.

    Errors (at the node): no device context; a pin naming a device the
    topology lacks; `NoBackendForOp` when no admitted device has a variant,
    listing the op, its dtypes, the devices present and every registered
    (backend, op, dtypes) combination; a `kernel` that is not registered
    for the node's op kind, dtypes and an admitted device, or whose source
    the kernel sources exclude (naming the node, the kernel and the kernels
    registered there); kernel sources that leave a node no variant (naming
    the sources and those registered there); a missing `fuel.topology` or
    `fuel.config` on the module. An unknown source in `kernel-sources` fails
    at the pass.
  }];
  let options = [
    Option<"kernelSources", "kernel-sources", "std::string", "\"\"",
           "Kernel sources to admit, a comma list of generated, openblas, "
           "blis, cublas (empty: the configuration's, else every source)">
  ];
  let statistics = [
    Statistic<"numCandidates", "candidates", "Number of candidates enumerated">
  ];
}

def FuelFilterCandidatesPass
    : Pass<"fuel-filter-candidates", "mlir::func::FuncOp"> {
  let summary = "Runs the per-device filter chain over each node's candidates";
  let description = [{
    Objective: SEMANTICS §3 step 5. On each admitted device, in order: the
    hard `precision-floor` (the configuration's requirement; a device left
    without candidates leaves the node's admitted set), the soft
    `strided-input-preference` (active when an operand is produced by a
    view that is not a contiguous reshape, e.g. a strided or partial
    `tensor.extract_slice`: prefer the `strided_input` cap) and, with
    `prefer-bit-stable`, the soft `bit-stable-preference`. A soft filter that
    would leave a device without candidates is skipped.

    Fallback devices are consulted only when the decision device has no
    survivor; their survivors stay tagged `fallback`, and
    `fuel-retain-frontier` freezes them to their single winner once times
    are known.

    Errors (at the node): `FilterRejected` naming the filter, the decision
    context and the number of candidates rejected, when the hard filter
    empties every admitted device; when enumeration had narrowed the
    candidates (the node's `kernel`, or the configuration's
    `kernel_sources`), the message says so.
  }];
  let options = [
    Option<"preferBitStable", "prefer-bit-stable", "bool", "false",
           "Prefer bit-stable candidates on each device (soft)">
  ];
  let statistics = [
    Statistic<"numFiltered", "filtered", "Number of candidates filtered out">
  ];
}

def FuelAnnotateCostsPass
    : Pass<"fuel-annotate-costs", "mlir::func::FuncOp"> {
  let summary = "Prices every candidate with the Layer-1 cost model";
  let description = [{
    Objective: SEMANTICS §3 step 6. Each candidate gets its static cost
    (flops and bytes from its registry record's cost function over the
    node's shape figures and op params; the variant's own overhead), its
    kernel time `max(ceil(flops / rate), ceil(bytes / bw)) + dispatch +
    variant overhead` from the stamped topology (rates scaled by the
    record's efficiencies), its time source `static`, and its footprint
    (operand + result bytes + workspace, in the tier of its device). The
    records are those of the context's registry, as for
    `fuel-enumerate-candidates`.

    Where the topology lacks a rate the priors of SEMANTICS §3 step 6 apply,
    with one warning per (device, dtype) per function, at the first node
    priced with it. Transfers play no part here.

    With `profile=FILE` (SEMANTICS §3 step 7, docs/PROFILE-DB.md) each
    candidate's measurement key is built — kernel id and revision, op kind,
    operand then result dtypes and exact shapes, op params, size class,
    device kind and ordinal, the device's name and driver from the
    topology, `profile-threads` as the pool size and the shims' library
    thread setting (1) — and looked up. A hit replaces `time_ns` by the
    rounded median, marks it `measured` and records `noise_ns` (the
    measurement's median absolute deviation, rounded up) and
    `static_time_ns` (the Layer-1 time); flops, bytes and footprint stay.
    A miss keeps Layer 1. With `explain`, a remark per node lists which
    candidates were measured and names the database. When a missed key is
    held under other pool sizes only (the profile was measured with another
    `fuel-judge --cpu-threads` than `profile-threads`), one warning per
    function counts those nodes and names the pool sizes and the
    `profile-threads` to plan with.

    With `defer-warnings` (as in `fuel-plan`) the pass warns of neither:
    it records them on the function as the discardable attribute
    `fuel.cost_warnings` (replacing an earlier run's; none when there is
    nothing to warn of), and `fuel-warn-costs` warns of them once per
    module:

    ```mlir
    func.func @f(...) attributes {fuel.cost_warnings = {
      priors = [
        {at = loc("m.mlir":7:8),
         warning = "device 'cpu' has no peak f32 rate; ..."}
      ],
      profile_misses = [
        {at = loc("m.mlir":9:8), nodes = 2 : i64,
         nodes_per_pool_size = array<i64: 2, 1>,
         pool_sizes = array<i64: 2, 4>, profile = "p.db",
         profile_threads = 1 : i64}
      ]}}
    ```

    Errors: a candidate whose record vanished from the registry (naming its
    kernel id); a database that cannot be opened, is not a database, has a
    newer schema or holds an invalid row (naming the file). Known limits:
    the database is opened read-write (WAL needs it) but never written; the
    pool size is an option, not read from the topology.
  }];
  let options = [
    Option<"profile", "profile", "std::string", "\"\"",
           "Profile database file (docs/PROFILE-DB.md); empty: none">,
    Option<"profileThreads", "profile-threads", "int64_t", "1",
           "The runtime thread-pool size the measurements were taken with "
           "(fuel-judge --cpu-threads) and the plan is priced for "
           "(fuel-run --threads)">,
    Option<"explain", "explain", "bool", "false",
           "Emit a remark per node saying which candidates were measured">,
    Option<"deferWarnings", "defer-warnings", "bool", "false",
           "Record the warnings on the function as 'fuel.cost_warnings' for "
           "fuel-warn-costs instead of emitting them">
  ];
  let statistics = [
    Statistic<"numPriced", "priced", "Number of candidates priced">,
    Statistic<"numPriors", "priors", "Number of prices that used a prior">,
    Statistic<"numMeasured", "measured",
              "Number of candidates whose time was measured">
  ];
}

def FuelWarnCostsPass : Pass<"fuel-warn-costs", "mlir::ModuleOp"> {
  let summary = "Warns once per module of what fuel-annotate-costs deferred";
  let description = [{
    Objective: the module-wide warnings of SEMANTICS §3 steps 6 and 7, the
    same at any thread count. `fuel-annotate-costs{defer-warnings=true}`
    runs per function, possibly on several threads, and records what it
    would warn of on the function as `fuel.cost_warnings` (its description
    shows the attribute). This pass reads the attribute of every function
    of the module in function order, merges them and removes them, then
    warns:

    - each prior (a (device, dtype) priced with a prior rate) once, at the
      location of its first entry in function then node order;
    - per profile and `profile-threads`, the nodes whose measurements the
      profile holds only under other pool sizes, once: at the first such
      node, counting the nodes of every function and naming the pool sizes
      and the `profile-threads` most of them were measured under (ties:
      the smallest).

    `fuel-plan` and `fuel-plan-candidates` run it after the function stages.
    A module without the attribute is left as it is, without a warning.

    Errors (at the function): a `fuel.cost_warnings` that is not a
    dictionary of `priors` (a list of `{at = loc(...), warning = "..."}`)
    and `profile_misses` (a list of `{at, nodes, nodes_per_pool_size,
    pool_sizes, profile, profile_threads}` with `nodes` and
    `profile_threads` at least 1, pool sizes ascending, other than
    `profile_threads`, each with between 1 and `nodes` nodes); nothing is
    warned of then. Known limits: only the functions directly in the module
    are read (those `fuel-plan` plans).
  }];
  let statistics = [
    Statistic<"numWarnings", "warnings", "Number of warnings emitted">
  ];
}

def FuelRankCandidatesPass
    : Pass<"fuel-rank-candidates", "mlir::func::FuncOp"> {
  let summary = "Orders every alternative set by the winner order";
  let description = [{
    Objective: SEMANTICS §3 step 8 and §6. Candidates are sorted by the total
    winner order — lower time; higher precision digits; higher accuracy
    class; lower total bytes; higher registry priority; the decision device
    before others; device order; kernel id bytewise — so index 0 is the
    winner. With measured times (§6 "Measured ties"), a device's measured
    candidates within max(2%, both noises) of its fastest measured one form
    a block at that one's place, ordered by their Layer-1 times. The order
    is total, so the result never depends on the input order.
  }];
}

def FuelRetainFrontierPass
    : Pass<"fuel-retain-frontier", "mlir::func::FuncOp"> {
  let summary = "Keeps each device's Pareto frontier, capped by crowding";
  let description = [{
    Objective: SEMANTICS §7. Per device, keep the candidates no other
    candidate of that device dominates on the five axes (time, host bytes,
    device bytes, precision digits, accuracy class); re-admit the best of any
    (device, kernel source) left without a survivor; then, while a device
    holds more than `keep-per-device`, drop the unprotected member with the
    smallest NSGA-II crowding distance (ties: the highest rank index). The
    global winner, each device's best and the last member of each (device,
    kernel source) are protected; a device still over the cap is reported
    in a remark and the `over-cap` statistic. A set of fallback candidates
    is frozen to its single winner (SEMANTICS §3 step 2).

    With `explain`, each node gets a remark naming the winner on each
    admitted device, the runner-up on the decision device and the figure
    of the winner order that separated them.
  }];
  let options = [
    Option<"keepPerDevice", "keep-per-device", "unsigned", "32",
           "Candidates kept per device (0 means 1)">,
    Option<"explain", "explain", "bool", "false",
           "Emit a remark per node explaining its ranking">
  ];
  let statistics = [
    Statistic<"numDropped", "dropped", "Number of candidates dropped">,
    Statistic<"numOverCap", "over-cap",
              "Candidates kept over the cap because they are protected">
  ];
}

//===----------------------------------------------------------------------===//
// Stage 5: phase B
//===----------------------------------------------------------------------===//

def FuelPlacePass : Pass<"fuel-place", "mlir::func::FuncOp"> {
  let summary = "Places every node on a device, pricing the transfers";
  let description = [{
    Objective: SEMANTICS §5. Minimise, over the placements of a function's
    nodes, `Σ_nodes [time of the node's best candidate on its device +
    satisfied coupling deltas] + Σ_values cost(copy set)`, where a value is
    copied once per (value, target device), directly where the topology has
    a link and otherwise in two hops through the host with the host hop
    shared. Values live where they are made: node results on their node's
    device, function arguments on their `fuel.residency` (default: the
    configuration's pinned device, or `cpu`), host-op results on `cpu`;
    returned values must reach their result's residency. A tensor constant
    no node cloned is load-time data, on every device that reads it, and is
    charged no copy. Views and existing `fuel.copy` ops are transparent. A node's admitted devices are
    those its alternative set holds, so pinned, destructive and frozen
    fallback nodes are fixed.

    Solvers (`placement-algorithm`): `greedy` (program order, each node
    takes its cheapest device given the copies it newly causes), `exact-tree`
    (DP, exact on in-forests; elsewhere it prices each edge separately and
    says so in a remark), `mincut` (exact for two devices on any DAG),
    `brute-force` (at most 14 free nodes) and `auto` (the default: exact
    where the graph allows, otherwise the best of greedy, the tree DP and
    every single-device plan improved by moves that lower the exact
    objective). Ties prefer the node's decision device, then device order.
    `exact-tree` and `mincut` refuse a function with coupling terms.

    Afterwards each node is `on` its device, keeps only that device's
    candidates (best first) with `transfer_ns` set to the cost of the hops
    that bring its operands there, and records `next_best <device> (<delta>
    ns)`: its best other device and the objective change of moving it alone
    there. The function records `fuel.predicted_ns = #fuel.predicted<...>`
    with the total and its parts. With `explain`, a remark per node says why
    its device won.

    Errors: a residency naming a device the topology lacks; brute force over
    its limit; an exact solver asked to handle coupling terms.
  }];
  let options = [
    Option<"placementAlgorithm", "placement-algorithm",
           "::fuel::plan::PlacementAlgorithm",
           "::fuel::plan::PlacementAlgorithm::Auto",
           "Solver: auto, greedy, exact-tree, mincut or brute-force",
           [{::mlir::fuel::placementAlgorithmValues()}]>,
    Option<"explain", "explain", "bool", "false",
           "Emit a remark per node explaining its placement">
  ];
  let statistics = [
    Statistic<"numMoved", "off-decision-device",
              "Nodes placed off their decision device">
  ];
}

def FuelInsertResidencyCopiesPass
    : Pass<"fuel-insert-residency-copies", "mlir::func::FuncOp"> {
  let summary = "Inserts the copies a placement needs";
  let description = [{
    Objective: SEMANTICS §5 and §8. For every tensor value — a node result,
    an argument or a host-op result; a load-time constant gets none, it is
    on every device that reads it — emit exactly its copy set
    as `fuel.copy` ops: one per (value, target device), shared by every
    reader there; where the topology has no direct link, two hops through
    the host, the hop to the host made once and shared by every staged
    target and by host readers. Returned values are brought to their
    result's `fuel.residency`. A copy moves a view's root value and the view
    is re-made on the target, so readers keep their view.

    Copies are placed right after the value's definition (arguments: at the
    start of the function), the host hop first, then targets in device
    order; re-made views follow their copy. Each copy carries its hop's
    price by the transfer model (`predicted_ns`: latency plus bytes over the
    link's bandwidth), which the host program's `fuel.transfer` and the
    executable's report keep. Copies already in the IR are
    removed first and rebuilt, so running the pass (or `fuel-plan`) on its
    own output gives the same IR.

    Invariant: the copies cost, by the transfer model, exactly what the
    placement objective charged. When the function carries
    `fuel.predicted_ns`, the pass checks that equality and reports a
    mismatch as an error. The statistics `copies` and `bytes` count what was
    inserted.

    Errors: a node without a placement (run fuel-place first); a residency
    naming a device the topology lacks.
  }];
  let statistics = [
    Statistic<"numCopies", "copies", "Number of fuel.copy ops inserted">,
    Statistic<"numBytes", "bytes", "Bytes moved by the inserted copies">
  ];
}

//===----------------------------------------------------------------------===//
// Plan export, import and drawing
//===----------------------------------------------------------------------===//

def FuelExportPlanPass : Pass<"fuel-export-plan", "mlir::ModuleOp"> {
  let summary = "Writes the module's plan as a versioned JSON file";
  let description = [{
    Objective: let tools and people read a plan without parsing MLIR. The
    pass writes, for every function with a body, its predicted time and
    parts (`fuel.predicted_ns`), each node's placement, winning kernel, the
    runner-up on its device, its best other device with the objective
    change of moving it there and its inbound transfer cost, and each
    `fuel.copy` with the value it moves, its devices, its bytes and its hop
    cost by the transfer model, and each load-time constant with the devices
    that read it, the module's planning configuration (its kernel sources
    included), each node's forced `kernel` and each candidate's revision.
    The format is docs/PLAN-FORMAT.md (version 3); keys are
    written in a fixed order and the output depends only on the IR, so equal
    plans give equal files.

    ```json
    {
      "version": 3,
      "topology_hash": "0x...",
      "config": {"price_transfers": true, ..., "kernel_sources": null},
      "functions": [
        {
          "name": "mlp",
          "predicted_ns": {"total": ..., "nodes": ..., "copies": ...,
                           "coupling": ...},
          "nodes": [
            {"id": 0, "kind": "matmul", "placement": "cuda:0", ...}
          ],
          "copies": [
            {"value": {"arg": 0}, "from": "cpu", "to": "cuda:0", ...}
          ]
        }
      ]
    }
    ```

    Each node also records the coupling deltas its winner gets, and each
    copy whether it is a leg of a copy staged through the host; both hops of
    a staged copy name the root value. After copy insertion the predicted
    parts are the sums of the listed terms (SEMANTICS §8). A value made by a
    host op or a constant is named by the op's position among the
    function's top-level ops, so such names hold for the IR as exported.
    Constants are never copied (SEMANTICS §5): each function lists them
    apart, with their bytes and the devices their readers are placed on.

    The pass reads the IR and changes nothing. A module planned only up to
    phase A exports too, with null placements and predictions. `file=-`
    (the default) writes to standard output.

    Errors (at the module): no `fuel.topology` (copies are priced by its
    transfer model); a file that cannot be written.
  }];
  let options = [
    Option<"file", "file", "std::string", "\"-\"",
           "Output file ('-' for standard output)">
  ];
}

def FuelImportPlanPass : Pass<"fuel-import-plan", "mlir::ModuleOp"> {
  let summary = "Pins nodes to the placements of an exported plan";
  let description = [{
    Objective: replay a plan. The pass reads a file written by
    `fuel-export-plan` (docs/PLAN-FORMAT.md, versions 1 to 3) and gives
    every node it lists with a placement a `pin` clause naming that device,
    so phase A admits only that device and `fuel-place` keeps it there, and
    every node it lists with a `kernel` (version 3) a `kernel` clause, so
    phase A admits only that kernel. Run it after
    `fuel-form-nodes` and before phase A; planning the module again then
    gives the exported placements. Nodes are matched by (function name, node
    id), and the node's op kind must equal the exported one. Nodes the file
    does not list, and listed nodes with a null placement, are left as they
    are; the rest of the file (winners, copies, predictions) is not read,
    except `config.kernel_sources`: kernel sources other than the module's
    configuration are a warning.

    ```mlir
    // before, with the function entry
    //   {"name": "f", "nodes": [ {"id": 0, "kind": "matmul",
    //                             "placement": "cuda:0", ...} ], ...}
    %y = fuel.node 0 matmul (%a, %b) : ... { ... }
    // after
    %y = fuel.node 0 matmul (%a, %b) : ... pin cuda:0 { ... }
    ```

    Errors (every mismatch is reported before the pass fails): an unreadable
    file; malformed JSON (with its line and column); a missing or wrong
    `version`; a field of the wrong type, a device that does not parse, a
    kernel id of the wrong shape or an unknown kernel source (with its JSON
    path); a function the module lacks (at the module); a
    node id the function lacks (at the function); an op kind that differs
    (at the node). A `topology_hash` that differs from the module's
    `fuel.topology` is a warning: the plan was made for another machine.
  }];
  let options = [
    Option<"file", "file", "std::string", "\"\"",
           "Plan file written by fuel-export-plan ('-' for standard input)">
  ];
  let statistics = [
    Statistic<"numPinned", "pinned", "Number of nodes pinned from the plan">
  ];
}

def FuelExportDotPass : Pass<"fuel-export-dot", "mlir::ModuleOp"> {
  let summary = "Draws the module's plan as a Graphviz graph";
  let description = [{
    Objective: a picture of a plan. The pass writes one Graphviz `digraph`
    with a cluster per function that has a body: arguments, nodes, host ops,
    copies, load-time constants and returned results are vertices, and
    edges follow data flow (views are transparent: an edge runs from the
    view's root to its reader). A tensor constant is a white cylinder
    labelled with the devices that read it (SEMANTICS §5). A node is a box filled with the colour of
    its device and labelled with its id, op kind, device, winning kernel's
    source and predicted time; a copy is an ellipse labelled with its
    devices, bytes and hop cost; arguments and results show their
    residency. Colours come from a fixed palette in the topology's device
    order, and a legend per function gives each device's colour and the
    function's predicted time and parts.

    ```sh
    fuel-opt planned.mlir --fuel-export-dot=file=plan.dot -o /dev/null
    dot -Tsvg plan.dot -o plan.svg
    ```

    The output depends only on the IR. The pass changes nothing. `file=-`
    (the default) writes to standard output.

    Errors (at the module, before any file is written): no `fuel.topology`;
    no `fuel.config` (its pinned device places arguments and results without
    a residency); a file that cannot be written. Known limits: more devices than the palette's eight reuse its
    colours.
  }];
  let options = [
    Option<"file", "file", "std::string", "\"-\"",
           "Output file ('-' for standard output)">
  ];
}

//===----------------------------------------------------------------------===//
// Lowering: outlining
//===----------------------------------------------------------------------===//

def FuelOutlineKernelsPass : Pass<"fuel-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Turns every placed node into a dispatch of an outlined kernel";
  let description = [{
    Objective: the first lowering stage (planned → outlined,
    docs/LOWERING.md "Outlining"). Every function is read through its value
    flow (collectFlow). Each placed node becomes a `fuel.dispatch` of a
    kernel held in the `fuel.executable` of its device (one per device used,
    named by the device: `@cpu`, `@cuda_0`, ...; placed in device order at
    the start of the module):

    - a generated winner becomes a kernel function of the executable's
      `builtin.module`: memref arguments (the dispatch's operands, then its
      results, identity layout), the node's body on tensors between
      `bufferization.to_tensor ... restrict` (`writable` for outputs) and a
      `bufferization.materialize_in_destination` of each result into its
      output, with `fuel.kernel_id`, `fuel.op_kind`, `fuel.revision` (the
      winner's) and `fuel.schedule` (the registry record's `lowering`).
      Each output is computed in place: the destination chain (through
      fills and insert_slices used once) ending in a `tensor.empty` ends in
      the output instead, a splat constant becomes a fill of the output,
      any other destination is copied into the output first (`linalg.copy`);
    - a library winner (`openblas`, `blis`, `cublas`) becomes a
      `fuel.library_kernel` naming the shim, its entry (the record's
      `lowering`), the shim's integer params computed from the node's
      contraction (M, N, K, leading dimensions, transposes; row blocks of
      max(16, ceil(M/8) rounded up to 8) rows for `sgemm`, one batch entry
      per workgroup for `sgemm_batched`), grid, workspace and revision.

    Host ops are compiled as CPU kernels of `@cpu` (`fuel.op_kind = "host"`,
    kernel id `cpu.generated.host_<op>`, schedule
    `kernels/schedules/cpu/host.mlir`, revision xxh3_64 of
    `<kernel id>\0<schedule>`, dispatched without a node id):
    `tensor.pad`, `tensor.concat`, `tensor.insert_slice`, `tensor.generate`,
    `tensor.from_elements`, a top-level `linalg.fill`, and a strided
    `tensor.extract_slice` read by a kernel without the `strided_input` cap
    (or returned or copied). Host ops are rewritten in destination style on
    the output (pad as fill + insert_slice, concat as insert_slices,
    generate as a linalg.generic, from_elements as tensor.inserts), so
    they write it in place. A strided slice read by a generated kernel
    with the cap is folded into it: the kernel binds the slice's source and
    slices inside. Views, `fuel.copy` ops and tensor `arith.constant`s stay
    in the function; scalar constants (and pure scalar ops of constants)
    and top-level `tensor.empty`s a kernel reads are cloned into it.

    Kernels are shared: two nodes whose kernel functions print the same
    (same payload, types, winner and schedule; ids and locations do not
    take part) dispatch one kernel, and library kernels with equal
    attributes are one op. Kernel names are `<op kind>_<n>`,
    `<source>_<op kind>_<n>` and `host_<op>_<n>`, numbered per executable
    in first-use order, so the output is deterministic.

    ```mlir
    // before
    %y = fuel.node 0 matmul (%x, %w) : (...) -> tensor<64x1024xf32> on cpu
        alternatives #alts { ... }
    // after
    fuel.executable @cpu on cpu {
      builtin.module {
        func.func @matmul_0(%a: memref<64x784xf32>, %b: memref<784x1024xf32>,
                            %c: memref<64x1024xf32>) attributes {...} {...}
      }
    }
    %y = fuel.dispatch @cpu::@matmul_0 (%x, %w)
        {node = 0 : i64, predicted_ns = 1000 : i64} : (...) -> tensor<64x1024xf32>
    ```

    Errors (each at the offending op): a node that is not placed, has no
    alternatives or no candidate on its device; a winner whose kernel id is
    not in the kernel registry of the context, or whose record has no
    `lowering`; a library winner whose node is not a plain f32 contraction
    the shim expresses (row-major operands, beta 0); a destination a
    payload reads while it is a `tensor.empty`; a non-constant scalar a
    kernel would read (no scalar bindings yet); `func.call` and any op that
    is not a node, view, copy, constant, return or host op listed above
    ("cannot be lowered"). Known limits: dynamic shapes are not outlined
    (planning refuses them first); scalar function arguments cannot reach
    kernels.
  }];
  let dependentDialects = [
    "mlir::fuel::FuelDialect",
    "mlir::arith::ArithDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::func::FuncDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::memref::MemRefDialect",
    "mlir::tensor::TensorDialect"
  ];
  let statistics = [
    Statistic<"numDispatches", "dispatches", "Number of dispatches created">,
    Statistic<"numKernels", "kernels", "Number of distinct kernels created">
  ];
}

//===----------------------------------------------------------------------===//
// Lowering: kernel code generation (docs/CPU-CODEGEN.md, docs/LOWERING.md)
//===----------------------------------------------------------------------===//

def FuelApplySchedulesPass
    : Pass<"fuel-apply-schedules", "mlir::ModuleOp"> {
  let summary = "Runs each generated kernel's transform schedule (cpu, "
                "vulkan and cuda)";
  let description = [{
    Objective: turn each generated kernel of each cpu `fuel.executable`
    from the node's linalg body into tiled, vectorised code on tensors,
    following the winner's schedule. For every kernel function with a
    `fuel.schedule` (a path such as `kernels/schedules/cpu/matmul.mlir`;
    the schedule files are compiled into fuel, so the bytes applied are the
    bytes of the source tree, from any working directory), the pass parses
    the file (once per run, however many kernels name it), picks the named sequence of the target's ISA class (`@avx512`
    with avx512f, `@avx2` with avx2 and fma, `@generic` otherwise), binds
    the kernel function as its first argument and the shape parameters its
    other arguments ask for (`fuel.param`, docs/CPU-CODEGEN.md "Schedule
    files"), applies it with the transform interpreter, then canonicalizes
    and CSEs the kernel. It records the grid, from the outermost
    `scf.forall` (the workgroup split; none gives [1, 1, 1]), as
    `fuel.workgroups = array<i64: X, Y, Z>` and the workspace as
    `fuel.workspace_bytes` (0: scratch lives on the stack).

    Packed B (docs/CPU-CODEGEN.md, "Packed B panels"): when the sequence
    carries `fuel.pack_b = P` and the root is a `linalg.matmul` or
    `linalg.batch_matmul` with default maps, static shapes, N a multiple
    of P, a K x P panel of at most 128 KiB and C computed in place, the
    pass rewrites the root, after
    computing the parameters, into B panels [.., N/P, K, P] (a
    `linalg.transpose` of a view of B) and a contraction `linalg.generic`
    writing C through a view; the `packed()` parameter tells the sequence.
    With `fuel.pack_b_if_constant` on the sequence only a constant B (below)
    is packed.
    When every dispatch of such a kernel binds a dense f32 `arith.constant`
    as B, each constant is replaced by its panel layout (packed here, once)
    and the kernel's B binding by one of that type, so the kernel copies
    nothing; the dispatches keep their node and prediction.

    Vulkan row kernels (VulkanRowKernels.h; docs/LOWERING.md "Vulkan: fast
    schedules"): a vulkan kernel whose body is one f32 row reduction
    (`linalg.reduce` or a reducing `linalg.generic` over the innermost
    dimensions of binding 0 by addf, maximumf or minimumf from a fill of its
    identity) or one `linalg.softmax` over the innermost dimension takes,
    instead of its `@vulkan` sequence, the subgroup row schedule when the
    option `vulkan-row-schedule` says so: `auto` (the default) by
    `fuel::target::chooseRowSchedule`, the rule measured on lavapipe;
    `subgroup` whenever its rows fit one workgroup each in the grid (at most
    65535); `per-element` never. Such a kernel keeps its tensor body and records
    `fuel.row_kernel` (sum, max, min, softmax), `fuel.row_tiling = array<i64:
    rows, cols, S, G>` (`fuel::target::chooseReductionTiling` on the
    device's limits), `fuel.workgroup_size = [S * G, 1, 1]` and
    `fuel.workgroups = [rows, 1, 1]`; convert-fuel-to-spirv builds its
    kernel. A device whose topology states no limits keeps the per-element
    schedule. Errors, at the kernel: limits that lack `subgroup_size`,
    `max_workgroup_invocations` or `shared_memory_bytes`, or are too small
    (a subgroup wider than the workgroup limit, a subgroup size that is not
    a power of two), naming the field; at the module: an unknown
    `vulkan-row-schedule`.

    The target is the module's topology's cpu target, else the compiling
    host; `target-cpu`/`target-features`/`target-triple` override it (cross
    compilation, tests). The target used is stamped on each kernel module as
    `fuel.cpu_target = {cpu, features, triple}`, which the later stages
    read.

    Vulkan kernels take their schedule's `@vulkan` sequence, with the
    workgroup size from the device's limits (docs/LOWERING.md, "Vulkan"),
    except matmul and batch_matmul kernels that take the shared-memory
    schedule (GpuMatmul.cpp, `vulkan-matmul=auto`; the option's
    `tiled` also takes it for matmuls smaller than one tile, and the same
    choice applies to plain conv2d kernels): a plain matmul or
    batch_matmul (default maps, f32, static shapes, C filled with a
    constant, no fused op) on a device whose topology gives the limits
    `fuel::target::chooseMatmulTiling` needs, whose M and N (under `auto`)
    fill at least one TM x TN tile: smaller ones run faster per element
    (docs/PERFORMANCE.md). Such a kernel keeps its
    linalg body and gets `fuel.vulkan_matmul` (bindings, shape, tiles TM
    x TN x TK, RM x RN elements per invocation, `vulkan-matmul-block`),
    `fuel.workgroup_size` = [TN / RN, TM / RM, 1] and `fuel.workgroups` =
    [ceil(N / TN), ceil(M / TM), batch]; convert-fuel-to-spirv builds its
    kernel. Any other matmul kernel takes the per-element schedule and
    records why as `fuel.vulkan_schedule_note` (a limit missing or too
    small is named there).

    Errors, at the kernel function and naming it: a schedule that is not
    built in (or not readable under `schedules-dir`), that does not parse,
    that lacks the ISA class's sequence or whose arguments are not the
    kernel handle and `fuel.param` parameters; a parameter the root op
    cannot give (among them `parallel(t)` on a root op without a parallel
    loop: a GPU kernel reducing to a rank-0 result has no per-element
    schedule and must run on the CPU); a failed transform; several outermost `scf.forall` loops or
    one that is not normalized, static and at most 3-D. An unknown target
    CPU or feature is an error at the kernel module.

    CUDA kernels (docs/LOWERING.md, "CUDA"): the same choices, sized from
    the device's limits completed from CUDA's table for its compute
    capability (`mlir::fuel::getCudaLimits`: warp 32, 48 KiB of static
    shared memory, 1024 threads per block where the topology states
    none). A row reduction or softmax takes the warp row schedule by
    `cuda-row-schedule` (`auto` by `chooseRowSchedule`, `warp`, or
    `per-element`): `fuel.row_kernel` and `fuel.row_tiling` as on Vulkan,
    built by convert-fuel-to-nvvm with `gpu.shuffle` (PTX `shfl.sync`). A
    plain matmul, batch_matmul or conv2d takes the shared-memory schedule
    by `cuda-matmul` (`auto`, `tiled`, `per-element`; tiles of
    `cuda-matmul-block`): `fuel.cuda_matmul` or `fuel.cuda_conv2d`, the
    records of the Vulkan ones, with CUDA's grid (2^31 - 1 x 65535 x
    65535). A matched kernel that keeps the per-element schedule records
    why as `fuel.cuda_schedule_note` ("per-element: ..."). Every other
    cuda kernel takes its `@cuda` or `@gpu` sequence.

    An unknown `vulkan-matmul`, `cuda-matmul`, `vulkan-row-schedule` or
    `cuda-row-schedule` value is refused when the options are parsed.

    Known limits: one kernel at a time (payload root = the function), so
    schedules never see two kernels; the workspace is always 0; a matmul
    whose N is no multiple of the panel width, or whose panel would exceed
    the stack scratch (K > 1024 with 32-wide panels; K is not blocked), is
    not packed (its remainders are peeled unpacked tiles); only `DenseElementsAttr`
    constants are packed at compile time, and only when no dispatch of the
    kernel binds anything else as B.
  }];
  let options = [
    Option<"schedulesDir", "schedules-dir", "std::string", "\"\"",
           "Read schedules from this source-tree root instead of the built-in "
           "copies (for editing schedules without rebuilding)">,
    Option<"targetCpu", "target-cpu", "std::string", "\"\"",
           "LLVM CPU name to compile for instead of the topology's or the "
           "host's (e.g. skylake-avx512)">,
    Option<"targetFeatures", "target-features", "std::string", "\"\"",
           "LLVM features with target-cpu (e.g. +avx2,+fma)">,
    Option<"targetTriple", "target-triple", "std::string", "\"\"",
           "Target triple with target-cpu (default: the host's)">,
    Option<"vulkanMatmul", "vulkan-matmul", "::mlir::fuel::GpuMatmulSchedule",
           "::mlir::fuel::GpuMatmulSchedule::Automatic",
           "Vulkan matmul and batch_matmul kernels: 'auto' (the "
           "shared-memory schedule where the kernel and the device's limits "
           "allow it) or 'per-element' (always the per-element schedule)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Automatic, "auto",
                        "the shared-memory schedule where the kernel and the "
                        "limits allow it and the matmul fills one tile"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Tiled, "tiled",
                        "the shared-memory schedule wherever it applies"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
    Option<"vulkanMatmulBlock", "vulkan-matmul-block", "unsigned", "0",
           "Elements of C per invocation, along M and along N, of the "
           "shared-memory matmul (0: the default, 4)">,
    Option<"cudaMatmul", "cuda-matmul", "::mlir::fuel::GpuMatmulSchedule",
           "::mlir::fuel::GpuMatmulSchedule::Automatic",
           "CUDA matmul, batch_matmul and conv2d kernels: 'auto' (the "
           "shared-memory schedule where the kernel and the device's limits "
           "allow it and the matmul fills one tile), 'tiled' (also for "
           "smaller ones) or 'per-element'",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Automatic, "auto",
                        "the shared-memory schedule where the kernel and the "
                        "limits allow it and the matmul fills one tile"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::Tiled, "tiled",
                        "the shared-memory schedule wherever it applies"),
             clEnumValN(::mlir::fuel::GpuMatmulSchedule::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
    Option<"cudaMatmulBlock", "cuda-matmul-block", "unsigned", "0",
           "Elements of C per thread, along M and along N, of the CUDA "
           "shared-memory matmul (0: the default, 4)">,
    Option<"cudaRowSchedule", "cuda-row-schedule",
           "::mlir::fuel::RowScheduleMode",
           "::mlir::fuel::RowScheduleMode::Auto",
           "Row reductions and softmax on CUDA: 'auto' (by the measured "
           "rule, fuel::target::chooseRowSchedule), 'warp' (warp shuffles "
           "whenever the kernel matches) or 'per-element'",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::RowScheduleMode::Auto, "auto",
                        "by the measured rule"),
             clEnumValN(::mlir::fuel::RowScheduleMode::Subgroup, "warp",
                        "warp shuffles whenever the kernel matches"),
             clEnumValN(::mlir::fuel::RowScheduleMode::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
    Option<"vulkanRowSchedule", "vulkan-row-schedule",
           "::mlir::fuel::RowScheduleMode",
           "::mlir::fuel::RowScheduleMode::Auto",
           "Row reductions and softmax on Vulkan: 'auto' (by the measured "
           "rule), 'subgroup' or 'per-element'",
           [{::llvm::cl::values(
             clEnumValN(::mlir::fuel::RowScheduleMode::Auto, "auto",
                        "by the measured rule"),
             clEnumValN(::mlir::fuel::RowScheduleMode::Subgroup, "subgroup",
                        "subgroup operations whenever the kernel matches"),
             clEnumValN(::mlir::fuel::RowScheduleMode::PerElement,
                        "per-element", "always the per-element schedule"))}]>,
  ];
}

def FuelBufferizeKernelsPass
    : Pass<"fuel-bufferize-kernels", "mlir::ModuleOp"> {
  let summary = "Bufferizes each cpu kernel module, scratch on the stack";
  let description = [{
    Objective: turn the scheduled kernels of each cpu executable from
    tensors into memrefs that write their outputs in place and never call
    malloc. On each kernel module it runs: polynomial approximation of
    `math` functions (exp, tanh, erf, rsqrt, ...: no libm calls; f32 exp by
    fuel's own lowering, FastExp.h: at most 2 ulp where the result is a
    normal float, subnormal results flushed to +0, its multiply-adds fused
    where the target has FMA), one-element `arith.maximumf`/`minimumf`
    (element-by-element code) as compares and selects instead of LLVM's
    branching expansion (MinMax.h), in softmax kernels the divide by the row
    sum as a multiply by its reciprocal, empty
    tensor elimination (outputs computed into the output bindings), one-shot
    bufferization, canonicalize and CSE, then per function buffer hoisting,
    buffer loop hoisting and promotion of buffers of at most
    `max-stack-bytes` to the stack (`memref.alloca`), then the buffer
    deallocation pipeline.

    Errors, at the kernel and naming it: a heap `memref.alloc` left (a
    scratch buffer above `max-stack-bytes` or of dynamic size); a failed
    bufferization.

    Known limits: no scratch goes into the ABI's workspace yet.
  }];
  let options = [
    Option<"maxStackBytes", "max-stack-bytes", "unsigned", "131072",
           "Largest scratch buffer promoted to the stack (the kernel ABI "
           "allows 256 KiB of stack per kernel)">,
  ];
}

//===----------------------------------------------------------------------===//
// Lowering: buffers and the host program, serialization
//===----------------------------------------------------------------------===//

def FuelPlanBuffersPass : Pass<"fuel-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Turns each lowered function into a host program";
  let description = [{
    Objective: replace every function of outlined, scheduled IR (dispatches
    of `fuel.executable` kernels on tensors, tensor views, `fuel.copy`,
    tensor `arith.constant`, `func.return`) by a `fuel.program` of the same
    name: every tensor value a buffer on its device, offsets in one arena
    per device (interval packing by the IR-free planner, lib/Planner
    BufferPlan.h), and the dispatch and copy commands in program order with
    explicit dependencies.

    * Arguments become input buffers on their `fuel.residency` device (the
      host by default); results become output buffers. An input is named by
      its argument's `onnx.name` (what the ONNX importer sets), else by the
      first name in its location (a `NameLoc`, also inside a fused or
      call-site location), else `arg<i>`; an output by its result's
      `onnx.name`, else `result<i>`. The runtime names them so in its
      errors (`argument 0 (x) expects ...`). A returned value that
      a command writes, returned once and not a view of a buffer that
      another output already took, is written straight into the output
      (caller-bound); any other result (an input or constant returned, a
      value returned twice, a second view of an output) gets a copy command
      into its output at the end of the program.
    * Dispatch results are arena buffers, live from their command to their
      last reader; a kernel whose function carries `fuel.in_place =
      array<i64: ...>` (per result, the input it may overwrite, or -1) lets
      the result take the operand's slot when that read is its last.
    * `tensor.collapse_shape`, `expand_shape`, `reshape`, `bitcast`, `cast`
      and a contiguous `extract_slice` are the same bytes: a
      `fuel.buffer_view` with a byte offset, never a copy.
    * A tensor `arith.constant` becomes a module-level `fuel.constant_data`
      (equal constants share one) and a constant buffer on each device that
      reads it.
    * `fuel.copy` becomes a transfer into a new buffer on its target device.
    * Dependencies: a command waits for every earlier command whose written
      bytes it reads or writes, or whose read bytes it writes (byte ranges
      in the same arena or buffer), less those already implied through
      another of its dependencies (a transitive reduction).
    * Launches record the grid (`fuel.workgroups` of a generated kernel,
      the grid of a library kernel) and, for reports, the plan node, op
      kind, kernel id, source, revision and predicted time.

    ```mlir
    %y = fuel.dispatch @cpu::@relu_0 (%x) {node = 0 : i64, ...}
        : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
    ```
    becomes
    ```mlir
    fuel.program @f {
      fuel.arena cpu size 0 align 64
      %0 = fuel.buffer input 0 "arg0" : tensor<4xf32> on cpu
      %1 = fuel.buffer output 0 "result0" : tensor<4xf32> on cpu
      fuel.launch @cpu::@relu_0 (%0) -> (%1) grid [1, 1, 1] {node = 0 : i64, ...}
          : (tensor<4xf32>) -> (tensor<4xf32>)
    }
    ```

    Errors, at the op: an op that is not one of the above (a `fuel.node`
    left unoutlined, a `func.call`), a strided `extract_slice` (outlining
    materialises those), a dynamic shape or an element type without a byte
    size, a dispatch naming no kernel or a kernel of no executable.
    Known limits: one function per module is what serialization accepts.
    Cost: near-linear in the commands. The conflicts come from a sweep
    that keeps each byte range's last writer and its readers since
    (fuel::plan::commandDependencies), and the reduction walks back no
    further than a command's earliest conflict; packing finds a buffer's
    neighbours in time through buckets of commands (a unit pays for what
    is live around it, so a program where very many buffers live
    throughout stays quadratic).
  }];
  let dependentDialects = ["mlir::fuel::FuelDialect"];
}

def FuelSerializeExecutablePass
    : Pass<"fuel-serialize-executable", "mlir::ModuleOp"> {
  let summary = "Writes the host program and its kernels as a .fuelx file";
  let description = [{
    Objective: the executable file (docs/EXECUTABLE-FORMAT.md) of the
    module's one `fuel.program`, written with fuel::rt::ExecutableWriter:
    the devices and arenas, one ELF shared object per cpu executable
    (its LLVM-dialect kernel module compiled in-process for the cpu target
    its schedules were applied for, else the topology's, else the host's),
    the kernel entries with their workspaces, the library
    kernels, the constant segments, buffers, inputs, outputs and commands
    with their reports, the cpu target (triple, CPU, the /proc/cpuinfo
    features the code needs), the topology hash, the plan hash (xxh3 over
    the launches' node, kernel id, source, revision and device, in
    order) and the fuel version. The same IR, topology and options give
    the same bytes.

    ```sh
    fuel-opt host.mlir --convert-fuel-to-llvm \
        --fuel-serialize-executable=output=model.fuelx -o /dev/null
    ```

    The IR is not changed. Errors: no program or more than one (at the
    module); a launch of a kernel that is not in the LLVM dialect or that
    no executable holds, an element type the format has no dtype for (at
    the op); the shared-object step's errors (at the executable's module);
    what the writer's verifier refuses; a file that cannot be written.
    A vulkan executable's kernel module must hold the one spirv.module of
    convert-fuel-to-spirv: it is written as a SPIR-V module
    (ModuleFormat::SpirV, mlir::spirv::serialize) with an entry per
    launched kernel (its symbol, `fuel.workgroup_size` and the binding
    slots (set 0, binding i) per argument); a kernel not yet lowered is an
    error at the kernel. Known limits: cuda executables are refused at the
    op.
  }];
  let options = [
    Option<"output", "output", "std::string", "\"-\"",
           "Output file ('-' for standard output)">
  ];
  let dependentDialects = ["mlir::fuel::FuelDialect"];
}

#endif // FUEL_DIALECT_FUEL_TRANSFORMS_PASSES_TD
