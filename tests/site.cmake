# Quality checks of the site (tests/site_check.py): each renders the fixtures into the build folder
# and checks them; the committed site/ is checked against a fresh render of data/.
if(NOT LAYERBENCH_PYTHON)
  return()
endif()
set(site_fixture_out ${CMAKE_BINARY_DIR}/site-fixture)
add_test(NAME site/render_fixtures
  COMMAND layerbench render --data ${CMAKE_SOURCE_DIR}/tests/fixtures/site/data
          --templates ${CMAKE_SOURCE_DIR}/templates --out ${site_fixture_out}
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(site/render_fixtures PROPERTIES FIXTURES_SETUP site_fixture)
foreach(check links html table axe phone private layout words)
  add_test(NAME site/${check} COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/site_check.py ${check} ${site_fixture_out}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(site/${check} PROPERTIES FIXTURES_REQUIRED site_fixture SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
foreach(check links html axe phone private layout words)
  add_test(NAME site/committed_${check} COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/site_check.py ${check} ${CMAKE_SOURCE_DIR}/site
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(site/committed_${check} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
add_test(NAME site/committed_is_current
  COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/site_check.py committed ${CMAKE_SOURCE_DIR}/site $<TARGET_FILE:layerbench>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(site/committed_is_current PROPERTIES SKIP_RETURN_CODE 77)

# The command line: errors are reported as "layerbench: error: ..." naming what is wrong.
add_test(NAME site/render_cli_no_datasets
  COMMAND layerbench render --data ${CMAKE_BINARY_DIR}/no-such-data --out ${CMAKE_BINARY_DIR}/no-such-site
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(site/render_cli_no_datasets PROPERTIES
  PASS_REGULAR_EXPRESSION "layerbench: error: .*no-such-data: no datasets")
add_test(NAME site/render_cli_unknown_option COMMAND layerbench render --bogus WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(site/render_cli_unknown_option PROPERTIES
  PASS_REGULAR_EXPRESSION "layerbench: error: render: unrecognised option '--bogus'")
add_test(NAME site/render_cli_bad_base_url COMMAND layerbench render --base-url ftp://example.org --out ${CMAKE_BINARY_DIR}/no-such-site
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(site/render_cli_bad_base_url PROPERTIES
  PASS_REGULAR_EXPRESSION "layerbench: error: render: --base-url \"ftp://example.org\": give the address")

# The 404 page of a site rendered for an address under a subpath links from that path, so it works
# when served for a missing address at any depth there (the committed site/, rendered without
# --base-url, links relatively and is crawled from file:// and from a subpath by site/committed_links).
set(site_fixture_base_out ${CMAKE_BINARY_DIR}/site-fixture-base)
add_test(NAME site/render_fixtures_base_url
  COMMAND layerbench render --data ${CMAKE_SOURCE_DIR}/tests/fixtures/site/data --templates ${CMAKE_SOURCE_DIR}/templates
          --out ${site_fixture_base_out} --base-url https://example.org/some/sub/path/
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(site/render_fixtures_base_url PROPERTIES FIXTURES_SETUP site_fixture_base)
add_test(NAME site/links_base_url
  COMMAND ${LAYERBENCH_PYTHON} ${CMAKE_SOURCE_DIR}/tests/site_check.py links ${site_fixture_base_out} /some/sub/path/
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(site/links_base_url PROPERTIES FIXTURES_REQUIRED site_fixture_base SKIP_RETURN_CODE 77 TIMEOUT 600)
