# The libraries made of peerwave_objects -- libpeerwave.a (the CLI, tests and benchmarks link it)
# and libpeerwave.so.<major> (versioned soname; it exports only the functions the public headers
# declare) -- and what `cmake --install` puts where: both libraries, the public headers, the
# `peerwave` command (added by the top-level file), the CMake package (find_package(PeerWave):
# PeerWave::peerwave, the shared library, and PeerWave::peerwave_static) and peerwave.pc.  The
# Debian package (CPack) is cmake/package.cmake.

# Every header of include/ is public (a list written out once missed peerwave_task_cell.h, which
# peerwave_tasks.h sends users to); test_install checks that each one is installed.
file(GLOB PEERWAVE_PUBLIC_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/*.h)

# What a program linking the library needs.  The CUDA objects need the CUDA runtime and, for the
# run-time compiler's glue (C++), libstdc++; recorded here so that a C program links with `cc`
# and no undocumented -lcudart -lstdc++.
set(PEERWAVE_LINK_DEPS Threads::Threads m ${CMAKE_DL_LIBS})
set(PEERWAVE_DEFINITIONS "")
set(PEERWAVE_PC_LIBS "-lpthread -lm -ldl")
if(PEERWAVE_HAVE_CUDA)
  list(APPEND PEERWAVE_LINK_DEPS CUDA::cudart stdc++)
  list(APPEND PEERWAVE_DEFINITIONS PW_HAVE_CUDA)
  string(APPEND PEERWAVE_PC_LIBS " -L${CUDAToolkit_LIBRARY_DIR} -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR} -lcudart -lstdc++")
endif()
if(PEERWAVE_HAVE_NVRTC)
  list(APPEND PEERWAVE_LINK_DEPS CUDA::nvrtc)
  list(APPEND PEERWAVE_DEFINITIONS PW_HAVE_NVRTC)
  if(NOT PEERWAVE_HAVE_CUDA)
    string(APPEND PEERWAVE_PC_LIBS " -L${CUDAToolkit_LIBRARY_DIR} -Wl,-rpath,${CUDAToolkit_LIBRARY_DIR}")
  endif()
  string(APPEND PEERWAVE_PC_LIBS " -lnvrtc")
endif()

if(PEERWAVE_HAVE_NCCL)
  list(APPEND PEERWAVE_LINK_DEPS ${PEERWAVE_NCCL})
  get_filename_component(PEERWAVE_NCCL_DIR ${PEERWAVE_NCCL} DIRECTORY)
  string(APPEND PEERWAVE_PC_LIBS " -L${PEERWAVE_NCCL_DIR} -Wl,-rpath,${PEERWAVE_NCCL_DIR} -lnccl")
endif()
if(MPI_C_FOUND)
  list(APPEND PEERWAVE_LINK_DEPS MPI::MPI_C)
  foreach(mpi_lib ${MPI_C_LIBRARIES})
    string(APPEND PEERWAVE_PC_LIBS " ${mpi_lib}")
  endforeach()
endif()

add_library(peerwave STATIC $<TARGET_OBJECTS:peerwave_objects>)
add_library(peerwave_shared SHARED $<TARGET_OBJECTS:peerwave_objects>)
set_target_properties(peerwave_shared PROPERTIES OUTPUT_NAME peerwave VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR} EXPORT_NAME peerwave)
set_target_properties(peerwave PROPERTIES EXPORT_NAME peerwave_static)
foreach(lib peerwave peerwave_shared)
  target_include_directories(${lib} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${lib} PUBLIC ${PEERWAVE_LINK_DEPS})
  target_compile_definitions(${lib} PUBLIC ${PEERWAVE_DEFINITIONS})
  # the objects' languages are C (and CUDA): link with the C compiler, the runtime named above
  set_target_properties(${lib} PROPERTIES LINKER_LANGUAGE C)
endforeach()

# The shared library's exports: the functions declared in peerwave.h, peerwave_runtime.h,
# peerwave_align.h, peerwave_batch.h, peerwave_tasks.h and peerwave_dist.h (one
# declaration starts a line: `type pw_name(`), everything else local (pw_malloc, the engines ...).
# tests/test_install.sh checks `nm -D` against the same declarations.
set(PEERWAVE_API_SYMBOLS "")
foreach(header ${PROJECT_SOURCE_DIR}/include/peerwave.h ${PROJECT_SOURCE_DIR}/include/peerwave_runtime.h
               ${PROJECT_SOURCE_DIR}/include/peerwave_align.h ${PROJECT_SOURCE_DIR}/include/peerwave_batch.h
               ${PROJECT_SOURCE_DIR}/include/peerwave_tasks.h ${PROJECT_SOURCE_DIR}/include/peerwave_dist.h)
  file(STRINGS ${header} declarations REGEX "^[a-z_][a-z0-9_ *]*[^a-z0-9_]pw_[a-z0-9_]+\\(")
  foreach(line IN LISTS declarations)
    string(REGEX MATCH "pw_[a-z0-9_]+\\(" name "${line}")
    if(name)
      string(REPLACE "(" "" name "${name}")
      list(APPEND PEERWAVE_API_SYMBOLS ${name})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES PEERWAVE_API_SYMBOLS)
list(SORT PEERWAVE_API_SYMBOLS)
list(JOIN PEERWAVE_API_SYMBOLS ";\n    " PEERWAVE_API_LINES)
# (written only when it changes, so a reconfigure does not relink)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/peerwave.map.new "PEERWAVE_${PROJECT_VERSION_MAJOR} {\n  global:\n    ${PEERWAVE_API_LINES};\n  local:\n    *;\n};\n")
configure_file(${CMAKE_CURRENT_BINARY_DIR}/peerwave.map.new ${CMAKE_CURRENT_BINARY_DIR}/peerwave.map COPYONLY)
target_link_options(peerwave_shared PRIVATE "LINKER:--version-script=${CMAKE_CURRENT_BINARY_DIR}/peerwave.map"
                    "LINKER:--no-undefined")
set_property(TARGET peerwave_shared APPEND PROPERTY LINK_DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/peerwave.map)

# --- installation ----------------------------------------------------------------------------
include(CMakePackageConfigHelpers)
install(TARGETS peerwave peerwave_shared EXPORT PeerWaveTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PEERWAVE_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(PEERWAVE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/PeerWave)
install(EXPORT PeerWaveTargets NAMESPACE PeerWave:: DESTINATION ${PEERWAVE_CMAKE_DIR})
# What the package records about this build (PeerWaveConfig.cmake.in says how it is used).
set(PEERWAVE_PACKAGE_CUDA ${PEERWAVE_HAVE_CUDA})
set(PEERWAVE_PACKAGE_NVRTC ${PEERWAVE_HAVE_NVRTC})
if(NOT PEERWAVE_PACKAGE_CUDA)
  set(PEERWAVE_PACKAGE_CUDA OFF)
endif()
if(NOT PEERWAVE_PACKAGE_NVRTC)
  set(PEERWAVE_PACKAGE_NVRTC OFF)
endif()
set(PEERWAVE_PACKAGE_MPI OFF)
if(MPI_C_FOUND)
  set(PEERWAVE_PACKAGE_MPI ON)
  set(PEERWAVE_PACKAGE_MPI_LIBRARIES "${MPI_C_LIBRARIES}")
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/PeerWaveConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/PeerWaveConfig.cmake INSTALL_DESTINATION ${PEERWAVE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/PeerWaveConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/PeerWaveConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/PeerWaveConfigVersion.cmake
        DESTINATION ${PEERWAVE_CMAKE_DIR})
file(RELATIVE_PATH PEERWAVE_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${PROJECT_SOURCE_DIR}/cmake/peerwave.pc.in ${CMAKE_CURRENT_BINARY_DIR}/peerwave.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/peerwave.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
