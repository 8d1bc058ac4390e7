# The OCR quantization-accuracy tools end to end on a reduced sample, fast
# enough for `make test`: make_ocr_sets writes the benchmark's rec and cls sets,
# npurt converts cls and rec (float, and int8 with the default recipe,
# calibrated on the sets' calib.txt), eval_ocr compares them with the
# thresholds given in CHECK_cls / CHECK_rec (eval_ocr flags, e.g. --limit 40
# --max-exact-drop 2) and must print its RESULT line; without them it only
# reports on 8 samples.
#   cmake -DNPURT= -DMAKE_SETS= -DEVAL= -DMODEL_DIR= -DWORK_DIR= [-DCHECK_cls=...] [-DCHECK_rec=...]
#         -P run_ocr_reduced.cmake
foreach(var NPURT MAKE_SETS EVAL MODEL_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_ocr_reduced.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT EXISTS ${MODEL_DIR}/ppocr_keys_v1.txt)
  message(FATAL_ERROR "PaddleOCR models not found in ${MODEL_DIR}: run scripts/setup.sh")
endif()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

set(keys ${MODEL_DIR}/ppocr_keys_v1.txt)
set(sets ${WORK_DIR}/sets)
file(REMOVE_RECURSE ${WORK_DIR})
# The benchmark's own rec and cls sets (same lines, same calibration); det's pages are its own run.
run(${MAKE_SETS} --keys ${keys} --out ${sets} --det-eval-pages 1 --det-calib-pages 1)
foreach(task cls rec)
  if(task STREQUAL cls)
    set(onnx ch_ppocr_mobile_v2.0_cls_infer.onnx)
    set(shape x:1,3,48,192)
    set(extra)
  else()
    set(onnx ch_PP-OCRv4_rec_infer.onnx)
    set(shape x:1,3,48,320)
    set(extra --keys ${keys})
  endif()
  run(${NPURT} convert ${MODEL_DIR}/${onnx} -o ${WORK_DIR}/${task}_fp.rknn --input-shapes ${shape})
  run(${NPURT} convert ${MODEL_DIR}/${onnx} -o ${WORK_DIR}/${task}_q8.rknn --input-shapes ${shape}
      --quantize --dataset ${sets}/${task}/calib.txt)
  # CHECK_<task>: eval_ocr's threshold flags (and --limit) for this task; without it, report only.
  if(DEFINED CHECK_${task})
    separate_arguments(check_flags UNIX_COMMAND "${CHECK_${task}}")
  else()
    set(check_flags --no-check --limit 8)
  endif()
  run(${EVAL} ${task} ${WORK_DIR}/${task}_fp.rknn ${WORK_DIR}/${task}_q8.rknn ${sets}/${task} ${extra} ${check_flags})
  message("${out}")
  if(NOT out MATCHES "RESULT task=${task} n=[0-9]+ ")
    message(FATAL_ERROR "eval_ocr ${task} printed no RESULT line")
  endif()
endforeach()
