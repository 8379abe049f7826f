#include "panes/headerpane.h"

#include "common/statuscolors.h"
#include "common/treecopyactions.h"
#include "common/treerowdelegate.h"
#include "itemmodels/headertree.h"
#include "itemmodels/inspectortreemodel.h"
#include "panes/inspectortreeview.h"
#include "util/terminaltext.h"
#include "util/timeformat.h"
#include "viewstate.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QTreeView>
#include <QVBoxLayout>

namespace lmct {

namespace {

TreeNode *addFact(TreeNode *parent, const QString &name, const QString &type, const QString &value,
                  const QString &copy = QString()) {
    TreeNode *n = parent->add(name, type, value);
    n->copyText = copy.isEmpty() ? value : copy;
    return n;
}

QString digestSymbol(TraceHeader::DigestStatus s) {
    switch (s) {
        case TraceHeader::DigestStatus::Match:
            return QStringLiteral("✓");
        case TraceHeader::DigestStatus::Mismatch:
            return QStringLiteral("✗");
        case TraceHeader::DigestStatus::Lost:
            return QStringLiteral("⚠");
        case TraceHeader::DigestStatus::Absent:
            break;
    }
    return QStringLiteral("–");
}

}  // namespace

HeaderPane::HeaderPane(QWidget *parent)
    : QWidget(parent),
      m_model(new InspectorTreeModel(this)),
      m_tree(new InspectorTreeView(this)),
      m_digest(new QLabel(this)),
      m_config(new QLabel(this)) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(4);
    m_digest->setContentsMargins(6, 0, 6, 0);
    m_digest->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_digest->setWordWrap(true);
    layout->addWidget(m_digest);
    m_config->setObjectName(QStringLiteral("configSummary"));
    m_config->setContentsMargins(6, 0, 6, 0);
    m_config->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_config->setWordWrap(true);
    m_config->setTextFormat(Qt::PlainText);
    layout->addWidget(m_config);

    m_tree->setModel(m_model);
    m_tree->setValueLast(true);  // short names and types, long values: the value stretches
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeView::customContextMenuRequested, this, &HeaderPane::contextMenu);
    rebuild();
}

HeaderPane::~HeaderPane() = default;

void HeaderPane::setViewState(ViewState *state) {
    if (!rebind(m_state, state, this)) {
        return;
    }
    if (m_state) {
        connect(m_state, &ViewState::documentChanged, this, &HeaderPane::rebuild);
        connect(m_state, &ViewState::wallUtcChanged, this, &HeaderPane::rebuild);
        connect(m_state, &ViewState::documentGrew, this, [this] {
            // Rebuilding resets the tree's expansion: only once loading is done.
            const auto doc = m_state->document();
            if (doc && !doc->isLoading()) {
                rebuild();
            }
        });
    }
    rebuild();
}

QString HeaderPane::digestText() const {
    return m_digest->text();
}

QString HeaderPane::digestToolTip() const {
    return m_digest->toolTip();
}

QString HeaderPane::configText() const {
    return m_configText;
}

QColor HeaderPane::colorFor(TraceHeader::DigestStatus status, const QPalette &palette) {
    switch (status) {
        case TraceHeader::DigestStatus::Match:
            return StatusColors::ok(palette);
        case TraceHeader::DigestStatus::Mismatch:
            return StatusColors::error(palette);
        case TraceHeader::DigestStatus::Lost:
            return StatusColors::warning(palette);
        case TraceHeader::DigestStatus::Absent:
            break;
    }
    return StatusColors::muted(palette);
}

