#include "report/reportcontent.h"

#include "util/terminaltext.h"

#include <QAbstractItemModel>
#include <QLocale>
#include <cmath>

namespace lmct {

bool ReportContent::Figure::hasData() const {
    for (const Series &s : series) {
        for (double v : s.y) {
            if (std::isfinite(v)) {
                return true;
            }
        }
    }
    return false;
}

namespace {

/**
 * A table cell's display text; in a numeric column a whole number ("1365", as the models write
 * them for the GUI and CSV) in the locale's grouped digits ("1,365").
 */
QString cellText(const QVariant &v, bool numeric) {
    const QString text = v.toString();
    if (numeric) {
        bool whole = false;
        const qlonglong n = text.toLongLong(&whole);
        if (whole && text == QString::number(n)) {
            return QLocale().toString(n);
        }
    }
    return text;
}

}  // namespace

ReportContent::Table ReportContent::Table::fromModel(const QAbstractItemModel &model,
                                                     const QList<int> &columns, int strongRole,
                                                     int keepRole) {
    Table t;
    QList<int> cols = columns;
    if (cols.isEmpty()) {
        for (int c = 0; c < model.columnCount(); ++c) {
            cols << c;
        }
    }
    for (int c : cols) {
        t.header << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        bool right = false;
        if (model.rowCount() > 0) {
            const QVariant a = model.data(model.index(0, c), Qt::TextAlignmentRole);
            right = a.isValid() && (Qt::Alignment(a.toInt()) & Qt::AlignRight);
        }
        t.numeric << right;
    }
    for (int r = 0; r < model.rowCount(); ++r) {
        if (keepRole >= 0 && !model.data(model.index(r, 0), keepRole).toBool()) {
            continue;
        }
        QStringList row;
        for (qsizetype i = 0; i < cols.size(); ++i) {
            row << cellText(model.data(model.index(r, cols[i]), Qt::DisplayRole), t.numeric[i]);
        }
        if (strongRole >= 0 && model.data(model.index(r, 0), strongRole).toBool()) {
            t.strongRows << int(t.rows.size());
        }
        t.rows << row;
    }
    return t;
}

void ReportContent::Section::paragraph(const QString &text) {
    Block b;
    b.kind = Block::Kind::Paragraph;
    b.text = text;
    blocks.push_back(std::move(b));
}

void ReportContent::Section::note(const QString &text) {
    Block b;
    b.kind = Block::Kind::Note;
    b.text = text;
    blocks.push_back(std::move(b));
}

void ReportContent::Section::table(Table t) {
    Block b;
    b.kind = Block::Kind::Table;
    b.table = std::move(t);
    blocks.push_back(std::move(b));
}

void ReportContent::Section::figure(Figure f) {
    Block b;
    b.kind = Block::Kind::Figure;
    b.figure = std::move(f);
    blocks.push_back(std::move(b));
}

void ReportContent::Section::timeline(int index) {
    Block b;
    b.kind = Block::Kind::Timeline;
    b.timeline = index;
    blocks.push_back(std::move(b));
}

namespace {

void escape(QString *text) {
    *text = TerminalText::escapedLines(*text);
}

void escape(QStringList *texts) {
    for (QString &t : *texts) {
        escape(&t);
    }
}

void escape(ReportContent::Table *t) {
    escape(&t->title);
    escape(&t->header);
    for (QStringList &row : t->rows) {
        escape(&row);
    }
    escape(&t->note);
}

void escape(ReportContent::Figure *f) {
    for (QString *text : {&f->title, &f->name, &f->caption, &f->xLabel, &f->yLabel, &f->alt}) {
        escape(text);
    }
    for (auto &tick : f->tickLabels) {
        escape(&tick.second);
    }
    for (ReportContent::Series &s : f->series) {
        escape(&s.name);
        for (QString &label : s.labels) {
            escape(&label);
        }
    }
    for (ReportContent::Marker &m : f->markers) {
        escape(&m.label);
    }
}

}  // namespace

void ReportContent::escapeControls() {
    escape(&title);
    escape(&subtitle);
    escape(&runningTitle);
    for (TimelineSource &t : timelines) {
        escape(&t.label);
    }
    for (Section &s : sections) {
        escape(&s.title);
        for (Block &b : s.blocks) {
            escape(&b.text);
            escape(&b.table);
            escape(&b.figure);
        }
    }
}

const ReportContent::Section *ReportContent::section(const QString &id) const {
    for (const Section &s : sections) {
        if (s.id == id) {
            return &s;
        }
    }
    return nullptr;
}

}  // namespace lmct
