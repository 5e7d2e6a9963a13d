// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuel-judge --calibrate-links --topology=%topologies/cpu-lavapipe.json \
// RUN:   --db=%t/p.db --emit-topology=%t/measured.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOG
// RUN: fuel-topology %t/measured.json | FileCheck %s --check-prefix=TOPO
// RUN: /usr/bin/python3 %S/Inputs/check_calibrated.py %t/measured.json %t/p.db \
// RUN:   %topologies/cpu-lavapipe.json | FileCheck %s --check-prefix=CHECK-PY
// RUN: fuel-opt %S/Inputs/small.mlir \
// RUN:   --fuel-plan="topology=%t/measured.json" | FileCheck %s --check-prefix=PLAN

// Tests link calibration on cpu + lavapipe: copies both ways and within
// vulkan:0 at 64 KiB, 4 MiB and 64 MiB, fitted, stored in the database, and
// written with each device's streaming bandwidth and dispatch overhead into
// a topology that fuel-topology reads back and fuel-plan plans with.

// LOG: fuel-judge: cpu->vulkan:0: 64 KiB {{[0-9]+}} ns 4 MiB {{[0-9]+}} ns 64 MiB {{[0-9]+}} ns, fit latency
// LOG: fuel-judge: vulkan:0->cpu: 64 KiB
// LOG: fuel-judge: vulkan:0 streaming
// LOG: fuel-judge: vulkan:0 dispatch overhead {{[0-9]+}} ns

// TOPO: "device": "vulkan:0"
// TOPO: "links": [
// TOPO: "from": "cpu",
// TOPO-NEXT: "to": "vulkan:0",
// TOPO-NEXT: "path_class": "shared-memory",
// TOPO-NEXT: "bandwidth_bytes_per_s": {{[0-9]+}},
// TOPO-NEXT: "latency_ns": {{[0-9]+}}

// CHECK-PY: calibrated topology ok: 2 links measured, 2 in the database

// PLAN: fuel.node
