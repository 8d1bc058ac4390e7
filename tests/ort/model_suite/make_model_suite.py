#!/usr/bin/python3
"""Writes the model suite in the ONNX backend-test layout: DIR/<model>/model.onnx and
DIR/<model>/test_data_set_0/input_K.pb. Models come from Debian's torchvision and torchaudio (and
the detector defined in detector.py) with fixed-seed random weights: parity and speed do not need
trained ones. Small inputs where they keep the operators the model uses.

Debian's torch 1.13 exports up to opset 17; the opset-19 variant of the detector is its opset-17
export restated at 19 (upgrade_to_19: the Reduce ops' axes become inputs, as opset 18 requires).

  make_model_suite.py [--only NAME,...] [--list] DIR
"""
import argparse
import os
import sys
import warnings

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def torchvision_models():
    import torchvision.models as tv
    import torchvision.models.segmentation as seg
    import torchvision.models.video as video

    return {
        "vit_b_32": (lambda: tv.vit_b_32(weights=None, image_size=64), [(1, 3, 64, 64)]),
        "swin_t": (lambda: tv.swin_t(weights=None), [(1, 3, 224, 224)]),
        "maxvit_t": (lambda: tv.maxvit_t(weights=None), [(1, 3, 224, 224)]),
        "convnext_tiny": (lambda: tv.convnext_tiny(weights=None), [(1, 3, 64, 64)]),
        "mobilenet_v3_large": (lambda: tv.mobilenet_v3_large(weights=None), [(1, 3, 96, 96)]),
        "efficientnet_v2_s": (lambda: tv.efficientnet_v2_s(weights=None), [(1, 3, 64, 64)]),
        "regnet_y_400mf": (lambda: tv.regnet_y_400mf(weights=None), [(1, 3, 64, 64)]),
        "deeplabv3_mobilenet_v3": (
            lambda: seg.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, aux_loss=False),
            [(1, 3, 96, 96)]),
        "r3d_18": (lambda: video.r3d_18(weights=None), [(1, 3, 4, 32, 32)]),
    }


class FirstOutput(torch.nn.Module):
    """The first output of a model that returns a tuple (Conformer: the encodings, not the lengths)."""

    def __init__(self, model, *extra):
        super().__init__()
        self.model, self.extra = model, extra

    def forward(self, x):
        return self.model(x, *[e(x) for e in self.extra])[0]


class SsdRawHeads(torch.nn.Module):
    """SSDlite's backbone and heads up to the raw box and score tensors (no anchors, no NMS)."""

    def __init__(self, ssd):
        super().__init__()
        self.ssd = ssd

    def forward(self, x):
        heads = self.ssd.head(list(self.ssd.backbone(x).values()))
        return heads["bbox_regression"], heads["cls_logits"]


def other_models():
    import torchaudio
    import torchvision.models.detection as det
    from detector import Crnn, Detector, DetectorWithSequenceHead, TwoStageHead

    def conformer():
        model = torchaudio.models.Conformer(input_dim=80, num_heads=4, ffn_dim=128, num_layers=2,
                                            depthwise_conv_kernel_size=31)
        return FirstOutput(model, lambda x: torch.full((x.shape[0],), x.shape[1], dtype=torch.int64))

    return {
        "ssdlite320_raw": (lambda: SsdRawHeads(det.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)),
                           [(1, 3, 320, 320)]),
        "wav2vec2_base": (lambda: FirstOutput(torchaudio.models.wav2vec2_base()), [(1, 8000)]),
        "conformer": (conformer, [(1, 50, 80)]),
        "yolo_style": (Detector, [(1, 3, 128, 128)]),
        "yolo_style_opset19": (Detector, [(1, 3, 128, 128)]),
        "yolo_style_lstm_head": (lambda: DetectorWithSequenceHead("LSTM"), [(1, 3, 128, 128)]),
        "yolo_style_gru_head": (lambda: DetectorWithSequenceHead("GRU"), [(1, 3, 128, 128)]),
        "crnn": (Crnn, [(1, 1, 32, 128)]),
        "two_stage_roi_head": (TwoStageHead, [(1, 3, 128, 128)]),
    }


REDUCE_AXES_INPUT_AT_18 = {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                           "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"}


def upgrade_to_19(path):
    model = onnx.load(path)
    graph = model.graph
    for node in graph.node:
        if node.op_type in REDUCE_AXES_INPUT_AT_18:
            axes = [a for a in node.attribute if a.name == "axes"]
            if axes:
                name = node.output[0] + "_axes"
                graph.initializer.append(numpy_helper.from_array(np.array(axes[0].ints, dtype=np.int64), name))
                node.input.append(name)
                node.attribute.remove(axes[0])
    for opset in model.opset_import:
        if opset.domain in ("", "ai.onnx"):
            opset.version = 19
    onnx.save(model, path)


def build(name, make, shapes, out_dir, opset):
    torch.manual_seed(0)
    model = make().eval()
    case = os.path.join(out_dir, name)
    os.makedirs(os.path.join(case, "test_data_set_0"), exist_ok=True)
    rng = np.random.default_rng(1)
    inputs = [torch.from_numpy(rng.uniform(-1, 1, s).astype(np.float32)) for s in shapes]
    names = ["input_%d" % k for k in range(len(inputs))]
    with warnings.catch_warnings():  # (no no_grad: it sends nn.MultiheadAttention to a fast path ONNX lacks)
        warnings.simplefilter("ignore")
        torch.onnx.export(model, tuple(inputs), os.path.join(case, "model.onnx"), opset_version=min(opset, 17),
                          input_names=names, do_constant_folding=True)
    if opset == 19:
        upgrade_to_19(os.path.join(case, "model.onnx"))
    for k, x in enumerate(inputs):
        tensor = numpy_helper.from_array(x.numpy(), names[k])
        with open(os.path.join(case, "test_data_set_0", "input_%d.pb" % k), "wb") as f:
            f.write(tensor.SerializeToString())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("dir", nargs="?")
    args = parser.parse_args()
    models = {**torchvision_models(), **other_models()}
    if args.list:
        print("\n".join(models))
        return
    if not args.dir:
        parser.error("the suite directory is required")
    only = set(filter(None, args.only.split(",")))
    for name, (make, shapes) in models.items():
        if only and name not in only:
            continue
        build(name, make, shapes, args.dir, 19 if name.endswith("_opset19") else 17)
        print("wrote", name, flush=True)


if __name__ == "__main__":
    main()
