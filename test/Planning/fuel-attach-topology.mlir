// RUN: fuel-opt %s --split-input-file --fuel-attach-topology | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology | fuel-opt --split-input-file | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/cpu-cuda.json | FileCheck %s --check-prefixes=CHECK,FILE
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/cpu-cuda.json \
// RUN:   | fuel-opt --split-input-file --fuel-attach-topology | FileCheck %s --check-prefixes=CHECK,FILE
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=topology=%topologies/cpu-cuda.json \
// RUN:   | fuel-opt --split-input-file --fuel-attach-topology=topology=%topologies/cpu-cuda.json | FileCheck %s --check-prefixes=CHECK,FILE
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=precision=reference | FileCheck %s --check-prefix=REF
// RUN: fuel-opt %s --split-input-file --fuel-attach-topology=precision=deterministic | FileCheck %s --check-prefix=DET
// RUN: fuel-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{precision="ulp<=1,bit-stable"})' | FileCheck %s --check-prefix=LIST
// RUN: fuel-opt %s --split-input-file \
// RUN:   --fuel-attach-topology='pinned-device=none price-transfers=false allow-cost-placement=false' | FileCheck %s --check-prefix=OFF
// RUN: fuel-opt %s --split-input-file \
// RUN:   --fuel-attach-topology='topology=%topologies/cpu-cuda.json pinned-device=cuda:0 require-transfer-pricing' \
// RUN:   | FileCheck %s --check-prefix=CUDA

// Tests that a module without a topology gets the built-in default (one host
// CPU, no links) or the explicit file's, and that the configuration records
// the options, with the defaults when none is given.

// DEFAULT: #[[TOPO:.+]] = #fuel.topology<hash = 0x{{[0-9a-f]+}}, devices = [<cpu, name = "host (built-in default topology)", cpu_type, {{[^>]*}}>], links = []>
// FILE: #[[TOPO:.+]] = #fuel.topology<hash = 0x[[HASH:[0-9a-f]+]], devices = [<cpu, {{[^>]*}}>, <cuda:0, {{[^>]*}}limits = <{{[^>]*}}>, compute_capability = "9.0">], links = [<cpu -> cuda:0, {{[^>]*}}>, <cuda:0 -> cpu, {{[^>]*}}>]>
// CHECK-LABEL: module @fresh
// CHECK-SAME: attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none">, fuel.topology = #[[TOPO]]}

// REF-LABEL: module @fresh
// REF-SAME: fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "reference">

// DET-LABEL: module @fresh
// DET-SAME: precision = "deterministic"

// A list is recorded in its canonical order.
// LIST-LABEL: module @fresh
// LIST-SAME: fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "bit-stable,ulp<=1">

// OFF-LABEL: module @fresh
// OFF-SAME: fuel.config = #fuel.config<price_transfers = false, allow_cost_placement = false, pinned_device = none, precision = "none">

// CUDA: #[[CTOPO:.+]] = #fuel.topology<{{.*}}<cuda:0,
// CUDA-LABEL: module @fresh
// CUDA-SAME: fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cuda:0, precision = "none">, fuel.topology = #[[CTOPO]]
module @fresh {
}

// -----

// Tests that a module already stamped keeps its topology when no topology is
// given and accepts an explicit topology with the same content hash (this one
// is cpu-cuda.json), and that its configuration is rewritten from the options.

// DEFAULT: #[[KEPT:.+]] = #fuel.topology<hash = 0x{{[0-9a-f]+}}, devices = [<cpu, name = "stamped host", {{[^>]*}}>, <cuda:0, name = "stamped gpu", {{[^>]*}}limits = <{{[^>]*}}>, compute_capability = "9.0">], links = [<cpu -> cuda:0, {{[^>]*}}>, <cuda:0 -> cpu, {{[^>]*}}>]>
// FILE: #[[KEPT:.+]] = #fuel.topology<hash = 0x[[HASH]], devices = [<cpu, {{[^>]*}}>, <cuda:0, {{[^>]*}}limits = <{{[^>]*}}>, compute_capability = "9.0">], links = [<cpu -> cuda:0, {{[^>]*}}>, <cuda:0 -> cpu, {{[^>]*}}>]>
// CHECK-LABEL: module @stamped
// CHECK-SAME: attributes {fuel.config = #fuel.config<price_transfers = true, allow_cost_placement = true, pinned_device = cpu, precision = "none">, fuel.topology = #[[KEPT]]}

// REF-LABEL: module @stamped
// REF-SAME: precision = "reference"
// LIST-LABEL: module @stamped
// LIST-SAME: precision = "bit-stable,ulp<=1"
// OFF-LABEL: module @stamped
// OFF-SAME: pinned_device = none
// CUDA-LABEL: module @stamped
// CUDA-SAME: pinned_device = cuda:0
module @stamped attributes {
  fuel.config = #fuel.config<price_transfers = false, allow_cost_placement = false,
                             pinned_device = cuda:0, precision = "reference">,
  fuel.topology = #fuel.topology<devices = [
    <cpu, name = "stamped host", cpu_type, peak = {f32 = 32.0, f64 = 16.0},
     bytes_per_ns = 20.0, dispatch_ns = 2000, memory = 34359738368, alignment = 64>,
    <cuda:0, name = "stamped gpu", peak = {f32 = 50000.0, f64 = 25000.0},
     bytes_per_ns = 3000.0, dispatch_ns = 5000, memory = 85899345920, alignment = 256,
     limits = <subgroup_size = 32, shared_memory_bytes = 49152,
               max_workgroup_invocations = 1024, max_workgroup_size = [1024, 1024, 64]>,
     compute_capability = "9.0">],
  links = [
    <cpu -> cuda:0, bandwidth = 25000000000, latency_ns = 10000, class = "device-copy">,
    <cuda:0 -> cpu, bandwidth = 25000000000, latency_ns = 10000, class = "device-copy">]>} {
}
