#!/usr/bin/python3
"""The first step of scripts/gpu-check.sh, run where fuel is built: writes
the folder a GPU machine (CMake and a C++ compiler, no LLVM/MLIR, no
network) runs the GPU check from.

  gpu-check-prepare.py --build BUILD --out DIR [--max-mib 64]

Into DIR it writes:
  gpu-check.sh       the script (its run step there)
  src/               the source tree without test/, bench/, docs/,
                     examples/ (libfuelrt, fuel-run and the copy benchmark
                     build from it with FUEL_BUILD_COMPILER=OFF)
  third_party/       the FlatBuffers and Vulkan C headers (include/) and
                     the schema header flatc generated (generated/)
  programs/          NAME.fuelx, NAME.inI.npy, NAME.refJ.npy per program
  programs.tsv       name, kind, tolerance, inputs, outputs and the program
                     whose input and reference files it uses, of each
  judge-jobs/NAME/   fuel-judge --emit-jobs of each example for cpu + cuda:0:
                     every retained candidate of every node compiled alone,
                     with manifest.json (fuel-run --measure measures the
                     cuda:0 ones there; docs/FUEL-JUDGE.md)
  not-compiled.txt   programs fuel-compile refused for cpu + cuda:0, with
                     the reason (one line each)
  MANIFEST.txt       what was prepared, by whom (fuel-compile --version)

The programs: the op-kind test programs of test/Integration/vulkan and the
three examples, each pinned to cuda:0 (kernel-sources=generated), the
examples also unpinned on cpu + cuda:0 and on the cpu alone (the placement
benchmark), matmuls pinned to cuda:0 with generated kernels and with
cuBLAS at a few shapes, the fast CUDA schedules forced (FAST: the
shared-memory matmul, batch_matmul and conv2d with `cuda-matmul=tiled`
and rows and softmax through warp shuffles with `cuda-row-schedule=warp`,
at shapes the tiles do not divide), and the hand-written executables of
the runtime tests (a PTX vadd at three sizes, a cuBLAS sgemm). The topology is
test/topologies/cpu-v3-cuda.json (CPU parts for x86-64-v3). Inputs come
from numpy's default_rng(seed); references are computed here in float64 by
test/Integration/reference.py, never by fuel. Exits 1 when the folder
exceeds --max-mib.
"""

import argparse
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
INTEGRATION = os.path.join(ROOT, "test", "Integration")
TOPOLOGY = os.path.join(ROOT, "test", "topologies", "cpu-v3-cuda.json")
CPU_ONLY = os.path.join(ROOT, "test", "topologies", "cpu-target.json")

spec = importlib.util.spec_from_file_location(
    "run_and_check", os.path.join(INTEGRATION, "run-and-check.py"))
harness = importlib.util.module_from_spec(spec)
sys.path.insert(0, INTEGRATION)
spec.loader.exec_module(harness)
import reference  # noqa: E402

BENCH_SHAPES = [256, 1024, 2048]
MATMUL = """func.func @matmul(%a: tensor<{n}x{n}xf32>, %b: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32>)
                     outs(%f : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  return %c : tensor<{n}x{n}xf32>
}}
"""
# Inputs and references of one program at most (the folder holds 64 MiB).
MAX_DATA_BYTES = 8 << 20
PINNED = "pinned-device=cuda:0 allow-cost-placement=false " \
         "kernel-sources=generated"
UNPINNED = "kernel-sources=generated,cublas"
# The fast CUDA schedules, forced whatever the default rules choose:
# (name, test of test/Integration/vulkan whose program and reference it
# takes, fuel-apply-schedules options).
FAST = [
    ("cuda-fast-matmul-tiled-prime", "matmul-tiled-prime", "cuda-matmul=tiled"),
    ("cuda-fast-batch-matmul-tiled", "batch-matmul-tiled", "cuda-matmul=tiled"),
    ("cuda-fast-conv2d-tiled-dilated", "conv2d-tiled-dilated",
     "cuda-matmul=tiled"),
    ("cuda-fast-conv2d-tiled-convnet", "conv2d-tiled-convnet",
     "cuda-matmul=tiled"),
    ("cuda-fast-softmax-warp", "softmax-subgroup", "cuda-row-schedule=warp"),
    ("cuda-fast-rows-sum-warp", "rows-subgroup-sum", "cuda-row-schedule=warp"),
    ("cuda-fast-rows-max-warp", "rows-subgroup-max", "cuda-row-schedule=warp"),
]

