// Filter language parser: valid expressions (checked through their canonical form and their
// parsed fields/literals) and invalid ones (exact 1-based error column and message).

#include "filter/filterexpression.h"
#include "filter/filterlexer.h"
#include "filter/tmonorange.h"

#include <QtTest>
#include <cmath>

using namespace lmct;

class TestFilterParser : public QObject {
    Q_OBJECT
private slots:
    void valid_data();
    void valid();
    void invalid_data();
    void invalid();
    void emptyMatchesEverything();
    void canonicalFormParsesBack_data() { valid_data(); }
    void canonicalFormParsesBack();
    void fieldsAndTypes();
    void literals();
    void unitsAndHex();
    void escapes();
    void columnsCountCharacters();
    void nestingIsBounded();
    void needsArgs();
    void timeRanges();
    void documentedExamples();
};

void TestFilterParser::valid_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");
    QTest::newRow("call") << "call == reserve_write"
                          << "call == reserve_write";
    QTest::newRow("no spaces") << "call==reserve_write&&rank==1"
                               << "(call == reserve_write && rank == 1)";
    QTest::newRow("precedence") << "call == x || rank == 1 && world_size == 2"
                                << "(call == x || (rank == 1 && world_size == 2))";
    QTest::newRow("parentheses") << "(call == x || rank == 1) && world_size == 2"
                                 << "((call == x || rank == 1) && world_size == 2)";
    QTest::newRow("not") << "!(call == x)"
                         << "!(call == x)";
    QTest::newRow("not binds to the comparison") << "!call == x && rank == 1"
                                                 << "(!(call == x) && rank == 1)";
    QTest::newRow("word operators") << "not call == x and rank == 1 or rank == 2"
                                    << "((!(call == x) && rank == 1) || rank == 2)";
    QTest::newRow("flattened or") << "call == a || call == b || call == c"
                                  << "(call == a || call == b || call == c)";
    QTest::newRow("redundant parentheses") << "((call == a))"
                                           << "call == a";
    QTest::newRow("in list") << "call in [a, \"b c\", 3]"
                             << "call in [a, \"b c\", 3]";
    QTest::newRow("empty in list") << "call in []"
                                   << "call in []";
    QTest::newRow("single =") << "rank = 1"
                              << "rank == 1";
    QTest::newRow("all comparisons")
        << "t_mono < 1 && t_mono <= 2 && t_mono > 0 && t_mono >= 0 && rank != 3"
        << "(t_mono < 1 && t_mono <= 2 && t_mono > 0 && t_mono >= 0 && rank != 3)";
    QTest::newRow("seconds") << "t_mono > 12.5s"
                             << "t_mono > 12.5s";
    QTest::newRow("ms") << "t_mono >= 250ms"
                        << "t_mono >= 250ms";
    QTest::newRow("us") << "t_mono < 40us"
                        << "t_mono < 40us";
    QTest::newRow("µs") << QString::fromUtf8("t_mono < 40µs") << QString::fromUtf8("t_mono < 40µs");
    QTest::newRow("ns") << "t_mono < 10ns"
                        << "t_mono < 10ns";
    QTest::newRow("hex prefix") << "chunk_hash == 9f3a5c"
                                << "chunk_hash == 9f3a5c";
    QTest::newRow("quoted hex with dots") << "chunk_hash == \"9f3a5c...\""
                                          << "chunk_hash == \"9f3a5c...\"";
    QTest::newRow("hex starting with a letter") << "chunk_hash == abc"
                                                << "chunk_hash == abc";
    QTest::newRow("0x hex") << "chunk_hash == 0x9F3A"
                            << "chunk_hash == 0x9F3A";
    QTest::newRow("model quoted") << "model_name == \"Qwen/Qwen3-8B\""
                                  << "model_name == \"Qwen/Qwen3-8B\"";
    QTest::newRow("model bare") << "model_name == Qwen/Qwen3-8B"
                                << "model_name == Qwen/Qwen3-8B";
    QTest::newRow("single quotes") << "model_name == 'a\"b'"
                                   << "model_name == \"a\\\"b\"";
    QTest::newRow("path") << "spec.keys[0].chunk_hash == ab"
                          << "spec.keys[0].chunk_hash == ab";
    QTest::newRow("negative index") << "keys[-1].kv_rank > 0"
                                    << "keys[-1].kv_rank > 0";
    QTest::newRow("numeric map key") << "spec.group_layout_descs.0.shapes contains 1024"
                                     << "spec.group_layout_descs.0.shapes contains 1024";
    QTest::newRow("regex") << "request matches \"^chatcmpl-\\d+$\""
                           << "request matches \"^chatcmpl-\\\\d+$\"";
    QTest::newRow("exists") << "external_request_id"
                            << "external_request_id";
    QTest::newRow("not exists") << "!skip_l2 && call == x"
                                << "(!(skip_l2) && call == x)";
    QTest::newRow("keys.count") << "keys.count > 30"
                                << "keys.count > 30";
    QTest::newRow("bytes unit") << "bytes >= 36MiB"
                                << "bytes >= 36MiB";
    QTest::newRow("args prefix") << "args.bytes == 3"
                                 << "args.bytes == 3";
    QTest::newRow("whole args") << "args contains LOOKUP"
                                << "args contains LOOKUP";
    QTest::newRow("date") << "t_wall > \"2025-10-24 13:25:46\""
                          << "t_wall > \"2025-10-24 13:25:46\"";
    QTest::newRow("negative number") << "t_mono>-1"
                                     << "t_mono > -1";
    QTest::newRow("keywords as values") << "skip_l2 == false || x == null"
                                        << "(skip_l2 == false || x == null)";
}

