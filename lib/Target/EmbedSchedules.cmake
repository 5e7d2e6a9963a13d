# Writes every schedule file named in INPUTS ('|'-separated absolute paths
# under ROOT) into OUTPUT as C++ byte arrays and a table from the file's path
# relative to ROOT to its bytes, so the kernel registry hashes each schedule
# file into its record's revision without reading the tree at run time.
# Run as: cmake -DROOT=... -DINPUTS=a|b -DOUTPUT=... -P EmbedSchedules.cmake
string(REPLACE "|" ";" inputs "${INPUTS}")
list(SORT inputs)
set(content "// Generated from kernels/schedules; do not edit.\n")
set(table "")
set(index 0)
foreach(input IN LISTS inputs)
  if(input STREQUAL "")
    continue()
  endif()
  file(RELATIVE_PATH relative "${ROOT}" "${input}")
  file(READ "${input}" hex HEX)
  string(LENGTH "${hex}" hexLength)
  math(EXPR size "${hexLength} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
  # A trailing NUL keeps the array non-empty for an empty file; the table
  # records the real size.
  string(APPEND content "static const char kScheduleFile${index}[] = {\n${bytes}0x00};\n")
  string(APPEND table "    {\"${relative}\", kScheduleFile${index}, ${size}},\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND content "static const EmbeddedScheduleFile kScheduleFiles[] = {\n${table}    {nullptr, nullptr, 0}};\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
