# The Debian package: `cpack -G DEB` in a build folder makes peerwave_<version>_<arch>.deb of what
# `cmake --install` installs (libraries, headers, the command, the CMake and pkg-config files);
# `apt install ./peerwave_*.deb` installs it.  A CUDA build's programs find the toolkit's runtime
# where they were linked against it (install RPATH: /usr/local/cuda on these machines).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME peerwave)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "wavefront computations on GPUs and CPUs (library and command)")
set(CPACK_PACKAGE_CONTACT "PeerWave developers <peerwave@localhost>")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Depends: the C library, and the runtime packages of the libpng, zlib and MPI the library and
# command were linked with (the package that holds each library file; OpenMPI's libmpi was missing).
set(PEERWAVE_DEB_DEPENDS "libc6")
foreach(optional PNG ZLIB MPI_C)
  if(${optional}_FOUND)
    list(GET ${optional}_LIBRARIES 0 optional_library)
    get_filename_component(optional_real "${optional_library}" REALPATH)
    execute_process(COMMAND dpkg -S "${optional_real}" OUTPUT_VARIABLE optional_owner ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT optional_owner AND optional_real MATCHES "^/usr/lib/") # (merged /usr: zlib1g's files are under /lib)
      string(REGEX REPLACE "^/usr" "" optional_real "${optional_real}")
      execute_process(COMMAND dpkg -S "${optional_real}" OUTPUT_VARIABLE optional_owner ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    endif()
    string(REGEX MATCH "^[^:]+" optional_package "${optional_owner}")
    if(optional_package)
      string(APPEND PEERWAVE_DEB_DEPENDS ", ${optional_package}")
    endif()
  endif()
endforeach()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${PEERWAVE_DEB_DEPENDS}")
# the shared library enters the loader's cache when the package is installed
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/cmake/debian/triggers)
include(CPack)
