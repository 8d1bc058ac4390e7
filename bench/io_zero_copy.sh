#!/bin/sh
# What zero-copy saves: the copying API (rknn_inputs_set / rknn_outputs_get)
# against zero-copy memory (rknn_create_mem + rknn_set_io_mem), frame by frame,
# on PP-OCRv4 det in int8 at 416x416 and 640x640 (`npurt bench --io`).
#
#   bench/io_zero_copy.sh [BUILD_DIR]        (after `make build`; a few minutes)
#
# The models are calibrated on a few rendered pages with plain rounding (no
# GPTQ, no bias correction): the I/O path does not depend on the weights'
# values, and the conversion stays quick. Prints one table per size.
set -eu

. "$(dirname "$0")/bench_env.sh"
bench_require "$B/bench/quant_accuracy/make_ocr_sets"
bench_require_model ch_PP-OCRv4_det_infer.onnx
W=$B/io_zero_copy
mkdir -p "$W"

for size in 416 640; do
  sets=$W/sets_$size
  "$B/bench/quant_accuracy/make_ocr_sets" --keys "$M/ppocr_keys_v1.txt" --out "$sets" --det-size "$size" \
    --rec-eval 1 --rec-calib 1 --cls-eval 2 --cls-calib 1 --det-eval-pages 1 --det-calib-pages 4 > /dev/null
  "$N" convert "$M/ch_PP-OCRv4_det_infer.onnx" -o "$W/det_$size.rknn" --input-shapes "x:1,3,$size,$size" \
    --mean-values 123.675,116.28,103.53 --std-values 58.395,57.12,57.375 --reorder-channels true \
    --quantize --dataset "$sets/det/calib.txt" --weight-rounding nearest --bias-correction false > /dev/null
  echo "== PP-OCRv4 det int8, ${size}x${size}"
  "$N" bench "$W/det_$size.rknn" --io --loops "${LOOPS:-30}" --warmup 3
done
