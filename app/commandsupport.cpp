#include "commandsupport.h"
#include "util/terminaltext.h"

#include "export/recordexport.h"

#include "filter/filterevaluator.h"
#include "filter/tracesetfilter.h"
#include "trace/damagesummary.h"
#include "trace/traceloader.h"

#include <QFileInfo>
#include <QLocale>
#include <QTextStream>
#include <cmath>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

using namespace lmct;

void CommandSupport::addSelectionOptions(QCommandLineParser &p) const {
    p.addOption({QStringLiteral("filter"),
                 QStringLiteral("Only records matching EXPR (see docs/filter-language.md), e.g. "
                                "'call == reserve_write && model_name == \"Qwen/Qwen3-8B\"'."),
                 QStringLiteral("EXPR")});
    p.addOption({QStringLiteral("range"),
                 QStringLiteral("Only records with T0 <= t_mono <= T1 (seconds; units ns, us, ms, "
                                "s, min, h allowed; open ends as in 5: or :10s)."),
                 QStringLiteral("T0:T1")});
}

int CommandSupport::parseArguments(QCommandLineParser &p, const QStringList &args) const {
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Trace file (*.lct, *.lmct)."));
    if (!p.parse(args)) {
        error(p.errorText() + QStringLiteral(" (see lmct %1 --help)").arg(m_command));
        return kExitUsage;
    }
    if (p.isSet(QStringLiteral("help"))) {
        printHelp(p);
        return kExitOk;
    }
    const QStringList files = p.positionalArguments();
    if (m_combinable && !combine(p) && p.isSet(QStringLiteral("offset"))) {
        error(QStringLiteral("--offset goes with --combine"));
        return kExitUsage;
    }
    if (m_combinable && combine(p) && !files.isEmpty()) {
        return -1;
    }
    if (files.isEmpty()) {
        // An option that takes a value took the trace as it ("--capacity t1.lct"): say so
        // rather than only that FILE is missing.
        for (const QString &name : p.optionNames()) {
            for (const QString &value : p.values(name)) {
                if (!value.isEmpty() && QFileInfo(value).isFile()) {
                    error(QStringLiteral("%1%2 needs a value: %3 looks like the trace (see lmct "
                                         "%4 --help)")
                              .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"),
                                   name, value, m_command));
                    return kExitUsage;
                }
            }
        }
    }
    if (files.size() != 1) {
        error(files.isEmpty() ? QStringLiteral("no FILE given (see lmct %1 --help)").arg(m_command)
                              : QStringLiteral("expected one FILE, got %1").arg(files.size()));
        return kExitUsage;
    }
    return -1;
}

void CommandSupport::addCombineOptions(QCommandLineParser &p) {
    m_combinable = true;
    p.addOption({QStringLiteral("combine"),
                 QStringLiteral("Read every FILE as one deployment: records interleaved by "
                                "t_wall (plus each trace's offset), a trace column first.")});
    p.addOption(
        {QStringLiteral("offset"),
         QStringLiteral("With --combine: add SECONDS (units ns, us, ms, s, min, h allowed; "
                        "may be negative) to every t_wall of the trace LABEL (its file name, "
                        "path or instance id). Repeatable."),
         QStringLiteral("LABEL=SECONDS")});
}

bool CommandSupport::combine(const QCommandLineParser &p) const {
    return m_combinable && p.isSet(QStringLiteral("combine"));
}

int CommandSupport::loadCombined(const QCommandLineParser &p, const Selection &sel,
                                 TraceSet *set) const {
    if (!sel.range.isAll()) {
        error(
            QStringLiteral("--range (t_mono, one host's clock) does not go with --combine; "
                           "filter on t_wall instead"));
        return kExitUsage;
    }
    return loadSet(p, p.positionalArguments(), set);
}

