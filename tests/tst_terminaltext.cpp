// TerminalText: escapes of controls and bidi characters, and the terminal columns a text takes.

#include "util/terminaltext.h"

#include <QTest>

using namespace lmct;

class TestTerminalText : public QObject {
    Q_OBJECT

private slots:
    void escapesControlsAndBidi() {
        QCOMPARE(TerminalText::escaped(QStringLiteral("a\x1b[31mb")),
                 QStringLiteral("a\\x1b[31mb"));
        QCOMPARE(TerminalText::escaped(QStringLiteral("x\u202ey")), QStringLiteral("x\\u{202e}y"));
        QCOMPARE(TerminalText::escaped(QStringLiteral("Qwen/Qwen3-8B")),
                 QStringLiteral("Qwen/Qwen3-8B"));
        QCOMPARE(TerminalText::escapedLines(QStringLiteral("a\tb\nc")),
                 QStringLiteral("a\\x09b\nc"));
    }

    void columnsCountWideCharactersTwice() {
        QCOMPARE(TerminalText::columns(QStringLiteral("Qwen/Qwen3-8B")), 13);
        QCOMPARE(TerminalText::columns(QStringLiteral("模型/Qwen")), 9);    // CJK: 2 each
        QCOMPARE(TerminalText::columns(QStringLiteral("ｆｕｌｌ")), 8);     // fullwidth
        QCOMPARE(TerminalText::columns(QStringLiteral("e\u0301")), 1);      // combining accent
        QCOMPARE(TerminalText::columns(QStringLiteral("\U0001F600")), 2);   // emoji, a pair
        QCOMPARE(TerminalText::columns(QStringLiteral("\U00020000x")), 3);  // CJK ext. B
        QCOMPARE(TerminalText::columns(QStringLiteral("\\u{202e}")), 8);    // an escape
        QCOMPARE(TerminalText::columns(QString()), 0);
    }

    void paddedFillsToColumns() {
        QCOMPARE(TerminalText::padded(QStringLiteral("ab"), 4), QStringLiteral("ab  "));
        QCOMPARE(TerminalText::padded(QStringLiteral("ab"), 4, true), QStringLiteral("  ab"));
        QCOMPARE(TerminalText::padded(QStringLiteral("模型"), 6), QStringLiteral("模型  "));
        QCOMPARE(TerminalText::padded(QStringLiteral("longer"), 3), QStringLiteral("longer"));
    }
};

QTEST_APPLESS_MAIN(TestTerminalText)
#include "tst_terminaltext.moc"
