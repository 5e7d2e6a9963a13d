# Install rules and the CMake package of fuel (docs/EMBEDDING.md, "The
# package and its targets"). Included from the top-level CMakeLists.txt once
# every target exists.
#
#   cmake --install <build> --prefix <prefix>
#
# lays out, relative to <prefix> (nothing installed names the build or source
# tree, so the prefix may be moved afterwards):
#
#   bin/                fuel-run, fuel-probe; fuel-opt, fuel-compile,
#                       fuel-topology, fuel-judge, fuel-profile-db,
#                       fuel-import-onnx (compiler configuration)
#   lib/                libfuelrt.so and the shims beside it (the runtime
#                       finds them there, wherever lib/ is); fuel's static
#                       libraries and libFuelCAPI.so (compiler)
#   include/            fuel-c/ (the C APIs); fuel/ with the TableGen'd
#                       headers and the dialect's .td files (compiler)
#   share/fuel/kernels/ the kernel registry and schedules (compiler)
#   lib/cmake/fuel/     FuelConfig.cmake, FuelConfigVersion.cmake and the
#                       exported targets
#
# Two export sets, so that the Runtime component never needs MLIR:
# FuelRuntimeTargets (Fuel::Runtime) and FuelCompilerTargets (every other
# target). fuel's MLIR libraries are made with DISABLE_INSTALL: upstream's
# add_mlir_library would otherwise install them, and their object files,
# into MLIR's own export set (MLIRTargets), which fuel never exports.

include(CMakePackageConfigHelpers)

set(FUEL_INSTALL_CMAKE_DIR lib/cmake/fuel)
set(FUEL_INSTALL_DATA_DIR share/fuel)

# The runtime: libfuelrt.so (usable alone, C API in fuel-c/Runtime.h) and the
# library-kernel shims beside it.
set_target_properties(fuelrt PROPERTIES EXPORT_NAME Runtime)
target_include_directories(fuelrt INTERFACE $<INSTALL_INTERFACE:include>)
add_library(Fuel::Runtime ALIAS fuelrt)
install(TARGETS fuelrt EXPORT FuelRuntimeTargets
  LIBRARY DESTINATION lib
  COMPONENT Runtime)
install(TARGETS fuel-shim-openblas fuel-shim-blis
  LIBRARY DESTINATION lib
  COMPONENT Runtime)
install(EXPORT FuelRuntimeTargets
  NAMESPACE Fuel::
  DESTINATION ${FUEL_INSTALL_CMAKE_DIR}
  COMPONENT Runtime)

# The C headers. fuel-c/Compiler.h belongs to libFuelCAPI.so, a compiler
# library (below).
install(DIRECTORY ${FUEL_SOURCE_DIR}/include/fuel-c
  DESTINATION include
  COMPONENT Runtime
  FILES_MATCHING PATTERN "*.h" PATTERN Compiler.h EXCLUDE)

# Tools: the LLVM-free ones find libfuelrt.so in ../lib; the compiler's also
# need libMLIR.so and libLLVM.so from LLVM's library directory.
install(TARGETS fuel-run fuel-probe
  RUNTIME DESTINATION bin
  COMPONENT Runtime)
set_target_properties(fuel-run PROPERTIES INSTALL_RPATH "\$ORIGIN/../lib")

