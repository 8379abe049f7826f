#pragma once
// Test helper: open a trace to be followed live, as File > Follow does.

#include "trace/traceloader.h"

#include <QDebug>
#include <QString>
#include <memory>

namespace lmct::test {

/**
 * Opens `path` to be followed (sets `opt->follow`; TraceLoader::open reads the header, or waits
 * for it) without reading records: refresh() with `*opt` reads them. nullptr, with a warning
 * naming the reason, when the file cannot be opened.
 */
inline std::shared_ptr<TraceDocument> openFollowed(const QString &path, TraceLoadOptions *opt) {
    opt->follow = true;
    QString error;
    auto doc = TraceLoader::open(path, &error, *opt);
    if (!doc) {
        qWarning() << "cannot follow" << path << error;
    }
    return doc;
}

}  // namespace lmct::test
