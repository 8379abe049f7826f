#include "codec/memorylayout.h"

#include <QHash>
#include <cmath>
#include <limits>

namespace lmct {

std::optional<MemoryLayout> MemoryLayout::fromValue(const Value &v) {
    const Value *m = &v;
    if (v.isTagged()) {
        if (v.tag() != QLatin1String("MemoryLayoutDesc")) {
            return std::nullopt;
        }
        m = &v.payload();
    }
    if (!m->isMap()) {
        return std::nullopt;
    }
    const Value *shapes = m->find(u"shapes");
    const Value *dtypes = m->find(u"dtypes");
    if (!shapes || !dtypes) {
        return std::nullopt;
    }
    MemoryLayout l;
    const Value &s = shapes->untagged();
    for (const Value &shape : s.children()) {
        QList<qint64> dims;
        for (const Value &d : shape.untagged().children()) {
            dims.append(d.toInt());
        }
        l.shapes.append(dims);
    }
    for (const Value &d : dtypes->untagged().children()) {
        l.dtypes.append(d.untagged().toString());
    }
    return l;
}

std::optional<MemoryLayout> MemoryLayout::findIn(const Value &v) {
    if (v.isTagged() && v.tag() == QLatin1String("MemoryLayoutDesc")) {
        return fromValue(v);
    }
    for (const Value &c : v.children()) {
        if (c.isContainer()) {
            if (auto l = findIn(c)) {
                return l;
            }
        }
    }
    return std::nullopt;
}

int MemoryLayout::dtypeSize(const QString &dtype) {
    static const QHash<QString, int> sizes = {
        {QStringLiteral("float64"), 8},
        {QStringLiteral("double"), 8},
        {QStringLiteral("float32"), 4},
        {QStringLiteral("float"), 4},
        {QStringLiteral("float16"), 2},
        {QStringLiteral("half"), 2},
        {QStringLiteral("bfloat16"), 2},
        {QStringLiteral("float8_e4m3fn"), 1},
        {QStringLiteral("float8_e5m2"), 1},
        {QStringLiteral("float8_e4m3fnuz"), 1},
        {QStringLiteral("float8_e5m2fnuz"), 1},
        {QStringLiteral("int64"), 8},
        {QStringLiteral("long"), 8},
        {QStringLiteral("int32"), 4},
        {QStringLiteral("int"), 4},
        {QStringLiteral("int16"), 2},
        {QStringLiteral("short"), 2},
        {QStringLiteral("int8"), 1},
        {QStringLiteral("uint8"), 1},
        {QStringLiteral("bool"), 1},
        {QStringLiteral("uint16"), 2},
        {QStringLiteral("uint32"), 4},
        {QStringLiteral("uint64"), 8},
        {QStringLiteral("complex64"), 8},
        {QStringLiteral("complex128"), 16},
    };
    QString d = dtype;
    if (d.startsWith(QLatin1String("torch."))) {
        d = d.mid(6);
    }
    return sizes.value(d, 0);
}

QString MemoryLayout::shortDtype(const QString &dtype) {
    static const QHash<QString, QString> names = {
        {QStringLiteral("torch.bfloat16"), QStringLiteral("bf16")},
        {QStringLiteral("torch.float16"), QStringLiteral("f16")},
        {QStringLiteral("torch.float32"), QStringLiteral("f32")},
        {QStringLiteral("torch.float64"), QStringLiteral("f64")},
        {QStringLiteral("torch.float8_e4m3fn"), QStringLiteral("fp8e4m3")},
        {QStringLiteral("torch.float8_e5m2"), QStringLiteral("fp8e5m2")},
    };
    if (auto it = names.constFind(dtype); it != names.constEnd()) {
        return *it;
    }
    return dtype.startsWith(QLatin1String("torch.")) ? dtype.mid(6) : dtype;
}

std::optional<qint64> MemoryLayout::bytesPerObject() const {
    qint64 total = 0;
    for (qsizetype i = 0; i < shapes.size(); ++i) {
        const QString dtype =
            i < dtypes.size() ? dtypes[i] : (dtypes.isEmpty() ? QString() : dtypes.last());
        const int es = dtypeSize(dtype);
        if (es == 0) {
            return std::nullopt;
        }
        qint64 n = es;
        for (qint64 d : shapes[i]) {
            if (d < 0 || (d > 0 && n > std::numeric_limits<qint64>::max() / d)) {
                return std::nullopt;
            }
            n *= d;
        }
        if (total > std::numeric_limits<qint64>::max() - n) {
            return std::nullopt;
        }
        total += n;
    }
    return total;
}

QString MemoryLayout::toString() const {
    QString s;
    for (qsizetype i = 0; i < shapes.size(); ++i) {
        if (i > 0) {
            s += QLatin1String(" + ");
        }
        s += QLatin1Char('[');
        for (qsizetype j = 0; j < shapes[i].size(); ++j) {
            if (j > 0) {
                s += QLatin1Char(',');
            }
            s += QString::number(shapes[i][j]);
        }
        s += QLatin1Char(']');
        if (i < dtypes.size()) {
            s += QLatin1Char(' ') + shortDtype(dtypes[i]);
        }
    }
    return s;
}

QString formatBytes(qint64 bytes) {
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = double(bytes);
    int u = 0;
    while (std::abs(v) >= 1024.0 && u < 5) {
        v /= 1024.0;
        ++u;
    }
    if (u == 0) {
        return QStringLiteral("%1 B").arg(bytes);
    }
    return QStringLiteral("%1 %2").arg(v, 0, 'f', v < 10 ? 2 : 1).arg(QLatin1String(units[u]));
}

}  // namespace lmct
