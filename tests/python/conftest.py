"""Fixtures of the Python toolkit tests (run by ctest as `python_toolkit`, with PYTHONPATH=<build>/python,
NPURT_CLI=<the npurt binary> and NPURT_DATA_DIR=<the fetched models>)."""
import glob
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper


@pytest.fixture(scope="session")
def npurt_cli():
    path = os.environ.get("NPURT_CLI")
    if not path or not os.path.isfile(path):
        pytest.fail("NPURT_CLI must name the npurt binary (ctest sets it)")
    return path


@pytest.fixture(scope="session")
def cls_onnx():
    """PP-OCR's direction classifier, the real model of these tests (scripts/fetch_data.sh)."""
    data = os.environ.get("NPURT_DATA_DIR", os.path.expanduser("~/.cache/npurt"))
    path = os.path.join(data, "models", "ppocr", "ch_ppocr_mobile_v2.0_cls_infer.onnx")
    if not os.path.isfile(path):
        pytest.fail("%s is missing: run scripts/setup.sh" % path)
    return path


@pytest.fixture(scope="session")
def photo_dataset(tmp_path_factory):
    """A calibration dataset file of OpenCV's sample photos (Debian opencv-doc), rknn-toolkit2's format."""
    images = sorted(glob.glob("/usr/share/doc/opencv-doc/examples/data/*.jpg"))[:8]
    if len(images) < 4:
        pytest.fail("OpenCV's sample images are missing: run scripts/setup.sh (opencv-doc)")
    path = tmp_path_factory.mktemp("dataset") / "dataset.txt"
    path.write_text("".join(image + "\n" for image in images))
    return str(path), images


class ConvRelu:
    """A 1x3x8x8 -> 1x4x8x8 Conv(3x3, pad 1) + Relu ONNX model with fixed weights (`dynamic`: 1x3xHxW),
    and its numpy oracle."""

    def __init__(self, directory, dynamic=False):
        rng = np.random.RandomState(7)
        self.w = rng.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32)
        self.b = rng.uniform(-1, 1, (4,)).astype(np.float32)
        h, w = ("h", "w") if dynamic else (8, 8)
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, h, w])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, h, w])
        nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], name="conv"),
                 helper.make_node("Relu", ["c"], ["y"], name="relu")]
        graph = helper.make_graph(nodes, "conv_relu", [x], [y],
                                  [numpy_helper.from_array(self.w, "w"), numpy_helper.from_array(self.b, "b")])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        self.path = str(directory / ("conv_relu_dynamic.onnx" if dynamic else "conv_relu.onnx"))
        onnx.save(model, self.path)

    def expected(self, nchw):
        """Conv + Relu in float64 numpy, straight from the definition."""
        x = np.pad(nchw.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        height, width = nchw.shape[2:]
        y = np.zeros((1, 4, height, width))
        for m in range(4):
            for i in range(height):
                for j in range(width):
                    y[0, m, i, j] = np.sum(x[0, :, i:i + 3, j:j + 3] * self.w[m]) + self.b[m]
        return np.maximum(y, 0.0)


@pytest.fixture(scope="session")
def conv_relu(tmp_path_factory):
    return ConvRelu(tmp_path_factory.mktemp("onnx"))


@pytest.fixture(scope="session")
def conv_relu_dynamic(tmp_path_factory):
    return ConvRelu(tmp_path_factory.mktemp("onnx"), dynamic=True)
