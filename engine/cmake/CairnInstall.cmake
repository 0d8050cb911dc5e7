# cmake --install: headers, libraries, the CMake package (cairn::cairn, cairn::cairn_io,
# cairn::cairn_threads) and
# pkg-config files.
include(CMakePackageConfigHelpers)
set(cairn_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/cairn)

install(TARGETS cairn cairn_io cairn_threads EXPORT cairnTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cairn)
install(EXPORT cairnTargets NAMESPACE cairn:: DESTINATION ${cairn_cmake_dir})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/cairnConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/cairnConfig.cmake INSTALL_DESTINATION ${cairn_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/cairnConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cairnConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/cairnConfigVersion.cmake
        DESTINATION ${cairn_cmake_dir})

# Relocatable: the prefix is found from the .pc file's own location.
file(RELATIVE_PATH pc_to_prefix "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
foreach(pc cairn cairn_io cairn_threads)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
