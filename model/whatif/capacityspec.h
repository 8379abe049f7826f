#pragma once

#include "whatif/chunksize.h"

#include <QString>
#include <optional>
#include <vector>

namespace lmct {

/**
 * A capacity as users write it: a chunk count ("1024") or a size ("48GiB", "1.5 GB", "512MiB",
 * "4096B"; binary suffixes KiB/MiB/GiB/TiB are powers of 1024, decimal KB/MB/GB/TB powers of
 * 1000, case ignored; at most one space or tab between the number and the suffix, any around an
 * item), and comma-separated lists of them (`lmct whatif --capacity`). A size
 * that is no whole number of bytes ("1.84 GiB", as the viewer writes sizes) is rounded to the
 * nearest byte, halves up, exactly (every fraction digit counts): 1.84 GiB is 1975684956 bytes.
 *
 * Errors: parse() returns nullopt and sets `error` ("'48XB' at 1: expected a count or a size
 * such as 48GiB"). Zero (also a size that rounds to 0 bytes), negative and fractional chunk
 * counts are refused. Thread-safety: pure functions.
 */
struct CapacitySpec {
    quint64 value = 0;
    bool bytes = false;  ///< a size in bytes, else a chunk count

    static std::optional<CapacitySpec> parse(const QString &text, QString *error = nullptr);
    static std::optional<std::vector<CapacitySpec>> parseList(const QString &text,
                                                              QString *error = nullptr);
    /** The chunk count this spec stands for: the value itself for a chunk count; for a size,
     *  ChunkSize::chunksFor() (nullopt when `size` is unknown). */
    std::optional<quint64> chunks(const ChunkSize &size) const;
};

}  // namespace lmct
