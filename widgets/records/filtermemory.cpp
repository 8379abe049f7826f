#include "records/filtermemory.h"

#include "filter/filterexpression.h"

#include <QFileInfo>
#include <QList>
#include <QPair>
#include <QSettings>

namespace lmct {

namespace {

const char *const kGroup = "filter/lastPerFile";

using Entries = QList<QPair<QString, QString>>;  // (file key, filter), most recent first

Entries load() {
    QSettings s;
    Entries out;
    const int n = s.beginReadArray(QLatin1String(kGroup));
    for (int i = 0; i < n; ++i) {
        s.setArrayIndex(i);
        const QString file = s.value(QStringLiteral("file")).toString();
        const QString filter = s.value(QStringLiteral("filter")).toString();
        if (!file.isEmpty() && !filter.isEmpty()) {
            out.append({file, filter});
        }
    }
    s.endArray();
    return out;
}

void store(const Entries &entries) {
    QSettings s;
    s.remove(QLatin1String(kGroup));  // a shorter array must not keep stale entries
    s.beginWriteArray(QLatin1String(kGroup), int(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        s.setArrayIndex(i);
        s.setValue(QStringLiteral("file"), entries.at(i).first);
        s.setValue(QStringLiteral("filter"), entries.at(i).second);
    }
    s.endArray();
}

/** Removes `key` from `entries`; returns whether it was there. */
bool removeKey(Entries &entries, const QString &key) {
    return entries.removeIf([&key](const auto &e) { return e.first == key; }) > 0;
}

}  // namespace

QString FilterMemory::fileKey(const QString &path) {
    const QFileInfo fi(path);
    const QString canonical = fi.canonicalFilePath();
    return canonical.isEmpty() ? fi.absoluteFilePath() : canonical;
}

QString FilterMemory::filterFor(const QString &path) {
    const QString key = fileKey(path);
    for (const auto &e : load()) {
        if (e.first == key) {
            return e.second;
        }
    }
    return {};
}

void FilterMemory::remember(const QString &path, const QString &filter) {
    const QString text = filter.trimmed();
    if (text.isEmpty() || !FilterExpression::parse(text).isValid()) {
        forget(path);
        return;
    }
    const QString key = fileKey(path);
    Entries entries = load();
    if (!entries.isEmpty() && entries.first() == qMakePair(key, text)) {
        return;  // already the most recent: no rewrite
    }
    removeKey(entries, key);
    entries.prepend({key, text});
    while (entries.size() > maxCount()) {
        entries.removeLast();
    }
    store(entries);
}

void FilterMemory::forget(const QString &path) {
    Entries entries = load();
    if (removeKey(entries, fileKey(path))) {
        store(entries);
    }
}

QStringList FilterMemory::files() {
    QStringList out;
    for (const auto &e : load()) {
        out << e.first;
    }
    return out;
}

}  // namespace lmct
