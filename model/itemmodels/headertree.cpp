#include "itemmodels/headertree.h"

#include "codec/valueformatter.h"
#include "itemmodels/argumenttree.h"
#include "trace/storagemanagerconfig.h"
#include "util/timeformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <cmath>

namespace lmct {

namespace {

void addJson(TreeNode *parent, const QString &name, const QJsonValue &v, const QString &path) {
    auto n = std::make_unique<TreeNode>();
    n->name = name;
    n->path = path;
    switch (v.type()) {
        case QJsonValue::Object: {
            const QJsonObject o = v.toObject();
            n->type = QStringLiteral("object{%1}").arg(o.size());
            n->copyText = QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
            n->value =
                n->copyText.size() > 200 ? n->copyText.left(199) + QChar(0x2026) : n->copyText;
            TreeNode *added = parent->add(std::move(n));
            for (auto it = o.begin(); it != o.end(); ++it) {
                addJson(added, it.key(), it.value(), path + QLatin1Char('.') + it.key());
            }
            return;
        }
        case QJsonValue::Array: {
            const QJsonArray a = v.toArray();
            n->type = QStringLiteral("array[%1]").arg(a.size());
            n->copyText = QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
            n->value =
                n->copyText.size() > 200 ? n->copyText.left(199) + QChar(0x2026) : n->copyText;
            TreeNode *added = parent->add(std::move(n));
            for (qsizetype i = 0; i < a.size(); ++i) {
                addJson(added, QStringLiteral("[%1]").arg(i), a.at(i),
                        path + QStringLiteral("[%1]").arg(i));
            }
            return;
        }
        case QJsonValue::String:
            n->type = QStringLiteral("string");
            n->value = v.toString();
            break;
        case QJsonValue::Double:
            n->type = QStringLiteral("number");
            n->value = QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
            if (std::abs(v.toDouble()) < 9.2e18 && v.toDouble() == double(qint64(v.toDouble()))) {
                n->value = QString::number(qint64(v.toDouble()));
            }
            break;
        case QJsonValue::Bool:
            n->type = QStringLiteral("bool");
            n->value = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
            break;
        default:
            n->type = QStringLiteral("null");
            n->value = QStringLiteral("null");
            break;
    }
    n->copyText = n->value;
    parent->add(std::move(n));
}

/** The row of `path` below `node` (the JSON rows' paths: "eviction_config.eviction_ratio"). */
TreeNode *findPath(TreeNode *node, const QString &path) {
    for (const auto &c : node->children) {
        if (c->path == path) {
            return c.get();
        }
        if (path.startsWith(c->path) && !c->children.empty()) {
            if (TreeNode *hit = findPath(c.get(), path)) {
                return hit;
            }
        }
    }
    return nullptr;
}

}  // namespace

std::unique_ptr<TreeNode> HeaderTree::build(const TraceHeader &header) {
    auto root = std::make_unique<TreeNode>();
    const Value &f = header.fields();
    for (int i = 0; i < f.size(); ++i) {
        const QString key = f.keyAt(i);
        const Value &v = f.at(i);
        auto n = std::make_unique<TreeNode>();
        n->name = key;
        n->type = ValueFormatter::typeLabel(v);
        n->value = ValueFormatter::display(v, 300);
        n->source = &v;
        n->path = key;
        if (key == QLatin1String("magic") && v.isBytes()) {
            n->value = QStringLiteral("%1 (%2)").arg(QString::fromLatin1(v.toBytes()),
                                                     QString::fromLatin1(v.toBytes().toHex(' ')));
            n->copyText = QString::fromLatin1(v.toBytes());
        } else if (key == QLatin1String("t_wall_start") && v.isNumber()) {
            const QString local = TimeFormat::wall(v.toDouble());
            n->value = local.isEmpty()  // not finite, or beyond any date
                           ? QStringLiteral("%1  (not a valid date)").arg(ValueFormatter::number(v))
                           : QStringLiteral("%1  (%2 · %3)")
                                 .arg(ValueFormatter::number(v), local,
                                      TimeFormat::wall(v.toDouble(), true));
            n->copyText = ValueFormatter::number(v);
        } else if (key == QLatin1String("t_mono_start") && v.isNumber()) {
            n->value = QStringLiteral("%1 s  (recorder's time.monotonic(); %2 of host uptime)")
                           .arg(ValueFormatter::number(v), TimeFormat::duration(v.toDouble()));
            n->copyText = ValueFormatter::number(v);
        } else if (key == QLatin1String("sm_config_json") && v.isString()) {
            const QString json = v.toString();
            n->copyText = json;
            if (json.isEmpty()) {
                n->value = QStringLiteral("(empty: no StorageManager config attached)");
            }
        }
        TreeNode *added = root->add(std::move(n));
        if (key == QLatin1String("sm_config_json") && v.isString() && !v.toString().isEmpty()) {
            // parsed once with the header (TraceHeader::smConfig)
            const StorageManagerConfig &config = header.smConfig();
            if (config.isValid()) {
                const QJsonObject &o = config.object();
                for (auto it = o.begin(); it != o.end(); ++it) {
                    addJson(added, it.key(), it.value(), it.key());
                }
                for (const StorageManagerConfig::FieldProblem &p : config.fieldProblems()) {
                    TreeNode *row = findPath(added, p.path);
                    if (!row) {  // (every problem names a field present in the object)
                        row = added->add(QStringLiteral("⚠"), QStringLiteral("error"), p.found);
                    }
                    row->value += QStringLiteral("  ⚠ expected %1").arg(p.expected);
                    row->toolTip = QStringLiteral("%1: the viewer leaves this field unknown")
                                       .arg(p.toString());
                    row->problem = true;
                    added->problem = true;
                }
            } else {
                QString why;
                if (config.state() == StorageManagerConfig::State::NotJson) {
                    why = QStringLiteral("not a JSON object: %1 at offset %2")
                              .arg(config.parseError())
                              .arg(config.parseOffset());
                } else if (config.state() == StorageManagerConfig::State::Cut) {
                    why = QStringLiteral("not parsed: %1 bytes, only the start was read")
                              .arg(config.byteSize());
                } else {
                    why = QStringLiteral("not a JSON object: a JSON %1").arg(config.jsonKind());
                }
                TreeNode *e = added->add(QStringLiteral("⚠"), QStringLiteral("error"), why);
                e->problem = true;
            }
        } else if (v.isContainer()) {
            auto sub = ArgumentTree::build(v);
            for (auto &c : sub->children) {
                c->path = key + QLatin1Char('.') + c->path;
                added->add(std::move(c));
            }
        }
    }
    // The digest check.
    const auto status = header.digestStatus();
    TreeNode *d = root->add(QStringLiteral("digest check"), QStringLiteral("derived"), QString());
    d->derived = true;
    switch (status) {
        case TraceHeader::DigestStatus::Match:
            d->value = QStringLiteral("✓ match: SHA-256 of sm_config_json equals sm_config_digest");
            break;
        case TraceHeader::DigestStatus::Mismatch:
            d->value = QStringLiteral("✗ mismatch: SHA-256 of sm_config_json is %1")
                           .arg(header.computedDigest());
            d->problem = true;
            break;
        case TraceHeader::DigestStatus::Absent:
            d->value = QStringLiteral("absent: no config was attached (placeholder header)");
            break;
        case TraceHeader::DigestStatus::Lost:
            d->value = QStringLiteral(
                "lost: the header was rewritten in place; config and digest were overwritten");
            d->problem = true;
            break;
    }
    d->copyText = header.computedDigest();
    if (const QString note = header.smConfig().volatileNote(); !note.isEmpty()) {
        d->toolTip = d->value + QLatin1Char('\n') + note;
    }
    if (header.configLost()) {
        for (const char *k : {"sm_config_json", "sm_config_digest"}) {
            if (!f.find(QString::fromLatin1(k))) {
                TreeNode *l =
                    root->add(QLatin1String(k), QStringLiteral("lost"),
                              QStringLiteral("overwritten by records (header rewritten in place)"));
                l->problem = true;
            }
        }
    }
    return root;
}

}  // namespace lmct
