# Run at every build (not only at configure time) so that the commit recorded in a dataset's
# provenance is the one the binary was built from. Rewrites the header only when it changes.
execute_process(COMMAND git rev-parse HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE LAYERBENCH_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT LAYERBENCH_GIT_COMMIT AND "$ENV{LAYERBENCH_SOURCE_COMMIT}" MATCHES "^[0-9a-f]+(-dirty)?$")
  # A tree that travelled without .git (the GPU machine's copy): the commit written where it came from.
  set(LAYERBENCH_GIT_COMMIT "$ENV{LAYERBENCH_SOURCE_COMMIT}")
elseif(NOT LAYERBENCH_GIT_COMMIT)
  set(LAYERBENCH_GIT_COMMIT unknown)
elseif(dirty)
  set(LAYERBENCH_GIT_COMMIT "${LAYERBENCH_GIT_COMMIT}-dirty")
endif()
configure_file(${SOURCE_DIR}/engine/util/build_info.hpp.in ${OUTPUT}.tmp @ONLY)
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT})
