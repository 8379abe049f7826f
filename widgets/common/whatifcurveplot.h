#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/whatifanalysis.h"

#include <qcustomplot.h>
#include <QString>
#include <QVector>
#include <array>
#include <optional>

namespace lmct {

/**
 * The what-if curves' plot: the prefetch hit ratio (percent, y) against the capacity (log x,
 * CapacityTicker, in chunks or bytes), one graph per curve in its policy's colour (PolicyColors),
 * with a bold title row and a legend in policy order. The What-if tab and the Compare pane both
 * draw their curves here.
 *
 * - Legend::Inside puts the legend in the top-left corner of the curves (the What-if tab: one
 *   curve per policy); Legend::Below puts it under the plot in rows of three (the Compare pane:
 *   A's and B's curves, one entry per policy).
 * - setMessage() says in the middle of the curves why there are none ("No key calls…"); empty
 *   hides it.
 * - The What-if tab's marks: the line at a capacity C with a marker per policy read there (the
 *   red one on the first), and the configured L1 capacity's dash-dotted line with its tag beside
 *   it (on the side with room). Both hidden until shown.
 *
 * Units: x in chunks or bytes (unit()), y in percent. Ownership: a QCustomPlot; owns its graphs
 * and items. Thread-safety: GUI thread only. Errors: none.
 */
class WhatIfCurvePlot : public QCustomPlot {
    Q_OBJECT
public:
    using Unit = WhatIfAnalysis::Unit;
    enum class Legend { Inside, Below };
    /** How a curve is drawn. */
    struct Style {
        Qt::PenStyle pen = Qt::SolidLine;
        double width = 2.0;
        bool stepped = false;  ///< a step line without markers (an exact curve), else a polyline
                               ///< with a marker per sample
    };

    explicit WhatIfCurvePlot(Legend place, QWidget *parent = nullptr);

    /** The capacity axis in `unit`: its ticker and its label ("<name> (chunks)"). */
    void setUnit(Unit unit);
    Unit unit() const { return m_unit; }
    /** The capacity's name in the axis label: "capacity" (default), "capacity C". */
    void setCapacityName(const QString &name);
    void setTitle(const QString &title);
    QString title() const;

    /** A new curve of `kind` through (capacities[i], percents[i]), in the legend when
     *  `inLegend`; the legend stays in policy order. */
    QCPGraph *addCurve(CachePolicy::Kind kind, const QVector<double> &capacities,
                       const QVector<double> &percents, const Style &style, bool inLegend = true);
    /** New points and style for a curve of addCurve(). */
    void setCurve(QCPGraph *graph, const QVector<double> &capacities,
                  const QVector<double> &percents, const Style &style);
    void removeCurve(QCPGraph *graph);
    void clearCurves();

    /** Why nothing is plotted, in the middle of the curves (wrapped); empty: none. */
    void setMessage(const QString &message);
    QString message() const { return m_message; }
    QCPItemText *messageItem() const { return m_messageItem; }

    /** The line at capacity `c` (0 to 100 %) and a marker on each policy read there (nullopt:
     *  none), the red marker on the first policy read; hideCapacity() hides them. */
    void showCapacity(double c,
                      const std::array<std::optional<double>, CachePolicy::kKindCount> &percents);
    void hideCapacity();
    QCPItemStraightLine *capacityLine() const { return m_capacityLine; }
    QCPItemTracer *capacityMarker() const { return m_capacityMarker; }
    QCPItemTracer *policyMarker(CachePolicy::Kind kind) const { return m_tracers[size_t(kind)]; }

    /** The configured capacity `c` (hidden when ≤ 0) with `tag` beside its line, framed and
     *  pointing at it (◂ or ▸) from the side with room. */
    void showConfigured(double c, const QString &tag);
    QCPItemStraightLine *configuredLine() const { return m_configuredLine; }
    QCPItemText *configuredTag() const { return m_configuredTag; }

private:
    void placeConfiguredTag();
    void orderLegend();
    void wrapMessage();

    Unit m_unit = Unit::Chunks;
    QString m_capacityName;
    QCPTextElement *m_title = nullptr;
    QString m_message;
    QCPItemText *m_messageItem = nullptr;
    std::array<QCPItemTracer *, CachePolicy::kKindCount> m_tracers{};
    QCPItemStraightLine *m_capacityLine = nullptr;
    QCPItemTracer *m_capacityMarker = nullptr;
    QCPItemStraightLine *m_configuredLine = nullptr;
    QCPItemText *m_configuredTag = nullptr;
    QString m_configuredText;  // the tag's words, without the arrow
};

}  // namespace lmct
