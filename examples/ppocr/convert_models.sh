#!/bin/sh
# Converts the PaddleOCR ONNX models for rknn_ppocr_demo with `npurt convert`
# (static shapes):
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
#   convert_models.sh NPURT MODEL_DIR OUT_DIR
set -eu
if [ $# -ne 3 ]; then
  echo "usage: $0 NPURT MODEL_DIR OUT_DIR" >&2
  exit 2
fi
npurt=$1 models=$2 out=$3
rec_width=${REC_WIDTH:-1600}
mkdir -p "$out"
"$npurt" convert "$models/ch_PP-OCRv4_det_infer.onnx" -o "$out/det.rknn" --input-shapes x:1,3,640,640 \
  --mean-values 123.675,116.28,103.53 --std-values 58.395,57.12,57.375 --reorder-channels true
"$npurt" convert "$models/ch_ppocr_mobile_v2.0_cls_infer.onnx" -o "$out/cls.rknn" --input-shapes x:1,3,48,192
"$npurt" convert "$models/ch_PP-OCRv4_rec_infer.onnx" -o "$out/rec.rknn" --input-shapes "x:1,3,48,$rec_width"
