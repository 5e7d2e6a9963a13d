// Tests that fuel-topology prints a topology file that reads back to the same
// topology, that the attribute it prints is accepted by the dialect with the
// same hash, and that the default topology is a single host.

// RUN: fuel-topology %topologies/cpu-2cuda-peer.json > %t.json
// RUN: fuel-topology %t.json > %t.again.json
// RUN: diff %t.json %t.again.json
// RUN: cat %t.json | fuel-topology - | diff %t.json -

// RUN: fuel-topology %topologies/cpu-2cuda-peer.json --emit=hash > %t.hash
// RUN: fuel-topology %topologies/cpu-2cuda-peer.json --emit=attr > %t.attr
// RUN: echo 'module attributes {fuel.topology = ' > %t.mlir
// RUN: cat %t.attr >> %t.mlir
// RUN: echo '} {}' >> %t.mlir
// RUN: fuel-opt %t.mlir | FileCheck %s --check-prefix=ATTR
// RUN: FileCheck %s --check-prefix=HASH < %t.hash
// ATTR: #fuel.topology<hash = 0x{{[0-9a-f]+}}, devices = [<cpu, {{.*}}>, <cuda:0, {{.*}}>, <cuda:1, {{.*}}>], links = [{{.*}}<cuda:0 -> cuda:1, {{.*}}class = peer>
// HASH: 0x{{[0-9a-f]+}}

// RUN: fuel-topology | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: "version": 1
// DEFAULT: "device": "cpu"
// DEFAULT-NOT: "device": "cuda
// DEFAULT-NOT: "device": "vulkan

// RUN: not fuel-topology %S/Inputs/bad-syntax.json 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: bad-syntax.json:3:
// RUN: not fuel-topology %S/Inputs/bad-link.json 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: bad-link.json: error: $.links[0]
// RUN: not fuel-topology %S/Inputs/missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: missing.json
