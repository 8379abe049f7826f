// The `lmct` command line: the JSON shape of `info --json` (its values against truth files are
// tst_conformance's), refusals and exit codes.

#include "testutil.h"
#include "util/utf8argument.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace lmct::test;

namespace {

using Run = ProcessRun;

const QSet<QString> kRequiredKeys = {"file",       "ok",        "error",       "header", "records",
                                     "duration_s", "qualnames", "diagnostics", "config"};

/** Top-level keys the JSON shape comment of model/trace/traceinfo.h documents (`key` (type)). */
QSet<QString> documentedKeys() {
    const QString h =
        QString::fromUtf8(readAll(QStringLiteral(LMCT_SOURCE_DIR "/model/trace/traceinfo.h")));
    const qsizetype start = h.indexOf(QLatin1String("JSON shape"));
    const qsizetype end = h.indexOf(QLatin1String("*/"), start);
    QSet<QString> keys;
    if (start < 0 || end < 0) {
        return keys;
    }
    // One line of text: drop the comment's line breaks and leading stars.
    const QString shape =
        h.mid(start, end - start)
            .replace(QRegularExpression(QStringLiteral("\\s*\\n\\s*\\*\\s*")), QStringLiteral(" "));
    static const QRegularExpression re(QStringLiteral("`([a-z_]+)` \\("));
    for (auto it = re.globalMatch(shape); it.hasNext();) {
        keys.insert(it.next().captured(1));
    }
    return keys;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void argumentsThatAreNotUtf8AreSaid() {
        // Regression: a trace named "latin1_\xe9.lct" gave "no such file" (exit 2) in lmct
        // and in the viewer: Qt reads arguments and file names as UTF-8, so the name arrives
        // with U+FFFD in it. Such an argument is now said to be what it is, and what to do.
        using lmct::Utf8Argument;
        QVERIFY(Utf8Argument::problem("plain.lct").isEmpty());
        QVERIFY(Utf8Argument::problem("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80.lct").isEmpty());
        const QString p = Utf8Argument::problem("latin1_\xe9.lct");
        QVERIFY2(p.contains(QStringLiteral("\"latin1_\\xe9.lct\" is not valid UTF-8")),
                 qPrintable(p));
        QVERIFY2(p.contains(QStringLiteral("byte 0xe9 at position 7")), qPrintable(p));
        QVERIFY2(p.contains(QStringLiteral("symbolic link")), qPrintable(p));
        // the first bad byte after valid multi-byte characters, and a sequence cut at the end
        QVERIFY(Utf8Argument::problem("\xc3\xa9\xe2\x82\xac\xff")
                    .contains(QStringLiteral("byte 0xff at position 5")));
        QVERIFY(Utf8Argument::problem("ab\xe2\x82")
                    .contains(QStringLiteral("byte 0xe2 at position 2")));
        // a long one is shown cut (a 60 KB argument made a dialog run off the screen)
        const QByteArray longArg = QByteArray(60000, 'a') + "\xff";
        const QString cut = Utf8Argument::problem(longArg.constData());
        QVERIFY2(cut.size() < 700 && cut.contains(QStringLiteral("… (60001 bytes)")) &&
                     cut.contains(QStringLiteral("byte 0xff at position 60000")),
                 qPrintable(cut.left(800)));
        // a terminal escape in such a name is not passed through
        QVERIFY(!Utf8Argument::problem("\x1b[31m\xe9").contains(QChar(0x1b)));

        // lmct says it and exits 2 (QProcess passes arguments as UTF-8: a shell gives the bytes)
        QTemporaryDir dir;
        QFile f(dir.path() + QStringLiteral("/t"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(smallTrace(2).bytes);
        f.close();
        QProcess sh;
        sh.setWorkingDirectory(dir.path());
        sh.start(QStringLiteral("/bin/sh"),
                 {QStringLiteral("-c"),
                  QStringLiteral("n=$(printf 'latin1_\\351.lct'); mv t \"$n\"; \"%1\" info \"$n\"")
                      .arg(lmctPath())});
        QVERIFY(sh.waitForFinished(30000));
        const QString err = QString::fromUtf8(sh.readAllStandardError());
        QCOMPARE(sh.exitCode(), 2);
        QVERIFY2(err.contains(QStringLiteral("\"latin1_\\xe9.lct\" is not valid UTF-8")),
                 qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("no such file")), qPrintable(err));
    }

    void longQualnamesAreCapped() {
        // Regression: `lmct info` printed all 52 MB of a 50 MB qualname.
        const QString name = QStringLiteral("lmcache.") + QString(5000, QLatin1Char('Q'));
        QByteArray b = frame(headerBody());
        b += frame(recordBody(0.5, 1.7e9, name, keysArgs(1)));
        QTemporaryDir dir;
        const Run r = runLmct({QStringLiteral("info"), writeFile(dir, QStringLiteral("q.lct"), b)});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.size() < 2000, r.out.left(300).constData());
        QVERIFY2(r.out.contains("(5008 characters)"), r.out.constData());
    }

    void terminalControlsAreEscaped() {
        // A hostile qualname ("lmcache.<U+202E>evil<NUL><ESC>[31mred") reached the terminal raw in
        // `lmct info` and `lmct dump` (recolouring it, reversing the line), and so did a file
        // name with a newline and an escape in refusal messages. Both print escaped.
        const QString hostile =
            QStringLiteral("lmcache.\u202eevil") + QChar(0) + QStringLiteral("\x1b[31mred");
        QByteArray b = frame(headerBody());
        b += frame(recordBody(0.5, 1.7e9, hostile, keysArgs(1)));
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("ctrl.lct"), b);
        auto clean = [](const QByteArray &bytes) {
            return !bytes.contains('\x1b') && !bytes.contains('\0') &&
                   !bytes.contains(QStringLiteral("\u202e").toUtf8());
        };
        for (const QStringList &cmd :
             {QStringList{QStringLiteral("info"), path}, QStringList{QStringLiteral("dump"), path},
              QStringList{QStringLiteral("stats"), path}}) {
            const Run r = runLmct(cmd);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(clean(r.out), r.out.constData());
            QVERIFY2(r.out.contains("\\u{202e}evil\\x00\\x1b[31mred"), r.out.constData());
        }
        // JSON keeps the string as it is (JSON escapes the controls itself).
        const Run json = runLmct({QStringLiteral("info"), QStringLiteral("--json"), path});
        QVERIFY(json.jsonLines().first()[QStringLiteral("qualnames")].toObject().contains(hostile));
        // A refused file whose name has a newline and an escape sequence.
        const QString badName = writeFile(dir, QStringLiteral("name\nwith\x1b[31mesc.lct"), "xx");
        const Run refused = runLmct({QStringLiteral("info"), badName});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(clean(refused.err), refused.err.constData());
        QVERIFY2(refused.err.contains("name\\x0awith\\x1b[31mesc.lct"), refused.err.constData());
        QCOMPARE(refused.err.count('\n'), 1);
    }

