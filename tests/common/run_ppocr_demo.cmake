# The OCR demo end to end, as `make demo` runs it: runs rknn_ppocr_demo on IMAGE
# with the models in WORK_DIR (converted by convert_ppocr_models.cmake, the
# test's fixture) and fails unless the recognized lines equal EXPECTED line for
# line and the annotated PNG was written.
#   cmake -DDEMO= -DMODEL_DIR= -DIMAGE= -DEXPECTED= -DWORK_DIR= -P run_ppocr_demo.cmake
foreach(var DEMO MODEL_DIR IMAGE EXPECTED WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_ppocr_demo.cmake: -D${var}=... is required")
  endif()
endforeach()

get_filename_component(name ${IMAGE} NAME_WE)
set(png ${WORK_DIR}/${name}.ocr.png)
file(REMOVE ${png})
execute_process(COMMAND ${DEMO} ${WORK_DIR}/det.rknn ${WORK_DIR}/cls.rknn ${WORK_DIR}/rec.rknn
  ${MODEL_DIR}/ppocr_keys_v1.txt ${IMAGE} -o ${png}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rknn_ppocr_demo failed (${rc})")
endif()
if(NOT EXISTS ${png})
  message(FATAL_ERROR "no annotated image at ${png}")
endif()

# The text of every "box [x0,y0,x1,y1]  score S  TEXT" line, one per line.
# Split by hand rather than as a CMake list: the text may hold ';' or '['.
set(got "")
set(rest "${out}")
while(NOT rest STREQUAL "")
  string(FIND "${rest}" "\n" eol)
  if(eol EQUAL -1)
    set(line "${rest}")
    set(rest "")
  else()
    string(SUBSTRING "${rest}" 0 ${eol} line)
    math(EXPR eol "${eol} + 1")
    string(SUBSTRING "${rest}" ${eol} -1 rest)
  endif()
  if(line MATCHES "^box \\[[0-9,]+\\]  score [0-9.]+  (.*)$")
    string(APPEND got "${CMAKE_MATCH_1}\n")
  endif()
endwhile()

file(READ ${EXPECTED} want)
if(NOT got STREQUAL want)
  # Printed as a plain message: FATAL_ERROR would re-wrap the lines.
  message("--- expected (${EXPECTED})\n${want}--- recognized\n${got}")
  message(FATAL_ERROR "the recognized text differs from the expected text")
endif()
message("all lines of ${EXPECTED} read exactly")
