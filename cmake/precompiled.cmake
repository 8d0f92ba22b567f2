# Precompiled headers: the standard library, libpqxx, spdlog (with fmt) and RapidJSON are
# most of what a translation unit of ours parses (about 100,000 lines for a file of a few
# hundred), about half of its compile time. Each target parses them once into its own
# precompiled header instead (docs/decisions.md "A faster CI run": the sanitized build
# went from 25 to 17 minutes). On by default in the instrumented builds (ASan, TSan,
# fuzz), which are what CI compiles. Off in the plain -O2 build: there GCC 12 reports a
# false -Warray-bounds in std::string's operator+ inlined from the
# precompiled header (tools/cabinetctl/jobs_admin.cpp), which -Werror turns into a failed
# build. A file that leans on the precompiled header for an #include it lacks builds in
# CI but not in the plain build, so `tools/stack up` still proves the includes.
if(CABINET_SANITIZE OR CABINET_TSAN OR CABINET_FUZZ)
  set(cabinet_pch_default ON)
else()
  set(cabinet_pch_default OFF)
endif()
option(CABINET_PCH "Precompile the headers nearly every file includes" ${cabinet_pch_default})

set(CABINET_PCH_STD
  <algorithm> <atomic> <chrono> <cstdint> <functional> <map> <memory> <mutex> <optional>
  <stdexcept> <string> <string_view> <thread> <utility> <vector>)
# RapidJSON through our json.hpp, never directly: it makes the library's assertions throw.
set(CABINET_PCH_LIBS <spdlog/spdlog.h> ${CMAKE_SOURCE_DIR}/fcgi-app/core/util/json.hpp)

# cabinet_precompile(TARGET [HEADER ...]): TARGET's sources get the common headers above and
# the extra ones (<pqxx/pqxx> for targets that link libpqxx, Boost.Test for the suites)
# precompiled. A suite's main.cpp defines BOOST_TEST_MODULE before its first include, so
# it must not get a header that includes Boost.Test first: it is left out.
function(cabinet_precompile target)
  if(NOT CABINET_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE ${CABINET_PCH_STD} ${CABINET_PCH_LIBS} ${ARGN})
  get_target_property(sources ${target} SOURCES)
  foreach(source ${sources})
    if(source MATCHES "(^|/)main\\.cpp$")
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
