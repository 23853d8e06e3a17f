# SPDX-License-Identifier: MIT
# Start-up: most of what a small `gfxstat ministat` costs before main is the
# dynamic loader binding libstdc++'s symbols, libstdc++'s own relocations
# included (callgrind, ministat of 2 x 100 values: 2.5 M instructions, 76%
# of them in _dl_relocate_object; 0.62 M with the C++ runtime linked in).
# libstdc++ is only left out of the process when nothing else loads it,
# and RE2's shared library does: so RE2's archive and a static libstdc++
# and libgcc go together, or not at all.
#
# On for the tree's build. Off for a distribution's package (debian/rules):
# Debian Policy 4.13 forbids convenience copies of other packages' code,
# and a libstdc++ or RE2 security update must reach the program.
option(GFXSTAT_STATIC_CXX "Link libstdc++, libgcc and RE2 into gfxstat (faster start-up)" ON)

# gfxstat_re2: what the layers link RE2 through.
add_library(gfxstat_re2 INTERFACE)
find_library(GFXSTAT_RE2_ARCHIVE NAMES libre2.a)
if(GFXSTAT_STATIC_CXX AND GFXSTAT_RE2_ARCHIVE AND NOT GFXSTAT_SANITIZE AND NOT GFXSTAT_FUZZ)
  set(GFXSTAT_STATIC_CXX_ACTIVE ON)
  target_include_directories(gfxstat_re2 INTERFACE ${RE2_INCLUDE_DIRS})
  target_link_libraries(gfxstat_re2 INTERFACE ${GFXSTAT_RE2_ARCHIVE} Threads::Threads)
else()
  set(GFXSTAT_STATIC_CXX_ACTIVE OFF)
  target_link_libraries(gfxstat_re2 INTERFACE PkgConfig::RE2)
endif()

# gfxstat_static_cxx(TARGET): the C++ runtime linked into TARGET, when on.
function(gfxstat_static_cxx target)
  if(GFXSTAT_STATIC_CXX_ACTIVE)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
