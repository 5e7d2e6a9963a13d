"""Tests of fuel's install rules and CMake package, driven by ctest.

Usage: install_test.py STEP [--option=value ...]

Steps (test/Install/CMakeLists.txt registers them, with CMake's paths):

  prefix      installs the build tree into WORK/staged (cmake --install),
              moves it to WORK/prefix (relocation), checks the layout, that
              no installed file names the build or the source directory, and
              that the installed tools run from the moved prefix (a matmul
              on the OpenBLAS shim beside the moved libfuelrt.so, checked
              against numpy).
  embed       configures examples/embed against WORK/prefix with only
              CMAKE_PREFIX_PATH (and the build's compiler), builds it and
              runs it: its result must match its own reference.
  runtime-c   compiles examples/runtime-c/vadd.mlir with the installed
              fuel-compile (or takes --executable), configures and builds the
              C consumer of Fuel::Runtime, checks that no MLIR or LLVM path,
              library or definition reaches its compile or link commands and
              that MLIR_DIR and LLVM_DIR are absent from its cache, and runs
              it.
  capi        builds test/Install/capi-consumer, a C consumer of Fuel::CAPI
              and Fuel::Runtime, against WORK/prefix and runs it on
              examples/runtime-c/vadd.mlir.
  components  configures small projects asking the package for components:
              an unknown one, a too-new version, and (where the build had no
              compiler) Compiler, each failing with its reason.

Every step works in WORK (a directory of the build tree); nothing outside it
is written.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)
    return cond


def run(cmd, cwd=None, env=None, expect_ok=True):
    """Runs `cmd`, echoing it; returns the CompletedProcess."""
    print("+ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if expect_ok and p.returncode != 0:
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        sys.exit("command failed with exit status %d: %s" % (p.returncode, cmd[0]))
    return p


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def consumer_cache_args(args):
    """The compiler (and launcher, linker) of the build, for a consumer."""
    out = ["-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"]
    if args.c_compiler:
        out.append("-DCMAKE_C_COMPILER=" + args.c_compiler)
    if args.cxx_compiler:
        out.append("-DCMAKE_CXX_COMPILER=" + args.cxx_compiler)
    if args.launcher:
        out += ["-DCMAKE_C_COMPILER_LAUNCHER=" + args.launcher,
                "-DCMAKE_CXX_COMPILER_LAUNCHER=" + args.launcher]
    link = []
    if args.linker:
        link.append("-fuse-ld=" + args.linker)
    # An instrumented tree (FUEL_SANITIZERS): its libraries need the
    # sanitizer runtime, which only the executable links.
    if args.sanitize:
        link.append("-fsanitize=" + args.sanitize)
    if link:
        out.append("-DCMAKE_EXE_LINKER_FLAGS=" + " ".join(link))
    return out


# ----------------------------------------------------------------------------
# prefix


def mentions(path, needles):
    """The needles (bytes) that occur in the file at `path`."""
    with open(path, "rb") as f:
        data = f.read()
    return [n for n in needles if n in data]


def is_text(path):
    with open(path, "rb") as f:
        return b"\0" not in f.read(65536)


def step_prefix(args):
    work = args.work
    staged = os.path.join(work, "staged")
    prefix = os.path.join(work, "prefix")
    shutil.rmtree(staged, ignore_errors=True)
    shutil.rmtree(prefix, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    run([args.cmake, "--install", args.build, "--prefix", staged])
    # Relocation: the package must work from where it is moved to.
    os.rename(staged, prefix)

    expected = [
        "bin/fuel-run", "bin/fuel-probe",
        "lib/libfuelrt.so", "lib/libfuel-shim-openblas.so",
        "lib/libfuel-shim-blis.so",
        "include/fuel-c/Runtime.h", "include/fuel-c/RuntimeCxx.h",
        "include/fuel-c/KernelABI.h",
        "lib/cmake/fuel/FuelConfig.cmake",
        "lib/cmake/fuel/FuelConfigVersion.cmake",
        "lib/cmake/fuel/FuelRuntimeTargets.cmake",
    ]
    absent = []
    if args.compiler:
        expected += [
            "bin/fuel-compile", "bin/fuel-opt", "bin/fuel-topology",
            "bin/fuel-judge", "bin/fuel-profile-db", "bin/fuel-import-onnx",
            "include/fuel/Compiler/Compiler.h",
            "include/fuel/Dialect/Fuel/IR/FuelOps.td",
            "include/fuel/Dialect/Fuel/IR/FuelOps.h.inc",
            "include/fuel/Dialect/Fuel/IR/FuelAttrs.h.inc",
            "include/fuel/Planning/Passes.h.inc",
            "include/fuel/Codegen/Passes.h.inc",
            "include/fuel/Lowering/Passes.h.inc",
            "include/fuel/Conversion/Passes.h.inc",
            "lib/libMLIRFuelDialect.a", "lib/libFuelPlanner.a",
            "lib/cmake/fuel/FuelCompilerTargets.cmake",
            "lib/cmake/fuel/FuelLinkDeps.cmake",
            "share/fuel/kernels/registry.json",
            "share/fuel/kernels/schedules/cpu/matmul.mlir",
        ]
        absent += ["include/fuel/Planner/Testing"]
    else:
        absent += ["bin/fuel-compile", "include/fuel",
                   "lib/cmake/fuel/FuelCompilerTargets.cmake"]
    if args.capi:
        expected += ["lib/libFuelCAPI.so", "include/fuel-c/Compiler.h"]
    else:
        absent += ["lib/libFuelCAPI.so", "include/fuel-c/Compiler.h"]
    for rel in expected:
        check(os.path.exists(os.path.join(prefix, rel)), "not installed: " + rel)
    for rel in absent:
        check(not os.path.exists(os.path.join(prefix, rel)),
              "installed but should not be: " + rel)
    # MLIR's add_mlir_library would also install object files.
    for root, dirs, files in os.walk(prefix):
        for name in files:
            check(not name.endswith(".o"),
                  "object file installed: " + os.path.join(root, name))

    # No file may name the build or the source tree (CMake files, headers,
    # and the RUNPATHs of binaries alike); the staging directory is inside
    # the build tree, so this also catches paths written at install time.
    needles = set()
    for d in (args.build, args.source):
        needles.add(os.path.abspath(d).encode())
        needles.add(os.path.realpath(d).encode())
    count = 0
    for root, dirs, files in os.walk(prefix):
        for name in files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                continue
            count += 1
            found = mentions(path, needles)
            # An instrumented tree (--sanitize) is built with line tables,
            # and ASan's descriptors of globals name their source files:
            # its binaries name the source tree by design. Text files are
            # checked all the same, and the moved tools must run (below).
            if args.sanitize and not is_text(path):
                continue
            check(not found, "%s file %s names %s" % (
                "text" if is_text(path) else "binary",
                os.path.relpath(path, prefix),
                ", ".join(n.decode() for n in found)))
    check(count > 10, "only %d files installed" % count)

    # The installed tools run from the moved prefix.
    p = run([os.path.join(prefix, "bin/fuel-probe"), "--no-cuda",
             "--no-vulkan"], expect_ok=False)
    check(p.returncode == 0 and p.stdout.startswith("cpu "),
          "installed fuel-probe: %d %s" % (p.returncode, p.stderr))
    p = run([os.path.join(prefix, "bin/fuel-run")], expect_ok=False)
    check(p.returncode != 0 and "usage" in (p.stdout + p.stderr).lower(),
          "installed fuel-run without arguments should print its usage")
    if args.compiler:
        p = run([os.path.join(prefix, "bin/fuel-opt"), "--version"],
                expect_ok=False)
        check(p.returncode == 0, "installed fuel-opt --version: " + p.stderr)
        for tool in ("fuel-judge", "fuel-profile-db", "fuel-import-onnx"):
            p = run([os.path.join(prefix, "bin", tool), "--help"],
                    expect_ok=False)
            check(p.returncode == 0 and tool in p.stdout,
                  "installed %s --help: %d %s" % (tool, p.returncode, p.stderr))
        check_shim_from_prefix(prefix, work)


MATMUL = """\
func.func @mm(%a: tensor<64x32xf32> {fuel.residency = #fuel.device<cpu>},
              %b: tensor<32x48xf32> {fuel.residency = #fuel.device<cpu>})
    -> (tensor<64x48xf32> {fuel.residency = #fuel.device<cpu>}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>)
      -> tensor<64x48xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
      outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}
"""


def check_shim_from_prefix(prefix, work):
    """The moved runtime finds the OpenBLAS shim beside libfuelrt.so: a
    matmul compiled for it by the installed fuel-compile, run by the
    installed fuel-run, matches numpy."""
    import numpy as np
    d = fresh(os.path.join(work, "shim"))
    src = os.path.join(d, "mm.mlir")
    with open(src, "w") as f:
        f.write(MATMUL)
    exe = os.path.join(d, "mm.fuelx")
    run([os.path.join(prefix, "bin/fuel-compile"), src,
         "--plan=kernel-sources=openblas", "-o", exe])
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (64, 32)).astype(np.float32)
    b = rng.uniform(-1, 1, (32, 48)).astype(np.float32)
    c = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    for name, v in (("a", a), ("b", b), ("c", c)):
        np.save(os.path.join(d, name + ".npy"), v)
    p = run([os.path.join(prefix, "bin/fuel-run"), exe,
             "--input=@" + os.path.join(d, "a.npy"),
             "--input=@" + os.path.join(d, "b.npy"),
             "--expected-output=@" + os.path.join(d, "c.npy"),
             "--tolerance=atol=1e-5,rtol=1e-5", "--report"], expect_ok=False)
    check(p.returncode == 0, "installed fuel-run on an OpenBLAS matmul: %d %s"
          % (p.returncode, p.stdout + p.stderr))
    check("cpu.openblas.matmul_f32" in p.stdout,
          "the matmul did not run on the OpenBLAS shim:\n" + p.stdout)


# ----------------------------------------------------------------------------
# embed


def step_embed(args):
    prefix = os.path.join(args.work, "prefix")
    build = fresh(os.path.join(args.work, "embed"))
    run([args.cmake, "-S", os.path.join(args.source, "examples/embed"),
         "-B", build, "-DCMAKE_PREFIX_PATH=" + prefix]
        + consumer_cache_args(args))
    cache = read_cache(build)
    check(cache.get("Fuel_DIR", "").startswith(prefix),
          "Fuel_DIR is not the installed package: " + cache.get("Fuel_DIR", ""))
    # Nothing of the build or source tree is on its command lines, other
    # than the work directory (which holds the prefix), the example and the
    # compiler launcher the build hands on (fuel-ccache, a script in the
    # build tree: a tool, nothing the consumer compiles or links).
    for cmd in commands(build, "fuel-embed-example"):
        rest = cmd.replace(os.path.abspath(args.work), "<work>")
        if args.launcher:
            rest = rest.replace(args.launcher, "<launcher>")
        for d in (args.build, os.path.join(args.source, "include"),
                  os.path.join(args.source, "lib")):
            check(os.path.abspath(d) not in rest,
                  "a command names %s: %s" % (d, cmd))
    check(any("libFuelCompiler.a" in c for c in commands(build, "fuel-embed-example")),
          "the example does not link the installed libFuelCompiler.a")
    run(["ninja", "-C", build, "-j", str(args.jobs)])
    p = run([os.path.join(build, "fuel-embed-example")], expect_ok=False)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "fuel-embed-example exited with %d" % p.returncode)
    check(re.search(r"^max error against the reference: \S+", p.stdout, re.M),
          "fuel-embed-example printed no max error")
    check(p.stdout.rstrip().endswith("ok"), "fuel-embed-example did not end ok")
    check(len(re.findall(r"^( +-?\d+\.\d{4}){16}$", p.stdout, re.M)) == 8,
          "fuel-embed-example did not print an 8x16 result")


# ----------------------------------------------------------------------------
# runtime-c


def read_cache(build):
    cache = {}
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            m = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line.rstrip("\n"))
            if m:
                cache[m.group(1)] = m.group(2)
    return cache


def commands(build, target):
    """Every command ninja runs to build `target`, as strings."""
    p = run(["ninja", "-C", build, "-t", "commands", target])
    return [l for l in p.stdout.splitlines() if l.strip()]


# What LLVM's and MLIR's packages would add to a consumer: any path or
# library naming them, or LLVM's definitions (LLVM_DEFINITIONS).
LLVM_WORD = re.compile(r"llvm|mlir", re.I)
LLVM_DEFINES = ("__STDC_CONSTANT_MACROS", "__STDC_FORMAT_MACROS",
                "__STDC_LIMIT_MACROS", "_GLIBCXX_USE_CXX11_ABI", "_GNU_SOURCE")


def llvm_flags(command, allowed):
    """The arguments of `command` that carry LLVM or MLIR. `allowed` are
    paths whose own names may happen to contain the words (the compiler,
    the launcher, the package prefix, the consumer's build directory)."""
    bad = []
    for tok in shlex.split(command):
        if tok in ("&&", ":") or tok in allowed:
            continue
        stripped = tok
        for a in allowed:
            stripped = stripped.replace(a, "")
        if LLVM_WORD.search(stripped):
            bad.append(tok)
        elif tok.startswith("-D") and tok[2:].split("=")[0] in LLVM_DEFINES:
            bad.append(tok)
    return bad


def step_runtime_c(args):
    prefix = os.path.join(args.work, "prefix")
    work = fresh(os.path.join(args.work, "runtime-c"))
    exe = args.executable
    if not exe:
        exe = os.path.join(work, "vadd.fuelx")
        run([os.path.join(prefix, "bin/fuel-compile"),
             os.path.join(args.source, "examples/runtime-c/vadd.mlir"),
             "-o", exe])
    build = os.path.join(work, "build")
    run([args.cmake, "-S", os.path.join(args.source, "examples/runtime-c"),
         "-B", build, "-DCMAKE_PREFIX_PATH=" + prefix,
         "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"] + consumer_cache_args(args))

    cache = read_cache(build)
    for var in ("MLIR_DIR", "LLVM_DIR"):
        check(var not in cache, "%s is in the consumer's cache: %s" % (
            var, cache.get(var)))
    check(cache.get("Fuel_DIR", "").startswith(prefix),
          "Fuel_DIR is not the installed package: " + cache.get("Fuel_DIR", ""))

    allowed = [prefix, build]
    for key in ("CMAKE_C_COMPILER", "CMAKE_C_COMPILER_LAUNCHER"):
        if cache.get(key):
            allowed.append(cache[key])
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = json.load(f)
    check(len(entries) == 1, "expected one compile command, got %d" %
          len(entries))
    for e in entries:
        cmd = e.get("command") or " ".join(e.get("arguments", []))
        bad = llvm_flags(cmd, allowed)
        check(not bad, "MLIR or LLVM in the compile command: %s" % bad)
    link = [c for c in commands(build, "fuel-runtime-c") if " -o fuel-runtime-c" in c]
    check(len(link) == 1, "no link command found for fuel-runtime-c")
    for cmd in link:
        bad = llvm_flags(cmd, allowed)
        check(not bad, "MLIR or LLVM in the link command: %s" % bad)
        check("libfuelrt.so" in cmd, "the link command does not link libfuelrt.so")

    run(["ninja", "-C", build, "-j", str(args.jobs)])
    # Its shared-library dependencies: libfuelrt.so and the C library's only.
    p = run(["readelf", "-d", os.path.join(build, "fuel-runtime-c")])
    needed = re.findall(r"\(NEEDED\).*\[(.*)\]", p.stdout)
    check(not [n for n in needed if LLVM_WORD.search(n)],
          "fuel-runtime-c needs an LLVM or MLIR library: %s" % needed)
    check("libfuelrt.so" in needed, "fuel-runtime-c does not need libfuelrt.so")

    p = run([os.path.join(build, "fuel-runtime-c"), exe], expect_ok=False)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "fuel-runtime-c exited with %d" % p.returncode)
    check(re.search(r"c = a \+ b over \d+ f32 elements .*max error 0", p.stdout),
          "fuel-runtime-c printed no result line")
    # And its own failure path: a file that is not an executable.
    bogus = os.path.join(work, "not-an-executable.fuelx")
    with open(bogus, "wb") as f:
        f.write(b"not a fuel executable")
    p = run([os.path.join(build, "fuel-runtime-c"), bogus], expect_ok=False)
    check(p.returncode != 0 and bogus in p.stderr,
          "fuel-runtime-c on a bad file: exit %d, %s" % (p.returncode, p.stderr))


# ----------------------------------------------------------------------------
# capi


def step_capi(args):
    prefix = os.path.join(args.work, "prefix")
    build = fresh(os.path.join(args.work, "capi"))
    run([args.cmake, "-S", os.path.join(os.path.dirname(__file__),
                                        "capi-consumer"),
         "-B", build, "-DCMAKE_PREFIX_PATH=" + prefix]
        + consumer_cache_args(args))
    run(["ninja", "-C", build, "-j", str(args.jobs)])
    p = run([os.path.join(build, "fuel-capi-consumer"),
             os.path.join(args.source, "examples/runtime-c/vadd.mlir")],
            expect_ok=False)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "fuel-capi-consumer exited with %d" % p.returncode)
    check("ran c = a + b over 1000 elements: exact" in p.stdout,
          "fuel-capi-consumer printed no result line")


# ----------------------------------------------------------------------------
# components


def configure_asking(args, name, find_args, extra=(), prefix=None):
    """Configures a project whose only line is find_package(Fuel ...), then
    prints which components were found."""
    src = fresh(os.path.join(args.work, "ask", name, "src"))
    with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.20)\n"
                "project(ask LANGUAGES NONE)\n"
                "find_package(Fuel %s)\n"
                "foreach(c Runtime Dialect Passes Compiler CAPI)\n"
                "  message(STATUS \"found ${c}: ${Fuel_${c}_FOUND}\")\n"
                "endforeach()\n" % find_args)
    build = os.path.join(args.work, "ask", name, "build")
    cmd = [args.cmake, "-S", src, "-B", build,
           "-DCMAKE_PREFIX_PATH=" + (prefix or os.path.join(args.work,
                                                            "prefix"))]
    if args.c_compiler:
        cmd.append("-DCMAKE_C_COMPILER=" + args.c_compiler)
    return run(cmd + list(extra), expect_ok=False)


def step_components(args):
    p = configure_asking(args, "unknown", "REQUIRED COMPONENTS Runtime Nonsense")
    check(p.returncode != 0 and "unknown component `Nonsense`" in p.stderr,
          "an unknown component: %d %s" % (p.returncode, p.stderr))
    p = configure_asking(args, "version", "99.0 REQUIRED COMPONENTS Runtime")
    check(p.returncode != 0 and "99.0" in p.stderr,
          "a too-new version: %d %s" % (p.returncode, p.stderr))
    p = configure_asking(args, "runtime", "REQUIRED COMPONENTS Runtime")
    check(p.returncode == 0, "Runtime alone: %d %s" % (p.returncode, p.stderr))
    if args.compiler:
        p = configure_asking(args, "compiler", "REQUIRED COMPONENTS Compiler")
        check(p.returncode == 0 and "found Compiler: TRUE" in p.stdout
              and "found Dialect: TRUE" in p.stdout,
              "Compiler: %d %s" % (p.returncode, p.stdout + p.stderr))
        # Without MLIR: a required compiler component fails, naming MLIR; an
        # optional one is only not found, and Runtime still is.
        no_mlir = ["-DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON"]
        p = configure_asking(args, "no-mlir", "REQUIRED COMPONENTS Compiler",
                             no_mlir)
        check(p.returncode != 0 and "MLIR" in p.stderr,
              "Compiler without MLIR: %d %s" % (p.returncode, p.stderr))
        p = configure_asking(args, "no-mlir-optional",
                             "REQUIRED COMPONENTS Runtime OPTIONAL_COMPONENTS "
                             "Compiler", no_mlir)
        check(p.returncode == 0 and "found Runtime: TRUE" in p.stdout
              and "found Compiler: TRUE" not in p.stdout
              and "compiler components are not available" in p.stdout,
              "optional Compiler without MLIR: %d %s" % (
                  p.returncode, p.stdout + p.stderr))
        # The Runtime install component alone, from the compiler's build.
        runtime_only = os.path.join(args.work, "runtime-only")
        shutil.rmtree(runtime_only, ignore_errors=True)
        run([args.cmake, "--install", args.build, "--prefix", runtime_only,
             "--component", "Runtime"])
        check(not os.path.exists(os.path.join(runtime_only, "bin/fuel-compile")),
              "--component Runtime installed fuel-compile")
        p = configure_asking(args, "runtime-only", "REQUIRED COMPONENTS Runtime",
                             prefix=runtime_only)
        check(p.returncode == 0, "Runtime from the Runtime install component: "
              "%d %s" % (p.returncode, p.stderr))
        p = configure_asking(args, "runtime-only-compiler",
                             "REQUIRED COMPONENTS Compiler", prefix=runtime_only)
        check(p.returncode != 0 and "installed without it" in p.stderr,
              "Compiler from the Runtime install component: %d %s" % (
                  p.returncode, p.stderr))
    else:
        p = configure_asking(args, "compiler", "REQUIRED COMPONENTS Compiler")
        check(p.returncode != 0 and "FUEL_BUILD_COMPILER=OFF" in p.stderr
              and "Compiler" in p.stderr,
              "Compiler from a build without it: %d %s" % (p.returncode,
                                                           p.stderr))
        # Optional components are reported missing, not fatal.
        p = configure_asking(args, "optional",
                             "REQUIRED COMPONENTS Runtime OPTIONAL_COMPONENTS "
                             "Compiler")
        check(p.returncode == 0, "optional Compiler: %d %s" % (p.returncode,
                                                              p.stderr))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("step", choices=["prefix", "embed", "runtime-c", "capi",
                                     "components"])
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--build", required=True, help="the fuel build tree")
    ap.add_argument("--source", required=True, help="the fuel source tree")
    ap.add_argument("--work", required=True)
    ap.add_argument("--compiler", type=int, default=1,
                    help="1 when the build has FUEL_BUILD_COMPILER=ON")
    ap.add_argument("--capi", type=int, default=0,
                    help="1 when the build has libFuelCAPI.so")
    ap.add_argument("--c-compiler", default="")
    ap.add_argument("--cxx-compiler", default="")
    ap.add_argument("--launcher", default="")
    ap.add_argument("--linker", default="")
    ap.add_argument("--sanitize", default="",
                    help="the build's sanitizers (-fsanitize=), if any")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--executable", default="")
    args = ap.parse_args()
    {"prefix": step_prefix, "embed": step_embed, "runtime-c": step_runtime_c,
     "capi": step_capi, "components": step_components}[args.step](args)
    if failures:
        print("%d check(s) failed" % len(failures), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
