#include "shell/welcomepage.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace lmct {

WelcomePage::WelcomePage(QWidget *parent) : QWidget(parent) {
    setAcceptDrops(false);  // drops go to the main window
    auto *outer = new QVBoxLayout(this);
    auto *column = new QWidget(this);
    column->setFixedWidth(540);  // a fixed width lets the wrapped texts compute their height
    auto *v = new QVBoxLayout(column);
    v->setSpacing(10);

    auto *icon = new QLabel(column);
    icon->setPixmap(QApplication::windowIcon().pixmap(72, 72));
    icon->setAlignment(Qt::AlignHCenter);
    icon->setMinimumHeight(76);
    v->addWidget(icon);

    auto *title = new QLabel(QApplication::applicationDisplayName().isEmpty()
                                 ? tr("LMCache Trace Viewer")
                                 : QApplication::applicationDisplayName(),
                             column);
    QFont tf = title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.6);
    tf.setBold(true);
    title->setFont(tf);
    title->setAlignment(Qt::AlignHCenter);
    v->addWidget(title);

    auto *hint = new QLabel(
        tr("Open an LMCache storage trace (<b>.lct</b>, <b>.lmct</b>) with File › Open (Ctrl+O),"
           "<br>or drop one or more trace files here.<br><br>Record one with "
           "<code>lmcache server --trace-level storage --trace-output FILE</code>"),
        column);
    hint->setWordWrap(false);
    hint->setAlignment(Qt::AlignHCenter);
    hint->setTextFormat(Qt::RichText);
    v->addWidget(hint);

    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto *open = new QPushButton(QIcon::fromTheme(QStringLiteral("document-open")),
                                 tr("Open Trace…"), column);
    open->setDefault(true);
    auto *sample = new QPushButton(tr("Open Sample Trace"), column);
    buttons->addWidget(open);
    buttons->addWidget(sample);
    buttons->addStretch(1);
    v->addSpacing(6);
    v->addLayout(buttons);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(sample, &QPushButton::clicked, this, &WelcomePage::sampleRequested);

    v->addSpacing(14);
    m_recentTitle = new QLabel(tr("Recent"), column);
    QFont rf = m_recentTitle->font();
    rf.setBold(true);
    m_recentTitle->setFont(rf);
    v->addWidget(m_recentTitle);
    m_recentList = new QVBoxLayout;
    m_recentList->setSpacing(2);
    v->addLayout(m_recentList);

    outer->addStretch(2);
    outer->addWidget(column, 0, Qt::AlignHCenter);
    outer->addStretch(3);
    setRecentFiles({});
}

void WelcomePage::setRecentFiles(const QStringList &files) {
    while (QLayoutItem *item = m_recentList->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int shown = 0;
    for (const QString &path : files) {
        if (shown == 5) {
            break;
        }
        const QFileInfo fi(path);
        auto *link = new QLabel(this);
        link->setTextFormat(Qt::RichText);
        link->setText(QStringLiteral("<a href=\"%1\">%2</a> &nbsp;<span>%3</span>")
                          .arg(QString(path).toHtmlEscaped(), fi.fileName().toHtmlEscaped(),
                               QDir::toNativeSeparators(fi.absolutePath()).toHtmlEscaped()));
        link->setToolTip(path);
        link->setEnabled(fi.exists());
        connect(link, &QLabel::linkActivated, this, &WelcomePage::recentRequested);
        m_recentList->addWidget(link);
        ++shown;
    }
    m_recentTitle->setVisible(shown > 0);
}

}  // namespace lmct
