// The tools' --help lists their own options, not the hundreds of LLVM
// backend flags that linking LLVM registers.
// RUN: fuel-topology --help | FileCheck %s --check-prefix=TOPO
// RUN: fuel-import-onnx --help | FileCheck %s --check-prefix=ONNX
// RUN: fuel-profile-db --help | FileCheck %s --check-prefix=PDB

// TOPO: fuel-topology options:
// TOPO: --emit=<value>
// TOPO-NOT: amdgpu

// ONNX: fuel-import-onnx options:
// ONNX: --fold-input=
// ONNX: --shape=
// ONNX-NOT: amdgpu

// PDB: fuel-profile-db options:
// PDB: --dump
// PDB: --time=
// PDB-NOT: amdgpu
