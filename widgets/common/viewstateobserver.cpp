#include "common/viewstateobserver.h"

#include "viewstate.h"

namespace lmct {

bool ViewStateObserver::rebind(QPointer<ViewState> &current, ViewState *state, QObject *receiver,
                               Rebind when) {
    if (when == Rebind::IfChanged && current == state) {
        return false;
    }
    if (current) {
        QObject::disconnect(current, nullptr, receiver, nullptr);
    }
    current = state;
    return true;
}

}  // namespace lmct
