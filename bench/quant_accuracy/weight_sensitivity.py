#!/usr/bin/python3
"""How much each layer's int8 weights alone cost a float model's output, measured by ONNX Runtime.

Writes variants of an ONNX model whose float weights are replaced by their int8 per-output-channel
(symmetric, nearest) fake-quantized values -- every layer at once, and each layer on its own -- runs
them with ONNX Runtime (npm onnxruntime-node, through weight_sensitivity.js) on the given inputs,
and prints, per variant, the output cosine against the unmodified model: worst and mean over the
inputs. Activations stay float, so the table isolates what int8 weights cost, independently of
npurt's runtime and quantizer. Also the whole model with int16 and with float16 weights, as scale.

  weight_sensitivity.py MODEL.onnx --shape 1,3,48,320 INPUT... [--top 20]
      INPUT: .npy (float32 in the model's input layout) or an image (png/jpg/bmp, resized to the
      shape; --mean/--std per channel on 0..255 values, --bgr to reverse RGB first).

Needs Debian's python3-onnx, python3-numpy, python3-pil and the npm onnxruntime-node that
scripts/setup.sh installs (NPURT_DATA_DIR, default ~/.cache/npurt).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference


def fake_quantize(w, axis, qmax):
    """Symmetric per-channel fake quantization along `axis` (qmax = 127 for int8)."""
    moved = np.moveaxis(w, axis, 0)
    rows = moved.reshape(moved.shape[0], -1)
    scale = np.abs(rows).max(1) / qmax
    scale[scale == 0] = 1.0
    q = np.clip(np.round(rows / scale[:, None]), -qmax, qmax) * scale[:, None]
    return np.moveaxis(q.reshape(moved.shape), 0, axis).astype(np.float32)


def constants(model):
    """Name -> TensorProto of every initializer and Constant node value."""
    found = {i.name: i for i in model.graph.initializer}
    for n in model.graph.node:
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            found[n.output[0]] = n.attribute[0].t
    return found


def weight_layers(model, shape):
    """(node name, weight tensor name, output-channel axis, MACs) of each layer with constant weights."""
    sized = onnx.ModelProto()
    sized.CopyFrom(model)
    for dim, v in zip(sized.graph.input[0].type.tensor_type.shape.dim, shape):
        dim.ClearField("dim_param")
        dim.dim_value = v
    inferred = shape_inference.infer_shapes(sized)
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(inferred.graph.value_info) + list(inferred.graph.output) + list(inferred.graph.input)}
    consts = constants(model)
    layers = []
    for n in model.graph.node:
        if n.op_type not in ("Conv", "ConvTranspose", "MatMul", "Gemm") or len(n.input) < 2 or n.input[1] not in consts:
            continue
        w = numpy_helper.to_array(consts[n.input[1]])
        if w.ndim < 2:
            continue
        if n.op_type == "ConvTranspose":  # [C_in, C_out / group, k...]: MACs per input value
            axis, macs = 1, int(np.prod(shapes.get(n.input[0], [0]))) * int(np.prod(w.shape[1:]))
        elif n.op_type == "Conv":  # [C_out, C_in / group, k...]
            axis, macs = 0, int(np.prod(shapes.get(n.output[0], [0]))) * int(np.prod(w.shape[1:]))
        else:  # MatMul B [K, N]; Gemm B [K, N] or, with transB, [N, K]
            trans_b = any(a.name == "transB" and a.i for a in n.attribute)
            axis = 0 if trans_b else 1
            macs = int(np.prod(shapes.get(n.output[0], [0]))) * w.shape[1 - axis]
        layers.append((n.name or n.output[0], n.input[1], axis, macs))
    return layers


def variant(model, layers, which, qmax=127, fp16=False):
    """A copy of `model` with the weights of the layers named in `which` fake-quantized."""
    targets = {l[1]: l[2] for l in layers if l[0] in which}
    out = onnx.ModelProto()
    out.CopyFrom(model)

    def rewrite(t):
        w = numpy_helper.to_array(t)
        w = w.astype(np.float16).astype(np.float32) if fp16 else fake_quantize(w, targets[t.name or ""], qmax)
        t.CopyFrom(numpy_helper.from_array(w, t.name))

    for init in out.graph.initializer:
        if init.name in targets:
            rewrite(init)
    for n in out.graph.node:
        if n.op_type == "Constant" and n.output[0] in targets:
            t = n.attribute[0].t
            name = t.name
            t.name = n.output[0]
            rewrite(t)
            t.name = name
    return out


def load_input(path, shape, mean, std, bgr):
    if path.endswith(".npy"):
        x = np.load(path).astype(np.float32)
    else:
        from PIL import Image
        img = Image.open(path).convert("RGB").resize((shape[3], shape[2]))
        a = np.asarray(img).astype(np.float32)
        if bgr:
            a = a[:, :, ::-1]
        a = (a - np.array(mean, np.float32)) / np.array(std, np.float32)
        x = a.transpose(2, 0, 1)[None]
    if x.size != int(np.prod(shape)):
        sys.exit(f"{path}: {x.size} values, the shape {shape} holds {int(np.prod(shape))}")
    return np.ascontiguousarray(x.reshape(shape), dtype=np.float32)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model")
    p.add_argument("inputs", nargs="+")
    p.add_argument("--shape", required=True, help="the input's shape, e.g. 1,3,48,320")
    p.add_argument("--mean", default="0,0,0")
    p.add_argument("--std", default="1,1,1")
    p.add_argument("--bgr", action="store_true")
    p.add_argument("--top", type=int, default=20, help="layers listed, most costly first")
    args = p.parse_args()
    shape = [int(v) for v in args.shape.split(",")]
    model = onnx.load(args.model)
    layers = weight_layers(model, shape)
    if not layers:
        sys.exit(f"{args.model}: no Conv / ConvTranspose / MatMul / Gemm with constant weights")
    total = sum(l[3] for l in layers) or 1
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory(prefix="npurt_wsens_") as tmp:
        names = []
        for i, path in enumerate(args.inputs):
            load_input(path, shape, [float(v) for v in args.mean.split(",")],
                       [float(v) for v in args.std.split(",")], args.bgr).tofile(f"{tmp}/in{i}.bin")
        all_names = {l[0] for l in layers}
        jobs = [("reference", model), ("int8, every layer", variant(model, layers, all_names)),
                ("int16, every layer", variant(model, layers, all_names, qmax=32767)),
                ("float16, every layer", variant(model, layers, all_names, fp16=True))]
        jobs += [(l[0], variant(model, layers, {l[0]})) for l in layers]
        for k, (name, m) in enumerate(jobs):
            onnx.save(m, f"{tmp}/m{k}.onnx")
            names.append(name)
        runner = subprocess.run(["node", os.path.join(here, "weight_sensitivity.js"), tmp, str(len(args.inputs)),
                                 ",".join(map(str, shape)), str(len(jobs))], capture_output=True, text=True)
        if runner.returncode != 0:
            sys.exit("weight_sensitivity.js failed:\n" + runner.stderr)
        cosines = [[float(v) for v in line.split()] for line in runner.stdout.strip().split("\n")]
    macs = {l[0]: l[3] for l in layers}
    print(f"{args.model}: {len(layers)} layers with weights, {total / 1e6:.1f} M MACs, {len(args.inputs)} inputs")
    print("output cosine against the float model (ONNX Runtime), weights fake-quantized per output channel")
    print(f"| {'weights quantized':34s} | MACs % | cosine worst | cosine mean |")
    print("|---|---|---|---|")
    rows = [(names[k], cosines[k - 1]) for k in range(1, len(jobs))]
    for name, c in rows[:3]:
        print(f"| {name:34s} | 100.0 | {min(c):.5f} | {sum(c) / len(c):.5f} |")
    singles = sorted(rows[3:], key=lambda r: min(r[1]))
    for name, c in singles[:args.top]:
        print(f"| {name + ' alone (int8)':34s} | {100.0 * macs[name] / total:5.2f} | {min(c):.5f} | {sum(c) / len(c):.5f} |")


if __name__ == "__main__":
    main()
