# Installs the header, librknnrt (+ the librknn_api.so alias) and librknnmrt (RV1106 / RV1103), a CMake package
# config (find_package(npurt) -> npurt::rknnrt) and a pkg-config file (librknnrt.pc).
install(TARGETS rknnrt rknnmrt EXPORT npurtTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT npurt_runtime
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/rknn_api.h ${PROJECT_SOURCE_DIR}/include/rknn_matmul_api.h
  ${PROJECT_SOURCE_DIR}/include/rknn_custom_op.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES $<TARGET_FILE_DIR:rknnrt>/librknn_api.so DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT npurtTargets NAMESPACE npurt:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/npurt)

include(CMakePackageConfigHelpers)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/npurtConfig.cmake.in
  "@PACKAGE_INIT@\ninclude(\"\${CMAKE_CURRENT_LIST_DIR}/npurtTargets.cmake\")\n")
configure_package_config_file(${CMAKE_CURRENT_BINARY_DIR}/npurtConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/npurtConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/npurt)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/npurtConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/npurtConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/npurtConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/npurt)

# Relative to the .pc file, so `cmake --install --prefix DIR` works for any DIR.
file(RELATIVE_PATH NPURT_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/librknnrt.pc.in
"prefix=\${pcfiledir}/@NPURT_PC_TO_PREFIX@
libdir=\${prefix}/@CMAKE_INSTALL_LIBDIR@
includedir=\${prefix}/@CMAKE_INSTALL_INCLUDEDIR@

Name: librknnrt
Description: npurt: RKNN runtime API (2.3.2 compatible) on CPUs
Version: @PROJECT_VERSION@
Libs: -L\${libdir} -lrknnrt
Cflags: -I\${includedir}
")
configure_file(${CMAKE_CURRENT_BINARY_DIR}/librknnrt.pc.in ${CMAKE_CURRENT_BINARY_DIR}/librknnrt.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/librknnrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
