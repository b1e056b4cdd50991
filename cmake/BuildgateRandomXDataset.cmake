# BuildgateRandomXDataset — the host's cache of RandomX full-memory datasets
# (docs/digest_agreement.md "Dataset cache"; the entries themselves:
# suites/digest_agreement/check/dataset_cache.h).
#
#   BG_RANDOMX_DATASET_CACHE  the cache directory (default: the environment
#       variable BG_RANDOMX_DATASET_CACHE, else <repo>/build/cache/randomx-datasets),
#       shared by every build tree of this host, as BG_RANDOMX_BUILD_CACHE is for
#       the RandomX builds.
#
# bg_randomx_dataset_id(<out_var>): the id that keys this build's entries
#   (with the algorithm and the key, which the tool adds): "rx-" and the first
#   24 hex digits of the SHA-256 of
#       buildgate-randomx-dataset-id 1
#       version <RandomX_VERSION>
#       library <identity>
#   where <identity> is "build-cache <key>" for a library from the RandomX build
#   cache (its entry's stamp, cmake/BuildgateRandomXKey.cmake), else "sha256:<hex>"
#   of the library file itself (the system's librandomx, symlinks resolved).
#   The id text also goes to <out_var>_TEXT.
set(_bg_rx_ds_cache "${PROJECT_SOURCE_DIR}/build/cache/randomx-datasets")
if(NOT "$ENV{BG_RANDOMX_DATASET_CACHE}" STREQUAL "")
  set(_bg_rx_ds_cache "$ENV{BG_RANDOMX_DATASET_CACHE}")
endif()
set(BG_RANDOMX_DATASET_CACHE "${_bg_rx_ds_cache}" CACHE PATH
    "Host cache of RandomX full-memory datasets, shared by build trees (docs/digest_agreement.md)")

function(bg_randomx_dataset_id out)
  get_filename_component(lib "${RandomX_LIBRARY}" REALPATH)
  get_filename_component(dir "${lib}" DIRECTORY)
  set(ident "")
  if(EXISTS "${dir}/../stamp")
    file(STRINGS "${dir}/../stamp" k REGEX "^key [0-9a-f]+$")
    if(k)
      string(REPLACE "key " "build-cache " ident "${k}")
    endif()
  endif()
  if(NOT ident)
    file(SHA256 "${lib}" h)
    set(ident "sha256:${h}")
  endif()
  set(t "buildgate-randomx-dataset-id 1\nversion ${RandomX_VERSION}\nlibrary ${ident}\n")
  string(SHA256 id "${t}")
  string(SUBSTRING "${id}" 0 24 id)
  set(${out} "rx-${id}" PARENT_SCOPE)
  set(${out}_TEXT "${t}" PARENT_SCOPE)
endfunction()
