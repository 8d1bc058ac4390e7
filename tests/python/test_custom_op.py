"""rknn-toolkit2's reg_custom_op on npurt: a node of ONNX's own domain whose op type no ONNX op has (the vendor's
"non-ONNX-standard" custom op) converts once its class is registered; the exported model runs in the
vendor-style C program that registers the op's callbacks (examples/custom_op_demo), against numpy."""
import os
import subprocess
import sys

import numpy as np
import onnx
from rknn.api import RKNN
from rknn.api.custom_op import get_node_attr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class CstSoftplus:
    op_type = "cstSoftplus"
    seen = []

    def shape_infer(self, node, in_shapes, in_dtypes):
        CstSoftplus.seen.append((get_node_attr(node, "beta"), [list(s) for s in in_shapes], list(in_dtypes)))
        return [list(in_shapes[0])], [in_dtypes[0]]

    def compute(self, node, inputs):
        beta = get_node_attr(node, "beta")
        return [np.log1p(np.exp(beta * inputs[0])) / beta]


def vendor_style_model(tmp_path):
    """examples/custom_op_demo's model with its custom node moved into ONNX's domain and no declared shape."""
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "custom_op_demo", "make_model.py"), str(tmp_path)],
                   check=True)
    model = onnx.load(str(tmp_path / "custom_softplus.onnx"))
    for node in model.graph.node:
        if node.op_type == "cstSoftplus":
            node.domain = ""
    del model.graph.value_info[:]
    kept = [o for o in model.opset_import if o.domain == ""]
    del model.opset_import[:]
    model.opset_import.extend(kept)
    path = str(tmp_path / "vendor_style.onnx")
    onnx.save(model, path)
    return path, str(tmp_path / "expected_y.bin")


def test_registered_custom_op_converts_and_runs_with_the_c_callbacks(tmp_path, capsys):
    path, expected = vendor_style_model(tmp_path)
    plain = RKNN()
    plain.config(target_platform="rk3588", float_dtype="float32")
    assert plain.load_onnx(model=path) == -1
    assert "cstSoftplus" in capsys.readouterr().err

    CstSoftplus.seen.clear()
    rknn = RKNN()
    rknn.config(target_platform="rk3588", float_dtype="float32")
    assert rknn.reg_custom_op(CstSoftplus) == 0
    assert rknn.load_onnx(model=path) == 0
    assert CstSoftplus.seen == [(1.5, [[1, 4, 16, 16]], [np.dtype("float32")])]
    assert rknn.build(do_quantization=False) == 0
    out = str(tmp_path / "custom.rknn")
    assert rknn.export_rknn(out) == 0
    demo = os.environ.get("NPURT_CUSTOM_OP_DEMO")
    assert demo and os.path.isfile(demo), "ctest sets NPURT_CUSTOM_OP_DEMO"
    run = subprocess.run([demo, out, expected, "1e-4"], capture_output=True, text=True,
                         env=dict(os.environ, RKNN_LOG_LEVEL="0"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "custom op result is correct" in run.stdout


def test_custom_op_misuse_says_why(tmp_path, capsys):
    path, _ = vendor_style_model(tmp_path)

    class NoShapes:
        op_type = "cstSoftplus"

    rknn = RKNN()
    assert rknn.reg_custom_op(NoShapes) == -1
    assert "shape_infer" in capsys.readouterr().err
    assert rknn.reg_custom_op(CstSoftplus) == 0
    assert rknn.load_onnx(model=path) == 0
    # Calibration runs the model, and npurt's converter has no code of the application's to run.
    dataset = tmp_path / "dataset.txt"
    np.save(str(tmp_path / "x.npy"), np.zeros((1, 3, 16, 16), np.float32))
    dataset.write_text(str(tmp_path / "x.npy") + "\n")
    assert rknn.build(do_quantization=True, dataset=str(dataset)) == -1
    assert "custom op" in capsys.readouterr().err
    assert rknn.reg_custom_op(CstSoftplus) == -1  # after load_onnx
    assert "before load_onnx" in capsys.readouterr().err
