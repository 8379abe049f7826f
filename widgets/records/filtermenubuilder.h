#pragma once

#include "records/filtercomposer.h"

#include <QList>
#include <QString>

class QMenu;
class QObject;

namespace lmct {

class ViewState;

/**
 * The "Filter to This", "Exclude This" and "Follow This Key" entries of the record table's and
 * the inspector's context menus, built the same way for both from a list of FilterChoice.
 *
 * - One condition in all (an inspector row naming one value): three plain actions,
 *   "Filter to This: COND", "Exclude This: COND", "Follow This Key: COND".
 * - Otherwise three submenus. In each, a field with one value is one action; a field with
 *   several values (a record with many ObjectKeys) is a submenu "FIELD (N values)" with one
 *   action per value, at most valueCap() of them, then (beyond the cap) an entry "M more…" that
 *   applies `FIELD in [every value]` (`!(FIELD in [...])` to exclude).
 * - Filter to / Exclude append the condition to the ViewState's filter with `&&`
 *   (FilterComposer::append); Follow sets ViewState::followedKey and is offered for keys
 *   (`chunk_hash`) only: a call, model, rank or group is many keys, not one to follow.
 *   "Stop Following" ends the submenu while a key is followed.
 *
 * Every action's data() holds the condition it applies (the text may elide it or escape `&`).
 *
 * Ownership: the actions belong to `menu`; `state` is not owned and may be destroyed before an
 * action runs (the action then does nothing). Thread-safety: GUI thread only.
 */
class FilterMenuBuilder {
public:
    /** How many values of one field a submenu lists before its "more…" entry. */
    static int valueCap() { return 25; }

    /**
     * Adds the entries for `choices` to `menu`; adds nothing when `choices` is empty. Without
     * `offerFollow`, only Filter to / Exclude (a view that highlights no followed key).
     */
    static void addFilterActions(QMenu *menu, ViewState *state, const QList<FilterChoice> &choices,
                                 bool offerFollow = true);
};

}  // namespace lmct
