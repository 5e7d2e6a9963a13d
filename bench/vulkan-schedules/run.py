#!/usr/bin/python3
"""The fast Vulkan schedules against their baselines on the first CPU-type
Vulkan device (lavapipe), each result checked against numpy.

  bench/vulkan-schedules/run.py [--build DIR] [--reps N]
      [--subgroup N --shared BYTES --max-invocations N]

matmul M^3: kernels/schedules/vulkan/matmul_tiled.mlir (workgroup-memory
panels) against matmul_naive.mlir (one element per invocation from the
storage buffers), same tiles (fuel::target::chooseMatmulTiling's rule).
(The row reductions and softmax are measured through the pipeline by
rows.py.) Prints the best
of --reps dispatches (one submit and wait each) and the ratio
baseline / fast (> 1: the fast schedule wins).

--check runs only the fast kernels, on small and prime shapes, and checks
them against numpy (the ctest `VulkanSchedules.RunOnLavapipe`). Without a
Vulkan device it exits 77 (skipped) with the reason, except under CI=true,
where that is a failure."""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

TARGET_ENV = (
    "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, "
    "GroupNonUniformArithmetic, GroupNonUniformShuffle], [SPV_KHR_storage_buffer_storage_class]>, "
    "api=Vulkan, #spirv.resource_limits<>>"
)

SPIRV_PIPELINE = (
    "builtin.module(fold-memref-alias-ops,expand-strided-metadata,lower-affine,"
    "canonicalize,gpu.module(test-math-polynomial-approximation,"
    "convert-math-to-spirv),convert-gpu-to-spirv,"
    "spirv.module(spirv-lower-abi-attrs,spirv-update-vce))"
)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
    return r.stdout


