#!/usr/bin/python3
"""Checks the predicted time of every copy between devices in a fuel-run
JSON report against the topology's link figures, computed here:

  check-copy-predictions.py TOPOLOGY.json REPORT.json [--expect-copies N]

A copy of B bytes from `from` to `to` over a link of latency L ns and
bandwidth W bytes/s is predicted at L + ceil(B * 10^9 / W) ns
(docs/SEMANTICS.md §5). Every link the copies take must state both
figures in the topology. Exits 1 naming the first copy whose prediction
differs, or when fewer than N copies between devices were reported."""

import argparse
import json
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("topology")
    parser.add_argument("report")
    parser.add_argument("--expect-copies", type=int, default=1)
    args = parser.parse_args()
    with open(args.topology) as f:
        topology = json.load(f)
    with open(args.report) as f:
        report = json.load(f)
    links = {(l["from"], l["to"]): l for l in topology["links"]}
    checked = 0
    for row in report["commands"]:
        if row["kind"] != "copy" or row["from"] == row["to"]:
            continue
        link = links.get((row["from"], row["to"]))
        if link is None or "latency_ns" not in link or \
                "bandwidth_bytes_per_s" not in link:
            sys.exit("copy %d: the topology states no latency and bandwidth "
                     "for %s -> %s" % (row["index"], row["from"], row["to"]))
        bytes_ = row["bytes"]
        bandwidth = link["bandwidth_bytes_per_s"]
        expected = link["latency_ns"] + (bytes_ * 10**9 + bandwidth - 1) // bandwidth
        if row["predicted_ns"] != expected:
            sys.exit("copy %d (%s -> %s, %d bytes): predicted %d ns, the link "
                     "gives %d ns" % (row["index"], row["from"], row["to"],
                                      bytes_, row["predicted_ns"], expected))
        print("copy %d %s -> %s %d bytes: predicted %d ns = %d + ceil(%d * 1e9 / %d)"
              % (row["index"], row["from"], row["to"], bytes_, expected,
                 link["latency_ns"], bytes_, bandwidth))
        checked += 1
    if checked < args.expect_copies:
        sys.exit("%d copies between devices in the report, expected at least %d"
                 % (checked, args.expect_copies))


if __name__ == "__main__":
    main()
