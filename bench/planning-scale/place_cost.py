#!/usr/bin/python3
"""What fuel-place adds on large model-shaped programs, as a fraction of
parse + print.

For every shape and size (default: transformer and convnet at 100k kernel-bearing
ops), generates a model (cached like run.py), then runs, interleaved and --repeat
times each (medians are reported):

  baseline:  fuel-opt IN -o /dev/null                          (wall time)
  baseline timing: the same with -mlir-timing                  (Parser, Output)
  per algorithm A and diagnostics variant V:
    fuel-opt IN --pass-pipeline='builtin.module(fuel-attach-topology{topology=T},
      func.func(fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates,
      fuel-annotate-costs,fuel-rank-candidates,fuel-retain-frontier,
      fuel-place{placement-algorithm=A}))' -o /dev/null -mlir-timing [V flags]

and reads the FuelPlacePass row of the timing report (its inclusive time, summed
over functions).  Reports place s / baseline wall s against --target (default
0.75).  Diagnostics variants: `as-is` (fuel-opt's defaults) and `quiet`
(--mlir-print-op-on-diagnostic=false): fuel-place emits a remark on a function
whose placement is not proven optimal, and by default MLIR attaches the whole
function's text to it, which the pass pays for.  Python 3 standard library only.
"""

import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as planning_scale  # noqa: E402

PHASE_A = ("fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates,"
           "fuel-annotate-costs,fuel-rank-candidates,fuel-retain-frontier")
VARIANTS = {"as-is": [], "quiet": ["--mlir-print-op-on-diagnostic=false"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fuel-opt", required=True, help="path to fuel-opt")
    ap.add_argument("--topology", default="test/topologies/cpu-cuda-vulkan.json")
    ap.add_argument("--sizes", default="100000")
    ap.add_argument("--shapes", default="transformer,convnet")
    ap.add_argument("--algorithms", default="auto",
                    help="comma-separated placement algorithms (default: auto)")
    ap.add_argument("--variants", default="as-is,quiet",
                    help="diagnostics variants: as-is, quiet (default: both)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--target", type=float, default=0.75,
                    help="target for FuelPlacePass s / baseline wall s")
    ap.add_argument("--json", default=None, help="write all results to this file")
    a = ap.parse_args()

    fuel_opt, (topology,) = planning_scale.check_inputs(a.fuel_opt, [a.topology])
    sizes = [int(s) for s in a.sizes.split(",") if s]
    shapes = [s for s in a.shapes.split(",") if s]
    algorithms = [x for x in a.algorithms.split(",") if x]
    variants = [v for v in a.variants.split(",") if v]
    for v in variants:
        if v not in VARIANTS:
            sys.exit("unknown variant %s (expected as-is or quiet)" % v)
    workdir = planning_scale.input_workdir(a.workdir)

    print("fuel-opt: %s" % fuel_opt)
    print("topology: %s" % topology)
    print("repeat:   %d (interleaved; medians)" % a.repeat)
    print(flush=True)

    results = []
    failed = False
    for shape in shapes:
        for n in sizes:
            inp, _ = planning_scale.model_input(workdir, shape, n, a.seed)
            base_cmd = [fuel_opt, inp, "-o", os.devnull]
            base_time_cmd = base_cmd + ["-mlir-timing"]
            runs = {(alg, v): [] for alg in algorithms for v in variants}
            bw, bt = [], []
            err = None
            for _ in range(a.repeat):
                w, _, rc, text = planning_scale.run_child(base_cmd)
                if rc != 0:
                    err = "baseline failed (rc %d): %s" % (rc, text.strip()[-2000:])
                    break
                bw.append(w)
                _, _, rc, text = planning_scale.run_child(base_time_cmd)
                if rc != 0:
                    err = "baseline timing failed (rc %d)" % rc
                    break
                bt.append(planning_scale.parse_timing(text))
                for alg in algorithms:
                    pipe = ("builtin.module(fuel-attach-topology{topology=%s},"
                            "func.func(%s,fuel-place{placement-algorithm=%s}))"
                            % (topology, PHASE_A, alg))
                    for v in variants:
                        cmd = ([fuel_opt, inp, "--pass-pipeline=" + pipe, "-o",
                                os.devnull, "-mlir-timing"] + VARIANTS[v])
                        w, m, rc, text = planning_scale.run_child(cmd)
                        if rc != 0:
                            err = "%s/%s failed (rc %d): %s" % (
                                alg, v, rc, text.strip()[-2000:])
                            break
                        t = planning_scale.parse_timing(text)
                        runs[(alg, v)].append({
                            "wall_s": w, "rss_kib": m,
                            "place_s": t["per_pass"].get("FuelPlacePass", 0.0),
                            "passes_s": t["passes_s"], "per_pass": t["per_pass"]})
                    if err:
                        break
                if err:
                    break
            r = {"shape": shape, "ops": n, "input": inp, "baseline_wall_s": bw,
                 "baseline_timing": bt, "error": err, "runs": {}}
            if err:
                failed = True
                print("%s %d: %s" % (shape, n, err), file=sys.stderr)
            if bw:
                r["baseline_s"] = statistics.median(bw)
                r["parser_s"] = statistics.median([t["parser_s"] or 0.0 for t in bt])
                r["output_s"] = statistics.median([t["output_s"] or 0.0 for t in bt])
            for (alg, v), xs in runs.items():
                if not xs or not bw:
                    continue
                place = statistics.median([x["place_s"] for x in xs])
                r["runs"]["%s/%s" % (alg, v)] = {
                    "algorithm": alg, "variant": v, "samples": xs,
                    "place_s": place,
                    "place_over_baseline": place / r["baseline_s"],
                    "place_over_parse_print": place / (r["parser_s"] + r["output_s"])
                    if r["parser_s"] + r["output_s"] > 0 else None,
                    "pipeline_wall_s": statistics.median([x["wall_s"] for x in xs])}
            results.append(r)
            print("done %s %d" % (shape, n), file=sys.stderr, flush=True)

    hdr = ("shape", "ops", "algorithm", "diagnostics", "base s", "parse s", "print s",
           "place s", "place/base", "place/(parse+print)", "target?")
    rows = []
    for r in results:
        for key, x in r["runs"].items():
            rows.append((r["shape"], str(r["ops"]), x["algorithm"], x["variant"],
                         "%.3f" % r["baseline_s"], "%.3f" % r["parser_s"],
                         "%.3f" % r["output_s"], "%.3f" % x["place_s"],
                         "%.3f" % x["place_over_baseline"],
                         planning_scale.fmt(x["place_over_parse_print"], "%.3f"),
                         planning_scale.verdict(x["place_over_baseline"], a.target)))
        if not r["runs"]:
            rows.append((r["shape"], str(r["ops"]), "", "", "FAILED") + ("",) * 6)
    planning_scale.print_table(hdr, rows, 4)
    print()
    print("base s: wall time of fuel-opt IN -o /dev/null (parse + verify + print); "
          "parse s / print s: its Parser and Output timers; place s: the "
          "FuelPlacePass timer of the phase-A + fuel-place pipeline; target: "
          "place/base <= %g" % a.target)

    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"fuel_opt": fuel_opt, "topology": topology, "repeat": a.repeat,
                       "seed": a.seed, "target": a.target, "results": results},
                      fh, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
