# The link graph of fuel's own targets, as CMake has it, written at
# configure time for the fuel-layering ctest (scripts/check-layering.py).
#
# fuel_write_link_graph(<file>)
# Writes one line per library and executable defined under the source tree:
#   <target> <TYPE> links=<a;b;...> mlir=<c;d;...>
# `links` is the target's LINK_LIBRARIES; `mlir` is that of its object
# library obj.<target> where there is one: mlir_target_link_libraries names
# the MLIR components there, while the target itself links only the one
# shared libMLIR.so (MLIR_LINK_MLIR_DYLIB, as Debian builds it). Generator
# expressions are kept as written; the checker reads the names inside
# $<LINK_ONLY:...>. Call it once every directory is read.

function(_fuel_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _fuel_collect_targets(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(fuel_write_link_graph file)
  _fuel_collect_targets(${FUEL_SOURCE_DIR} targets)
  list(SORT targets)
  set(text "")
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|INTERFACE_LIBRARY|EXECUTABLE)$")
      continue()
    endif()
    if(type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(links ${t} INTERFACE_LINK_LIBRARIES)
    else()
      get_target_property(links ${t} LINK_LIBRARIES)
    endif()
    if(NOT links)
      set(links "")
    endif()
    set(mlir "")
    if(TARGET obj.${t})
      get_target_property(mlir obj.${t} LINK_LIBRARIES)
      if(NOT mlir)
        set(mlir "")
      endif()
    endif()
    string(APPEND text "${t} ${type} links=${links} mlir=${mlir}\n")
  endforeach()
  file(WRITE ${file} "${text}")
endfunction()
