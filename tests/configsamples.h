#pragma once
// StorageManagerConfig JSON samples and traces that carry them, for the config suites.

#include "testutil.h"
#include "trace/traceloader.h"

#include <QCryptographicHash>
#include <QString>
#include <memory>

namespace lmct::test {

// What LMCache's recorder writes (keys sorted, JSON nulls), shm_name with the server's PID.
inline const char *const kLmcacheConfig =
    R"({"eviction_config": {"eviction_policy": "LRU", "eviction_ratio": 0.2, )"
    R"("extra_logging_enabled": false, "extra_logging_interval": 10.0, "trigger_watermark": 0.8}, )"
    R"("l1_manager_config": {"gds_l1_config": null, "memory_config": {"align_bytes": 4096, )"
    R"("devdax_path": null, "devdax_size_in_bytes": 0, "init_size_in_bytes": 21474836480, )"
    R"("shm_name": "lmcache_l1_pool_9101", "size_in_bytes": 51539607552, "use_lazy": true}, )"
    R"("read_ttl_seconds": 300, "write_ttl_seconds": 600}, "l2_adapter_config": {"adapters": []}, )"
    R"("periodic_notifier_interval_ms": 5, "prefetch_max_in_flight": 8, )"
    R"("prefetch_policy": "default", "store_policy": "default"})";

// The smaller shape older fixtures carry (with invented chunk_size and world_size).
inline const char *const kOlderConfig =
    R"({"chunk_size": 256, "eviction_config": {"eviction_policy": "LRU", "trigger_watermark": )"
    R"(0.8}, "l1_manager_config": {"memory_config": {"size_in_bytes": 68719476736, "use_lazy": )"
    R"(true}, "write_ttl_seconds": 600}, "l2_adapter_config": {"adapters": [{"path": )"
    R"("/mnt/kvcache", "type": "fs"}]}, "world_size": 2})";

/** A small trace whose header carries `json` as sm_config_json, with its digest (none if empty). */
inline QByteArray traceWithConfig(const QString &json) {
    HeaderSpec h;
    h.configJson = json;
    if (!json.isEmpty()) {
        h.configDigest = QString::fromLatin1(
            QCryptographicHash::hash(json.toUtf8(), QCryptographicHash::Sha256).toHex());
    }
    const SmallTrace t = smallTrace(2);
    return frame(headerBody(h)) + t.bytes.mid(t.headerEnd);
}

/** traceWithConfig() loaded ("x.lct"); null, with a warning, when it does not open. */
inline std::shared_ptr<TraceDocument> loadWithConfig(const QString &json) {
    QString error;
    auto doc = TraceLoader::loadBytes(traceWithConfig(json), QStringLiteral("x.lct"), &error);
    if (!doc) {
        qWarning("%s", qPrintable(error));
    }
    return doc;
}

}  // namespace lmct::test
