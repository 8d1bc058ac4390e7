# Builds the demo model and runs the C demo on it (what `make demo` does).
execute_process(COMMAND ${MAKE_MODEL} ${MODEL} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "demo model generation failed")
endif()
execute_process(COMMAND ${DEMO} ${MODEL} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "demo failed with ${rc}")
endif()
