"""Checks the arithmetic of a plan file (docs/PLAN-FORMAT.md).

For every function with a prediction: `nodes` is the sum of its nodes'
winner times, `copies` the sum of its copies' predicted_ns, `coupling` the
sum of its nodes' coupling_ns, and `total` the sum of the three parts.
Prints one line per function checked; exits non-zero on the first mismatch.

Usage: check-plan-sums.py PLAN.json
"""

import json
import sys


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        plan = json.load(f)
    for func in plan["functions"]:
        predicted = func["predicted_ns"]
        if predicted is None:
            continue
        nodes = sum(n["winner"]["time_ns"] for n in func["nodes"])
        copies = sum(c["predicted_ns"] for c in func["copies"])
        coupling = sum(n["coupling_ns"] for n in func["nodes"])
        parts = {"nodes": nodes, "copies": copies, "coupling": coupling}
        for name, value in parts.items():
            if predicted[name] != value:
                print(f"{func['name']}: {name} is {predicted[name]}, "
                      f"its terms sum to {value}")
                return 1
        if predicted["total"] != nodes + copies + coupling:
            print(f"{func['name']}: total is {predicted['total']}, "
                  f"its terms sum to {nodes + copies + coupling}")
            return 1
        print(f"{func['name']}: total {predicted['total']} = nodes {nodes} "
              f"+ copies {copies} + coupling {coupling}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
