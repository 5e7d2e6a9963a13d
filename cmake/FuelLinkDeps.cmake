# The libraries fuel's CPU target (MLIRFuelCpuTarget) links that are found by
# path rather than exported by LLVM's package: lld's static libraries (the
# in-process link of kernel shared objects, Debian liblld-22-dev) and the
# zlib and zstd they compress sections with. Each becomes an imported target,
# Fuel::lldELF, Fuel::lldCommon, Fuel::zlib and Fuel::zstd, so that exported
# targets name them instead of holding this machine's paths.
#
# Included by the build (lib/Codegen/CPU, the object step) and, installed beside
# FuelConfig.cmake, by a consumer's find_package(Fuel), which finds them
# again on the consumer's machine. Needs LLVM_LIBRARY_DIR (from LLVMConfig).
#
# fuel_find_link_deps(<result-var> [GLOBAL])
# Sets <result-var> to "" when every library was found and its target exists,
# else to a message naming what is missing.

function(fuel_find_link_deps result)
  cmake_parse_arguments(ARG "GLOBAL" "" "" ${ARGN})
  set(scope)
  if(ARG_GLOBAL)
    set(scope GLOBAL)
  endif()
  set(missing)
  # <target> <cache variable> <library name> <hint>
  foreach(entry
      "lldELF;FUEL_LLD_ELF;lldELF;${LLVM_LIBRARY_DIR}"
      "lldCommon;FUEL_LLD_COMMON;lldCommon;${LLVM_LIBRARY_DIR}"
      "zlib;FUEL_ZLIB;z;"
      "zstd;FUEL_ZSTD;zstd;")
    list(GET entry 0 name)
    list(GET entry 1 var)
    list(GET entry 2 lib)
    list(GET entry 3 hint)
    if(TARGET Fuel::${name})
      continue()
    endif()
    find_library(${var} ${lib} HINTS ${hint})
    if(NOT ${var})
      list(APPEND missing "lib${lib} (${var})")
      continue()
    endif()
    add_library(Fuel::${name} UNKNOWN IMPORTED ${scope})
    set_target_properties(Fuel::${name} PROPERTIES IMPORTED_LOCATION "${${var}}")
  endforeach()
  if(missing)
    list(JOIN missing ", " missing)
    string(CONCAT message "not found: ${missing}; lld's static libraries "
      "come with Debian's liblld-22-dev (in ${LLVM_LIBRARY_DIR}), zlib and "
      "zstd with zlib1g-dev and libzstd-dev")
    set(${result} "${message}" PARENT_SCOPE)
  else()
    set(${result} "" PARENT_SCOPE)
  endif()
endfunction()
