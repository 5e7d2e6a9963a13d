// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json pinned-device=cuda:0},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s --check-prefix=CUDA
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json price-transfers=false},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s --check-prefix=FALLBACK
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda.json allow-cost-placement=false},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s --check-prefix=FALLBACK
// RUN: fuel-opt %s --split-input-file -mlir-print-local-scope \
// RUN:   --pass-pipeline='builtin.module(fuel-attach-topology{topology=%topologies/cpu-cuda-vulkan.json},func.func(fuel-form-nodes,fuel-enumerate-candidates))' \
// RUN:   | FileCheck %s --check-prefix=VULKAN

// The admission table of SEMANTICS §3 step 2, one function per row, under
// each configuration: the default (CHECK), `pinned-device=cuda:0` (CUDA),
// `price-transfers=false` and `allow-cost-placement=false` (FALLBACK, the
// same admission), and a three-device topology (VULKAN). Candidates are
// listed by admitted device (the decision device first), then kernel id;
// costs are left at zero for fuel-annotate-costs.

// Tests that a free node is admitted on every device, the decision device
// first, with every registered variant of each backend and nothing priced.

// CHECK-LABEL: func.func @free
// CHECK: fuel.node 0 matmul
// CHECK-SAME: alternatives #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cpu>,
// CHECK-SAME: [#fuel.candidate<"cpu.blis.matmul_f32", source = "blis", backend = cpu, device = cpu, revision = 0x{{[0-9a-f]+}}, priority = 10, precision = <unaudited,{{[^#]*}}cost = <flops = 0, bytes = 0, overhead_ns = 0>, time_ns = 0 static, host_bytes = 0, device_bytes = 0>,
// CHECK-SAME: #fuel.candidate<"cpu.generated.matmul_f32", source = "generated", backend = cpu, device = cpu, caps = [strided_input], revision = 0x{{[0-9a-f]+}}, precision = <deterministic,{{[^#]*}}>,
// CHECK-SAME: #fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas", backend = cpu, device = cpu, revision = 0x{{[0-9a-f]+}}, priority = 20, precision = <unaudited,{{[^#]*}}>,
// CHECK-SAME: #fuel.candidate<"cuda.cublas.matmul_f32", source = "cublas", backend = cuda, device = cuda:0, revision = 0x{{[0-9a-f]+}}, priority = 20, precision = <unaudited,{{[^#]*}}>,
// CHECK-SAME: #fuel.candidate<"cuda.generated.matmul_f32", source = "generated", backend = cuda, device = cuda:0, caps = [strided_input], revision = 0x{{[0-9a-f]+}}, precision = <unaudited,{{[^#]*}}device_bytes = 0>]> {

// With pinned-device=cuda:0 the decision device is cuda:0 and comes first.
// CUDA-LABEL: func.func @free
// CUDA: fuel.node 0 matmul
// CUDA-SAME: decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cuda:0>
// CUDA-SAME: [#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}]> {

// With pricing or cost placement off, the other devices are fallbacks.
// FALLBACK-LABEL: func.func @free
// FALLBACK: fuel.node 0 matmul
// FALLBACK-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}device_bytes = 0, fallback>, #fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}device_bytes = 0, fallback>]> {

