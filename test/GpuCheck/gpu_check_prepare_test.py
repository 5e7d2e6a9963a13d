#!/usr/bin/python3
"""The first step of scripts/gpu-check.sh, checked here.

  gpu_check_prepare_test.py REPO BUILD WORK FAKE_DRIVER FAKE_CUBLAS_DIR

Runs `scripts/gpu-check.sh --prepare WORK/folder --build BUILD`, then checks
the folder: at most 64 MiB; programs.tsv lists programs whose executable,
inputs and references are present, and the runtime tests' cuda:0 programs
are among them; every reference matches an independent numpy computation
for the runtime tests' programs; the run step is there. Then configures and
builds libfuelrt and fuel-run from the folder alone (FUEL_BUILD_COMPILER=OFF,
the carried FlatBuffers and Vulkan headers and schema header, no flatc),
with the folder copied elsewhere so that nothing outside it is reachable by
a relative path, checks that the built fuel-run refuses a cuda:0 program
with the reason where no driver exists, and runs the run step (--quick) as
a dry run through the test doubles of the driver and cuBLAS.
"""

import os
import shutil
import subprocess
import sys

import numpy as np

REPO, BUILD, WORK = sys.argv[1:4]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout + p.stderr


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
folder = os.path.join(WORK, "folder")
rc, out = run([os.path.join(REPO, "scripts", "gpu-check.sh"), "--prepare",
               folder, "--build", BUILD])
print(out.strip())
if rc != 0:
    sys.exit("FAIL: the prepare step failed (exit %d)" % rc)

size = 0
for d, _, files in os.walk(folder):
    size += sum(os.path.getsize(os.path.join(d, f)) for f in files)
check(size <= 64 * 2**20, "the folder is %.1f MiB, over 64 MiB" % (size / 2**20))
check(os.access(os.path.join(folder, "gpu-check.sh"), os.X_OK),
      "gpu-check.sh is in the folder and executable")
for f in ["third_party/generated/executable_generated.h",
          "third_party/include/flatbuffers/flatbuffers.h",
          "third_party/include/vulkan/vulkan.h",
          "src/CMakeLists.txt", "src/runtime/device/cuda/CudaDevice.cpp",
          "not-compiled.txt", "MANIFEST.txt",
          "judge-jobs/mlp/manifest.json", "judge-jobs/convnet/manifest.json",
          "judge-jobs/transformer/manifest.json"]:
    check(os.path.exists(os.path.join(folder, f)), f + " is in the folder")

rows = []
with open(os.path.join(folder, "programs.tsv")) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        rows.append(line.rstrip("\n").split("\t"))
names = [r[0] for r in rows]
for name in ["rt-mixed-cuda", "rt-mixed-cuda-tiny", "rt-cublas-cuda",
             "cuda-fast-matmul-tiled-prime", "cuda-fast-batch-matmul-tiled",
             "cuda-fast-conv2d-tiled-dilated", "cuda-fast-softmax-warp"]:
    check(name in names, name + " is listed")
programs = os.path.join(folder, "programs")
# The fast CUDA schedules are in the PTX they carry: shared-memory panels
# and barriers for the tiled matmul, warp shuffles for the softmax.
for name, needles in [("cuda-fast-matmul-tiled-prime", [b".shared", b"bar.sync"]),
                      ("cuda-fast-conv2d-tiled-dilated", [b".shared", b"bar.sync"]),
                      ("cuda-fast-softmax-warp", [b"shfl.sync.bfly"])]:
    path = os.path.join(programs, name + ".fuelx")
    if os.path.exists(path):
        with open(path, "rb") as f:
            data = f.read()
        for needle in needles:
            check(needle in data, "%s's PTX has %s" % (name, needle.decode()))
for name, kind, tol, nin, nout, data in rows:
    check(os.path.exists(os.path.join(programs, name + ".fuelx")),
          name + ".fuelx is present")
    if nin == "random":
        continue
    for i in range(int(nin)):
        check(os.path.exists(os.path.join(programs, "%s.in%d.npy" % (data, i))),
              "%s input %d is present" % (name, i))
    for j in range(int(nout)):
        check(os.path.exists(os.path.join(programs, "%s.ref%d.npy" % (data, j))),
              "%s reference %d is present" % (name, j))


def load(name, suffix):
    return np.load(os.path.join(programs, name + suffix))


# The references, recomputed independently.
if "rt-mixed-cuda" in names:
    a, b = load("rt-mixed-cuda", ".in0.npy"), load("rt-mixed-cuda", ".in1.npy")
    check(np.array_equal(load("rt-mixed-cuda", ".ref0.npy"), a + b),
          "rt-mixed-cuda's reference is a + b")
if "rt-cublas-cuda" in names:
    a, b = load("rt-cublas-cuda", ".in0.npy"), load("rt-cublas-cuda", ".in1.npy")
    ref = load("rt-cublas-cuda", ".ref0.npy")
    check(ref.shape == (37, 19) and np.allclose(ref, a.astype(np.float64) @ b,
                                                rtol=1e-6, atol=1e-6),
          "rt-cublas-cuda's reference is a @ b")