def extract_spirv_module(text):
    start = text.index("spirv.module")
    depth = 0
    for i in range(text.index("{", start), len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    raise ValueError("unbalanced spirv.module")


def to_spv(tools, mlir_text, workdir, name):
    src = os.path.join(workdir, name + ".mlir")
    with open(src, "w") as f:
        f.write(mlir_text)
    lowered = run([tools["fuel-opt"], src, "--pass-pipeline=" + SPIRV_PIPELINE])
    mod = os.path.join(workdir, name + ".spvmod.mlir")
    with open(mod, "w") as f:
        f.write(extract_spirv_module(lowered))
    spv = os.path.join(workdir, name + ".spv")
    run([tools["mlir-translate"], "--no-implicit-module", "--serialize-spirv", mod, "-o", spv])
    run(["spirv-val", "--target-env", "vulkan1.1", spv])
    return spv


def matmul_kernel(tools, schedule, n, tm, tn, tk, workdir, name):
    payload = """module attributes {gpu.container_module, spirv.target_env = %(env)s} {
  func.func @mm(%%A: tensor<%(n)dx%(n)dxf32>, %%B: tensor<%(n)dx%(n)dxf32>, %%C: tensor<%(n)dx%(n)dxf32>) -> tensor<%(n)dx%(n)dxf32> {
    %%r = linalg.matmul ins(%%A, %%B : tensor<%(n)dx%(n)dxf32>, tensor<%(n)dx%(n)dxf32>) outs(%%C : tensor<%(n)dx%(n)dxf32>) -> tensor<%(n)dx%(n)dxf32>
    return %%r : tensor<%(n)dx%(n)dxf32>
  }
  module attributes {transform.with_named_sequence} {
    transform.named_sequence @matmul_tiled(%%mm: !transform.any_op {transform.consumed}, %%tm: !transform.param<i64> {transform.readonly}, %%tn: !transform.param<i64> {transform.readonly}, %%tk: !transform.param<i64> {transform.readonly}) -> !transform.any_op
    transform.named_sequence @__transform_main(%%root: !transform.any_op {transform.readonly}) {
      %%mm = transform.structured.match ops{["linalg.matmul"]} in %%root : (!transform.any_op) -> !transform.any_op
      %%tm = transform.param.constant %(tm)d : i64 -> !transform.param<i64>
      %%tn = transform.param.constant %(tn)d : i64 -> !transform.param<i64>
      %%tk = transform.param.constant %(tk)d : i64 -> !transform.param<i64>
      %%f = transform.include @matmul_tiled failures(propagate) (%%mm, %%tm, %%tn, %%tk) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
      %%l = transform.gpu.map_forall_to_blocks %%f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
      %%l2 = transform.gpu.map_nested_forall_to_threads %%l block_dims = [%(tn)d, %(tm)d, 1] : (!transform.any_op) -> !transform.any_op
      transform.yield
    }
  }
}
""" % dict(env=TARGET_ENV, n=n, tm=tm, tn=tn, tk=tk)
    src = os.path.join(workdir, name + ".payload.mlir")
    with open(src, "w") as f:
        f.write(payload)
    kernels = run([tools["fuel-opt"], src,
                   "--transform-preload-library=transform-library-paths=" + schedule,
                   "--transform-interpreter", "--test-transform-dialect-erase-schedule",
                   "--convert-linalg-to-loops", "--canonicalize",
                   "--gpu-launch-sink-index-computations", "--gpu-kernel-outlining",
                   "--canonicalize"])
    abi = "spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [%d, %d, 1]>, " % (tn, tm)
    kernels = kernels.replace(" kernel attributes {", " kernel attributes {" + abi)
    return to_spv(tools, kernels, workdir, name)


def no_device(reason):
    if os.environ.get("CI") == "true":
        sys.exit("run.py: no Vulkan device under CI=true: " + reason)
    print("run.py: skipped, no Vulkan device: " + reason)
    sys.exit(77)


def time_kernel(tools, spv, entry, groups, reps, buffers):
    cmd = [tools["vk-run"], spv, entry] + [str(g) for g in groups] + [str(reps)] + buffers
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode and ("no Vulkan device" in r.stderr or "vkCreateInstance" in r.stderr):
        no_device(r.stderr.strip())
    if r.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), r.stderr))
    out = r.stdout
    fields = out.split()
    return float(fields[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--subgroup", type=int, default=8)
    ap.add_argument("--shared", type=int, default=32768)
    ap.add_argument("--max-invocations", type=int, default=1024)
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin",
                    help="where mlir-opt and mlir-translate are")
    ap.add_argument("--sizes", default="128,256,512")
    ap.add_argument("--check", action="store_true",
                    help="fast kernels only, small and prime shapes, against numpy")
    args = ap.parse_args()
    if args.check:
        args.sizes = "64,128"
        args.reps = 1
    tools = {
        # The test passes (erase-schedule, the polynomial exp) are mlir-opt's.
        "fuel-opt": os.path.join(args.llvm_bin, "mlir-opt"),
        "vk-run": os.path.join(args.build, "bin", "fuel-bench-vk-run"),
        "mlir-translate": os.path.join(args.llvm_bin, "mlir-translate"),
    }
    for name, path in tools.items():
        if not os.path.exists(path):
            sys.exit("run.py: %s not found at %s (build it first)" % (name, path))
    rng = np.random.default_rng(0)
    # chooseMatmulTiling's rule (include/fuel/Target/GpuTiling.h).
    sg = args.subgroup
    tn = -(-16 // sg) * sg
    tm = 16
    while tm > 1 and tm * tn > args.max_invocations:
        tm //= 2
    tk = 64
    while tk > 1 and (tm + tn) * tk * 4 > args.shared:
        tk //= 2
    print("limits: subgroup %d, shared %d B, %d invocations; matmul tiles %dx%dx%d"
          % (sg, args.shared, args.max_invocations, tm, tn, tk))
    print("%-22s %12s %12s %8s %10s" % ("kernel", "fast ms", "base ms", "ratio", "max err"))
    with tempfile.TemporaryDirectory() as work:
        for n in [int(s) for s in args.sizes.split(",")]:
            a = rng.standard_normal((n, n), dtype=np.float32)
            b = rng.standard_normal((n, n), dtype=np.float32)
            pa, pb, pc = (os.path.join(work, x) for x in ("A.bin", "B.bin", "C.bin"))
            a.tofile(pa)
            b.tofile(pb)
            ref = a.astype(np.float64) @ b.astype(np.float64)
            times, err = [], 0.0
            scheds = [os.path.join(ROOT, "kernels", "schedules", "vulkan", "matmul_tiled.mlir")]
            if not args.check:
                scheds.append(os.path.join(HERE, "matmul_naive.mlir"))
            for sched in scheds:
                spv = matmul_kernel(tools, sched, n, tm, tn, tk, work, "mm%d" % len(times))
                t = time_kernel(tools, spv, "mm_kernel", (n // tn, n // tm, 1), args.reps,
                                ["%s:%d:in" % (pa, a.nbytes), "%s:%d:in" % (pb, b.nbytes), "%s:%d" % (pc, n * n * 4)])
                c = np.fromfile(pc + ".out", dtype=np.float32).reshape(n, n)
                err = max(err, float(np.abs(c - ref).max() / np.abs(ref).max()))
                times.append(t)
            if args.check:
                print("%-22s %12.2f %12s %8s %10.2e" % ("matmul %d^3" % n, times[0] / 1e3, "-", "-", err))
            else:
                print("%-22s %12.2f %12.2f %8.2f %10.2e" % ("matmul %d^3" % n, times[0] / 1e3, times[1] / 1e3, times[1] / times[0], err))
            if err > 1e-5:
                sys.exit("matmul %d: result differs from numpy" % n)


if __name__ == "__main__":
    main()
