// Counts in messages take the noun in their number ("1 frame skipped", "2 frames skipped"):
// Plural itself, and the damage texts of `lmct info`, the loader's damage diagnostic and the
// report's file facts, which said "1 frames skipped" and "1 frames recovered".

#include "report/reportsections.h"
#include "testutil.h"
#include "trace/traceinfo.h"
#include "trace/traceloader.h"
#include "util/plural.h"

#include <QLocale>
#include <QRegularExpression>
#include <QTest>

using namespace lmct;
using namespace lmct::test;

namespace {

/** The message of `doc`'s damage summary diagnostic, or an empty string. */
QString damageDiagnostic(const TraceDocument &doc) {
    for (const Diagnostic &d : doc.diagnostics()) {
        if (d.kind == Diagnostic::Kind::Damage) {
            return d.message;
        }
    }
    return QString();
}

/** The value of the report's "damage" file fact, or an empty string. */
QString damageFact(const TraceDocument &doc) {
    for (const QStringList &row : ReportSections::fileFacts(doc).rows) {
        if (row.value(0) == QLatin1String("damage")) {
            return row.value(1);
        }
    }
    return QString();
}

/** The text of `lmct info`'s "damage:" line, or an empty string. */
QString infoDamageLine(const QString &file, const TraceDocument &doc) {
    static const QRegularExpression re(QStringLiteral("\\n\\s*damage:\\s*([^\\n]*)\\n"));
    return re.match(TraceInfo::toText(file, doc)).captured(1);
}

}  // namespace

class TestPlural : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void countedTakesTheNounInItsNumber() {
        QCOMPARE(Plural::counted(0, "frame", "frames"), QStringLiteral("0 frames"));
        QCOMPARE(Plural::counted(1, "frame", "frames"), QStringLiteral("1 frame"));
        QCOMPARE(Plural::counted(2, "frame", "frames"), QStringLiteral("2 frames"));
        QCOMPARE(Plural::counted(1234567, "byte", "bytes"), QStringLiteral("1234567 bytes"));
        QCOMPARE(Plural::counted(1, QStringLiteral("key"), QStringLiteral("keys")),
                 QStringLiteral("1 key"));
    }

    void oneFrameSkipped() {
        const QString file = tracePath(QStringLiteral("malformed-record.lmct"));
        QString error;
        const auto doc = TraceLoader::load(file, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->skippedFrames(), 1);
        QCOMPARE(doc->recoveredFrames(), 0);
        const qint64 bytes = doc->skippedBytes();
        QVERIFY(bytes > 1);
        QCOMPARE(infoDamageLine(file, *doc),
                 QStringLiteral("%1 bytes skipped, 1 frame skipped, 0 recovered").arg(bytes));
        QVERIFY2(damageDiagnostic(*doc).startsWith(
                     QStringLiteral("damage: %1 bytes skipped, 1 frame skipped, 0 frames "
                                    "recovered (")
                         .arg(bytes)),
                 qPrintable(damageDiagnostic(*doc)));
        QCOMPARE(damageFact(*doc), QStringLiteral("%1 bytes skipped, 1 frame skipped, 0 recovered")
                                       .arg(QLocale().toString(bytes)));
    }

    void oneFrameRecovered() {
        const QString file = fixturePath(QStringLiteral("header-rewritten.lct"));
        QString error;
        const auto doc = TraceLoader::load(file, &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->recoveredFrames(), 1);
        const QString diag = damageDiagnostic(*doc);
        QVERIFY2(diag.contains(QStringLiteral(" frames skipped, 1 frame recovered (")) ||
                     diag.contains(QStringLiteral(" frame skipped, 1 frame recovered (")),
                 qPrintable(diag));
        QVERIFY2(!diag.contains(QStringLiteral("1 frames")), qPrintable(diag));
        QVERIFY2(!infoDamageLine(file, *doc).contains(QStringLiteral("1 frames")),
                 qPrintable(infoDamageLine(file, *doc)));
    }
};

QTEST_GUILESS_MAIN(TestPlural)
#include "tst_plural.moc"
