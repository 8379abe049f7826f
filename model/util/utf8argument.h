#pragma once

#include <QString>

namespace lmct {

/**
 * Command-line arguments that are not valid UTF-8.
 *
 * Qt 6 reads command-line arguments and file names as UTF-8 (QCoreApplication::arguments(),
 * QFile::encodeName): an argument with other bytes (a Latin-1 file name such as
 * "latin1_\xe9.lct") reaches the program with U+FFFD in their place, and a file of that name
 * cannot be opened under it ("no such file"). The entry points (`lmct`, `lmct-viewer`) check
 * their raw `argv` with problem() and say why instead.
 *
 * Thread-safety: stateless.
 */
class Utf8Argument {
public:
    /**
     * Empty when `arg` (a 0-terminated argv entry) is valid UTF-8; else a sentence saying so:
     * the argument (its first 200 bytes) with each byte outside printable ASCII as \xNN, the
     * first invalid byte and its position (0-based), that it cannot be used, and what to do
     * when it is a file name ("rename the file, or give a symbolic link to it with a UTF-8
     * name").
     */
    static QString problem(const char *arg);
};

}  // namespace lmct
