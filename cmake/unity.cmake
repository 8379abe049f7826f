# Unity builds. Compiled 16 at a time, the model's sources took 115 CPU s instead of 343 (g++ 12,
# -O3): the Qt, msgpack-cxx and standard templates they share are instantiated and optimised once
# per batch, not once per file. CI builds the project three times (release, ASan + UBSan, the fuzz
# targets) on two cores; this keeps it within its budget. -DLMCT_UNITY=OFF gives one object per
# source (a change recompiles one file, not its batch).
#
# lmct_unity(TARGET [SOURCE...])   TARGET is built in batches; each SOURCE is compiled alone (its
#                                  file-local names clash with those of another source)
option(LMCT_UNITY "Compile each library's sources in batches (unity build: faster full builds)" ON)

function(lmct_unity target)
    if(LMCT_UNITY)
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
        foreach(source ${ARGN})
            set_source_files_properties(${source} TARGET_DIRECTORY ${target}
                                        PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
        endforeach()
    endif()
endfunction()
