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
  endforeach()
endif()
