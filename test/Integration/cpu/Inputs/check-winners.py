"""Checks that every dispatch of an executable runs its plan node's winner.

  check-winners.py PLAN.json DUMP.txt

PLAN.json is a plan export (docs/PLAN-FORMAT.md) of a one-function module,
DUMP.txt what `fuel-run --dump` printed for its executable. Each node of the
plan must have exactly one dispatch whose report names the node, and that
dispatch's kernel id, source ("generated" for generated kernels, "library"
for every vendor source) and revision (when the plan records it, from
format version 3) must be the winner's. Dispatches without a node are
host-op kernels and are not checked here.
"""
import json
import re
import sys

REPORT = re.compile(r'^\s*\[(\d+)\] dispatch .*\| node (-?\d+) "([^"]*)" '
                    r'"([^"]*)" "([^"]*)" revision (0x[0-9a-f]+)')


def main():
    plan = json.load(open(sys.argv[1]))
    (function,) = plan["functions"]
    dispatches = {}
    for line in open(sys.argv[2]):
        m = REPORT.match(line)
        if not m:
            continue
        node = int(m.group(2))
        if node < 0:
            continue
        if node in dispatches:
            sys.exit(f"node {node} has two dispatches")
        dispatches[node] = {"kernel": m.group(4), "source": m.group(5),
                            "revision": int(m.group(6), 16)}
    errors = []
    for node in function["nodes"]:
        winner = node["winner"]
        got = dispatches.pop(node["id"], None)
        if got is None:
            errors.append(f"node {node['id']}: no dispatch")
            continue
        source = "generated" if winner["source"] == "generated" else "library"
        if got["kernel"] != winner["kernel"] or got["source"] != source:
            errors.append(f"node {node['id']}: runs {got['kernel']} "
                          f"({got['source']}), the winner is "
                          f"{winner['kernel']} ({winner['source']})")
        if "revision" in winner and got["revision"] != int(winner["revision"],
                                                           16):
            errors.append(f"node {node['id']}: revision "
                          f"{got['revision']:#018x}, the winner's is "
                          f"{winner['revision']}")
    for node in dispatches:
        errors.append(f"dispatch of node {node}, which the plan lacks")
    if not function["nodes"]:
        errors.append("the plan has no node")
    if errors:
        sys.exit("\n".join(errors))
    print(f"{len(function['nodes'])} dispatches run their winners")


if __name__ == "__main__":
    main()
