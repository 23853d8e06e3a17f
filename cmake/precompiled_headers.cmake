# SPDX-License-Identifier: MIT
# Precompiled headers for the heavy third-party headers (CLI11,
# nlohmann_json, Boost.Math, GoogleTest): each costs seconds to parse, in
# every file that includes it, on a 2-core machine that builds everything.
#
# gfxstat_precompile_headers(TARGET HEADER...) precompiles the HEADERs
# (written as in an #include: <CLI/CLI.hpp>) once for TARGET and uses the
# result in those of TARGET's sources that include one of them; the others
# compile as before (a precompiled header is loaded in full by every file it
# is given to, and most files need none of these). Call it after every
# source of TARGET is added. The sources still include what they use: the
# build is the same without precompiled headers
# (-DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON).
#
# gfxstat_reuse_precompiled_headers(TARGET FROM HEADER...) gives TARGET the
# header FROM precompiled (the test programs share one GoogleTest header:
# one precompiled header instead of one per program); FROM and TARGET must
# be compiled with the same options.
function(_gfxstat_skip_sources_without target)
  set(headers ${ARGN})
  set(pattern "")
  foreach(h IN LISTS headers)
    string(REGEX REPLACE "^<(.*)>$" "\\1" name "${h}")
    string(REPLACE "." "\\." name "${name}")
    string(REPLACE "+" "\\+" name "${name}")
    list(APPEND pattern "#[ \t]*include[ \t]*<${name}>")
  endforeach()
  list(JOIN pattern "|" pattern)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(used 0)
  foreach(src IN LISTS sources)
    if(NOT src MATCHES "\\.(cpp|cc|cxx)$")
      continue()
    endif()
    if(IS_ABSOLUTE "${src}")
      set(path "${src}")
    else()
      set(path "${source_dir}/${src}")
    endif()
    file(READ "${path}" text)
    if(text MATCHES "${pattern}")
      math(EXPR used "${used} + 1")
    else()
      set_source_files_properties(${src} TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  set(_gfxstat_pch_used ${used} PARENT_SCOPE)
endfunction()

function(gfxstat_precompile_headers target)
  _gfxstat_skip_sources_without(${target} ${ARGN})
  if(_gfxstat_pch_used GREATER 0)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()

function(gfxstat_reuse_precompiled_headers target from)
  _gfxstat_skip_sources_without(${target} ${ARGN})
  if(_gfxstat_pch_used GREATER 0)
    target_precompile_headers(${target} REUSE_FROM ${from})
  endif()
endfunction()
