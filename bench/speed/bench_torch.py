#!/usr/bin/python3
"""Times a torchvision model with Debian's PyTorch: batch 1, a fixed random input, median over frames.

    /usr/bin/python3 bench_torch.py NAME PRECISION THREADS LOOPS WARMUP [CALIB_DIR]

NAME: mobilenet_v2, resnet18 or resnet50 (weights=None after torch.manual_seed(0), eval mode: the same
architecture and weights as the ONNX export of prepare.py).
PRECISION fp32: torch.jit.trace, torch.jit.freeze and torch.jit.optimize_for_inference.
PRECISION int8: FX graph mode post-training quantization (torch.ao.quantization.quantize_fx prepare_fx /
convert_fx) with the default qconfig mapping of the quantized engine this build has for x86 ('x86' needs
FBGEMM, which Debian's build lacks: 'onednn' then), calibrated on the preprocessed images in CALIB_DIR
(NN.bin, float32 1x3x224x224) or on random inputs; then traced and frozen.
torch.set_num_threads(THREADS), one inter-op thread. Prints one JSON line (median_ms, min_ms, max_ms,
times_ms, version, engine).
"""
import glob
import json
import os
import sys
import time

import numpy as np
import torch
import torchvision


def main():
    name, precision, threads, loops, warmup = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    calib_dir = sys.argv[6] if len(sys.argv) > 6 else None
    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    shape = (1, 3, 224, 224)
    x = torch.randn(*shape)
    engine = None
    with torch.inference_mode():
        if precision == 'fp32':
            m = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(model, x)))
        elif precision == 'int8':
            from torch.ao.quantization import get_default_qconfig_mapping
            from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
            engines = torch.backends.quantized.supported_engines
            engine = next(e for e in ('x86', 'fbgemm', 'onednn', 'qnnpack') if e in engines)
            torch.backends.quantized.engine = engine
            prepared = prepare_fx(model, get_default_qconfig_mapping(engine), example_inputs=(x,))
            files = sorted(glob.glob(os.path.join(calib_dir, '*.bin'))) if calib_dir else []
            samples = [torch.from_numpy(np.fromfile(f, np.float32).reshape(shape)) for f in files] or \
                [torch.randn(*shape) for _ in range(8)]
            for s in samples:
                prepared(s)
            quantized = convert_fx(prepared)
            m = torch.jit.freeze(torch.jit.trace(quantized, x))
        else:
            sys.exit('precision must be fp32 or int8')
        times = []
        for k in range(warmup + loops):
            t0 = time.perf_counter()
            m(x)
            ms = (time.perf_counter() - t0) * 1e3
            if k >= warmup:
                times.append(ms)
    print(json.dumps({'median_ms': float(np.median(times)), 'min_ms': min(times), 'max_ms': max(times),
                      'times_ms': times, 'version': torch.__version__, 'engine': engine,
                      'threads': torch.get_num_threads()}))


if __name__ == '__main__':
    main()