int CommandSupport::loadSet(const QCommandLineParser &p, const QStringList &files, TraceSet *set,
                            bool keepGoing, QList<QPair<QString, QString>> *refused) const {
    int rc = -1;
    for (const QString &file : files) {
        QString why;
        const auto doc = load(file, &why);
        if (!doc) {
            if (refused) {
                refused->append({file, why});
            }
            rc = kExitUnreadable;
            if (!keepGoing) {
                return rc;
            }
            continue;
        }
        if (set->add(doc, file) < 0) {
            error(QStringLiteral("too many traces (at most %1)").arg(TraceSet::kMaxTraces));
            return kExitUsage;
        }
    }
    const QStringList offsets =
        p.isSet(QStringLiteral("offset")) ? p.values(QStringLiteral("offset")) : QStringList();
    for (const QString &spec : offsets) {
        const qsizetype eq = spec.lastIndexOf(QLatin1Char('='));
        const QString label = eq > 0 ? spec.left(eq) : QString();
        const auto n = eq > 0 ? FilterLiteral::parseNumber(spec.mid(eq + 1)) : std::nullopt;
        if (label.isEmpty() || !n || n->unit == FilterLiteral::Unit::Bytes || n->hex ||
            !std::isfinite(n->value)) {
            error(QStringLiteral("invalid --offset '%1': expected LABEL=SECONDS, e.g. "
                                 "a.lct=0.004 or a.lct=-3ms")
                      .arg(spec));
            return kExitUsage;
        }
        const int t = set->indexOf(label);
        if (t < 0) {
            error(QStringLiteral("--offset '%1': no trace is labelled '%2' (traces: %3)")
                      .arg(spec, label, set->labels().join(QStringLiteral(", "))));
            return kExitUsage;
        }
        set->setOffset(t, n->value);
    }
    return rc;
}

std::vector<qint64> CommandSupport::selectRows(const TraceSet &set, const MergedOrder &order,
                                               const FilterExpression &filter,
                                               std::vector<std::vector<int>> *perTrace) {
    std::vector<qint64> rows;
    if (filter.isEmpty()) {
        rows.resize(size_t(order.size()));
        for (qint64 i = 0; i < order.size(); ++i) {
            rows[size_t(i)] = i;
        }
        return rows;
    }
    TraceSetFilter::Result r = TraceSetFilter::run(set, order, filter);
    if (perTrace) {
        perTrace->clear();
        for (const auto &records : r.perTrace) {
            perTrace->push_back(*records);
        }
    }
    return std::move(r.rows);
}

void CommandSupport::printHelp(const QCommandLineParser &p) const {
    QString help = p.helpText();
    // The first line names the program as invoked; name the command instead.
    const qsizetype eol = help.indexOf(QLatin1Char('\n'));
    const qsizetype opts = help.indexOf(QLatin1String(" [options]"));
    if (help.startsWith(QLatin1String("Usage: ")) && opts > 0 && opts < eol) {
        help.replace(7, opts - 7, QStringLiteral("lmct %1").arg(m_command));
    }
    print(help);
}

bool CommandSupport::readSelection(const QCommandLineParser &p, Selection *out) const {
    if (p.isSet(QStringLiteral("filter"))) {
        const QString text = p.value(QStringLiteral("filter"));
        out->filter = FilterExpression::parse(text);
        if (!out->filter.isValid()) {
            const FilterExpression::Error &e = out->filter.error();
            QTextStream err(stderr);
            err << "lmct " << m_command << ": invalid filter: " << e.toString() << "\n"
                << "  " << text << "\n"
                << "  " << QString(qMax(0, e.column - 1), QLatin1Char(' '))
                << QString(qMax(1, e.length), QLatin1Char('^')) << "\n";
            return false;
        }
    }
    if (p.isSet(QStringLiteral("range"))) {
        QString why;
        const auto r = TMonoRange::parse(p.value(QStringLiteral("range")), &why);
        if (!r) {
            error(QStringLiteral("invalid --range: %1").arg(why));
            return false;
        }
        out->range = *r;
    }
    return true;
}

std::shared_ptr<const TraceDocument> CommandSupport::load(const QString &file,
                                                          QString *whyNot) const {
    QString why;
    std::shared_ptr<const TraceDocument> doc = TraceLoader::load(file, &why);
    if (!doc) {
        error(why);
        if (whyNot) {
            *whyNot = why;
        }
    }
    watchInput(file, doc);
    return doc;
}

std::vector<int> CommandSupport::select(const std::shared_ptr<const TraceDocument> &doc,
                                        const Selection &selection) {
    FilterEvaluator ev(doc, selection.filter);
    FilterEvaluator::Options o;
    o.range = selection.range;
    return ev.run(o).records;
}

