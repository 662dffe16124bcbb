# The GPU-side scripts (bench/gpu/, scripts/device-build.sh) and the FLOP cross-check of issue 2, all
# tested here on the CPU. Each reports SKIPPED (exit 77) with its reason where it cannot run.

set(device_skip_no_python sh -c "echo 'SKIPPED: LAYERBENCH_PYTHON is not set'; exit 77")

function(layerbench_device_test name)
  if(LAYERBENCH_PYTHON)
    add_test(NAME device/${name} COMMAND ${ARGN} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  else()
    add_test(NAME device/${name} COMMAND ${device_skip_no_python})
  endif()
  set_tests_properties(device/${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

# FlopCounterMode against the hand-computed values, and against `layerbench layers --format json`.
layerbench_device_test(flop_counter_hand ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/flop_counter_check.py --against hand)
layerbench_device_test(flop_counter_layers ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/flop_counter_check.py
                       --against layers --binary $<TARGET_FILE:layerbench>)
# The same at shapes from the user: two or more per layer, from `layerbench layers --layers`.
layerbench_device_test(flop_counter_shapes ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/shapes_flop_check.py
                       --binary $<TARGET_FILE:layerbench>)

# bench/gpu/*.py on the CPU with tiny settings and hand-made inputs; one CTest test per TestCase.
foreach(test_case ValidationReportCells ValidationReportFlops ValidationReportPeaks ValidationReportErrors
                  LayersCatalog PythonTimer FlopCounter ValidationReportRounds ModelsFit)
  layerbench_device_test(gpu_scripts_${test_case}
                         ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/python/test_gpu_scripts.py ${test_case})
endforeach()

# scripts/device-build.sh against a fresh prefix of unpacked .deb files; slow (a configure with torch).
layerbench_device_test(build_script bash ${CMAKE_SOURCE_DIR}/tests/device_build_check.sh
                       ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/device-build-check ${LAYERBENCH_PYTHON}
                       $<TARGET_FILE:layerbench>)
set_tests_properties(device/build_script PROPERTIES LABELS slow TIMEOUT 900)

# bench/gpu/run-all.sh end to end on the CPU, on a tiny matrix (skipped where layerbench has no LibTorch).
layerbench_device_test(run_all_cpu bash ${CMAKE_SOURCE_DIR}/tests/run_all_check.sh ${CMAKE_SOURCE_DIR}
                       ${CMAKE_BINARY_DIR}/run-all-check ${LAYERBENCH_PYTHON} $<TARGET_FILE:layerbench>)
set_tests_properties(device/run_all_cpu PROPERTIES TIMEOUT 900)

# The 15-minute GPU lease (bench/gpu/run-all.sh lease) rehearsed on the CPU: its plan fits and a longer one is
# refused; a non-Hopper GPU and a missing prebuilt binary are refused; the whole plan on a tiny matrix; a call killed
# at its limit, finished by a shorter second call from the archive that came back.
layerbench_device_test(lease_plan bash ${CMAKE_SOURCE_DIR}/tests/lease_check.sh plan ${CMAKE_SOURCE_DIR}
                       ${CMAKE_BINARY_DIR}/lease-plan ${LAYERBENCH_PYTHON} $<TARGET_FILE:layerbench>)
foreach(mode rehearsal resume)
  layerbench_device_test(lease_${mode} bash ${CMAKE_SOURCE_DIR}/tests/lease_check.sh ${mode} ${CMAKE_SOURCE_DIR}
                         ${CMAKE_BINARY_DIR}/lease-${mode} ${LAYERBENCH_PYTHON} $<TARGET_FILE:layerbench>)
  set_tests_properties(device/lease_${mode} PROPERTIES TIMEOUT 300)
endforeach()
