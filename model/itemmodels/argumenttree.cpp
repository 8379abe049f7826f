#include "itemmodels/argumenttree.h"

#include "codec/kvrank.h"
#include "codec/memorylayout.h"
#include "codec/valueformatter.h"
#include "util/timeformat.h"

#include <QStringList>
#include <cmath>

namespace lmct {

namespace {

class Builder {
public:
    Builder(int maxNodes, const ArgumentTree::TimeContext &time) : m_left(maxNodes), m_time(time) {}

    void children(TreeNode *node, const Value &v, const QString &path) {
        const Value &c = v.isTagged() ? v.payload() : v;
        if (c.isMap()) {
            for (int i = 0; i < c.size(); ++i) {
                if (!room(node, c.size() - i)) {
                    return;
                }
                const QString key = c.keyAt(i);
                const QString p = path.isEmpty() ? key : path + QLatin1Char('.') + key;
                TreeNode *n = entry(node, key, c.at(i), p);
                if (key == QLatin1String("kv_rank") && c.at(i).isInt()) {
                    rankRows(n, c.at(i).toInt());
                }
            }
        } else if (c.isArray()) {
            for (int i = 0; i < c.size(); ++i) {
                if (!room(node, c.size() - i)) {
                    return;
                }
                entry(node, QStringLiteral("[%1]").arg(i), c.at(i),
                      path + QStringLiteral("[%1]").arg(i));
            }
        } else if (c.isTagged()) {
            // A tag whose payload is itself tagged.
            entry(node, QStringLiteral("v"), c, path);
        }
        if (v.isTagged() && v.tag() == QLatin1String("MemoryLayoutDesc")) {
            if (auto l = MemoryLayout::fromValue(v)) {
                const auto bytes = l->bytesPerObject();
                TreeNode *d =
                    node->add(QStringLiteral("bytes per object"), QStringLiteral("derived"),
                              bytes ? QStringLiteral("%1 (%2)").arg(*bytes).arg(formatBytes(*bytes))
                                    : QStringLiteral("unknown dtype size"));
                d->derived = true;
                d->toolTip = QStringLiteral("Σ over shapes of (∏ dims × dtype size)");
            }
        }
        if (v.isTagged() && v.tag() == QLatin1String("PrefetchHandle") && c.isMap()) {
            prefetchHandle(node);
        }
    }

private:
    bool room(TreeNode *node, int remaining) {
        if (m_left > 0) {
            --m_left;
            return true;
        }
        if (!m_noted) {
            node->add(QStringLiteral("…"), QString(),
                      QStringLiteral("%1 more rows not shown (inspector limit)").arg(remaining));
            m_noted = true;
        }
        return false;
    }

    TreeNode *entry(TreeNode *parent, const QString &name, const Value &v, const QString &path) {
        auto n = std::make_unique<TreeNode>();
        n->name = name;
        n->type = ValueFormatter::typeLabel(v);
        n->value = ValueFormatter::display(v, 300);
        n->path = path;
        n->source = &v;
        n->problem = v.type() == Value::Type::Truncated;
        if (v.isBytes()) {
            n->value = QString::fromLatin1(v.toBytes().toHex());
        }
        TreeNode *added = parent->add(std::move(n));
        if (v.isContainer()) {
            children(added, v, path);
        }
        return added;
    }

