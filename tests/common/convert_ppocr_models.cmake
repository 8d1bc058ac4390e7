# Converts the PaddleOCR models into OUT_DIR with examples/ppocr/convert_models.sh, as `make demo` does: the
# fixture the OCR demo test and the cross-target identity test read. PRECISION (int8 or float), REC_WIDTH and
# INT8_FLAGS go to the script as its environment.
#   cmake -DNPURT= -DCONVERT_SCRIPT= -DMAKE_OCR_SETS= -DMODEL_DIR= -DOUT_DIR= [-DPRECISION=int8|float]
#         [-DREC_WIDTH=W] [-DINT8_FLAGS="..."] -P convert_ppocr_models.cmake
foreach(var NPURT CONVERT_SCRIPT MAKE_OCR_SETS MODEL_DIR OUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "convert_ppocr_models.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT EXISTS ${MODEL_DIR}/ppocr_keys_v1.txt)
  message(FATAL_ERROR "PaddleOCR models not found in ${MODEL_DIR}: run scripts/setup.sh")
endif()

set(env PRECISION=int8)
if(DEFINED PRECISION)
  set(env PRECISION=${PRECISION})
endif()
if(DEFINED REC_WIDTH)
  list(APPEND env REC_WIDTH=${REC_WIDTH})
endif()
if(DEFINED INT8_FLAGS)
  list(APPEND env "INT8_FLAGS=${INT8_FLAGS}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} sh ${CONVERT_SCRIPT} ${NPURT} ${MODEL_DIR} ${OUT_DIR} ${MAKE_OCR_SETS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "model conversion failed (${rc})")
endif()
