// The content of trace reports (model/report, no widgets): the sections TraceReport and
// ComparisonReport gather, their figures against the analyses they come from, the selection's
// filter and range, and the refusals.

#include "cache/cacheanalysis.h"
#include "comparefixture.h"
#include "itemmodels/statisticstablemodel.h"
#include "report/comparisonreport.h"
#include "report/reportcontent.h"
#include "report/reportsections.h"
#include "report/tracereport.h"
#include "stats/tracestatistics.h"
#include "testutil.h"
#include "trace/traceloader.h"
#include "util/timeformat.h"
#include "whatif/configuredrun.h"

#include <QAbstractTableModel>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QTest>

using namespace lmct;
using namespace lmct::test;

namespace {

const ReportContent::Figure *figure(const ReportContent &c, const QString &id) {
    for (const ReportContent::Section &s : c.sections) {
        for (const ReportContent::Block &b : s.blocks) {
            if (b.kind == ReportContent::Block::Kind::Figure && b.figure.id == id) {
                return &b.figure;
            }
        }
    }
    return nullptr;
}

QStringList sectionIds(const ReportContent &c) {
    QStringList ids;
    for (const ReportContent::Section &s : c.sections) {
        ids << s.id;
    }
    return ids;
}

/** The table of section `id` whose title is `title`, or nullptr. */
const ReportContent::Table *table(const ReportContent &c, const QString &id, const QString &title) {
    const ReportContent::Section *s = c.section(id);
    if (!s) {
        return nullptr;
    }
    for (const ReportContent::Block &b : s->blocks) {
        if (b.kind == ReportContent::Block::Kind::Table && b.table.title == title) {
            return &b.table;
        }
    }
    return nullptr;
}

QString allText(const ReportContent::Section &s) {
    QStringList parts;
    for (const ReportContent::Block &b : s.blocks) {
        parts << b.text << b.table.title << b.table.note;
        for (const QStringList &r : b.table.rows) {
            parts << r.join(QLatin1Char('|'));
        }
    }
    return parts.join(QLatin1Char('\n'));
}

/** Three rows (name, n = 10 × row); row 1 has kMarkRole true; n right-aligned. */
class SmallModel : public QAbstractTableModel {
public:
    static constexpr int kMarkRole = Qt::UserRole + 5;
    int rowCount(const QModelIndex & = {}) const override { return 3; }
    int columnCount(const QModelIndex & = {}) const override { return 2; }
    QVariant data(const QModelIndex &i, int role) const override {
        if (role == Qt::DisplayRole) {
            return i.column() == 0 ? QStringLiteral("row %1").arg(i.row())
                                   : QString::number(i.row() * 10);
        }
        if (role == Qt::TextAlignmentRole && i.column() == 1) {
            return int(Qt::AlignRight | Qt::AlignVCenter);
        }
        if (role == kMarkRole) {
            return i.row() == 1;
        }
        return {};
    }
    QVariant headerData(int section, Qt::Orientation, int role) const override {
        return role == Qt::DisplayRole
                   ? QVariant(section == 0 ? QStringLiteral("name") : QStringLiteral("n"))
                   : QVariant();
    }
};

}  // namespace

class TestReport : public QObject {
    Q_OBJECT

    std::shared_ptr<TraceDocument> m_a, m_b;

private slots:
    void initTestCase() {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        WorkloadSpec sa, sb;
        sb.rounds = 10;
        sb.l1Bytes /= 2;
        sb.policy = QStringLiteral("FIFO");
        m_a = loadWorkload(makeWorkload(sa), QStringLiteral("a.lct"));
        m_b = loadWorkload(makeWorkload(sb), QStringLiteral("b.lct"));
        QVERIFY(m_a && m_b);
    }

