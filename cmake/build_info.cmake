# Run at every build (not only at configure time) so that the commit recorded in a dataset's
# provenance is the one the binary was built from. Rewrites the header only when it changes.
execute_process(COMMAND git rev-parse HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE LAYERBENCH_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT LAYERBENCH_GIT_COMMIT)
  set(LAYERBENCH_GIT_COMMIT unknown)
elseif(dirty)
  set(LAYERBENCH_GIT_COMMIT "${LAYERBENCH_GIT_COMMIT}-dirty")
endif()
configure_file(${SOURCE_DIR}/engine/util/build_info.hpp.in ${OUTPUT}.tmp @ONLY)
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT})