    void regression_statsColumnsAlignOnWideAndEscapedNames() {
        // A model name with wide (CJK) characters took two terminal columns each but was padded
        // as one, so its row's figures stood two columns right of the others'.
        Mp wide, esc;
        wide.map(1).str("keys").arr(1).raw(objectKey(1, 0, "模型/Qwen3-8B"));
        esc.map(1).str("keys").arr(1).raw(objectKey(2, 0, "Qw\x1b\x07/en\u202e-8B"));
        QByteArray b = frame(headerBody());
        b += frame(recordBody(0.5, 1.7e9, storageQualname("finish_write"), wide.bytes));
        b += frame(recordBody(0.6, 1.7e9, storageQualname("finish_write"), esc.bytes));
        b += frame(recordBody(0.7, 1.7e9, storageQualname("finish_write"), keysArgs(1)));
        QTemporaryDir dir;
        const Run r =
            runLmct({QStringLiteral("stats"), writeFile(dir, QStringLiteral("w.lct"), b)});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
        const qsizetype head = lines.indexOf(QStringLiteral("Models"));
        QVERIFY(head >= 0);
        // every row of the Models table ends at the same terminal column (wide characters: 2)
        QSet<qsizetype> ends;
        for (qsizetype i = head + 1; i < lines.size() && !lines[i].isEmpty(); ++i) {
            ends.insert(lines[i].size() + lines[i].count(QStringLiteral("模")) +
                        lines[i].count(QStringLiteral("型")));
        }
        QCOMPARE(ends.size(), 1);
        QVERIFY(r.out.contains("Qw\\x1b\\x07/en\\u{202e}-8B"));
    }

