#include "shell/deploymentdialog.h"

#include "util/terminaltext.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace lmct {

namespace {

enum Column { TraceColumn, FollowColumn };
constexpr int kPathRole = Qt::UserRole + 1;

}  // namespace

DeploymentDialog::DeploymentDialog(const QStringList &openTraces, const QStringList &fileFilters,
                                   const QString &dir, QWidget *parent)
    : QDialog(parent), m_filters(fileFilters), m_dir(dir) {
    setWindowTitle(tr("Open as One Deployment"));
    auto *v = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("The traces of one deployment (one per LMCache server, worker or host), merged on one "
           "t_wall axis. Tick Follow for a trace LMCache is still writing."));
    intro->setWordWrap(true);
    v->addWidget(intro);
    m_list = new QTreeWidget;
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Trace"), tr("Follow")});
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(TraceColumn, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(FollowColumn, QHeaderView::ResizeToContents);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    v->addWidget(m_list, 1);
    auto *row = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add…"));
    auto *remove = new QPushButton(tr("Remove"));
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch(1);
    v->addLayout(row);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    v->addWidget(m_buttons);
    connect(add, &QPushButton::clicked, this, &DeploymentDialog::browse);
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_list->selectedItems());
        updateOk();
    });
    connect(m_list, &QTreeWidget::itemChanged, this, &DeploymentDialog::updateOk);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    addFiles(openTraces);
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        m_list->topLevelItem(i)->setCheckState(TraceColumn, Qt::Unchecked);
    }
    resize(560, 360);
    updateOk();
}

void DeploymentDialog::addFiles(const QStringList &paths) {
    for (const QString &p : paths) {
        bool listed = false;
        for (int i = 0; i < m_list->topLevelItemCount() && !listed; ++i) {
            listed = m_list->topLevelItem(i)->data(TraceColumn, kPathRole).toString() == p;
        }
        if (listed) {
            continue;
        }
        auto *item = new QTreeWidgetItem(m_list);
        item->setText(TraceColumn, TerminalText::escaped(QDir::toNativeSeparators(p)));
        item->setData(TraceColumn, kPathRole, p);
        item->setCheckState(TraceColumn, Qt::Checked);
        item->setCheckState(FollowColumn, Qt::Unchecked);
    }
    updateOk();
}

void DeploymentDialog::browse() {
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Traces"), m_dir,
                                                            m_filters.join(QLatin1String(";;")));
    if (!files.isEmpty()) {
        m_dir = QFileInfo(files.first()).absolutePath();
        addFiles(files);
    }
}

QStringList DeploymentDialog::paths() const {
    QStringList out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(TraceColumn) == Qt::Checked) {
            out << item->data(TraceColumn, kPathRole).toString();
        }
    }
    return out;
}

QSet<int> DeploymentDialog::followed() const {
    QSet<int> out;
    int n = 0;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->checkState(TraceColumn) != Qt::Checked) {
            continue;
        }
        if (item->checkState(FollowColumn) == Qt::Checked) {
            out.insert(n);
        }
        ++n;
    }
    return out;
}

void DeploymentDialog::setFollowed(const QString &path, bool follow) {
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        if (item->data(TraceColumn, kPathRole).toString() == path) {
            item->setCheckState(FollowColumn, follow ? Qt::Checked : Qt::Unchecked);
        }
    }
}

void DeploymentDialog::updateOk() {
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!paths().isEmpty());
}

}  // namespace lmct
