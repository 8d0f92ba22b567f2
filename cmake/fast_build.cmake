# Two ways to compile less, on in every build (docs/decisions.md "A faster CI run", "Unity
# batches in the instrumented builds" and "A newcomer's first up").
#
# Precompiled headers: the standard library, libpqxx, spdlog (with fmt) and RapidJSON are
# most of what a translation unit of ours parses (about 100,000 lines for a file of a few
# hundred), about half of its compile time. Each target parses them once into its own
# precompiled header instead (the sanitized build went from 25 to 17 minutes).
#
# Unity batches: CABINET_UNITY_BATCH source files of a target compiled as one translation
# unit, so the templates they share (libpqxx, fmt, RapidJSON, Boost.Test) are instantiated,
# optimised (and in the sanitized builds instrumented) once a batch instead of once a file:
# compile time about halves. The cost is on the code: names in a file's anonymous
# namespace share one scope with the other files of its batch, so two files may not give a
# helper the same name (the build fails when they do).
#
# With both on, no build compiles a file alone, so a file that leans on the precompiled
# header or on an earlier file of its batch for an #include it lacks still builds, until
# the batches regroup. tools/check-includes compiles every source alone (-fsyntax-only, a
# few minutes) to find those; -DCABINET_UNITY=OFF -DCABINET_PCH=OFF builds file by file,
# which also makes a one-file edit recompile one file instead of its batch.
option(CABINET_PCH "Precompile the headers nearly every file includes" ON)
option(CABINET_UNITY "Compile each target's sources in batches (unity build)" ON)
# 8 files a batch: the largest target (cabinet_core, 152 files) still makes 19 batches to
# spread over the cores, and a change to one file recompiles 7 others with it.
set(CABINET_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")
if(CABINET_UNITY AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC warns when a type of an anonymous namespace is the base or member of a named one
  # in an included file, a hazard for headers; a batch includes whole source files, each
  # of which is still its own piece of code.
  add_compile_options(-Wno-subobject-linkage)
endif()

set(CABINET_PCH_STD
  <algorithm> <atomic> <chrono> <cstdint> <functional> <map> <memory> <mutex> <optional>
  <stdexcept> <string> <string_view> <thread> <utility> <vector>)
# RapidJSON through our json.hpp, never directly: it makes the library's assertions throw.
set(CABINET_PCH_LIBS <spdlog/spdlog.h> ${CMAKE_SOURCE_DIR}/fcgi-app/core/util/json.hpp)

# cabinet_fast_build(TARGET [HEADER ...]): TARGET's sources get the common headers above and
# the extra ones (<pqxx/pqxx> for targets that link libpqxx, Boost.Test for the suites)
# precompiled, and are compiled in unity batches, as the options above say. A suite's
# main.cpp defines BOOST_TEST_MODULE before its first include, so it gets neither: no
# header that includes Boost.Test first, no batch where another file does.
function(cabinet_fast_build target)
  if(CABINET_PCH)
    target_precompile_headers(${target} PRIVATE ${CABINET_PCH_STD} ${CABINET_PCH_LIBS} ${ARGN})
  endif()
  if(CABINET_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${CABINET_UNITY_BATCH})
  endif()
  get_target_property(sources ${target} SOURCES)
  foreach(source ${sources})
    if(source MATCHES "(^|/)main\\.cpp$")
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES
        SKIP_PRECOMPILE_HEADERS ON SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
