#!/bin/sh
# INT8 accuracy of `npurt convert --quantize` on real tasks, against each
# model's own float conversion: PP-OCRv4 rec (rendered lines: exact match,
# character error rate), PP-OCRv4 det (rendered pages and OpenCV photos: text
# mask IoU, box matches), the ppocr direction classifier (rendered lines,
# upright and turned) and a Fashion-MNIST CNN (10 000 test images, top-1).
#
# One row per model and recipe -- the ablation from plain min/max to the
# default -- with the MAC shares per precision, the output cosine (mean and
# min over the held-out samples), the task metric, and whether the issue's
# thresholds hold (eval_ocr / eval_fashion_mnist decide; see their --help).
#
#   bench/quant_accuracy.sh [BUILD_DIR]        (after `make build`; ~50 min on 2 cores)
#
# Writes BUILD_DIR/quant_accuracy/results.md and prints it. Environment:
# NPURT_DATA_DIR (models, default ~/.cache/npurt), RECIPES (space-separated
# subset of the recipe names below), MODELS (subset of "rec det cls fm"), QUICK=1 (first 40 samples per OCR task
# and 2000 Fashion-MNIST images: a smoke run).
set -eu

. "$(dirname "$0")/bench_env.sh"
W=$B/quant_accuracy
EVAL_OCR=$B/bench/quant_accuracy/eval_ocr
EVAL_FM=$B/bench/fashion_mnist/eval_fashion_mnist
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FM_ONNX=$ROOT/bench/fashion_mnist/fashion_cnn.onnx
bench_require "$EVAL_OCR" "$EVAL_FM" "$B/bench/quant_accuracy/make_ocr_sets"
bench_require_model ch_PP-OCRv4_rec_infer.onnx

# The recipes, from the vendor's default to npurt's (the last is what --quantize alone does).
RECIPES=${RECIPES:-"minmax mmse kl smooth int16 nobias weights nearest default headroom8"}
PLAIN="--bias-correction false --weight-rounding nearest"
recipe_flags() {
  case $1 in
    minmax) echo "--quantized-algorithm normal --smooth-activations false --int16-mac-budget 0 $PLAIN" ;;
    mmse) echo "--quantized-algorithm mmse --smooth-activations false --int16-mac-budget 0 $PLAIN" ;;
    kl) echo "--quantized-algorithm kl_divergence --smooth-activations false --int16-mac-budget 0 $PLAIN" ;;
    smooth) echo "--quantized-algorithm normal --smooth-activations true --int16-mac-budget 0 $PLAIN" ;;
    int16) echo "--quantized-algorithm normal --smooth-activations false --int16-mac-budget 0.08 $PLAIN" ;;
    nobias) echo "--bias-correction false --weight-rounding nearest" ;;
    weights) echo "--bias-correction weights --weight-rounding nearest" ;;
    nearest) echo "--weight-rounding nearest" ;;
    default) echo "" ;;
    headroom8) echo "--int16-headroom 8" ;;
    *) echo "unknown recipe '$1'" >&2; exit 2 ;;
  esac
}
recipe_title() {
  case $1 in
    minmax) echo "min/max per tensor (rknn-toolkit2 normal)" ;;
    mmse) echo "mmse" ;;
    kl) echo "kl_divergence" ;;
    smooth) echo "min/max + activation smoothing" ;;
    int16) echo "min/max + int16 activations (8% MAC budget)" ;;
    nobias) echo "min/max + smoothing + int16" ;;
    weights) echo "… + bias correction of the weights only (--bias-correction weights)" ;;
    nearest) echo "… + measured bias correction (--bias-correction empirical)" ;;
    default) echo "**default**: … + GPTQ weight rounding (--quantize alone)" ;;
    headroom8) echo "default + int16 headroom ×8 (--int16-headroom 8)" ;;
  esac
}

LIMIT=""
FM_LIMIT=0
if [ "${QUICK:-0}" = 1 ]; then LIMIT="--limit 40"; FM_LIMIT=2000; fi

mkdir -p "$W"
DET_SHAPE="--input-shapes x:1,3,640,640 --mean-values 123.675,116.28,103.53 --std-values 58.395,57.12,57.375 --reorder-channels true"
REC_SHAPE="--input-shapes x:1,3,48,320"
CLS_SHAPE="--input-shapes x:1,3,48,192"
FM_SHAPE="--mean-values 0 --std-values 255"

