#pragma once

#include "compare/figurepair.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace lmct {

/**
 * A table of figures of two traces side by side, the shape the Compare pane's call, latency
 * and cache tables share: group (a call, a latency, a topic), figure, A, B, Δ (B − A), Δ %
 * (FigurePair). Subclasses fill the rows from a TraceComparison.
 *
 * Roles: Qt::DisplayRole formatted text ("—" when unknown; seconds as durations, ratios and
 * shares in percent with their Δ in percentage points ("75.9 %", "+2.3 pp", as the trace report
 * and the Statistics pane write them), counts as integers); SortRole the raw value (double, NaN
 * when unknown; the text for Text rows); ReasonRole why the row cannot be compared (empty when it
 * can), also the tool tip; IsTotalRole true on a totals row; Qt::TextAlignmentRole (numbers
 * right-aligned). The group column shows the group on its first row only (GroupRole gives it on
 * every row).
 *
 * Ownership: rows are copied in. Thread-safety: GUI thread only.
 */
class FigureTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { GroupColumn, FigureColumn, AColumn, BColumn, DeltaColumn, PercentColumn };
    static constexpr int kColumnCount = 6;
    enum Role { SortRole = Qt::UserRole + 1, ReasonRole, IsTotalRole, GroupRole };

    /** Ratio: a fraction in [0, 1] (a share, a hit ratio), shown in percent. */
    enum class Format : quint8 { Count, Number, Seconds, Ratio, Text };

    struct Row {
        QString group;
        QString figure;
        Format format = Format::Number;
        FigurePair values;     ///< the numbers (not Text)
        QString textA, textB;  ///< the values of a Text row
        QString reason;
        bool isTotal = false;
    };

    /** `groupTitle` heads the first column ("call", "latency", ...). */
    explicit FigureTableModel(const QString &groupTitle, QObject *parent = nullptr);

    const std::vector<Row> &rows() const { return m_rows; }
    /** `value` as the table shows it in `format`. */
    static QString formatted(double value, Format format);
    /** Δ % as the table shows it ("+12.5 %", "−3.0 %", "—"). */
    static QString percentText(double percent);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    /** Replaces the rows (resets the model). */
    void setRows(std::vector<Row> rows);

private:
    QString m_groupTitle;
    std::vector<Row> m_rows;
};

}  // namespace lmct
