# LibTorch's CPU libraries from a torch wheel, without its CUDA side (docs/versions.md).
#
# PyPI's Linux wheels are CUDA builds: find_package(Torch) wants the CUDA toolkit the wheel was built
# with and links libtorch_cuda.so, which needs cuDNN, cuBLAS, NCCL and more (gigabytes of nvidia-*
# wheels). A CPU measurement needs none of that: libtorch_cpu.so and libc10.so hold every CPU
# operator, and they need only the CUDA runtime and CUPTI (kineto), which setup.sh installs from the
# wheel's own pins. This is how the releases other than the default are built.
#
# Defines the imported target layerbench::torch_cpu and sets TORCH_LIBRARIES to it, and
# LAYERBENCH_TORCH_OLD_ABI to whether the wheel uses the pre-C++11 string ABI. Included before any
# target is defined, so that such a wheel's ABI can be every target's.

set(LAYERBENCH_TORCH_DIR "" CACHE PATH "The torch package folder of the venv (site-packages/torch)")
if(NOT EXISTS "${LAYERBENCH_TORCH_DIR}/share/cmake/Torch/TorchConfig.cmake")
  message(FATAL_ERROR "LAYERBENCH_TORCH_DIR='${LAYERBENCH_TORCH_DIR}' holds no torch wheel "
                      "(no share/cmake/Torch/TorchConfig.cmake); run `TORCH_VERSION=X make setup`")
endif()

# The string ABI the wheel was built with: written into its TorchConfig.cmake, absent from newer ones
# (which always use the C++11 ABI). PyPI's wheels up to 2.6 use the old ABI; everything in the binary
# must then be compiled with it, Boost.Program_options and cpp-httplib included (cmake/old_abi_deps.cmake).
file(STRINGS "${LAYERBENCH_TORCH_DIR}/share/cmake/Torch/TorchConfig.cmake" torch_cxx_flags
     REGEX "set\\(TORCH_CXX_FLAGS")
file(STRINGS "${LAYERBENCH_TORCH_DIR}/version.py" torch_version REGEX "^__version__")
string(REGEX REPLACE "^__version__ *= *.([^'\"+]*).*" "\\1" torch_version "${torch_version}")
set(LAYERBENCH_TORCH_OLD_ABI OFF)
if(torch_cxx_flags MATCHES "_GLIBCXX_USE_CXX11_ABI=0")
  set(LAYERBENCH_TORCH_OLD_ABI ON)
endif()

# Newer releases ask for C++20 in their TorchConfig.cmake.
file(STRINGS "${LAYERBENCH_TORCH_DIR}/share/cmake/Torch/TorchConfig.cmake" torch_cxx20 REGEX "cxx_std_20")

find_library(LAYERBENCH_TORCH_CPU_LIBRARY torch_cpu PATHS "${LAYERBENCH_TORCH_DIR}/lib" NO_DEFAULT_PATH REQUIRED)
find_library(LAYERBENCH_C10_LIBRARY c10 PATHS "${LAYERBENCH_TORCH_DIR}/lib" NO_DEFAULT_PATH REQUIRED)
# The CUDA runtime and CUPTI that libtorch_cpu.so needs, from the nvidia wheels next to torch.
file(GLOB torch_runtime_dirs "${LAYERBENCH_TORCH_DIR}/../nvidia/*/lib" "${LAYERBENCH_TORCH_DIR}/../nvidia/cu*/lib*")

add_library(layerbench::torch_cpu INTERFACE IMPORTED)
set_target_properties(layerbench::torch_cpu PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${LAYERBENCH_TORCH_DIR}/include;${LAYERBENCH_TORCH_DIR}/include/torch/csrc/api/include"
  INTERFACE_LINK_LIBRARIES "${LAYERBENCH_TORCH_CPU_LIBRARY};${LAYERBENCH_C10_LIBRARY}"
  # What the wheel's own targets define for every source: c10d and its gloo backend are in libtorch_cpu
  # (bench/ddp/process_group.cpp needs them; NCCL is CUDA's, left out here).
  INTERFACE_COMPILE_DEFINITIONS "USE_DISTRIBUTED;USE_C10D_GLOO")
foreach(dir IN LISTS torch_runtime_dirs)
  target_link_options(layerbench::torch_cpu INTERFACE "LINKER:-rpath,${dir}" "LINKER:-rpath-link,${dir}")
endforeach()
if(torch_cxx20)
  target_compile_features(layerbench::torch_cpu INTERFACE cxx_std_20)
endif()
set(TORCH_LIBRARIES layerbench::torch_cpu)
message(STATUS "LibTorch (CPU libraries only) from ${LAYERBENCH_TORCH_DIR}")
