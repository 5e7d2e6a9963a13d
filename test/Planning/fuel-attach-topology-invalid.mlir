// RUN: fuel-opt %s --split-input-file -verify-diagnostics \
// RUN:   --fuel-attach-topology=topology=%topologies/cpu-cuda.json
// RUN: not fuel-opt %s --split-input-file \
// RUN:   --fuel-attach-topology='require-transfer-pricing price-transfers=false' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PRICING
// RUN: not fuel-opt %s --split-input-file --fuel-attach-topology=pinned-device=cuda:0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABSENT
// RUN: not fuel-opt %s --split-input-file --fuel-attach-topology=pinned-device=gpu0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MALFORMED
// RUN: not fuel-opt %s --split-input-file --fuel-attach-topology=pinned-device=cuda:x 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MALFORMED-INDEX
// RUN: not fuel-opt %s --split-input-file --fuel-attach-topology=precision=fast 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PRECISION
// RUN: not fuel-opt %s --split-input-file --fuel-attach-topology='precision=ulp<=-1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE
// RUN: not fuel-opt %s --split-input-file --fuel-attach-topology=topology=%t.missing.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING

// Option errors are the same for every module; each RUN above checks one:
// PRICING: error: require-transfer-pricing is set but price-transfers is off; turn pricing on or drop the requirement
// ABSENT: error: pinned-device 'cuda:0' is not a device of the topology (devices: cpu)
// MALFORMED: error: invalid 'pinned-device' option 'gpu0'; expected 'cpu', 'cuda:N', 'vulkan:N' or 'none'
// MALFORMED-INDEX: error: invalid 'pinned-device' option 'cuda:x'
// PRECISION: error: invalid 'precision' option 'fast': invalid precision requirement 'fast': unknown item 'fast'
// NEGATIVE: error: invalid 'precision' option 'ulp<=-1': {{.*}}negative bound in 'ulp<=-1'
// MISSING: error: cannot use topology '{{.*}}.missing.json': {{.*}}cannot read topology file

// Tests that an explicit topology differing from the one a module carries
// is an error: re-planning never silently changes the machine.

// expected-error @+1 {{the module is already planned for topology 0x}}
module @cpu_only attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, name = "stamped host", cpu_type, peak = {f32 = 32.0, f64 = 16.0},
     bytes_per_ns = 20.0, dispatch_ns = 2000, memory = 34359738368, alignment = 64>]>} {
}

// -----

// Tests that the hash covers every figure: the same devices with a slower
// link are another machine.

// expected-error @+1 {{cpu-cuda.json' has hash 0x}}
module @slower_link attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, cpu_type, peak = {f32 = 32.0, f64 = 16.0},
     bytes_per_ns = 20.0, dispatch_ns = 2000, memory = 34359738368, alignment = 64>,
    <cuda:0, peak = {f32 = 50000.0, f64 = 25000.0},
     bytes_per_ns = 3000.0, dispatch_ns = 5000, memory = 85899345920, alignment = 256>],
  links = [
    <cpu -> cuda:0, bandwidth = 12000000000, latency_ns = 10000, class = "device-copy">,
    <cuda:0 -> cpu, bandwidth = 25000000000, latency_ns = 10000, class = "device-copy">]>} {
}
