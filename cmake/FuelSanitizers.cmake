# Sanitizer instrumentation of fuel's own targets (FUEL_SANITIZERS, a list of
# `address` and `undefined`, or `thread` alone (scripts/test-tsan.sh, the
# runtime's unit tests under ThreadSanitizer); empty by default, `address;undefined` when
# FUEL_BUILD_FUZZERS is ON, so that the fuzzers and the sanitizer suite share
# one instrumented tree). Included from the top-level CMakeLists.txt after
# HandleLLVMOptions and before any target, so every target of the project --
# libraries, tools, tests, kernel shims, benchmarks, fuzzers -- compiles and
# links with the same flags. libMLIR.so and the system libraries are Debian's
# and stay uninstrumented; executables link the static ASan runtime, which
# exports its interface, so the instrumented shared libraries fuel builds
# resolve it from the executable (or from LD_PRELOAD in a host that is not
# instrumented, e.g. Python loading the C API through ctypes).
set(FUEL_SANITIZERS "" CACHE STRING
  "Sanitizers for fuel's targets: a list of address and undefined (e.g. address;undefined), or thread")

if(FUEL_BUILD_FUZZERS AND NOT FUEL_SANITIZERS)
  set(FUEL_SANITIZERS address undefined)
endif()

# fuel_sanitizer_preload(<test>...)
# For tests whose host process is not instrumented but loads an instrumented
# library of fuel (Python through ctypes): preloads the shared ASan runtime
# into them, in a sanitized tree; nothing otherwise.
function(fuel_sanitizer_preload)
  if("address" IN_LIST FUEL_SANITIZERS)
    # First in the list: ASan insists on coming before every other library.
    # No leak detection in these processes: CPython does not free its own
    # memory at exit, and LeakSanitizer reports it with frames in python3
    # only. fuel's C API is leak-checked by its C and C++ tests.
    set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT_MODIFICATION
      "LD_PRELOAD=path_list_prepend:${FUEL_ASAN_RUNTIME}"
      "ASAN_OPTIONS=string_append::detect_leaks=0")
  endif()
endfunction()

if(NOT FUEL_SANITIZERS)
  return()
endif()

if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "FUEL_SANITIZERS needs clang")
endif()
foreach(sanitizer IN LISTS FUEL_SANITIZERS)
  if(NOT sanitizer MATCHES "^(address|undefined|thread)$")
    message(FATAL_ERROR "FUEL_SANITIZERS: unknown sanitizer `${sanitizer}` "
      "(expected a list of address and undefined, or thread)")
  endif()
endforeach()
if("thread" IN_LIST FUEL_SANITIZERS AND NOT FUEL_SANITIZERS STREQUAL "thread")
  message(FATAL_ERROR "FUEL_SANITIZERS: thread goes alone (ThreadSanitizer "
    "cannot be combined with address or undefined)")
endif()
list(JOIN FUEL_SANITIZERS "," FUEL_SANITIZE_LIST)
message(STATUS "fuel: instrumenting with -fsanitize=${FUEL_SANITIZE_LIST}")

# Every report is fatal (-fno-sanitize-recover=all): a UBSan finding stops the
# process with a non-zero status, so a test cannot pass over it. Frame
# pointers keep the fast unwinder's stacks whole.
add_compile_options(-fsanitize=${FUEL_SANITIZE_LIST} -fno-sanitize-recover=all
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=${FUEL_SANITIZE_LIST})

# The instrumented shared libraries leave the sanitizer runtime's symbols to
# the executable that loads them, so -z defs (HandleLLVMOptions adds it unless
# LLVM_USE_SANITIZER is set) cannot hold for them.
string(REPLACE "-Wl,-z,defs" "" CMAKE_SHARED_LINKER_FLAGS
  "${CMAKE_SHARED_LINKER_FLAGS}")
string(REPLACE "-Wl,-z,defs" "" CMAKE_MODULE_LINKER_FLAGS
  "${CMAKE_MODULE_LINKER_FLAGS}")

# The shared ASan runtime, for hosts that are not instrumented
# (fuel_sanitizer_preload).
execute_process(
  COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
  OUTPUT_VARIABLE FUEL_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)

