#!/bin/sh
# Core masks as CPU threads: PP-OCRv4 det (640x640) and rec (48x320), float and
# int8, timed through the C API with rknn_set_core_mask 0 (one thread), 0_1
# (two) and all (three on rk3588, capped at the CPUs there are) --
# `npurt bench --core-mask`, the masks in turn (ROUNDS, default 3). Prints one Markdown table.
#
#   bench/core_mask.sh [BUILD_DIR]        (after `make build`; ~10 minutes)
#
# The int8 models are calibrated on a few rendered samples with plain rounding:
# speed does not depend on the weights' values, and the conversion stays quick.
set -eu

. "$(dirname "$0")/bench_env.sh"
bench_require "$B/bench/quant_accuracy/make_ocr_sets"
bench_require_model ch_PP-OCRv4_det_infer.onnx
W=$B/core_mask
mkdir -p "$W"

"$B/bench/quant_accuracy/make_ocr_sets" --keys "$M/ppocr_keys_v1.txt" --out "$W/sets" --det-size 640 \
  --rec-eval 1 --rec-calib 8 --cls-eval 2 --cls-calib 1 --det-eval-pages 1 --det-calib-pages 4 > /dev/null
FAST="--weight-rounding nearest --bias-correction false"
DET="--input-shapes x:1,3,640,640 --mean-values 123.675,116.28,103.53 --std-values 58.395,57.12,57.375"
DET="$DET --reorder-channels true"
"$N" convert "$M/ch_PP-OCRv4_det_infer.onnx" -o "$W/det_fp.rknn" $DET > /dev/null
"$N" convert "$M/ch_PP-OCRv4_det_infer.onnx" -o "$W/det_q8.rknn" $DET --quantize --dataset "$W/sets/det/calib.txt" \
  $FAST > /dev/null
"$N" convert "$M/ch_PP-OCRv4_rec_infer.onnx" -o "$W/rec_fp.rknn" --input-shapes x:1,3,48,320 > /dev/null
"$N" convert "$M/ch_PP-OCRv4_rec_infer.onnx" -o "$W/rec_q8.rknn" --input-shapes x:1,3,48,320 --quantize \
  --dataset "$W/sets/rec/calib.txt" $FAST > /dev/null

# The masks take turns, ROUNDS times, and each reports the median of its rounds' medians: a shared
# machine's speed drifts over minutes, and interleaving keeps the drift out of the ratios.
median_of_run() { sed -n 's/^frame .*median \([0-9.]*\) ms.*/\1/p'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ROUNDS=${ROUNDS:-3}
echo "| model | core mask 0 (ms) | 0_1 (ms) | all (ms) | speed-up 0 → 0_1 |"
echo "|---|---|---|---|---|"
for model in det_fp det_q8 rec_fp rec_q8; do
  loops=8
  case $model in det_*) loops=${DET_LOOPS:-3} ;; esac
  t0="" t1="" ta=""
  for round in $(seq "$ROUNDS"); do
    t0="$t0 $("$N" bench "$W/$model.rknn" --core-mask 0 --loops "$loops" --warmup 1 | median_of_run)"
    t1="$t1 $("$N" bench "$W/$model.rknn" --core-mask 0_1 --loops "$loops" --warmup 1 | median_of_run)"
    ta="$ta $("$N" bench "$W/$model.rknn" --core-mask all --loops "$loops" --warmup 1 | median_of_run)"
  done
  m0=$(echo "$t0" | median) m1=$(echo "$t1" | median) ma=$(echo "$ta" | median)
  echo "| $model | $m0 | $m1 | $ma | $(echo "$m0 $m1" | awk '{printf "%.2f×", $1 / $2}') |"
done