    void traceReportHasEverySection() {
        const auto c = TraceReport::build(m_a, {});
        QVERIFY(c);
        QCOMPARE(sectionIds(*c),
                 (QStringList{"file", "diagnostics", "calls", "timeline", "cache", "anomalies"}));
        QCOMPARE(c->title, QStringLiteral("Trace report: a.lct"));
        QCOMPARE(c->timelines.size(), size_t(1));
        QCOMPARE(c->timelines[0].doc, std::shared_ptr<const TraceDocument>(m_a));
        QVERIFY(!c->timelines[0].filterRecords);
        // the facts and the configuration in words
        const ReportContent::Table *facts =
            table(*c, QStringLiteral("file"), QStringLiteral("File"));
        QVERIFY(facts);
        QVERIFY(facts->header.isEmpty());
        QCOMPARE(facts->rows[2], (QStringList{QStringLiteral("records"),
                                              QLocale().toString(m_a->records().size())}));
        const ReportContent::Table *config =
            table(*c, QStringLiteral("file"), QStringLiteral("StorageManager configuration"));
        QVERIFY(config);
        QCOMPARE(config->rows.size(), m_a->header().smConfig().summaryParts().size());
        // the timeline block names its source
        const ReportContent::Section *t = c->section(QStringLiteral("timeline"));
        QVERIFY(std::any_of(t->blocks.begin(), t->blocks.end(), [](const auto &b) {
            return b.kind == ReportContent::Block::Kind::Timeline && b.timeline == 0;
        }));
    }

    void callTableIsTheStatisticsOfTheSelection() {
        const auto all = TraceReport::build(m_a, {});
        const ReportContent::Table *calls =
            table(*all, QStringLiteral("calls"), QStringLiteral("Per call"));
        QVERIFY(calls);
        QCOMPARE(calls->header.first(), QStringLiteral("Call"));
        QCOMPARE(calls->rows.last().first(), QStringLiteral("total"));
        QCOMPARE(calls->strongRows, QList<int>{int(calls->rows.size()) - 1});
        QCOMPARE(calls->rows.last()[1], QString::number(m_a->records().size()));
        // a filter and a range narrow the table (and the timeline), not the cache sections
        TraceReport::Options o;
        o.filterText = QStringLiteral("call == finish_write");
        o.range.from = 0;
        o.range.to = 1e9;
        const auto some = TraceReport::build(m_a, o);
        QVERIFY(some);
        const ReportContent::Table *only =
            table(*some, QStringLiteral("calls"), QStringLiteral("Per call"));
        QCOMPARE(only->rows.size(), 2);  // finish_write and the total
        QVERIFY(only->rows.first().first().contains(QStringLiteral("finish_write")));
        QVERIFY(some->subtitle.first().contains(QStringLiteral("filter: call == finish_write")));
        QVERIFY(some->timelines[0].filterRecords);
        QCOMPARE(qint64(some->timelines[0].filterRecords->size()),
                 only->rows.last()[1].toLongLong());
        QCOMPARE(allText(*some->section(QStringLiteral("cache"))),
                 allText(*all->section(QStringLiteral("cache"))));
    }

    void callsSectionHasTheStatisticsCharts() {
        // the Statistics pane's two charts, of the selection, after the call table
        TraceReport::Options o;
        o.filterText = QStringLiteral("call == finish_write || call == submit_prefetch_task");
        const auto c = TraceReport::build(m_a, o);
        QVERIFY(c);
        const ReportContent::Section *calls = c->section(QStringLiteral("calls"));
        QStringList figures;
        for (const ReportContent::Block &b : calls->blocks) {
            if (b.kind == ReportContent::Block::Kind::Figure) {
                figures << b.figure.id;
            }
        }
        QCOMPARE(figures, (QStringList{"calls-chart", "interarrival-chart"}));
        const ReportContent::Figure *counts = figure(*c, QStringLiteral("calls-chart"));
        const ReportContent::Table *table =
            ::table(*c, QStringLiteral("calls"), QStringLiteral("Per call"));
        QVERIFY(counts && table);
        QVERIFY(counts->horizontal);
        // a bar per call of the table (not the total), its count, in the call's colour
        QCOMPARE(counts->series.size(), size_t(table->rows.size() - 1));
        for (size_t i = 0; i < counts->series.size(); ++i) {
            const ReportContent::Series &s = counts->series[i];
            QCOMPARE(counts->tickLabels[i].second, table->rows[int(i)].first());
            QCOMPARE(s.call, table->rows[int(i)].first());
            QCOMPARE(s.color, ReportContent::Color::Call);
            QCOMPARE(s.y, std::vector<double>{
                              QString(table->rows[int(i)][1]).remove(QLatin1Char(',')).toDouble()});
            QVERIFY2(s.labels.front().endsWith(QStringLiteral("/s")), qPrintable(s.labels.front()));
        }
        QCOMPARE(counts->caption,
                 QStringLiteral("a.lct  —  whole trace  —  filter: %1  —  %2 records")
                     .arg(o.filterText, table->rows.last()[1]));
        // p50 <= p95 <= max of each row, on a log axis of durations
        const ReportContent::Figure *gaps = figure(*c, QStringLiteral("interarrival-chart"));
        QVERIFY(gaps && gaps->hasData() && gaps->logY);
        QCOMPARE(gaps->yTicks, ReportContent::Ticks::Seconds);
        std::vector<const ReportContent::Series *> dots;
        for (const ReportContent::Series &s : gaps->series) {
            if (s.style == ReportContent::Style::Points) {
                dots.push_back(&s);
            }
        }
        QCOMPARE(dots.size(), size_t(3));
        QCOMPARE(dots[0]->name, QStringLiteral("p50"));
        QCOMPARE(dots[2]->name, QStringLiteral("max"));
        QCOMPARE(dots[2]->y.size(), gaps->tickLabels.size());
        for (size_t i = 0; i < dots[0]->y.size() && i < dots[2]->y.size(); ++i) {
            QVERIFY(dots[0]->y[i] > 0 && dots[0]->y[i] <= dots[2]->y[i]);
        }
    }

