#!/usr/bin/python3
"""The shared-memory matmul and conv2d schedules on the first Vulkan device
(lavapipe) against the per-element schedule and the CPU generated kernel,
all compiled by fuel and run by libfuelrt, each result checked against
numpy.

  bench/vulkan-schedules/run.py [--build DIR] [--reps N] [--sizes 128,256]
      [--topology FILE] [--check]

Programs: matmul N x N x N for each --sizes (default 128, 256, 384, 512)
and the two convolutions of examples/convnet.mlir (8x3x32x32 by 16x3x5x5,
8x16x14x14 by 32x16x3x3, NCHW). Variants, each one executable:

  tiled RxR   the shared-memory schedule, R x R elements of C per
              invocation (fuel-apply-schedules vulkan-matmul=tiled
              vulkan-matmul-block=R; fuel-compile takes 4 where the matmul
              fills a tile)
  per-element vulkan-matmul=per-element: one element per invocation, the
              baseline
  cpu         the node pinned to the CPU (cpu.generated), for context

Vulkan variants run with every node pinned to vulkan:0 (--topology, default
test/topologies/cpu-lavapipe.json). Each executable runs once on seeded
inputs, its result compared with test/Integration/reference.py (float64)
as |out - ref| <= 1e-4 + 1e-4 |ref|; then `fuel-run --warmup=2
--repeat=N --report=json`, and the kernel's measured median (the
dispatch's device timestamps) is printed in ms, with speed-up = per-element
/ variant.

--check runs the Vulkan variants on small and prime shapes for correctness
only (the ctest `VulkanSchedules.RunOnLavapipe`). Without a Vulkan device
it exits 77 (skipped) with the reason, except under CI=true, where that is
a failure."""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration"))
import reference  # noqa: E402

PLAN = "allow-cost-placement=false kernel-sources=generated"


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return r.stdout


def no_device(reason):
    if os.environ.get("CI") == "true":
        sys.exit("run.py: no Vulkan device under CI=true: " + reason)
    print("run.py: skipped: " + reason)
    sys.exit(77)


def matmul_program(m, n, k):
    return f"""func.func @matmul(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
                     outs(%f : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %c : tensor<{m}x{n}xf32>
}}
"""


def conv_program(n, c, h, w, f, kh, kw):
    oh, ow = h - kh + 1, w - kw + 1
    x, wt, o = f"{n}x{c}x{h}x{w}xf32", f"{f}x{c}x{kh}x{kw}xf32", f"{n}x{f}x{oh}x{ow}xf32"
    return f"""func.func @conv(%x: tensor<{x}>, %w: tensor<{wt}>) -> tensor<{o}> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{o}>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{o}>) -> tensor<{o}>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}
      ins(%x, %w : tensor<{x}>, tensor<{wt}>) outs(%f : tensor<{o}>) -> tensor<{o}>
  return %c : tensor<{o}>
}}
"""


def compile_variant(tools, topology, src, variant, exe):
    """Writes the executable of `variant` for program `src`."""
    if variant == "cpu":
        run([tools["fuel-compile"], src, "--topology=" + topology,
             "--plan=pinned-device=cpu " + PLAN, "-o", exe])
        return
    if variant == "per-element":
        schedules = "vulkan-matmul=per-element"
    else:
        schedules = ("vulkan-matmul=tiled vulkan-matmul-block="
                     + variant.split()[1].split("x")[0])
    run([tools["fuel-opt"], src,
         "--fuel-plan=topology=%s pinned-device=vulkan:0 %s" % (topology, PLAN),
         "--fuel-outline-kernels", "--fuel-apply-schedules=" + schedules,
         "--fuel-bufferize-kernels", "--fuel-plan-buffers",
         "--convert-fuel-to-llvm", "--convert-fuel-to-spirv",
         "--fuel-serialize-executable=output=" + exe, "-o", os.devnull])


