#pragma once

#include "whatif/cachepolicy.h"
#include "whatif/usesequence.h"
#include "whatif/whatifanalysis.h"

#include <QString>
#include <QWidget>
#include <array>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QRadioButton;

namespace lmct {

class CacheAnalysis;

/**
 * The What-if tab's controls, a column beside the curves: the keys' scope (a model chooser:
 * "All models", then each model; a tenant chooser, cache_salt, shown when the trace has two or
 * more tenants to tell apart), the capacity unit (chunks or bytes), one check box per policy (in
 * its PolicyColors swatch, all checked at first), and the curve run's progress bar and its
 * Cancel / Run button.
 *
 * The choices are the user's: setScopes() fills the choosers for a new analysis keeping the model
 * and tenant chosen while the analysis still has them, and emits nothing; the user's changes emit
 * scopeChanged(), unitChanged(), policyToggled(), and runClicked() for the button.
 *
 * Units: scopes as UseSequence indices (KeyAnalysis::models(), salts()). Ownership: owns its
 * widgets. Thread-safety: GUI thread only. Errors: none; without an analysis the choosers are
 * empty and scope() is every key.
 */
class WhatIfControls : public QWidget {
    Q_OBJECT
public:
    using Unit = WhatIfAnalysis::Unit;
    /** What the run button offers. */
    enum class RunButton { Hidden, Cancel, Run };

    explicit WhatIfControls(QWidget *parent = nullptr);

    /** The model chooser: "All models" (data UseSequence::kAll), then each model (its index). */
    QComboBox *modelSelector() const { return m_model; }
    /** The tenant chooser: "All tenants" (kAll), "No cache_salt" (kNoSalt) when some keys have
     *  none, then each salt (its index); hidden when the trace has no salts to tell apart. */
    QComboBox *tenantSelector() const { return m_tenant; }
    QCheckBox *policyBox(CachePolicy::Kind kind) const { return m_policyBoxes[size_t(kind)]; }
    QRadioButton *chunksButton() const { return m_chunks; }
    QRadioButton *bytesButton() const { return m_bytes; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *runButton() const { return m_runButton; }

    /** The choosers for `analysis` (null: empty), the choices kept where they still exist. */
    void setScopes(const CacheAnalysis *analysis);
    UseSequence::Scope scope() const;
    /** The scope in words, for a title: "all models", "Qwen/Qwen3-8B, tenant a". */
    QString scopeText() const;
    Unit unit() const;
    /** Back to chunks (emits unitChanged() when the unit was bytes). */
    void chooseChunks();
    std::vector<CachePolicy::Kind> checkedPolicies() const;
    /** Whether bytes may be chosen, and the switch's tool tip saying why (not). */
    void setBytesAvailable(bool available, const QString &toolTip);
    /** The progress bar shown at `percent`, or hidden (negative). */
    void setProgress(int percent);
    void setRunButton(RunButton state);

signals:
    /** The user chose another model or tenant. */
    void scopeChanged();
    void unitChanged();
    void policyToggled(CachePolicy::Kind kind, bool on);
    /** The run button was clicked (Cancel or Run). */
    void runClicked();

private:
    QComboBox *m_model = nullptr;
    QString m_modelChoice;  // the model the user chose, kept across analyses
    QComboBox *m_tenant = nullptr;
    QLabel *m_tenantLabel = nullptr;
    QString m_tenantChoice;
    QRadioButton *m_chunks = nullptr;
    QRadioButton *m_bytes = nullptr;
    std::array<QCheckBox *, CachePolicy::kKindCount> m_policyBoxes{};
    QProgressBar *m_progress = nullptr;
    QPushButton *m_runButton = nullptr;
};

}  // namespace lmct