if(FUEL_BUILD_COMPILER)
  # Fuel::Passes: the passes of every phase together (planning, code
  # generation, the conversions, lowering).
  add_library(FuelPasses INTERFACE)
  target_link_libraries(FuelPasses INTERFACE MLIRFuelPlanning MLIRFuelCodegen
    MLIRFuelToSPIRV MLIRFuelToNVVM MLIRFuelToLLVM MLIRFuelLowering)

  # <target> <export name>, lowest layer first.
  set(FUEL_EXPORTED_COMPILER_TARGETS
    FuelSupport Support
    FuelRtDrivers RtDrivers
    FuelProbe Probe
    FuelPlanner Planner
    FuelJudge Judge
    FuelTarget Target
    FuelRtPtx RtPtx
    FuelRtExecutable RtExecutable
    MLIRFuelDialect Dialect
    MLIRFuelCpuTarget CpuTarget
    MLIRFuelPlanning Planning
    MLIRFuelCodegenCPU CodegenCPU
    MLIRFuelCodegenGPU CodegenGPU
    MLIRFuelCodegen Codegen
    MLIRFuelToSPIRV ToSPIRV
    MLIRFuelToNVVM ToNVVM
    MLIRFuelToLLVM ToLLVM
    MLIRFuelLowering Lowering
    FuelPasses Passes
    FuelCompiler Compiler
    FuelCAPI CAPI)
  set(FUEL_COMPILER_INSTALL_TARGETS)
  set(FUEL_PACKAGE_COMPILER_COMPONENTS)
  while(FUEL_EXPORTED_COMPILER_TARGETS)
    list(POP_FRONT FUEL_EXPORTED_COMPILER_TARGETS target name)
    if(NOT TARGET ${target})
      continue()
    endif()
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
    if(NOT TARGET Fuel::${name})
      add_library(Fuel::${name} ALIAS ${target})
    endif()
    list(APPEND FUEL_COMPILER_INSTALL_TARGETS ${target})
    if(name MATCHES "^(Dialect|Passes|Compiler|CAPI)$")
      list(APPEND FUEL_PACKAGE_COMPILER_COMPONENTS ${name})
    endif()
  endwhile()

  install(TARGETS ${FUEL_COMPILER_INSTALL_TARGETS} EXPORT FuelCompilerTargets
    ARCHIVE DESTINATION lib
    LIBRARY DESTINATION lib
    RUNTIME DESTINATION bin
    COMPONENT Compiler
    INCLUDES DESTINATION include)
  install(EXPORT FuelCompilerTargets
    NAMESPACE Fuel::
    DESTINATION ${FUEL_INSTALL_CMAKE_DIR}
    COMPONENT Compiler)
  if(TARGET FuelCAPI)
    install(FILES ${FUEL_SOURCE_DIR}/include/fuel-c/Compiler.h
      DESTINATION include/fuel-c
      COMPONENT Compiler)
    get_target_property(rpath FuelCAPI INSTALL_RPATH)
    if(NOT rpath)
      set_target_properties(FuelCAPI PROPERTIES
        INSTALL_RPATH "\$ORIGIN;${LLVM_LIBRARY_DIR}")
    endif()
  endif()

  # fuel-judge builds its jobs into itself and fuel-import-onnx links its
  # libraries (FuelImportOnnx, FuelOnnxGeometry) statically; those are not
  # exported, so FuelConfig.cmake never looks for ONNX or protobuf.
  set(FUEL_INSTALLED_COMPILER_TOOLS fuel-opt fuel-compile fuel-topology
    fuel-judge fuel-profile-db fuel-import-onnx)
  install(TARGETS ${FUEL_INSTALLED_COMPILER_TOOLS}
    RUNTIME DESTINATION bin
    COMPONENT Compiler)
  set_target_properties(${FUEL_INSTALLED_COMPILER_TOOLS} PROPERTIES
    INSTALL_RPATH "\$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")

  # Headers: the sources (the .td files too, for dialects built on fuel's)
  # and the TableGen'd ones. The planner's test support is not installed.
  install(DIRECTORY ${FUEL_SOURCE_DIR}/include/fuel
    DESTINATION include
    COMPONENT Compiler
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def"
    PATTERN "Testing" EXCLUDE)
  install(DIRECTORY ${FUEL_BINARY_DIR}/include/fuel
    DESTINATION include
    COMPONENT Compiler
    FILES_MATCHING PATTERN "*.inc"
    PATTERN "CMakeFiles" EXCLUDE)

  # The kernel registry and schedules: built into the compiler already; here
  # for reading, and for fuel-apply-schedules' schedules-dir option.
  install(FILES ${FUEL_SOURCE_DIR}/kernels/registry.json
    DESTINATION ${FUEL_INSTALL_DATA_DIR}/kernels
    COMPONENT Compiler)
  install(DIRECTORY ${FUEL_SOURCE_DIR}/kernels/schedules
    DESTINATION ${FUEL_INSTALL_DATA_DIR}/kernels
    COMPONENT Compiler
    FILES_MATCHING PATTERN "*.mlir")

  # What FuelConfig.cmake needs to find MLIR the way this build did: its
  # version and directory (a hint; CMAKE_PREFIX_PATH or MLIR_DIR win).
  set(FUEL_PACKAGE_MLIR_VERSION "${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
  set(FUEL_PACKAGE_MLIR_DIR_HINT "${MLIR_DIR}")
  install(FILES ${FUEL_SOURCE_DIR}/cmake/FuelLinkDeps.cmake
    DESTINATION ${FUEL_INSTALL_CMAKE_DIR}
    COMPONENT Compiler)
else()
  set(FUEL_PACKAGE_COMPILER_COMPONENTS)
  set(FUEL_PACKAGE_MLIR_VERSION)
  set(FUEL_PACKAGE_MLIR_DIR_HINT)
endif()

# Everything the rules above install, for the targets that run the install
# tests (check-fuel) to build first.
add_custom_target(fuel-installed-targets)
add_dependencies(fuel-installed-targets fuelrt fuel-shim-openblas
  fuel-shim-blis fuel-run fuel-probe)
if(FUEL_BUILD_COMPILER)
  add_dependencies(fuel-installed-targets ${FUEL_COMPILER_INSTALL_TARGETS}
    ${FUEL_INSTALLED_COMPILER_TOOLS})
endif()

set(FUEL_PACKAGE_BUILT_COMPILER ${FUEL_BUILD_COMPILER})
configure_package_config_file(
  ${FUEL_SOURCE_DIR}/cmake/FuelConfig.cmake.in
  ${FUEL_BINARY_DIR}/${FUEL_INSTALL_CMAKE_DIR}/FuelConfig.cmake
  INSTALL_DESTINATION ${FUEL_INSTALL_CMAKE_DIR})
# 0.x: a new minor version may break the API, so only the same minor version
# is compatible (docs/EMBEDDING.md, "What is stable").
write_basic_package_version_file(
  ${FUEL_BINARY_DIR}/${FUEL_INSTALL_CMAKE_DIR}/FuelConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${FUEL_BINARY_DIR}/${FUEL_INSTALL_CMAKE_DIR}/FuelConfig.cmake
  ${FUEL_BINARY_DIR}/${FUEL_INSTALL_CMAKE_DIR}/FuelConfigVersion.cmake
  DESTINATION ${FUEL_INSTALL_CMAKE_DIR}
  COMPONENT Runtime)
