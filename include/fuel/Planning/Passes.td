//===- Passes.td - Planning passes -------------------------*- tablegen -*-===//
//
// The passes that turn a tensor program into a plan, grouped by the IR stage
// they produce (docs/ARCHITECTURE.md, "The IR, stage by stage"): the
// topology and configuration stamp (stage 2), node formation (stage 3,
// SEMANTICS §4), phase A (stage 4, SEMANTICS §3), phase B: placement and
// copy insertion (stage 5, SEMANTICS §5 and §8), and the module passes that
// export, import and draw a plan. Each pass can run alone from what the IR
// holds; the `fuel-plan` and `fuel-plan-candidates` pipelines
// (lib/Planning/PlanPipeline.cpp) run them in order. No pass here generates
// code: the library links no code generator (a ctest checks its link
// closure). docs/FuelPlanningPasses.md is generated from this file.
//
//===----------------------------------------------------------------------===//

#ifndef FUEL_PLANNING_PASSES_TD
#define FUEL_PLANNING_PASSES_TD

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


#endif // FUEL_PLANNING_PASSES_TD
