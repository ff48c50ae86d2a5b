# Records the version and git commit in every binary (provenance of runs).
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE PF_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT PF_GIT_COMMIT)
  set(PF_GIT_COMMIT "unknown")
endif()
execute_process(COMMAND git status --porcelain --untracked-files=no
                WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE PF_GIT_DIRTY OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(PF_GIT_DIRTY)
  set(PF_GIT_COMMIT "${PF_GIT_COMMIT}-dirty")
endif()
configure_file(${CMAKE_SOURCE_DIR}/common/version.h.in
               ${CMAKE_BINARY_DIR}/generated/passforge/version.h @ONLY)
