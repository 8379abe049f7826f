#include "whatifcommand.h"

#include "cache/keyanalysis.h"
#include "cachecommand.h"
#include "trace/storagemanagerconfig.h"
#include "trace/traceloader.h"
#include "util/terminaltext.h"
#include "whatif/cachepolicy.h"
#include "whatif/capacityspec.h"
#include "whatif/chunksize.h"
#include "whatif/configuredrun.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <unistd.h>
#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <mutex>
#include <optional>

namespace lmct {

namespace {

/**
 * "lmct whatif: STAGE N %" on stderr, rewritten in place, when stderr is a terminal; nothing
 * otherwise (a script's stderr keeps only errors). Callable from worker threads.
 */
class TerminalProgress {
public:
    TerminalProgress() : m_on(isatty(fileno(stderr)) != 0) {}
    ~TerminalProgress() { clear(); }

    void stage(const char *name) {
        std::lock_guard lock(m_mutex);
        m_stage = name;
        m_percent = -1;
    }
    void percent(int p) {
        if (!m_on) {
            return;
        }
        std::lock_guard lock(m_mutex);
        p = std::clamp(p, 0, 100);
        if (p == m_percent) {
            return;
        }
        m_percent = p;
        std::fprintf(stderr, "\rlmct whatif: %s %3d %%\033[K", m_stage, p);
        std::fflush(stderr);
        m_shown = true;
    }
    void clear() {
        std::lock_guard lock(m_mutex);
        if (m_shown) {
            std::fputs("\r\033[K", stderr);
            std::fflush(stderr);
            m_shown = false;
        }
    }
    std::function<void(int)> callback() {
        return [this](int p) { percent(p); };
    }

private:
    const bool m_on;
    std::mutex m_mutex;
    const char *m_stage = "";
    int m_percent = -1;
    bool m_shown = false;
};

QString policyNames() {
    QStringList names;
    for (const CachePolicy::Kind k : CachePolicy::all()) {
        names << CachePolicy::name(k);
    }
    return names.join(QStringLiteral(", "));
}

/** --policy LIST: names in the order given, repeats dropped; nullopt after `*error`. */
std::optional<std::vector<CachePolicy::Kind>> parsePolicies(const QString &text, QString *error) {
    std::vector<CachePolicy::Kind> kinds;
    qsizetype begin = 0;
    for (const QString &item : text.split(QLatin1Char(','))) {
        const QString name = item.trimmed();
        const qsizetype at = begin + (name.isEmpty() ? 0 : item.indexOf(name));
        const auto kind = CachePolicy::fromName(name);
        if (!kind) {
            *error = QStringLiteral("--policy: %1 at %2: expected one of %3")
                         .arg(name.isEmpty() ? QStringLiteral("empty policy")
                                             : QLatin1Char('\'') + name + QLatin1Char('\''))
                         .arg(at + 1)
                         .arg(policyNames());
            return std::nullopt;
        }
        if (std::find(kinds.begin(), kinds.end(), *kind) == kinds.end()) {
            kinds.push_back(*kind);
        }
        begin += item.size() + 1;
    }
    return kinds;
}

/** `names` for a message: quoted, comma-separated, "none" when empty. */
QString quotedList(const QStringList &names) {
    if (names.isEmpty()) {
        return QStringLiteral("none");
    }
    QStringList q;
    for (const QString &n : names) {
        q << QLatin1Char('\'') + n + QLatin1Char('\'');
    }
    return q.join(QStringLiteral(", "));
}

QString percent(double ratio) {
    return QStringLiteral("%1 %").arg(100.0 * ratio, 0, 'f', 1);
}

QString bytesText(quint64 bytes) {
    if (bytes <= quint64(INT64_MAX)) {
        return StorageManagerConfig::formatBytes(qint64(bytes));
    }
    QString n = QString::number(double(bytes) / double(quint64(1) << 60), 'f', 2);
    while (n.endsWith(QLatin1Char('0'))) {
        n.chop(1);
    }
    if (n.endsWith(QLatin1Char('.'))) {
        n.chop(1);
    }
    return n + QStringLiteral(" EiB");
}

/** `chunks` × `perChunk` bytes in words; "over 16 EiB" past 2^64 - 1. */
QString chunkBytesText(quint64 chunks, quint64 perChunk) {
    const unsigned __int128 bytes = (unsigned __int128)chunks * perChunk;
    return bytes > std::numeric_limits<quint64>::max() ? QStringLiteral("over 16 EiB")
                                                       : bytesText(quint64(bytes));
}

QString countedChunks(quint64 n) {
    return CacheCommand::counted(qint64(n), "chunk", "chunks");
}

QByteArray jsonArray(const std::vector<double> &v) {
    QByteArray out = "[";
    for (size_t i = 0; i < v.size(); ++i) {
        out += (i ? "," : "") + CacheCommand::number(v[i]);
    }
    return out + "]";
}

QByteArray jsonArray(const std::vector<quint64> &v) {
    QByteArray out = "[";
    for (size_t i = 0; i < v.size(); ++i) {
        out += (i ? "," : "") + QByteArray::number(v[i]);
    }
    return out + "]";
}

}  // namespace

int WhatIfCommand::run(const QStringList &args) {
    CacheCommand cmd(
        QStringLiteral("whatif"),
        QStringLiteral(
            "What another capacity or eviction policy would have done: the prefetch hit ratio\n"
            "(counted submit_prefetch_task key occurrences that hit, over all of them) and the\n"
            "miss ratio (over all uses: finish_write, submit_prefetch_task and\n"
            "read_prefetched_results.__enter__ keys) of LRU, FIFO, CLOCK, S3-FIFO, ARC and OPT\n"
            "(Belady) at each capacity, replayed over the trace's keys in file order. The text\n"
            "output also compares the L1 capacity and eviction policy of the header's\n"
            "StorageManagerConfig with OPT at the same capacity.\n"
            "Exit 0 ok, 1 usage error, 2 unreadable input."));
    QCommandLineParser &p = cmd.parser();
    p.addOption({QStringLiteral("policy"),
                 QStringLiteral("Policies to replay, comma-separated: %1 (default: all).")
                     .arg(policyNames()),
                 QStringLiteral("LIST")});
    p.addOption({QStringLiteral("capacity"),
                 QStringLiteral("Capacities, comma-separated: chunk counts (1024) or sizes "
                                "(48GiB, 1.5GB, 512MiB; KiB/MiB/GiB/TiB powers of 1024, "
                                "KB/MB/GB/TB of 1000). Default: every power of two from 1 to the "
                                "first at or above the number of distinct keys."),
                 QStringLiteral("LIST")});
    p.addOption({QStringLiteral("model"), QStringLiteral("Only the keys of this model_name."),
                 QStringLiteral("M")});
    p.addOption({QStringLiteral("salt"),
                 QStringLiteral("Only the keys of this cache_salt (tenant)."),
                 QStringLiteral("S")});
    p.addOption({QStringLiteral("sample"),
                 QStringLiteral("Replay only this fraction of the keys (SHARDS sampling, in "
                                "(0, 1]; default 1: every key); counts are scaled back."),
                 QStringLiteral("RATE")});
    const int rc = cmd.parse(args);
    if (rc >= 0) {
        return rc;
    }

    // Everything that needs no trace is checked before the trace is read.
    WhatIfAnalysis::Options options;
    if (p.isSet(QStringLiteral("policy"))) {
        QString error;
        const auto kinds = parsePolicies(p.value(QStringLiteral("policy")), &error);
        if (!kinds) {
            cmd.error(error);
            return CacheCommand::kExitUsage;
        }
        options.policies = *kinds;
    } else {
        options.policies.assign(CachePolicy::all().begin(), CachePolicy::all().end());
    }
    std::vector<CapacitySpec> specs;
    if (p.isSet(QStringLiteral("capacity"))) {
        QString error;
        const auto list = CapacitySpec::parseList(p.value(QStringLiteral("capacity")), &error);
        if (!list) {
            cmd.error(QStringLiteral("--capacity: ") + error);
            return CacheCommand::kExitUsage;
        }
        specs = *list;
    }
    if (p.isSet(QStringLiteral("sample"))) {
        const QString text = p.value(QStringLiteral("sample"));
        bool ok = false;
        const double rate = text.trimmed().toDouble(&ok);
        if (!ok || !(rate > 0.0 && rate <= 1.0)) {
            cmd.error(QStringLiteral("--sample: expected a rate above 0 and at most 1 (e.g. "
                                     "0.01), found '%1'")
                          .arg(text));
            return CacheCommand::kExitUsage;
        }
        options.sampleRate = rate;
    }

    TerminalProgress progress;
    progress.stage("reading");
    TraceLoader::Options loadOptions;
    loadOptions.progress = [&progress](qint64 done, qint64 total, qint64) {
        progress.percent(total > 0 ? int(100 * done / total) : 0);
    };
    QString why;
    std::shared_ptr<const TraceDocument> doc = TraceLoader::load(cmd.file(), &why, loadOptions);
    CommandSupport::watchInput(cmd.file(), doc);
    if (!doc) {
        progress.clear();
        cmd.error(why);
        return CacheCommand::kExitUnreadable;
    }
    progress.clear();
    progress.stage("keys");
    const auto ka = KeyAnalysis::build(*doc, progress.callback());
    // A damaged trace is replayed as far as it reads: its figures leave the damage out, and
    // the records past the end of a file cut while it was read (told after the key scan,
    // which checks for it).
    progress.clear();
    cmd.warnIfDamaged(*doc, ka->readableRecordCount());
    const qint64 shrunkTo = doc->shrunkTo();

    UseSequence::Scope scope;
    QStringList scopeWords;
    if (p.isSet(QStringLiteral("model"))) {
        const QString model = p.value(QStringLiteral("model"));
        scope.model = int(ka->models().indexOf(model));
        if (scope.model < 0) {
            progress.clear();
            cmd.error(QStringLiteral("--model: no model '%1' in %2 (its models: %3)")
                          .arg(model, cmd.file(), quotedList(ka->models())));
            return CacheCommand::kExitUsage;
        }
        scopeWords << QStringLiteral("model %1").arg(model);
    }
    if (p.isSet(QStringLiteral("salt"))) {
        const QString salt = p.value(QStringLiteral("salt"));
        scope.salt = int(ka->salts().indexOf(salt));
        if (scope.salt < 0) {
            progress.clear();
            cmd.error(QStringLiteral("--salt: no cache_salt '%1' in %2 (its cache salts: %3)")
                          .arg(salt, cmd.file(), quotedList(ka->salts())));
            return CacheCommand::kExitUsage;
        }
        scopeWords << QStringLiteral("cache salt '%1'").arg(salt);
    }
    progress.stage("uses");
    const auto uses = UseSequence::build(*doc, ka, scope, progress.callback());
    const auto sample = options.sampleRate < 1.0 ? uses->sampled(options.sampleRate) : uses;
    if (options.sampleRate < 1.0 && uses->size() > 0 && sample->size() == 0) {
        // an empty sample would read as a cache that never misses
        progress.clear();
        cmd.error(QStringLiteral("--sample: a rate of %1 keeps none of the %2 keys in scope; "
                                 "give a larger rate")
                      .arg(options.sampleRate)
                      .arg(uses->keyCount()));
        return CacheCommand::kExitUsage;
    }

    // Bytes per object (ChunkSize: one rule for bytes to chunks, shared with the viewer).
    const ChunkSize chunkSize = ChunkSize::of(*uses);
    const quint64 perKey = chunkSize.perKey();  // 0: unknown or mixed
    const quint64 smallest = chunkSize.smallest(), largest = chunkSize.largest();
    const bool mixedSizes = chunkSize.isKnown() && !chunkSize.isUniform();

    const auto firstSize =
        std::find_if(specs.begin(), specs.end(), [](const CapacitySpec &s) { return s.bytes; });
    const bool anySize = firstSize != specs.end();
    const bool anyCount =
        std::any_of(specs.begin(), specs.end(), [](const CapacitySpec &s) { return !s.bytes; });
    if (anySize && uses->keyCount() == 0) {
        progress.clear();
        cmd.error(QStringLiteral("--capacity: %1 is a size, but no keys are in scope, so bytes "
                                 "per chunk are unknown: give chunk counts")
                      .arg(bytesText(firstSize->value)));
        return CacheCommand::kExitUsage;
    }
    if (anySize && !uses->hasSizes()) {
        progress.clear();
        cmd.error(QStringLiteral(
                      "--capacity: %1 is a size, but %2 has no layout for every key%3 (no "
                      "MemoryLayoutDesc in the reserve_write or submit_prefetch_task records of "
                      "its model), so bytes per chunk are unknown: give chunk counts (e.g. "
                      "--capacity 1024)")
                      .arg(bytesText(firstSize->value), cmd.file(),
                           scopeWords.isEmpty()
                               ? QString()
                               : QStringLiteral(" of ") + scopeWords.join(QStringLiteral(", "))));
        return CacheCommand::kExitUsage;
    }
    if (anySize && mixedSizes) {
        if (anyCount) {
            progress.clear();
            cmd.error(
                QStringLiteral("--capacity: the keys in scope differ in size (%1 to %2 per "
                               "object), so sizes are replayed in bytes and cannot be mixed "
                               "with chunk counts: give only sizes, or choose a model (--model)")
                    .arg(bytesText(smallest), bytesText(largest)));
            return CacheCommand::kExitUsage;
        }
        options.unit = WhatIfAnalysis::Unit::Bytes;
    }
    for (const CapacitySpec &s : specs) {
        options.capacities.push_back(options.unit == WhatIfAnalysis::Unit::Bytes
                                         ? s.value
                                         : s.chunks(chunkSize).value_or(s.value));
    }
    std::sort(options.capacities.begin(), options.capacities.end());
    options.capacities.erase(std::unique(options.capacities.begin(), options.capacities.end()),
                             options.capacities.end());

    progress.stage("replaying");
    const auto wi = WhatIfAnalysis::run(uses, options, progress.callback());
    if (!wi->error().isEmpty()) {
        progress.clear();
        cmd.error(wi->error());
        return CacheCommand::kExitUsage;
    }

    // The configuration the trace was recorded with.
    const StorageManagerConfig &config = doc->header().smConfig();
    const std::optional<qint64> l1 = config.l1Bytes();
    const std::optional<QString> configuredPolicy = config.evictionPolicy();
    const std::optional<quint64> configuredChunks =
        l1 && *l1 > 0 ? chunkSize.chunksFor(quint64(*l1)) : std::optional<quint64>();
    const quint64 chunksOfL1 = configuredChunks.value_or(0);

    if (cmd.json()) {
        progress.clear();
        QByteArray o = "{\"uses\":" + QByteArray::number(uses->size());
        o += ",\"distinct_keys\":" + QByteArray::number(uses->keyCount());
        o += ",\"prefetch_occurrences\":" + QByteArray::number(uses->prefetchOccurrences());
        o += ",\"unit\":" +
             QByteArray(options.unit == WhatIfAnalysis::Unit::Bytes ? "\"bytes\"" : "\"chunks\"");
        if (p.isSet(QStringLiteral("sample"))) {
            o += ",\"sample_rate\":" + CacheCommand::number(options.sampleRate);
        }
        if (shrunkTo >= 0) {
            o += ",\"shrunk\":{\"shrunk_to\":" + QByteArray::number(shrunkTo) +
                 ",\"records\":" + QByteArray::number(ka->readableRecordCount()) +
                 ",\"lost_records\":" + QByteArray::number(ka->lostRecords()) + "}";
        }
        o += ",\"configured\":{\"l1_bytes\":" + (l1 ? QByteArray::number(*l1) : QByteArray("null"));
        o += ",\"policy\":" +
             (configuredPolicy ? CacheCommand::string(*configuredPolicy) : QByteArray("null"));
        o +=
            ",\"chunks\":" + (chunksOfL1 > 0 ? QByteArray::number(chunksOfL1) : QByteArray("null"));
        o += "},\"policies\":{";
        bool first = true;
        for (const WhatIfAnalysis::Curve &c : wi->curves()) {
            o += (first ? "" : ",") + CacheCommand::string(CachePolicy::name(c.policy));
            o += ":{\"capacities\":" + jsonArray(c.capacities);
            o += ",\"prefetch_hit_ratio\":" + jsonArray(c.prefetchHitRatio);
            o += ",\"miss_ratio\":" + jsonArray(c.missRatio) + "}";
            first = false;
        }
        o += "}}\n";
        cmd.write(o);
        return CacheCommand::kExitOk;
    }

    // The configured capacity against OPT there (and the LRU capacity that matches OPT), every
    // figure from one replay in the table's unit (ConfiguredRun::figures(), as the viewer's
    // sentence), so that OPT's ratio and where LRU reaches it never mix chunks and bytes.
    QString configuredLine;
    if (l1 && *l1 > 0 && uses->prefetchOccurrences() > 0) {
        const ConfiguredRun run(quint64(*l1), configuredPolicy.value_or(QString()));
        const std::optional<CachePolicy::Kind> kind = run.policy();
        const QString ran = QStringLiteral("you ran %1 at %2")
                                .arg(kind ? CachePolicy::label(*kind)
                                     : !run.policyText().isEmpty()
                                         ? QLatin1Char('\'') + run.policyText() + QLatin1Char('\'')
                                         : QStringLiteral("an unknown eviction policy"),
                                     bytesText(quint64(*l1)));
        const WhatIfAnalysis::Unit unit = options.unit;
        if (!uses->hasSizes()) {
            configuredLine = ran + QStringLiteral(
                                       ": the trace has no layout (MemoryLayoutDesc), so the "
                                       "capacity in chunks is unknown");
        } else {
            WhatIfAnalysis::Options there;
            there.policies = {CachePolicy::Kind::Lru, CachePolicy::Kind::Opt};
            if (kind && *kind != CachePolicy::Kind::Lru && *kind != CachePolicy::Kind::Opt) {
                there.policies.push_back(*kind);
            }
            there.unit = unit;
            there.capacities = {run.capacityIn(unit, chunkSize)};
            there.sampleRate = options.sampleRate;
            progress.stage("configured capacity");
            const auto at = WhatIfAnalysis::run(uses, there, progress.callback());
            const ConfiguredRun::Figures f =
                run.figures(unit, {chunkSize, uses->prefetchOccurrences()}, at->curves(),
                            [&at](qint64 hits) { return at->lruCapacityFor(hits); });
            auto ratioOf = [](const std::optional<ConfiguredRun::Reading> &r) {
                return percent(r ? r->ratio : 0.0);
            };
            // a capacity of the replay in its unit, and in the other one (exact for one size)
            auto capacityText = [&](quint64 c) {
                if (unit == WhatIfAnalysis::Unit::Bytes) {
                    const std::optional<quint64> n = chunkSize.chunksFor(c);
                    return n ? QStringLiteral("%1 (≈ %2)").arg(bytesText(c), countedChunks(*n))
                             : bytesText(c);
                }
                return perKey > 0 ? QStringLiteral("%1 (%2)").arg(countedChunks(c),
                                                                  chunkBytesText(c, perKey))
                                  : QStringLiteral("%1 (≈ %2)")
                                        .arg(countedChunks(c), bytesText(*chunkSize.bytesFor(c)));
            };
            configuredLine = ran;
            if (f.chunks) {
                configuredLine += QStringLiteral(" ≈ %1").arg(countedChunks(*f.chunks));
            }
            if (kind) {
                configuredLine += QStringLiteral(": %1").arg(ratioOf(f.mine));
            } else {
                configuredLine += QStringLiteral("%1; LRU there: %2")
                                      .arg(run.policyText().isEmpty()
                                               ? QString()
                                               : QStringLiteral(" (not a policy lmct replays)"),
                                           ratioOf(f.lru));
            }
            if (!kind || *kind != CachePolicy::Kind::Opt) {
                configuredLine += QStringLiteral("; OPT there: %1").arg(ratioOf(f.opt));
            }
            const bool optHits = f.opt && f.opt->hits > 0;
            if (optHits && f.reach == ConfiguredRun::Reach::Never) {
                configuredLine += QStringLiteral("; LRU never reaches %1").arg(ratioOf(f.opt));
            } else if (optHits && f.reachAt > 0) {
                configuredLine += QStringLiteral("; LRU reaches %1 at %2")
                                      .arg(ratioOf(f.opt), capacityText(f.reachAt));
            }
            if (mixedSizes) {
                // the keys differ in size: say which replay these figures are of
                configuredLine += unit == WhatIfAnalysis::Unit::Bytes
                                      ? QStringLiteral(
                                            " (replayed in bytes, each key its own "
                                            "size, as the table)")
                                      : QStringLiteral(
                                            " (replayed in chunks, each key one "
                                            "chunk, as the table)");
            }
        }
    }
    progress.clear();

    const bool inBytes = options.unit == WhatIfAnalysis::Unit::Bytes;
    QString out = QStringLiteral("%1%2: %3, %4, %5\n")
                      .arg(TerminalText::escaped(doc->fileName()),
                           scopeWords.isEmpty()
                               ? QString()
                               : QStringLiteral(" (%1)").arg(scopeWords.join(QStringLiteral(", "))),
                           CacheCommand::counted(uses->size(), "use", "uses"),
                           CacheCommand::counted(uses->keyCount(), "distinct key", "distinct keys"),
                           CacheCommand::counted(uses->prefetchOccurrences(), "prefetch occurrence",
                                                 "prefetch occurrences"));
    if (shrunkTo >= 0) {
        const int lost = ka->lostRecords();
        out +=
            QStringLiteral(
                "the file shrank to %1 while it was read: these figures cover its "
                "first %2%3\n")
                .arg(CacheCommand::counted(shrunkTo, "byte", "bytes"),
                     CacheCommand::counted(ka->readableRecordCount(), "record", "records"),
                     lost > 0 ? QStringLiteral(" (the last %1 read %2 gone)")
                                    .arg(CacheCommand::counted(lost, "record", "records"),
                                         lost == 1 ? QStringLiteral("is") : QStringLiteral("are"))
                              : QString());
    }
    if (perKey > 0) {
        out += QStringLiteral("bytes per object: %1\n").arg(bytesText(perKey));
    } else if (mixedSizes) {
        out += QStringLiteral("bytes per object: %1 to %2%3\n")
                   .arg(bytesText(smallest), bytesText(largest),
                        inBytes ? QStringLiteral(" (capacities in bytes)") : QString());
    }
    if (options.sampleRate < 1.0) {
        // what the sample costs: SHARDS gives an estimate, no bound
        out += QStringLiteral(
                   "sampled: %1 of the keys (SHARDS: %2 of %3), counts scaled back\n"
                   "  an estimate: its error grows with fewer sampled keys and with hot keys "
                   "(no bound; see docs/cache-behaviour.md, Sampling)\n")
                   .arg(percent(options.sampleRate))
                   .arg(sample->keyCount())
                   .arg(uses->keyCount());
    }
    if (uses->prefetchOccurrences() == 0) {
        out += QStringLiteral("no prefetch occurrences in scope: every prefetch hit ratio is 0\n");
    }
    out +=
        QStringLiteral("\nprefetch hit ratio (counted prefetch occurrences that hit, over all):\n");

    const std::vector<WhatIfAnalysis::Curve> &curves = wi->curves();
    const bool withSize = perKey > 0;
    const size_t rows = curves.empty() ? 0 : curves.front().capacities.size();
    QStringList capacityCells, sizeCells;
    qsizetype capacityWidth = 12, sizeWidth = 12;  // wider for huge capacities
    for (size_t r = 0; r < rows; ++r) {
        const quint64 capacity = curves.front().capacities[r];
        capacityCells << (inBytes ? bytesText(capacity) : QString::number(capacity));
        sizeCells << (withSize ? chunkBytesText(capacity, perKey) : QString());
        capacityWidth = std::max(capacityWidth, capacityCells.back().size() + 2);
        sizeWidth = std::max(sizeWidth, sizeCells.back().size() + 2);
    }
    QString head = (inBytes ? QStringLiteral("CAPACITY") : QStringLiteral("CHUNKS"))
                       .rightJustified(capacityWidth);
    if (withSize) {
        head += QStringLiteral("SIZE").rightJustified(sizeWidth);
    }
    for (const WhatIfAnalysis::Curve &c : curves) {
        head += CachePolicy::label(c.policy).rightJustified(9);
    }
    out += head + QLatin1Char('\n');
    for (size_t r = 0; r < rows; ++r) {
        QString line = capacityCells[qsizetype(r)].rightJustified(capacityWidth);
        if (withSize) {
            line += sizeCells[qsizetype(r)].rightJustified(sizeWidth);
        }
        for (const WhatIfAnalysis::Curve &c : curves) {
            line += (r < c.prefetchHitRatio.size() ? percent(c.prefetchHitRatio[r])
                                                   : QStringLiteral("-"))
                        .rightJustified(9);
        }
        out += line + QLatin1Char('\n');
    }
    if (!configuredLine.isEmpty()) {
        out += QLatin1Char('\n') + configuredLine + QLatin1Char('\n');
    }
    cmd.write(out);
    return CacheCommand::kExitOk;
}

}  // namespace lmct
