// Tests the `limits` of a GPU device (docs/TOPOLOGY.md): the lavapipe
// topology's limits print back as JSON and as `#fuel.gpu_limits`, a round
// trip through the printer is a fixed point, the limits enter the content
// hash, and bad limits name the JSON path.

// RUN: fuel-topology %topologies/cpu-lavapipe.json | FileCheck %s --check-prefix=JSON
// RUN: fuel-topology %topologies/cpu-lavapipe.json > %t.json
// RUN: fuel-topology %t.json | diff %t.json -
// JSON: "device": "vulkan:0",
// JSON: "alignment": 64,
// JSON-NEXT: "limits": {
// JSON-NEXT: "subgroup_size": 8,
// JSON-NEXT: "shared_memory_bytes": 32768,
// JSON-NEXT: "max_workgroup_invocations": 1024,
// JSON-NEXT: "max_workgroup_size": [
// JSON-NEXT: 1024,
// JSON-NEXT: 1024,
// JSON-NEXT: 1024
// JSON-NEXT: ],
// JSON-NEXT: "min_storage_buffer_offset_alignment": 16,
// JSON-NEXT: "max_push_constants_bytes": 128,
// JSON-NEXT: "timestamp_period_ns": 1.0
// JSON-NEXT: }

// RUN: fuel-topology %topologies/cpu-lavapipe.json --emit=attr | FileCheck %s --check-prefix=ATTR
// ATTR: <vulkan:0, name = "llvmpipe (LLVM 15.0.6, 256 bits)", cpu_type, {{.*}}, alignment = 64, limits = <subgroup_size = 8, shared_memory_bytes = 32768, max_workgroup_invocations = 1024, max_workgroup_size = [1024, 1024, 1024], min_storage_buffer_offset_alignment = 16, max_push_constants_bytes = 128, timestamp_period_ns = 1.000000e+00>>

// The attribute carries the file's content hash and reads back with it.
// RUN: fuel-topology %topologies/cpu-lavapipe.json --emit=attr > %t.attr
// RUN: fuel-topology %topologies/cpu-lavapipe.json --emit=hash > %t.hash
// RUN: cat %t.attr %t.hash | FileCheck %s --check-prefix=HASH
// HASH: #fuel.topology<hash = [[H:0x[0-9a-f]+]],
// HASH-NEXT: [[H]]
// RUN: echo "module attributes {fuel.topology = " > %t.mlir
// RUN: cat %t.attr >> %t.mlir
// RUN: echo "} {}" >> %t.mlir
// RUN: fuel-opt %t.mlir | FileCheck %s --check-prefix=REREAD
// REREAD: limits = <subgroup_size = 8, shared_memory_bytes = 32768,

// The same machine without limits hashes differently.
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); [x.pop('limits', None) for x in d['devices']]; json.dump(d, sys.stdout)" %t.json > %t.nolimits.json
// RUN: fuel-topology %t.nolimits.json | FileCheck %s --check-prefix=NOLIMITS
// NOLIMITS-NOT: limits
// RUN: fuel-topology %t.nolimits.json --emit=hash > %t.hashes
// RUN: cat %t.hash >> %t.hashes
// RUN: sort -u %t.hashes | wc -l | FileCheck %s --check-prefix=DISTINCT
// DISTINCT: 2

// RUN: not fuel-topology %S/Inputs/bad-limits.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: bad-limits.json: error: $.devices[1].limits.subgroup_size: expected a power of two from 1 to 128, got 24
// RUN: not fuel-topology %S/Inputs/cpu-limits.json 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: cpu-limits.json: error: $.devices[0].limits: the host 'cpu' has no GPU limits (only cuda:N and vulkan:N devices have "limits")
