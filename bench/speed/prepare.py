#!/usr/bin/python3
"""Builds the float ONNX models of the speed benchmark and their calibration data.

    /usr/bin/python3 prepare.py WORK PPOCR_DIR

Writes, under WORK:
  models/<name>.onnx      float models with static input shapes:
                          mobilenet_v2, resnet18, resnet50 -- Debian torchvision, weights=None after
                          torch.manual_seed(0) (speed does not depend on the weights' values), eval mode,
                          torch.onnx.export opset 13, 1x3x224x224;
                          ppocr_det (1x3x640x640) and ppocr_rec (1x3x48x320) -- the PP-OCRv4 models of
                          scripts/setup.sh with their dynamic input dims fixed.
  models/<name>_cv.onnx   the same function in the form OpenCV 4.6's ONNX importer reads (opencv_copy).
  calib/images.txt        the calibration images (OpenCV's sample photos), npurt's --dataset format.
  calib/<name>/NN.bin     the same images preprocessed as each model's float input (float32 NCHW), for the
                          ONNX Runtime calibration of the QDQ models (ort_calib.js).
  manifest.json           per model: input name and shape, npurt convert's mean/std, loop counts
                          (models.tsv: the same for run.sh).

Idempotent: existing outputs are kept (delete WORK to rebuild).
"""
import json
import os
import sys

import numpy as np

IMAGE_DIR = '/usr/share/doc/opencv-doc/examples/data'
# A dozen varied photos; speed does not depend on the calibration's quality.
IMAGES = ['baboon.jpg', 'fruits.jpg', 'HappyFish.jpg', 'building.jpg', 'butterfly.jpg', 'messi5.jpg',
          'orange.jpg', 'squirrel_cls.jpg', 'starry_night.jpg', 'home.jpg', 'text_defocus.jpg', 'board.jpg']

IMAGENET = dict(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375], reorder=False)
# PaddleOCR: the models read B,G,R; det normalizes with the ImageNet statistics, rec with 0.5 / 0.5.
PPOCR_DET = dict(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375], reorder=True)
PPOCR_REC = dict(mean=[127.5, 127.5, 127.5], std=[127.5, 127.5, 127.5], reorder=True)

# name -> (source, input shape, preprocessing, timed loops, warm-up frames)
MODELS = {
    'mobilenet_v2': ('torchvision', [1, 3, 224, 224], IMAGENET, 40, 5),
    'resnet18': ('torchvision', [1, 3, 224, 224], IMAGENET, 30, 5),
    'resnet50': ('torchvision', [1, 3, 224, 224], IMAGENET, 15, 3),
    'ppocr_det': ('ch_PP-OCRv4_det_infer.onnx', [1, 3, 640, 640], PPOCR_DET, 12, 3),
    'ppocr_rec': ('ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 320], PPOCR_REC, 30, 5),
}


def export_torchvision(name, shape, path):
    import torch
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    x = torch.randn(*shape)
    with torch.no_grad():
        torch.onnx.export(model, x, path, opset_version=13, input_names=['input'], output_names=['output'],
                          do_constant_folding=True)


def fix_input_shape(src, shape, path):
    import onnx
    m = onnx.load(src)
    inp = m.graph.input[0]
    for d, v in zip(inp.type.tensor_type.shape.dim, shape):
        d.Clear()
        d.dim_value = v
    # Output dims follow from the input's; leave them to the runtimes' shape inference.
    for out in m.graph.output:
        for d in out.type.tensor_type.shape.dim:
            d.Clear()
    del m.graph.value_info[:]
    onnx.save(m, path)


def opencv_copy(src, path):
    """OpenCV 4.6's importer reads Identity only over computed tensors and Clip only in its opset-6 form
    (min/max attributes): the same graph with initializers for Constant nodes, Identity nodes over
    initializers bypassed and Clip's constant min/max inputs turned into attributes."""
    import onnx
    from onnx import helper, numpy_helper
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import qdq
    m = onnx.load(src)
    qdq.constants_to_initializers(m)
    qdq.bypass_constant_identities(m)
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == 'Clip' and len(n.input) > 1 and all((not i) or i in inits for i in n.input[1:]):
            bounds = list(n.input[1:])
            del n.input[1:]
            for key, name in zip(('min', 'max'), bounds):
                if name:
                    n.attribute.append(helper.make_attribute(key, float(inits[name])))
    onnx.save(m, path)


def preprocess(image_path, shape, prep):
    import cv2
    bgr = cv2.imread(image_path, cv2.IMREAD_COLOR)
    h, w = shape[2], shape[3]
    img = cv2.resize(bgr, (w, h), interpolation=cv2.INTER_LINEAR)
    rgb = img[:, :, ::-1].astype(np.float32)
    x = (rgb - np.array(prep['mean'], np.float32)) / np.array(prep['std'], np.float32)
    if prep['reorder']:
        x = x[:, :, ::-1]  # the model reads B,G,R (mean/std above are given in the model's order)
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None], dtype=np.float32)


def main():
    work, ppocr = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(work, 'models'), exist_ok=True)
    os.makedirs(os.path.join(work, 'calib'), exist_ok=True)
    images = [os.path.join(IMAGE_DIR, f) for f in IMAGES]
    for f in images:
        if not os.path.isfile(f):
            sys.exit('prepare.py: missing %s (Debian package opencv-doc: run make setup)' % f)
    with open(os.path.join(work, 'calib', 'images.txt'), 'w') as f:
        f.write(''.join(p + '\n' for p in images))

    manifest = {}
    for name, (source, shape, prep, loops, warmup) in MODELS.items():
        path = os.path.join(work, 'models', name + '.onnx')
        if not os.path.exists(path):
            print('prepare: %s' % name, flush=True)
            if source == 'torchvision':
                export_torchvision(name, shape, path + '.tmp')
            else:
                fix_input_shape(os.path.join(ppocr, source), shape, path + '.tmp')
            os.replace(path + '.tmp', path)
        cv_path = os.path.join(work, 'models', name + '_cv.onnx')
        if not os.path.exists(cv_path):
            opencv_copy(path, cv_path + '.tmp')
            os.replace(cv_path + '.tmp', cv_path)
        import onnx
        m = onnx.load(path, load_external_data=False)
        cdir = os.path.join(work, 'calib', name)
        os.makedirs(cdir, exist_ok=True)
        for i, img in enumerate(images):
            out = os.path.join(cdir, '%02d.bin' % i)
            if not os.path.exists(out):
                preprocess(img, shape, prep).tofile(out)
        manifest[name] = dict(onnx=path, onnx_cv=cv_path, source=source, input=m.graph.input[0].name, shape=shape,
                              mean=prep['mean'], std=prep['std'], reorder=prep['reorder'], loops=loops,
                              warmup=warmup, calib_dir=cdir, calib_count=len(images))
    with open(os.path.join(work, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
    # For run.sh: name, input name, shape, mean, std, reorder (comma-separated lists), one model a line.
    with open(os.path.join(work, 'models.tsv'), 'w') as f:
        for name, m in manifest.items():
            f.write('\t'.join([name, m['input'], ','.join(map(str, m['shape'])), ','.join(map(str, m['mean'])),
                               ','.join(map(str, m['std'])), 'true' if m['reorder'] else 'false']) + '\n')


if __name__ == '__main__':
    main()
