// Tests every importer error: each names what is wrong (the node, the input,
// the tensor, the file) and none crashes.

// Every unsupported (op, opset, attribute), in one list with node names.
// RUN: %python %S/Inputs/onnx_models.py make unsupported %t.unsupported.onnx
// RUN: not fuel-import-onnx %t.unsupported.onnx 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: error: the model uses 5 unsupported ops (opset 17):
// LIST-NEXT: node 'topk_1' (TopK, opset 17): the op is not supported
// LIST-NEXT: node 'pool_with_indices' (MaxPool, opset 17): the Indices output is not supported
// LIST-NEXT: node 'conv_3d' (Conv, opset 17): only 1-D and 2-D convolutions are supported
// LIST-NEXT: node 'hardmax_2' (Hardmax, opset 17): the op is not supported
// LIST-NEXT: node 'bn_training' (BatchNormalization, opset 17): training_mode=1 is not supported (inference only)

// Opset 18 and above is refused, naming the opset and the ceiling.
// RUN: %python %S/Inputs/onnx_models.py make opset18 %t.opset18.onnx
// RUN: not fuel-import-onnx %t.opset18.onnx 2>&1 | FileCheck %s --check-prefix=OPSET
// OPSET: error: the model uses opset 18; fuel imports opset 17 and older

// A dynamic dimension names the input; --shape fixes it; a --shape that does
// not fit, or names no input, is an error.
// RUN: %python %S/Inputs/onnx_models.py make dynamic %t.dynamic.onnx
// RUN: not fuel-import-onnx %t.dynamic.onnx 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: input 'x' has a dynamic dimension 0 ('batch') in [?, 4]; fuel compiles static shapes only: fix it with --shape=x=D0xD1...
// RUN: fuel-import-onnx %t.dynamic.onnx --shape=x=3x4 | FileCheck %s --check-prefix=FIXED
// FIXED: func.func @main(%{{.*}}: tensor<3x4xf32> {onnx.name = "x"}) -> (tensor<3x4xf32> {onnx.name = "y"})
// RUN: not fuel-import-onnx %t.dynamic.onnx --shape=x=3x5 2>&1 | FileCheck %s --check-prefix=MISFIT
// MISFIT: error: --shape: [3, 5] does not fit input 'x' of shape [?, 4]
// RUN: not fuel-import-onnx %t.dynamic.onnx --shape=z=3 2>&1 | FileCheck %s --check-prefix=NOINPUT
// NOINPUT: error: --shape: 'z' is not an input of the graph
// RUN: not fuel-import-onnx %t.dynamic.onnx --shape=x=3xq 2>&1 | FileCheck %s --check-prefix=BADSHAPE
// BADSHAPE: error: --shape: 'x=3xq': 'q' is not a dimension
// fuel-compile reports the importer's errors the same way.
// RUN: not fuel-compile %t.dynamic.onnx -o %t.fuelx 2>&1 | FileCheck %s --check-prefix=DYNAMIC

// A name no node, input or initializer defines (the checker's message names
// it).
// RUN: %python %S/Inputs/onnx_models.py make bad-split %t.bad-split.onnx
// RUN: not fuel-import-onnx %t.bad-split.onnx 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: node 'split' (Split): split size 4611686018427387907 is outside dimension 0 (4)
// RUN: %python %S/Inputs/onnx_models.py make missing-initializer %t.missing.onnx
// RUN: not fuel-import-onnx %t.missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: the ONNX checker rejects the model: {{.*}}input 'w' of node

// External data: read from beside the model, refused outside its folder.
// RUN: rm -rf %t.ext && mkdir -p %t.ext/sub
// RUN: %python %S/Inputs/onnx_models.py make external-inside %t.ext/external-inside.onnx
// RUN: fuel-import-onnx %t.ext/external-inside.onnx | FileCheck %s --check-prefix=EXTERNAL
// EXTERNAL: dense_resource<w> : tensor<4xf32>
// EXTERNAL: w: "0x0400000000000000000080
// RUN: %python %S/Inputs/onnx_models.py make external-outside %t.ext/sub/external-outside.onnx
// RUN: cp %t.ext/w.bin %t.ext/outside.bin
// RUN: not fuel-import-onnx %t.ext/sub/external-outside.onnx 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: error: tensor 'w': external data '../outside.bin' is outside the model's folder
// RUN: %python %S/Inputs/onnx_models.py make external-absolute %t.ext/external-absolute.onnx
// RUN: not fuel-import-onnx %t.ext/external-absolute.onnx 2>&1 | FileCheck %s --check-prefix=ABSOLUTE
// ABSOLUTE: error: tensor 'w': external data '/etc/hostname' is outside the model's folder
// RUN: ln -sf /etc/hostname %t.ext/sub/w.bin
// RUN: %python %S/Inputs/onnx_models.py make external-inside %t.ext/sub/external-inside.onnx
// RUN: ln -sf /etc/hostname %t.ext/sub/w.bin
// RUN: not fuel-import-onnx %t.ext/sub/external-inside.onnx 2>&1 | FileCheck %s --check-prefix=SYMLINK
// SYMLINK: error: tensor 'w': external data 'w.bin' is outside the model's folder

// Malformed, truncated, empty and non-ONNX files.
// RUN: %python %S/Inputs/onnx_models.py make mlp %t.mlp.onnx
// RUN: head -c 200 %t.mlp.onnx > %t.truncated.onnx
// RUN: not fuel-import-onnx %t.truncated.onnx 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: printf '\377\377\377\377garbage' > %t.garbage.onnx
// RUN: not fuel-import-onnx %t.garbage.onnx 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: : > %t.empty.onnx
// RUN: not fuel-import-onnx %t.empty.onnx 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not fuel-import-onnx %s 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: error: {{not an ONNX model|the ONNX checker rejects}}
// RUN: not fuel-import-onnx %t.does-not-exist.onnx 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: cannot read the model: {{[Nn]}}o such file or directory

// An int64 input feeding a shape must be folded: without --fold-input it is
// reported, with it the input becomes a constant; a bad tensor file is named.
// RUN: %python %S/Inputs/onnx_models.py make fold-input %t.fold.onnx
// RUN: not fuel-import-onnx %t.fold.onnx 2>&1 | FileCheck %s --check-prefix=NOFOLD
// NOFOLD: node 'reshape' (Reshape, opset 17): the shape ('shape') must be an integer tensor known at import time
// RUN: not fuel-import-onnx %t.fold.onnx --fold-input=shape=%t.garbage.onnx 2>&1 | FileCheck %s --check-prefix=BADPB
// BADPB: error: --fold-input: '{{.*}}garbage.onnx' does not parse as a TensorProto
// RUN: not fuel-import-onnx %t.fold.onnx --fold-input=nothere=%t.garbage.onnx 2>&1 | FileCheck %s --check-prefix=FOLDNAME
// FOLDNAME: error: --fold-input: 'nothere' is not an input of the graph
