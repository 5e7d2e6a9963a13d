// RUN: fuel-compile %S/Inputs/matmul.mlir --topology=probe --emit=planned -o - \
// RUN:   | FileCheck %s

// Tests that --topology=probe plans for this machine: the stamped topology
// is the probed one (the host first, named by what the probe saw), and the
// matmul is placed on one of its devices. Only the shape is checked: what
// the probe finds differs between machines.

// CHECK: #topology = #fuel.topology<hash = 0x{{[0-9a-f]+}}, devices = [<cpu, name = "{{.+}}"
// CHECK: fuel.node 0 matmul {{.*}} on {{cpu|cuda:[0-9]+|vulkan:[0-9]+}}