    void regression_keysColumnsAlignOnLongNames() {
        // The header stood one column right of the rows (the hash column was 18 wide, its
        // heading 19), and a model name past 34 columns pushed its row's figures right.
        Mp longName, plain;
        longName.map(1).str("keys").arr(1).raw(
            objectKey(1, 0, "meta-llama/Llama-3.1-8B-Instruct-with-a-long-suffix-日本語"));
        plain.map(1).str("keys").arr(1).raw(objectKey(2, 0, "Qwen/Qwen3-8B"));
        QByteArray b = frame(headerBody());
        b += frame(recordBody(0.5, 1.7e9, storageQualname("finish_write"), longName.bytes));
        b += frame(recordBody(0.6, 1.7e9, storageQualname("finish_write"), plain.bytes));
        QTemporaryDir dir;
        const Run r = runLmct({QStringLiteral("keys"), writeFile(dir, QStringLiteral("k.lct"), b)});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'));
        qsizetype head = -1;
        for (qsizetype i = 0; i < lines.size() && head < 0; ++i) {
            if (lines[i].startsWith(QLatin1String("CHUNK HASH"))) {
                head = i;
            }
        }
        QVERIFY(head >= 0);
        // the last column (STATE) starts at one terminal column on the heading and every row
        auto lastColumn = [](const QString &line) {
            const qsizetype at = line.lastIndexOf(QLatin1Char(' ')) + 1;
            return at + line.left(at).count(QStringLiteral("日")) +
                   line.left(at).count(QStringLiteral("本")) +
                   line.left(at).count(QStringLiteral("語"));
        };
        QSet<qsizetype> starts{lastColumn(lines[head])};
        for (qsizetype i = head + 1; i < lines.size() && !lines[i].isEmpty(); ++i) {
            starts.insert(lastColumn(lines[i]));
        }
        QCOMPARE(starts.size(), 1);
        // and the model column starts where its heading does
        QCOMPARE(lines[head].indexOf(QLatin1String("MODEL")),
                 lines[head + 1].indexOf(QLatin1String("meta-llama")) >= 0
                     ? lines[head + 1].indexOf(QLatin1String("meta-llama"))
                     : lines[head + 1].indexOf(QLatin1String("Qwen/")));
    }

    void initTestCase() {
        QVERIFY2(QFile::exists(QStringLiteral(LMCT_BIN_DIR "/lmct")), "build the lmct target");
        const QSet<QString> doc = documentedKeys();
        QVERIFY2(doc.contains(kRequiredKeys), "traceinfo.h documents the required keys");
    }

    void regression_jsonKeysAreDocumented() {
        // `lmct info --json` wrote `digest` and `partial`, which traceinfo.h did not document.
        // Every key must be one of the required eight or documented there.
        const QSet<QString> documented = documentedKeys();
        for (const QString &f : {tracePath(QStringLiteral("schema2-prefetch-spec-tp2.lct")),
                                 fixturePath(QStringLiteral("empty.lct"))}) {
            const Run r = runLmct({QStringLiteral("info"), QStringLiteral("--json"), f});
            const auto lines = r.jsonLines();
            QCOMPARE(lines.size(), 1);
            const QStringList keys = lines.first().keys();
            const QSet<QString> have(keys.begin(), keys.end());
            QVERIFY2(have.contains(kRequiredKeys), qPrintable(keys.join(u' ')));
            for (const QString &k : have) {
                QVERIFY2(kRequiredKeys.contains(k) || documented.contains(k),
                         qPrintable(QStringLiteral("undocumented key %1").arg(k)));
            }
        }
    }

