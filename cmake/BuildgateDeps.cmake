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
