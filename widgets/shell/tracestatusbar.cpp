#include "shell/tracestatusbar.h"

#include "common/stablelabel.h"
#include "common/statuscolors.h"
#include "records/recordtableview.h"
#include "shell/tracetab.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <QDir>
#include <QFrame>
#include <QLabel>
#include <QLocale>
#include <QStyle>
#include <QToolButton>
#include <initializer_list>

namespace lmct {

TraceStatusBar::TraceStatusBar(QWidget *parent) : QStatusBar(parent) {
    QStatusBar *bar = this;
    bar->setSizeGripEnabled(true);
    m_statusFile = new QLabel(bar);
    m_statusFile->setTextFormat(Qt::PlainText);
    // The counts change while a trace loads or is followed: stable widths (a reserve for usual
    // values, growing only), so that the labels and the button beside them do not jump.
    m_statusSize = new StableLabel(bar);
    m_statusSize->setObjectName(QStringLiteral("statusSize"));
    m_statusSize->setWidthTemplate(QStringLiteral("000.00 MiB"));
    m_statusRecords = new StableLabel(bar);
    m_statusRecords->setObjectName(QStringLiteral("statusRecords"));
    m_statusRecords->setWidthTemplate(tr("%1 records").arg(QLocale().toString(1000000)));
    m_statusDuration = new StableLabel(bar);
    m_statusDuration->setObjectName(QStringLiteral("statusDuration"));
    m_statusDuration->setWidthTemplate(tr("duration %1").arg(QStringLiteral("00 min 00.0 s")));
    for (QLabel *l : {static_cast<QLabel *>(m_statusSize), static_cast<QLabel *>(m_statusRecords),
                      static_cast<QLabel *>(m_statusDuration)}) {
        l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    m_statusProblems = new QToolButton(bar);
    m_statusProblems->setAutoRaise(true);
    m_statusProblems->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_statusProblems->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    m_statusProblems->setIconSize(QSize(14, 14));
    m_statusProblems->setToolTip(tr("Show the Diagnostics pane"));
    m_statusProblems->setCursor(Qt::PointingHandCursor);
    connect(m_statusProblems, &QToolButton::clicked, this, &TraceStatusBar::problemsClicked);
    m_statusPartial = new QLabel(bar);
    {
        QPalette pal = m_statusPartial->palette();
        pal.setColor(QPalette::WindowText, StatusColors::warning(pal));
        m_statusPartial->setPalette(pal);
        QFont f = m_statusPartial->font();
        f.setBold(true);
        m_statusPartial->setFont(f);
    }
    bar->addWidget(m_statusFile, 1);
    bar->addPermanentWidget(m_statusPartial);
    bar->addPermanentWidget(m_statusProblems);
    for (QLabel *l : {m_statusRecords, m_statusDuration, m_statusSize}) {
        l->setContentsMargins(10, 0, 10, 0);
        auto *sep = new QFrame(bar);
        sep->setFrameShape(QFrame::VLine);
        sep->setFrameShadow(QFrame::Sunken);
        m_statusSeparators << sep;
        bar->addPermanentWidget(sep);
        bar->addPermanentWidget(l);
    }
}

void TraceStatusBar::showText(const QString &text) {
    showTab(nullptr);
    m_statusFile->setText(text);
}

void TraceStatusBar::showTab(TraceTab *tab) {
    const auto doc = tab ? tab->document() : nullptr;
    const QLocale loc;
    const bool show = doc != nullptr;
    m_statusSize->setVisible(show);
    m_statusRecords->setVisible(show);
    m_statusDuration->setVisible(show);
    for (QFrame *sep : std::as_const(m_statusSeparators)) {
        sep->setVisible(show);
    }
    if (!tab) {
        m_statusFile->setText(tr("Open a trace with File › Open (Ctrl+O), or drop files here"));
        m_statusFile->setToolTip(QString());
        m_statusProblems->hide();
        m_statusPartial->hide();
        return;
    }
    m_statusFile->setToolTip(QDir::toNativeSeparators(tab->filePath()));
    if (!doc) {
        m_statusFile->setText(tab->isLoading() ? tr("Loading %1…").arg(tab->fileName())
                                               : tab->fileName());
        m_statusProblems->hide();
        m_statusPartial->hide();
        return;
    }
    m_statusFile->setText(tab->fileName());
    if (const qint64 shrunk = doc->shrunkTo(); shrunk >= 0) {
        // truncated by another process since it was opened: its size now
        m_statusSize->setText(tr("%1 (shrank)").arg(loc.formattedDataSize(shrunk)));
        m_statusSize->setToolTip(tr("%1 bytes: the file shrank from %2 bytes; the records after "
                                    "offset %1 are no longer readable")
                                     .arg(loc.toString(shrunk), loc.toString(doc->fileSize())));
    } else {
        m_statusSize->setText(loc.formattedDataSize(doc->fileSize()));
        m_statusSize->setToolTip(tr("%1 bytes").arg(loc.toString(doc->fileSize())));
    }
    const int total = doc->records().size();
    const int shown = tab->table()->model()->rowCount();
    if (tab->viewState()->timeRange()) {
        m_statusRecords->setText(
            tr("%1 of %2 records").arg(loc.toString(shown), loc.toString(total)));
        m_statusRecords->setToolTip(
            tr("The time range shows %1 records; Esc shows all").arg(loc.toString(shown)));
    } else {
        m_statusRecords->setText(total == 1 ? tr("1 record")
                                            : tr("%1 records").arg(loc.toString(total)));
        m_statusRecords->setToolTip(QString());
    }
    m_statusDuration->setText(tr("duration %1").arg(TimeFormat::duration(doc->duration())));
    m_statusDuration->setToolTip(tr("Largest t_mono: %1 s").arg(TimeFormat::mono(doc->duration())));
    const int errors = doc->errorCount();
    const int warnings = doc->warningCount();
    if (errors + warnings > 0) {
        QStringList parts;
        if (errors > 0) {
            parts << (errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors));
        }
        if (warnings > 0) {
            parts << (warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
        }
        m_statusProblems->setText(parts.join(QStringLiteral(", ")));
        m_statusProblems->setIcon(style()->standardIcon(errors > 0 ? QStyle::SP_MessageBoxCritical
                                                                   : QStyle::SP_MessageBoxWarning));
        m_statusProblems->show();
    } else {
        m_statusProblems->hide();
    }
    if (doc->isPartial()) {
        m_statusPartial->setText(tr("partial: loading was cancelled"));
        m_statusPartial->setToolTip(tr("Only the records read before the cancel are shown"));
        m_statusPartial->show();
    } else if (const int at = doc->argsCheckCancelledAt(); at >= 0) {
        // every record is there, but not every record's arguments were checked for damage
        m_statusPartial->setText(tr("partial check: argument check cancelled at record %1 of %2")
                                     .arg(loc.toString(at), loc.toString(total)));
        m_statusPartial->setToolTip(
            tr("The argument check was cancelled: the records before record %1 were checked, "
               "the arguments of the records from it on were not (all) checked for damage. "
               "Every record is indexed and shown.")
                .arg(loc.toString(at)));
        m_statusPartial->show();
    } else {
        m_statusPartial->hide();
    }
}

QString TraceStatusBar::statusText() const {
    QStringList parts;
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_statusFile, m_statusSize, m_statusRecords,
                                          m_statusDuration, m_statusProblems, m_statusPartial}) {
        if (w->isHidden()) {
            continue;
        }
        if (auto *l = qobject_cast<QLabel *>(w)) {
            parts << l->text();
        } else if (auto *b = qobject_cast<QToolButton *>(w)) {
            parts << b->text();
        }
    }
    return parts.join(QStringLiteral(" | "));
}

}  // namespace lmct
