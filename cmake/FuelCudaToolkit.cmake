# The CUDA toolkit, when one is installed (compiler configuration only):
#   FUEL_PTXAS            ptxas, for the lit tests that assemble the PTX
#                         fuel makes (lit feature `ptxas`);
#   FUEL_CUDA_TOOLKIT_DIR the toolkit whose nvvm/libdevice/libdevice.10.bc
#                         fuel-compile links by default for math functions
#                         without an approximation (defaultCudaToolkit()).
# Both are found here, at configure time, and only here: the compiler never
# looks for a toolkit through environment variables. Either may be set on
# the command line; FUEL_CUDA_TOOLKIT_DIR="" builds a compiler that links no
# libdevice unless --cuda-toolkit is given.
find_program(FUEL_PTXAS ptxas
  HINTS /usr/local/cuda/bin
  DOC "ptxas of the CUDA toolkit, for the tests that assemble PTX")
if(FUEL_PTXAS AND NOT DEFINED FUEL_CUDA_TOOLKIT_DIR)
  get_filename_component(_fuel_cuda_bin "${FUEL_PTXAS}" DIRECTORY)
  get_filename_component(_fuel_cuda_root "${_fuel_cuda_bin}" DIRECTORY)
  if(EXISTS "${_fuel_cuda_root}/nvvm/libdevice/libdevice.10.bc")
    set(_fuel_cuda_default "${_fuel_cuda_root}")
  endif()
endif()
set(FUEL_CUDA_TOOLKIT_DIR "${_fuel_cuda_default}" CACHE PATH
  "CUDA toolkit whose libdevice fuel-compile links by default (empty: none)")
if(FUEL_PTXAS)
  message(STATUS "fuel: ptxas: ${FUEL_PTXAS}; default CUDA toolkit: "
                 "'${FUEL_CUDA_TOOLKIT_DIR}'")
else()
  message(STATUS "fuel: no ptxas (CUDA toolkit): the PTX assembly tests "
                 "will skip")
endif()
