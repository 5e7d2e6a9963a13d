// RUN: %python %S/../../bench/planning-scale/gen_model.py --shape transformer --ops 300 --seed 3 -o %t.tf.mlir 2>/dev/null
// RUN: fuel-opt %t.tf.mlir --fuel-plan="topology=%topologies/cpu-cuda-vulkan.json" -o %t.tf.1.mlir
// RUN: fuel-opt %t.tf.1.mlir --fuel-plan="topology=%topologies/cpu-cuda-vulkan.json" -o %t.tf.2.mlir
// RUN: diff %t.tf.1.mlir %t.tf.2.mlir
// RUN: FileCheck %s < %t.tf.1.mlir
// RUN: fuel-opt %t.tf.mlir -mlir-disable-threading --fuel-plan="topology=%topologies/cpu-cuda-vulkan.json export-plan=%t.tf.st.json" -o %t.tf.st.mlir
// RUN: fuel-opt %t.tf.mlir --fuel-plan="topology=%topologies/cpu-cuda-vulkan.json export-plan=%t.tf.mt.json" -o /dev/null
// RUN: diff %t.tf.1.mlir %t.tf.st.mlir
// RUN: diff %t.tf.st.json %t.tf.mt.json
// RUN: %python %S/../../bench/planning-scale/gen_model.py --shape convnet --ops 300 --seed 5 -o %t.cn.mlir 2>/dev/null
// RUN: fuel-opt %t.cn.mlir --fuel-plan="topology=%topologies/cpu-2cuda.json" -o %t.cn.1.mlir
// RUN: fuel-opt %t.cn.1.mlir --fuel-plan="topology=%topologies/cpu-2cuda.json" -o %t.cn.2.mlir
// RUN: diff %t.cn.1.mlir %t.cn.2.mlir
// RUN: FileCheck %s < %t.cn.1.mlir

// Tests the whole pipeline on generated model-shaped programs (a transformer
// on three devices, a conv net on a host and two GPUs without a peer link):
// it succeeds — fuel-insert-residency-copies fails the run if the copies it
// inserts cost anything but what fuel-place charged (SEMANTICS §8) — and
// planning the planned program again changes nothing, and the IR and the
// exported plan are the same with and without threads.

// CHECK: fuel.predicted_ns = #fuel.predicted<total =
// CHECK: fuel.node 0 {{[a-z_0-9]+}} ({{.*}}) : {{.*}} on {{(cpu|cuda:[01]|vulkan:0)}}
