#!/usr/bin/python3
"""Pre-quantized ONNX models, as users bring them, in the ONNX backend-test layout (DIR/NAME/model.onnx +
test_data_set_0/input_0.pb) for tests/ort/qdq_models: npurt converts them without calibration, keeping
their scales and zero points, and compares its int8 outputs with ONNX Runtime's on the same QDQ model.

  ort_*  torchvision models (fixed-seed random weights) quantized in ONNX Runtime's QDQ format by the
         benchmark's quantizer (bench/speed/qdq.py: int8 per-channel symmetric weights, uint8 activations,
         int32 biases), calibrated with ONNX Runtime (bench/speed/ort_calib.js) on random inputs;
         ort_ppocr_rec: PP-OCRv4 rec (from NPURT_DATA_DIR/models/ppocr, `make setup`) quantized the same way;
  fx_*   PyTorch FX post-training quantization (prepare_fx / convert_fx, fbgemm) exported by torch.onnx
         (QuantizeLinear -> Cast -> DequantizeLinear pairs, weights through DequantizeLinear).

    make_qdq_models.py [--list] DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, '..', '..', '..', 'bench', 'speed')
sys.path.insert(0, BENCH)

SIZE = 96  # input side: small enough for the reference kernels of every CPU target
MODELS = ['ort_cnn', 'ort_resnet18', 'ort_mobilenet_v2', 'ort_ppocr_rec', 'fx_cnn', 'fx_resnet18']
SHAPES = {'ort_ppocr_rec': (1, 3, 48, 320)}  # else (1, 3, SIZE, SIZE)
DATA = os.environ.get('NPURT_DATA_DIR') or os.path.join(os.path.expanduser('~'), '.cache', 'npurt')
PPOCR_REC = os.path.join(DATA, 'models', 'ppocr', 'ch_PP-OCRv4_rec_infer.onnx')


def torchvision_model(name):
    """Random weights, with each BatchNormalization's statistics measured on random inputs (as a trained
    model's are on its data): without that, a randomly initialized MobileNetV2's activations shrink by 1e9
    through the layers and its outputs are rounding noise."""
    import torch
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)()
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.reset_running_stats()
            m.momentum = None  # the plain average over the batches below
    model.train()
    with torch.no_grad():
        for x in calibration_inputs(4, 4):
            model(torch.from_numpy(x))
    return model.eval()


def small_cnn(with_concat):
    """Conv + ReLU, a grouped conv, a residual add, max / average pools, a linear layer; with_concat adds a
    concat, a sigmoid gate (Mul) and an average pool (torch 1.13's ONNX export of FX-quantized models cannot
    export a quantized concat, so the FX model goes without)."""
    import torch
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 16, 3, padding=1)
            self.r1 = nn.ReLU()
            self.c2 = nn.Conv2d(16, 16, 3, padding=1, groups=4)
            self.c3 = nn.Conv2d(16, 8, 1)
            self.pool = nn.MaxPool2d(2)
            self.avg = nn.AvgPool2d(2)
            self.gap = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(24 if with_concat else 16, 10)

        def forward(self, x):
            y = self.r1(self.c1(x))
            z = self.c2(y) + y
            if with_concat:
                g = torch.sigmoid(self.c3(y))
                z = torch.cat([self.pool(z), self.avg(g * self.c3(y))], 1)
            else:
                z = self.pool(z)
            return self.fc(torch.flatten(self.gap(z), 1))

    torch.manual_seed(1)
    return Net().eval()


def export_float(model, path):
    import torch
    torch.onnx.export(model, (torch.randn(1, 3, SIZE, SIZE),), path, opset_version=13,
                      input_names=['input'], output_names=['output'])


def calibration_inputs(count, seed, shape=(1, 3, SIZE, SIZE)):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(count)]


def ort_qdq(name, out_path, work):
    """bench/speed/qdq.py on a torchvision model: augment, ONNX Runtime calibration, quantize."""
    import qdq
    shape = SHAPES.get(name, (1, 3, SIZE, SIZE))
    if name == 'ort_ppocr_rec':
        if not os.path.exists(PPOCR_REC):
            sys.exit('make_qdq_models: %s is missing (run make setup)' % PPOCR_REC)
        import onnx
        fp = os.path.join(work, name + '.onnx')
        model = onnx.load(PPOCR_REC)
        d = model.graph.input[0].type.tensor_type.shape.dim  # fix the dynamic batch and width
        for k, v in enumerate(shape):
            d[k].dim_value = v
        onnx.save(model, fp)
    else:
        fp = os.path.join(work, name + '.onnx')
        export_float(small_cnn(True) if name == 'ort_cnn' else torchvision_model(name[len('ort_'):]), fp)
    aug = os.path.join(work, name + '.aug.onnx')
    qdq.augment(fp, aug)
    calib = os.path.join(work, name + '.calib')
    os.makedirs(calib, exist_ok=True)
    for k, x in enumerate(calibration_inputs(4, 2, shape)):
        x.tofile(os.path.join(calib, '%02d.bin' % k))
    ranges = os.path.join(work, name + '.calib.json')
    node = shutil.which('node') or sys.exit('make_qdq_models: node not found (run scripts/setup.sh)')
    subprocess.run([node, os.path.join(BENCH, 'ort_calib.js'), aug, calib, ','.join(map(str, shape)), ranges],
                   check=True)
    qdq.quantize(fp, ranges, out_path)


def fx_qdq(name, out_path):
    """PyTorch FX post-training quantization, exported by torch.onnx."""
    import torch
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    model = small_cnn(False) if name == 'fx_cnn' else torchvision_model(name[len('fx_'):])
    example = (torch.randn(1, 3, SIZE, SIZE),)
    prepared = prepare_fx(model, get_default_qconfig_mapping('fbgemm'), example)
    with torch.no_grad():
        for x in calibration_inputs(4, 3):
            prepared(torch.from_numpy(x))
    quantized = convert_fx(prepared)
    torch.onnx.export(quantized, example, out_path, opset_version=13, input_names=['input'],
                      output_names=['output'])


def write_input(case, name, seed):
    import onnx
    from onnx import numpy_helper
    model = onnx.load(os.path.join(case, 'model.onnx'))
    x = calibration_inputs(1, seed, SHAPES.get(name, (1, 3, SIZE, SIZE)))[0]  # held out: another seed
    d = os.path.join(case, 'test_data_set_0')
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'input_0.pb'), 'wb') as f:
        f.write(numpy_helper.from_array(x, model.graph.input[0].name).SerializeToString())


def main(argv):
    if argv[1:2] == ['--list']:
        print('\n'.join(MODELS))
        return
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    warnings.filterwarnings('ignore')
    with tempfile.TemporaryDirectory() as work:
        for k, name in enumerate(MODELS):
            case = os.path.join(out, name)
            os.makedirs(case, exist_ok=True)
            path = os.path.join(case, 'model.onnx')
            if name.startswith('ort_'):
                ort_qdq(name, path, work)
            else:
                fx_qdq(name, path)
            write_input(case, name, 100 + k)
            print('make_qdq_models: %s' % name)


if __name__ == '__main__':
    main(sys.argv)
