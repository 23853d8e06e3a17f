# SPDX-License-Identifier: MIT
# What `make install` / `cmake --install` lays out, under the prefix:
#   bin/gfxstat
#   bin/ministat -> gfxstat   only with GFXSTAT_INSTALL_MINISTAT_LINK=ON
#   share/doc/gfxstat/        README.md, SECURITY.md, docs/ (the pages
#                             and the results-file schema), examples/
# The man pages (man/CMakeLists.txt) and the shell completions
# (completion/CMakeLists.txt) carry their own rules.
# tests/install/install_layout_test.py holds the whole list.
include(GNUInstallDirs)

install(TARGETS gfxstat RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Off by default: Debian's ministat package installs /usr/bin/ministat, and
# a gfxstat link there (or earlier in PATH, in /usr/local/bin) would shadow
# it. The rule is always there, as the component ministat-link, kept out of
# a plain install unless the option is on, so that it can be installed on
# its own (cmake --install BUILD --component ministat-link) and tested.
option(GFXSTAT_INSTALL_MINISTAT_LINK "Install bin/ministat, a symlink to gfxstat" OFF)
if(GFXSTAT_INSTALL_MINISTAT_LINK)
  set(_gfxstat_ministat_exclude "")
else()
  set(_gfxstat_ministat_exclude EXCLUDE_FROM_ALL)
endif()
# install(CODE) because install() has no rule for a symbolic link; the link
# is relative, so that it holds wherever DESTDIR and the prefix put it.
# CMAKE_INSTALL_PREFIX and DESTDIR are read when installing (--prefix wins).
if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}")
  set(_gfxstat_bindir "${CMAKE_INSTALL_BINDIR}")
else()
  set(_gfxstat_bindir "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}")
endif()
install(CODE "
  set(_link \"\$ENV{DESTDIR}${_gfxstat_bindir}/ministat\")
  message(STATUS \"Installing: \${_link} -> gfxstat\")
  get_filename_component(_dir \"\${_link}\" DIRECTORY)
  file(MAKE_DIRECTORY \"\${_dir}\")
  file(CREATE_LINK gfxstat \"\${_link}\" SYMBOLIC)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${_link}\")
  "
  COMPONENT ministat-link ${_gfxstat_ministat_exclude})

# The docs keep the tree's layout (README.md beside docs/), so that the
# README's links into docs/ and the pages' links to each other still work.
install(FILES README.md SECURITY.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB _gfxstat_doc_pages CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/docs/*.md"
  "${CMAKE_CURRENT_SOURCE_DIR}/docs/*.png")
install(FILES ${_gfxstat_doc_pages} docs/results-format.schema.json
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
# examples/ as the tree has it (the sample files the README's ministat
# example reads, the GitLab CI job, the LAVA definition and job, the kernel
# bisection's boot script), so that what the docs cite as examples/... is
# at share/doc/gfxstat/examples/... once installed. Every file as data
# (0644), the script too: it is a model to copy, not a program to run from
# there. The .deb takes them from here (debian/rules).
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The default target builds the program only: with GFXSTAT_BUILD_TOOLS off
# (the default), every program of this directory but gfxstat itself (the
# table generators and simulators of tools/) leaves the default build; they
# are built by name (make calibration, bench/) or with the option on.
option(GFXSTAT_BUILD_TOOLS "Build the generators and simulators of tools/ with the default target" OFF)
if(NOT GFXSTAT_BUILD_TOOLS)
  get_property(_gfxstat_targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_t IN LISTS _gfxstat_targets)
    get_target_property(_type ${_t} TYPE)
    if(_type STREQUAL "EXECUTABLE" AND NOT _t STREQUAL "gfxstat")
      set_target_properties(${_t} PROPERTIES EXCLUDE_FROM_ALL ON)
    endif()
  endforeach()
endif()
