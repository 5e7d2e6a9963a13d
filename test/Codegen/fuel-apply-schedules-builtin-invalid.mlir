// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=znver3 target-triple=x86_64-unknown-linux-gnu" -verify-diagnostics

// Tests that a schedule that is not built into fuel is an error naming the
// kernel.

module {
  fuel.executable @cpu on cpu {
    builtin.module {
      // expected-error @+1 {{kernel @k (cpu.generated.matmul_f32): no schedule 'kernels/schedules/cpu/nonexistent.mlir' is built into fuel}}
      func.func @k(%c: memref<4xf32>) attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.schedule = "kernels/schedules/cpu/nonexistent.mlir"} {
        return
      }
    }
  }
}
