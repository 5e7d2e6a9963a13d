// Tests that figures at the top of their range survive the printed
// #fuel.topology: memory_bytes of 2^63 and 2^64 - 1 and an alignment of 2^63
// print unsigned, and whole-number rates of 7 and more significant digits
// print as decimal floats, so the printed module parses again, prints the
// same, and holds the topology the file gave (same hash).

// RUN: fuel-topology %S/Inputs/large-figures.json --emit=attr > %t.attr
// RUN: fuel-topology %S/Inputs/large-figures.json --emit=hash > %t.hash
// RUN: echo 'module attributes {fuel.topology = ' > %t.mlir
// RUN: cat %t.attr >> %t.mlir
// RUN: echo '} {}' >> %t.mlir
// RUN: fuel-opt %t.mlir > %t.once.mlir
// RUN: fuel-opt %t.once.mlir > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s < %t.once.mlir
// RUN: cat %t.hash %t.once.mlir | FileCheck %s --check-prefix=HASH

// CHECK: <cpu, cpu_type, peak = {f32 = 1000001.0, f64 = 2147483648.0}, bytes_per_ns = 1234567.0, dispatch_ns = 2000, memory = 18446744073709551615, alignment = 9223372036854775808>
// CHECK-SAME: <cuda:0, peak = {f32 = 5.000000e+04}, bytes_per_ns = 3.000000e+03, dispatch_ns = 5000, memory = 9223372036854775808, alignment = 256>

// HASH: [[HASH:0x[0-9a-f]+]]
// HASH: #fuel.topology<hash = [[HASH]],

// The planner takes the printed module as it took the file.
// RUN: fuel-opt %t.once.mlir --fuel-attach-topology | FileCheck %s --check-prefix=ATTACH
// ATTACH: memory = 18446744073709551615, alignment = 9223372036854775808
