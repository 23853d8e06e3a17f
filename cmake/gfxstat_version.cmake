# SPDX-License-Identifier: MIT
# The version string of data/gfxstat_version.cpp, computed at every build
# (cmake/version.cmake says how) into a header of the build directory.
# GFXSTAT_VERSION_OVERRIDE fixes the string instead: a package build
# (debian/rules) passes its upstream version, so that the version is the
# package's whatever tree it was built from.
set(GFXSTAT_VERSION_OVERRIDE "" CACHE STRING
  "Use this as gfxstat's version instead of asking git (package builds)")

set(GFXSTAT_VERSION_HEADER_DIR "${CMAKE_CURRENT_BINARY_DIR}/generated")
set(GFXSTAT_VERSION_HEADER "${GFXSTAT_VERSION_HEADER_DIR}/gfxstat_version_string.h")
# Always out of date, so it runs at every build; it rewrites the header only
# when the string changed (BYPRODUCTS lets Ninja see an untouched file).
add_custom_target(gfxstat_version
  COMMAND "${CMAKE_COMMAND}"
    "-DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}"
    "-DOUTPUT=${GFXSTAT_VERSION_HEADER}"
    "-DPROJECT_VERSION=${PROJECT_VERSION}"
    "-DOVERRIDE=${GFXSTAT_VERSION_OVERRIDE}"
    -P "${CMAKE_CURRENT_SOURCE_DIR}/cmake/version.cmake"
  BYPRODUCTS "${GFXSTAT_VERSION_HEADER}"
  VERBATIM)
add_dependencies(gfxstat_data gfxstat_version)
set_property(SOURCE data/gfxstat_version.cpp APPEND PROPERTY INCLUDE_DIRECTORIES "${GFXSTAT_VERSION_HEADER_DIR}")