void TestFilterParser::valid() {
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    const FilterExpression e = FilterExpression::parse(text);
    QVERIFY2(e.isValid(), qPrintable(e.errorString()));
    QVERIFY(!e.isEmpty());
    QCOMPARE(e.toString(), canonical);
    QCOMPARE(e.text(), text);
}

void TestFilterParser::canonicalFormParsesBack() {
    QFETCH(QString, text);
    const FilterExpression e = FilterExpression::parse(text);
    const FilterExpression again = FilterExpression::parse(e.toString());
    QVERIFY2(again.isValid(), qPrintable(again.errorString()));
    QCOMPARE(again.toString(), e.toString());
}

void TestFilterParser::invalid_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing value")
        << "model_name ==" << 14 << "expected a value after '==', found end of input";
    QTest::newRow("missing value in the middle") << "call == reserve_write && rank ==  && x" << 35
                                                 << "expected a value after '==', found '&&'";
    QTest::newRow("dangling &&") << "call == reserve_write &&" << 25
                                 << "expected a condition after '&&', found end of input";
    QTest::newRow("dangling ||") << "t_mono > 5 ||" << 14
                                 << "expected a condition after '||', found end of input";
    QTest::newRow("unclosed (") << "(call == a" << 11
                                << "expected ')' to close the '(' at column 1, found end of input";
    QTest::newRow("unopened )") << "call == a)" << 10 << "found ')' without a matching '('";
    QTest::newRow("missing operator")
        << "model_name Qwen" << 12
        << "expected an operator after 'model_name' (==, !=, <, <=, >, >=, contains, matches, "
           "in), found 'Qwen'";
    QTest::newRow("t_mono text") << "t_mono > abc" << 10
                                 << "t_mono needs a number of seconds, optionally with a unit "
                                    "(12.5s, 250ms, 40us, 100ns), found 'abc'";
    QTest::newRow("hash not hex") << "chunk_hash == xyz" << 15
                                  << "chunk_hash needs hex digits (a prefix such as 9f3a5c), "
                                     "found 'xyz'";
    QTest::newRow("hash quoted not hex") << "chunk_hash in [ab, \"q\"]" << 20
                                         << "chunk_hash needs hex digits (a prefix such as "
                                            "9f3a5c), found \"q\"";
    QTest::newRow("hash ordering") << "chunk_hash < ab" << 12
                                   << "chunk_hash supports ==, !=, in, contains and matches, not "
                                      "'<'";
    QTest::newRow("bad regex") << "request matches \"(ab\"" << 21
                               << "invalid regular expression: missing closing parenthesis";
    QTest::newRow("unterminated string")
        << "model_name == \"abc" << 15 << "unterminated string: no closing \" before the end";
    QTest::newRow("single &") << "call == a & rank == 1" << 11
                              << "expected '&&', found a single '&'";
    QTest::newRow("single |") << "call == a | rank == 1" << 11
                              << "expected '||', found a single '|'";
    QTest::newRow("in without list") << "call in a" << 9 << "expected '[' after 'in', found 'a'";
    QTest::newRow("list without comma") << "call in [a b]" << 12
                                        << "expected ',' or ']' in the list opened at column 9, "
                                           "found 'b'";
    QTest::newRow("list trailing comma")
        << "call in [a,]" << 12 << "expected a value in the list, found ']'";
    QTest::newRow("unit on a count") << "rank == 1s" << 9
                                     << "rank is not a time; found the "
                                        "duration '1s'";
    QTest::newRow("time on bytes")
        << "bytes > 5ms" << 9 << "bytes is not a time; found the duration '5ms'";
    QTest::newRow("size on t_mono")
        << "t_mono > 5MiB" << 10 << "t_mono is not a size; found the byte count '5MiB'";
    QTest::newRow("contains on a number") << "t_mono contains 3" << 8
                                          << "'contains' compares text, but t_mono is a number; "
                                             "use ==, !=, <, <=, >, >= or in";
    QTest::newRow("starts with an operator")
        << "== 3" << 1
        << "expected a condition (a field such as call or model_name, '(' or '!'), found '=='";
    QTest::newRow("unexpected character") << "call == a #" << 11 << "unexpected character '#'";
    QTest::newRow("bad path") << "spec..keys == 1" << 1
                              << "'spec..keys' is not a field: expected a field such as call, "
                                 "t_mono, model_name, chunk_hash, or an argument path such as "
                                 "spec.keys[0].chunk_hash";
    QTest::newRow("path starting with a digit") << "9lives == 1" << 1
                                                << "'9lives' is not a field: expected a field "
                                                   "such as call, t_mono, model_name, chunk_hash, "
                                                   "or an argument path such as "
                                                   "spec.keys[0].chunk_hash";
    QTest::newRow("open bracket") << "keys[ == 1" << 5
                                  << "expected an operator after 'keys' (==, !=, <, <=, >, >=, "
                                     "contains, matches, in), found '['";
    QTest::newRow("empty parentheses")
        << "()" << 2 << "expected a condition inside '(' ')', found ')'";
    QTest::newRow("lone !") << "!" << 2 << "expected a condition after '!', found end of input";
    QTest::newRow("two values") << "t_mono > 5 6" << 12
                                << "expected '&&', '||' or end of input, found '6'";
    QTest::newRow("bad \\u") << "model_name == \"a\\u12\"" << 17
                             << "expected four hex digits after '\\u'";
    QTest::newRow("t_wall bad date") << "t_wall > \"yesterday\"" << 10
                                     << "t_wall needs Unix seconds or a date-time such as "
                                        "\"2025-10-24 13:25:46\", found \"yesterday\"";
    QTest::newRow("operator word as value")
        << "call == and" << 9 << "expected a value after '==', found 'and'";
}

