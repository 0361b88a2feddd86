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
# Depends: the C library, and the runtime package of the libpng the command was linked with.
set(PEERWAVE_DEB_DEPENDS "libc6")
if(PNG_FOUND)
  list(GET PNG_LIBRARIES 0 png_library)
  get_filename_component(png_real "${png_library}" REALPATH)
  execute_process(COMMAND dpkg -S "${png_real}" OUTPUT_VARIABLE png_owner ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX MATCH "^[^:]+" png_package "${png_owner}")
  if(png_package)
    string(APPEND PEERWAVE_DEB_DEPENDS ", ${png_package}")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${PEERWAVE_DEB_DEPENDS}")
# the shared library enters the loader's cache when the package is installed
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/cmake/debian/triggers)
include(CPack)
