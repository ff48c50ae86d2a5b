# pf_set_warnings(<target>): warnings on for our own code only.
function(pf_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                         -Wnon-virtual-dtor -Wno-missing-field-initializers)
  # GCC 12's -Wrestrict misfires inside libstdc++'s std::string concatenation
  # at -O2/-O3 (GCC bug 105329): Release builds warned in a dozen files whose
  # only "overlap" is `"literal" + std::string`.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 14)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
