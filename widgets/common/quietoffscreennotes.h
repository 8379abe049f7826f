#pragma once

#include <QString>
#include <QtGlobal>

namespace lmct {

/**
 * While alive, drops the offscreen platform's notes about window features it lacks ("This
 * plugin does not support …"), noise on stderr for the headless exports and reports; every other
 * message goes to the handler that was installed before. Restores that handler when destroyed.
 * GUI thread only; not nestable with another handler installed in between.
 */
class QuietOffscreenNotes {
public:
    QuietOffscreenNotes() { previous() = qInstallMessageHandler(&QuietOffscreenNotes::handle); }
    ~QuietOffscreenNotes() { qInstallMessageHandler(previous()); }
    QuietOffscreenNotes(const QuietOffscreenNotes &) = delete;
    QuietOffscreenNotes &operator=(const QuietOffscreenNotes &) = delete;

private:
    static QtMessageHandler &previous() {
        static QtMessageHandler handler = nullptr;
        return handler;
    }
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message) {
        if (type == QtWarningMsg &&
            message.startsWith(QLatin1String("This plugin does not support"))) {
            return;
        }
        if (QtMessageHandler h = previous()) {
            h(type, context, message);
        }
    }
};

}  // namespace lmct
