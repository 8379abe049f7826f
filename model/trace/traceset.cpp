#include "trace/traceset.h"

#include <cmath>

namespace lmct {

QString TraceSet::instanceIdOf(const TraceHeader &header) {
    const Value *meta = header.levelMeta();
    if (!meta || !meta->isMap()) {
        return QString();
    }
    const Value *id = meta->find(u"instance_id");
    if (!id || id->isNil()) {
        return QString();
    }
    if (id->isString()) {
        return id->toString();
    }
    if (id->isInt()) {
        return id->isUnsigned() ? QString::number(id->toUInt()) : QString::number(id->toInt());
    }
    if (id->isNumber()) {
        return QString::number(id->toDouble(), 'g', 17);
    }
    return QString();
}

int TraceSet::add(std::shared_ptr<const TraceDocument> doc, const QString &path) {
    if (!doc || size() >= kMaxTraces) {
        return -1;
    }
    Trace t;
    t.path = path.isEmpty() ? doc->filePath() : path;
    t.instanceId = instanceIdOf(doc->header());
    auto taken = [this](const QString &l) {
        for (const Trace &o : m_traces) {
            if (o.label == l) {
                return true;
            }
        }
        return false;
    };
    QString label = doc->fileName();
    if (label.isEmpty() || taken(label)) {
        label = t.path;
    }
    for (int n = 2; taken(label); ++n) {
        label = QStringLiteral("%1 #%2").arg(t.path).arg(n);
    }
    t.label = label;
    t.document = std::move(doc);
    m_traces.push_back(std::move(t));
    ++m_revision;
    return size() - 1;
}

QString TraceSet::displayLabel(int t) const {
    const Trace &tr = trace(t);
    return tr.instanceId.isEmpty() ? tr.label
                                   : QStringLiteral("%1 (%2)").arg(tr.label, tr.instanceId);
}

QStringList TraceSet::labels() const {
    QStringList l;
    for (const Trace &t : m_traces) {
        l.append(t.label);
    }
    return l;
}

int TraceSet::indexOf(const QString &name) const {
    for (int t = 0; t < size(); ++t) {
        if (label(t) == name) {
            return t;
        }
    }
    for (int t = 0; t < size(); ++t) {
        if (trace(t).path == name || (!instanceId(t).isEmpty() && instanceId(t) == name)) {
            return t;
        }
    }
    return -1;
}

bool TraceSet::setOffset(int t, double seconds) {
    if (!std::isfinite(seconds)) {
        return false;
    }
    if (m_traces[size_t(t)].offset != seconds) {
        m_traces[size_t(t)].offset = seconds;
        ++m_revision;
    }
    return true;
}

double TraceSet::startWall(int t) const {
    const TraceDocument &d = document(t);
    if (const auto s = d.header().tWallStart(); s && std::isfinite(*s)) {
        return *s;
    }
    const RecordStore &rs = d.records();
    for (int i = 0, n = rs.size(); i < n; ++i) {
        const double w = rs.tWall(i);
        if (std::isfinite(w)) {
            return w;
        }
    }
    return std::nan("");
}

double TraceSet::alignedEnd(int t) const {
    const RecordStore &rs = document(t).records();
    if (rs.isEmpty()) {
        return std::nan("");
    }
    // The extremes stay 0 until a finite t_wall is seen.
    const double w = rs.maxTWall();
    return (w != 0.0 || rs.minTWall() != 0.0) ? w + offset(t) : std::nan("");
}

double TraceSet::combinedStart() const {
    double s = std::nan("");
    for (int t = 0; t < size(); ++t) {
        const double a = alignedStart(t);
        if (std::isfinite(a) && !(a >= s)) {
            s = a;
        }
    }
    return s;
}

double TraceSet::combinedEnd() const {
    double e = std::nan("");
    for (int t = 0; t < size(); ++t) {
        const double a = alignedEnd(t);
        if (std::isfinite(a) && !(a <= e)) {
            e = a;
        }
    }
    return e;
}

qint64 TraceSet::recordCount() const {
    qint64 n = 0;
    for (const Trace &t : m_traces) {
        n += t.document->records().size();
    }
    return n;
}

}  // namespace lmct
