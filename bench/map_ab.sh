#!/usr/bin/env bash
# Runs two builds of bench_map alternately and prints, for each row, the best
# figure of each with their ratio (docs/performance.md, "Maps").
#   bash bench/map_ab.sh ROUNDS BEFORE_BINARY AFTER_BINARY
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 ROUNDS BEFORE_BINARY AFTER_BINARY" >&2
  exit 2
fi
rounds=$1
before=$2
after=$3
for _ in $(seq "$rounds"); do
  "$before" | sed 's/^/before /'
  "$after" | sed 's/^/after /'
done | python3 -c '
import sys
best, order = {}, []
for line in sys.stdin:
    who, _, rest = line.partition(" ")
    cells = rest.strip().split("|")
    if len(cells) < 3:
        continue
    name = cells[1].strip()
    try:
        ns = float(cells[2])
    except ValueError:
        continue
    if name not in order:
        order.append(name)
    best[(who, name)] = min(best.get((who, name), float("inf")), ns)
print("| Operation | before | after | after / before |")
print("|---|---:|---:|---:|")
for name in order:
    b, a = best[("before", name)], best[("after", name)]
    print(f"| {name} | {b:.1f} | {a:.1f} | {a / b:.2f} |")
'
