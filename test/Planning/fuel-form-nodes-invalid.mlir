// RUN: fuel-opt %s --split-input-file -verify-diagnostics --fuel-form-nodes

// Tests that a function with several blocks is rejected.

func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  // expected-error @+1 {{function 'blocks' has several blocks; fuel plans single-block functions only}}
  return %x : tensor<4xf32>
}

// -----

// Tests that an op with nested regions that is not kernel-bearing is
// rejected.

func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' has nested regions; fuel plans functions without control flow only}}
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that a dynamically shaped tensor argument is rejected.

// expected-error @+1 {{argument #1 of function 'dynamic_argument' has dynamic shape 'tensor<?x4xf32>'; fuel plans static shapes only}}
func.func @dynamic_argument(%x: tensor<4xf32>, %y: tensor<?x4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Tests that an unranked tensor argument is rejected.

// expected-error @+1 {{argument #0 of function 'unranked' has dynamic shape 'tensor<*xf32>'}}
func.func @unranked(%x: tensor<*xf32>) {
  return
}

// -----

// Tests that an op with a dynamically shaped result is rejected.

func.func @dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{result of type 'tensor<?xf32>' has a dynamic shape; fuel plans static shapes only}}
  %c = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  return %c : tensor<?xf32>
}

// -----

// Tests that the first op producing a dynamic shape is the one reported,
// here the init of a kernel-bearing op.

func.func @dynamic_init(%s: f32, %n: index) -> tensor<?xf32> {
  // expected-error @+1 {{result of type 'tensor<?xf32>' has a dynamic shape}}
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}

// -----

// Tests that a linalg op on memrefs is rejected.

func.func @buffers(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error @+1 {{'linalg.exp' works on buffers; fuel plans linalg ops on tensors only}}
  linalg.exp ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

// Tests that linalg.softmax, which has no region, is rejected on memrefs too.

func.func @softmax_buffers(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  // expected-error @+1 {{'linalg.softmax' works on buffers; fuel plans linalg ops on tensors only}}
  linalg.softmax dimension(1) ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>)
  return
}

// -----

// Tests that `fuel.kernel` on an op that does not become a node (here a
// host op) is an error rather than silently ignored.

func.func @kernel_on_host_op(%x: tensor<4xf32>, %y: tensor<2xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'fuel.kernel' on 'tensor.concat', which is not a kernel-bearing op; only nodes choose among registry kernels}}
  %c = tensor.concat dim(0) %x, %y {fuel.kernel = "cpu.generated.generic_f32"}
      : (tensor<4xf32>, tensor<2xf32>) -> tensor<6xf32>
  return %c : tensor<6xf32>
}