# The runtime from the folder alone, moved away from the source tree.
moved = os.path.join(WORK, "elsewhere")
shutil.copytree(folder, moved)
build = os.path.join(WORK, "runtime-build")
flags = ["-DCMAKE_BUILD_TYPE=Release", "-DFUEL_BUILD_COMPILER=OFF",
         "-DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON",
         "-DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON",
         "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON",
         "-DFUEL_FLATC=FUEL_FLATC-NOTFOUND",
         "-DFUEL_FLATBUFFERS_GENERATED_DIR=" + moved + "/third_party/generated",
         "-DFUEL_FLATBUFFERS_INCLUDE_DIR=" + moved + "/third_party/include",
         "-DFUEL_VULKAN_INCLUDE_DIR=" + moved + "/third_party/include"]
launcher = shutil.which("ccache")
if launcher:
    flags += ["-DCMAKE_C_COMPILER_LAUNCHER=" + launcher,
              "-DCMAKE_CXX_COMPILER_LAUNCHER=" + launcher]
rc, out = run(["cmake", "-G", "Ninja", "-S", moved + "/src", "-B", build,
               "--no-warn-unused-cli"] + flags)
if rc != 0:
    print(out)
    sys.exit("FAIL: configuring the runtime from the folder")
rc, out = run(["cmake", "--build", build, "-j2", "--target", "fuel-run"])
if rc != 0:
    print(out[-4000:])
    sys.exit("FAIL: building fuel-run from the folder")
rc, out = run([os.path.join(build, "bin", "fuel-run"),
               os.path.join(moved, "programs", "rt-mixed-cuda.fuelx"),
               "--input=random:1"], env=dict(os.environ, LD_LIBRARY_PATH=""))
check(rc == 0 or "executable needs device cuda:0: cuda:0: " in out,
      "the folder's fuel-run refuses cuda:0 with the reason: " + out)
# The middle step of measuring, built from the folder alone: the mlp's
# cuda:0 jobs, skipped where no driver exists, the others not asked for.
rc, out = run([os.path.join(build, "bin", "fuel-run"),
               "--measure=" + os.path.join(moved, "judge-jobs", "mlp",
                                           "manifest.json"),
               "--json=" + os.path.join(WORK, "judge-mlp.json"),
               "--device=cuda:0", "--cuda-library=libfuel-no-such-driver.so"])
check(rc == 0 and " 0 measured, " in out and "cuda:0 is not on this machine"
      in out, "the folder's fuel-run --measure skips cuda:0 jobs: " + out)

# The run step itself, as a dry run through the test doubles of the driver
# and of cuBLAS (no kernel launches): the cuBLAS program and the cpu-only
# examples pass, the PTX programs fail at their launch, the table, the log
# and a JSON summary are written, and the exit status is 1.
fake_driver, fake_cublas = sys.argv[4:6]
results = os.path.join(WORK, "results")
env = dict(os.environ, FUEL_GPU_CHECK_BUILD=build, FUEL_GPU_CHECK_JOBS="2",
           FUEL_GPU_CHECK_CONFORMANCE="0",
           FUEL_RUN_EXTRA="--cuda-library=%s --cublas-path=%s"
           % (fake_driver, fake_cublas))
p = subprocess.run([os.path.join(moved, "gpu-check.sh"), "--quick", results],
                   capture_output=True, text=True, env=env)
print(p.stdout[-3000:])
check(p.returncode == 1, "the dry run exits 1 (launches refused): exit %d, %s"
      % (p.returncode, p.stderr[-2000:]))
import json  # noqa: E402
try:
    with open(os.path.join(results, "summary.json")) as f:
        summary = json.load(f)
    status = {r["name"]: r["status"] for r in summary["programs"]}
    check(status.get("rt-cublas-cuda") == "pass",
          "the cuBLAS program passes through the test doubles: %s" % status)
    check(status.get("rt-mixed-cuda") == "FAIL",
          "the PTX program fails at its launch: %s" % status)
    check(all(status.get(n) == "pass" for n in status if n.startswith("cpuonly-")),
          "the cpu-only examples pass: %s" % status)
    check(summary["quick"] is True and summary["failed"] >= 1,
          "the summary's counts: %s" % summary)
except (OSError, ValueError, KeyError) as e:
    failures.append("summary.json: %s" % e)
check("passed " in p.stdout and "rt-cublas-cuda" in p.stdout,
      "the table is printed")
with open(os.path.join(results, "gpu-check.log")) as f:
    check("cuLaunchKernel failed with 801" in f.read(),
          "the log holds the launch refusal")

if failures:
    for f in failures:
        print("FAIL:", f)
    sys.exit(1)
print("gpu-check prepare: %d programs, %.1f MiB, runtime built from the folder"
      % (len(rows), size / 2**20))
