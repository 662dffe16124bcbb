# The serve checks that run the built binary as a user would: the command line (banner, port in use,
# signals), the reload script's retries in Node, live reload end to end in headless Chromium, and a
# bounded wrk load test on loopback.
# Each prints "SKIPPED: <reason>" and exits 77 when its tool (node, chromium, chromedriver, selenium, wrk)
# is missing, so CTest reports a skip, never a silent pass.
set(serve_python "${LAYERBENCH_PYTHON}")
if(NOT serve_python)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  set(serve_python "${Python3_EXECUTABLE}")
endif()

add_test(NAME serve/cli
  COMMAND ${serve_python} ${CMAKE_CURRENT_SOURCE_DIR}/test_serve_cli.py $<TARGET_FILE:layerbench>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME serve/live_reload_in_chromium
  COMMAND ${serve_python} ${CMAKE_CURRENT_SOURCE_DIR}/test_serve_browser.py $<TARGET_FILE:layerbench>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME serve/reload_script_retries_in_node
  COMMAND ${serve_python} ${CMAKE_CURRENT_SOURCE_DIR}/test_serve_reload_script.py $<TARGET_FILE:layerbench>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# 10 seconds keeps `make test` short; bench/serve/wrk_compare.py runs 30.
add_test(NAME serve/load_wrk_64_connections
  COMMAND ${serve_python} ${CMAKE_CURRENT_SOURCE_DIR}/test_serve_load.py $<TARGET_FILE:layerbench> 10
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(serve/cli serve/reload_script_retries_in_node serve/live_reload_in_chromium
  serve/load_wrk_64_connections PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
# The browser and the load generator want the machine's cores to themselves.
set_tests_properties(serve/live_reload_in_chromium serve/load_wrk_64_connections PROPERTIES RUN_SERIAL TRUE)
