# Install rules for the desktop integration and the CPack DEB package.
#
#   cmake --install build --prefix /usr/local     # binaries, icons, .desktop, MIME, metainfo
#   (cd build && cpack -G DEB)                     # lmct-viewer_<version>_<arch>.deb
#
# After installing (DESTDIR unset) the MIME and desktop databases under PREFIX/share are
# refreshed when update-mime-database / update-desktop-database exist. With DESTDIR set (staged
# installs, packaging) nothing is run: in a .deb, dpkg's triggers of shared-mime-info
# (interest /usr/share/mime/packages), desktop-file-utils (/usr/share/applications) and
# hicolor-icon-theme (/usr/share/icons/hicolor, the icon cache) refresh the caches, so the
# package needs no postinst/postrm scripts. CPack's staging installs are skipped the same way.

include(GNUInstallDirs)
set(LMCT_RES ${PROJECT_SOURCE_DIR}/resources)

install(FILES ${LMCT_RES}/icons/lmct-viewer.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 16 22 24 32 48 64 128 256 512)
    install(FILES ${LMCT_RES}/icons/hicolor/${size}x${size}/apps/lmct-viewer.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()
install(FILES ${LMCT_RES}/lmct-viewer.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${LMCT_RES}/lmct-viewer-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME lmct-viewer.xml)
install(FILES ${LMCT_RES}/io.github.lmcache.TraceViewer.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

install(CODE [[
    if(NOT "$ENV{DESTDIR}" STREQUAL "" OR CMAKE_INSTALL_PREFIX MATCHES "/_CPack_Packages/")
        message(STATUS "DESTDIR set: not refreshing the MIME/desktop databases (packagers: triggers)")
    else()
        set(_share "${CMAKE_INSTALL_PREFIX}/share")
        find_program(_umd update-mime-database)
        if(_umd AND EXISTS "${_share}/mime/packages")
            message(STATUS "update-mime-database ${_share}/mime")
            execute_process(COMMAND "${_umd}" "${_share}/mime" RESULT_VARIABLE _rc)
        endif()
        find_program(_udd update-desktop-database)
        if(_udd AND EXISTS "${_share}/applications")
            message(STATUS "update-desktop-database ${_share}/applications")
            execute_process(COMMAND "${_udd}" "${_share}/applications" RESULT_VARIABLE _rc)
        endif()
    endif()
]])

set(CPACK_PACKAGE_NAME lmct-viewer)
set(CPACK_PACKAGE_VENDOR "LMCache")
set(CPACK_PACKAGE_CONTACT "LMCache Trace Viewer developers <lmct-viewer@lmcache.ai>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "LMCache Trace Viewer: browse LMCache storage traces")
set(CPACK_PACKAGE_DESCRIPTION
    "Desktop viewer (lmct-viewer) and headless command line (lmct) for LMCache storage trace\n files (*.lct, *.lmct): records, filters, statistics, timeline and exports.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Debian 12 runtime packages (names checked with dpkg -S on the linked libraries). Set
# LMCT_DEB_SHLIBDEPS=ON to let dpkg-shlibdeps compute the list instead.
option(LMCT_DEB_SHLIBDEPS "Compute the .deb Depends with dpkg-shlibdeps" OFF)
if(LMCT_DEB_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
    set(CPACK_DEBIAN_PACKAGE_DEPENDS
        "libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4), libqt6printsupport6 (>= 6.4), libqt6svg6 (>= 6.4), libqt6concurrent6 (>= 6.4), libqcustomplot2.1, libsqlite3-0, libstdc++6, libc6")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "shared-mime-info, desktop-file-utils, xdg-utils")
set(CPACK_GENERATOR DEB)
include(CPack)
