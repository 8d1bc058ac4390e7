#!/bin/sh
# Converts the PaddleOCR ONNX models for rknn_ppocr_demo with `npurt convert`
# (static shapes), in int8 by default, as a board application ships them:
#   det  1x3x640x640; the runtime takes uint8 RGB and applies PaddleOCR's
#        normalization: channels reversed to the model's B,G,R order, then
#        (x - mean) / std with mean and std given in that (B,G,R) order.
#   cls  1x3x48x192, float input normalized by the application.
#   rec  1x3x48xREC_WIDTH (default 1600), float input normalized by the
#        application. The width bounds the longest line read without squeezing:
#        a line crop scaled to height 48 must fit (PaddleOCR sizes it per batch;
#        the widest line of imageTextN.png needs 1536). It also bounds the text:
#        REC_WIDTH / 8 CTC steps, so 320 (40 steps) cannot hold a 90-character line.
#
# int8 (PRECISION=int8, the default): each model is calibrated on a small set
# of rendered lines / pages and OpenCV photos written by make_ocr_sets
# (bench/quant_accuracy; none of them is the demo image) with npurt's default
# recipe, plus INT8_FLAGS (e.g. bench/speed/run.sh's plain w8a8 flags).
# PRECISION=float converts the float models.
#
#   convert_models.sh NPURT MODEL_DIR OUT_DIR [MAKE_OCR_SETS]
set -eu
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
  echo "usage: $0 NPURT MODEL_DIR OUT_DIR [MAKE_OCR_SETS]" >&2
  exit 2
fi
npurt=$1 models=$2 out=$3
make_sets=${4:-}
rec_width=${REC_WIDTH:-1600}
precision=${PRECISION:-int8}
int8_flags=${INT8_FLAGS:-}
mkdir -p "$out"

det_q="" cls_q="" rec_q=""
case $precision in
  float) ;;
  int8)
    if [ -z "$make_sets" ]; then
      echo "$0: int8 needs the make_ocr_sets tool (4th argument) for calibration data" >&2
      exit 2
    fi
    sets=$out/calibration
    "$make_sets" --keys "$models/ppocr_keys_v1.txt" --out "$sets" --rec-width "$rec_width" \
      --rec-eval 1 --rec-calib 24 --cls-eval 2 --cls-calib 32 --det-eval-pages 1 > /dev/null
    det_q="--quantize --dataset $sets/det/calib.txt $int8_flags"
    cls_q="--quantize --dataset $sets/cls/calib.txt $int8_flags"
    rec_q="--quantize --dataset $sets/rec/calib.txt $int8_flags"
    ;;
  *)
    echo "$0: PRECISION must be int8 or float, got '$precision'" >&2
    exit 2
    ;;
esac

# shellcheck disable=SC2086
"$npurt" convert "$models/ch_PP-OCRv4_det_infer.onnx" -o "$out/det.rknn" --input-shapes x:1,3,640,640 \
  --mean-values 123.675,116.28,103.53 --std-values 58.395,57.12,57.375 --reorder-channels true $det_q
# shellcheck disable=SC2086
"$npurt" convert "$models/ch_ppocr_mobile_v2.0_cls_infer.onnx" -o "$out/cls.rknn" --input-shapes x:1,3,48,192 $cls_q
# shellcheck disable=SC2086
"$npurt" convert "$models/ch_PP-OCRv4_rec_infer.onnx" -o "$out/rec.rknn" --input-shapes "x:1,3,48,$rec_width" $rec_q
