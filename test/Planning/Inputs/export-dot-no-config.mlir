// A module with a topology but no `fuel.config`, for
// fuel-export-dot-invalid.mlir.
module attributes {fuel.topology = #fuel.topology<hash = 0x13e846a390964660, devices = [
    <cpu, name = "8-core x86-64 host, AVX2", cpu_type, peak = {f32 = 3.200000e+01, f64 = 1.600000e+01},
     bytes_per_ns = 2.000000e+01, dispatch_ns = 2000, memory = 34359738368, alignment = 64>],
  links = []>} {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}
