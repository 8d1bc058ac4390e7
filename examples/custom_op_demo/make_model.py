#!/usr/bin/env python3
"""Writes the custom op demo's ONNX model and the output the demo must produce.

custom_softplus.onnx: x[1,3,16,16] -> Conv(3->4, 3x3, pad 1) -> cst.cstSoftplus(beta=1.5) -> Mul(2) -> y.
cstSoftplus is not an ONNX operator: its node has domain "cst", and graph.value_info declares its output
(shape inference cannot see inside it), as rknn-toolkit2's reg_custom_op(shape_infer) would.

expected_y.bin: y for the demo's input x[i] = ((37 i) mod 101) / 50 - 1 (exact in float32), computed here in
float64 with numpy: softplus(v) = log(1 + exp(beta v)) / beta.

x.npy + dataset.txt: that input as a calibration dataset (rknn-toolkit2's format), for the int8 conversion.

usage: make_model.py OUTPUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BETA = 1.5


def demo_input():
    i = np.arange(1 * 3 * 16 * 16, dtype=np.int64)
    return (((37 * i) % 101) / 50.0 - 1.0).reshape(1, 3, 16, 16)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.RandomState(7)
    w = (rng.standard_normal((4, 3, 3, 3)) * 0.3).astype(np.float32)
    b = (rng.standard_normal(4) * 0.1).astype(np.float32)

    conv = helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    custom = helper.make_node("cstSoftplus", ["c"], ["s"], name="softplus", domain="cst", beta=BETA)
    mul = helper.make_node("Mul", ["s", "two"], ["y"], name="scale")
    graph = helper.make_graph(
        [conv, custom, mul], "custom_softplus",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 16, 16])],
        initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"),
                     numpy_helper.from_array(np.array(2.0, dtype=np.float32), "two")],
        value_info=[helper.make_tensor_value_info("s", TensorProto.FLOAT, [1, 4, 16, 16])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("cst", 1)])
    model.ir_version = 7
    onnx.save(model, os.path.join(out_dir, "custom_softplus.onnx"))

    x = demo_input()
    np.save(os.path.join(out_dir, "x.npy"), x.astype(np.float32))
    with open(os.path.join(out_dir, "dataset.txt"), "w") as f:
        f.write(os.path.join(out_dir, "x.npy") + "\n")
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    c = np.zeros((1, 4, 16, 16))
    for kh in range(3):
        for kw in range(3):
            c += np.einsum("oc,nchw->nohw", w[:, :, kh, kw].astype(np.float64), xp[:, :, kh:kh + 16, kw:kw + 16])
    c += b.astype(np.float64).reshape(1, 4, 1, 1)
    y = 2.0 * np.log1p(np.exp(BETA * c)) / BETA
    y.astype("<f4").tofile(os.path.join(out_dir, "expected_y.bin"))


if __name__ == "__main__":
    main()
