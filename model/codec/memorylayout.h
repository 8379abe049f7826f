#pragma once

#include "codec/value.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace lmct {

/**
 * LMCache's MemoryLayoutDesc (codec tag `MemoryLayoutDesc`): `{shapes: [[int,...],...],
 * dtypes: [str,...]}`, e.g. `[[2,36,256,1024]]`, `["torch.bfloat16"]` — the layout of one KV
 * object. Bytes per object = Σ over shapes of (∏ dims × dtype size).
 */
struct MemoryLayout {
    QList<QList<qint64>> shapes;
    QStringList dtypes;

    static std::optional<MemoryLayout> fromValue(const Value &v);
    /** The first MemoryLayoutDesc anywhere in `v` (depth-first). */
    static std::optional<MemoryLayout> findIn(const Value &v);

    /** Size in bytes of one element of a torch dtype ("torch.bfloat16" → 2); 0 when unknown. */
    static int dtypeSize(const QString &dtype);
    /** "torch.bfloat16" → "bf16", "torch.float32" → "f32"; other names without "torch.". */
    static QString shortDtype(const QString &dtype);

    /** Bytes per object; nullopt when a dtype is unknown or the shapes overflow. */
    std::optional<qint64> bytesPerObject() const;
    /** "[2,36,256,1024] bf16" (several shapes joined with " + "). */
    QString toString() const;
};

/** Human byte count: "36.0 MiB", "512 B". */
QString formatBytes(qint64 bytes);

}  // namespace lmct
