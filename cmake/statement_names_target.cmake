# cabinet_statement_names: the names of the pool's statements (fcgi-app/core/db/*statements.cpp),
# generated into the build dir for db/statement_name.hpp, which refuses at compile time a name
# no table defines. Link it to anything that compiles db/prepared.hpp.
file(GLOB STATEMENT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fcgi-app/core/db/*statements.cpp)
set(STATEMENT_NAMES ${CMAKE_BINARY_DIR}/generated/db/statement_names.inc)
add_custom_command(OUTPUT ${STATEMENT_NAMES}
  COMMAND ${CMAKE_COMMAND} -DOUT=${STATEMENT_NAMES} "-DSOURCES=${STATEMENT_SOURCES}"
          -P ${CMAKE_SOURCE_DIR}/cmake/statement_names.cmake
  DEPENDS ${STATEMENT_SOURCES} ${CMAKE_SOURCE_DIR}/cmake/statement_names.cmake
  COMMENT "Listing the pool's statement names" VERBATIM)
add_custom_target(cabinet_statement_list DEPENDS ${STATEMENT_NAMES})
add_library(cabinet_statement_names INTERFACE)
target_include_directories(cabinet_statement_names INTERFACE ${CMAKE_BINARY_DIR}/generated)
add_dependencies(cabinet_statement_names cabinet_statement_list)
