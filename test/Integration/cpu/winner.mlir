// REQUIRES: pass-fuel-outline-kernels
// RUN: fuel-opt %s --fuel-plan="topology=%topologies/cpu-only.json export-plan=%t.plan.json" \
// RUN:   | fuel-opt --fuel-outline-kernels --fuel-plan-buffers --fuel-serialize-executable=output=%t.fuelx -o /dev/null
// RUN: fuel-run %t.fuelx --dump > %t.dump
// RUN: /usr/bin/python3 %S/Inputs/check-winners.py %t.plan.json %t.dump
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.a.npy 64x128 1
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.b.npy 128x96 2
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.c.npy 8x32x16 3
// RUN: /usr/bin/python3 %S/Inputs/npy.py write %t.d.npy 8x16x24 4
// RUN: fuel-run %t.fuelx --input=@%t.a.npy --input=@%t.b.npy --input=@%t.c.npy --input=@%t.d.npy --output=@%t.m.npy --output=@%t.n.npy
// RUN: /usr/bin/python3 %s.py %t

// Tests that the kernel that runs is the winner: a matmul and a batch matmul
// are planned for a cpu-only machine (vendor-library winners), lowered and
// serialized, and every dispatch of the executable (`fuel-run --dump`) names
// exactly its plan node's winner, kernel id, source and revision
// (Inputs/check-winners.py); the results match numpy (winner.mlir.py,
// rtol 1e-4).

func.func @mm(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %c: tensor<8x32x16xf32>, %d: tensor<8x16x24xf32>) -> (tensor<64x96xf32>, tensor<8x32x24xf32>) {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x96xf32>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  %e2 = tensor.empty() : tensor<8x32x24xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x32x24xf32>) -> tensor<8x32x24xf32>
  %n = linalg.batch_matmul ins(%c, %d : tensor<8x32x16xf32>, tensor<8x16x24xf32>) outs(%f2 : tensor<8x32x24xf32>) -> tensor<8x32x24xf32>
  return %m, %n : tensor<64x96xf32>, tensor<8x32x24xf32>
}
