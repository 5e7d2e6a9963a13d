#!/usr/bin/python3
"""Placement quality on model-shaped programs: auto against greedy and the best
single-device plan, by the predicted total fuel-place records.

For every shape, size and topology, generates a model (cached in the work
directory, like run.py) and runs fuel-opt with phase A and fuel-place:

  builtin.module(fuel-attach-topology{topology=T [pinned-device=D
      allow-cost-placement=false]},
    func.func(fuel-form-nodes, fuel-enumerate-candidates, fuel-filter-candidates,
      fuel-annotate-costs, fuel-rank-candidates, fuel-retain-frontier,
      fuel-place{placement-algorithm=A}))

  - auto and greedy (and any other --algorithms) on the unpinned configuration;
  - per device D of the topology, a single-device plan: the configuration pinned
    to D without cost placement, so every node stays on D unless D has no kernel
    for it (then it keeps its fallback device), placed with auto.
  - per device D, auto on the configuration pinned to D with cost placement
    allowed ("auto@D").  Pinning also moves the default residency of arguments
    and results to D (SEMANTICS section 5), so the single-device plan on D
    solves a different problem than the unpinned auto run (its inputs are
    already on D); auto@D solves the same problem as single@D, and
    auto@D <= single@D is the like-for-like check.

Each function's `fuel.predicted_ns = #fuel.predicted<total = N, ...>` is read
from the output and summed over the module's functions.  Prints the totals and
the ratios auto/greedy and auto/best-single (below 1: auto predicts a faster
program).  Python 3 standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as planning_scale  # noqa: E402  (input cache, shared helpers)

PHASE_A = ("fuel-form-nodes,fuel-enumerate-candidates,fuel-filter-candidates,"
           "fuel-annotate-costs,fuel-rank-candidates,fuel-retain-frontier")
PREDICTED = re.compile(r"fuel\.predicted_ns = #fuel\.predicted<total = (-?\d+), "
                       r"nodes = (-?\d+), copies = (-?\d+), coupling = (-?\d+)>")
PLACEMENT = re.compile(r"fuel\.node \d+ .*? on (cpu|cuda:\d+|vulkan:\d+)(?= )")


def topology_devices(path):
    with open(path) as fh:
        return [d["device"] for d in json.load(fh)["devices"]]


def pipeline(topology, algorithm, pinned=None, cost_placement=False):
    attach = "topology=%s" % topology
    if pinned:
        attach += " pinned-device=%s allow-cost-placement=%s" % (
            pinned, "true" if cost_placement else "false")
    return ("builtin.module(fuel-attach-topology{%s},func.func(%s,"
            "fuel-place{placement-algorithm=%s}))" % (attach, PHASE_A, algorithm))


def predicted(fuel_opt, inp, pipe):
    """Run the pipeline; return (total, nodes, copies, coupling, placements) summed
    over functions, placements as {device: count}."""
    p = subprocess.run([fuel_opt, inp, "--pass-pipeline=" + pipe,
                        "--mlir-print-op-on-diagnostic=false"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError("fuel-opt failed (rc %d): %s"
                           % (p.returncode, p.stderr.strip()[-2000:]))
    found = PREDICTED.findall(p.stdout)
    if not found:
        raise RuntimeError("no fuel.predicted_ns in the output of " + pipe)
    sums = [sum(int(f[i]) for f in found) for i in range(4)]
    placed = {}
    for d in PLACEMENT.findall(p.stdout):
        placed[d] = placed.get(d, 0) + 1
    return sums + [placed]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fuel-opt", required=True, help="path to fuel-opt")
    ap.add_argument("--topologies",
                    default="test/topologies/cpu-cuda.json,"
                            "test/topologies/cpu-cuda-vulkan.json",
                    help="comma-separated topology files (default: %(default)s)")
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--shapes", default="transformer,convnet")
    ap.add_argument("--algorithms", default="auto,greedy",
                    help="placement algorithms compared (auto must be one)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", default=None,
                    help="where generated inputs are cached (default: a directory "
                         "under the system temp dir, shared with run.py)")
    ap.add_argument("--json", default=None, help="write all results to this file")
    a = ap.parse_args()

    fuel_opt, topologies = planning_scale.check_inputs(
        a.fuel_opt, [t for t in a.topologies.split(",") if t])
    algorithms = [x for x in a.algorithms.split(",") if x]
    if "auto" not in algorithms:
        sys.exit("--algorithms must include auto")
    sizes = [int(s) for s in a.sizes.split(",") if s]
    shapes = [s for s in a.shapes.split(",") if s]
    workdir = planning_scale.input_workdir(a.workdir)

    results = []
    failed = False
    for topo in topologies:
        devices = topology_devices(topo)
        for shape in shapes:
            for n in sizes:
                inp, _ = planning_scale.model_input(workdir, shape, n, a.seed)
                r = {"topology": topo, "shape": shape, "ops": n, "input": inp,
                     "algorithms": {}, "single": {}}
                try:
                    for alg in algorithms:
                        t, nodes, copies, coup, placed = predicted(
                            fuel_opt, inp, pipeline(topo, alg))
                        r["algorithms"][alg] = {"total": t, "nodes": nodes,
                                                "copies": copies, "coupling": coup,
                                                "placements": placed}
                    r["auto_pinned"] = {}
                    for d in devices:
                        t, nodes, copies, coup, placed = predicted(
                            fuel_opt, inp, pipeline(topo, "auto", pinned=d))
                        r["single"][d] = {"total": t, "nodes": nodes,
                                          "copies": copies, "coupling": coup,
                                          "placements": placed}
                        t, nodes, copies, coup, placed = predicted(
                            fuel_opt, inp,
                            pipeline(topo, "auto", pinned=d, cost_placement=True))
                        r["auto_pinned"][d] = {"total": t, "nodes": nodes,
                                               "copies": copies, "coupling": coup,
                                               "placements": placed}
                except RuntimeError as e:
                    r["error"] = str(e)
                    failed = True
                    print("%s %s %d: %s" % (os.path.basename(topo), shape, n, e),
                          file=sys.stderr)
                results.append(r)
                if "error" not in r:
                    auto = r["algorithms"]["auto"]["total"]
                    best_dev = min(r["single"], key=lambda d: r["single"][d]["total"])
                    r["best_single_device"] = best_dev
                    r["best_single"] = r["single"][best_dev]["total"]
                    r["auto_over_best_single"] = auto / r["best_single"]
                    for alg in algorithms:
                        if alg != "auto":
                            r["auto_over_" + alg] = auto / r["algorithms"][alg]["total"]
                    print("done %s %s %d" % (os.path.basename(topo), shape, n),
                          file=sys.stderr, flush=True)

    # ---- table -------------------------------------------------------------
    others = [x for x in algorithms if x != "auto"]
    hdr = (["topology", "shape", "ops", "auto ns"] + ["%s ns" % x for x in others]
           + ["best single", "ns"] + ["auto/%s" % x for x in others]
           + ["auto/single", "auto placements"])
    rows = []
    for r in results:
        if "error" in r:
            rows.append([os.path.basename(r["topology"]), r["shape"], str(r["ops"]),
                         "FAILED"] + [""] * (len(hdr) - 4))
            continue
        placed = r["algorithms"]["auto"]["placements"]
        rows.append([os.path.basename(r["topology"]), r["shape"], str(r["ops"]),
                     str(r["algorithms"]["auto"]["total"])]
                    + [str(r["algorithms"][x]["total"]) for x in others]
                    + [r["best_single_device"], str(r["best_single"])]
                    + ["%.4f" % r["auto_over_" + x] for x in others]
                    + ["%.4f" % r["auto_over_best_single"],
                       " ".join("%s:%d" % kv for kv in sorted(placed.items()))])
    planning_scale.print_table(hdr, rows, 3)
    print()
    print("totals: fuel.predicted_ns summed over the module's functions; single-"
          "device plans: fuel-attach-topology{pinned-device=D "
          "allow-cost-placement=false}, placed with auto")
    print("ratios below 1: auto predicts a faster program")
    print("single-device plans pin arguments and results to D as well (default "
          "residency); like-for-like per device: auto@D (same pinned "
          "configuration, cost placement allowed) against single@D")
    print()
    hdr2 = ["topology", "shape", "ops", "device", "single@D ns", "auto@D ns",
            "auto@D/single@D", "auto@D placements"]
    rows2 = []
    for r in results:
        if "error" in r:
            continue
        for d, v in r["single"].items():
            ap_ = r["auto_pinned"][d]
            rows2.append([os.path.basename(r["topology"]), r["shape"], str(r["ops"]),
                          d, str(v["total"]), str(ap_["total"]),
                          "%.4f" % (ap_["total"] / v["total"]),
                          " ".join("%s:%d" % kv
                                   for kv in sorted(ap_["placements"].items()))])
    planning_scale.print_table(hdr2, rows2, 3)

    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"fuel_opt": fuel_opt, "seed": a.seed, "results": results},
                      fh, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
