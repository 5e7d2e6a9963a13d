#!/usr/bin/python3
"""Checks fuel's library layering on the link graph CMake has.

usage: check-layering.py GRAPH      (the file cmake/FuelLayering.cmake wrote)
       check-layering.py --self-test

The graph has one line per target: `NAME TYPE links=A;B mlir=C;D`, where
`links` are the target's link libraries and `mlir` the MLIR components its
object library names (the target itself links the one shared libMLIR.so).
Rules, each over a target's transitive link closure through fuel's own
targets:

- planning (MLIRFuelPlanning) and the CPU target (MLIRFuelCpuTarget) link
  no code generation, conversion or lowering library, no runtime library
  and no lld, and their MLIR components name no SPIR-V and no LLVM-IR
  export (translation to LLVM IR, MLIRTargetLLVM*);
- code generation (MLIRFuelCodegen*) links no planning, conversion or
  lowering library; the conversions (MLIRFuelTo*) no planning or lowering
  library; nothing below lowering links the runtime's executable writer;
- fuel-profile-db links no code generation, conversion or lowering library;
- the drivers' loader (FuelRtDrivers: each GPU driver's entry-point table
  and the dlopen behind it, shared by the devices and the probe) links no
  fuel library at all, and the probe (FuelProbe) no runtime library but
  it, so that the compiler's use of the probe reaches nothing else of the
  runtime;
- fuel's libraries form no cycle; every library the rules name exists.

Exit 0 when every rule holds, 1 with one line per violation otherwise.
"""

import os
import re
import sys
import tempfile

PHASES = {
    "cpu-target": ["MLIRFuelCpuTarget"],
    "planning": ["MLIRFuelPlanning"],
    "codegen": ["MLIRFuelCodegenCPU", "MLIRFuelCodegenGPU", "MLIRFuelCodegen"],
    "conversion": ["MLIRFuelToLLVM", "MLIRFuelToSPIRV", "MLIRFuelToNVVM"],
    "lowering": ["MLIRFuelLowering"],
    "drivers": ["FuelRtDrivers"],
    "probe": ["FuelProbe"],
}

CODEGEN = re.compile(r"^MLIRFuelCodegen")
CONVERSION = re.compile(r"^MLIRFuelTo")
LOWERING = re.compile(r"^MLIRFuelLowering$")
PLANNING = re.compile(r"^MLIRFuelPlanning$")
# The runtime, but for the drivers' loader, which sits below the probe.
RUNTIME = re.compile(r"^(fuelrt|FuelRt(?!Drivers$)\w*)$")
ANY = re.compile(r"")
LLD = re.compile(r"(^|::)lld", re.IGNORECASE)
# MLIR components that generate target code: SPIR-V, LLVM IR export.
TARGET_CODE_MLIR = re.compile(
    r"SPIRV|LLVMIRExport|ToLLVMIRTranslation|^MLIRTargetLLVM")

# (phase, forbidden fuel targets, forbid lld, forbid target-code MLIR)
RULES = [
    ("cpu-target", [PLANNING, CODEGEN, CONVERSION, LOWERING, RUNTIME], True,
     True),
    ("planning", [CODEGEN, CONVERSION, LOWERING, RUNTIME], True, True),
    ("codegen", [PLANNING, CONVERSION, LOWERING, RUNTIME], False, False),
    ("conversion", [PLANNING, LOWERING, RUNTIME], False, False),
    ("drivers", [ANY], False, False),
    ("probe", [RUNTIME], False, False),
]
TOOL_RULES = [("fuel-profile-db", [CODEGEN, CONVERSION, LOWERING])]

GENEX = re.compile(r"\$<(?:LINK_ONLY|BUILD_INTERFACE):([^>]*)>")


def split(text):
    out = []
    for item in text.split(";"):
        item = GENEX.sub(r"\1", item.strip())
        if item and not item.startswith("$<") and not item.startswith("-"):
            out.append(item)
    return out


def parse(path):
    graph = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            m = re.fullmatch(r"(\S+) (\S+) links=(.*) mlir=(.*)", line)
            if not m:
                raise SystemExit(f"{path}:{number}: malformed line: {line!r}")
            name, kind, links, mlir = m.groups()
            graph[name] = {"type": kind, "links": split(links),
                           "mlir": split(mlir)}
    return graph


def closure(graph, root):
    """Fuel targets reachable from root (root included), in DFS order."""
    seen, stack = [], [root]
    while stack:
        t = stack.pop()
        if t in seen:
            continue
        seen.append(t)
        for dep in graph[t]["links"]:
            if dep in graph:
                stack.append(dep)
    return seen


def external(graph, targets):
    """Link names outside fuel's own targets, and MLIR components."""
    names, mlir = set(), set()
    for t in targets:
        for dep in graph[t]["links"]:
            if dep not in graph:
                names.add(dep)
                if dep.startswith("MLIR"):
                    mlir.add(dep)
        mlir.update(graph[t]["mlir"])
    return names, mlir


def cycles(graph):
    """One message per cycle found among fuel's libraries."""
    out, state = [], {}

    def visit(t, path):
        state[t] = 1
        for dep in graph[t]["links"]:
            if dep not in graph:
                continue
            if state.get(dep) == 1:
                loop = path[path.index(dep):] + [dep]
                out.append("link cycle: " + " -> ".join(loop))
            elif dep not in state:
                visit(dep, path + [dep])
        state[t] = 2

    for t in sorted(graph):
        if t not in state:
            visit(t, [t])
    return out


