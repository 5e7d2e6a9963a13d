# Fails when the archive ARCHIVE has undefined references to LLVM or MLIR.
# Run as: cmake -DNM=<nm> -DARCHIVE=<lib> -P CheckNoLlvm.cmake
if(NOT EXISTS "${ARCHIVE}")
  message(FATAL_ERROR "FuelProbe archive not built: ${ARCHIVE}")
endif()
execute_process(COMMAND ${NM} -C -u ${ARCHIVE}
  OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${ARCHIVE}")
endif()
string(REGEX MATCHALL "[^\n]*(llvm::|mlir::|LLVM[A-Z][A-Za-z]+|mlir[A-Z][A-Za-z]+)[^\n]*"
  hits "${undefined}")
if(hits)
  list(JOIN hits "\n" hits)
  message(FATAL_ERROR "FuelProbe depends on LLVM or MLIR:\n${hits}")
endif()
message(STATUS "FuelProbe has no LLVM or MLIR dependency")
