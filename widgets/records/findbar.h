#pragma once

#include <QPointer>
#include <QWidget>
#include <memory>
#include <vector>

class QLabel;
class QLineEdit;

namespace lmct {

class RecordTableView;
class StableLabel;

/**
 * Search in a record table without filtering it (Ctrl+F): the records shown that match are
 * highlighted, an "N of M" counter tells where the current match is, Enter / Shift+Enter (or
 * F3 / Shift+F3) step to the next / previous match in the table's row order. Esc closes the bar.
 *
 * What matches: when the text is a filter expression with an operator (`chunk_hash == 9f3a`),
 * the records it selects (FilterEvaluator, off the GUI thread); otherwise the text is searched
 * case-insensitively in each shown record's call and summary.
 *
 * Ownership: does not own the table. Thread-safety: GUI thread only.
 */
class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(RecordTableView *table, QWidget *parent = nullptr);
    ~FindBar() override;

    QLineEdit *lineEdit() const { return m_edit; }
    /** "3 of 17", "no match", or empty. */
    QString counterText() const;
    /** Number of matches among the shown records. */
    int matchCount() const { return int(m_rows.size()); }
    /** Index of the current match (0-based), or -1. */
    int currentMatch() const { return m_current; }

    /** Shows the bar and focuses the text. */
    void activate();
    /** Searches now for the current text (also done as the user types). */
    void search();
    /** Goes to the next (`direction` > 0) or previous match. */
    void step(int direction);

signals:
    /** A search finished (the counter is up to date). */
    void searched();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void applyMatches(std::shared_ptr<const std::vector<int>> records);
    void updateCounter();
    void close();

    QPointer<RecordTableView> m_table;
    QLineEdit *m_edit = nullptr;
    StableLabel *m_counter = nullptr;                   // objectName "findCounter"
    std::shared_ptr<const std::vector<int>> m_records;  // matching records, ascending
    std::vector<int> m_rows;                            // their rows in table order
    int m_current = -1;
    quint64 m_generation = 0;
};

}  // namespace lmct