// Three devices: alternatives on each, in device order after the decision
// device.
// VULKAN-LABEL: func.func @free
// VULKAN: fuel.node 0 matmul
// VULKAN-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}device = cuda:0,{{[^#]*}}#fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"vulkan.generated.matmul_f32", source = "generated", backend = vulkan, device = vulkan:0,{{[^#]*}}]> {
func.func @free(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests that a pinned node is admitted on its pin only, whatever the
// configuration: no fallback, no other device.

// CHECK-LABEL: func.func @pinned
// CHECK: fuel.node 0 matmul
// CHECK-SAME: pin cuda:0 alternatives #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cuda:0>,
// CHECK-SAME: [#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}device_bytes = 0>]> {

// FALLBACK-LABEL: func.func @pinned
// FALLBACK: fuel.node 0 matmul
// FALLBACK-SAME: pin cuda:0 alternatives
// FALLBACK-SAME: [#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}device_bytes = 0>]> {

// A pin on the host confines the node to cpu even with cuda:0 as the
// pipeline's decision device.
// CUDA-LABEL: func.func @pinned
// CUDA: fuel.node 1 matmul
// CUDA-SAME: pin cpu alternatives #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cpu>,
// CUDA-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}#fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}]> {
func.func @pinned(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>)
    -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul {fuel.pin = #fuel.device<cuda:0>}
                     ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  %n = linalg.matmul {fuel.pin = #fuel.device<cpu>}
                     ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m, %n : tensor<64x32xf32>, tensor<64x32xf32>
}

// -----

// Tests that a destructive node is admitted on the decision device only.

// CHECK-LABEL: func.func @destructive
// CHECK: fuel.node 0 matmul
// CHECK-SAME: destructive alternatives #fuel.alternatives<decision = <op = matmul, dtype = f32, size_class = 0x0b0607, device = cpu>,
// CHECK-SAME: [#fuel.candidate<"cpu.blis.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cpu.generated.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cpu.openblas.matmul_f32"{{[^#]*}}device_bytes = 0>]> {

// CUDA-LABEL: func.func @destructive
// CUDA: fuel.node 0 matmul
// CUDA-SAME: destructive alternatives #fuel.alternatives<decision = <{{.*}}device = cuda:0>,
// CUDA-SAME: [#fuel.candidate<"cuda.cublas.matmul_f32"{{[^#]*}}device_bytes = 0>, #fuel.candidate<"cuda.generated.matmul_f32"{{[^#]*}}device_bytes = 0>]> {
func.func @destructive(%a: tensor<64x128xf32>, %b: tensor<128x32xf32>, %c: tensor<64x32xf32>)
    -> tensor<64x32xf32> {
  %m = linalg.matmul {fuel.destructive}
                     ins(%a, %b : tensor<64x128xf32>, tensor<128x32xf32>)
                     outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// -----

// Tests that the coupling clause is copied, without its `on` field, onto the
// candidates of the matching device only, one clause per device.

// CHECK-LABEL: func.func @coupling
// CHECK: fuel.node 0 elementwise
// CHECK: fuel.node 1 elementwise
// CHECK-SAME: coupling [#fuel.coupling<on = cuda:0, node = 0, backend = cpu, delta_ns = 100>, #fuel.coupling<on = cpu, node = 0, device = cuda:0, delta_ns = -7>]
// CHECK-SAME: [#fuel.candidate<"cpu.generated.elementwise_f32"{{[^#]*}}device_bytes = 0, params = {fn = "negf"}, coupling = [#fuel.coupling<node = 0, device = cuda:0, delta_ns = -7>]>,
// CHECK-SAME: #fuel.candidate<"cuda.generated.elementwise_f32"{{[^#]*}}device_bytes = 0, params = {fn = "negf"}, coupling = [#fuel.coupling<node = 0, backend = cpu, delta_ns = 100>]>]> {
func.func @coupling(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %0 = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %1 = linalg.negf {fuel.coupling = [
         #fuel.coupling<on = cuda:0, node = 0, backend = cpu, delta_ns = 100>,
         #fuel.coupling<on = cpu, node = 0, device = cuda:0, delta_ns = -7>]}
       ins(%0 : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// -----

// Tests that a host op between two nodes is left alone and both nodes get
// candidates on both devices; the coupling-free nodes share one set.

// CHECK-LABEL: func.func @host_op
// CHECK: fuel.node 0 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.generated.elementwise_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.elementwise_f32"{{[^#]*}}]> {
// CHECK: call @opaque
// CHECK: fuel.node 1 elementwise
// CHECK-SAME: [#fuel.candidate<"cpu.generated.elementwise_f32"{{[^#]*}}#fuel.candidate<"cuda.generated.elementwise_f32"{{[^#]*}}]> {
func.func private @opaque(tensor<1024xf32>) -> tensor<1024xf32>
func.func @host_op(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %0 = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %1 = func.call @opaque(%0) : (tensor<1024xf32>) -> tensor<1024xf32>
  %2 = linalg.exp ins(%1 : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %2 : tensor<1024xf32>
}

// -----

// Tests that re-enumerating replaces earlier candidates (a stale priced one
// here) and drops an earlier placement.

// CHECK-LABEL: func.func @rebuild
// CHECK-NOT: time_ns = 7
// CHECK: fuel.node 0 elementwise
// CHECK-NOT: on cuda:0
// CHECK-SAME: alternatives
// CHECK-SAME: [#fuel.candidate<"cpu.generated.elementwise_f32"{{[^#]*}}time_ns = 0 static{{[^#]*}}#fuel.candidate<"cuda.generated.elementwise_f32"{{[^#]*}}]> {
func.func @rebuild(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = fuel.node 0 elementwise (%a) : (tensor<1024xf32>) -> tensor<1024xf32>
      on cuda:0
      alternatives #fuel.alternatives<
        decision = <op = elementwise, dtype = f32, size_class = 0x00000a, device = cpu>,
        [#fuel.candidate<"cuda.generated.elementwise_f32", source = "generated", device = cuda:0,
           precision = unaudited,
           cost = <flops = 1, bytes = 2, overhead_ns = 0>, time_ns = 7 static>]> {
  ^bb0(%x: tensor<1024xf32>):
    %e = tensor.empty() : tensor<1024xf32>
    %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    fuel.yield %r : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}
