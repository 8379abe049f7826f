#include "panes/cachetab.h"

#include <QHeaderView>
#include <QLocale>
#include <QTableView>

namespace lmct {

CacheTab::CacheTab(QWidget *parent) : QWidget(parent) {}

void CacheTab::setAnalysis(std::shared_ptr<const CacheAnalysis> analysis) {
    m_analysis = std::move(analysis);
    showAnalysis();
}

QString CacheTab::count(qint64 n) {
    return QLocale().toString(n);
}

QString CacheTab::counted(qint64 n, const QString &one, const QString &many) {
    return count(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

QTableView *CacheTab::createTable(QAbstractItemModel *model) {
    auto *t = new QTableView;
    t->setModel(model);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    t->setShowGrid(false);
    t->setWordWrap(false);
    t->setFrameShape(QFrame::NoFrame);
    t->verticalHeader()->hide();
    t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    t->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    t->horizontalHeader()->setHighlightSections(false);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

}  // namespace lmct
