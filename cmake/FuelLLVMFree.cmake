# Helpers for the LLVM-free parts of fuel: fuel/Support, the probe and, next,
# the runtime. They build with FUEL_BUILD_COMPILER ON or OFF and must not see
# LLVM or MLIR in either configuration.

# fuel_llvm_free_target(<target>)
# Drops the LLVM and MLIR include and link directories the compiler
# configuration adds to every target of the tree, so that an LLVM header
# included from the target fails to compile instead of creeping in; gives the
# target the project's include directory; puts it under `fuel-llvm-free`.
# Call it right after add_library/add_executable, before the target's own
# target_include_directories.
function(fuel_llvm_free_target target)
  set_target_properties(${target} PROPERTIES
    INCLUDE_DIRECTORIES ""
    LINK_DIRECTORIES "")
  target_include_directories(${target} PRIVATE ${FUEL_SOURCE_DIR}/include)
  add_dependencies(fuel-llvm-free ${target})
endfunction()
