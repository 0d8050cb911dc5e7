# The contact solver's lane width (engine/src/dynamics/contact_wide.h) and the determinism
# option. The kernel is compiled for 1, 4 and 8 lanes; CAIRN_SIMD picks the one a world uses.
#   AUTO    8 lanes (AVX2) when the machine that builds has AVX2, else 4 (SSE2 or NEON)
#   AVX2    8 lanes; a processor without AVX2 falls back to 4 at run time
#   SSE2    4 lanes
#   SCALAR  1 lane, plain scalar code
# CAIRN_DETERMINISTIC (ON by default) keeps fused multiply-adds out of the kernel, so all three
# widths give the same results bit for bit; OFF lets the 8-lane kernel use FMA.
set(CAIRN_SIMD AUTO CACHE STRING "Contact solver lanes: AUTO, AVX2, SSE2 or SCALAR")
set_property(CACHE CAIRN_SIMD PROPERTY STRINGS AUTO AVX2 SSE2 SCALAR)
option(CAIRN_DETERMINISTIC "No fused multiply-add: the same results on every SIMD path" ON)

include(CheckCSourceRuns)

function(cairn_simd_default out)
  set(${out} 4 PARENT_SCOPE)
  if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64|i.86" OR CMAKE_CROSSCOMPILING)
    return()
  endif()
  check_c_source_runs("int main(void) { return __builtin_cpu_supports(\"avx2\") ? 0 : 1; }"
                      CAIRN_BUILD_MACHINE_HAS_AVX2)
  if(CAIRN_BUILD_MACHINE_HAS_AVX2)
    set(${out} 8 PARENT_SCOPE)
  endif()
endfunction()

function(cairn_simd_configure target dynamics_dir)
  if(CAIRN_SIMD STREQUAL "AUTO")
    cairn_simd_default(lanes)
  elseif(CAIRN_SIMD STREQUAL "AVX2")
    set(lanes 8)
  elseif(CAIRN_SIMD STREQUAL "SSE2")
    set(lanes 4)
  elseif(CAIRN_SIMD STREQUAL "SCALAR")
    set(lanes 1)
  else()
    message(FATAL_ERROR "CAIRN_SIMD must be AUTO, AVX2, SSE2 or SCALAR, not '${CAIRN_SIMD}'")
  endif()
  message(STATUS "Cairn contact solver: ${lanes} lanes (CAIRN_SIMD=${CAIRN_SIMD}, "
                 "CAIRN_DETERMINISTIC=${CAIRN_DETERMINISTIC})")
  set_property(SOURCE ${dynamics_dir}/contact_wide.c TARGET_DIRECTORY ${target} APPEND
               PROPERTY COMPILE_DEFINITIONS CAIRN_SOLVER_LANES=${lanes})
  # errno is never read: square roots of the lanes become one instruction
  foreach(width 1 4 8)
    set_property(SOURCE ${dynamics_dir}/contact_wide_${width}.c TARGET_DIRECTORY ${target} APPEND
                 PROPERTY COMPILE_OPTIONS -fno-math-errno)
  endforeach()
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64|i.86")
    set(wide_flags -mavx2)
    if(NOT CAIRN_DETERMINISTIC)
      list(APPEND wide_flags -mfma -ffp-contract=fast)
    endif()
    set_property(SOURCE ${dynamics_dir}/contact_wide_8.c TARGET_DIRECTORY ${target} APPEND
                 PROPERTY COMPILE_OPTIONS ${wide_flags})
  endif()
endfunction()