    // Issue: `--json` prints "exactly these keys"; the extra facts need --details. The damage
    // counts are also a "damage" diagnostic, so plain --json reports them too.
    void infoJsonHasExactlyTheRequiredKeysAndDetailsOnRequest() {
        const QString f = tracePath(QStringLiteral("malformed-record.lmct"));
        const Run plain = runLmct({QStringLiteral("info"), QStringLiteral("--json"), f});
        QCOMPARE(plain.exitCode, 0);
        const QJsonObject j = plain.jsonLines().first();
        const QStringList keys = j.keys();
        QCOMPARE(QSet<QString>(keys.begin(), keys.end()), kRequiredKeys);
        // The generator knows the damaged frame's size.
        const int skipped = traceManifest()[QStringLiteral("malformed-record.lmct")]
                                .toObject()[QStringLiteral("damage")]
                                .toObject()[QStringLiteral("skipped_bytes")]
                                .toInt();
        QVERIFY(skipped > 0);
        bool damage = false;
        for (const QJsonValue &d : j[QStringLiteral("diagnostics")].toArray()) {
            if (d.toObject()[QStringLiteral("kind")].toString() == QLatin1String("damage")) {
                damage = true;
                QVERIFY(d.toObject()[QStringLiteral("message")].toString().contains(
                    QStringLiteral("%1 bytes skipped, 1 frame skipped").arg(skipped)));
            }
        }
        QVERIFY(damage);
        const Run detailed = runLmct(
            {QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--details"), f});
        const QJsonObject d = detailed.jsonLines().first();
        QCOMPARE(d[QStringLiteral("digest")].toString(), QStringLiteral("match"));
        QCOMPARE(d[QStringLiteral("partial")].toBool(true), false);
        const QJsonObject dmg = d[QStringLiteral("damage")].toObject();
        QCOMPARE(dmg[QStringLiteral("skipped_bytes")].toInt(), skipped);
        QCOMPARE(dmg[QStringLiteral("skipped_frames")].toInt(), 1);
        QCOMPARE(dmg[QStringLiteral("recovered_frames")].toInt(), 0);
    }

    void infoJsonSeveralFiles() {
        QStringList files;
        for (const char *f :
             {"schema1-trimpolicy-tp2.lct", "header-only.lmct", "events-level.lmct"}) {
            files.append(tracePath(QString::fromLatin1(f)));
        }
        const Run r =
            runLmct(QStringList{QStringLiteral("info"), QStringLiteral("--json")} + files);
        QCOMPARE(r.exitCode, 0);
        const auto lines = r.jsonLines();
        QCOMPARE(lines.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(lines[i][QStringLiteral("file")].toString(), files[i]);
        }
        QCOMPARE(lines[1][QStringLiteral("records")].toInt(), 0);
        QCOMPARE(lines[2][QStringLiteral("header")].toObject()[QStringLiteral("level")].toString(),
                 QStringLiteral("events"));
    }

    void refusedFiles_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << "empty.lct"
                               << "empty";
        QTest::newRow("not a trace") << "not-a-trace.bin"
                                     << "not";
        QTest::newRow("bad magic") << "bad-magic.lct"
                                   << "LMCX";
        QTest::newRow("format version") << "format-version-2.lct"
                                        << "format_version";
        QTest::newRow("first frame a record") << "first-frame-record.lct"
                                              << "record";
    }
    void refusedFiles() {
        QFETCH(QString, name);
        QFETCH(QString, reason);
        const QString path = fixturePath(name);
        Run r = runLmct({QStringLiteral("info"), path});
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(path) && err.contains(reason), qPrintable(err));
        QVERIFY2(err.contains(QRegularExpression(QStringLiteral("offset \\d+"))), qPrintable(err));

        r = runLmct({QStringLiteral("info"), QStringLiteral("--json"), path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(QString::fromUtf8(r.err).contains(reason));
        const auto lines = r.jsonLines();
        QCOMPARE(lines.size(), 1);
        const QJsonObject j = lines.first();
        QCOMPARE(j[QStringLiteral("ok")].toBool(true), false);
        QVERIFY(j[QStringLiteral("error")].toString().contains(reason));
        // Unknown numbers are null, not 0 (a refused file has no record count or duration).
        QVERIFY(j[QStringLiteral("records")].isNull());
        QVERIFY(j[QStringLiteral("duration_s")].isNull());
        const QStringList keys = j.keys();
        QVERIFY(QSet<QString>(keys.begin(), keys.end()).contains(kRequiredKeys));
    }

    void refusedAmongGoodFiles() {
        const QString good = tracePath(QStringLiteral("header-only.lmct"));
        const QString bad = fixturePath(QStringLiteral("not-a-trace.bin"));
        const Run r = runLmct({QStringLiteral("info"), QStringLiteral("--json"), bad, good});
        QCOMPARE(r.exitCode, 2);
        const auto lines = r.jsonLines();
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0][QStringLiteral("ok")].toBool(true), false);
        QCOMPARE(lines[1][QStringLiteral("ok")].toBool(false), true);
        const Run missing = runLmct({QStringLiteral("info"), QStringLiteral("/nonexistent.lct")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("/nonexistent.lct"));
    }

    void symlinkLoopIsNamed() {
        // Regression: `lmct info loop1` on two symlinks pointing at each other said "no such file".
        QTemporaryDir dir;
        const QString loop1 = dir.filePath(QStringLiteral("loop1"));
        const QString loop2 = dir.filePath(QStringLiteral("loop2"));
        QVERIFY(QFile::link(loop1, loop2));
        QVERIFY(QFile::link(loop2, loop1));
        const Run r = runLmct({QStringLiteral("info"), loop1});
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(QStringLiteral("lmct info: %1: cannot open: the symbolic links "
                                               "loop (")
                                    .arg(loop1)),
                 qPrintable(err));
        QVERIFY2(!err.contains(QLatin1String("no such file")), qPrintable(err));
        // A missing file is still "no such file".
        const Run missing = runLmct({QStringLiteral("info"), dir.filePath(QStringLiteral("x"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("no such file"), missing.err.constData());
    }

    void infoText() {
        const QString f = tracePath(QStringLiteral("schema1-trimpolicy-tp2.lct"));
        const QJsonObject truth = readJson(f + QStringLiteral(".truth.json"));
        const Run r = runLmct({QStringLiteral("info"), f});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.startsWith(f));
        QVERIFY2(
            out.contains(QRegularExpression(QStringLiteral("total records:\\s+%1\\n")
                                                .arg(truth[QStringLiteral("records")].toInt()))),
            qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("%1 s").arg(
                     truth[QStringLiteral("duration_s")].toDouble(), 0, 'f', 6)),
                 qPrintable(out));
        const QJsonObject q = truth[QStringLiteral("qualnames")].toObject();
        for (auto it = q.begin(); it != q.end(); ++it) {
            QVERIFY2(
                out.contains(QRegularExpression(QStringLiteral("\\s%1 %2\\n")
                                                    .arg(it.value().toInt())
                                                    .arg(QRegularExpression::escape(it.key())))),
                qPrintable(it.key()));
        }
        QVERIFY(out.contains(QLatin1String("trace_schema_version:")));
        QVERIFY(out.contains(truth[QStringLiteral("header")]
                                 .toObject()[QStringLiteral("sm_config_digest")]
                                 .toString()));
    }

    void infoTextWallStartThatIsNoDate() {
        // t_wall_start 1.7e308 is no date: the text prints the number (compact) and says so
        // instead of leaving the line blank; JSON keeps the raw number.
        QByteArray header = headerBody();
        QByteArray normal(8, '\0'), huge(8, '\0');
        qToBigEndian(1760000000.25, normal.data());
        qToBigEndian(1.7e308, huge.data());
        QCOMPARE(header.count(normal), 1);
        header.replace(normal, huge);
        QTemporaryDir dir;
        const QString f = dir.filePath(QStringLiteral("huge-wall-start.lct"));
        QFile out(f);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(frame(header) + frame(recordBody(0.5, 1760000000.5,
                                                   storageQualname("reserve_write"), keysArgs(1))));
        out.close();
        const Run r = runLmct({QStringLiteral("info"), f});
        QCOMPARE(r.exitCode, 0);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral(
                     "\\n  t_wall_start:\\s+1\\.7e\\+308 \\(not a valid date\\)\\n"))),
                 qPrintable(text));
        const Run j = runLmct({QStringLiteral("info"), QStringLiteral("--json"), f});
        QCOMPARE(j.exitCode, 0);
        const auto lines = j.jsonLines();
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines.first()[QStringLiteral("header")]
                     .toObject()[QStringLiteral("t_wall_start")]
                     .toDouble(),
                 1.7e308);
    }

    void damagedTraceIsWarnedOf_data() {
        QTest::addColumn<QStringList>("args");
        for (const char *command : {"dump", "stats", "keys", "anomalies", "whatif"}) {
            QTest::addRow("%s", command) << QStringList{command};
        }
        QTest::newRow("dump --jsonl") << QStringList{"dump", "--jsonl"};
        QTest::newRow("dump --csv") << QStringList{"dump", "--csv"};
        QTest::newRow("stats --json") << QStringList{"stats", "--json"};
        QTest::newRow("stats --csv") << QStringList{"stats", "--csv"};
        QTest::newRow("keys --json") << QStringList{"keys", "--json"};
        QTest::newRow("anomalies --json") << QStringList{"anomalies", "--json"};
        QTest::newRow("whatif --json") << QStringList{"whatif", "--json"};
    }
    void damagedTraceIsWarnedOf() {
        // Regression: dump, stats, keys and anomalies said nothing of a truncated trace (compare
        // and whatif did). Each says it in one line on stderr, in the words of `lmct compare`;
        // standard output and the exit code are those of the same trace without the cut record.
        QFETCH(QStringList, args);
        const int n = 40;
        const SmallTrace t = smallTrace(n);
        const QByteArray cutBytes = t.bytes.left(t.bytes.size() - 5);
        const qint64 lost = cutBytes.size() - t.frameStarts[n - 1];
        QTemporaryDir cutDir, wholeDir;
        const QString cut = writeFile(cutDir, QStringLiteral("t.lct"), cutBytes);
        const QString whole =
            writeFile(wholeDir, QStringLiteral("t.lct"), t.bytes.left(t.frameStarts[n - 1]));
        const Run damaged = runLmct(QStringList(args) << cut);
        const Run intact = runLmct(QStringList(args) << whole);
        QCOMPARE(intact.exitCode, 0);
        QVERIFY2(intact.err.isEmpty(), intact.err.constData());
        QCOMPARE(damaged.exitCode, intact.exitCode);
        QCOMPARE(QString::fromUtf8(damaged.err),
                 QStringLiteral("lmct %1: warning: t.lct is damaged: its last record cut short "
                                "(%2 bytes skipped); its figures cover the %3 records read\n")
                     .arg(args.first())
                     .arg(lost)
                     .arg(n - 1));
        QVERIFY(!intact.out.isEmpty());
        QCOMPARE(QByteArray(damaged.out).replace(cut.toUtf8(), whole.toUtf8()), intact.out);

        // frames skipped inside the file
        const Run skipped =
            runLmct(QStringList(args) << tracePath(QStringLiteral("malformed-record.lmct")));
        QCOMPARE(skipped.exitCode, 0);
        QVERIFY2(skipped.err.startsWith(QStringLiteral("lmct %1: warning: malformed-record.lmct "
                                                       "is damaged: 1 frame skipped (")
                                            .arg(args.first())
                                            .toUtf8()),
                 skipped.err.constData());
        QCOMPARE(skipped.err.count('\n'), 1);
    }

    void usage_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("text");
        QTest::newRow("no args") << QStringList() << 1 << "err"
                                 << "Usage: lmct";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << 1 << "err"
                                         << "unknown command 'frobnicate'";
        QTest::newRow("info without file") << QStringList{"info"} << 1 << "err"
                                           << "no FILE";
        QTest::newRow("info unknown option")
            << QStringList{"info", "--bogus", "x.lct"} << 1 << "err"
            << "bogus";
        QTest::newRow("--help") << QStringList{"--help"} << 0 << "out"
                                << "Usage: lmct";
        QTest::newRow("-h") << QStringList{"-h"} << 0 << "out"
                            << "Commands:";
        QTest::newRow("info --help") << QStringList{"info", "--help"} << 0 << "out"
                                     << "--json";
        // Regression: `lmct info --help` began "Usage: /full/path/to/lmct info", and its argument
        // line read "Trace files (*.lct, *.lmct info)."; `lmct --help` omitted --details.
        QTest::newRow("info --help names the command")
            << QStringList{"info", "--help"} << 0 << "out"
            << "Usage: lmct info [options] FILE...\n";
        QTest::newRow("info --help file types") << QStringList{"info", "--help"} << 0 << "out"
                                                << "Trace files (*.lct, *.lmct).\n";
        QTest::newRow("--help shows info --details")
            << QStringList{"--help"} << 0 << "out"
            << "info [--json [--details]] [--check] FILE...";
        // --details only adds JSON keys: without --json it is a usage error (it was ignored).
        QTest::newRow("info --details without --json")
            << QStringList{"info", "--details", "x.lct"} << 1 << "err"
            << "lmct info: --details needs --json";
        QTest::newRow("--version") << QStringList{"--version"} << 0 << "out"
                                   << "lmct ";
    }
    void regression_helpListsEveryCommandsOptions() {
        // `lmct --help` left out `export --sqlite` and `stats --table`: every option a command's
        // own --help lists (but --help) must appear in the top-level entries of that command.
        const Run top = runLmct({QStringLiteral("--help")});
        QCOMPARE(top.exitCode, 0);
        const QString usage = QString::fromUtf8(top.out);
        const qsizetype from = usage.indexOf(QLatin1String("Commands:\n"));
        const qsizetype to = usage.indexOf(QLatin1String("\n\n"), from);
        QVERIFY(from >= 0 && to > from);
        // An entry starts at two spaces of indent; deeper lines continue it.
        QHash<QString, QString> entries;  // command -> the text of its entries
        QString current;
        const QStringList lines = usage.mid(from, to - from).split(QLatin1Char('\n'));
        for (const QString &line : lines.mid(1)) {
            if (line.size() > 2 && line.startsWith(QLatin1String("  ")) && !line.at(2).isSpace()) {
                current = line.mid(2).section(QLatin1Char(' '), 0, 0);
            }
            for (const QString &c : current.split(QLatin1Char('|'))) {
                entries[c] += line + QLatin1Char('\n');
            }
        }
        static const QRegularExpression optionRe(QStringLiteral("^\\s+(?:-\\S, )*--([a-z][a-z-]*)"),
                                                 QRegularExpression::MultilineOption);
        const QStringList commands{"info", "dump",      "stats",   "export",
                                   "keys", "anomalies", "compare", "whatif"};
        for (const QString &command : commands) {
            QVERIFY2(entries.contains(command), qPrintable(command));
            const Run help = runLmct({command, QStringLiteral("--help")});
            QCOMPARE(help.exitCode, 0);
            const QString text = QString::fromUtf8(help.out);
            const QString options = text.mid(text.indexOf(QLatin1String("Options:")));
            int seen = 0;
            for (auto it = optionRe.globalMatch(options); it.hasNext();) {
                const QString name = it.next().captured(1);
                if (name == QLatin1String("help") || name == QLatin1String("help-all")) {
                    continue;
                }
                ++seen;
                QVERIFY2(entries[command].contains(QStringLiteral("--") + name),
                         qPrintable(QStringLiteral("lmct --help does not show %1 --%2 in:\n%3")
                                        .arg(command, name, entries[command])));
            }
            QVERIFY2(seen > 0, qPrintable(command));
        }
    }

    void usage() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stream);
        QFETCH(QString, text);
        const Run r = runLmct(args);
        QCOMPARE(r.exitCode, exitCode);
        const QString s = QString::fromUtf8(stream == QLatin1String("out") ? r.out : r.err);
        QVERIFY2(s.contains(text), qPrintable(s));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
