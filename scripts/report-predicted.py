#!/usr/bin/python3
"""Layer 1's predicted time against the measured one, per node and example.

  scripts/report-predicted.py [EXAMPLE.mlir ...] [--topology FILE]
      [--repeat N] [--threads N] [--plan OPTIONS] [--json FILE]

Default: the three examples (mlp, convnet, transformer). The topology is
probed once (`fuel-topology probe`) unless --topology is given, and every
example is compiled for it (`--plan` default `allow-cost-placement=false`:
every node stays on the host) and run with `fuel-run --input=random:1
--repeat=N --report=json` (every core unless --threads). Prints one markdown
table: per plan node its op and operand types (from the planned IR), kernel,
predicted and measured (median) µs and measured / predicted; per example the
totals and the geometric mean of the per-node error factor (max(r, 1/r)).
Copies are summed into one row per example. Run it before and after
`scripts/fit-registry.py --write` (and a rebuild: the registry is embedded in
fuel-compile) to see what the fit changed. Tools come from
$FUEL_BUILD_DIR/bin (default build/bin).
"""

import argparse
import json
import math
import os
import re
import sys
import tempfile

from fueltools import Fail, run, tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = ["mlp", "convnet", "transformer"]
NODE = re.compile(r"fuel\.node (\d+) (\w+) \(.*?\) : \((.*?)\) -> (\S+)")


def short(types):
    return ", ".join(t.replace("tensor<", "").replace(">", "").replace("xf32", "")
                     for t in types.split(", "))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("examples", nargs="*")
    ap.add_argument("--topology", default="")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--plan", default="allow-cost-placement=false")
    ap.add_argument("--json", default="", help="also write the rows as JSON")
    args = ap.parse_args()
    build = os.environ.get("FUEL_BUILD_DIR", os.path.join(ROOT, "build"))
    bins = {t: tool(build, t) for t in ("fuel-compile", "fuel-run", "fuel-topology")}
    examples = args.examples or [os.path.join(ROOT, "examples", e + ".mlir") for e in EXAMPLES]
    out_rows = []
    with tempfile.TemporaryDirectory(prefix="fuel-predicted-") as work:
        topo = args.topology
        if not topo:
            topo = os.path.join(work, "topology.json")
            with open(topo, "w") as f:
                f.write(run([bins["fuel-topology"], "probe"]))
        print(f"fuel-run --repeat={args.repeat} (median){' --threads=' + str(args.threads) if args.threads else ', every core'}; "
              f"times in µs\n")
        print("| example | node | op (operands → result) | kernel | predicted | measured | measured / predicted |")
        print("|---|---|---|---|---|---|---|")
        for ex in examples:
            name = os.path.basename(ex).removesuffix(".mlir")
            exe = os.path.join(work, name + ".fuelx")
            common = [bins["fuel-compile"], ex, "--topology=" + topo, "--plan=" + args.plan]
            planned = run(common + ["--emit=planned", "-o", "-"])
            nodes = {int(m.group(1)): (m.group(2), short(m.group(3)), short(m.group(4)))
                     for m in NODE.finditer(planned)}
            run(common + ["-o", exe])
            cmd = [bins["fuel-run"], exe, "--input=random:1", f"--repeat={args.repeat}",
                   "--report=json"]
            if args.threads:
                cmd.append(f"--threads={args.threads}")
            report = json.loads(run(cmd))
            per_node = {}
            copies = [0, 0, 0]
            for c in report["commands"]:
                if c["kind"] != "dispatch" or c.get("node", -1) < 0:
                    copies[0] += c["predicted_ns"]
                    copies[1] += c["measured_ns"]
                    copies[2] += 1
                    continue
                e = per_node.setdefault(c["node"], [c["kernel"], 0, 0])
                e[1] += c["predicted_ns"]
                e[2] += c["measured_ns"]
            errors = []
            for node in sorted(per_node):
                kernel, pred, meas = per_node[node]
                kind, ins, res = nodes.get(node, ("?", "?", "?"))
                ratio = meas / pred if pred else float("inf")
                if pred and meas:
                    errors.append(max(ratio, 1 / ratio))
                print(f"| {name} | {node} | {kind} {ins} → {res} | {kernel} | {pred / 1000:.1f} | "
                      f"{meas / 1000:.1f} | {ratio:.2f} |")
                out_rows.append({"example": name, "node": node, "op": kind, "kernel": kernel,
                                 "predicted_ns": pred, "measured_ns": meas})
            if copies[2]:
                ratio = copies[1] / copies[0] if copies[0] else float("inf")
                print(f"| {name} | copies | {copies[2]} commands | — | {copies[0] / 1000:.1f} | "
                      f"{copies[1] / 1000:.1f} | {ratio:.2f} |")
            tp, tm = report["total_predicted_ns"], report["total_measured_ns"]
            gm = math.exp(sum(math.log(e) for e in errors) / len(errors)) if errors else 1.0
            print(f"| **{name}** | **total, {len(report['commands'])} commands** | per-node error "
                  f"factor, geomean: {gm:.2f}× | | **{tp / 1000:.1f}** | **{tm / 1000:.1f}** | "
                  f"**{tm / tp:.2f}** |")
            out_rows.append({"example": name, "node": "total", "predicted_ns": tp, "measured_ns": tm,
                             "geomean_error": gm})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out_rows, f, indent=1)


if __name__ == "__main__":
    try:
        main()
    except Fail as e:
        sys.stderr.write(f"report-predicted: {e}\n")
        sys.exit(1)
