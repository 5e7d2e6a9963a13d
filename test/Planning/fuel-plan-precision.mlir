// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json" | FileCheck %s --check-prefix=NONE
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json precision=deterministic" | FileCheck %s --check-prefix=DET
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json precision=bit-stable" | FileCheck %s --check-prefix=DET
// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s -mlir-print-local-scope \
// RUN:   --fuel-plan-candidates="topology=%topologies/cpu-only.json prefer-bit-stable=true" | FileCheck %s --check-prefix=DET

// Tests that the precision requirement changes the winner on the host
// (test/topologies/cpu-only.json: 32 flop/ns, 20 B/ns, dispatch 2000 ns) on
// a memory-bound product, M = N = 1024, K = 2 (flops 2*1024*1024*2 =
// 4194304, bytes 4*(2048 + 2048 + 1048576) = 4210688), where the
// library's memory efficiency tells:
//  - none: openblas wins, max(4194304/12.16 -> 344927, 4210688/17.6 ->
//    239244) + 2000 = 346927 ns, over blis, max(374492, 4210688/7.6 ->
//    554038) + 2000 = 556038 ns, and generated, max(242726, 4210688/6 ->
//    701782) + 2000 = 703782 ns; all three are kept;
//  - deterministic, the list 'bit-stable', or prefer-bit-stable: only the
//    bit-stable cpu.generated is left.

// NONE: fuel.config = #fuel.config<{{.*}}precision = "none">
// NONE-LABEL: func.func @matmul
// NONE: fuel.node 0 matmul
// NONE-SAME: [#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}time_ns = 346927 static{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}time_ns = 556038 static{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}time_ns = 703782 static{{[^#]*}}]> {

// DET-LABEL: func.func @matmul
// DET: fuel.node 0 matmul
// DET-SAME: [#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}precision = <deterministic,{{[^#]*}}time_ns = 703782 static, host_bytes = 4472832, device_bytes = 0>]> {
func.func @matmul(%a: tensor<1024x2xf32>, %b: tensor<2x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m = linalg.matmul ins(%a, %b : tensor<1024x2xf32>, tensor<2x1024xf32>)
                     outs(%acc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %m : tensor<1024x1024xf32>
}
