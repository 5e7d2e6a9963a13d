// Tests the optional `cpu_target` of the host (docs/TOPOLOGY.md): both of
// its forms read and print back to the same topology, and syntax errors
// name the JSON path.

// RUN: fuel-topology %topologies/cpu-named-v3.json | FileCheck %s --check-prefix=NAME
// RUN: fuel-topology %topologies/cpu-named-v3.json > %t.name.json
// RUN: fuel-topology %t.name.json | diff %t.name.json -
// NAME: "alignment": 64,
// NAME-NEXT: "cpu_target": "x86-64-v3"

// RUN: fuel-topology %topologies/cpu-target-features.json | FileCheck %s --check-prefix=OBJECT
// RUN: fuel-topology %topologies/cpu-target-features.json > %t.object.json
// RUN: fuel-topology %t.object.json | diff %t.object.json -
// OBJECT: "cpu_target": {
// OBJECT-NEXT: "cpu": "znver3",
// OBJECT-NEXT: "features": "+avx2,+fma"
// OBJECT-NEXT: }

// A topology without a target prints none.
// RUN: fuel-topology %topologies/cpu-only.json | FileCheck %s --check-prefix=NONE
// NONE-NOT: cpu_target

// The target is in the content hash: the same machine with and without a
// target, and with two targets, has three hashes.
// RUN: fuel-topology %topologies/cpu-only.json --emit=hash > %t.hashes
// RUN: fuel-topology %topologies/cpu-named-v3.json --emit=hash >> %t.hashes
// RUN: fuel-topology %topologies/cpu-target-features.json --emit=hash >> %t.hashes
// RUN: sort -u %t.hashes | wc -l | FileCheck %s --check-prefix=DISTINCT
// DISTINCT: 3

// RUN: not fuel-topology %S/Inputs/bad-cpu-target.json 2>&1 | FileCheck %s --check-prefix=FEATURE
// FEATURE: bad-cpu-target.json: error: $.devices[0].cpu_target: expected a valid CPU target, got feature "avx2" of "avx2" is not '+name' or '-name' (expected a comma list such as "+avx2,+fma")
// RUN: not fuel-topology %S/Inputs/empty-cpu-target.json 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: empty-cpu-target.json: error: $.devices[0].cpu_target: expected a valid CPU target, got an empty CPU name
// RUN: not fuel-topology %S/Inputs/gpu-cpu-target.json 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: gpu-cpu-target.json: error: $.devices[1].cpu_target: only the host 'cpu' has a cpu_target
// RUN: not fuel-topology %S/Inputs/cpu-target-key.json 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: cpu-target-key.json: error: $.devices[0].cpu_target{{.*}}tune
