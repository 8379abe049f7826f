# Precompiled headers. Parsing the Qt, QCustomPlot and msgpack-cxx headers again in every
# translation unit was most of the build's time: a GUI test compiled in 13.8 s, 5.8 s with those
# headers precompiled (g++ 12, -O3). CI builds the project twice (release and ASan + UBSan) on two
# cores, so this is what keeps a full CI run within its time budget.
#
# lmct_precompile(TARGET SET)      TARGET gets its own precompiled header of SET (CORE or GUI)
# lmct_precompile_shared(TARGET SET HOLDER)
#                                  TARGET reuses HOLDER's precompiled header; HOLDER is an object
#                                  library made once per SET with the same compile definitions
#                                  (the test suites: one holder for the model/CLI suites, one for
#                                  the widget suites)
option(LMCT_PCH "Precompile the Qt, QCustomPlot and msgpack-cxx headers (faster builds)" ON)

set(LMCT_PCH_CORE
    <QtCore/QtCore> <QtConcurrent/QtConcurrent> <msgpack.hpp>
    <algorithm> <atomic> <cmath> <functional> <limits> <memory> <optional> <string_view> <vector>)
set(LMCT_PCH_GUI ${LMCT_PCH_CORE}
    <QtGui/QtGui> <QtWidgets/QtWidgets> <QtPrintSupport/QtPrintSupport> <QtSvg/QtSvg>
    <qcustomplot.h>)

function(lmct_precompile target set)
    if(LMCT_PCH)
        target_precompile_headers(${target} PRIVATE ${LMCT_PCH_${set}})
    endif()
endfunction()

# HOLDER is created on first use, linked like the suites that reuse it (LIBS), so that its
# precompiled header is built with exactly their compile definitions and options.
function(lmct_precompile_shared target set holder)
    if(NOT LMCT_PCH)
        return()
    endif()
    if(NOT TARGET ${holder})
        set(anchor ${CMAKE_CURRENT_BINARY_DIR}/${holder}.cpp)
        if(NOT EXISTS ${anchor})
            file(WRITE ${anchor} "// Anchor for the precompiled header shared by the suites.\n")
        endif()
        add_library(${holder} OBJECT ${anchor})
        set_target_properties(${holder} PROPERTIES AUTOMOC OFF)
        target_link_libraries(${holder} PRIVATE ${ARGN})
        target_precompile_headers(${holder} PRIVATE ${LMCT_PCH_${set}} <QtTest/QtTest>)
    endif()
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM ${holder})
endfunction()
