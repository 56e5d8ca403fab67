# Compiler settings shared by every target: warnings, sanitizers, ccache.
# Paths below the source tree are hashed relative to it (and the build folder not at all), so
# that a fresh clone elsewhere (CI's) reuses what an earlier build compiled.
find_program(VOLTA_CCACHE ccache)
if(VOLTA_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
                                  CCACHE_NOHASHDIR=true ${VOLTA_CCACHE})
endif()

add_library(volta_warnings INTERFACE)
target_compile_options(volta_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter -Werror=switch)

# Invariant asserts (support/invariant.hpp: VOLTA_ASSERT) run in Debug builds and, with this
# option, in optimized ones too: the asan and fuzz presets turn it on, since their
# RelWithDebInfo defines NDEBUG.
option(VOLTA_CHECK_INVARIANTS "Run VOLTA_ASSERT invariant checks in optimized builds" OFF)
if(VOLTA_CHECK_INVARIANTS)
  add_compile_definitions(VOLTA_CHECK_INVARIANTS=1)
endif()

if(VOLTA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

if(VOLTA_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "VOLTA_FUZZ needs clang (use the 'fuzz' preset)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
