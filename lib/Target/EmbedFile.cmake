# Writes the bytes of INPUT as a C array initializer list to OUTPUT, so a data
# file (kernels/registry.json) is compiled into the library and the binary
# needs no file at run time. Run as: cmake -DINPUT=... -DOUTPUT=... -P EmbedFile.cmake
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Break the line every 16 bytes to keep the generated file readable.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
set(content "// Generated from ${INPUT}; do not edit.\n${bytes}\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