    void whatIfOverlayDrawsTheTraceCurves() {
        // the trace report's what-if figure and the comparison's overlay are one drawing of
        // the curves: A's solid series are the trace's
        const auto one = TraceReport::build(m_a, {});
        const auto two = ComparisonReport::build(m_a, m_b, {});
        const ReportContent::Figure *w = figure(*one, QStringLiteral("whatif"));
        const ReportContent::Figure *o = figure(*two, QStringLiteral("compare-whatif"));
        QVERIFY(w && o);
        QCOMPARE(o->xLabel, w->xLabel);
        QCOMPARE(o->ticks, w->ticks);
        size_t solid = 0;
        for (const ReportContent::Series &s : o->series) {
            if (s.style != ReportContent::Style::Line) {
                continue;
            }
            QVERIFY(solid < w->series.size());
            QCOMPARE(s.x, w->series[solid].x);
            QCOMPARE(s.y, w->series[solid].y);
            QCOMPARE(s.name, w->series[solid].name);
            ++solid;
        }
        QCOMPARE(solid, w->series.size());
    }

    void whatIfFigureMarksTheConfiguredCapacity() {
        const auto c = TraceReport::build(m_a, {});
        const ReportContent::Figure *f = figure(*c, QStringLiteral("whatif"));
        QVERIFY(f);
        QVERIFY(f->hasData());
        QCOMPARE(f->series.size(), size_t(CachePolicy::kKindCount));
        // 1 KiB of 128-byte keys: 8 chunks
        QCOMPARE(f->markers.size(), size_t(1));
        QCOMPARE(f->markers[0].x, 8.0);
        QCOMPARE(f->markers[0].label, QStringLiteral("configured L1 1 KiB · LRU"));
        QVERIFY(f->caption.contains(QStringLiteral("configured L1 1 KiB · LRU")));
        // the curves' points at the configured capacity are the table's figures
        const ReportContent::Table *around =
            table(*c, QStringLiteral("cache"),
                  QStringLiteral("Prefetched keys hit around the configured capacity"));
        QVERIFY(around);
        QCOMPARE(around->header, (QStringList{"policy", "4 chunks", "8 chunks", "16 chunks"}));
        const ReportContent::Series &lru = f->series[0];
        QCOMPARE(lru.name, QStringLiteral("LRU"));
        const auto at8 = std::find(lru.x.begin(), lru.x.end(), 8.0);
        QVERIFY(at8 != lru.x.end());
        QCOMPARE(around->rows[0][2],
                 ConfiguredRun::percentText(lru.y[size_t(at8 - lru.x.begin())] / 100.0));
        QCOMPARE(around->strongRows, QList<int>{0});  // the configured policy
        // the reuse histograms and the hit ratio over time
        for (const char *id : {"reuse-keys", "reuse-time", "reuse-count", "hit-over-time"}) {
            const ReportContent::Figure *g = figure(*c, QString::fromLatin1(id));
            QVERIFY2(g && g->hasData(), id);
            QVERIFY(!g->caption.isEmpty());
            QVERIFY(!g->alt.isEmpty());
        }
        QCOMPARE(figure(*c, QStringLiteral("hit-over-time"))->series[0].name,
                 QStringLiteral("LRU"));
    }