void CommandSupport::error(const QString &message) const {
    // File names and trace strings in messages may hold terminal controls.
    QTextStream(stderr) << "lmct " << m_command << ": " << TerminalText::escaped(message) << "\n";
}

void CommandSupport::warnIfDamaged(const TraceDocument &doc, const QString &who,
                                   qint64 covered) const {
    // A damaged trace is read as far as it goes: its figures leave the damage out.
    const QString damage =
        DamageSummary::of(doc, covered).sentence(who.isEmpty() ? doc.fileName() : who);
    if (!damage.isEmpty()) {
        error(QStringLiteral("warning: ") + damage);
    }
}

void CommandSupport::warnIfDamaged(const TraceSet &set) const {
    for (int t = 0; t < set.size(); ++t) {
        warnIfDamaged(set.document(t), set.label(t));
    }
}

namespace {
QString g_outputError;  // why standard output could not be written (the first failure)
int g_outputErrno = 0;  // its errno value, 0 when unknown

void noteFailedWrite() {
    const int e = errno;
    CommandSupport::noteOutputError(e ? QString::fromLocal8Bit(std::strerror(e)) : QString(), e);
}
}  // namespace

void CommandSupport::guardStandardStreams() {
#ifdef Q_OS_UNIX
    std::signal(SIGPIPE, SIG_IGN);
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) {
            continue;
        }
        const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);  // the lowest free number
        if (null >= 0 && null != fd) {
            ::dup2(null, fd);  // (dup2 clears O_CLOEXEC on fd)
            ::close(null);
        } else if (null == fd) {
            ::fcntl(fd, F_SETFD, 0);
        }
    }
#endif
}

void CommandSupport::noteOutputError(const QString &reason, int errorNumber) {
    if (g_outputError.isEmpty()) {
        g_outputError = reason.isEmpty() ? QStringLiteral("write error") : reason;
        g_outputErrno = errorNumber;
    }
}

void CommandSupport::print(const QByteArray &bytes) {
    errno = 0;
    if (!bytes.isEmpty() &&
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout) != size_t(bytes.size())) {
        noteFailedWrite();
    }
}

void CommandSupport::flushOutput() {
    errno = 0;
    if (std::fflush(stdout) != 0) {
        noteFailedWrite();
    }
}

namespace {
// The traces commands loaded (main() checks them once the command has run).
std::vector<std::pair<QString, std::shared_ptr<const TraceDocument>>> g_inputs;  // kept to exit
// The shrinks a command's own error told of: the document and the size it named.
std::vector<std::pair<const TraceDocument *, qint64>> g_shrinksReported;
}  // namespace

void CommandSupport::shrinkReported(const TraceDocument &doc) {
    g_shrinksReported.emplace_back(&doc, doc.shrunkTo());
}

void CommandSupport::watchInput(const QString &file,
                                const std::shared_ptr<const TraceDocument> &doc) {
    if (doc) {
        g_inputs.emplace_back(file, doc);
    }
}

int CommandSupport::checkShrunkInputs(int rc) {
    for (const auto &[file, doc] : g_inputs) {
        qint64 shrunk = -1;
        const QString shrank = doc->shrinkSentence(&shrunk);
        if (shrank.isEmpty()) {
            continue;
        }
        rc = kExitUnreadable;
        const std::pair<const TraceDocument *, qint64> seen{doc.get(), shrunk};
        if (std::find(g_shrinksReported.begin(), g_shrinksReported.end(), seen) !=
            g_shrinksReported.end()) {
            continue;  // the command's error said it
        }
        QTextStream(stderr) << "lmct: " << TerminalText::escaped(shrank)
                            << ": the output about what lay past byte " << shrunk
                            << " is not the file's\n";
    }
    return rc;
}

int CommandSupport::finishStandardOutput(int rc) {
    flushOutput();
    if (std::ferror(stdout)) {
        noteOutputError(QString());  // a failed write the stream kept no reason for
    }
    if (g_outputError.isEmpty()) {
        return rc;
    }
    if (g_outputErrno == EPIPE) {  // the reader has gone (`| head`): normal, nothing to say
        return kExitUnreadable;
    }
    QTextStream(stderr) << "lmct: cannot write to standard output: " << g_outputError << "\n";
    return kExitUnreadable;
}

QByteArray CommandSupport::number(double v) {
    return lmct::RecordExport::number(v);
}
