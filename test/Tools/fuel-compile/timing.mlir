// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   -o %t.fuelx --mlir-timing --mlir-timing-display=tree \
// RUN:   --mlir-disable-threading 2>&1 | FileCheck %s
// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=%topologies/cpu-only.json \
// RUN:   --emit=llvm -o /dev/null --mlir-timing --mlir-timing-display=tree 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMIT

// Tests that --mlir-timing times the whole compile: parsing, the planning
// and lowering passes, and serialization with its steps nested in it (the
// kernel modules with the object steps, the buffers and commands, the
// write), which are not passes; with --emit, the printing of the IR.

// CHECK: Execution time report
// CHECK: {{^ +[0-9.]+ +\([ 0-9.]+%\)  }}Parser
// CHECK: {{^ +[0-9.]+ +\([ 0-9.]+%\)  }}FuelAttachTopologyPass
// CHECK: {{^ +[0-9.]+ +\([ 0-9.]+%\)  }}FuelOutlineKernelsPass
// CHECK: {{^ +[0-9.]+ +\([ 0-9.]+%\)  }}FuelPlanBuffersPass
// CHECK: {{^ +[0-9.]+ +\([ 0-9.]+%\)  }}FuelSerializeExecutablePass
// CHECK-NEXT: {{^ +[0-9.]+ +\([ 0-9.]+%\)    }}kernel modules
// CHECK-NEXT: {{^ +[0-9.]+ +\([ 0-9.]+%\)      }}translate to LLVM IR
// CHECK-NEXT: {{^ +[0-9.]+ +\([ 0-9.]+%\)      }}LLVM O3
// CHECK-NEXT: {{^ +[0-9.]+ +\([ 0-9.]+%\)      }}LLVM code generation
// CHECK-NEXT: {{^ +[0-9.]+ +\([ 0-9.]+%\)      }}link
// CHECK-NEXT: {{^ +[0-9.]+ +\([ 0-9.]+%\)    }}buffers and commands
// CHECK-NEXT: {{^ +[0-9.]+ +\([ 0-9.]+%\)    }}write
// CHECK-NOT: FuelSerializeExecutablePass

// EMIT: {{^ +[0-9.]+ +\([ 0-9.]+%\)  }}Parser
// EMIT: ConvertFuelToLLVMPass
// EMIT: {{^ +[0-9.]+ +\([ 0-9.]+%\)  }}Output
// EMIT-NOT: FuelSerializeExecutablePass