    /** Readable values on the rows of a PrefetchHandle payload (children of `node`). */
    void prefetchHandle(TreeNode *node) {
        auto row = [node](const char *name) -> TreeNode * {
            for (const auto &c : node->children) {
                if (c->name == QLatin1String(name) && c->source) {
                    return c.get();
                }
            }
            return nullptr;
        };
        TreeNode *found = row("l1_found_indices");
        if (found && found->source->isArray()) {
            found->value = ValueFormatter::indexRuns(*found->source, 300);
            found->toolTip = QStringLiteral(
                "Positions (from 0) of the requested keys LMCache found in L1 when the "
                "prefetch was submitted");
        }
        TreeNode *hits = row("l1_prefix_hit_count");
        TreeNode *totalRow = row("total_requested_keys");
        const Value *total = totalRow && totalRow->source->isInt() ? totalRow->source : nullptr;
        if (total && negative(*total)) {
            totalRow->value += QStringLiteral(" ⚠ negative");
            totalRow->problem = true;
        }
        if (hits && hits->source->isInt()) {
            const Value &n = *hits->source;
            // (as written: a uint64 above INT64_MAX is not shown wrapped to a negative number)
            if (total) {
                hits->value = QStringLiteral("%1 of %2 key%3 hit in L1")
                                  .arg(ValueFormatter::number(n), ValueFormatter::number(*total))
                                  .arg(!negative(*total) && total->toUInt() == 1 ? "" : "s");
            }
            hits->toolTip = QStringLiteral(
                "LMCache's own count of the request's prefix keys found in L1 (of "
                "total_requested_keys)");
            QStringList problems;
            if (negative(n)) {
                problems << QStringLiteral("negative");
            } else if (total && !negative(*total) && n.toUInt() > total->toUInt()) {
                problems << QStringLiteral("more than total_requested_keys");
            }
            if (found && found->source->isArray() &&
                (negative(n) || n.toUInt() != quint64(found->source->size()))) {
                problems << QStringLiteral("l1_found_indices lists %1").arg(found->source->size());
            }
            if (!problems.isEmpty()) {
                hits->value += QStringLiteral(" ⚠ ") + problems.join(QStringLiteral("; "));
                hits->problem = true;
            }
        }
        TreeNode *submit = row("submit_time");
        if (submit && (submit->source->isInt() || submit->source->type() == Value::Type::Float)) {
            const double raw = submit->source->toDouble();
            submit->toolTip = QStringLiteral(
                "The server's raw time.monotonic() (seconds), not relative to the header's "
                "t_mono_start");
            if (!m_time.tMonoStart || !std::isfinite(*m_time.tMonoStart) || !std::isfinite(raw)) {
                derivedRow(submit, QStringLiteral("t_mono"), QStringLiteral("unknown"),
                           QStringLiteral("The header has no t_mono_start to place submit_time "
                                          "on the trace's time axis"));
                return;
            }
            const double t = raw - *m_time.tMonoStart;
            derivedRow(submit, QStringLiteral("t_mono"),
                       QStringLiteral("%1 s").arg(TimeFormat::mono(t)),
                       QStringLiteral("submit_time − the header's t_mono_start (%1): the submit "
                                      "on the trace's time axis")
                           .arg(ValueFormatter::number(Value::floating(*m_time.tMonoStart))));
            if (m_time.recordTMono && std::isfinite(*m_time.recordTMono)) {
                const double age = *m_time.recordTMono - t;
                derivedRow(submit, QStringLiteral("age"),
                           age >= 0
                               ? TimeFormat::duration(age)
                               : TimeFormat::delta(age) + QStringLiteral(" (after this record)"),
                           QStringLiteral("From submit_time to this record's t_mono"));
            }
        }
    }

    /** An Int Value below zero (a uint64 above INT64_MAX is not). */
    static bool negative(const Value &v) { return !v.isUnsigned() && v.toInt() < 0; }

    static void derivedRow(TreeNode *n, const QString &name, const QString &value,
                           const QString &toolTip) {
        TreeNode *d = n->add(name, QStringLiteral("derived"), value);
        d->derived = true;
        d->toolTip = toolTip;
    }

    void rankRows(TreeNode *n, qint64 packed) {
        const KvRank r = KvRank::unpack(packed);
        n->value = QStringLiteral("%1 (0x%2) · %3")
                       .arg(packed)
                       .arg(packed, 8, 16, QLatin1Char('0'))
                       .arg(r.toString());
        const struct {
            const char *name;
            int value;
        } parts[] = {{"world_size", r.worldSize},
                     {"rank", r.rank},
                     {"local_world_size", r.localWorldSize},
                     {"local_rank", r.localRank}};
        for (const auto &p : parts) {
            TreeNode *d =
                n->add(QLatin1String(p.name), QStringLiteral("derived"), QString::number(p.value));
            d->derived = true;
            d->toolTip = QStringLiteral(
                "kv_rank = world_size << 24 | rank << 16 | local_world_size << 8 | local_rank");
        }
    }

    int m_left;
    ArgumentTree::TimeContext m_time;
    bool m_noted = false;
};

}  // namespace

std::unique_ptr<TreeNode> ArgumentTree::build(const Value &args, int maxNodes,
                                              const TimeContext &time) {
    auto root = std::make_unique<TreeNode>();
    Builder b(maxNodes, time);
    b.children(root.get(), args, QString());
    return root;
}

}  // namespace lmct
