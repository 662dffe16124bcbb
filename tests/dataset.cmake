# Dataset checks beyond the doctest binary: the JSON Schemas against the C++ reader, every file in
# data/, what the engine writes, and the citation files. See tests/dataset/*.py.
#
# The schema checks need Python jsonschema >= 4 (draft 2020-12). The venv cannot hold it: cffconvert
# 2.0.0, needed for the CFF check, pins jsonschema < 4. So they run on Debian's python3 with the
# python3-jsonschema package (scripts/packages.txt), and cffconvert runs from the venv.
find_program(LAYERBENCH_SYSTEM_PYTHON python3 HINTS /usr/bin)
set(dataset_checks ${CMAKE_SOURCE_DIR}/tests/dataset)

if(LAYERBENCH_SYSTEM_PYTHON)
  add_test(NAME dataset/schema_data
    COMMAND ${LAYERBENCH_SYSTEM_PYTHON} ${dataset_checks}/check_schema.py files $<TARGET_FILE:layerbench> ${CMAKE_SOURCE_DIR}/data)
  add_test(NAME dataset/schema_rejects_what_reader_rejects
    COMMAND ${LAYERBENCH_SYSTEM_PYTHON} ${dataset_checks}/check_schema.py cases $<TARGET_FILE:layerbench>
            ${CMAKE_SOURCE_DIR}/tests/fuzz-seeds/measured-small.json)
  add_test(NAME dataset/inconsistencies_schema_rejects_what_reader_rejects
    COMMAND ${LAYERBENCH_SYSTEM_PYTHON} ${dataset_checks}/check_schema.py inconsistency-cases $<TARGET_FILE:layerbench>
            ${CMAKE_SOURCE_DIR}/data/reference/a100-80gb-reference-inconsistencies.json)
  add_test(NAME dataset/catalog_schema_rejects_what_reader_rejects
    COMMAND ${LAYERBENCH_SYSTEM_PYTHON} ${dataset_checks}/check_schema.py catalog-cases $<TARGET_FILE:layerbench>
            ${CMAKE_SOURCE_DIR}/data/catalog.json)
  set(engine_run "")
  if(LAYERBENCH_WITH_TORCH)
    set(engine_run run)
  endif()
  add_test(NAME dataset/schema_engine_output
    COMMAND ${LAYERBENCH_SYSTEM_PYTHON} ${dataset_checks}/check_schema.py engine $<TARGET_FILE:layerbench>
            ${CMAKE_SOURCE_DIR}/tests/fuzz-seeds/measured-small.json ${engine_run})
  set_tests_properties(dataset/schema_data dataset/schema_rejects_what_reader_rejects dataset/schema_engine_output
    dataset/inconsistencies_schema_rejects_what_reader_rejects dataset/catalog_schema_rejects_what_reader_rejects
    PROPERTIES SKIP_RETURN_CODE 77 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} TIMEOUT 300)
else()
  add_test(NAME dataset/schema_checks COMMAND sh -c "echo 'SKIPPED: no python3 for the JSON Schema checks'; exit 77")
  set_tests_properties(dataset/schema_checks PROPERTIES SKIP_RETURN_CODE 77)
endif()

# The reference's inconsistencies are generated from `layerbench layers`, which needs the torch build.
if(LAYERBENCH_WITH_TORCH AND LAYERBENCH_SYSTEM_PYTHON)
  add_test(NAME dataset/reference_inconsistencies_current
    COMMAND ${LAYERBENCH_SYSTEM_PYTHON} ${CMAKE_SOURCE_DIR}/data/reference/find_inconsistencies.py --check
            $<TARGET_FILE:layerbench> ${CMAKE_SOURCE_DIR}/data a100-80gb-reference@1
            ${CMAKE_SOURCE_DIR}/data/reference/a100-80gb-reference-inconsistencies.json)
else()
  add_test(NAME dataset/reference_inconsistencies_current
    COMMAND sh -c "echo 'SKIPPED: needs the torch build (layerbench layers) and python3'; exit 77")
endif()
set_tests_properties(dataset/reference_inconsistencies_current PROPERTIES SKIP_RETURN_CODE 77 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

if(LAYERBENCH_PYTHON)
  add_test(NAME dataset/citation_cff
    COMMAND ${LAYERBENCH_PYTHON} ${dataset_checks}/check_citation.py $<TARGET_FILE:layerbench>)
  # What validate lets through exports a CFF that cffconvert accepts (issue 36).
  add_test(NAME dataset/citation_cff_door
    COMMAND ${LAYERBENCH_PYTHON} ${dataset_checks}/check_citation.py $<TARGET_FILE:layerbench>
            --door ${CMAKE_SOURCE_DIR}/tests/fuzz-seeds/measured-small.json)
  set_tests_properties(dataset/citation_cff dataset/citation_cff_door
    PROPERTIES SKIP_RETURN_CODE 77 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endif()
