#pragma once

#include "cache/keyanalysis.h"

#include <QString>
#include <atomic>
#include <optional>
#include <vector>

namespace lmct {

/**
 * Which distinct ObjectKeys two traces share, per model: keys in A only, in B only, in both.
 *
 * Identity as KeyAnalysis's: chunk hash bytes, model name, kv_rank, object group id and cache
 * salt (an absent optional field differs from any present value). Keys of different models
 * never match, so a renamed model makes every key A-only or B-only; reason() then says
 * "different models: A Qwen/Qwen3-8B, B meta-llama/Llama-3.1-8B" (the model sets differ).
 *
 * Memory: while build() runs, a hash set of B's key identities (≈ 100 bytes per key).
 * Thread-safety: a value type; build() is reentrant.
 */
class KeyOverlap {
public:
    struct Row {
        QString model;  ///< model name; empty for the total
        qint64 onlyA = 0;
        qint64 onlyB = 0;
        qint64 both = 0;
    };

    /** Compares the keys of `a` and `b`; nullopt when `cancel` became true meanwhile. */
    static std::optional<KeyOverlap> build(const KeyAnalysis &a, const KeyAnalysis &b,
                                           const std::atomic_bool *cancel = nullptr);

    /** One row per model of either trace, by name. */
    const std::vector<Row> &models() const { return m_models; }
    /** All models together. */
    const Row &total() const { return m_total; }
    /** Why the keys do not compare as one workload (the model sets differ); empty otherwise. */
    QString reason() const { return m_reason; }

private:
    std::vector<Row> m_models;
    Row m_total;
    QString m_reason;
};

}  // namespace lmct
