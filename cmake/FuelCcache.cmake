# Compiles through ccache where it is installed (FUEL_CCACHE, default ON),
# so that a tree rebuilt from scratch -- a fresh clone, the test command's
# second configuration of the same sources -- takes its objects from the
# cache instead of the compiler.
#
# The launcher carries ccache's settings itself, so every compile of the
# tree uses them whoever starts ninja:
#   CCACHE_SLOPPINESS  pch_defines,time_macros: what clang's precompiled
#                      headers (FUEL_PCH) need to be cached at all;
#                      include_file_mtime,include_file_ctime: a fresh
#                      clone's headers are all "new", which would otherwise
#                      disable direct-mode hits for a while.
#   CCACHE_BASEDIR     the source root: paths under it are hashed relative
#                      to the build directory, so another clone of the same
#                      commit at another path hits too.
# With clang and FUEL_PCH, -Xclang -fno-pch-timestamp keeps the .pch free
# of the header's modification time (ccache compares its contents).
# The cache is ccache's own (CCACHE_DIR, default ~/.cache/ccache); an
# explicit CMAKE_<LANG>_COMPILER_LAUNCHER wins.
option(FUEL_CCACHE "Compile through ccache where it is installed" ON)
if(FUEL_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER
   AND NOT CMAKE_C_COMPILER_LAUNCHER)
  find_program(FUEL_CCACHE_PROGRAM ccache)
  find_program(FUEL_ENV_PROGRAM env)
  if(FUEL_CCACHE_PROGRAM AND FUEL_ENV_PROGRAM)
    set(FUEL_CCACHE_LAUNCHER ${FUEL_ENV_PROGRAM}
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      CCACHE_BASEDIR=${FUEL_SOURCE_DIR}
      ${FUEL_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${FUEL_CCACHE_LAUNCHER})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${FUEL_CCACHE_LAUNCHER})
    if(FUEL_PCH AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      add_compile_options(
        "$<$<COMPILE_LANGUAGE:CXX>:SHELL:-Xclang -fno-pch-timestamp>")
    endif()
    message(STATUS "fuel: compiling through ${FUEL_CCACHE_PROGRAM}")
  endif()
endif()