void TestFilterParser::invalid() {
    QFETCH(QString, text);
    QFETCH(int, column);
    QFETCH(QString, message);
    const FilterExpression e = FilterExpression::parse(text);
    QVERIFY(!e.isValid());
    QVERIFY(!e.isEmpty());
    QVERIFY(!e.root());
    QCOMPARE(e.error().message, message);
    QCOMPARE(e.error().column, column);
    QCOMPARE(e.errorString(), QStringLiteral("column %1: %2").arg(column).arg(message));
}

void TestFilterParser::emptyMatchesEverything() {
    for (const QString &t : {QString(), QStringLiteral("   "), QStringLiteral("\t\n")}) {
        const FilterExpression e = FilterExpression::parse(t);
        QVERIFY(e.isValid());
        QVERIFY(e.isEmpty());
        QVERIFY(!e.needsArgs());
        QVERIFY(e.errorString().isEmpty());
    }
    QVERIFY(FilterExpression().isEmpty());
}

void TestFilterParser::fieldsAndTypes() {
    const auto field = [](const QString &text) {
        const FilterExpression e = FilterExpression::parse(text + QStringLiteral(" == 1"));
        [&] { QVERIFY2(e.isValid(), qPrintable(e.errorString())); }();
        return e.root()->field;
    };
    QCOMPARE(field(QStringLiteral("call")).kind, FilterField::Kind::Call);
    QCOMPARE(field(QStringLiteral("qualname")).type(), FilterField::Type::Text);
    QCOMPARE(field(QStringLiteral("t_mono")).type(), FilterField::Type::Number);
    QCOMPARE(field(QStringLiteral("keys.count")).kind, FilterField::Kind::KeysCount);
    QCOMPARE(field(QStringLiteral("chunk_hash")).type(), FilterField::Type::Hex);
    QVERIFY(field(QStringLiteral("rank")).isKeyField());
    QVERIFY(!field(QStringLiteral("request")).isKeyField());
    const FilterField p = field(QStringLiteral("spec.keys[0].chunk_hash"));
    QCOMPARE(p.kind, FilterField::Kind::ArgPath);
    QCOMPARE(p.type(), FilterField::Type::Dynamic);
    QCOMPARE(int(p.path.size()), 4);
    QCOMPARE(p.path[0].name, QByteArray("spec"));
    QCOMPARE(p.path[1].name, QByteArray("keys"));
    QVERIFY(p.path[2].isIndex);
    QCOMPARE(p.path[2].index, 0);
    QCOMPARE(p.path[3].name, QByteArray("chunk_hash"));
    // args. reaches an argument named like a derived field.
    const FilterField b = field(QStringLiteral("args.bytes"));
    QCOMPARE(b.kind, FilterField::Kind::ArgPath);
    QCOMPARE(int(b.path.size()), 1);
    QCOMPARE(b.path[0].name, QByteArray("bytes"));
    QVERIFY(field(QStringLiteral("args")).path.empty());
    QVERIFY(FilterField::knownNames().contains(QStringLiteral("cache_salt")));
    // `trace`: text (a label) or an integer (an index), a record column.
    QCOMPARE(field(QStringLiteral("trace")).kind, FilterField::Kind::Trace);
    QVERIFY(!field(QStringLiteral("trace")).needsArgs());
    QVERIFY(
        FilterExpression::parse(QStringLiteral("trace == \"a.lct\" || trace in [1, 2]")).isValid());
    QVERIFY(FilterExpression::parse(QStringLiteral("trace matches \"^vllm-\"")).isValid());
    QVERIFY(FilterField::knownNames().contains(QStringLiteral("trace")));
}

