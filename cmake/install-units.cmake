# Installs systemd/'s units at install time (cmake/install.cmake), when the prefix is known:
# the sources name /usr/local/bin, right for the manual install; under another prefix (the
# package's /usr) that becomes <prefix>/bin, so systemd/ stays the one source of both.
# Under /usr the units go to /lib/systemd/system (Debian 12 packages ship them there);
# elsewhere to <prefix>/lib/systemd/system, which systemd reads for /usr/local too.
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(prefix STREQUAL "/usr")
  set(unit_dir /lib/systemd/system)
else()
  set(unit_dir "${prefix}/lib/systemd/system")
endif()
set(rewritten_dir "${CABINET_BINARY_DIR}/installed-units")
file(REMOVE_RECURSE "${rewritten_dir}")
file(GLOB units "${CABINET_SOURCE_DIR}/systemd/*.service" "${CABINET_SOURCE_DIR}/systemd/*.socket"
  "${CABINET_SOURCE_DIR}/systemd/*.timer")
set(rewritten "")
foreach(unit IN LISTS units)
  file(READ "${unit}" text)
  string(REPLACE "/usr/local/bin/" "${prefix}/bin/" text "${text}")
  get_filename_component(name "${unit}" NAME)
  if(NOT prefix STREQUAL "/usr/local" AND text MATCHES "/usr/local")
    message(FATAL_ERROR "systemd/${name} still names /usr/local after the rewrite to ${prefix}")
  endif()
  file(WRITE "${rewritten_dir}/${name}" "${text}")
  list(APPEND rewritten "${rewritten_dir}/${name}")
endforeach()
file(INSTALL ${rewritten} DESTINATION "${unit_dir}" FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
