// CapacitySpec: chunk counts, every size suffix (binary and decimal, case ignored), decimal sizes
// (rounded to the nearest whole byte, halves up), spaces, lists, and the refusals (empty, zero,
// negative, past 2^64, fractional counts, garbage) with messages naming the position, what was
// expected and found.

#include "whatif/capacityspec.h"

#include <QtTest>

using namespace lmct;

namespace {

/** parse() that must fail: its message. */
QString parseError(const QString &text) {
    QString error;
    const auto spec = CapacitySpec::parse(text, &error);
    if (spec) {
        qWarning("'%s' parsed as %llu", qPrintable(text), spec->value);
        return {};
    }
    return error;
}

QString listError(const QString &text) {
    QString error;
    const auto list = CapacitySpec::parseList(text, &error);
    if (list) {
        qWarning("'%s' parsed as a list of %zu", qPrintable(text), list->size());
        return {};
    }
    return error;
}

}  // namespace

class TestCapacitySpec : public QObject {
    Q_OBJECT
private slots:
    void counts_data();
    void counts();
    void sizes_data();
    void sizes();
    void refusals_data();
    void refusals();
    void lists();
    void listRefusalsNameTheItemAndPosition_data();
    void listRefusalsNameTheItemAndPosition();
    void chunksOfASize();
    void errorPointerMayBeNull();
};

void TestCapacitySpec::counts_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<quint64>("value");
    QTest::newRow("one") << "1" << quint64(1);
    QTest::newRow("1024") << "1024" << quint64(1024);
    QTest::newRow("leading zeros") << "007" << quint64(7);
    QTest::newRow("spaces around") << "  4096 \t" << quint64(4096);
    QTest::newRow("2^64 - 1") << "18446744073709551615" << quint64(18446744073709551615ull);
}

void TestCapacitySpec::counts() {
    QFETCH(QString, text);
    QFETCH(quint64, value);
    QString error;
    const auto spec = CapacitySpec::parse(text, &error);
    QVERIFY2(spec, qPrintable(error));
    QVERIFY(!spec->bytes);
    QCOMPARE(spec->value, value);
    QVERIFY(error.isEmpty());
}

