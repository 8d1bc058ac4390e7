# docs/supported_ops.md must equal its header plus `npurt ops --markdown`.
# Regenerate with: scripts/gen_supported_ops.sh build/tools/npurt/npurt
execute_process(COMMAND ${NPURT} ops --markdown OUTPUT_VARIABLE table RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npurt ops failed")
endif()
file(READ ${DOC} doc)
string(FIND "${doc}" "${table}" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "docs/supported_ops.md is out of date: run scripts/gen_supported_ops.sh")
endif()
