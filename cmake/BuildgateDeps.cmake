# Dependency discovery shared by all suites.
#   bg::cjson  — cJSON (Debian libcjson-dev, Homebrew cjson); required.
# Suites find their own optional dependencies (RandomX, Capstone, Google Benchmark).

find_path(BG_CJSON_INCLUDE_DIR cjson/cJSON.h)
find_library(BG_CJSON_LIBRARY NAMES cjson)
if(NOT BG_CJSON_INCLUDE_DIR OR NOT BG_CJSON_LIBRARY)
  message(FATAL_ERROR "buildgate: cJSON not found: install libcjson-dev (Debian/Ubuntu) "
                      "or cjson (Homebrew), or run ci/provision")
endif()
add_library(bg::cjson UNKNOWN IMPORTED)
set_target_properties(bg::cjson PROPERTIES
  IMPORTED_LOCATION "${BG_CJSON_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${BG_CJSON_INCLUDE_DIR}")

#   bg::yaml   — libyaml (Debian libyaml-dev, Homebrew libyaml); optional: without
#                it bg-workflow-lint (ci/lint) is not built.
find_path(BG_YAML_INCLUDE_DIR yaml.h)
find_library(BG_YAML_LIBRARY NAMES yaml)
if(BG_YAML_INCLUDE_DIR AND BG_YAML_LIBRARY)
  add_library(bg::yaml UNKNOWN IMPORTED)
  set_target_properties(bg::yaml PROPERTIES
    IMPORTED_LOCATION "${BG_YAML_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${BG_YAML_INCLUDE_DIR}")
endif()
