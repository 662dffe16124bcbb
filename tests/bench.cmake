# The CUDA path of the engine. Skipped, with the reason printed, where there is no GPU.
if(LAYERBENCH_WITH_TORCH)
  add_test(NAME bench/cuda_run COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bench_cuda_check.sh $<TARGET_FILE:layerbench>)
  set_tests_properties(bench/cuda_run PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()

# The formulas' "with values" text evaluates to the figures beside it.
if(LAYERBENCH_WITH_TORCH)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  add_test(NAME bench/formula_values
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/bench_formula_values.py $<TARGET_FILE:layerbench>)
endif()

# LayerBench's forward dispatches the aten:: operators of the Python module (issue 9, docs/dispatch.md);
# the self-tests check the comparison and the parity benchmark's arithmetic without torch.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME bench/opset_selftest COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/bench_opset_check.py --self-test)
add_test(NAME bench/parity_selftest COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/bench_parity_check.py)
if(LAYERBENCH_WITH_TORCH AND LAYERBENCH_PYTHON)
  foreach(opset_device cpu cuda)
    add_test(NAME bench/opset_${opset_device}
             COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/bench_opset_check.py
                     --binary $<TARGET_FILE:layerbench> --device ${opset_device})
    set_tests_properties(bench/opset_${opset_device} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
    # The same for today's layers beyond the reference (catalog.hpp, todays_layers()).
    add_test(NAME bench/opset_${opset_device}_today
             COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/bench_opset_check.py
                     --binary $<TARGET_FILE:layerbench> --device ${opset_device} --suite today)
    set_tests_properties(bench/opset_${opset_device}_today PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()
endif()

# The whole models' matrix FLOPs, summed from their inventories, against FlopCounterMode (issue 25).
if(LAYERBENCH_WITH_TORCH AND LAYERBENCH_PYTHON)
  add_test(NAME bench/models_flops
           COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/models_flop_check.py $<TARGET_FILE:layerbench>)
  set_tests_properties(bench/models_flops PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT HF_HUB_OFFLINE=1)
  # A compiled cell of a whole model end to end: the torch.compile worker, and an AOTInductor package
  # exported into an empty cache.
  foreach(compiled torch_compile aot_inductor)
    add_test(NAME bench/models_${compiled}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/models_compiled_check.sh $<TARGET_FILE:layerbench> ${LAYERBENCH_PYTHON} ${compiled})
    set_tests_properties(bench/models_${compiled} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT HF_HUB_OFFLINE=1)
  endforeach()
endif()

# The whole models (engine/bench/models/) against torchvision's resnet50 and transformers' BERT: parameter
# counts, outputs with the Python weights loaded, the aten:: operators of one forward (docs/models.md).
# tests/python/test_models_reference.py drives bench_models_driver, one CTest test per TestCase; skipped
# with the reason where torchvision or transformers is not installed. No model hub is reached.
if(LAYERBENCH_WITH_TORCH)
  add_executable(bench_models_driver ${CMAKE_CURRENT_SOURCE_DIR}/bench_models_driver.cpp)
  target_link_libraries(bench_models_driver PRIVATE layerbench_bench)
endif()
foreach(models_case ParameterCounts ResNet50 Bert)
  if(LAYERBENCH_WITH_TORCH AND LAYERBENCH_PYTHON)
    add_test(NAME bench/models_${models_case}
             COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/python/test_models_reference.py
                     --driver $<TARGET_FILE:bench_models_driver> ${models_case})
    set_tests_properties(bench/models_${models_case} PROPERTIES ENVIRONMENT HF_HUB_OFFLINE=1)
  else()
    add_test(NAME bench/models_${models_case}
             COMMAND sh -c "echo 'SKIPPED: the models are checked against Python in a build with LibTorch and LAYERBENCH_PYTHON set'; exit 77")
  endif()
  set_tests_properties(bench/models_${models_case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

# bench/models/ (issue 25): the torch.compile worker writes a valid cell (ResNetTiny, batch 1, a training step on the
# CPU, a tiny budget), and the model cross-check's arithmetic on a hand-made dataset. Python only; no timing is
# asserted. Mostly Inductor's compilation: about 45 s with a cold cache and 20 s warm on a quiet 2-core VM, minutes
# when other builds share the cores (bench/models/README.md).
if(LAYERBENCH_PYTHON)
  add_test(NAME bench/models_python COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/models_python_check.py)
  set_tests_properties(bench/models_python PROPERTIES ENVIRONMENT HF_HUB_OFFLINE=1)
else()
  add_test(NAME bench/models_python
           COMMAND sh -c "echo 'SKIPPED: bench/models/ is checked with the Python of the venv (LAYERBENCH_PYTHON unset)'; exit 77")
endif()
set_tests_properties(bench/models_python PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# A stand-in for libnvidia-ml.so.1, so bench::Nvml's success path is tested without a driver.
if(TARGET test_bench)
  add_library(fake_nvml SHARED ${CMAKE_CURRENT_SOURCE_DIR}/fake_nvml.cpp)
  add_dependencies(test_bench fake_nvml)
  target_compile_definitions(test_bench PRIVATE LAYERBENCH_FAKE_NVML="$<TARGET_FILE:fake_nvml>")
endif()

# The CUDA method on a GPU (tests/gpu_bench_cuda.cpp): built with -DLAYERBENCH_DEVICE_TESTS=ON, as
# scripts/device-build.sh does; skipped with the reason where it is not built or there is no GPU.
if(LAYERBENCH_WITH_TORCH AND LAYERBENCH_DEVICE_TESTS)
  add_executable(test_gpu_bench ${CMAKE_CURRENT_SOURCE_DIR}/gpu_bench_cuda.cpp)
  target_link_libraries(test_gpu_bench PRIVATE layerbench_bench layerbench_doctest_main doctest::doctest)
  add_test(NAME device/cuda_method
           COMMAND sh -c "nvidia-smi -L >/dev/null 2>&1 || { echo 'SKIPPED: no NVIDIA GPU (nvidia-smi finds none)'; exit 77; }; exec \"$0\"" $<TARGET_FILE:test_gpu_bench>)
else()
  add_test(NAME device/cuda_method
           COMMAND sh -c "echo 'SKIPPED: the GPU tests are built with -DLAYERBENCH_DEVICE_TESTS=ON (scripts/device-build.sh does), on a machine with a GPU'; exit 77")
endif()
set_tests_properties(device/cuda_method PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# Data-parallel training (engine/bench/ddp/, docs/scale.md) through two real gloo processes on this
# machine: the averaged step equals one process at twice the batch, and a rank that dies makes the
# other stop with an error within the process group's timeout (10 s in the driver; CTest's TIMEOUT
# is the bound on the whole check).
if(LAYERBENCH_WITH_TORCH)
  add_executable(bench_ddp_driver ${CMAKE_CURRENT_SOURCE_DIR}/bench_ddp_driver.cpp)
  target_link_libraries(bench_ddp_driver PRIVATE layerbench_bench)
  add_test(NAME ddp/two_ranks_equal_weights
           COMMAND bench_ddp_driver equal-weights ${CMAKE_CURRENT_BINARY_DIR}/ddp-equal-weights)
  add_test(NAME ddp/two_ranks_dead_rank COMMAND bench_ddp_driver dead-rank)
  set_tests_properties(ddp/two_ranks_equal_weights ddp/two_ranks_dead_rank PROPERTIES TIMEOUT 120)
  # `layerbench run --world-size 2` end to end (tests/ddp_run_check.sh): the dataset rank 0 writes, and
  # a rank killed mid-run makes the run fail, within the process group's timeout, with nothing written.
  # A launcher killed (SIGKILL) takes its ranks with it (issue 36).
  foreach(ddp_run_case world-size-2 dead-rank launcher-killed)
    add_test(NAME ddp/run_${ddp_run_case}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ddp_run_check.sh $<TARGET_FILE:layerbench> ${Python3_EXECUTABLE} ${ddp_run_case})
  endforeach()
  set_tests_properties(ddp/run_world-size-2 ddp/run_dead-rank ddp/run_launcher-killed PROPERTIES TIMEOUT 240)
endif()
