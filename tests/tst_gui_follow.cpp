// The viewer shows records while a trace loads (progressive loading) and while LMCache is still
// writing it (File > Follow, --follow).

#include "mainwindow.h"
#include "recordtableview.h"
#include "tracetab.h"
#include "viewstate.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace lmct;

namespace {

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<qint64> frameEnds(const QByteArray &bytes) {
    QList<qint64> ends;
    for (qint64 off = 0; off + 4 <= bytes.size();) {
        off += 4 + qFromBigEndian<quint32>(bytes.constData() + off);
        ends.append(off);
    }
    return ends;
}

}  // namespace

class TestGuiFollow : public QObject {
    Q_OBJECT

private slots:
    void followShowsAppendedRecords();
    void openedComesBeforeLoaded();
};

void TestGuiFollow::followShowsAppendedRecords() {
    const QByteArray all = readFile(QStringLiteral(LMCT_FIXTURES "/sample.lct"));
    const QList<qint64> ends = frameEnds(all);
    QVERIFY(ends.size() > 100);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.lct"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(all.left(ends[10] + 7));  // header, 10 records, a piece of the 11th
    out.flush();

    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = w.followFile(path);
    QVERIFY(tab);
    QTRY_VERIFY_WITH_TIMEOUT(tab->viewState()->document() != nullptr, 5000);
    QVERIFY(tab->isFollowing());
    QAbstractItemModel *model = tab->table()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 10, 5000);

    // Append the rest in two pieces: each appears within about a second.
    out.write(all.mid(ends[10] + 7, ends[60] - ends[10] - 7 + 3));
    out.flush();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 60, 3000);
    out.write(all.mid(ends[60] + 3));
    out.flush();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), int(ends.size() - 1), 3000);
    QCOMPARE(tab->viewState()->document()->errorCount(), 0);  // partial frames were waited for

    tab->stopFollowing();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isFollowing(), 5000);
    QVERIFY(!tab->viewState()->document()->isLoading());
}

void TestGuiFollow::openedComesBeforeLoaded() {
    MainWindow w;
    w.setShowDialogs(false);
    TraceTab *tab = w.openFile(QStringLiteral(LMCT_TRACES "/schema2-prefetch-spec-tp2.lct"));
    QVERIFY(tab);
    QSignalSpy opened(tab, &TraceTab::opened);
    QSignalSpy loaded(tab, &TraceTab::loaded);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(tab->table()->model()->rowCount(), 4211);
    QVERIFY(!tab->viewState()->document()->isLoading());
}

QTEST_MAIN(TestGuiFollow)
#include "tst_gui_follow.moc"
