# bg_target_warnings(<target>): -Wall -Wextra (and -Werror with BG_WERROR).
function(bg_target_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra $<$<BOOL:${BG_WERROR}>:-Werror>)
  endif()
endfunction()
