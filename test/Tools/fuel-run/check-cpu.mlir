// RUN: fuel-compile %S/../fuel-compile/Inputs/matmul-panels.mlir --topology=%topologies/cpu-generic.json \
// RUN:   --plan="kernel-sources=generated" -o %t.generic.fuelx
// RUN: fuel-run --check-cpu %t.generic.fuelx | FileCheck %s --check-prefix=RUNS
// RUN: fuel-compile %S/../fuel-compile/Inputs/matmul-panels.mlir --topology=%S/Inputs/no-such-cpu.json \
// RUN:   --plan="kernel-sources=generated" -o %t.none.fuelx
// RUN: fuel-run --dump %t.none.fuelx | FileCheck %s --check-prefix=DUMP
// RUN: %python %S/Inputs/exit-code.py 77 fuel-run --check-cpu %t.none.fuelx | FileCheck %s --check-prefix=LACKS
// RUN: %python %S/../../Integration/run-if-cpu.py %t.none.fuelx false | FileCheck %s --check-prefix=LACKS
// RUN: not %python %S/../../Integration/run-if-cpu.py %t.generic.fuelx false
// RUN: not fuel-run --check-cpu %t.missing.fuelx 2>&1 | FileCheck %s --check-prefix=MISSING

// Tests `fuel-run --check-cpu`, the one decision on whether this CPU can run
// an executable's code (the loader's own check of the flags it records):
// baseline x86-64 code runs everywhere (exit 0); code that needs both
// AVX-512 and FMA4, which no CPU has, does not (exit 77, naming what is
// missing) whatever this machine is; run-if-cpu.py then skips its command
// and passes, and runs it (here `false`, which fails) where the CPU can; a
// file that cannot load is an error (exit 1).

// RUNS: generic.fuelx: this CPU has every feature its code needs
// DUMP: cpu_target "{{[^"]*}}" "x86-64" {{.*}}+avx512f{{.*}}+fma4
// LACKS: cpu_target.features: this CPU lacks {{.*(avx512f|fma4)}}
// MISSING: fuel-run: error: {{.*}}missing.fuelx: cannot open
