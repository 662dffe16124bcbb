# The copies of the catalog kept outside engine/bench and engine/dataset (the Python twins, the JSON Schema's
# enums, value lists typed again in C++) against `layerbench layers --format json`, `--models` and `--axes`:
# a value added in one place and missing in another fails here. Needs the binary with LibTorch and the
# venv's torch, torchvision and transformers (the models are built on the meta device: no memory, no hub).
if(LAYERBENCH_WITH_TORCH AND LAYERBENCH_PYTHON)
  add_test(NAME catalog/copies
           COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/catalog_copies_check.py $<TARGET_FILE:layerbench>)
  set_tests_properties(catalog/copies PROPERTIES ENVIRONMENT HF_HUB_OFFLINE=1)
else()
  add_test(NAME catalog/copies
           COMMAND sh -c "echo 'SKIPPED: the copies are checked against a build with LibTorch and LAYERBENCH_PYTHON set'; exit 77")
endif()
set_tests_properties(catalog/copies PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# The catalog is torch-free and below bench; the dataset, site and serve layers reach it without bench
# (STYLE.md, "The shape of LayerBench"). A `#include "bench/..."` in any of them fails here, naming it.
add_test(NAME catalog/no_bench_includes
         COMMAND sh -c "! grep -rn '#include \"bench/' engine/catalog engine/dataset engine/site engine/serve"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
