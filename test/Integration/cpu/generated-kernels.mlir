// RUN: fuel-opt %s --fuel-apply-schedules --fuel-bufferize-kernels --fuel-plan-buffers --convert-fuel-to-llvm --fuel-serialize-executable=output=%t.fuelx -o /dev/null
// RUN: fuel-opt %s --fuel-apply-schedules --fuel-bufferize-kernels --fuel-plan-buffers --convert-fuel-to-llvm --fuel-serialize-executable=output=%t.again.fuelx -o /dev/null
// RUN: cmp %t.fuelx %t.again.fuelx
// RUN: fuel-run %t.fuelx --dump | FileCheck %s
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.a.npy 37x53 1
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.b.npy 53x29 2
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.x.npy 64x1024 3
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.c.npy 1024 4
// RUN: fuel-run %t.fuelx --input=@%t.a.npy --input=@%t.b.npy --input=@%t.x.npy --input=@%t.c.npy --output=@%t.m.npy --output=@%t.y.npy --output=@%t.z.npy
// RUN: /usr/bin/python3 %s.py %t
// RUN: fuel-opt %s --fuel-apply-schedules="target-cpu=x86-64 target-triple=x86_64-unknown-linux-gnu" --fuel-bufferize-kernels --fuel-plan-buffers --convert-fuel-to-llvm --fuel-serialize-executable=output=%t.generic.fuelx -o /dev/null
// RUN: fuel-run %t.generic.fuelx --dump | FileCheck %s --check-prefix=GENERIC
// RUN: fuel-run %t.generic.fuelx --input=@%t.a.npy --input=@%t.b.npy --input=@%t.x.npy --input=@%t.c.npy --output=@%t.m.npy --output=@%t.y.npy --output=@%t.z.npy
// RUN: /usr/bin/python3 %s.py %t

// Tests generated kernels through the whole lowering after outlining, for
// the compiling host: a prime-shaped matmul and a bias + relu chain are
// scheduled, bufferized, put in a host program, lowered to the LLVM dialect
// and compiled into one shared object; the file is byte-identical when
// compiled twice, its dump names each kernel, and the results of a run match
// numpy (generated-kernels.mlir.py: rtol 1e-4 for the matmul, exact for the
// relu chain, which adds each bias once). The relu result also feeds a
// second relu through the arena. Compiled for a generic x86-64 instead, the
// executable records the target the schedules were applied for.

#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (d1)>
fuel.executable @cpu on cpu {
  builtin.module {
    func.func @matmul_0(%a: memref<37x53xf32>, %b: memref<53x29xf32>, %c: memref<37x29xf32>)
        attributes {fuel.kernel_id = "cpu.generated.matmul_f32", fuel.op_kind = "matmul",
                    fuel.revision = 1 : i64, fuel.schedule = "kernels/schedules/cpu/matmul.mlir"} {
      %at = bufferization.to_tensor %a restrict : memref<37x53xf32> to tensor<37x53xf32>
      %bt = bufferization.to_tensor %b restrict : memref<53x29xf32> to tensor<53x29xf32>
      %e = tensor.empty() : tensor<37x29xf32>
      %z = arith.constant 0.0 : f32
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
      %r = linalg.matmul ins(%at, %bt : tensor<37x53xf32>, tensor<53x29xf32>) outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
      bufferization.materialize_in_destination %r in restrict writable %c : (tensor<37x29xf32>, memref<37x29xf32>) -> ()
      return
    }
    func.func @elementwise_1(%a: memref<64x1024xf32>, %b: memref<1024xf32>, %c: memref<64x1024xf32>)
        attributes {fuel.kernel_id = "cpu.generated.elementwise_f32", fuel.op_kind = "elementwise",
                    fuel.revision = 2 : i64, fuel.schedule = "kernels/schedules/cpu/elementwise.mlir"} {
      %at = bufferization.to_tensor %a restrict : memref<64x1024xf32> to tensor<64x1024xf32>
      %bt = bufferization.to_tensor %b restrict : memref<1024xf32> to tensor<1024xf32>
      %e = tensor.empty() : tensor<64x1024xf32>
      %s = linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
          ins(%at, %bt : tensor<64x1024xf32>, tensor<1024xf32>) outs(%e : tensor<64x1024xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %v = arith.addf %x, %y : f32
        linalg.yield %v : f32
      } -> tensor<64x1024xf32>
      %e2 = tensor.empty() : tensor<64x1024xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%s : tensor<64x1024xf32>) outs(%e2 : tensor<64x1024xf32>) {
      ^bb0(%x: f32, %o: f32):
        %z = arith.constant 0.0 : f32
        %v = arith.maximumf %x, %z : f32
        linalg.yield %v : f32
      } -> tensor<64x1024xf32>
      bufferization.materialize_in_destination %r in restrict writable %c : (tensor<64x1024xf32>, memref<64x1024xf32>) -> ()
      return
    }
  }
}

func.func @f(%a: tensor<37x53xf32>, %b: tensor<53x29xf32>, %x: tensor<64x1024xf32>, %c: tensor<1024xf32>)
    -> (tensor<37x29xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>) {
  %m = fuel.dispatch @cpu::@matmul_0 (%a, %b) {node = 0 : i64, predicted_ns = 5000 : i64} : (tensor<37x53xf32>, tensor<53x29xf32>) -> tensor<37x29xf32>
  %y = fuel.dispatch @cpu::@elementwise_1 (%x, %c) {node = 1 : i64, predicted_ns = 6000 : i64} : (tensor<64x1024xf32>, tensor<1024xf32>) -> tensor<64x1024xf32>
  %t = fuel.dispatch @cpu::@elementwise_1 (%y, %c) {node = 2 : i64, predicted_ns = 6000 : i64} : (tensor<64x1024xf32>, tensor<1024xf32>) -> tensor<64x1024xf32>
  %z = fuel.dispatch @cpu::@elementwise_1 (%t, %c) {node = 3 : i64, predicted_ns = 6000 : i64} : (tensor<64x1024xf32>, tensor<1024xf32>) -> tensor<64x1024xf32>
  return %m, %y, %z : tensor<37x29xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>
}

// CHECK: cpu_target "x86_64-{{.*}}" "{{.+}}"
// GENERIC: cpu_target "x86_64-unknown-linux-gnu" "x86-64" +cmov +cx8 +fpu +fxsr +lm +mmx +nopl +sse +sse2{{$}}
// CHECK: modules 1
// CHECK-NEXT: [0] cpu elf {{[0-9]+}} bytes, 2 kernels
// CHECK-NEXT: kernel [0] "matmul_0" workspace 0
// CHECK-NEXT: kernel [1] "elementwise_1" workspace 0
// CHECK: buffers 8
// CHECK: [7] cpu arena offset 0 size 262144
// CHECK: commands 4
// CHECK-NEXT: [0] dispatch module 0 kernel 0 {{.*}}| node 0 "matmul" "cpu.generated.matmul_f32" "generated" revision 0x0000000000000001 predicted 5000 ns
// CHECK-NEXT: [1] dispatch module 0 kernel 1 {{.*}}| node 1 "elementwise" "cpu.generated.elementwise_f32" "generated" revision 0x0000000000000002 predicted 6000 ns
// CHECK-NEXT: [2] dispatch module 0 kernel 1 {{.*}} after [1] | node 2
// CHECK-NEXT: [3] dispatch module 0 kernel 1 {{.*}} after [2] | node 3
