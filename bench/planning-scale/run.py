#!/usr/bin/python3
"""Planning-scale benchmark: cost of a fuel-opt pass pipeline against parse + print.

For every shape and size, generates a model (cached in the work directory), then
runs, interleaved and --repeat times each (medians are reported):

  (a) baseline:  fuel-opt IN -o /dev/null                 (parse + verify + print)
  (b) pipeline:  fuel-opt IN --pass-pipeline='builtin.module(P)' -o /dev/null
  (c) timing:    (b) plus -mlir-timing -mlir-timing-display=tree

Wall time comes from time.perf_counter around the child; peak memory from the
child's ru_maxrss (os.wait4).  The passes' own time is read from (c)'s timing report:
the sum of the top-level timers other than Parser, Output and Rest (nested pass
managers and analyses are inside their parents, so nothing is counted twice).

Targets are reported as PASS/MISS; they never change the exit code.  The exit code
is non-zero only when a command fails.
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "gen_model.py")

NOT_PASSES = {"Parser", "Output", "Rest", "Total", "root"}


def run_child(argv, stderr_path=None):
    """Run argv; return (wall seconds, peak RSS KiB, exit status, stderr text)."""
    err = open(stderr_path, "w+") if stderr_path else tempfile.TemporaryFile("w+")
    try:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read()
    finally:
        err.close()
    return wall, ru.ru_maxrss, p.returncode, text


ROW = re.compile(r"^\s*(\d+\.\d+)\s+\(\s*[\d.]+%\)  (\s*)(\S.*?)\s*$")


def parse_timing(text):
    """Parse an -mlir-timing tree report (wall-time column only).

    Returns dict with parser_s, output_s, rest_s, total_s, passes_s (sum of the
    top-level non-Parser/Output/Rest timers) and per_pass (name -> inclusive
    seconds for every pass timer, summed over occurrences; pipeline containers and
    analyses left out)."""
    res = {"parser_s": None, "output_s": None, "rest_s": None, "total_s": None,
           "passes_s": 0.0, "per_pass": {}}
    seen = False
    for line in text.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        seen = True
        secs, indent, name = float(m.group(1)), len(m.group(2)), m.group(3)
        if indent == 0:
            key = {"Parser": "parser_s", "Output": "output_s", "Rest": "rest_s",
                   "Total": "total_s"}.get(name)
            if key:
                res[key] = (res[key] or 0.0) + secs
                continue
            if name in NOT_PASSES:
                continue
            res["passes_s"] += secs
        if (name.startswith("(A)") or name.startswith("Pipeline Collection")
                or name.endswith(" Pipeline") or name in NOT_PASSES):
            continue
        res["per_pass"][name] = res["per_pass"].get(name, 0.0) + secs
    if not seen:
        raise RuntimeError("no timing report found in stderr")
    return res


def model_input(workdir, shape, n, seed):
    """The cached input for (shape, n, seed), generated with gen_model.py when
    missing.  File names include a hash of gen_model.py, so edits regenerate.
    Returns (path, generation seconds or None when cached)."""
    with open(GEN, "rb") as fh:
        gen_tag = hashlib.sha1(fh.read()).hexdigest()[:8]
    inp = os.path.join(workdir, "%s-%d-s%d-%s.mlir" % (shape, n, seed, gen_tag))
    if os.path.exists(inp):
        return inp, None
    t0 = time.perf_counter()
    tmp = inp + ".tmp"
    g = subprocess.run([sys.executable, GEN, "--shape", shape, "--ops", str(n),
                        "--seed", str(seed), "-o", tmp],
                       stderr=subprocess.PIPE, text=True)
    if g.returncode != 0:
        sys.exit("gen_model.py failed: %s" % g.stderr)
    os.replace(tmp, inp)
    gen_s = time.perf_counter() - t0
    print("generated %s: %s ops, %.1f MB, %.2f s"
          % (inp, n, os.path.getsize(inp) / 1e6, gen_s), file=sys.stderr, flush=True)
    return inp, gen_s


def print_table(header, rows, left_columns):
    """Prints rows under a header: the first `left_columns` columns
    left-aligned, the others right-aligned, each as wide as its widest cell."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(header)]

    def render(cells):
        return "  ".join(c.ljust(w) if i < left_columns else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))

    line = render(header)
    print(line)
    print("-" * len(line))
    for row in rows:
        print(render(row))


def check_inputs(fuel_opt, topologies):
    """Absolute paths of fuel-opt and the topology files; exits with a message
    when fuel-opt is not executable or a topology file is missing."""
    fuel_opt = os.path.abspath(fuel_opt)
    if not os.access(fuel_opt, os.X_OK):
        sys.exit("fuel-opt not executable: %s" % fuel_opt)
    topologies = [os.path.abspath(t) for t in topologies]
    for t in topologies:
        if not os.path.isfile(t):
            sys.exit("topology file not found: %s" % t)
    return fuel_opt, topologies


