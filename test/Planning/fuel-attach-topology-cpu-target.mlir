// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-only.json | FileCheck %s --check-prefix=NONE
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-named-v3.json | FileCheck %s --check-prefix=NAME
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-named-v3.json | fuel-opt | FileCheck %s --check-prefix=NAME
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-target-features.json | FileCheck %s --check-prefix=FEATURES
// RUN: fuel-opt %s --fuel-attach-topology=topology=%topologies/cpu-target-features.json | fuel-opt | FileCheck %s --check-prefix=FEATURES

// Tests that a topology naming the host's code-generation target
// (`cpu_target`, docs/TOPOLOGY.md) attaches with it, prints it on the cpu
// device and hashes differently from the same machine without a target;
// cpu-only.json keeps the hash it always had.

// NONE: #fuel.topology<hash = 0x13e846a390964660, devices = [<cpu,
// NONE-NOT: cpu_target
// NAME: #fuel.topology<hash = 0x70b7a97e4457ec7a, devices = [<cpu, name = "8-core x86-64 host, AVX2", cpu_type, peak = {f32 = 3.200000e+01, f64 = 1.600000e+01}, bytes_per_ns = 2.000000e+01, dispatch_ns = 2000, memory = 34359738368, alignment = 64, cpu_target = "x86-64-v3">], links = []>
// NAME-NOT: cpu_features
// FEATURES: #fuel.topology<hash = 0x15472fb59c432a23, devices = [<cpu, {{.*}}alignment = 64, cpu_target = "znver3", cpu_features = "+avx2,+fma">], links = []>
module {}
