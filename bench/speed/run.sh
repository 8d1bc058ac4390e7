#!/usr/bin/env bash
# `make bench`: npurt side by side with ONNX Runtime, PyTorch and OpenCV DNN, at 1 and 2 threads, on
# MobileNetV2, ResNet-18, ResNet-50 (Debian torchvision, fixed-seed random weights) and PP-OCRv4 det 640²
# and rec 48x320, in int8 and float32. Writes the tables, the acceptance lines and docs/benchmarks.svg
# into docs/benchmarks.md (bench/speed/README.md describes the steps).
#
#   bash bench/speed/run.sh [BUILD_DIR]     (after `make build`; about 15-25 minutes on 2 cores)
#
# Environment: ROUNDS (default 2) turns over all configurations; NPURT_DATA_DIR as for `make setup`.
# Work files (models, .rknn, raw results) go to BUILD_DIR/bench/speed; what is up to date is reused.
set -euo pipefail

start=$(date +%s)
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
B=$(cd "${1:-build}" && pwd)
DATA=${NPURT_DATA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/npurt}
N=$B/tools/npurt/npurt
W=$B/bench/speed
PY=/usr/bin/python3   # Debian's python3 with torch, torchvision, onnx, numpy and cv2 (not a venv's)
ROUNDS=${ROUNDS:-2}

# 1. What the peers need: Debian packages (idempotent), ONNX Runtime from `make setup`'s npm cache.
APT_PACKAGES=(python3-torch python3-torchvision python3-opencv python3-onnx python3-numpy opencv-doc nodejs)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "bench: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ -x "$N" ] || { echo "bench: missing $N: run 'make build' (or pass the build dir)" >&2; exit 2; }
[ -f "$DATA/npm/node_modules/onnxruntime-node/package.json" ] ||
  { echo "bench: missing ONNX Runtime in $DATA/npm: run 'make setup'" >&2; exit 2; }
[ -f "$DATA/models/ppocr/ch_PP-OCRv4_det_infer.onnx" ] ||
  { echo "bench: missing PP-OCR models in $DATA/models/ppocr: run 'make setup'" >&2; exit 2; }
mkdir -p "$W/qdq" "$W/rknn" "$W/logs" "$W/bin"

# One npurt for the whole run: a copy of the tool and its runtime library (a rebuild of BUILD_DIR while
# the benchmark runs would otherwise mix builds between the conversions and the timings).
cp -p "$N" "$W/bin/npurt"
rt=$(ldd "$N" | sed -n 's/^[[:space:]]*librknnrt\.so => \(.*\) (0x.*/\1/p')
if [ -n "$rt" ]; then cp -p "$rt" "$W/bin/"; fi
# The source tree's commit when the copy was taken (the report names it), and whether the sources that
# go into npurt had uncommitted changes.
{
  git -C "$REPO" rev-parse --short HEAD
  git -C "$REPO" status --porcelain --untracked-files=no -- runtime compiler tools include format cmake CMakeLists.txt
} > "$W/bin/npurt.version" 2>/dev/null || true
export LD_LIBRARY_PATH=$W/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
NB=$W/bin/npurt

# 2. The float ONNX models and the calibration data.
echo "bench: models"
"$PY" "$HERE/prepare.py" "$W" "$DATA/models/ppocr"

# newer OUT IN...: OUT exists and is newer than every IN.
newer() {
  local out=$1
  shift
  [ -e "$out" ] || return 1
  for in in "$@"; do [ "$out" -nt "$in" ] || return 1; done
}

# 3. The QDQ int8 models for ONNX Runtime: calibrate the float model with ONNX Runtime, then quantize.
while IFS=$'\t' read -r name input shape mean std reorder; do
  q=$W/models/${name}_qdq.onnx
  if ! newer "$q" "$W/models/$name.onnx" "$HERE/qdq.py" "$HERE/ort_calib.js"; then
    echo "bench: QDQ int8 $name"
    "$PY" "$HERE/qdq.py" augment "$W/models/$name.onnx" "$W/qdq/$name.aug.onnx"
    node "$HERE/ort_calib.js" "$W/qdq/$name.aug.onnx" "$W/calib/$name" "$shape" "$W/qdq/$name.calib.json"
    rm -f "$W/qdq/$name.aug.onnx"
    "$PY" "$HERE/qdq.py" quantize "$W/models/$name.onnx" "$W/qdq/$name.calib.json" "$q"
  fi
done < "$W/models.tsv"

# 4. The npurt models: float (fp), int8 with npurt's default recipe (q8), and int8 as rknn-toolkit2 builds it,
#    plain w8a8 like the QDQ models of ONNX Runtime (w8: no int16 layers, smoothing, bias correction or
#    GPTQ); images in as uint8 with each model's mean/std (and channel order). Converted again when
#    BUILD_DIR's npurt or the ONNX model changed. A failed conversion leaves NAME.rknn.error, which the
#    measurements report. NPURT_BENCH_QUANT_FLAGS: extra flags for the default int8 conversion.
#    qd: ONNX Runtime's QDQ model of step 3 converted as it is (its own scales, no calibration).
#    fp is float32 (the peers' numbers); f16 the float model as npurt convert writes it by default, fp16
#    storage as the NPU (its cost over fp32: the rounding of every op's output).
PLAIN_W8A8=(--smooth-activations false --int16-mac-budget 0 --bias-correction false --weight-rounding nearest)
while IFS=$'\t' read -r name input shape mean std reorder; do
  for p in fp f16 q8 w8 qd; do
    out=$W/rknn/${name}_$p.rknn
    src=$W/models/$name.onnx
    if [ "$p" = qd ]; then src=$W/models/${name}_qdq.onnx; fi
    newer "$out" "$N" "$src" && continue
    args=("$src" -o "$out" --input-shapes "$input:$shape" --mean-values "$mean"
          --std-values "$std" --reorder-channels "$reorder")
    # shellcheck disable=SC2206
    case $p in
      fp) args+=(--float-dtype float32) ;;
      q8) args+=(--quantize --dataset "$W/calib/images.txt" ${NPURT_BENCH_QUANT_FLAGS:-}) ;;
      w8) args+=(--quantize --dataset "$W/calib/images.txt" "${PLAIN_W8A8[@]}") ;;
    esac
    echo "bench: npurt convert $name ($p)"
    rm -f "$out" "$out.error"
    t0=$(date +%s)
    if ! "$NB" convert "${args[@]}" > "$W/logs/convert_${name}_$p.log" 2>&1; then
      tail -n 3 "$W/logs/convert_${name}_$p.log" | tee "$out.error" >&2
      rm -f "$out"
    fi
    echo "  $(($(date +%s) - t0)) s" >> "$W/logs/convert_${name}_$p.log"
  done
done < "$W/models.tsv"

# 5. The machine's int8 peak (bench/isa: the fastest exact dot-product sequence of one core), the timings
#    (one process each), then the report.
if [ -x "$B/bench/isa/dot_throughput" ]; then "$B/bench/isa/dot_throughput" 0.3 > "$W/isa.txt"; else rm -f "$W/isa.txt"; fi
echo "bench: measuring ($ROUNDS rounds)"
"$PY" "$HERE/measure.py" "$W" "$NB" "$ROUNDS"
BENCH_SECONDS=$(($(date +%s) - start)) "$PY" "$HERE/report.py" "$W" "$REPO" "$N"
echo "bench: done in $(($(date +%s) - start)) s"
