# What `cmake --install` puts where. The Debian package is these rules packed by CPack
# (cmake/package.cmake) with the prefix /usr; a manual install from source uses the default
# /usr/local (docs/operations.md "Install"). Destinations are relative to the prefix except
# the env file and, under /usr, the units.
#
#   bin/{cabinet-fcgi,cabinetctl,mock-panel}     stripped with --strip (the package always is)
#   lib/systemd/system/cabinet-*                 systemd/, /usr/local/bin made <prefix>/bin
#                                                (cmake/install-units.cmake; /lib/... under /usr)
#   lib/tmpfiles.d/cabinet.conf                  systemd/cabinet.tmpfiles (/run/cabinet)
#   share/cabinet/sql/                           migrations (cabinetctl finds ../share/cabinet/sql)
#   share/cabinet/nginx/                         the site template, the snippets, the mock
#                                                panel's site, the static front end (html/)
#   share/cabinet/tools/{render-nginx,front-release}   render the site (cabinetctl setup)
#   share/doc/cabinet/copyright                  (the package adds changelog.gz)
#   share/cabinet/cabinet.env.example            systemd/cabinet.env.example
#   /etc/cabinet/cabinet.env                     a copy of the example, 0640, when there is none:
#                                                an existing file is kept (a reinstall must not
#                                                wipe secrets). Not in the package: its postinst
#                                                makes the copy, so that an upgrade never stops
#                                                at dpkg's conffile question.
# Test binaries, fakes and benchmarks have no install rule, so neither is in the package.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(cabinet_data_perms OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
set(cabinet_binaries cabinet-fcgi cabinetctl mock-panel)

install(TARGETS ${cabinet_binaries} RUNTIME DESTINATION bin)
# --strip runs a plain `strip`; the sections below are also dropped, as Debian's dh_strip does.
foreach(b IN LISTS cabinet_binaries)
  install(CODE "if(CMAKE_INSTALL_DO_STRIP)
    execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-unneeded --remove-section=.comment --remove-section=.note
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/bin/${b}\" COMMAND_ERROR_IS_FATAL ANY)
  endif()")
endforeach()

install(CODE "set(CABINET_SOURCE_DIR \"${CMAKE_SOURCE_DIR}\")
  set(CABINET_BINARY_DIR \"${CMAKE_BINARY_DIR}\")
  include(\"${CMAKE_SOURCE_DIR}/cmake/install-units.cmake\")")
install(FILES systemd/cabinet.tmpfiles DESTINATION lib/tmpfiles.d RENAME cabinet.conf PERMISSIONS ${cabinet_data_perms})

install(DIRECTORY sql DESTINATION share/cabinet FILE_PERMISSIONS ${cabinet_data_perms})
install(DIRECTORY nginx/ DESTINATION share/cabinet/nginx FILE_PERMISSIONS ${cabinet_data_perms}
  FILES_MATCHING PATTERN "*.conf" PATTERN "cabinet.conf.template" PATTERN "cabinet-mock-panel.site"
  PATTERN html EXCLUDE)
install(DIRECTORY nginx/html DESTINATION share/cabinet/nginx FILE_PERMISSIONS ${cabinet_data_perms})
install(PROGRAMS tools/render-nginx tools/front-release DESTINATION share/cabinet/tools)
install(FILES tools/debian/copyright DESTINATION share/doc/cabinet PERMISSIONS ${cabinet_data_perms})

install(FILES systemd/cabinet.env.example DESTINATION share/cabinet PERMISSIONS ${cabinet_data_perms})
# The package ships no file in /etc: its postinst makes the env file (cmake/package-config.cmake
# tells the install it is packing).
install(CODE "if(\"\$ENV{CABINET_PACKAGE_STAGING}\")
    message(STATUS \"Left to the package's postinst: /etc/cabinet/cabinet.env\")
  elseif(EXISTS \"\$ENV{DESTDIR}/etc/cabinet/cabinet.env\")
    message(STATUS \"Kept: \$ENV{DESTDIR}/etc/cabinet/cabinet.env\")
  else()
    file(INSTALL \"${CMAKE_SOURCE_DIR}/systemd/cabinet.env.example\" DESTINATION /etc/cabinet RENAME cabinet.env
      FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)
  endif()")
