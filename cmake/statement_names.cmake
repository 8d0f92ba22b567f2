# cmake -DOUT=<file> -DSOURCES=<a;b;...> -P statement_names.cmake
# Writes the names of the pool's statements, as the tables in fcgi-app/core/db/*statements.cpp
# define them ({"name", "SQL"}), one string literal per line: db/statement_name.hpp checks
# every name a call site writes against this list at compile time. Rewritten only when the
# list changes, so adding SQL to an existing statement rebuilds nothing else.
set(names "")
foreach(src IN LISTS SOURCES)
  file(STRINGS "${src}" lines REGEX "^[ \t]*\\{\"[a-z0-9_]+\",")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "\\{\"([a-z0-9_]+)\"," _ "${line}")
    string(APPEND names "\"${CMAKE_MATCH_1}\",\n")
  endforeach()
endforeach()
set(content "// Generated from fcgi-app/core/db/*statements.cpp by cmake/statement_names.cmake.\n${names}")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${content}")
