// RUN: fuel-opt %S/Inputs/cpu-kernels.mlir --fuel-attach-topology="topology=%S/../topologies/cpu-named-v3.json" --fuel-apply-schedules | FileCheck %s --check-prefix=V3
// RUN: fuel-opt %S/Inputs/cpu-kernels.mlir --fuel-attach-topology="topology=%S/../topologies/cpu-target-features.json" --fuel-apply-schedules | FileCheck %s --check-prefix=ZEN

// Tests that the topology's cpu target (docs/TOPOLOGY.md) is what the
// kernels are scheduled for: x86-64-v3 and znver3 are AVX2 targets, so the
// matmul gets the 6x16 tile, and the target is stamped on the kernel module.

// V3: builtin.module attributes {fuel.cpu_target = {cpu = "x86-64-v3", features = "", triple = "{{.+}}"}}
// V3: func.func @matmul_0
// V3: iter_args({{.*}}) -> (vector<6x16xf32>)

// ZEN: builtin.module attributes {fuel.cpu_target = {cpu = "znver3", features = "+avx2,+fma", triple = "{{.+}}"}}
// ZEN: iter_args({{.*}}) -> (vector<6x16xf32>)