void TestFilterParser::literals() {
    const FilterExpression e =
        FilterExpression::parse(QStringLiteral("x in [12, -3.5, 0x1f, \"12\", abc, true, null]"));
    QVERIFY2(e.isValid(), qPrintable(e.errorString()));
    const auto &v = e.root()->values;
    QCOMPARE(int(v.size()), 7);
    QVERIFY(v[0].number && v[0].number->isInteger && v[0].number->integer == 12);
    QVERIFY(v[1].number && !v[1].number->isInteger && v[1].number->value == -3.5);
    QVERIFY(v[2].number && v[2].number->integer == 31);
    QVERIFY(v[3].quoted && v[3].number && v[3].number->integer == 12);
    QVERIFY(!v[4].number);
    QCOMPARE(*v[4].hex, QByteArray("abc"));
    QCOMPARE(v[5].keyword, FilterLiteral::Keyword::True);
    QCOMPARE(v[6].keyword, FilterLiteral::Keyword::Null);
    QCOMPARE(v[3].column, 23);
    QCOMPARE(v[3].length, 4);
}

void TestFilterParser::unitsAndHex() {
    const auto seconds = [](const char *t) {
        const auto n = FilterLiteral::parseNumber(QString::fromUtf8(t));
        return n ? n->value : std::nan("");
    };
    QCOMPARE(seconds("12.5s"), 12.5);
    QCOMPARE(seconds("250ms"), 0.25);
    QVERIFY(qFuzzyCompare(seconds("40us"), 40e-6));
    QVERIFY(qFuzzyCompare(seconds("40µs"), 40e-6));
    QVERIFY(qFuzzyCompare(seconds("100ns"), 100e-9));
    QCOMPARE(seconds("2min"), 120.0);
    QCOMPARE(seconds("1h"), 3600.0);
    QCOMPARE(seconds("36MiB"), 36.0 * 1024 * 1024);
    QCOMPARE(seconds("2GB"), 2e9);
    QCOMPARE(seconds("1e3"), 1000.0);
    QVERIFY(std::isnan(seconds("12x")));
    QVERIFY(std::isnan(seconds("ms")));
    QCOMPARE(FilterLiteral::parseNumber(QStringLiteral("36MiB"))->integer, 37748736);
    QCOMPARE(FilterLiteral::parseNumber(QStringLiteral("5s"))->unit, FilterLiteral::Unit::Time);
    QCOMPARE(*FilterLiteral::parseHex(QStringLiteral("9F3A5C...")), QByteArray("9f3a5c"));
    QCOMPARE(*FilterLiteral::parseHex(QString::fromUtf8("9f3a5c…")), QByteArray("9f3a5c"));
    QCOMPARE(*FilterLiteral::parseHex(QStringLiteral("0xAB")), QByteArray("ab"));
    QVERIFY(!FilterLiteral::parseHex(QStringLiteral("xyz")));
    QVERIFY(!FilterLiteral::parseHex(QStringLiteral("...")));
}

