#include "trace/traceloader.h"

#include "trace/argscheck.h"
#include "trace/scanreport.h"
#include "trace/traceheaderreader.h"
#include "trace/tracescanner.h"

namespace lmct {

bool TraceLoader::looksLikeTrace(const QByteArray &b) {
    return b.size() >= 17 && FrameProbe::isMapMarker(uchar(b[4])) &&
           b.mid(5, 12) == QByteArray("\xa4type\xa6header", 12);
}

std::shared_ptr<TraceDocument> TraceLoader::open(const QString &path, QString *error,
                                                 const Options &options) {
    auto doc = std::make_shared<TraceDocument>();
    if (!doc->m_file.open(path, error) || !TraceHeaderReader::read(doc.get(), error, options)) {
        return nullptr;
    }
    doc->m_loading.store(true, std::memory_order_release);
    return doc;
}

void TraceLoader::scan(TraceDocument *doc, const Options &options) {
    if (doc->m_scan.headerRead) {
        TraceScanner scanner(*doc, options);
        scanner.readRecords();
        ScanReport report(*doc, options);
        if (options.follow) {
            report.reportOrder(true);
        } else {
            report.reportOrder();
            report.reportDamage();
            if (options.validateArgs && !doc->isPartial()) {
                const int stoppedAt = ArgsCheck(*doc, scanner, options).run();
                doc->m_argsCheckCancelledAt.store(stoppedAt, std::memory_order_release);
                doc->m_argsChecked.store(stoppedAt < 0, std::memory_order_release);
            }
        }
        doc->m_readToEnd.store(true, std::memory_order_release);
    }
    if (!options.follow) {
        doc->m_loading.store(false, std::memory_order_release);
    }
}

int TraceLoader::refresh(TraceDocument *doc, QString *error, const Options &options) {
    Options follow = options;
    follow.follow = true;
    doc->m_file.remap(error);
    if (!doc->m_scan.headerRead) {
        if (!TraceHeaderReader::read(doc, error, follow)) {
            return -1;
        }
        if (!doc->m_scan.headerRead) {
            return 0;
        }
    }
    const int before = doc->m_records.size();
    scan(doc, follow);
    return doc->m_records.size() - before;
}

void TraceLoader::stopFollowing(TraceDocument *doc) {
    doc->m_loading.store(false, std::memory_order_release);
}

std::shared_ptr<TraceDocument> TraceLoader::load(const QString &path, QString *error,
                                                 const Options &options) {
    auto doc = open(path, error, options);
    if (doc) {
        scan(doc.get(), options);
    }
    return doc;
}

std::shared_ptr<TraceDocument> TraceLoader::loadBytes(const QByteArray &bytes, const QString &name,
                                                      QString *error, const Options &options) {
    auto doc = std::make_shared<TraceDocument>();
    doc->m_file.openBytes(bytes, name);
    if (!TraceHeaderReader::read(doc.get(), error, options)) {
        return nullptr;
    }
    doc->m_loading.store(true, std::memory_order_release);
    scan(doc.get(), options);
    return doc;
}

}  // namespace lmct