void TestCapacitySpec::sizes_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<quint64>("bytes");
    const quint64 Ki = 1024, Mi = Ki * 1024, Gi = Mi * 1024, Ti = Gi * 1024;
    QTest::newRow("B") << "4096B" << quint64(4096);
    QTest::newRow("b lower") << "4096b" << quint64(4096);
    QTest::newRow("KiB") << "2KiB" << 2 * Ki;
    QTest::newRow("MiB") << "512MiB" << 512 * Mi;
    QTest::newRow("GiB") << "48GiB" << 48 * Gi;
    QTest::newRow("TiB") << "3TiB" << 3 * Ti;
    QTest::newRow("KB") << "2KB" << quint64(2000);
    QTest::newRow("MB") << "5MB" << quint64(5000000);
    QTest::newRow("GB") << "7GB" << quint64(7000000000ull);
    QTest::newRow("TB") << "2TB" << quint64(2000000000000ull);
    QTest::newRow("gib lower") << "48gib" << 48 * Gi;
    QTest::newRow("GIB upper") << "48GIB" << 48 * Gi;
    QTest::newRow("Gb mixed: decimal") << "1Gb" << quint64(1000000000);
    QTest::newRow("kib lower") << "3kib" << 3 * Ki;
    QTest::newRow("1.5GiB") << "1.5GiB" << Gi + Gi / 2;
    QTest::newRow("1.5 GB with a space") << "1.5 GB" << quint64(1500000000);
    QTest::newRow("spaces around, one before the suffix") << "  1.5 GiB  " << Gi + Gi / 2;
    QTest::newRow("a tab before the suffix") << "48\tGiB" << 48 * Gi;
    QTest::newRow("0.25KiB") << "0.25KiB" << quint64(256);
    QTest::newRow("4096.000B") << "4096.000B" << quint64(4096);
    QTest::newRow("0.001KB") << "0.001KB" << quint64(1);
    QTest::newRow("1.000000001GB") << "1.000000001GB" << quint64(1000000001);
    QTest::newRow("0.0009765625MiB") << "0.0009765625MiB" << Ki;
    QTest::newRow("2^64 - 1 B") << "18446744073709551615B" << quint64(18446744073709551615ull);
    QTest::newRow("16777215TiB") << "16777215TiB" << 16777215 * Ti;
    // Not whole bytes: to the nearest byte, halves up (the viewer writes "1.84 GiB").
    QTest::newRow("1.84 GiB as the viewer writes it")
        << "1.84 GiB" << quint64(1975684956);  // 1975684956.16
    QTest::newRow("1.5B half up") << "1.5B" << quint64(2);
    QTest::newRow("2.5B half up") << "2.5B" << quint64(3);
    QTest::newRow("1.49B down") << "1.49B" << quint64(1);
    QTest::newRow("0.5B up to one") << "0.5B" << quint64(1);
    QTest::newRow("1.0001KB") << "1.0001KB" << quint64(1000);        // 1000.1
    QTest::newRow("1.0005KB") << "1.0005KB" << quint64(1001);        // 1000.5
    QTest::newRow("0.1GiB") << "0.1GiB" << quint64(107374182);       // 107374182.4
    QTest::newRow("0.3GiB") << "0.3GiB" << quint64(322122547);       // 322122547.2
    QTest::newRow("2.54 GiB") << "2.54 GiB" << quint64(2727304233);  // 2727304232.96
    // every digit counts: .4999…9 stays below the half, .5000…1 above
    QTest::newRow("just under a half") << "1.4999999999999999999999999999999B" << quint64(1);
    QTest::newRow("just over a half") << "0.50000000000000000000000000000001B" << quint64(1);
    QTest::newRow("many decimals") << "1.0000000000000000000000001GB" << quint64(1000000000);
    QTest::newRow("a half of the last byte")
        << "18446744073709551614.5B" << quint64(18446744073709551615ull);
}

void TestCapacitySpec::sizes() {
    QFETCH(QString, text);
    QFETCH(quint64, bytes);
    QString error;
    const auto spec = CapacitySpec::parse(text, &error);
    QVERIFY2(spec, qPrintable(error));
    QVERIFY(spec->bytes);
    QCOMPARE(spec->value, bytes);
}

