#!/usr/bin/python3
"""Times a float ONNX model with OpenCV DNN (Debian python3-opencv): cv2.dnn.readNetFromONNX, the OpenCV
backend on the CPU target, cv2.setNumThreads(THREADS), batch 1, a fixed random input, median over frames.

    /usr/bin/python3 bench_cv.py MODEL.onnx SHAPE THREADS LOOPS WARMUP

Prints one JSON line (median_ms, min_ms, max_ms, times_ms, version), or {"error": "..."} when OpenCV
cannot load or run the model (for a failing forward pass, with the first layer that fails: found by
running the net up to each layer, bisecting).
"""
import json
import sys
import time

import numpy as np


def first_failing_layer(cv2, path, x):
    net = cv2.dnn.readNetFromONNX(path)
    names = net.getLayerNames()

    def runs_to(i):
        n = cv2.dnn.readNetFromONNX(path)
        n.setInput(x)
        try:
            n.forward(names[i])
            return True
        except cv2.error:
            return False

    lo, hi = 0, len(names) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if runs_to(mid):
            lo = mid + 1
        else:
            hi = mid
    layer = net.getLayer(net.getLayerId(names[lo]))
    return 'first failing layer: %s (%s)' % (names[lo], layer.type)


def main():
    path, shape = sys.argv[1], [int(d) for d in sys.argv[2].split(',')]
    threads, loops, warmup = map(int, sys.argv[3:6])
    import cv2
    cv2.setNumThreads(threads)
    x = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
    try:
        net = cv2.dnn.readNetFromONNX(path)
        net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        times = []
        for k in range(warmup + loops):
            t0 = time.perf_counter()
            net.setInput(x)
            net.forward()
            ms = (time.perf_counter() - t0) * 1e3
            if k >= warmup:
                times.append(ms)
    except cv2.error as e:
        error = ' '.join(l.strip(' >') for l in str(e).splitlines() if l.strip(' >'))
        if 'net' in locals():
            error += ' -- ' + first_failing_layer(cv2, path, x)
        print(json.dumps({'error': error, 'version': cv2.__version__}))
        return
    print(json.dumps({'median_ms': float(np.median(times)), 'min_ms': min(times), 'max_ms': max(times),
                      'times_ms': times, 'version': cv2.__version__, 'threads': cv2.getNumThreads()}))


if __name__ == '__main__':
    main()