def check(tools, exe, inputs, expected, work, label):
    cmd = [tools["fuel-run"], exe]
    for i, array in enumerate(inputs):
        path = os.path.join(work, "in%d.npy" % i)
        np.save(path, array)
        cmd.append("--input=@" + path)
    out = os.path.join(work, "out.npy")
    run(cmd + ["--output=@" + out])
    got = np.load(out).astype(np.float64)
    err = np.abs(got - expected)
    bad = err > 1e-4 + 1e-4 * np.abs(expected)
    if got.shape != expected.shape or bad.any():
        sys.exit("%s: wrong result (largest error %g)" % (label, err.max()))


def time_ns(tools, exe, reps):
    report = json.loads(run([tools["fuel-run"], exe, "--input=random:1",
                             "--warmup=2", "--repeat=%d" % reps,
                             "--report=json"]))
    kernels = [c for c in report["commands"] if c["kind"] == "dispatch"]
    return sum(c["measured_ns"] for c in kernels)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--sizes", default="128,256,384,512")
    ap.add_argument("--topology",
                    default=os.path.join(ROOT, "test", "topologies", "cpu-lavapipe.json"))
    ap.add_argument("--variants", default="tiled 4x4,tiled 2x2,tiled 1x1,per-element,cpu")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    tools = {t: os.path.join(args.build, "bin", t)
             for t in ("fuel-opt", "fuel-compile", "fuel-run")}
    for t in tools.values():
        if not os.path.exists(t):
            sys.exit("run.py: %s is not built" % t)
    try:
        summary = subprocess.run(["vulkaninfo", "--summary"], capture_output=True,
                                 text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        no_device("vulkaninfo could not run (%s)" % e)
    if "deviceName" not in summary:
        no_device("vulkaninfo lists no device")

    rng = np.random.default_rng(7)
    programs = []
    if args.check:
        for m, n, k in ((64, 64, 64), (127, 61, 67), (1, 5, 3)):
            programs.append(("matmul %dx%dx%d" % (m, n, k), matmul_program(m, n, k),
                             [(m, k), (k, n)], reference.matmul))
        programs.append(("conv 2x3x11x13 * 5x3x3x3", conv_program(2, 3, 11, 13, 5, 3, 3),
                         [(2, 3, 11, 13), (5, 3, 3, 3)], reference.conv2d_nchw))
        variants = [v for v in args.variants.split(",") if v != "cpu"]
    else:
        for s in (int(v) for v in args.sizes.split(",")):
            programs.append(("matmul %d^3" % s, matmul_program(s, s, s),
                             [(s, s), (s, s)], reference.matmul))
        for shape in ((8, 3, 32, 32, 16, 5, 5), (8, 16, 14, 14, 32, 3, 3)):
            n, c, h, w, f, kh, kw = shape
            programs.append(("convnet conv %dx%dx%dx%d * %dx%dx%dx%d" % (n, c, h, w, f, c, kh, kw),
                             conv_program(*shape), [(n, c, h, w), (f, c, kh, kw)],
                             reference.conv2d_nchw))
        variants = args.variants.split(",")

    with tempfile.TemporaryDirectory() as work:
        if not args.check:
            print("| program | " + " | ".join(variants) + " | speed-up of %s |" % variants[0])
            print("|---|" + "---|" * (len(variants) + 1))
        for label, text, shapes, ref in programs:
            src = os.path.join(work, "prog.mlir")
            with open(src, "w") as f:
                f.write(text)
            inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
            expected = ref(*inputs)
            if isinstance(expected, tuple):
                expected = expected[0]
            figures = {}
            for variant in variants:
                exe = os.path.join(work, "prog.fuelx")
                compile_variant(tools, args.topology, src, variant, exe)
                check(tools, exe, inputs, expected, work, "%s, %s" % (label, variant))
                if not args.check:
                    figures[variant] = time_ns(tools, exe, args.reps)
            if args.check:
                print("%s: %s match numpy" % (label, ", ".join(variants)))
                continue
            base = figures.get("per-element")
            cells = ["%.3f" % (figures[v] / 1e6) for v in variants]
            speedup = "%.2f" % (base / figures[variants[0]]) if base else "-"
            print("| %s | %s | %s |" % (label, " | ".join(cells), speedup))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