    void regression_traceWithoutUsesSaysWhyNoWhatIf() {
        // A header and no records: the what-if said nothing of why and drew one degenerate
        // point (its axis ticks "0.7 0.8 0.9 1 1 1 1"); the key states read "all keys 0 100.0%".
        QString error;
        const auto doc = TraceLoader::load(tracePath(QStringLiteral("header-only.lmct")), &error);
        QVERIFY2(doc, qPrintable(error));
        QCOMPARE(doc->records().size(), 0);
        const auto c = TraceReport::build(doc, {});
        QVERIFY(c);
        const ReportContent::Section *cache = c->section(QStringLiteral("cache"));
        QVERIFY(cache);
        QVERIFY(!figure(*c, QStringLiteral("whatif")));
        QVERIFY(!figure(*c, QStringLiteral("hit-over-time")));
        QVERIFY(!table(*c, QStringLiteral("cache"),
                       QStringLiteral("Prefetched keys hit around the configured capacity")));
        const QString text = allText(*cache);
        // the What-if tab's words (WhatIfScope), on one line
        QVERIFY2(text.contains(QStringLiteral(
                     "Nothing to plot: the trace has no key calls. The what-if replays the keys "
                     "of the finish_write, submit_prefetch_task and read_prefetched_results "
                     "records; this trace has none.")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("100.0%")), qPrintable(text));
        const ReportContent::Table *states =
            table(*c, QStringLiteral("cache"), QStringLiteral("What became of the keys"));
        QVERIFY(states);
        QCOMPARE(states->rows.back(), (QStringList{"all keys", "0", "—"}));
        for (const QStringList &row : states->rows) {
            QCOMPARE(row[2], QStringLiteral("—"));  // no share of no keys
        }
    }

    void anomaliesHaveRecordNumbers() {
        // the reference-shaped trace with a cut frame has anomalies to list
        QString error;
        const auto doc =
            TraceLoader::load(tracePath(QStringLiteral("late2026-partial-frame.lct")), &error);
        QVERIFY2(doc, qPrintable(error));
        const auto c = TraceReport::build(doc, {});
        QVERIFY(c);
        const auto analysis = CacheAnalysis::run(*doc);
        const AnomalyReport &an = *analysis->anomalies;
        const ReportContent::Section *s = c->section(QStringLiteral("anomalies"));
        QVERIFY(s);
        if (an.totalCount() == 0) {
            QVERIFY(allText(*s).contains(QStringLiteral("No anomalies")));
            return;
        }
        const ReportContent::Table *top =
            table(*c, QStringLiteral("anomalies"), QStringLiteral("Worth a look"));
        QVERIFY(top && !top->rows.isEmpty());
        for (const QStringList &r : top->rows) {
            QVERIFY2(r[1].startsWith(QLatin1Char('#')), qPrintable(r.join(QLatin1Char('|'))));
            const int record = r[1].mid(1).section(QLatin1Char(','), 0, 0).toInt();
            const bool known =
                std::any_of(an.items().begin(), an.items().end(), [&](const auto &it) {
                    return it.record == record && AnomalyReport::kindName(it.kind) == r[0];
                });
            QVERIFY2(known, qPrintable(r.join(QLatin1Char('|'))));
        }
    }

    void regression_diagnosticsIncludeTheAnalysesNotes() {
        // Regression: the diagnostics were gathered before the cache analysis, which adds its
        // notes to the document (here: keys without cache_salt in a schema 2 trace), so the
        // report said "the file reads cleanly" beside a Diagnostics pane with a note.
        QString error;
        const auto doc =
            TraceLoader::load(tracePath(QStringLiteral("late2026-tp1-cancel.lct")), &error);
        QVERIFY2(doc, qPrintable(error));
        const qsizetype before = doc->diagnostics().size();
        const auto c = TraceReport::build(doc, {});
        QVERIFY(c);
        QVERIFY2(doc->diagnostics().size() > before, "the trace no longer gets an analysis note");
        const QString text = allText(*c->section(QStringLiteral("diagnostics")));
        for (const Diagnostic &d : doc->diagnostics()) {
            QVERIFY2(text.contains(d.message), qPrintable(d.message));
        }
    }

