# CPACK_PROJECT_CONFIG_FILE of cmake/package.cmake: run by cpack before it packs, so what
# changes without a reconfigure is read now, from the source tree.
#  - The version: `cpack -D CPACK_CABINET_VERSION=V` (tools/package --version), else
#    0.<number of commits>, so a later commit is a newer package.
#  - preinst refuses a schema downgrade: it carries this package's newest migration number.
#  - The maintainer scripts (tools/debian/) go into the control area (no conffiles: the env
#    file is made by postinst, docs/decisions.md "The Debian package").
if(NOT CPACK_CABINET_VERSION)
  execute_process(COMMAND git -C "${CPACK_CABINET_SOURCE_DIR}" rev-list --count HEAD
    OUTPUT_VARIABLE commits OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0 OR commits STREQUAL "")
    message(FATAL_ERROR "not a git checkout: give the version (tools/package --version V)")
  endif()
  set(CPACK_CABINET_VERSION "0.${commits}")
endif()
if(NOT CPACK_CABINET_VERSION MATCHES "^[0-9][A-Za-z0-9.+~]*$")
  message(FATAL_ERROR "version ${CPACK_CABINET_VERSION}: not a Debian version (digits first)")
endif()
set(CPACK_PACKAGE_VERSION "${CPACK_CABINET_VERSION}")
set(CPACK_DEBIAN_PACKAGE_VERSION "${CPACK_CABINET_VERSION}")

file(GLOB migrations RELATIVE "${CPACK_CABINET_SOURCE_DIR}/sql/migrations"
  "${CPACK_CABINET_SOURCE_DIR}/sql/migrations/[0-9][0-9][0-9][0-9]_*.sql")
list(SORT migrations)
list(POP_BACK migrations newest)
string(SUBSTRING "${newest}" 0 4 MAX_MIGRATION)
math(EXPR MAX_MIGRATION "${MAX_MIGRATION}")   # 0030 -> 30
set(control "${CPACK_CABINET_BINARY_DIR}/debian-control")
configure_file("${CPACK_CABINET_SOURCE_DIR}/tools/debian/preinst" "${control}/preinst" @ONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${control}/preinst")
foreach(f postinst prerm postrm)
  list(APPEND CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${CPACK_CABINET_SOURCE_DIR}/tools/debian/${f}")
endforeach()
# The install rules cpack runs next leave /etc/cabinet/cabinet.env to postinst (cmake/install.cmake).
set(ENV{CABINET_PACKAGE_STAGING} 1)
