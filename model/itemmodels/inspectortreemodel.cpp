#include "itemmodels/inspectortreemodel.h"

#include "codec/valueformatter.h"
#include "util/terminaltext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lmct {

InspectorTreeModel::InspectorTreeModel(QObject *parent)
    : QAbstractItemModel(parent), m_root(std::make_unique<TreeNode>()) {}

InspectorTreeModel::~InspectorTreeModel() = default;

void InspectorTreeModel::setTree(std::unique_ptr<TreeNode> root,
                                 std::shared_ptr<const void> keepAlive) {
    beginResetModel();
    m_root = root ? std::move(root) : std::make_unique<TreeNode>();
    m_keepAlive = std::move(keepAlive);
    endResetModel();
}

void InspectorTreeModel::clear() {
    setTree(nullptr);
}

const TreeNode *InspectorTreeModel::node(const QModelIndex &index) const {
    return index.isValid() ? static_cast<const TreeNode *>(index.internalPointer()) : m_root.get();
}

QModelIndex InspectorTreeModel::index(int row, int column, const QModelIndex &parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) {
        return QModelIndex();
    }
    const TreeNode *p = node(parent);
    if (!p || row >= int(p->children.size())) {
        return QModelIndex();
    }
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex InspectorTreeModel::parent(const QModelIndex &child) const {
    if (!child.isValid()) {
        return QModelIndex();
    }
    const TreeNode *n = node(child);
    const TreeNode *p = n->parent;
    if (!p || p == m_root.get()) {
        return QModelIndex();
    }
    return createIndex(p->row, 0, const_cast<TreeNode *>(p));
}

int InspectorTreeModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid() && parent.column() != 0) {
        return 0;
    }
    const TreeNode *p = node(parent);
    return p ? int(p->children.size()) : 0;
}

int InspectorTreeModel::columnCount(const QModelIndex &) const {
    return ColumnCount;
}

QVariant InspectorTreeModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid()) {
        return QVariant();
    }
    const TreeNode *n = node(index);
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                // Names and values come from the trace: controls and bidi overrides escaped (a
                // U+202E in sm_config_json or a model name reversed the row). Copy
                // (CopyTextRole) keeps them as recorded.
                case NameColumn:
                    return TerminalText::escaped(n->name);
                case TypeColumn:
                    return TerminalText::escaped(n->type);
                case ValueColumn:
                    return TerminalText::escaped(n->value);
            }
            return QVariant();
        case Qt::ToolTipRole: {
            if (!n->toolTip.isEmpty()) {
                return TerminalText::escapedLines(n->toolTip);
            }
            if (index.column() == ValueColumn && n->value.size() > 60) {
                return TerminalText::escaped(n->value.left(4000));
            }
            if (!n->path.isEmpty()) {
                return n->path;
            }
            return QVariant();
        }
        case PathRole:
            return n->path;
        case CopyTextRole: {
            if (!n->copyText.isEmpty()) {
                return n->copyText;
            }
            if (n->source) {
                const Value &v = *n->source;
                if (v.isBytes()) {
                    return QString::fromLatin1(v.toBytes().toHex());
                }
                if (v.isString()) {
                    return v.toString();
                }
                if (!v.isContainer()) {
                    return ValueFormatter::display(v, 1 << 20);
                }
                const QJsonValue j = ValueFormatter::toJson(v);
                if (j.isObject()) {
                    return QString::fromUtf8(
                        QJsonDocument(j.toObject()).toJson(QJsonDocument::Compact));
                }
                if (j.isArray()) {
                    return QString::fromUtf8(
                        QJsonDocument(j.toArray()).toJson(QJsonDocument::Compact));
                }
            }
            return n->value;
        }
        case DerivedRole:
            return n->derived;
        case ProblemRole:
            return n->problem;
    }
    return QVariant();
}

QVariant InspectorTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QVariant();
    }
    switch (section) {
        case NameColumn:
            return tr("Name");
        case TypeColumn:
            return tr("Type");
        case ValueColumn:
            return tr("Value");
    }
    return QVariant();
}

QModelIndexList InspectorTreeModel::findByName(const QString &name) const {
    QModelIndexList out;
    std::function<void(const QModelIndex &)> walk = [&](const QModelIndex &parent) {
        for (int r = 0; r < rowCount(parent); ++r) {
            const QModelIndex i = index(r, 0, parent);
            if (node(i)->name == name) {
                out.append(i);
            }
            walk(i);
        }
    };
    walk(QModelIndex());
    return out;
}

}  // namespace lmct
