#!/usr/bin/env bash
# `pip install --no-build-isolation .` from the checkout, offline, into a temporary target reusing the
# CMake build tree (NPURT_BUILD_DIR): the installed packages import and run a model on their own
# (librknnrt.so inside the npurt package, found through the module's $ORIGIN rpath).
#   check_pip_install.sh SOURCE_DIR BUILD_DIR MODEL.rknn
set -euo pipefail
src=$1 build=$2 model=$3
target=$(mktemp -d)
trap 'rm -rf "$target"' EXIT
NPURT_BUILD_DIR=$build /usr/bin/python3 -m pip install --no-build-isolation --no-deps --no-index --quiet \
  --disable-pip-version-check --root-user-action=ignore --target "$target" "$src"
cd "$target"
PYTHONPATH="$target" /usr/bin/python3 - "$target" "$model" <<'PY'
import os
import sys

import numpy as np

target, model = sys.argv[1:3]
import npurt
from rknn.api import RKNN  # noqa: F401 (importable)
from rknnlite.api import RKNNLite

assert npurt.__file__.startswith(target), npurt.__file__
lite = RKNNLite()
assert lite.load_rknn(model) == 0 and lite.init_runtime() == 0
outputs = lite.inference(inputs=[np.ones(lite._session.inputs[0]["dims"], np.float32)])
assert outputs is not None and len(outputs) == len(lite._session.outputs)
with open("/proc/self/maps") as f:
    runtimes = {line.split()[-1] for line in f if line.rstrip().endswith("librknnrt.so")}
assert runtimes == {os.path.join(target, "npurt", "librknnrt.so")}, runtimes
print("pip install check passed: %d outputs, librknnrt from %s" % (len(outputs), runtimes.pop()))
PY
