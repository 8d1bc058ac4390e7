#!/usr/bin/python3
"""The model suite in int8: each model of DIR (written by make_model_suite.py) converted with
`npurt convert --quantize` on a two-sample calibration set (the suite's input and a random one), then
compared with its float model by `npurt accuracy` on a held-out random input. Prints the table of
docs/supported_models.md: operators, MAC shares by precision (`npurt info`), the float model's
parity with ONNX Runtime (from the conformance run's log, when given) and the int8 outputs' cosine
to float. Exit status 1 when a conversion or an analysis fails.

  quantize_suite.py NPURT DIR [CONFORMANCE_LOG]
"""
import concurrent.futures
import csv
import glob
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def run(cmd, log):
    with open(log, "w") as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode


def float_parity(log_path):
    """{model: 'cosine c, max error e x max|ref|'} (the worst output) from npurt_conformance --verbose."""
    parity = {}
    if not log_path or not os.path.exists(log_path):
        return parity
    case = None
    for line in open(log_path):
        m = re.match(r"(PASS|FAIL) \S+?/(\S+)", line)
        if m:
            case = m.group(2).rstrip(":")
        m = re.search(r"cosine ([0-9.]+), max abs diff \S+ = ([0-9.e+-]+) x max", line)
        if m and case:
            cos, rel = float(m.group(1)), float(m.group(2))
            old = parity.get(case)
            if old is None or cos < old[0]:
                parity[case] = (cos, rel)
    return parity


def quantize_case(npurt, case):
    """(name, row or None, message) for one model directory."""
    name = os.path.basename(os.path.dirname(case))
    model = onnx.load(os.path.join(case, "model.onnx"), load_external_data=False)
    ops = sorted({n.op_type for n in model.graph.node if n.op_type not in ("Constant", "Identity")})
    outputs = [o.name for o in model.graph.output]
    xs = [numpy_helper.to_array(onnx.load_tensor(p))
          for p in sorted(glob.glob(os.path.join(case, "test_data_set_0", "input_*.pb")))]
    rng = np.random.default_rng(7)
    lines = []
    for k in range(2):
        paths = []
        for i, x in enumerate(xs):
            p = os.path.join(case, "calib_%d_%d.npy" % (k, i))
            np.save(p, (x if k == 0 else rng.uniform(-1, 1, x.shape)).astype(np.float32))
            paths.append(p)
        lines.append(" ".join(paths))
    with open(os.path.join(case, "calib.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    held_out = []
    for i, x in enumerate(xs):
        p = os.path.join(case, "held_out_%d.npy" % i)
        np.save(p, rng.uniform(-1, 1, x.shape).astype(np.float32))
        held_out.append(p)
    int8 = os.path.join(case, "model_int8.rknn")
    if run([npurt, "convert", os.path.join(case, "model.onnx"), "--quantize", "--dataset",
            os.path.join(case, "calib.txt"), "-o", int8], os.path.join(case, "quantize.log")) != 0:
        return name, None, "FAIL %s: npurt convert --quantize (see %s)" % (name, os.path.join(case, "quantize.log"))
    info = subprocess.run([npurt, "info", int8], capture_output=True, text=True).stdout
    macs = re.search(r"MACs: (.*)", info)
    analysis = os.path.join(case, "accuracy")
    if run([npurt, "accuracy", os.path.join(case, "model.onnx"), "--dataset", os.path.join(case, "calib.txt"),
            "--input", " ".join(held_out), "-o", analysis], os.path.join(case, "accuracy.log")) != 0:
        return name, None, "FAIL %s: npurt accuracy (see %s)" % (name, os.path.join(case, "accuracy.log"))
    cosines = {}
    with open(os.path.join(analysis, "error_analysis.csv")) as f:
        for r in csv.DictReader(f):
            if r["tensor"] in outputs:
                cosines[r["tensor"]] = float(r["entire_cosine"])
    if len(cosines) != len(outputs):
        return name, None, "FAIL %s: the analysis lacks outputs %s" % (name, sorted(set(outputs) - set(cosines)))
    row = (ops, macs.group(1) if macs else "?", [cosines[o] for o in outputs])
    return name, row, "PASS %s: int8 output cosine %s" % (name, ", ".join("%.5f" % cosines[o] for o in outputs))


def main():
    npurt, root = sys.argv[1], sys.argv[2]
    parity = float_parity(sys.argv[3] if len(sys.argv) > 3 else None)
    cases = sorted(glob.glob(os.path.join(os.path.abspath(root), "*", "")))  # (datasets name files by absolute path)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:  # the processes, two at a time
        results = list(pool.map(lambda c: quantize_case(npurt, c), cases))
    rows, failed = [], 0
    for name, row, message in results:
        print(message)
        if row is None:
            failed += 1
            continue
        ops, macs, cosines = row
        p = parity.get(name)
        rows.append("| %s | %s | %s | %s | %s |" % (
            name, ", ".join(ops), macs, "cosine %.7f, max error %.1e x max\\|ref\\|" % p if p else "(see ctest)",
            ", ".join("%.4f" % c for c in cosines)))
    print()
    print("| model | ONNX operators | MACs (by precision, int8 model) | float vs ONNX Runtime | int8 vs float (cosine per output) |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    print("model_suite_int8: %d converted, %d failed" % (len(rows), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
