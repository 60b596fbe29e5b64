"""Merges bench_calls.py results into one table of ratios to the builtin floor.

    python report.py ours.json [apache.json] [--markdown out.md] [--png chart.png]
"""
import argparse
import json

from bench_calls import CASES


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--markdown")
    parser.add_argument("--png")
    args = parser.parse_args()
    runs = [json.load(open(p)) for p in args.files]

    # Columns: every implementation, each as a ratio to the builtin of ITS run.
    columns = []
    for run in runs:
        names = []
        for per_case in run["results"].values():
            names += [n for n in per_case if n != "builtin" and n not in names]
        columns += [(run, name) for name in names]
    header = ["case", "builtin (ns)"] + [f"{name} (ns, x builtin)" for _, name in columns]
    rows = []
    for case, desc in CASES:
        base = runs[0]["results"][case]["builtin"]
        row = [f"{case}: {desc}", f"{base:.0f}"]
        for run, name in columns:
            r = run["results"][case]
            row.append(f"{r[name]:.0f} ({r[name] / r['builtin']:.1f}x)" if name in r else "n/a")
        rows.append(row)

    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths))  # noqa: E731
    print(line(header))
    for row in rows:
        print(line(row))

    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| " + " | ".join(header) + " |\n")
            f.write("|" + "---|" * len(header) + "\n")
            for row in rows:
                f.write("| " + " | ".join(row) + " |\n")
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(11, 5))
        n = len(columns)
        width = 0.8 / n
        xs = range(len(CASES))
        for i, (run, name) in enumerate(columns):
            vals = [run["results"][c][name] / run["results"][c]["builtin"]
                    if name in run["results"][c] else float("nan") for c, _ in CASES]
            ax.bar([x + i * width for x in xs], vals, width, label=name)
        ax.set_xticks([x + 0.4 - width / 2 for x in xs])
        ax.set_xticklabels([c for c, _ in CASES], rotation=20, ha="right")
        ax.set_yscale("log")
        ax.set_ylabel("time / CPython builtin of the same shape (log)")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.legend()
        ax.set_title("Python call overhead (lower is better)")
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
