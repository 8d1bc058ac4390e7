# make_model.py -> npurt convert -> rknn_custom_op_demo MODEL expected_y.bin TOLERANCE (see CMakeLists.txt).
# CASE: float32 / float16 (the float type), or int8 (--quantize on the demo's input, the op from PLUGIN).
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${PYTHON} ${SOURCE_DIR}/make_model.py ${WORK_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_model.py failed (${rc})")
endif()
if(CASE STREQUAL "int8")
  set(options --quantize --dataset ${WORK_DIR}/dataset.txt --custom-op-plugin ${PLUGIN})
else()
  set(options --float-dtype ${CASE})
endif()
execute_process(COMMAND ${NPURT} convert ${WORK_DIR}/custom_softplus.onnx -o ${WORK_DIR}/custom_softplus.rknn
                        ${options} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npurt convert failed (${rc})")
endif()
execute_process(COMMAND ${DEMO} ${WORK_DIR}/custom_softplus.rknn ${WORK_DIR}/expected_y.bin ${TOLERANCE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rknn_custom_op_demo failed (${rc})")
endif()
