# Writes the bytes of every schedule file in FILES (a ;-separated list of
# paths below SOURCE_DIR) to OUTPUT as C arrays and a table
# kEmbeddedSchedules {path relative to SOURCE_DIR, bytes, size}, so that the
# schedules fuel applies are compiled into it and no file is read at run
# time. Run as: cmake -DSOURCE_DIR=... -DFILES=... -DOUTPUT=... -P EmbedSchedules.cmake
set(content "// Generated from kernels/schedules; do not edit.\n")
set(table "")
set(index 0)
list(SORT FILES)
foreach(file ${FILES})
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR size "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
  string(APPEND content "static const unsigned char kSchedule${index}[] = {\n${bytes}0};\n")
  string(APPEND table "  {\"${rel}\", kSchedule${index}, ${size}},\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND content "static const EmbeddedSchedule kEmbeddedSchedules[] = {\n${table}  {\"\", nullptr, 0}};\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