    void regression_controlCharactersAreEscaped() {
        // A qualname with U+202E reached the report's call table raw, reversing the rest of
        // its row in the PDF and the HTML; a model name with an escape sequence likewise.
        const QString hostile = QStringLiteral(
            "lmcache.v1.distributed.storage_manager.StorageManager.\u202eevil\x1b[31m");
        QByteArray b = frame(headerBody());
        b += frame(recordBody(0.5, 1.7e9, hostile, keysArgs(1)));
        Mp args;
        args.map(1).str("keys").arr(1);
        args.bytes += objectKey(1, 33554944, "Qwen\u202e\x1b[31m");
        b += frame(recordBody(0.75, 1.7e9 + 0.25,
                              QStringLiteral("lmcache.v1.distributed.storage_manager."
                                             "StorageManager.reserve_write"),
                              args.bytes));
        QString error;
        const auto doc = TraceLoader::loadBytes(b, QStringLiteral("ctrl\u202e.lct"), &error);
        QVERIFY2(doc, qPrintable(error));
        const auto content = TraceReport::build(doc, {}, {}, nullptr, &error);
        QVERIFY2(content, qPrintable(error));
        QStringList texts{content->title, content->runningTitle};
        for (const ReportContent::Section &s : content->sections) {
            texts << s.title << allText(s);
        }
        const QString all = texts.join(QLatin1Char('\n'));
        QVERIFY2(!all.contains(QChar(0x202e)) && !all.contains(QChar(0x1b)), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("\\u{202e}evil\\x1b[31m")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("ctrl\\u{202e}.lct")), qPrintable(all));
    }

    void invalidFilterIsRefused() {
        TraceReport::Options o;
        o.filterText = QStringLiteral("call ==");
        QString error;
        QVERIFY(!TraceReport::build(m_a, o, {}, nullptr, &error));
        QVERIFY2(error.startsWith(QStringLiteral("invalid filter: ")), qPrintable(error));
        std::atomic_bool cancel{true};
        error.clear();
        QVERIFY(!TraceReport::build(m_a, {}, {}, &cancel, &error));
        QVERIFY(error.isEmpty());
    }

    void comparisonReportHasTheABTablesAndOverlays() {
        const auto c = ComparisonReport::build(m_a, m_b, {});
        QVERIFY(c);
        QCOMPARE(sectionIds(*c), (QStringList{"files", "diagnostics", "header", "calls",
                                              "latencies", "cache", "timeline"}));
        QCOMPARE(c->timelines.size(), size_t(2));
        QCOMPARE(c->timelines[1].label, QStringLiteral("B"));
        const ReportContent::Section *calls = c->section(QStringLiteral("calls"));
        const ReportContent::Table &t = calls->blocks.front().table;
        QCOMPARE(t.header.mid(2, 2), (QStringList{"A", "B"}));
        QVERIFY(allText(*c->section(QStringLiteral("header")))
                    .contains(QStringLiteral("eviction_policy")));
        const ReportContent::Figure *w = figure(*c, QStringLiteral("compare-whatif"));
        QVERIFY(w && w->hasData());
        QCOMPARE(w->markers.size(), size_t(2));  // both configured capacities
        int dashed = 0, named = 0;
        for (const ReportContent::Series &s : w->series) {
            dashed += s.style == ReportContent::Style::Dashed;
            named += !s.name.isEmpty();
        }
        QCOMPARE(dashed, int(w->series.size()) / 2);
        QCOMPARE(named, CachePolicy::kKindCount);  // one legend entry per policy
        for (const char *id : {"compare-reuse-keys", "compare-reuse-time"}) {
            const ReportContent::Figure *f = figure(*c, QString::fromLatin1(id));
            QVERIFY2(f && f->series.size() == 2, id);
            QCOMPARE(f->series[0].color, ReportContent::Color::SideA);
        }
        QVERIFY(figure(*c, QStringLiteral("latency-write_latency")));
    }

    void comparisonReportHasTheStatisticsChartsOfBoth() {
        // Issue #21: the comparison report had the call table but none of the Statistics
        // charts. A's and B's counts per call, as the table says them, and their intervals.
        const auto c = ComparisonReport::build(m_a, m_b, {});
        QVERIFY(c);
        const TraceStatistics sa = TraceStatistics::compute(*m_a);
        const TraceStatistics sb = TraceStatistics::compute(*m_b);
        const ReportContent::Figure *counts = figure(*c, QStringLiteral("compare-calls-chart"));
        QVERIFY(counts && counts->horizontal);
        QCOMPARE(counts->series.size(), size_t(2));
        QCOMPARE(counts->series[0].color, ReportContent::Color::SideA);
        QCOMPARE(counts->series[1].color, ReportContent::Color::SideB);
        auto countOf = [](const TraceStatistics &st, const QString &call) {
            for (const TraceStatistics::CallRow &r : st.calls) {
                if (r.call == call) {
                    return double(r.count);
                }
            }
            return 0.0;
        };
        QVERIFY(!counts->tickLabels.empty());
        bool differs = false;
        for (size_t i = 0; i < counts->tickLabels.size(); ++i) {
            const QString call = counts->tickLabels[i].second;
            QCOMPARE(counts->series[0].y[i], countOf(sa, call));
            QCOMPARE(counts->series[1].y[i], countOf(sb, call));
            QVERIFY(counts->series[0].x[i] < counts->series[1].x[i]);  // A above B
            differs |= counts->series[0].y[i] != counts->series[1].y[i];
        }
        QVERIFY(differs);  // B ran fewer rounds
        const ReportContent::Figure *gaps =
            figure(*c, QStringLiteral("compare-interarrival-chart"));
        QVERIFY(gaps && gaps->hasData() && gaps->logY);
        QStringList names;
        for (const ReportContent::Series &s : gaps->series) {
            if (s.style == ReportContent::Style::Points) {
                names << s.name;
                QCOMPARE(s.hollow, s.name.endsWith(QStringLiteral("p95")));
            }
        }
        QCOMPARE(names, (QStringList{"A p50", "A p95", "B p50", "B p95"}));
    }

    void regression_comparisonTimelinesShareOneAxis() {
        // Issue #20: A's and B's timelines were each fitted to their own trace, two time axes a
        // reader could not compare. Both now span the same stretch of one common axis.
        const double longer = std::max(m_a->duration(), m_b->duration());
        QVERIFY(m_a->duration() != m_b->duration());
        const auto c = ComparisonReport::build(m_a, m_b, {});
        QVERIFY(c);
        QCOMPARE(c->timelines.size(), size_t(2));
        const ReportContent::TimelineSource &a = c->timelines[0], &b = c->timelines[1];
        QCOMPARE(a.axisFrom, b.axisFrom);
        QCOMPARE(a.axisTo, b.axisTo);
        QVERIFY(a.axisFrom <= 0.0);
        QVERIFY(a.axisTo >= longer);
        QVERIFY(a.axisTo < longer * 1.05);
        for (const ReportContent::TimelineSource *s : {&a, &b}) {
            QVERIFY2(s->axisNote.contains(QStringLiteral("from each trace's start")),
                     qPrintable(s->axisNote));
            QVERIFY2(s->captionNote.contains(QStringLiteral("from each trace's start")),
                     qPrintable(s->captionNote));
        }
        QVERIFY(allText(*c->section(QStringLiteral("timeline")))
                    .contains(QStringLiteral("Both on one time axis, aligned from each trace's "
                                             "start")));
        // B drawn later (by t_wall, or shifted): its own t_mono, the same stretch of the axis
        ComparisonReport::Options o;
        o.alignment = ComparisonReport::Alignment::Wall;
        o.bStart = 2.5;
        const auto w = ComparisonReport::build(m_a, m_b, o);
        QVERIFY(w);
        QVERIFY(w->timelines[0].axisFrom < 0.0 && w->timelines[0].axisFrom > -0.5);
        QCOMPARE(w->timelines[1].axisFrom, w->timelines[0].axisFrom - 2.5);
        QCOMPARE(w->timelines[1].axisTo, w->timelines[0].axisTo - 2.5);
        QVERIFY(w->timelines[0].axisTo > 2.5 + m_b->duration());
        QVERIFY2(w->timelines[1].captionNote.contains(QStringLiteral("by t_wall")),
                 qPrintable(w->timelines[1].captionNote));
        // a range: that stretch in both (cut to where either trace is)
        ComparisonReport::Options r;
        r.range.from = longer / 4;
        const auto part = ComparisonReport::build(m_a, m_b, r);
        QVERIFY(part);
        for (const ReportContent::TimelineSource &s : part->timelines) {
            QCOMPARE(s.axisFrom, longer / 4);
            QCOMPARE(s.axisTo, longer);
        }
    }

    void regression_comparisonSaysBsOffsetUnderWall() {
        // Issue #20: under t_wall alignment the words gave B's start alone, so a manual offset
        // of B (the tab's, or `--offset`) went unsaid.
        ComparisonReport::Options o;
        o.alignment = ComparisonReport::Alignment::Wall;
        o.bStart = 3.5;
        o.offset = -1.5;
        const auto c = ComparisonReport::build(m_a, m_b, o);
        QVERIFY(c);
        const QString words = QStringLiteral(
                                  "aligned by t_wall, B shifted by %1 (B's start %2 "
                                  "from A's)")
                                  .arg(TimeFormat::delta(-1.5), TimeFormat::delta(3.5));
        for (const ReportContent::TimelineSource &s : c->timelines) {
            QVERIFY2(s.captionNote.endsWith(words), qPrintable(s.captionNote));
            QVERIFY2(s.axisNote.endsWith(words), qPrintable(s.axisNote));
        }
        QVERIFY(allText(*c->section(QStringLiteral("timeline"))).contains(words));
        // no manual offset: B's start alone, as before
        o.offset = 0.0;
        const auto plain = ComparisonReport::build(m_a, m_b, o);
        QVERIFY(plain);
        QVERIFY2(plain->timelines[1].captionNote.endsWith(
                     QStringLiteral("aligned by t_wall (B's start %1 from A's)")
                         .arg(TimeFormat::delta(3.5))),
                 qPrintable(plain->timelines[1].captionNote));
    }

    void tableFromModelKeepsAlignmentAndRows() {
        const SmallModel m;
        const auto t = ReportContent::Table::fromModel(m, {}, SmallModel::kMarkRole);
        QCOMPARE(t.header, (QStringList{"name", "n"}));
        QCOMPARE(t.numeric, (QList<bool>{false, true}));
        QCOMPARE(t.rows.size(), 3);
        QCOMPARE(t.strongRows, QList<int>{1});
        const auto kept = ReportContent::Table::fromModel(m, {1}, -1, SmallModel::kMarkRole);
        QCOMPARE(kept.rows, (QList<QStringList>{{QStringLiteral("10")}}));
    }

    void regression_reportWritesEveryCountOneWay() {
        // The report's "Per call" table said 1500 where its text said 1,500, and the what-if
        // sentence "≈ 1365 chunks" beside "1,365 chunks": every count is in grouped digits.
        class CountModel : public SmallModel {
            QVariant data(const QModelIndex &i, int role) const override {
                if (role == Qt::DisplayRole && i.column() == 1) {
                    return QStringList{"1365", "-20000", "12.5"}[i.row()];
                }
                return SmallModel::data(i, role);
            }
        };
        const auto t = ReportContent::Table::fromModel(CountModel());
        QCOMPARE(t.rows[0][1], QStringLiteral("1,365"));
        QCOMPARE(t.rows[1][1], QStringLiteral("-20,000"));
        QCOMPARE(t.rows[2][1], QStringLiteral("12.5"));
        QCOMPARE(ConfiguredRun::chunksText(1365), QStringLiteral("1365 chunks"));
        QCOMPARE(ConfiguredRun::chunksText(1365, ConfiguredRun::Digits::Grouped),
                 QStringLiteral("1,365 chunks"));

        const QString path =
            qEnvironmentVariable("LMCT_REFERENCE_TRACES", QStringLiteral(LMCT_REFERENCE_TRACES)) +
            QStringLiteral("/late2026-tp1-cancel.lct");
        if (!QFileInfo::exists(path)) {
            QSKIP(qPrintable(QStringLiteral("no reference trace %1").arg(path)));
        }
        QString error;
        const auto doc = TraceLoader::load(path, &error);
        QVERIFY2(doc, qPrintable(error));
        const auto content = TraceReport::build(doc, {});
        QVERIFY(content);
        static const QRegularExpression plain(QStringLiteral("(^|[^\\d.,])\\d{4,}( chunks|$)"));
        QStringList texts;
        for (const ReportContent::Section &s : content->sections) {
            for (const ReportContent::Block &b : s.blocks) {
                texts << b.text;
                for (const QStringList &row : b.table.rows) {
                    texts << row;
                }
            }
        }
        bool sawSentence = false;
        for (const QString &text : texts) {
            QVERIFY2(!plain.match(text).hasMatch(), qPrintable(text));
            sawSentence = sawSentence || text.contains(QStringLiteral("≈ 1,365 chunks"));
        }
        QVERIFY(sawSentence);
        QVERIFY(texts.contains(QStringLiteral("1,500")));  // submit_prefetch_task's count
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