def check(graph):
    errors = []
    for phase, names in PHASES.items():
        for name in names:
            if name not in graph:
                errors.append(f"{phase}: library {name} is not in the graph")
    checks = [(phase, PHASES[phase], forbid, lld, code)
              for phase, forbid, lld, code in RULES]
    checks += [(tool, [tool], forbid, False, False)
               for tool, forbid in TOOL_RULES]
    for phase, names, forbid, no_lld, no_code in checks:
        for name in names:
            if name not in graph:
                if phase not in PHASES:
                    errors.append(f"{phase}: target {name} is not in the graph")
                continue
            reach = closure(graph, name)
            for t in reach[1:]:
                if any(rx.search(t) for rx in forbid):
                    errors.append(f"{phase}: {name} links {t}")
            ext, mlir = external(graph, reach)
            if no_lld:
                for dep in sorted(ext):
                    if LLD.search(dep):
                        errors.append(f"{phase}: {name} links {dep}")
            if no_code:
                for comp in sorted(mlir):
                    if TARGET_CODE_MLIR.search(comp):
                        errors.append(
                            f"{phase}: {name} links MLIR component {comp}")
    errors += cycles(graph)
    return errors


SELF_TEST_GRAPH = """\
MLIRFuelDialect STATIC_LIBRARY links=MLIR mlir=MLIRIR
MLIRFuelCpuTarget STATIC_LIBRARY links=MLIRFuelDialect;FuelProbe;LLVM mlir=MLIRIR
FuelProbe STATIC_LIBRARY links=$<LINK_ONLY:FuelRtDrivers> mlir=
FuelRtDrivers STATIC_LIBRARY links=dl;FuelRtPtx mlir=
FuelRtPtx STATIC_LIBRARY links= mlir=
MLIRFuelPlanning STATIC_LIBRARY links=MLIRFuelDialect;$<LINK_ONLY:MLIRFuelCodegenCPU> mlir=MLIRIR;MLIRSPIRVDialect
MLIRFuelCodegenCPU STATIC_LIBRARY links=MLIRFuelCpuTarget;Fuel::lldELF mlir=MLIRTargetLLVMIRExport
MLIRFuelCodegenGPU STATIC_LIBRARY links=MLIRFuelCodegenCPU mlir=MLIRGPUDialect
MLIRFuelCodegen STATIC_LIBRARY links=MLIRFuelCodegenGPU;MLIRFuelLowering mlir=
MLIRFuelToLLVM STATIC_LIBRARY links=MLIRFuelCodegenCPU mlir=
MLIRFuelToSPIRV STATIC_LIBRARY links=MLIRFuelCodegenGPU mlir=
MLIRFuelLowering STATIC_LIBRARY links=MLIRFuelCodegen;MLIRFuelPlanning;FuelRtExecutable mlir=
FuelRtExecutable STATIC_LIBRARY links= mlir=
fuel-profile-db EXECUTABLE links=MLIRFuelPlanning mlir=
"""

SELF_TEST_EXPECTED = [
    "conversion: library MLIRFuelToNVVM is not in the graph",
    "planning: MLIRFuelPlanning links MLIRFuelCodegenCPU",
    "planning: MLIRFuelPlanning links Fuel::lldELF",
    "planning: MLIRFuelPlanning links MLIR component MLIRSPIRVDialect",
    "planning: MLIRFuelPlanning links MLIR component MLIRTargetLLVMIRExport",
    "codegen: MLIRFuelCodegen links MLIRFuelLowering",
    "codegen: MLIRFuelCodegen links MLIRFuelPlanning",
    "codegen: MLIRFuelCodegen links FuelRtExecutable",
    "fuel-profile-db: fuel-profile-db links MLIRFuelCodegenCPU",
    "link cycle: MLIRFuelCodegen -> MLIRFuelLowering -> MLIRFuelCodegen",
    "drivers: FuelRtDrivers links FuelRtPtx",
    "probe: FuelProbe links FuelRtPtx",
    "cpu-target: MLIRFuelCpuTarget links FuelRtPtx",
]

# Edges the rules allow, which must not be reported: the probe's use of the
# drivers' loader, from planning and the CPU target too.
SELF_TEST_ALLOWED = [
    "probe: FuelProbe links FuelRtDrivers",
    "cpu-target: MLIRFuelCpuTarget links FuelRtDrivers",
    "planning: MLIRFuelPlanning links FuelRtDrivers",
]


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "graph.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(SELF_TEST_GRAPH)
        errors = check(parse(path))
    missing = [e for e in SELF_TEST_EXPECTED if e not in errors]
    wrong = [e for e in SELF_TEST_ALLOWED if e in errors]
    if wrong:
        print("check-layering self-test: allowed edges reported:")
        for e in wrong:
            print("  " + e)
        return 1
    if missing:
        print("check-layering self-test: violations not reported:")
        for e in missing:
            print("  " + e)
        print("reported:")
        for e in errors:
            print("  " + e)
        return 1
    print(f"check-layering self-test: {len(SELF_TEST_EXPECTED)} known "
          f"violations reported ({len(errors)} lines)")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    graph = parse(argv[1])
    errors = check(graph)
    for e in errors:
        print("fuel-layering: " + e)
    if errors:
        return 1
    checked = sum(len(v) for v in PHASES.values())
    print(f"fuel-layering: {len(graph)} targets, {checked} phase libraries, "
          "every rule holds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
