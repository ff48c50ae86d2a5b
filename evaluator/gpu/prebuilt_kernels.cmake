# The prebuilt kernel library (prebuilt_kernels.h): every kernel program
# compiled by nvcc into a compressed fat binary, SASS for each architecture in
# PF_GPU_KERNEL_ARCHS plus PTX of the highest, embedded by
# embed_prebuilt.cmake into the shared library pf_gpu_prebuilt (build/lib,
# beside the bundled libraries): the images (about 13 MB for the default
# architectures, already compressed) are stored once, not in every binary
# that links pf_gpu. One nvcc run per program, so `ninja -jN` compiles N
# programs at once.
set(PF_GPU_KERNEL_ARCHS "80;90;100" CACHE STRING
    "SASS architectures of the prebuilt baseline kernels (\"\": NVRTC only, at run time)")

# The programs: <stem>.<dtype> for each `// pf-dtypes:` word of each .cu
# file. pf_kernel_programs checks this list against kernel_program.h. An
# edit of a .cu file re-runs this configure step, so a changed pf-dtypes line
# changes the list without a manual cmake run.
set(pf_programs "")
foreach(path IN LISTS PF_GPU_KERNEL_FILES)
  if(NOT path MATCHES "\\.cu$")
    continue()
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${path}")
  get_filename_component(stem "${path}" NAME_WE)
  file(STRINGS "${path}" dtypes_line REGEX "^// pf-dtypes:" LIMIT_COUNT 1)
  string(REGEX REPLACE "^// pf-dtypes:[ \t]*" "" dtypes "${dtypes_line}")
  string(REGEX REPLACE "[ \t]+" ";" dtypes "${dtypes}")
  foreach(dtype IN LISTS dtypes)
    list(APPEND pf_programs "${stem}.${dtype}")
  endforeach()
endforeach()
list(SORT pf_programs)

set(pf_prebuilt_dir ${CMAKE_CURRENT_BINARY_DIR}/prebuilt_kernels)
set(pf_fatbins "")
set(pf_built_programs "")
if(NOT PF_GPU_KERNEL_ARCHS STREQUAL "")
  find_program(PF_NVCC nvcc HINTS ${CUDAToolkit_BIN_DIR} REQUIRED)
  set(pf_archs ${PF_GPU_KERNEL_ARCHS})
  list(SORT pf_archs COMPARE NATURAL)
  list(GET pf_archs -1 pf_ptx_arch)
  set(pf_gencode "")
  foreach(arch IN LISTS pf_archs)
    if(NOT arch MATCHES "^[0-9]+$")
      message(FATAL_ERROR "PF_GPU_KERNEL_ARCHS: '${arch}' is not a number like 90")
    endif()
    list(APPEND pf_gencode -gencode arch=compute_${arch},code=sm_${arch})
  endforeach()
  list(APPEND pf_gencode -gencode arch=compute_${pf_ptx_arch},code=compute_${pf_ptx_arch})

  set(pf_program_sources "")
  foreach(program IN LISTS pf_programs)
    list(APPEND pf_program_sources ${pf_prebuilt_dir}/src/${program}.cu
         ${pf_prebuilt_dir}/src/${program}.cuh)
  endforeach()
  add_custom_command(
    OUTPUT ${pf_program_sources}
    COMMAND pf_kernel_programs ${pf_prebuilt_dir}/src ${pf_programs}
    DEPENDS pf_kernel_programs ${PF_GPU_KERNEL_FILES}
    COMMENT "Writing the baseline kernel programs for nvcc"
    VERBATIM)
  # The flags NVRTC gets (nvrtc_compiler.h) where nvcc has them; nvcc marks
  # unannotated functions host-only, which the kernels do not rely on.
  foreach(program IN LISTS pf_programs)
    set(out ${pf_prebuilt_dir}/${program}.fatbin)
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${PF_NVCC} -fatbin --std=c++17 -compress-mode=size ${pf_gencode}
              -o ${out} ${pf_prebuilt_dir}/src/${program}.cu
      DEPENDS ${pf_prebuilt_dir}/src/${program}.cu ${pf_prebuilt_dir}/src/${program}.cuh
      COMMENT "nvcc: baseline kernels ${program} (sm ${PF_GPU_KERNEL_ARCHS})"
      VERBATIM)
    list(APPEND pf_fatbins ${out})
    list(APPEND pf_built_programs ${program})
  endforeach()
endif()

set(pf_prebuilt_source ${CMAKE_CURRENT_BINARY_DIR}/prebuilt_kernels.cpp)
list(JOIN pf_built_programs "$<SEMICOLON>" pf_programs_arg)
list(JOIN pf_fatbins "$<SEMICOLON>" pf_fatbins_arg)
list(JOIN PF_GPU_KERNEL_ARCHS "$<SEMICOLON>" pf_archs_arg)
add_custom_command(
  OUTPUT ${pf_prebuilt_source}
  COMMAND ${CMAKE_COMMAND} "-DPROGRAMS=${pf_programs_arg}" "-DFATBINS=${pf_fatbins_arg}"
          "-DARCHS=${pf_archs_arg}" "-DOUTPUT=${pf_prebuilt_source}"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/embed_prebuilt.cmake
  DEPENDS ${pf_fatbins} ${CMAKE_CURRENT_SOURCE_DIR}/embed_prebuilt.cmake
  COMMENT "Embedding the prebuilt baseline kernels"
  VERBATIM)

add_library(pf_gpu_prebuilt SHARED ${pf_prebuilt_source})
set_target_properties(pf_gpu_prebuilt PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
target_include_directories(pf_gpu_prebuilt PRIVATE ${PROJECT_SOURCE_DIR})
