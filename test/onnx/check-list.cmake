# Fails unless scripts/onnx-node-test-list.py, run on the installed
# libonnx-testdata, writes exactly the checked-in test/onnx/node-tests.txt.
# Usage: cmake -DGENERATOR=... -DLIST=... -DOUT=... -P check-list.cmake
execute_process(
  COMMAND /usr/bin/python3 ${GENERATOR} --out ${OUT}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} failed (exit ${rc})")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E compare_files ${LIST} ${OUT}
  RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "${LIST} is not what ${GENERATOR} writes (${OUT}); "
    "regenerate it, and give every test that leaves the list its reason in "
    "docs/ONNX.md")
endif()
