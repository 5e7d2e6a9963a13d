// A planned layer: a matmul placed on a Vulkan device, with the copies its
// placement needs and its ranked alternatives on every device it may use.
//
//   fuel-opt examples/layer.mlir
//
// parses, verifies (devices, candidates, the topology hash, node ids, copy
// endpoints) and prints it back with aliases for the large attributes.
module attributes {fuel.topology = #fuel.topology<devices = [
    <cpu, name = "host", cpu_type, peak = {f32 = 32.0}, bytes_per_ns = 20.0,
     dispatch_ns = 1000, memory = 17179869184, alignment = 64>,
    <vulkan:0, name = "gpu", peak = {f32 = 5000.0}, bytes_per_ns = 400.0,
     dispatch_ns = 5000, memory = 8589934592, alignment = 256>],
  links = [
    <cpu -> vulkan:0, bandwidth = 16000000000, latency_ns = 10000, class = "device-copy">,
    <vulkan:0 -> cpu, bandwidth = 16000000000, latency_ns = 10000, class = "device-copy">]>} {
func.func @layer(%x: tensor<64x256xf32> {fuel.residency = #fuel.device<cpu>},
                 %w: tensor<256x512xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<64x512xf32> {fuel.residency = #fuel.device<cpu>}) {
  %xv = fuel.copy %x : tensor<64x256xf32> from cpu to vulkan:0
  %wv = fuel.copy %w : tensor<256x512xf32> from cpu to vulkan:0
  %y = fuel.node 0 matmul (%xv, %wv)
      : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
      on vulkan:0
      alternatives #fuel.alternatives<
        decision = <op = matmul, dtype = f32, size_class = 0x0f0608, device = cpu>,
        [#fuel.candidate<"vulkan.generated.matmul_f32", source = "generated",
           device = vulkan:0, precision = unaudited,
           cost = <flops = 16777216, bytes = 720896, overhead_ns = 2000>,
           time_ns = 11355 static, host_bytes = 0, device_bytes = 720896,
           transfer_ns = 113500>,
         #fuel.candidate<"cpu.openblas.matmul_f32", source = "openblas",
           device = cpu, precision = unaudited,
           cost = <flops = 16777216, bytes = 720896, overhead_ns = 500>,
           time_ns = 656869 static, host_bytes = 720896, device_bytes = 0>,
         #fuel.candidate<"cpu.generated.matmul_f32", source = "generated",
           device = cpu, precision = deterministic,
           cost = <flops = 16777216, bytes = 720896, overhead_ns = 0>,
           time_ns = 1049577 static, host_bytes = 720896, device_bytes = 0>]> {
  ^bb0(%a: tensor<64x256xf32>, %b: tensor<256x512xf32>):
    %e = tensor.empty() : tensor<64x512xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
    %m = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x512xf32>)
                       outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
    fuel.yield %m : tensor<64x512xf32>
  }
  %yc = fuel.copy %y : tensor<64x512xf32> from vulkan:0 to cpu
  return %yc : tensor<64x512xf32>
}
}
