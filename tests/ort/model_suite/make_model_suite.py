#!/usr/bin/python3
"""Writes the model suite in the ONNX backend-test layout: DIR/<model>/model.onnx and
DIR/<model>/test_data_set_0/input_K.pb. Models come from Debian's torchvision and torchaudio (and
the detector defined in detector.py) with fixed-seed random weights: parity and speed do not need
trained ones. Small inputs where they keep the operators the model uses.

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
        "convnext_tiny": (lambda: tv.convnext_tiny(weights=None), [(1, 3, 64, 64)]),
        "mobilenet_v3_large": (lambda: tv.mobilenet_v3_large(weights=None), [(1, 3, 96, 96)]),
        "efficientnet_v2_s": (lambda: tv.efficientnet_v2_s(weights=None), [(1, 3, 64, 64)]),
        "regnet_y_400mf": (lambda: tv.regnet_y_400mf(weights=None), [(1, 3, 64, 64)]),
        "deeplabv3_mobilenet_v3": (
            lambda: seg.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, aux_loss=False),
            [(1, 3, 96, 96)]),
        "r3d_18": (lambda: video.r3d_18(weights=None), [(1, 3, 4, 32, 32)]),
    }


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
        torch.onnx.export(model, tuple(inputs), os.path.join(case, "model.onnx"), opset_version=opset,
                          input_names=names, do_constant_folding=True)
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
    models = torchvision_models()
    if args.list:
        print("\n".join(models))
        return
    if not args.dir:
        parser.error("the suite directory is required")
    only = set(filter(None, args.only.split(",")))
    for name, (make, shapes) in models.items():
        if only and name not in only:
            continue
        build(name, make, shapes, args.dir, 17)
        print("wrote", name, flush=True)


if __name__ == "__main__":
    main()
