# Fails when a compile or link command of the LLVM-free targets names an LLVM
# or MLIR include directory, library directory or library.
# Run as: cmake -DNINJA=<ninja> -DBUILD_DIR=<dir> -DSOURCE_DIR=<dir>
#               [-DTARGETS=<target;...>] -P CheckNoLlvmBuild.cmake
# Without TARGETS every default target is checked (the FUEL_BUILD_COMPILER=OFF
# build, where all of them are LLVM-free). -DCOMMANDS_FILE=<file> checks the
# commands listed in a file instead, which is how the check itself is tested.
if(COMMANDS_FILE)
  file(READ "${COMMANDS_FILE}" commands)
else()
  execute_process(COMMAND ${NINJA} -C ${BUILD_DIR} -t commands ${TARGETS}
    OUTPUT_VARIABLE commands RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NINJA} -t commands failed in ${BUILD_DIR}")
  endif()
endif()
string(REGEX MATCHALL "[^\n]+" lines "${commands}")
list(LENGTH lines count)
if(count EQUAL 0)
  message(FATAL_ERROR "no build commands found in ${BUILD_DIR}")
endif()
set(hits "")
foreach(line IN LISTS lines)
  # The tree's own paths may contain anything; the compiler is the first word.
  string(REPLACE "${SOURCE_DIR}" "<src>" args "${line}")
  string(REPLACE "${BUILD_DIR}" "<build>" args "${args}")
  # (string(REGEX REPLACE "^...") would strip every word: CMake re-anchors ^
  # after each replacement.)
  string(FIND "${args}" " " space)
  if(space GREATER -1)
    math(EXPR space "${space} + 1")
    string(SUBSTRING "${args}" ${space} -1 args)
  endif()
  string(TOLOWER "${args}" lower)
  if(lower MATCHES "(-i|-isystem|-l|-rpath[,=]?) *[^ ]*(llvm|mlir)"
     OR lower MATCHES "lib(llvm|mlir)[^ /]*\\.(so|a)"
     OR lower MATCHES "(^| )-l(llvm|mlir)")
    list(APPEND hits "${line}")
  endif()
endforeach()
if(hits)
  list(LENGTH hits bad)
  list(JOIN hits "\n" hits)
  message(FATAL_ERROR
    "${bad} of ${count} build commands mention LLVM or MLIR:\n${hits}")
endif()
message(STATUS "${count} build commands, none mentions LLVM or MLIR")
