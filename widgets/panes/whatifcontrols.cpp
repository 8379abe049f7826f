#include "panes/whatifcontrols.h"

#include "cache/cacheanalysis.h"
#include "common/policycolors.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>

namespace lmct {

namespace {

QIcon swatch(const QColor &c) {
    QPixmap p(12, 12);
    p.fill(c);
    return QIcon(p);
}

}  // namespace

WhatIfControls::WhatIfControls(QWidget *parent) : QWidget(parent) {
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(1);
    v->addWidget(new QLabel(tr("Keys of:")));
    m_model = new QComboBox;
    // (as narrow as a short name: the pane must fit a narrow dock)
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->setMinimumContentsLength(12);
    m_model->setToolTip(
        tr("The what-if and the reuse distributions of the keys of one model, "
           "or of all"));
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        m_modelChoice = m_model->currentText();  // kept across analyses
        m_model->setToolTip(m_model->currentText());
        emit scopeChanged();
    });
    v->addWidget(m_model);
    m_tenantLabel = new QLabel(tr("Tenant:"));
    v->addWidget(m_tenantLabel);
    m_tenant = new QComboBox;
    m_tenant->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_tenant->setMinimumContentsLength(12);
    m_tenant->setToolTip(tr("The what-if of the keys of one tenant (cache_salt), or of all"));
    connect(m_tenant, &QComboBox::currentIndexChanged, this, [this] {
        m_tenantChoice = m_tenant->currentText();
        m_tenant->setToolTip(m_tenant->currentText());
        emit scopeChanged();
    });
    v->addWidget(m_tenant);
    m_tenantLabel->hide();
    m_tenant->hide();

    v->addSpacing(6);
    v->addWidget(new QLabel(tr("Capacity in:")));
    m_chunks = new QRadioButton(tr("chunks"));
    m_bytes = new QRadioButton(tr("bytes"));
    m_chunks->setChecked(true);
    m_chunks->setToolTip(tr("Capacities in chunks: every key takes one"));
    auto *units = new QButtonGroup(this);
    units->addButton(m_chunks);
    units->addButton(m_bytes);
    connect(m_bytes, &QRadioButton::toggled, this, &WhatIfControls::unitChanged);
    v->addWidget(m_chunks);
    v->addWidget(m_bytes);

    v->addSpacing(6);
    v->addWidget(new QLabel(tr("Policies:")));
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        auto *box = new QCheckBox(CachePolicy::label(kind));
        box->setIcon(swatch(PolicyColors::color(kind)));
        box->setChecked(true);
        box->setToolTip(tr("Show the curve of %1").arg(CachePolicy::label(kind)));
        connect(box, &QCheckBox::toggled, this,
                [this, kind](bool on) { emit policyToggled(kind, on); });
        m_policyBoxes[size_t(kind)] = box;
        v->addWidget(box);
    }

    v->addSpacing(6);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setFormat(tr("What-if %p%"));
    m_progress->hide();
    v->addWidget(m_progress);
    m_runButton = new QPushButton(tr("Cancel"));
    m_runButton->hide();
    connect(m_runButton, &QPushButton::clicked, this, &WhatIfControls::runClicked);
    v->addWidget(m_runButton);
    v->addStretch(1);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
}

void WhatIfControls::setScopes(const CacheAnalysis *a) {
    const QSignalBlocker blockModel(m_model);
    const QSignalBlocker blockTenant(m_tenant);
    m_model->clear();
    m_tenant->clear();
    if (a && a->reuse) {
        // the models (the choice kept when it still exists)
        const ReuseAnalysis &r = *a->reuse;
        m_model->addItem(tr("All models"), UseSequence::kAll);
        for (int m = 0; m < int(r.models().size()); ++m) {
            m_model->addItem(r.models()[size_t(m)].model, m);
        }
        m_model->setCurrentIndex(std::max(0, m_model->findText(m_modelChoice)));
        m_model->setToolTip(m_model->currentText());
    }
    // Tenants (cache_salt): a choice only when there are two or more to tell apart.
    const KeyAnalysis *ka = a ? a->keys.get() : nullptr;
    bool unsalted = false;
    for (int k = 0; ka && !ka->salts().isEmpty() && k < ka->keyCount() && !unsalted; ++k) {
        unsalted = ka->key(k).salt < 0;
    }
    const bool salted = ka && ka->salts().size() + (unsalted ? 1 : 0) >= 2;
    if (salted) {
        m_tenant->addItem(tr("All tenants"), UseSequence::kAll);
        if (unsalted) {
            m_tenant->addItem(tr("No cache_salt"), UseSequence::kNoSalt);
        }
        for (int s = 0; s < ka->salts().size(); ++s) {
            const QString &salt = ka->salts()[s];
            m_tenant->addItem(salt.isEmpty() ? tr("(empty cache_salt)") : salt, s);
        }
        m_tenant->setCurrentIndex(std::max(0, m_tenant->findText(m_tenantChoice)));
        m_tenant->setToolTip(m_tenant->currentText());
    }
    m_tenant->setVisible(salted);
    m_tenantLabel->setVisible(salted);
}

UseSequence::Scope WhatIfControls::scope() const {
    UseSequence::Scope s;
    const QVariant m = m_model->currentData();
    s.model = m.isValid() ? m.toInt() : UseSequence::kAll;
    const QVariant t = m_tenant->currentData();
    s.salt = m_tenant->count() > 0 && t.isValid() ? t.toInt() : UseSequence::kAll;
    return s;
}

QString WhatIfControls::scopeText() const {
    QString text = m_model->currentIndex() > 0 ? m_model->currentText() : tr("all models");
    if (m_tenant->count() > 0 && m_tenant->currentIndex() > 0) {
        text += tr(", tenant %1").arg(m_tenant->currentText());
    }
    return text;
}

WhatIfControls::Unit WhatIfControls::unit() const {
    return m_bytes->isChecked() ? Unit::Bytes : Unit::Chunks;
}

void WhatIfControls::chooseChunks() {
    m_chunks->setChecked(true);  // (unitChanged through the bytes button's toggle)
}

std::vector<CachePolicy::Kind> WhatIfControls::checkedPolicies() const {
    std::vector<CachePolicy::Kind> out;
    for (CachePolicy::Kind kind : CachePolicy::all()) {
        if (m_policyBoxes[size_t(kind)]->isChecked()) {
            out.push_back(kind);
        }
    }
    return out;
}

void WhatIfControls::setBytesAvailable(bool available, const QString &toolTip) {
    m_bytes->setEnabled(available);
    m_bytes->setToolTip(toolTip);
}

void WhatIfControls::setProgress(int percent) {
    m_progress->setVisible(percent >= 0);
    if (percent >= 0) {
        m_progress->setValue(percent);
    }
}

void WhatIfControls::setRunButton(RunButton state) {
    if (state == RunButton::Cancel) {
        m_runButton->setText(tr("Cancel"));
        m_runButton->setToolTip(tr("Stop working out the curves (those done stay)"));
    } else if (state == RunButton::Run) {
        m_runButton->setText(tr("Run"));
        m_runButton->setToolTip(tr("Work out the curves not yet shown"));
    }
    m_runButton->setVisible(state != RunButton::Hidden);
}

}  // namespace lmct
