#include "cache/keylifecyclerules.h"

#include <cmath>

namespace lmct {

KeyLifecycleRules::Step KeyLifecycleRules::next(KeyAnalysis::Call call, qint32 record, double t,
                                                bool isRead) {
    Step s;
    switch (call) {
        case KeyAnalysis::Call::Reserve:
        case KeyAnalysis::Call::ReserveWithStatus:
            if (!m_reservation.isValid()) {
                m_reservation = Mark{record, t};
            }
            break;
        case KeyAnalysis::Call::Finish:
            s.reservation = m_reservation;
            if (!m_firstFinish.isValid()) {
                s.isFirstFinish = true;
                m_firstFinish = Mark{record, t};
            }
            m_reservation = Mark();
            break;
        case KeyAnalysis::Call::Abort:
            m_reservation = Mark();
            break;
        case KeyAnalysis::Call::ReadEnter:
        case KeyAnalysis::Call::FinishRead:
            if (isRead && m_firstFinish.isValid() && !m_reused &&
                !std::isnan(t - m_firstFinish.t)) {
                m_reused = true;
                s.firstFinish = m_firstFinish;
            }
            break;
        default:
            break;
    }
    return s;
}

}  // namespace lmct
