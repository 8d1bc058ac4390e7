# Sourced by the bench scripts: the script's own $1 is BUILD_DIR (default build), where the data and the npurt tool are,
# and a check that the build and the models exist. Sets B, DATA, M (PP-OCR models), N (npurt); the
# caller then names its own work directory and extra tools:
#   . "$(dirname "$0")/bench_env.sh"; bench_require TOOL... ; bench_require_model FILE
B=${1:-build}
DATA=${NPURT_DATA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/npurt}
M=$DATA/models/ppocr
N=$B/tools/npurt/npurt

bench_require() {
  for tool in "$N" "$@"; do
    [ -x "$tool" ] || { echo "missing $tool: run 'make build' (or pass the build dir)" >&2; exit 2; }
  done
}

bench_require_model() {
  [ -f "$M/$1" ] || { echo "missing models in $M: run 'make setup'" >&2; exit 2; }
}