void TestCapacitySpec::refusals_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << ""
                           << "empty capacity at 1: expected a count or a size such as 48GiB";
    QTest::newRow("only spaces") << "   "
                                 << "empty capacity at 1: expected a count or a size such as 48GiB";
    QTest::newRow("zero") << "0"
                          << "'0' at 1: expected a capacity above zero, found 0";
    QTest::newRow("zero bytes") << "0GiB"
                                << "'0GiB' at 1: expected a capacity above zero, found 0 GiB";
    QTest::newRow("0.0 MiB") << "0.0MiB"
                             << "'0.0MiB' at 1: expected a capacity above zero, found 0.0 MiB";
    QTest::newRow("negative") << "-5"
                              << "'-5' at 1: expected a capacity above zero, found a negative "
                                 "number";
    QTest::newRow("negative size")
        << " -1GiB"
        << "'-1GiB' at 2: expected a capacity above zero, found a negative number";
    QTest::newRow("2^64")
        << "18446744073709551616"
        << "'18446744073709551616' at 1: expected at most 18446744073709551615 (2^64 - 1), found "
           "18446744073709551616";
    QTest::newRow("far past 2^64")
        << "999999999999999999999999999999"
        << "'999999999999999999999999999999' at 1: expected at most 18446744073709551615 (2^64 "
           "- 1), found 999999999999999999999999999999";
    QTest::newRow("2^64 bytes as GiB")
        << "17179869184GiB"
        << "'17179869184GiB' at 1: expected at most 18446744073709551615 (2^64 - 1), found "
           "17179869184 GiB";
    QTest::newRow("2^64 B")
        << "18446744073709551616B"
        << "'18446744073709551616B' at 1: expected at most 18446744073709551615 (2^64 - 1), "
           "found 18446744073709551616 B";
    QTest::newRow("unknown suffix")
        << "48XB"
        << "'48XB' at 3: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or TB), found "
           "'XB'";
    QTest::newRow("suffix with trailing garbage")
        << "48GiBs"
        << "'48GiBs' at 3: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or TB), "
           "found 'GiBs'";
    QTest::newRow("K alone")
        << "4K"
        << "'4K' at 2: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or TB), "
           "found 'K'";
    QTest::newRow("space inside the number")
        << "1 024"
        << "'1 024' at 3: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or "
           "TB), found '024'";
    QTest::newRow("two spaces before the suffix")
        << "48  GiB"
        << "'48  GiB' at 4: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or TB) "
           "after at most one space, found another space";
    QTest::newRow("a space and a tab before the suffix")
        << " 1.5 \tGB"
        << "'1.5 ?GB' at 6: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or TB) "
           "after at most one space, found another space";
    QTest::newRow("letters") << "abc"
                             << "'abc' at 1: expected a count or a size such as 48GiB, found 'a'";
    QTest::newRow("suffix only")
        << "GiB"
        << "'GiB' at 1: expected a count or a size such as 48GiB, found 'G'";
    QTest::newRow("plus sign") << "+5"
                               << "'+5' at 1: expected a count or a size such as 48GiB, found '+'";
    QTest::newRow("leading point")
        << ".5GiB"
        << "'.5GiB' at 1: expected a count or a size such as 48GiB, found '.'";
    QTest::newRow("point without digits")
        << "1.GiB"
        << "'1.GiB' at 3: expected a digit after the decimal point, found 'G'";
    QTest::newRow("point at the end")
        << "1."
        << "'1.' at 3: expected a digit after the decimal point, found the end";
    QTest::newRow("two points")
        << "1..5GiB"
        << "'1..5GiB' at 3: expected a digit after the decimal point, found '.'";
    QTest::newRow("fractional count")
        << "1.5"
        << "'1.5' at 1: expected a whole chunk count (or a size such as 1.5GiB), found 1.5";
    QTest::newRow("rounds to zero bytes")
        << "0.4B"
        << "'0.4B' at 1: expected a capacity above zero, found 0.4 B";
    QTest::newRow("a half past 2^64 - 1")
        << "18446744073709551615.5B"
        << "'18446744073709551615.5B' at 1: expected at most 18446744073709551615 (2^64 - 1), "
           "found 18446744073709551615.5 B";
    QTest::newRow("exponent") << "1e9"
                              << "'1e9' at 2: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, "
                                 "MB, GB or TB), found 'e9'";
    QTest::newRow("hex") << "0x10"
                         << "'0x10' at 2: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, "
                            "GB or TB), found 'x10'";
    QTest::newRow("control character shown as ?")
        << QStringLiteral("4\x1b[31m")
        << "'4?[31m' at 2: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or TB), "
           "found '?[31m'";
    QTest::newRow("a list is not one capacity")
        << "1,2"
        << "'1,2' at 2: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, GB or TB), "
           "found ',2'";
}

void TestCapacitySpec::refusals() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    QCOMPARE(parseError(text), message);
}

void TestCapacitySpec::lists() {
    QString error;
    const auto list = CapacitySpec::parseList(QStringLiteral("1024, 48GiB ,1.5 GB,7"), &error);
    QVERIFY2(list, qPrintable(error));
    QCOMPARE(list->size(), size_t(4));
    QCOMPARE((*list)[0].value, quint64(1024));
    QVERIFY(!(*list)[0].bytes);
    QCOMPARE((*list)[1].value, quint64(48) << 30);
    QVERIFY((*list)[1].bytes);
    QCOMPARE((*list)[2].value, quint64(1500000000));
    QVERIFY((*list)[2].bytes);
    QCOMPARE((*list)[3].value, quint64(7));
    QVERIFY(!(*list)[3].bytes);

    const auto one = CapacitySpec::parseList(QStringLiteral("8"), &error);
    QVERIFY(one);
    QCOMPARE(one->size(), size_t(1));
    QCOMPARE(one->front().value, quint64(8));

    // Order and repeats are kept as written (the caller sorts).
    const auto repeated = CapacitySpec::parseList(QStringLiteral("4,2,4"), &error);
    QVERIFY(repeated);
    QCOMPARE(repeated->size(), size_t(3));
    QCOMPARE((*repeated)[0].value, quint64(4));
    QCOMPARE((*repeated)[1].value, quint64(2));
    QCOMPARE((*repeated)[2].value, quint64(4));
}

