// HandleLinker::lockedKeys on its own: a release with nil keys gives back its request's keys at
// the handle's l1_found_indices, or all of them when it lists none or one outside the request.
// (Linking handles to submits is covered through KeyAnalysis in tst_keyanalysis.)

#include "cache/handlelinker.h"
#include "codec/prefetchhandle.h"

#include <QtTest>
#include <vector>

using namespace lmct;

class TestHandleLinker : public QObject {
    Q_OBJECT
private slots:
    void lockedKeysAtFoundIndices();
};

void TestHandleLinker::lockedKeysAtFoundIndices() {
    const std::vector<quint32> request{10, 11, 12, 13};
    std::vector<quint32> out{99};
    PrefetchHandle h;
    h.l1FoundIndices = {2, 0};
    HandleLinker::lockedKeys(h, request, &out);
    QCOMPARE(out, (std::vector<quint32>{12, 10}));
    h.l1FoundIndices = {};
    HandleLinker::lockedKeys(h, request, &out);
    QCOMPARE(out, request);
    h.l1FoundIndices = {1, 4};  // one outside the request: all of its keys
    HandleLinker::lockedKeys(h, request, &out);
    QCOMPARE(out, request);
    h.l1FoundIndices = {-1};
    HandleLinker::lockedKeys(h, request, &out);
    QCOMPARE(out, request);
}

QTEST_GUILESS_MAIN(TestHandleLinker)
#include "tst_handlelinker.moc"
