# The Debian 12 package: CPack's DEB generator packs the install rules of cmake/install.cmake
# with the prefix /usr, from this build tree (no second build). `tools/package` runs it and
# prints the path; docs/decisions.md "The Debian package" says why CPack.
# What is only known when packing (the version from git, the newest migration for preinst,
# the changelog) is done then, by cmake/package-config.cmake and cmake/package-changelog.cmake.
set(CPACK_GENERATOR DEB)
set(CPACK_VERBATIM_VARIABLES ON)                       # CPackConfig.cmake keeps quotes as written
set(CPACK_PACKAGE_NAME cabinet)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)                 # cabinet_<version>_<arch>.deb
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# xz on every core: CI packs the sanitized build, whose binaries are 160 MB, and one thread
# took two minutes of the test run on them.
set(CPACK_THREADS 0)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)                 # dpkg-shlibdeps on the binaries
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "cabinet maintainers <ops@cabinet.example.com>")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE https://cabinet.example.com)
# Beside the libraries: what the maintainer scripts and setup call (adduser, nginx, ssl-cert,
# the PostgreSQL 15 client for backups). PostgreSQL and Redis may live on another host.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "adduser, nginx | nginx-light | nginx-full | nginx-extras, ssl-cert, postgresql-client-15")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "postgresql-15, redis-server")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "certbot, python3-certbot-nginx")
# The first line is the synopsis; CPack indents the rest and makes the empty line " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"back office of a VPN subscription shop (FastCGI pool, worker, tools)
The cabinet's FastCGI pool behind nginx, its worker and admin tool
(cabinetctl), the systemd units and timers, the nginx site, the static
front end, the database migrations and a mock of the upstream VPN panel
for demo hosts.

After installing, run \"cabinetctl setup\": it asks for the domain, the bot
token, the database, Redis and the panel, checks each, writes
/etc/cabinet/cabinet.env, migrates and starts the services.")
# Maintainer scripts 0755 whatever the checkout's modes.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Read by the two scripts at packing time (CPACK_* variables reach them).
set(CPACK_CABINET_SOURCE_DIR "${CMAKE_SOURCE_DIR}")
set(CPACK_CABINET_BINARY_DIR "${CMAKE_BINARY_DIR}")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_SOURCE_DIR}/cmake/package-config.cmake")
set(CPACK_INSTALL_SCRIPTS "${CMAKE_SOURCE_DIR}/cmake/package-changelog.cmake")
include(CPack)