void TestCapacitySpec::listRefusalsNameTheItemAndPosition_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty list") << ""
                                << "empty capacity at 1: expected a count or a size such as 48GiB";
    QTest::newRow("empty item") << "1024,,2048"
                                << "empty capacity at 6: expected a count or a size such as 48GiB";
    QTest::newRow("blank item") << "1024, ,2048"
                                << "empty capacity at 6: expected a count or a size such as 48GiB";
    QTest::newRow("trailing comma")
        << "1024,"
        << "empty capacity at 6: expected a count or a size such as 48GiB";
    QTest::newRow("leading comma")
        << ",1024"
        << "empty capacity at 1: expected a count or a size such as 48GiB";
    QTest::newRow("bad third item")
        << "1,2GiB, 48XB"
        << "'48XB' at 11: expected a size suffix (B, KiB, MiB, GiB, TiB, KB, MB, "
           "GB or TB), found 'XB'";
    QTest::newRow("zero in a list") << "8, 0"
                                    << "'0' at 4: expected a capacity above zero, found 0";
    QTest::newRow("negative in a list")
        << "8,-8"
        << "'-8' at 3: expected a capacity above zero, found a negative number";
    QTest::newRow("overflow in a list")
        << "1,20000000000000000000"
        << "'20000000000000000000' at 3: expected at most 18446744073709551615 (2^64 - 1), found "
           "20000000000000000000";
    QTest::newRow("fraction in a list")
        << "1GiB,0.3B"
        << "'0.3B' at 6: expected a capacity above zero, found 0.3 B";
}

void TestCapacitySpec::listRefusalsNameTheItemAndPosition() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    QCOMPARE(listError(text), message);
}

void TestCapacitySpec::chunksOfASize() {
    const quint64 perChunk = quint64(36) << 20;  // [2,36,256,1024] bf16: 36 MiB
    const ChunkSize one(100, 100 * perChunk, perChunk, perChunk);
    CapacitySpec size{quint64(48) << 30, true};
    QCOMPARE(size.chunks(one), quint64((quint64(48) << 30) / perChunk));  // rounds down
    QCOMPARE(size.chunks(one), quint64(1365));
    CapacitySpec small{1000, true};
    QCOMPARE(size.chunks(one), one.chunksFor(size.value));  // ChunkSize's rule
    QCOMPARE(small.chunks(one), quint64(1));                // at least one chunk
    CapacitySpec exact{quint64(4) * perChunk, true};
    QCOMPARE(exact.chunks(one), quint64(4));
    CapacitySpec count{1024, false};
    QCOMPARE(count.chunks(one), quint64(1024));  // a count is the count
    QCOMPARE(count.chunks(ChunkSize()), quint64(1024));
    // a size without key sizes has no chunk count
    QCOMPARE(size.chunks(ChunkSize()), std::optional<quint64>());
}

void TestCapacitySpec::errorPointerMayBeNull() {
    QVERIFY(!CapacitySpec::parse(QStringLiteral("nonsense")));
    QVERIFY(!CapacitySpec::parseList(QStringLiteral("1,,2")));
    QVERIFY(CapacitySpec::parse(QStringLiteral("2MiB")));
    QVERIFY(CapacitySpec::parseList(QStringLiteral("1,2")));
}

QTEST_APPLESS_MAIN(TestCapacitySpec)
#include "tst_capacityspec.moc"
