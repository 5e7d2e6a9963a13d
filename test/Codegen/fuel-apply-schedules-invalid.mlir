// RUN: fuel-opt %s --split-input-file --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu schedules-dir=%S/Inputs/schedules" -verify-diagnostics
// RUN: not fuel-opt %S/Inputs/schedule-errors.mlir --fuel-apply-schedules="target-cpu=skylake-avx512 target-triple=x86_64-unknown-linux-gnu schedules-dir=%S/Inputs/schedules" 2>&1 | FileCheck %s --check-prefix=AVX512
// RUN: not fuel-opt %S/Inputs/schedule-errors.mlir --fuel-apply-schedules="target-cpu=x86-64 target-triple=x86_64-unknown-linux-gnu schedules-dir=%S/Inputs/schedules" 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: not fuel-opt %S/Inputs/schedule-failing.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu schedules-dir=%S/Inputs/schedules" 2>&1 | FileCheck %s --check-prefix=FAILING
// RUN: not fuel-opt %S/Inputs/schedule-bad-pack.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu schedules-dir=%S/Inputs/schedules" 2>&1 | FileCheck %s --check-prefix=PACK
// RUN: not fuel-opt %S/Inputs/schedule-bad-pack-if.mlir --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu schedules-dir=%S/Inputs/schedules" 2>&1 | FileCheck %s --check-prefix=PACKIF
// RUN: not fuel-opt %S/Inputs/schedule-errors.mlir --fuel-apply-schedules="target-cpu=not-a-cpu target-triple=x86_64-unknown-linux-gnu" 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not fuel-opt %S/Inputs/schedule-errors.mlir --fuel-apply-schedules="target-cpu=znver3 target-features=+nonsense target-triple=x86_64-unknown-linux-gnu" 2>&1 | FileCheck %s --check-prefix=FEATURE

// AVX512: error: kernel @k (cpu.generated.matmul_f32): schedule 'kernels/schedules/cpu/broken.mlir' has no named sequence @avx512
// GENERIC: error: kernel @k (cpu.generated.matmul_f32): parameter 'extent(7)' names loop dimension 7 of a root op with 2
// FAILING: error: kernel @k (cpu.generated.matmul_f32): schedule 'kernels/schedules/cpu/failing.mlir' (@avx2) failed
// PACK: bad-pack.mlir:3:3: error: 'fuel.pack_b' must be a positive i64 on a transform.named_sequence, got 0 : i64
// PACK: error: kernel @k (cpu.generated.matmul_f32): schedule 'kernels/schedules/cpu/bad-pack.mlir' does not parse
// PACKIF: bad-pack-if.mlir:3:3: error: 'fuel.pack_b_if_constant' must be a unit attribute on a transform.named_sequence with 'fuel.pack_b'
// CPU: error: cpu target: LLVM knows no CPU 'not-a-cpu' for 'x86_64-unknown-linux-gnu'
// FEATURE: error: cpu target: '+nonsense' is no LLVM feature of the form +name or -name

// Tests that a schedule that cannot be read is an error naming the kernel.

module {
  fuel.executable @cpu on cpu {
    builtin.module {
      // expected-error-re @+1 {{kernel @k (cpu.generated.matmul_f32): cannot read schedule '{{.*}}nonexistent.mlir'}}
      func.func @k(%c: memref<4xf32>) attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.schedule = "kernels/schedules/cpu/nonexistent.mlir"} {
        return
      }
    }
  }
}

// -----

// Tests that a parameter of an unknown kind is an error naming the kernel.

module {
  fuel.executable @cpu on cpu {
    builtin.module {
      // expected-error @+1 {{kernel @k (cpu.generated.matmul_f32): unknown parameter kind 'bogus' (extent, divisor, chunk, split, rows, packed, panel_split)}}
      func.func @k(%a: memref<4x4xf32>, %c: memref<4x4xf32>) attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.schedule = "kernels/schedules/cpu/broken.mlir"} {
        %at = bufferization.to_tensor %a restrict : memref<4x4xf32> to tensor<4x4xf32>
        %e = tensor.empty() : tensor<4x4xf32>
        %r = linalg.copy ins(%at : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
        bufferization.materialize_in_destination %r in restrict writable %c : (tensor<4x4xf32>, memref<4x4xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a schedule fuel does not have built in is an error.

module {
  fuel.executable @cpu on cpu {
    builtin.module {
      // expected-error-re @+1 {{kernel @k (cpu.generated.matmul_f32): cannot read schedule '{{.*}}matmul-v9.mlir'}}
      func.func @k(%c: memref<4xf32>) attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.schedule = "kernels/schedules/cpu/matmul-v9.mlir"} {
        return
      }
    }
  }
}