echo "== sets and float models" >&2
"$B/bench/quant_accuracy/make_ocr_sets" --keys "$M/ppocr_keys_v1.txt" --out "$W/sets" > /dev/null
"$EVAL_FM" write-calib "$W/fashion_calib" --count 100 > /dev/null
# shellcheck disable=SC2086
{
  "$N" convert "$M/ch_PP-OCRv4_rec_infer.onnx" -o "$W/rec_fp.rknn" $REC_SHAPE
  "$N" convert "$M/ch_PP-OCRv4_det_infer.onnx" -o "$W/det_fp.rknn" $DET_SHAPE
  "$N" convert "$M/ch_ppocr_mobile_v2.0_cls_infer.onnx" -o "$W/cls_fp.rknn" $CLS_SHAPE
  "$N" convert "$FM_ONNX" -o "$W/fm_fp.rknn" $FM_SHAPE
} > /dev/null

# value KEY LINE: the KEY=value field of a RESULT line.
value() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# macs LOG: "int8 / int16 / float" MAC shares from the conversion report.
macs() { sed -n 's/.*MACs \([0-9.]*\)% int8, \([0-9.]*\)% int16, \([0-9.]*\)% float.*/\1 \/ \2 \/ \3/p' "$1"; }

OUT=$W/results.md
{
  echo "| model | recipe | MACs % int8 / int16 / float | cosine mean / min | task metric (float → int8) | thresholds |"
  echo "|---|---|---|---|---|---|"
} > "$OUT"

# run MODEL RECIPE: convert with the recipe, evaluate, append a row.
run() {
  model=$1 recipe=$2
  flags=$(recipe_flags "$recipe")
  q=$W/${model}_$recipe.rknn
  log=$q.convert.log
  echo "== $model: $recipe" >&2
  # shellcheck disable=SC2086
  case $model in
    rec) "$N" convert "$M/ch_PP-OCRv4_rec_infer.onnx" -o "$q" $REC_SHAPE --quantize --dataset "$W/sets/rec/calib.txt" $flags > "$log"
         r=$("$EVAL_OCR" rec "$W/rec_fp.rknn" "$q" "$W/sets/rec" --keys "$M/ppocr_keys_v1.txt" $LIMIT | grep '^RESULT' || true)
         metric="exact $(value float_exact "$r") → $(value int8_exact "$r") %, CER $(value float_cer "$r") → $(value int8_cer "$r") %" ;;
    det) "$N" convert "$M/ch_PP-OCRv4_det_infer.onnx" -o "$q" $DET_SHAPE --quantize --dataset "$W/sets/det/calib.txt" $flags > "$log"
         r=$("$EVAL_OCR" det "$W/det_fp.rknn" "$q" "$W/sets/det" $LIMIT | grep '^RESULT' || true)
         metric="mask IoU min $(value mask_iou_min "$r") (mean $(value mask_iou_mean "$r")), boxes matched $(value box_match "$r") %, extra $(value box_extra "$r") %" ;;
    cls) "$N" convert "$M/ch_ppocr_mobile_v2.0_cls_infer.onnx" -o "$q" $CLS_SHAPE --quantize --dataset "$W/sets/cls/calib.txt" $flags > "$log"
         r=$("$EVAL_OCR" cls "$W/cls_fp.rknn" "$q" "$W/sets/cls" $LIMIT | grep '^RESULT' || true)
         metric="accuracy $(value float_acc "$r") → $(value int8_acc "$r") %, agreement $(value agree "$r") %" ;;
    fm) "$N" convert "$FM_ONNX" -o "$q" $FM_SHAPE --quantize --dataset "$W/fashion_calib/dataset.txt" $flags > "$log"
        out=$("$EVAL_FM" eval --float "$W/fm_fp.rknn" --int8 "$q" --limit "$FM_LIMIT" || true)
        r=$(echo "$out" | grep '^RESULT' || true)
        if echo "$out" | grep -q '^PASS'; then r="$r pass=1"; fi
        metric="top-1 $(value float_top1 "$r") → $(value int8_top1 "$r") %" ;;
  esac
  if [ -z "$r" ]; then
    echo "| $model | $(recipe_title "$recipe") | $(macs "$log") | – | evaluation failed | – |" >> "$OUT"
    return
  fi
  case $r in *pass=1*) verdict=pass ;; *) verdict=FAIL ;; esac
  echo "| $model | $(recipe_title "$recipe") | $(macs "$log") | $(value cos_mean "$r") / $(value cos_min "$r") | $metric | $verdict |" >> "$OUT"
}

for model in ${MODELS:-rec det cls fm}; do
  for recipe in $RECIPES; do run "$model" "$recipe"; done
done
cat "$OUT"
