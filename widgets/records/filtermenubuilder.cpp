#include "records/filtermenubuilder.h"

#include "viewstate.h"

#include <QAction>
#include <QMenu>
#include <QPointer>
#include <algorithm>

namespace lmct {

namespace {

enum class Kind { FilterTo, Exclude, Follow };

/** Whether `field` names a key, the one thing "Follow This Key" follows (not a model or rank). */
bool isKeyField(const QString &field) {
    return field == QLatin1String("chunk_hash");
}

/** Menu text: `&` escaped, long conditions elided in the middle. */
QString label(const QString &text) {
    QString t = text;
    if (t.size() > 120) {  // a whole 64-digit hash with its field and title fits
        t = t.left(80) + QStringLiteral("…") + t.right(39);
    }
    return t.replace(QLatin1Char('&'), QStringLiteral("&&"));
}

QAction *addApply(QMenu *menu, const QString &text, const QString &cond, ViewState *state,
                  Kind kind) {
    QPointer<ViewState> s = state;
    QAction *a = menu->addAction(label(text));
    a->setData(cond);
    a->setToolTip(cond);
    QObject::connect(a, &QAction::triggered, menu, [s, cond, kind] {
        if (!s) {
            return;
        }
        if (kind == Kind::Follow) {
            s->setFollowedKey(cond);
        } else {
            s->setFilterText(FilterComposer::append(s->filterText(), cond));
        }
    });
    return a;
}

void fillSubmenu(QMenu *menu, ViewState *state, const QList<FilterChoice> &choices, Kind kind) {
    const bool exclude = kind == Kind::Exclude;
    for (const FilterChoice &c : choices) {
        if (kind == Kind::Follow && !isKeyField(c.field)) {
            continue;
        }
        if (c.literals.size() == 1) {
            const QString cond =
                FilterComposer::literalCondition(c.field, c.literals.first(), exclude);
            addApply(menu, cond, cond, state, kind);
            continue;
        }
        QMenu *sub =
            menu->addMenu(QObject::tr("%1 (%2 values)").arg(c.field).arg(c.literals.size()));
        const int shown = std::min<int>(int(c.literals.size()), FilterMenuBuilder::valueCap());
        for (int i = 0; i < shown; ++i) {
            const QString cond =
                FilterComposer::literalCondition(c.field, c.literals.at(i), exclude);
            addApply(sub, cond, cond, state, kind);
        }
        if (c.literals.size() > shown) {
            sub->addSeparator();
            const QString all = FilterComposer::anyOfCondition(c.field, c.literals, exclude);
            const int more = int(c.literals.size()) - shown;
            addApply(sub,
                     QObject::tr("%1 more… (%2 all %3: %4 in […])")
                         .arg(more)
                         .arg(kind == Kind::Exclude  ? QObject::tr("exclude")
                              : kind == Kind::Follow ? QObject::tr("follow")
                                                     : QObject::tr("any of"))
                         .arg(c.literals.size())
                         .arg(c.field),
                     all, state, kind);
        }
    }
}

}  // namespace

void FilterMenuBuilder::addFilterActions(QMenu *menu, ViewState *state,
                                         const QList<FilterChoice> &choices, bool offerFollow) {
    int conditions = 0;
    bool followable = false;
    for (const FilterChoice &c : choices) {
        conditions += int(c.literals.size());
        followable = followable || (offerFollow && isKeyField(c.field) && !c.literals.isEmpty());
    }
    if (conditions == 0) {
        return;
    }
    const bool following = offerFollow && state && !state->followedKey().isEmpty();
    if (conditions == 1) {
        const FilterChoice &c = *std::find_if(choices.begin(), choices.end(),
                                              [](const auto &x) { return !x.literals.isEmpty(); });
        const QString cond = FilterComposer::literalCondition(c.field, c.literals.first());
        const QString excl = FilterComposer::literalCondition(c.field, c.literals.first(), true);
        addApply(menu, QObject::tr("Filter to This: %1").arg(cond), cond, state, Kind::FilterTo);
        addApply(menu, QObject::tr("Exclude This: %1").arg(excl), excl, state, Kind::Exclude);
        if (followable) {
            addApply(menu, QObject::tr("Follow This Key: %1").arg(cond), cond, state, Kind::Follow);
        }
    } else {
        fillSubmenu(menu->addMenu(QObject::tr("Filter to This")), state, choices, Kind::FilterTo);
        fillSubmenu(menu->addMenu(QObject::tr("Exclude This")), state, choices, Kind::Exclude);
        if (followable) {
            QMenu *follow = menu->addMenu(QObject::tr("Follow This Key"));
            fillSubmenu(follow, state, choices, Kind::Follow);
            if (following) {
                follow->addSeparator();
            }
        }
    }
    if (following) {
        QPointer<ViewState> s = state;
        QMenu *where = menu;
        for (QAction *a : menu->actions()) {
            if (a->menu() && a->text() == QObject::tr("Follow This Key")) {
                where = a->menu();
            }
        }
        QAction *stop = where->addAction(QObject::tr("Stop Following"));
        QObject::connect(stop, &QAction::triggered, menu, [s] {
            if (s) {
                s->setFollowedKey(QString());
            }
        });
    }
}

}  // namespace lmct
