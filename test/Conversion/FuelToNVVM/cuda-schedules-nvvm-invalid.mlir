// RUN: fuel-opt %s --split-input-file --verify-diagnostics --convert-fuel-to-nvvm

// Tests convert-fuel-to-nvvm's errors for the fast schedules' records, at
// the kernel: a warp row kernel sized for another warp than the device's,
// a shared-memory matmul whose workgroup size is not its tiling's, one
// whose panels exceed the device's shared memory, and one whose record
// does not describe its bindings.

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.reduce_f32): its row kernel was sized for warps of 16 threads, but the device's subgroup_size is 32}}
    func.func @k(%a: memref<4x64xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "cuda.generated.reduce_f32", fuel.row_kernel = "sum", fuel.row_tiling = array<i64: 4, 64, 16, 4>, fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 4, 1, 1>} {
      return
    }
  }
}

// -----

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.matmul_f32): 'fuel.workgroup_size' must be [32, 16, 1], the invocations of its matmul tiling}}
    func.func @k(%a: memref<64x64xf32>, %b: memref<64x128xf32>, %c: memref<64x128xf32>) attributes {fuel.kernel_id = "cuda.generated.matmul_f32", fuel.gpu_matmul = {target = "cuda", a = 0 : i64, b = 1 : i64, c = 2 : i64, batch = 1 : i64, m = 64 : i64, n = 128 : i64, k = 64 : i64, tile = array<i64: 64, 128, 64>, block = array<i64: 4, 4>, init = 0.0 : f32}, fuel.workgroup_size = array<i64: 256, 1, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      return
    }
  }
}

// -----

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.matmul_f32): its matmul panels take 98304 bytes of workgroup memory, more than the device's shared_memory_bytes (49152)}}
    func.func @k(%a: memref<64x128xf32>, %b: memref<128x128xf32>, %c: memref<64x128xf32>) attributes {fuel.kernel_id = "cuda.generated.matmul_f32", fuel.gpu_matmul = {target = "cuda", a = 0 : i64, b = 1 : i64, c = 2 : i64, batch = 1 : i64, m = 64 : i64, n = 128 : i64, k = 128 : i64, tile = array<i64: 64, 128, 128>, block = array<i64: 4, 4>, init = 0.0 : f32}, fuel.workgroup_size = array<i64: 32, 16, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      return
    }
  }
}

// -----

fuel.executable @cuda_0 on cuda:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (cuda.generated.matmul_f32): binding #1 (B) has type 'memref<64x64xf32>', not the f32 operand of shape [64, 128] that 'fuel.gpu_matmul' describes}}
    func.func @k(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x128xf32>) attributes {fuel.kernel_id = "cuda.generated.matmul_f32", fuel.gpu_matmul = {target = "cuda", a = 0 : i64, b = 1 : i64, c = 2 : i64, batch = 1 : i64, m = 64 : i64, n = 128 : i64, k = 64 : i64, tile = array<i64: 64, 128, 64>, block = array<i64: 4, 4>, init = 0.0 : f32}, fuel.workgroup_size = array<i64: 32, 16, 1>, fuel.workgroups = array<i64: 1, 1, 1>} {
      return
    }
  }
}
