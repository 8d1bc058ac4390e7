#!/bin/sh
# Checks the dynamic symbol table of librknnrt.so (or librknnmrt.so): every
# defined symbol must start with "rknn_" (nothing of npurt's internals, the C++
# runtime or the linker may leak), and the library's functions must be defined
# as functions (nm type T): all 23 of rknn_api.h 2.3.2, the 10 of rknn_matmul_api.h and the 2 of rknn_custom_op.h for librknnrt; for
# librknnmrt the 20 the vendor's 2.3.2 exports, and not the other 13.
#
# usage: check_exports.sh NM LIBRARY [rknnrt|rknnmrt]
set -u

if [ $# -ne 2 ] && [ $# -ne 3 ]; then
  echo "usage: $0 NM LIBRARY [rknnrt|rknnmrt]" >&2
  exit 2
fi
NM=$1
LIB=$2
KIND=${3:-rknnrt}

if [ ! -f "$LIB" ]; then
  echo "FAIL: $LIB does not exist" >&2
  exit 1
fi

TABLE=$("$NM" -D --defined-only "$LIB") || {
  echo "FAIL: '$NM -D --defined-only $LIB' failed" >&2
  exit 1
}

status=0

# Lines look like "000000000001a2b0 T rknn_init" (address, type, name[@version]).
BAD=$(printf '%s\n' "$TABLE" | awk 'NF >= 2 { name = $NF; sub(/@.*/, "", name); if (name !~ /^rknn_/) print }')
if [ -n "$BAD" ]; then
  echo "FAIL: symbols that do not start with rknn_ are exported:" >&2
  printf '%s\n' "$BAD" >&2
  status=1
fi

EXPECTED="rknn_init rknn_dup_context rknn_destroy rknn_query rknn_inputs_set rknn_set_batch_core_num
rknn_set_core_mask rknn_run rknn_wait rknn_outputs_get rknn_outputs_release rknn_create_mem_from_phys
rknn_create_mem_from_fd rknn_create_mem_from_mb_blk rknn_create_mem rknn_create_mem2 rknn_destroy_mem
rknn_set_weight_mem rknn_set_internal_mem rknn_set_io_mem rknn_set_input_shape rknn_set_input_shapes
rknn_mem_sync"
# rknn_matmul_api.h 2.3.2: librknnrt only (the RV1106 / RV1103 runtime has no Matmul API).
MATMUL="rknn_matmul_create rknn_matmul_create_dynamic_shape rknn_matmul_set_io_mem rknn_matmul_set_core_mask
rknn_matmul_set_quant_params rknn_matmul_get_quant_params rknn_matmul_set_dynamic_shape rknn_matmul_run
rknn_matmul_destroy rknn_B_normal_layout_to_native_layout"
# rknn_custom_op.h 2.3.2: librknnrt only too.
CUSTOM_OP="rknn_register_custom_ops rknn_custom_op_get_op_attr"
EXPECTED="$EXPECTED $MATMUL $CUSTOM_OP"
NOT_IN_MRT="rknn_set_batch_core_num rknn_set_core_mask rknn_create_mem_from_mb_blk $MATMUL $CUSTOM_OP"
WANT=35
if [ "$KIND" = rknnmrt ]; then
  for fn in $NOT_IN_MRT; do
    EXPECTED=$(printf '%s\n' $EXPECTED | grep -v -x "$fn")
    if printf '%s\n' "$TABLE" | awk -v fn="$fn" '
        NF >= 2 { name = $NF; sub(/@.*/, "", name); if (name == fn) found = 1 } END { exit found ? 0 : 1 }'; then
      echo "FAIL: $fn is exported, but librknnmrt.so 2.3.2 does not export it" >&2
      status=1
    fi
  done
  WANT=20
fi

count=0
for fn in $EXPECTED; do
  count=$((count + 1))
  if ! printf '%s\n' "$TABLE" | awk -v fn="$fn" '
      NF >= 3 { name = $NF; sub(/@.*/, "", name); if (name == fn && $(NF-1) == "T") found = 1 }
      END { exit found ? 0 : 1 }'; then
    echo "FAIL: $fn is not exported as a function" >&2
    status=1
  fi
done
if [ "$count" -ne "$WANT" ]; then
  echo "FAIL: the expected list has $count names, not $WANT (fix this script)" >&2
  status=1
fi

NDEF=$(printf '%s\n' "$TABLE" | awk 'NF >= 2' | wc -l)
if [ "$status" -eq 0 ]; then
  echo "OK: $LIB exports $NDEF symbols, all rknn_*, including the $WANT API functions"
fi
exit $status