void HeaderPane::rebuild() {
    m_tree->rowDelegate()->clearAccents();
    const auto doc = m_state ? m_state->document() : nullptr;
    if (!doc) {
        m_model->clear();
        m_digestColor = QColor();
        m_digest->setText(m_state ? tr("Loading…") : tr("No trace"));
        m_digest->setPalette(palette());
        m_digest->setToolTip(QString());
        m_config->clear();
        m_configText.clear();
        m_config->setToolTip(QString());
        m_config->hide();
        return;
    }
    const QLocale loc;
    const bool utc = m_state->wallUtc();
    const RecordStore &rs = doc->records();
    const TraceHeader &header = doc->header();

    auto root = std::make_unique<TreeNode>();
    // The size now: a file truncated by another process since it was opened says so.
    const qint64 shrunk = doc->shrunkTo();
    const qint64 size = shrunk >= 0 ? shrunk : doc->fileSize();
    TreeNode *file =
        root->add(tr("File"), QString(),
                  tr("%1 · %2 · %3 records")
                      .arg(doc->fileName(), loc.formattedDataSize(size), loc.toString(rs.size())));
    file->copyText = doc->filePath();
    addFact(file, tr("path"), tr("file"), doc->filePath());
    addFact(file, tr("size"), tr("bytes"),
            shrunk >= 0 ? tr("%1 (%2 bytes): shrank from %3 bytes while open; the records after "
                             "offset %2 are no longer readable")
                              .arg(loc.formattedDataSize(size), loc.toString(size),
                                   loc.toString(doc->fileSize()))
                        : tr("%1 (%2 bytes)").arg(loc.formattedDataSize(size), loc.toString(size)),
            QString::number(size));
    addFact(file, tr("records"), tr("count"), loc.toString(rs.size()), QString::number(rs.size()));
    addFact(file, tr("duration"), tr("s"),
            tr("%1 (largest t_mono, %2 s)")
                .arg(TimeFormat::duration(doc->duration()), TimeFormat::mono(doc->duration())),
            TimeFormat::mono(doc->duration()));
    if (!rs.isEmpty()) {
        addFact(file, tr("first t_wall"), tr("date-time"), TimeFormat::wall(rs.minTWall(), utc),
                TimeFormat::fixed(rs.minTWall(), 6));
        addFact(file, tr("last t_wall"), tr("date-time"), TimeFormat::wall(rs.maxTWall(), utc),
                TimeFormat::fixed(rs.maxTWall(), 6));
    }
    addFact(file, tr("records start"), tr("offset"),
            tr("byte %1").arg(loc.toString(doc->recordsStart())),
            QString::number(doc->recordsStart()));
    const int errors = doc->errorCount();
    const int warnings = doc->warningCount();
    const qint64 notes = doc->diagnosticCount() - errors - warnings;
    auto counted = [&loc](qint64 n, const QString &one, const QString &many) {
        return (n == 1 ? one : many).arg(loc.toString(n));
    };
    TreeNode *diag = addFact(file, tr("diagnostics"), tr("count"),
                             tr("%1 (%2, %3, %4)")
                                 .arg(loc.toString(doc->diagnosticCount()),
                                      counted(errors, tr("%1 error"), tr("%1 errors")),
                                      counted(warnings, tr("%1 warning"), tr("%1 warnings")),
                                      counted(notes, tr("%1 note"), tr("%1 notes"))));
    diag->problem = errors > 0 || warnings > 0;
    if (doc->skippedBytes() > 0 || doc->skippedFrames() > 0) {
        TreeNode *d =
            addFact(file, tr("damage"), tr("derived"),
                    tr("%1 skipped, %2 skipped, %3 after a resync")
                        .arg(counted(doc->skippedBytes(), tr("%1 byte"), tr("%1 bytes")),
                             counted(doc->skippedFrames(), tr("%1 frame"), tr("%1 frames")),
                             counted(doc->recoveredFrames(), tr("%1 record"), tr("%1 records"))));
        d->problem = true;
    }
    if (doc->isPartial()) {
        TreeNode *p = addFact(file, tr("partial"), tr("derived"),
                              tr("loading was cancelled: only the records read so far are shown"));
        p->problem = true;
    }

    auto fields = HeaderTree::build(header);
    QStringList summary;
    if (!header.level().isEmpty()) {
        summary << header.level();
    }
    if (header.traceSchemaVersion()) {
        summary << tr("schema %1").arg(*header.traceSchemaVersion());
    }
    if (!header.lmcacheVersion().isEmpty()) {
        summary << tr("LMCache %1").arg(header.lmcacheVersion());
    }
    if (header.formatVersion()) {
        summary << tr("format %1").arg(*header.formatVersion());
    }
    TreeNode *head = root->add(tr("Header"), tr("frame 0"), summary.join(QStringLiteral(" · ")));
    TreeNode *digestRow = nullptr;
    auto children = std::move(fields->children);
    for (auto &c : children) {
        TreeNode *added = head->add(std::move(c));
        if (added->name == QLatin1String("digest check")) {
            digestRow = added;
        }
    }

    m_model->setTree(std::move(root), doc);
    const QModelIndex fileIdx = m_model->index(0, 0);
    const QModelIndex headIdx = m_model->index(1, 0);
    m_tree->expand(fileIdx);
    m_tree->expand(headIdx);
    for (int r = 0; r < m_model->rowCount(headIdx); ++r) {
        const QModelIndex i = m_model->index(r, 0, headIdx);
        if (i.data().toString() == QLatin1String("level_meta")) {
            m_tree->expand(i);
        }
    }

    const auto status = header.digestStatus();
    m_digestColor = colorFor(status, palette());
    if (digestRow) {
        m_tree->rowDelegate()->setRowAccent(m_model->index(digestRow->row, 0, headIdx),
                                            m_digestColor);
    }
    QString text =
        tr("Config digest: %1 %2").arg(digestSymbol(status), TraceHeader::digestStatusName(status));
    switch (status) {
        case TraceHeader::DigestStatus::Match:
            text += tr(" — sm_config_digest is the SHA-256 of sm_config_json");
            break;
        case TraceHeader::DigestStatus::Mismatch:
            text += tr(" — sm_config_json was changed after the digest was written");
            break;
        case TraceHeader::DigestStatus::Absent:
            text += tr(" — no StorageManager config was attached");
            break;
        case TraceHeader::DigestStatus::Lost:
            text += tr(" — the header was rewritten in place; config and digest are gone");
            break;
    }
    m_digest->setText(text);
    QString tip;
    switch (status) {
        case TraceHeader::DigestStatus::Match:
            tip = tr("sm_config_digest is the SHA-256 of the UTF-8 bytes of sm_config_json.");
            break;
        case TraceHeader::DigestStatus::Mismatch:
            tip = tr("sm_config_digest is not the SHA-256 of sm_config_json.\nSHA-256 of "
                     "sm_config_json: %1\nsm_config_digest: %2")
                      .arg(header.computedDigest(), header.smConfigDigest().left(64));
            break;
        case TraceHeader::DigestStatus::Absent:
            tip = tr("The header has no sm_config_digest to check the config by.");
            break;
        case TraceHeader::DigestStatus::Lost:
            tip =
                tr("LMCache's first recorder rewrote the header over its own records; "
                   "sm_config_json and sm_config_digest were overwritten.");
            break;
    }
    const StorageManagerConfig &config = header.smConfig();
    if (const QString note = config.volatileNote(); !note.isEmpty()) {
        tip += QLatin1Char('\n') + note;
    }
    // The first line of each tool tip is the viewer's own text: Qt takes a tool tip for rich
    // text only by a tag before the first line break, so the trace's text stays plain.
    m_digest->setToolTip(TerminalText::escapedLines(tip));

    m_config->show();
    // (policy names and paths are the trace's text: control and bidi characters escaped)
    m_configText = tr("Config: %1").arg(TerminalText::escaped(config.summary()));
    // A narrow pane wraps between the parts, not inside one ("at 80 %" / "watermark").
    QStringList parts = config.summaryParts();
    for (QString &part : parts) {
        part = TerminalText::escaped(part).replace(QLatin1Char(' '), QChar::Nbsp);
    }
    m_config->setText(tr("Config: %1").arg(parts.join(QStringLiteral(" · "))));
    m_config->setToolTip(tr("StorageManagerConfig (sm_config_json):") + QLatin1Char('\n') +
                         TerminalText::escapedLines(config.summaryParts().join(QLatin1Char('\n'))));
    QPalette configPal = palette();
    if (config.state() == StorageManagerConfig::State::None) {
        configPal.setColor(QPalette::WindowText, StatusColors::muted(configPal));
    } else if (!config.isValid() || !config.fieldProblems().isEmpty()) {
        // not a config object, lost with the header, or fields of another type or range
        configPal.setColor(QPalette::WindowText, StatusColors::warning(configPal));
    }
    m_config->setPalette(configPal);

    QPalette pal = palette();
    pal.setColor(QPalette::WindowText, m_digestColor);
    m_digest->setPalette(pal);
    QFont f = m_digest->font();
    f.setBold(true);
    m_digest->setFont(f);

    m_tree->fitColumns();
}

void HeaderPane::contextMenu(const QPoint &pos) {
    const QModelIndex idx = m_tree->indexAt(pos);
    if (!idx.isValid()) {
        return;
    }
    QMenu menu(this);
    TreeCopyActions::addToMenu(&menu, idx);
    menu.exec(m_tree->viewport()->mapToGlobal(pos));
}

}  // namespace lmct
