# Which kernels a ctest run exercised: a test that needs an instruction set the CPU target lacks logs its
# skip (tests/common/isa_skip.h) to NPURT_ISA_SKIP_LOG. A test binary that can skip so gets the variable
# and the isa_skips fixture in its test properties (NPURT_ISA_SKIP_PROPERTIES): the log is cleared before
# it and counted after it, by npurt_isa_report, whose line also lands in NPURT_ISA_REPORT, since ctest
# shows no passing test's output (the Makefile prints the file after each ctest).
set(NPURT_ISA_SKIP_LOG ${CMAKE_BINARY_DIR}/Testing/isa_skips.log)
set(NPURT_ISA_REPORT ${CMAKE_BINARY_DIR}/Testing/isa_report.txt)
set(NPURT_ISA_SKIP_PROPERTIES ENVIRONMENT NPURT_ISA_SKIP_LOG=${NPURT_ISA_SKIP_LOG} FIXTURES_REQUIRED isa_skips)

add_executable(npurt_isa_report ${PROJECT_SOURCE_DIR}/tests/common/isa_report.cc)
target_link_libraries(npurt_isa_report PRIVATE npurt_kernels_dispatch)
npurt_target_warnings(npurt_isa_report)

add_test(NAME isa_skips_clear COMMAND ${CMAKE_COMMAND} -E rm -f ${NPURT_ISA_SKIP_LOG} ${NPURT_ISA_REPORT})
set_tests_properties(isa_skips_clear PROPERTIES FIXTURES_SETUP isa_skips)
# In a cross build ctest runs it under the emulator (qemu-aarch64): the target an ARM board detects.
add_test(NAME isa_skips_report COMMAND npurt_isa_report ${NPURT_ISA_SKIP_LOG} ${NPURT_ISA_REPORT})
set_tests_properties(isa_skips_report PROPERTIES FIXTURES_CLEANUP isa_skips)
