#include "timeline/lanelayout.h"

#include "codec/qualname.h"

#include <algorithm>

namespace lmct {

namespace {
const QString kSpanPrefix = QStringLiteral("spans:");
}  // namespace

QString LaneLayout::spanKey(const QString &family) {
    return kSpanPrefix + family;
}

bool LaneLayout::isSpanKey(const QString &key) {
    return key.startsWith(kSpanPrefix);
}

QString LaneLayout::nameOf(const QString &key) {
    return isSpanKey(key) ? key.mid(kSpanPrefix.size()) : key;
}

void LaneLayout::setLanes(const QStringList &qualnames, const QStringList &families) {
    m_qualnames = qualnames;
    m_families = families;
    update();
}

QStringList LaneLayout::rowKeys() const {
    QStringList out;
    for (const Row &r : m_rows) {
        out.append(r.key);
    }
    return out;
}

void LaneLayout::setHidden(const QString &key, bool hidden) {
    if (hidden) {
        m_hidden.insert(key);
    } else {
        m_hidden.remove(key);
    }
    update();
}

bool LaneLayout::move(const QString &key, int delta) {
    // move among the visible rows: swap with the neighbour `delta` visible rows away
    const QStringList visible = rowKeys();
    const int from = int(visible.indexOf(key));
    if (from < 0) {
        return false;
    }
    const int to = std::clamp(from + delta, 0, int(visible.size()) - 1);
    if (to == from) {
        return false;
    }
    const int a = int(m_order.indexOf(key));
    m_order.removeAt(a);
    const int b = int(m_order.indexOf(visible[to]));
    m_order.insert(delta > 0 ? b + 1 : b, key);
    update();
    return true;
}

void LaneLayout::reset() {
    m_order.clear();
    m_hidden.clear();
    update();
}

void LaneLayout::update() {
    QStringList qualnames = m_qualnames;
    std::sort(qualnames.begin(), qualnames.end(), &Qualname::flowLess);
    QStringList defaults = qualnames;
    for (const QString &f : std::as_const(m_families)) {
        int at = int(defaults.indexOf(f + QStringLiteral(".__enter__")));
        if (at < 0) {
            at = int(defaults.indexOf(f + QStringLiteral(".__exit__")));
        }
        defaults.insert(at < 0 ? defaults.size() : at, spanKey(f));
    }
    // Keep the user's order; new keys go after their default predecessor.
    QStringList order;
    for (const QString &k : std::as_const(m_order)) {
        if (defaults.contains(k)) {
            order.append(k);
        }
    }
    for (int i = 0; i < defaults.size(); ++i) {
        if (order.contains(defaults[i])) {
            continue;
        }
        int at = 0;
        for (int j = i - 1; j >= 0; --j) {
            const int p = int(order.indexOf(defaults[j]));
            if (p >= 0) {
                at = p + 1;
                break;
            }
        }
        order.insert(at, defaults[i]);
    }
    if (!order.isEmpty()) {
        m_order = order;
    }
    m_rows.clear();
    for (const QString &k : std::as_const(order)) {
        if (m_hidden.contains(k)) {
            continue;
        }
        Row row;
        row.key = k;
        row.name = nameOf(k);
        if (isSpanKey(k)) {
            row.kind = Row::Kind::Spans;
            row.family = int(m_families.indexOf(row.name));
        }
        m_rows.append(row);
    }
}

}  // namespace lmct
