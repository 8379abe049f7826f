#include "timeline/finishreadplacement.h"

namespace lmct {

namespace {

constexpr size_t kMaxOpen = 4096, kMaxClosed = 1024, kMaxReleases = 64;

template <typename T>
void dropOldest(std::vector<T> &v, size_t cap) {
    if (v.size() > cap) {
        v.erase(v.begin());
    }
}

}  // namespace

void FinishReadPlacement::enter(quint64 list, qint32 record) {
    m_open.push_back(Read{list, record, false, 0.0});
    dropOldest(m_open, kMaxOpen);
}

void FinishReadPlacement::exit(quint64 list, double t) {
    for (size_t i = 0; i < m_open.size(); ++i) {
        if (m_open[i].list == list) {  // FIFO per key list, as ContextPairs pairs them
            Read r = m_open[i];
            m_open.erase(m_open.begin() + qsizetype(i));
            if (!r.finished) {
                r.exitT = t;
                m_closed.push_back(r);
                dropOldest(m_closed, kMaxClosed);
            }
            return;
        }
    }
}

void FinishReadPlacement::release(quint64 list, qint32 record, bool keysKnown) {
    m_releases.push_back(Release{list, record, keysKnown});
    dropOldest(m_releases, kMaxReleases);
}

FinishReadPlacement::Role FinishReadPlacement::finish(quint64 list, qint32 record, double t,
                                                      qint32 *owner) {
    *owner = -1;
    for (size_t i = 0; i < m_releases.size(); ++i) {
        const Release &r = m_releases[i];
        if ((!r.keysKnown || r.list == list) && record - r.record <= kNestWindow) {
            *owner = r.record;
            m_releases.erase(m_releases.begin() + qsizetype(i));
            return Role::OfRelease;
        }
    }
    for (Read &o : m_open) {
        if (o.list == list && !o.finished) {
            o.finished = true;
            return Role::Read;
        }
    }
    for (size_t i = 0; i < m_closed.size(); ++i) {
        if (m_closed[i].list == list) {
            const Read c = m_closed[i];
            m_closed.erase(m_closed.begin() + qsizetype(i));
            if (!(t >= c.exitT)) {
                return Role::Read;  // called before the exit, published after it
            }
            *owner = c.enter;
            return Role::OfRead;
        }
    }
    return Role::Read;
}

}  // namespace lmct