def input_workdir(workdir):
    """The directory generated inputs are cached in (created if missing)."""
    workdir = workdir or os.path.join(tempfile.gettempdir(), "fuel-planning-scale")
    os.makedirs(workdir, exist_ok=True)
    return workdir


def median(xs):
    return statistics.median(xs) if xs else None


def fmt(x, spec="%.3f"):
    return "-" if x is None else spec % x


def verdict(value, target):
    if value is None:
        return "n/a"
    return "PASS" if value <= target else "MISS"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fuel-opt", required=True, help="path to fuel-opt")
    ap.add_argument("--topology", required=True,
                    help="topology file; substituted for {topology} in --pipeline/--opt-args")
    ap.add_argument("--pipeline", default="fuel-plan{topology={topology}}",
                    help="pass pipeline nested in builtin.module(...) "
                         "(default: %(default)s); a string that already starts with "
                         "'builtin.module(' is used as is")
    ap.add_argument("--opt-args", default=None,
                    help="raw fuel-opt flags used instead of --pass-pipeline, e.g. "
                         "'--fuel-plan=topology={topology}' (shell-split)")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--shapes", default="transformer,convnet")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", default=None,
                    help="where generated inputs are cached (default: a directory "
                         "under the system temp dir)")
    ap.add_argument("--json", default=None, help="write all results to this file")
    ap.add_argument("--ratio-target", type=float, default=2.0,
                    help="target for pipeline wall / baseline wall (default 2.0, the "
                         "phase A target; the whole pipeline's is 3.0)")
    ap.add_argument("--scaling-target", type=float, default=12.0)
    ap.add_argument("--memory-target", type=float, default=3.0)
    a = ap.parse_args()

    fuel_opt, (topology,) = check_inputs(a.fuel_opt, [a.topology])
    sizes = [int(s) for s in a.sizes.split(",") if s]
    shapes = [s for s in a.shapes.split(",") if s]
    workdir = input_workdir(a.workdir)

    if a.opt_args is not None:
        pipe_flags = shlex.split(a.opt_args.replace("{topology}", topology))
        pipe_desc = " ".join(pipe_flags)
    else:
        p = a.pipeline.replace("{topology}", topology)
        if not p.startswith("builtin.module("):
            p = "builtin.module(%s)" % p
        pipe_flags = ["--pass-pipeline=%s" % p]
        pipe_desc = pipe_flags[0]

    print("fuel-opt: %s" % fuel_opt)
    print("pipeline: %s" % pipe_desc)
    print("repeat:   %d (interleaved; medians)" % a.repeat)
    print(flush=True)

    results = []
    failed = False
    for shape in shapes:
        for n in sizes:
            inp, gen_s = model_input(workdir, shape, n, a.seed)
            base_cmd = [fuel_opt, inp, "-o", os.devnull]
            pipe_cmd = [fuel_opt, inp] + pipe_flags + ["-o", os.devnull]
            time_cmd = pipe_cmd + ["-mlir-timing", "-mlir-timing-display=tree"]
            bw, bm, pw, pm, timings = [], [], [], [], []
            err = None
            for _ in range(a.repeat):
                w, m, rc, text = run_child(base_cmd)
                if rc != 0:
                    err = "baseline failed (rc %d): %s" % (rc, text.strip()[-2000:])
                    break
                bw.append(w)
                bm.append(m)
                w, m, rc, text = run_child(pipe_cmd)
                if rc != 0:
                    err = "pipeline failed (rc %d): %s" % (rc, text.strip()[-2000:])
                    break
                pw.append(w)
                pm.append(m)
                w, m, rc, text = run_child(time_cmd)
                if rc != 0:
                    err = "timing run failed (rc %d): %s" % (rc, text.strip()[-2000:])
                    break
                timings.append(parse_timing(text))
            r = {"shape": shape, "ops": n, "input": inp,
                 "input_bytes": os.path.getsize(inp), "gen_s": gen_s,
                 "baseline_wall_s": bw, "pipeline_wall_s": pw,
                 "baseline_rss_kib": bm, "pipeline_rss_kib": pm, "timing": timings,
                 "error": err}
            if err:
                failed = True
                print("%s %d: %s" % (shape, n, err), file=sys.stderr)
            if bw and pw and timings:
                r["baseline_s"] = median(bw)
                r["pipeline_s"] = median(pw)
                r["ratio"] = r["pipeline_s"] / r["baseline_s"]
                r["passes_s"] = median([t["passes_s"] for t in timings])
                r["parser_s"] = median([t["parser_s"] for t in timings
                                        if t["parser_s"] is not None])
                r["output_s"] = median([t["output_s"] for t in timings
                                        if t["output_s"] is not None])
                r["passes_over_baseline"] = r["passes_s"] / r["baseline_s"]
                r["baseline_mib"] = median(bm) / 1024.0
                r["pipeline_mib"] = median(pm) / 1024.0
                r["mem_ratio"] = r["pipeline_mib"] / r["baseline_mib"]
                names = sorted({k for t in timings for k in t["per_pass"]})
                r["per_pass_s"] = {k: median([t["per_pass"].get(k, 0.0) for t in timings])
                                   for k in names}
            results.append(r)
            if "ratio" in r:
                print("done %s %d: baseline %.3f s, pipeline %.3f s"
                      % (shape, n, r["baseline_s"], r["pipeline_s"]), file=sys.stderr,
                      flush=True)

    # ---- table -------------------------------------------------------------
    hdr = ("shape", "ops", "base s", "pipe s", "ratio", "passes s", "pass/base",
           "parse s", "print s", "base MiB", "pipe MiB", "mem ratio", "ratio?", "mem?")
    rows = []
    for r in results:
        if "ratio" not in r:
            b = r["baseline_wall_s"]
            bm = r["baseline_rss_kib"]
            rows.append((r["shape"], str(r["ops"]), fmt(median(b)), "FAILED")
                        + ("",) * 5 + (fmt(median(bm) / 1024.0 if bm else None, "%.1f"),)
                        + ("",) * (len(hdr) - 10))
            continue
        rows.append((r["shape"], str(r["ops"]), fmt(r["baseline_s"]), fmt(r["pipeline_s"]),
                     fmt(r["ratio"], "%.2f"), fmt(r["passes_s"]),
                     fmt(r["passes_over_baseline"], "%.2f"), fmt(r["parser_s"]),
                     fmt(r["output_s"]), fmt(r["baseline_mib"], "%.1f"),
                     fmt(r["pipeline_mib"], "%.1f"), fmt(r["mem_ratio"], "%.2f"),
                     verdict(r["ratio"], a.ratio_target),
                     verdict(r["mem_ratio"], a.memory_target)))
    print_table(hdr, rows, 1)
    print()

    # ---- per pass ----------------------------------------------------------
    # Inclusive seconds of each pass (summed over its instances, median over
    # repetitions) and its share of the baseline's wall time.
    for r in results:
        if "per_pass_s" not in r:
            continue
        items = sorted(r["per_pass_s"].items(), key=lambda kv: -kv[1])
        print("per pass %s %d: %s" % (r["shape"], r["ops"], ", ".join(
            "%s %.3f s (%.2f of base)" % (k, v, v / r["baseline_s"]) for k, v in items)))
    if any("per_pass_s" in r for r in results):
        print()

    # ---- scaling -----------------------------------------------------------
    scaling = []
    by = {(r["shape"], r["ops"]): r for r in results if "ratio" in r}
    pairs = [(lo, hi) for lo in sizes for hi in sizes if hi == 10 * lo]
    if (10000, 100000) in pairs:
        pairs = [(10000, 100000)] + [p for p in pairs if p != (10000, 100000)]
    for shape in shapes:
        for lo, hi in pairs:
            if (shape, lo) not in by or (shape, hi) not in by:
                continue
            rl, rh = by[(shape, lo)], by[(shape, hi)]
            s = {"shape": shape, "from": lo, "to": hi,
                 "pipeline": rh["pipeline_s"] / rl["pipeline_s"],
                 "baseline": rh["baseline_s"] / rl["baseline_s"],
                 "passes": (rh["passes_s"] / rl["passes_s"]) if rl["passes_s"] > 0 else None}
            scaling.append(s)
            judged = (lo, hi) == (10000, 100000)
            print("scaling %-11s %6d -> %6d: pipeline wall x%.2f  passes' own x%s  "
                  "(baseline x%.2f)  %s"
                  % (shape, lo, hi, s["pipeline"], fmt(s["passes"], "%.2f"), s["baseline"],
                     ("%s (target <= %g)" % (verdict(s["pipeline"], a.scaling_target),
                                             a.scaling_target)) if judged else "(info)"))
    if scaling:
        print()
    print("targets: pipeline/baseline wall <= %g, 10k -> 100k ops wall <= %gx, "
          "peak memory <= %gx" % (a.ratio_target, a.scaling_target, a.memory_target))
    print("(PASS/MISS is informational; the exit code only reflects failed commands)")

    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"fuel_opt": fuel_opt, "topology": topology, "pipeline": pipe_desc,
                       "repeat": a.repeat, "seed": a.seed,
                       "targets": {"ratio": a.ratio_target, "scaling": a.scaling_target,
                                   "memory": a.memory_target},
                       "results": results, "scaling": scaling}, fh, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
