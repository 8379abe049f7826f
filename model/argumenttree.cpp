#include "argumenttree.h"

#include "kvrank.h"
#include "memorylayout.h"
#include "valueformatter.h"

namespace lmct {

namespace {

class Builder {
public:
    explicit Builder(int maxNodes) : m_left(maxNodes) {}

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
    bool m_noted = false;
};

}  // namespace

std::unique_ptr<TreeNode> ArgumentTree::build(const Value &args, int maxNodes) {
    auto root = std::make_unique<TreeNode>();
    Builder b(maxNodes);
    b.children(root.get(), args, QString());
    return root;
}

}  // namespace lmct
