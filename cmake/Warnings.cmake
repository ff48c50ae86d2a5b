# pf_set_warnings(<target>): warnings on for our own code only.
function(pf_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                         -Wnon-virtual-dtor -Wno-missing-field-initializers)
endfunction()
