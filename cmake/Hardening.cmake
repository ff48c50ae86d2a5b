# pf_harden(<target>): hardening for binaries that handle untrusted input
# (the worker above all): stack protector, fortify, full RELRO.
function(pf_harden target)
  target_compile_options(${target} PRIVATE -fstack-protector-strong
                         $<$<NOT:$<CONFIG:Debug>>:-D_FORTIFY_SOURCE=3>)
  target_link_options(${target} PRIVATE -Wl,-z,relro -Wl,-z,now)
endfunction()
