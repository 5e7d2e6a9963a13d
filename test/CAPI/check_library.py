#!/usr/bin/python3
"""Checks what libFuelCAPI.so exports and links.

  check_library.py LIB --nm llvm-nm --readelf llvm-readelf
      [--ninja NINJA --build-dir DIR --output lib/libFuelCAPI.so]

  * exported (nm -D --defined-only): the entry points of fuel-c/Compiler.h,
    the MLIR C API a frontend builds modules with (context, module, parse,
    print, dialect handles of func, arith, math, linalg, tensor and fuel),
    every symbol a C name starting with fuel or mlir, and no C++ symbol;
  * one copy of MLIR: MLIR's C++ (the MLIRContext constructor) is imported
    from libMLIR.so, not defined in the library, and DT_NEEDED names
    libMLIR.so and libfuelrt.so;
  * with --ninja (the linker command line, from ninja -t commands), no
    static MLIR C++ library (libMLIR*.a other than the C API's
    libMLIRCAPI*.a) is on it.
Exits 1 with every violation listed.
"""

import argparse
import re
import subprocess
import sys

FUEL_ENTRY_POINTS = [
    "fuelCompilerCApiVersion", "fuelCompileText", "fuelCompileModule",
    "fuelBufferData", "fuelBufferSize", "fuelBufferDestroy",
    "fuelRegisterCompilerDialects", "fuelRegisterCompilerPasses",
]
MLIR_C_API = [
    "mlirContextCreate", "mlirContextCreateWithRegistry", "mlirContextDestroy",
    "mlirDialectRegistryCreate", "mlirDialectRegistryDestroy",
    "mlirModuleCreateParse", "mlirModuleCreateEmpty", "mlirModuleGetOperation",
    "mlirOperationPrint", "mlirOperationCreate", "mlirBlockCreate",
    "mlirRankedTensorTypeGet", "mlirF32TypeGet", "mlirLocationUnknownGet",
    "mlirGetDialectHandle__func__", "mlirGetDialectHandle__arith__",
    "mlirGetDialectHandle__math__", "mlirGetDialectHandle__linalg__",
    "mlirGetDialectHandle__tensor__", "mlirGetDialectHandle__fuel__",
    "mlirDialectHandleRegisterDialect", "mlirLinalgFillBuiltinNamedOpRegion",
    "mlirPassManagerCreate", "mlirParsePassPipeline", "mlirPassManagerRunOnOp",
    "mlirCreateTransformsCanonicalizer", "mlirRegisterTransformsPasses",
]


def symbols(nm, lib, *flags):
    out = subprocess.run([nm, *flags, "--format=posix", lib], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lib")
    parser.add_argument("--nm", required=True)
    parser.add_argument("--readelf", required=True)
    parser.add_argument("--ninja")
    parser.add_argument("--build-dir")
    parser.add_argument("--output")
    args = parser.parse_args()
    problems = []

    exported = symbols(args.nm, args.lib, "-D", "--defined-only")
    for name in FUEL_ENTRY_POINTS + MLIR_C_API:
        if name not in exported:
            problems.append(f"not exported: {name}")
    cxx = sorted(s for s in exported if s.startswith("_Z"))
    if cxx:
        problems.append(f"{len(cxx)} C++ symbols exported, e.g. {cxx[:3]}")
    other = sorted(s for s in exported
                   if not re.match(r"(fuel|mlir)[A-Z_]", s) and
                   not s.startswith("_Z"))
    if other:
        problems.append(f"exported outside fuel*/mlir*: {other[:5]}")

    # The library's own symbol table (local symbols too) and its dynamic
    # one: a copy of MLIR's C++ would define MLIRContext there, and would
    # not import it (which a stripped library still shows).
    defined = symbols(args.nm, args.lib, "--defined-only") | exported
    undefined = symbols(args.nm, args.lib, "-D", "--undefined-only")
    context = re.compile(r"_ZN4mlir11MLIRContextC[12]E")
    if any(context.match(s) for s in defined):
        problems.append("MLIRContext's constructor is defined in the library: "
                        "a static copy of MLIR's C++ is linked in")
    if not any(context.match(s) for s in undefined):
        problems.append("MLIRContext's constructor is not imported")

    dynamic = subprocess.run([args.readelf, "-d", args.lib], check=True,
                             capture_output=True, text=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    for want in ("libMLIR.so", "libfuelrt.so"):
        if not any(n.startswith(want) for n in needed):
            problems.append(f"DT_NEEDED lacks {want}: {needed}")

    if args.ninja:
        # The last command that builds the library is its link.
        commands = subprocess.run(
            [args.ninja, "-C", args.build_dir, "-t", "commands", args.output],
            check=True, capture_output=True, text=True).stdout
        command = commands.strip().splitlines()[-1]
        # MLIR's static C++ libraries, by file or -l; fuel's own are
        # libMLIRFuel*.a.
        static = sorted(set(
            a or b for a, b in re.findall(r"lib(MLIR\w*)\.a\b|-l(MLIR\w*)", command)
            if not (a or b).startswith(("MLIRCAPI", "MLIRFuel"))))
        if static:
            problems.append(f"static MLIR C++ libraries on the link line: "
                            f"{static}")
        capi = sorted(set(re.findall(r"lib(MLIRCAPI\w*)\.a", command)))
        if not capi:
            problems.append("no MLIR C API archive on the link line")
        if not static:
            print(f"link line: MLIR C API archives {capi}; no other static "
                  f"MLIR")

    if problems:
        for p in problems:
            print(f"check_library: {p}")
        return 1
    print(f"check_library: {len(exported)} exported symbols, all fuel*/mlir*, "
          f"no C++; DT_NEEDED {needed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
