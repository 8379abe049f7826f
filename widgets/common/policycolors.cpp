#include "common/policycolors.h"

namespace lmct {

QColor PolicyColors::color(CachePolicy::Kind kind) {
    switch (kind) {
        case CachePolicy::Kind::Lru:
            return QColor(0x1f, 0x77, 0xb4);  // blue
        case CachePolicy::Kind::Fifo:
            return QColor(0xff, 0x7f, 0x0e);  // orange
        case CachePolicy::Kind::Clock:
            return QColor(0x2c, 0xa0, 0x2c);  // green
        case CachePolicy::Kind::S3Fifo:
            return QColor(0x94, 0x67, 0xbd);  // purple
        case CachePolicy::Kind::Arc:
            return QColor(0x8c, 0x56, 0x4b);  // brown
        case CachePolicy::Kind::Opt:
            return QColor(0x17, 0xbe, 0xcf);  // cyan
    }
    return QColor(0x7f, 0x7f, 0x7f);
}

QPen PolicyColors::pen(CachePolicy::Kind kind, double width) {
    return QPen(color(kind), width);
}

QColor PolicyColors::lmcacheColor() {
    return QColor(0xe3, 0x77, 0xc2);  // pink
}

QColor PolicyColors::occupancyColor() {
    return QColor(0x7f, 0x7f, 0x7f);  // grey
}

}  // namespace lmct