# Vulkan-specific programs (placement between cpu and vulkan:0).
SKIP = {"pinned-cpu-vulkan", "placed-convnet", "placed-mlp",
        "placed-transformer"}


def run(command):
    p = subprocess.run(command, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def run_lines(path):
    """The arguments of a lit test's RUN lines, joined."""
    text = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*//\s*RUN:\s?(.*)", line)
            if m:
                text.append(m.group(1).rstrip("\\").strip())
    return shlex.split(" ".join(text))


def parse_test(path):
    """program, ref, params, rtol, atol, input range of a vulkan test."""
    args = run_lines(path)
    spec = {"program": path, "ref": None, "params": [], "rtol": 1e-5,
            "atol": 1e-6, "range": "-1,1"}
    for i, a in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if a.endswith(".mlir") and "run-and-check" in args[i - 1]:
            spec["program"] = path if a == "%s" else a.replace(
                "%S", os.path.dirname(path))
        elif a == "--ref":
            spec["ref"] = nxt
        elif a == "--param":
            spec["params"].append(nxt)
        elif a == "--rtol":
            spec["rtol"] = float(nxt)
        elif a == "--atol":
            spec["atol"] = float(nxt)
        elif a.startswith("--input-range="):
            spec["range"] = a.split("=", 1)[1]
    return spec


class Preparer:
    def __init__(self, build, out):
        self.bin = os.path.join(build, "bin")
        self.out = out
        self.programs = os.path.join(out, "programs")
        os.makedirs(self.programs, exist_ok=True)
        self.rows = []
        self.refused = []
        self.shared = {}

    def tool(self, name):
        return os.path.join(self.bin, name)

    def compile(self, name, program, topology, plan):
        exe = os.path.join(self.programs, name + ".fuelx")
        return self.build_exe(name, exe, [
            self.tool("fuel-compile"), program, "-o", exe,
            "--topology=" + topology, "--plan=" + plan])

    def compile_scheduled(self, name, program, topology, plan, options):
        """compile() through fuel-opt's stages, with `options` for
        fuel-apply-schedules."""
        exe = os.path.join(self.programs, name + ".fuelx")
        return self.build_exe(name, exe, [
            self.tool("fuel-opt"), program,
            "--fuel-plan=topology=%s %s" % (topology, plan),
            "--fuel-outline-kernels", "--fuel-apply-schedules=" + options,
            "--fuel-bufferize-kernels", "--fuel-plan-buffers",
            "--convert-fuel-to-llvm", "--convert-fuel-to-nvvm",
            "--fuel-serialize-executable=output=" + exe, "-o", os.devnull])

    def build_exe(self, name, exe, command):
        """`exe` from `command`, or None with the first line of its error
        in not-compiled.txt."""
        rc, _, err = run(command)
        if rc != 0:
            first = (err.strip().splitlines() or ["exit %d" % rc])[0]
            first = first.replace(ROOT + os.sep, "").replace(
                self.out + os.sep, "")
            self.refused.append("%s: %s" % (name, first))
            return None
        return exe

    def add(self, name, kind, exe, ref, params=(), rtol=1e-5, atol=1e-6,
            low_high=(-1.0, 1.0), seed=0, share=None):
        """Writes inputs and references of `exe` and lists it; programs of
        one source with the same `share` key use the first one's files."""
        rc, dump, err = run([self.tool("fuel-run"), exe, "--dump"])
        if rc != 0:
            sys.exit("gpu-check-prepare: fuel-run --dump %s: %s" % (exe, err))
        inputs, outputs, _ = harness.parse_dump(dump)
        if share is not None and share in self.shared:
            self.rows.append((name, kind, "atol=%g,rtol=%g" % (atol, rtol),
                              len(inputs), len(outputs), self.shared[share]))
            return
        data = sum(int(np.prod(shape)) * np.dtype(harness.DTYPES[dtype]).itemsize
                   for _, shape, dtype in inputs + outputs)
        if data > MAX_DATA_BYTES:
            os.remove(exe)
            self.refused.append("%s: skipped, %.1f MiB of inputs and "
                                "references (over %d MiB)"
                                % (name, data / 2**20, MAX_DATA_BYTES >> 20))
            return
        if share is not None:
            self.shared[share] = name
        rng = np.random.default_rng(seed)
        arrays = []
        for i, (_, shape, dtype) in enumerate(inputs):
            a = harness.make_input(rng, shape, dtype, low_high)
            np.save(os.path.join(self.programs, "%s.in%d.npy" % (name, i)), a)
            arrays.append(a)
        expected = ref(*arrays, **harness.parse_params(list(params)))
        if len(expected) != len(outputs):
            sys.exit("gpu-check-prepare: %s has %d outputs, its reference "
                     "%d" % (name, len(outputs), len(expected)))
        for j, ((_, shape, dtype), e) in enumerate(zip(outputs, expected)):
            np.save(os.path.join(self.programs, "%s.ref%d.npy" % (name, j)),
                    np.asarray(e).astype(harness.DTYPES[dtype]).reshape(
                        shape))
        self.rows.append((name, kind, "atol=%g,rtol=%g" % (atol, rtol),
                          len(inputs), len(outputs), name))

    def write_lists(self):
        with open(os.path.join(self.out, "programs.tsv"), "w") as f:
            f.write("# name\tkind\ttolerance\tinputs\toutputs\tdata\n")
            for row in self.rows:
                f.write("\t".join(str(v) for v in row) + "\n")
        with open(os.path.join(self.out, "not-compiled.txt"), "w") as f:
            for line in self.refused:
                f.write(line + "\n")


def copy_sources(build, out):
    """The source tree (what git tracks or would add) without the compiler's
    tests, benchmarks and docs, plus the FlatBuffers and Vulkan C headers
    and the schema header flatc generated here."""
    src = os.path.join(out, "src")
    rc, listing, err = run(["git", "-C", ROOT, "ls-files", "--cached",
                            "--others", "--exclude-standard"])
    if rc != 0:
        sys.exit("gpu-check-prepare: git ls-files: " + err)
    skip = ("test/", "bench/", "docs/", "examples/", ".git")
    for rel in listing.splitlines():
        if rel.startswith(skip) and not rel.startswith("test/Install/"):
            continue
        if not os.path.isfile(os.path.join(ROOT, rel)):
            continue
        os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, rel), os.path.join(src, rel))
    include = os.path.join(out, "third_party", "include")
    for header_dir, pattern in [("flatbuffers", None), ("vulkan", ".h"),
                                ("vk_video", ".h")]:
        found = None
        for d in ["/usr/include", "/usr/local/include"]:
            if os.path.isdir(os.path.join(d, header_dir)):
                found = os.path.join(d, header_dir)
                break
        if not found:
            sys.exit("gpu-check-prepare: %s headers not found" % header_dir)
        for name in os.listdir(found):
            if pattern and not name.endswith(pattern):
                continue
            path = os.path.join(found, name)
            dest = os.path.join(include, header_dir, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            if os.path.isdir(path):
                shutil.copytree(path, dest, dirs_exist_ok=True)
            else:
                shutil.copy(path, dest)
    generated = os.path.join(build, "runtime", "executable", "generated",
                             "executable_generated.h")
    if not os.path.exists(generated):
        sys.exit("gpu-check-prepare: %s not found (build FuelRtExecutable)"
                 % generated)
    os.makedirs(os.path.join(out, "third_party", "generated"), exist_ok=True)
    shutil.copy(generated, os.path.join(out, "third_party", "generated"))


def folder_bytes(path):
    total = 0
    for d, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(d, name))
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-mib", type=float, default=64)
    parser.add_argument("--no-compile", action="store_true",
                        help="only the runtime tests' executables (no "
                             "fuel-compile)")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    p = Preparer(args.build, out)

    if not args.no_compile:
        # Every op kind, pinned to cuda:0.
        for test in sorted(os.listdir(os.path.join(INTEGRATION, "vulkan"))):
            name = test[:-5]
            if not test.endswith(".mlir") or name in SKIP:
                continue
            t = parse_test(os.path.join(INTEGRATION, "vulkan", test))
            exe = p.compile("cuda-" + name, t["program"], TOPOLOGY, PINNED)
            if exe:
                low_high = tuple(float(v) for v in t["range"].split(","))
                share = None
                if name.startswith("example-"):
                    share = os.path.realpath(t["program"])
                p.add("cuda-" + name, "correctness", exe,
                      reference.lookup(t["ref"]), t["params"], t["rtol"],
                      t["atol"], low_high, share=share)
        # The fast CUDA schedules, forced, against the same references.
        for name, test, options in FAST:
            t = parse_test(os.path.join(INTEGRATION, "vulkan", test + ".mlir"))
            exe = p.compile_scheduled(name, t["program"], TOPOLOGY, PINNED,
                                      options)
            if exe:
                low_high = tuple(float(v) for v in t["range"].split(","))
                p.add(name, "correctness", exe, reference.lookup(t["ref"]),
                      t["params"], t["rtol"], t["atol"], low_high)
        # The examples: placed by the planner on cpu + cuda:0, and on the
        # cpu alone.
        for example in ["mlp", "convnet", "transformer"]:
            source = os.path.join(ROOT, "examples", example + ".mlir")
            for name, topology, plan in [
                    ("placed-" + example, TOPOLOGY, UNPINNED),
                    ("cpuonly-" + example, CPU_ONLY, "kernel-sources=generated")]:
                exe = p.compile(name, source, topology, plan)
                if exe:
                    p.add(name, "placement", exe, reference.lookup(example),
                          (), 1e-4, 1e-5, (-0.1, 0.1),
                          share=os.path.realpath(source))

        # The measuring jobs of the examples (fuel-judge --emit-jobs), for
        # the middle step of measuring there (fuel-run --measure).
        for example in ["mlp", "convnet", "transformer"]:
            source = os.path.join(ROOT, "examples", example + ".mlir")
            jobs = os.path.join(out, "judge-jobs", example)
            rc, _, err = run([p.tool("fuel-judge"), source,
                              "--topology=" + TOPOLOGY, "--emit-jobs=" + jobs])
            if rc != 0:
                first = (err.strip().splitlines() or ["exit %d" % rc])[0]
                p.refused.append("judge-jobs/%s: %s" % (
                    example, first.replace(ROOT + os.sep, "")))

        # Generated matmul against cuBLAS, pinned to cuda:0, at a few
        # shapes (random inputs there: timing only; the correctness of
        # both is checked at a small shape above and here).
        for n in BENCH_SHAPES:
            source = os.path.join(out, "matmul-%d.mlir" % n)
            with open(source, "w") as f:
                f.write(MATMUL.format(n=n))
            for kind in ["generated", "cublas"]:
                name = "bench-matmul-%s-%d" % (kind, n)
                plan = ("pinned-device=cuda:0 allow-cost-placement=false "
                        "kernel-sources=" + kind)
                if p.compile(name, source, TOPOLOGY, plan):
                    p.rows.append((name, "bench-matmul", "-", "random", 1,
                                   name))
            os.remove(source)

    # The runtime tests' executables (FuelRtWriteTestExecutables): they need
    # no compiler, so the check has GPU programs whatever fuel-compile
    # lowers for cuda.
    exes = os.path.join(args.build, "unittests", "Runtime", "Session",
                        "executables")
    for name, ref, kind in [("mixed-cuda", lambda a, b: [a + b], "correctness"),
                            ("mixed-cuda-tiny", lambda a, b: [a + b],
                             "launch"),
                            ("cublas-cuda", lambda a, b: [a @ b],
                             "correctness")]:
        src = os.path.join(exes, name + ".fuel")
        if not os.path.exists(src):
            sys.exit("gpu-check-prepare: %s not found (run ctest -R "
                     "fuel-rt-write-test-executables)" % src)
        exe = os.path.join(p.programs, "rt-" + name + ".fuelx")
        shutil.copy(src, exe)
        p.add("rt-" + name, kind, exe,
              lambda *a, f=ref: [np.asarray(x) for x in
                                 f(*[np.asarray(v, np.float64) for v in a])],
              (), 1e-5, 1e-5)
    p.write_lists()
    shutil.copy(os.path.join(HERE, "gpu-check.sh"), out)
    copy_sources(args.build, out)
    with open(os.path.join(out, "MANIFEST.txt"), "w") as f:
        f.write("fuel GPU check folder\n")
        f.write("programs: %d, not compiled for cuda: %d\n"
                % (len(p.rows), len(p.refused)))
        f.write("topology: test/topologies/cpu-v3-cuda.json\n")
    size = folder_bytes(out)
    print("gpu-check-prepare: %d programs, %d not compiled for cpu + cuda:0, "
          "%.1f MiB in %s" % (len(p.rows), len(p.refused), size / 2**20, out))
    if size > args.max_mib * 2**20:
        sys.exit("gpu-check-prepare: the folder is %.1f MiB, over %g MiB"
                 % (size / 2**20, args.max_mib))


if __name__ == "__main__":
    main()