void TestFilterParser::escapes() {
    const FilterExpression e = FilterExpression::parse(
        QStringLiteral("x in [\"a\\\"b\", \"tab\\there\", \"\\u00e9\", \"\\d+\", 'it\\'s']"));
    QVERIFY2(e.isValid(), qPrintable(e.errorString()));
    const auto &v = e.root()->values;
    QCOMPARE(v[0].text, QStringLiteral("a\"b"));
    QCOMPARE(v[1].text, QStringLiteral("tab\there"));
    QCOMPARE(v[2].text, QString(QChar(0xe9)));
    QCOMPARE(v[3].text, QStringLiteral("\\d+"));  // unknown escapes are kept for regexes
    QCOMPARE(v[4].text, QStringLiteral("it's"));
    QCOMPARE(v[2].utf8, QByteArray("\xc3\xa9"));
}

void TestFilterParser::columnsCountCharacters() {
    // µ is one character: the error after it is reported at the character column.
    const QString text = QString::fromUtf8("t_mono < 40µs && x ==");
    QCOMPARE(text.size(), 21);
    const FilterExpression e = FilterExpression::parse(text);
    QCOMPARE(e.error().column, 22);
    const auto tokens = FilterLexer::tokenize(QStringLiteral("a  ==  \"b c\""));
    QCOMPARE(int(tokens.size()), 4);
    QCOMPARE(tokens[1].column, 4);
    QCOMPARE(tokens[2].column, 8);
    QCOMPARE(tokens[2].length, 5);
    QCOMPARE(tokens[2].text, QStringLiteral("b c"));
    QCOMPARE(tokens[3].type, FilterLexer::Token::Type::End);
}

void TestFilterParser::nestingIsBounded() {
    const QString deep = QString(300, QLatin1Char('(')) + QStringLiteral("call == a") +
                         QString(300, QLatin1Char(')'));
    const FilterExpression e = FilterExpression::parse(deep);
    QVERIFY(!e.isValid());
    QVERIFY(e.error().message.contains(QStringLiteral("nested too deeply")));
    QCOMPARE(e.error().column, FilterExpression::kMaxDepth + 1);
    const QString nots = QString(100000, QLatin1Char('!')) + QStringLiteral("x");
    QVERIFY(!FilterExpression::parse(nots).isValid());
    const QString ok =
        QString(50, QLatin1Char('(')) + QStringLiteral("call == a") + QString(50, QLatin1Char(')'));
    QVERIFY(FilterExpression::parse(ok).isValid());
}

void TestFilterParser::needsArgs() {
    QVERIFY(!FilterExpression::parse(QStringLiteral("call == a && t_mono > 1 || !(index < 3)"))
                 .needsArgs());
    QVERIFY(!FilterExpression::parse(QStringLiteral("qualname contains write && t_wall > 0"))
                 .needsArgs());
    QVERIFY(FilterExpression::parse(QStringLiteral("call == a && rank == 1")).needsArgs());
    QVERIFY(FilterExpression::parse(QStringLiteral("external_request_id")).needsArgs());
    QVERIFY(FilterExpression::parse(QStringLiteral("keys.count > 1")).needsArgs());
    QVERIFY(!FilterExpression::parse(QStringLiteral("trace == 1 && call == a")).needsArgs());
}

