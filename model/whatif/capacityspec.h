#pragma once

#include <QString>
#include <optional>
#include <vector>

namespace lmct {

/**
 * A capacity as users write it: a chunk count ("1024") or a size ("48GiB", "1.5 GB", "512MiB",
 * "4096B"; binary suffixes KiB/MiB/GiB/TiB are powers of 1024, decimal KB/MB/GB/TB powers of
 * 1000, case ignored), and comma-separated lists of them (`lmct whatif --capacity`).
 *
 * Errors: parse() returns nullopt and sets `error` ("'48XB' at 1: expected a count or a size
 * such as 48GiB"). Zero, negative and non-integral byte counts are refused. Thread-safety: pure
 * functions.
 */
struct CapacitySpec {
    quint64 value = 0;
    bool bytes = false;  ///< a size in bytes, else a chunk count

    static std::optional<CapacitySpec> parse(const QString &text, QString *error = nullptr);
    static std::optional<std::vector<CapacitySpec>> parseList(const QString &text,
                                                              QString *error = nullptr);
    /** The chunk count this spec stands for when each chunk takes `bytesPerChunk` bytes (a size
     *  rounds down; at least 1); the value itself for a chunk count. */
    quint64 chunks(quint64 bytesPerChunk) const;
};

}  // namespace lmct
