// RUN: fuel-opt --fuel-kernel-registry=%S/Inputs/kernel-registry.json %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json},func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-annotate-costs))' \
// RUN:   | FileCheck %s

// Layer-1 prices (SEMANTICS §3 step 6), computed by hand from
// test/topologies/cpu-cuda.json and kernels/registry.json:
//
//   time = max(ceil(flops / (peak * eff_compute)), ceil(bytes / (bw * eff_memory)))
//          + device dispatch + variant overhead
//
// cpu: f32 peak 32 flop/ns, 20 B/ns, dispatch 2000 ns.
// cuda:0: f32 peak 50000 flop/ns, 3000 B/ns, dispatch 5000 ns.
//
// matmul M=64, N=32, K=128:
//   flops = 2*64*32*128                  = 524288
//   bytes = 4*(64*128 + 128*32 + 64*32)  = 57344
//   operands 4*(64*128 + 128*32) = 49152, result 4*64*32 = 8192: 57344
//
//   kernel                  compute                     memory                     + dispatch + own = time
//   cpu.openblas  .38/.88   524288/12.16 = 43115.8 -> 43116   57344/17.6 = 3258.2->3259 + 2000 + 0    = 45116
//   cpu.blis      .35/.38   524288/11.2  = 46811.4 -> 46812   57344/7.6  = 7545.3->7546 + 2000 + 0    = 48812
//   cpu.generated .54/.3    524288/17.28 = 30340.7 -> 30341   57344/6    = 9557.3->9558 + 2000 + 0    = 32341
//   cuda.cublas   .85/.85   524288/42500 = 12.3 -> 13         57344/2550 = 22.5 -> 23  + 5000 + 3000 = 8023
//   cuda.generated .4/.7    524288/20000 = 26.2 -> 27         57344/2100 = 27.3 -> 28  + 5000 + 0    = 5028
//
// Footprint = 57344 + workspace, in the device's tier:
//   cpu.openblas host 57344 + 0 = 57344; cpu.blis host 57344 + 4194304 = 4251648;
//   cpu.generated host 57344 + 262144 = 319488; cuda.cublas device 57344 +
//   4194304 = 4251648; cuda.generated device 57344 + 0 = 57344.

// Tests that openblas, blis and generated compete on cpu, and cublas and
// generated on cuda:0, each at the price its registry efficiencies give.

// CHECK-LABEL: func.func @matmul
// CHECK: fuel.node 0 matmul
// CHECK-SAME: #fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}cost = <flops = 524288, bytes = 57344, overhead_ns = 0>, time_ns = 48812 static, host_bytes = 4251648, device_bytes = 0>
// CHECK-SAME: #fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}cost = <flops = 524288, bytes = 57344, overhead_ns = 0>, time_ns = 32341 static, host_bytes = 319488, device_bytes = 0>
// CHECK-SAME: #fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}cost = <flops = 524288, bytes = 57344, overhead_ns = 0>, time_ns = 45116 static, host_bytes = 57344, device_bytes = 0>
// CHECK-SAME: #fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}cost = <flops = 524288, bytes = 57344, overhead_ns = 3000>, time_ns = 8023 static, host_bytes = 0, device_bytes = 4251648>
// CHECK-SAME: #fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}cost = <flops = 524288, bytes = 57344, overhead_ns = 0>, time_ns = 5028 static, host_bytes = 0, device_bytes = 57344>]> {
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests a memory-bound elementwise node: exp over 1048576 f32 elements.
//   flops = 8 (a transcendental) * 1048576 = 8388608
//   bytes = 4 * (1048576 in + 1048576 out)  = 8388608
//   cpu.generated  .5/.82: 8388608/16 = 524288; 8388608/16.4 = 511500.5 -> 511501
//                          -> 524288 + 2000 = 526288; host 8388608
//   cuda.generated .5/.85: 8388608/25000 = 335.5 -> 336;
//                          8388608/2550 = 3289.7 -> 3290 -> 3290 + 5000 = 8290;
//                          device 8388608

// CHECK-LABEL: func.func @exp
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: #fuel.candidate<"cpu.generated.elementwise_f32"{{[^#]*}}cost = <flops = 8388608, bytes = 8388608, overhead_ns = 0>, time_ns = 526288 static, host_bytes = 8388608, device_bytes = 0, params = {fn = "exp"}>
// CHECK-SAME: #fuel.candidate<"cuda.generated.elementwise_f32"{{[^#]*}}cost = <flops = 8388608, bytes = 8388608, overhead_ns = 0>, time_ns = 8290 static, host_bytes = 0, device_bytes = 8388608, params = {fn = "exp"}>]> {
func.func @exp(%a: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %e = tensor.empty() : tensor<1048576xf32>
  %0 = linalg.exp ins(%a : tensor<1048576xf32>) outs(%e : tensor<1048576xf32>)
      -> tensor<1048576xf32>
  return %0 : tensor<1048576xf32>
}
