# CPACK_INSTALL_SCRIPTS of cmake/package.cmake: the changelog Debian requires, made when
# packing (the version, the commit and whether the tree had local changes).
execute_process(COMMAND git -C "${CPACK_CABINET_SOURCE_DIR}" rev-parse --short HEAD
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(commit STREQUAL "")
  set(commit unknown)
endif()
execute_process(COMMAND git -C "${CPACK_CABINET_SOURCE_DIR}" diff --quiet HEAD RESULT_VARIABLE dirty ERROR_QUIET)
if(NOT dirty EQUAL 0)
  string(APPEND commit " with local changes")
endif()
string(TIMESTAMP now "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(doc "${CPACK_CABINET_BINARY_DIR}/debian-doc")
file(WRITE "${doc}/changelog" "cabinet (${CPACK_PACKAGE_VERSION}) bookworm; urgency=medium

  * Built from commit ${commit}.

 -- ${CPACK_DEBIAN_PACKAGE_MAINTAINER}  ${now}
")
execute_process(COMMAND gzip -9nf "${doc}/changelog" COMMAND_ERROR_IS_FATAL ANY)
file(INSTALL "${doc}/changelog.gz" DESTINATION "${CPACK_PACKAGING_INSTALL_PREFIX}/share/doc/cabinet"
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