void TestFilterParser::timeRanges() {
    QString why;
    auto r = TMonoRange::parse(QStringLiteral("5:10"), &why);
    QVERIFY(r && r->from == 5.0 && r->to == 10.0);
    r = TMonoRange::parse(QStringLiteral("250ms:1.5s"), &why);
    QVERIFY(r && r->from == 0.25 && r->to == 1.5);
    r = TMonoRange::parse(QStringLiteral("5:"), &why);
    QVERIFY(r && r->from == 5.0 && std::isinf(r->to));
    r = TMonoRange::parse(QStringLiteral(":2min"), &why);
    QVERIFY(r && std::isinf(r->from) && r->to == 120.0);
    r = TMonoRange::parse(QStringLiteral(":"), &why);
    QVERIFY(r && r->isAll());
    QVERIFY(r->contains(1e300));
    QVERIFY(!TMonoRange::parse(QStringLiteral("10:5"), &why));
    QVERIFY(why.contains(QStringLiteral("before it starts")));
    QVERIFY(!TMonoRange::parse(QStringLiteral("5"), &why));
    QVERIFY(why.contains(QStringLiteral("expected T0:T1")));
    QVERIFY(!TMonoRange::parse(QStringLiteral("a:5"), &why));
    QVERIFY(!TMonoRange::parse(QStringLiteral("1MiB:5"), &why));
    // Regression: 0x10 was read as 16 s (while nan, inf and 1e400 were refused): a hex integer is
    // no time. (The viewer's headless export reads --range with the same parser.)
    QVERIFY(!TMonoRange::parse(QStringLiteral("0x10:20"), &why));
    QCOMPARE(why, QStringLiteral("expected a time such as 12.5, 12.5s, 250ms or 40us for T0, "
                                 "found '0x10'"));
    QVERIFY(!TMonoRange::parse(QStringLiteral("1:0x20"), &why));
    QVERIFY(why.endsWith(QStringLiteral("for T1, found '0x20'")));
    for (const char *notATime : {"nan:1", "inf:", ":1e400", "-0X1:1"}) {
        QVERIFY2(!TMonoRange::parse(QString::fromLatin1(notATime), &why), notATime);
    }
    const TMonoRange fiveTen{5.0, 10.0};
    QCOMPARE(fiveTen.toString(), QStringLiteral("5.000000:10.000000"));
}

void TestFilterParser::documentedExamples() {
    // docs/filter-language.md: every line of a ```filter block parses; every line of the
    // "Things that are errors" ```text block fails with exactly the error written next to it.
    QFile f(QStringLiteral(LMCT_SOURCE_DIR "/docs/filter-language.md"));
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    QString block;
    bool inErrors = false;
    int valid = 0, errors = 0;
    static const QRegularExpression errorLine(QStringLiteral("^(.*?)\\s{2,}(column \\d+: .*)$"));
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("## "))) {
            inErrors = line.contains(QLatin1String("errors"));
        }
        if (line.startsWith(QLatin1String("```"))) {
            block = block.isEmpty() ? line.mid(3).trimmed() + QLatin1Char('+') : QString();
            continue;
        }
        if (block == QLatin1String("filter+") && !line.trimmed().isEmpty()) {
            const FilterExpression e = FilterExpression::parse(line);
            QVERIFY2(e.isValid(), qPrintable(line + QStringLiteral(": ") + e.errorString()));
            ++valid;
        } else if (block == QLatin1String("text+") && inErrors && !line.trimmed().isEmpty()) {
            const auto m = errorLine.match(line);
            QVERIFY2(m.hasMatch(), qPrintable(line));
            const FilterExpression e = FilterExpression::parse(m.captured(1));
            QCOMPARE(e.errorString(), m.captured(2));
            ++errors;
        }
    }
    QVERIFY(valid >= 50);
    QVERIFY(errors >= 10);
}

QTEST_GUILESS_MAIN(TestFilterParser)
#include "tst_filterparser.moc"
