// RUN: fuel-opt %s --split-input-file --verify-diagnostics

// Tests that the verifiers of `fuel.executable`, `fuel.library_kernel` and
// `fuel.dispatch` reject bad input at the offending op.

fuel.executable @cpu on cpu {
  // expected-error @+1 {{cannot be in a 'fuel.executable': it holds one 'builtin.module' of kernels and 'fuel.library_kernel' ops only}}
  func.func @k() { return }
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {}
  // expected-error @+1 {{is a second kernel module of executable @cpu; an executable holds at most one}}
  builtin.module {}
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    // expected-error @+1 {{kernel name @k is also a 'fuel.library_kernel' of executable @cpu}}
    func.func @k() { return }
  }
  fuel.library_kernel @k "cpu.openblas.matmul_f32" shim "openblas" entry "e" grid [1, 1, 1] params [] workspace 0 revision 0
}

// -----

fuel.executable @cpu on cpu {
  // expected-error @+1 {{grid has 2 entries; it needs 3 (x, y, z)}}
  fuel.library_kernel @k "cpu.openblas.matmul_f32" shim "openblas" entry "e" grid [1, 1] params [] workspace 0 revision 0
}

// -----

fuel.executable @cpu on cpu {
  // expected-error @+1 {{grid entry 0 is outside [1, 2^32)}}
  fuel.library_kernel @k "cpu.openblas.matmul_f32" shim "openblas" entry "e" grid [0, 1, 1] params [] workspace 0 revision 0
}

// -----

fuel.executable @cpu on cpu {
  // expected-error @+1 {{param 1 is 4294967296: params are 32-bit push constants, in [0, 2^32)}}
  fuel.library_kernel @k "cpu.openblas.matmul_f32" shim "openblas" entry "e" grid [1, 1, 1] params [1, 4294967296] workspace 0 revision 0
}

// -----

fuel.executable @cpu on cpu {
  // expected-error @+1 {{needs a kernel id, a shim and an entry}}
  fuel.library_kernel @k "" shim "openblas" entry "e" grid [1, 1, 1] params [] workspace 0 revision 0
}

// -----

fuel.executable @cpu on cpu {
  // expected-error @+1 {{workspace is negative (-1)}}
  fuel.library_kernel @k "cpu.openblas.matmul_f32" shim "openblas" entry "e" grid [1, 1, 1] params [] workspace -1 revision 0
}

// -----

// expected-error @+1 {{'fuel.library_kernel' op expects parent op 'fuel.executable'}}
fuel.library_kernel @k "cpu.openblas.matmul_f32" shim "openblas" entry "e" grid [1, 1, 1] params [] workspace 0 revision 0

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{names no 'fuel.executable' @cpu}}
  %0 = fuel.dispatch @cpu::@k (%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {}
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{executable @cpu has no kernel @k}}
  %0 = fuel.dispatch @cpu::@k (%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel @k must be @executable::@kernel}}
  %0 = fuel.dispatch @k (%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<4xf32>) { return }
  }
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel @cpu::@k has 1 bindings; the dispatch binds 2 (operands, then results)}}
  %0 = fuel.dispatch @cpu::@k (%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<4xf32>, %b: memref<5xf32>) { return }
  }
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{binding 1 of type 'tensor<4xf32>' does not match the kernel's argument 'memref<5xf32>'}}
  %0 = fuel.dispatch @cpu::@k (%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

fuel.executable @cpu on cpu {
  builtin.module {
    func.func @k(%a: memref<?xf32>, %b: memref<4xf32>) { return }
  }
}
func.func @f(%a: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand of type 'tensor<?xf32>' is no statically shaped ranked tensor: kernels bind static tensors only}}
  %0 = fuel.dispatch @cpu::@k (%a) : (tensor<?xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'fuel.workgroups' must be array<i64: x, y, z> with each in [1, 2^32), got array<i64: 4, 1>}}
func.func @k() attributes {fuel.workgroups = array<i64: 4, 1>} { return }

// -----

// expected-error @+1 {{'fuel.workspace_bytes' must be a non-negative integer, got -8 : i64}}
func.func @k() attributes {fuel.workspace_bytes = -8 : i64} { return }

// -----

// expected-error @+1 {{'fuel.kernel_id' must be a non-empty string, got 3 : i64}}
func.func @k() attributes {fuel.kernel_id = 3 : i64} { return }

// -----

func.func @f() {
  // expected-error @+1 {{'fuel.op_kind' belongs on a kernel function}}
  return {fuel.op_kind = "matmul"}
}

// -----

// The shared-memory schedule's records name the GPU target they were chosen
// for (docs/LOWERING.md, "GPU schedules").
// expected-error @+1 {{'fuel.gpu_matmul' must be a dictionary on a kernel function with 'target' = "vulkan" or "cuda", got {a = 0 : i64}}}
func.func @k() attributes {fuel.gpu_matmul = {a = 0 : i64}} { return }

// -----

// expected-error @+1 {{'fuel.gpu_conv2d' must be a dictionary on a kernel function with 'target' = "vulkan" or "cuda", got {target = "metal"}}}
func.func @k() attributes {fuel.gpu_conv2d = {target = "metal"}} { return }

// -----

// expected-error @+1 {{'fuel.gpu_schedule_note' must be a dictionary on a kernel function with 'target' = "vulkan" or "cuda" and 'reason', a string, got "per-element: old form"}}
func.func @k() attributes {fuel.gpu_schedule_note = "per-element: old form"} { return }
