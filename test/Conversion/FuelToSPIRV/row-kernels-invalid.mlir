// RUN: fuel-opt %s --split-input-file --verify-diagnostics --convert-fuel-to-spirv

// Tests the errors of convert-fuel-to-spirv for kernels of the subgroup row
// schedule: a record whose shape does not match the kernel's bindings, and
// a workgroup size other than the record's subgroups; and the dialect's
// check of the record itself.

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (vulkan.generated.reduce_f32): its row kernel record (4 x 16) does not match its bindings, which must be f32 memrefs of 64 and 4 elements}}
    func.func @k(%a: memref<4x8xf32>, %b: memref<4xf32>) attributes {fuel.kernel_id = "vulkan.generated.reduce_f32", fuel.row_kernel = "sum", fuel.row_tiling = array<i64: 4, 16, 8, 2>, fuel.workgroup_size = array<i64: 16, 1, 1>, fuel.workgroups = array<i64: 4, 1, 1>} {
      return
    }
  }
}

// -----

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{kernel @k (vulkan.generated.softmax_f32): 'fuel.workgroup_size' must be [16, 1, 1], the row kernel's 2 subgroups of 8}}
    func.func @k(%a: memref<4x16xf32>, %b: memref<4x16xf32>) attributes {fuel.kernel_id = "vulkan.generated.softmax_f32", fuel.row_kernel = "softmax", fuel.row_tiling = array<i64: 4, 16, 8, 2>, fuel.workgroup_size = array<i64: 64, 1, 1>, fuel.workgroups = array<i64: 4, 1, 1>} {
      return
    }
  }
}

// -----

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{'fuel.row_kernel' must be "sum", "max", "min" or "softmax" on a kernel function, got "mean"}}
    func.func @k(%a: memref<4x16xf32>, %b: memref<4xf32>) attributes {fuel.row_kernel = "mean"} {
      return
    }
  }
}

// -----

fuel.executable @vulkan_0 on vulkan:0 {
  builtin.module {
    // expected-error @+1 {{'fuel.row_tiling' must be array<i64: rows, cols, subgroup size, subgroups> of positive values on a kernel function, got array<i64: 4, 16, 0, 2>}}
    func.func @k(%a: memref<4x16xf32>, %b: memref<4xf32>) attributes {fuel.row_tiling = array<i64: 4, 16, 0, 2>} {
      return
    }
  }
}
