#!/usr/bin/python3
"""Checks the layer order of model/ and widgets/ (see model/README.md).

Each library is split into area folders with a rank; a file may include headers of its own area
and of areas of a lower rank, never of a higher rank or of another area of the same rank.
model/ includes nothing of widgets/ and no Qt GUI module. Usage: layering.py REPO_ROOT, or layering.py --self-test.
Prints every include that goes against the order and exits 1 if there is one.
"""
import os
import re
import sys

# area -> rank; areas of one rank may not include each other.
LAYERS = {
    "model": {"util": 0, "msgpack": 1, "codec": 2, "trace": 3, "filter": 4, "timeline": 4,
              "stats": 5, "cache": 5, "whatif": 6, "compare": 7, "itemmodels": 8, "export": 8, "report": 9, ".": 10},
    "widgets": {"common": 0, "records": 1, "timeline": 1, "panes": 2, "report": 2, "shell": 3},
}
GUI_MODULES = re.compile(r"^\s*#\s*include\s+<(QtGui|QtWidgets|QtPrintSupport|QtSvg|Q[A-Z]\w*Widget|"
                         r"QPainter|QPixmap|QImage|QColor|QFont|QIcon|QPen|QBrush|QPalette|qcustomplot)", re.M)
# Both include forms: "..." and <...>; each resolves like the compiler does (below).
# Every C++ source and header form a file of model/ or widgets/ may take.
SOURCES = (".h", ".hpp", ".hxx", ".inl", ".cpp", ".cxx", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|<([^>]+)>)', re.M)


def area_of(lib, path):
    """The area of a file under lib/ (its first folder, or '.' at the top)."""
    rel = os.path.relpath(path, lib)
    head = rel.split(os.sep)[0]
    return head if os.sep in rel else "."


def resolve(root, path, target, quoted):
    """The real path of an include, or None when it is not a file of model/ or widgets/.

    A quoted include is looked up beside the including file first (so "../x.h" and "x.h" count);
    then, for both forms, in the include directories the libraries export (model/, widgets/), the
    including file's own library first.
    """
    candidates = []
    if quoted:
        candidates.append(os.path.join(os.path.dirname(path), target))
    own = os.path.relpath(path, root).split(os.sep)[0]
    for lib in [own] + [l for l in LAYERS if l != own]:
        candidates.append(os.path.join(root, lib, target))
    for c in candidates:
        real = os.path.realpath(c)
        if os.path.isfile(real):
            for lib in LAYERS:
                base = os.path.realpath(os.path.join(root, lib))
                if real.startswith(base + os.sep):
                    return lib, area_of(base, real), real
            return None
    return None


def check(root):
    """Every include against the order, as printable lines."""
    problems = []
    for lib, ranks in LAYERS.items():
        base = os.path.join(root, lib)
        for dirpath, _, names in os.walk(base):
            for n in sorted(names):
                if not n.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, n)
                me = area_of(base, path)
                if me not in ranks:
                    problems.append(f"{os.path.relpath(path, root)}: folder '{me}' is not an area of {lib}/")
                    continue
                text = open(path, encoding="utf-8").read()
                if lib == "model":
                    for m in GUI_MODULES.finditer(text):
                        problems.append(f"{os.path.relpath(path, root)}: model/ includes the GUI header <{m.group(1)}")
                for m in INCLUDE.finditer(text):
                    quoted = m.group(1) is not None
                    target = m.group(1) if quoted else m.group(2)
                    found = resolve(root, path, target, quoted)
                    if found is None:
                        continue  # system, Qt, generated or test header
                    tlib, tarea, real = found
                    shown = f'"{target}"' if quoted else f"<{target}>"
                    where = f"{os.path.relpath(path, root)}: includes {shown} ({os.path.relpath(real, os.path.realpath(root))})"
                    if lib == "model" and tlib == "widgets":
                        problems.append(f"{where}: model/ may not include widgets/")
                    elif tlib == lib and tarea != me:
                        if tarea not in ranks:
                            continue  # reported above as a folder that is not an area
                        if ranks[tarea] > ranks[me]:
                            problems.append(f"{where}: {lib}/{tarea} is above {lib}/{me}")
                        elif ranks[tarea] == ranks[me]:
                            problems.append(f"{where}: {lib}/{tarea} and {lib}/{me} are of one layer")
    return problems


def self_test():
    """Builds a small tree with one breach per include form and checks each is reported."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        files = {
            "model/util/low.h": "",
            "model/trace/mid.h": "",
            "model/whatif/high.h": "",
            "widgets/shell/top.h": "",
            # Allowed: a lower area, quoted, angled and relative.
            "model/trace/ok.cpp": '#include "util/low.h"\n#include <util/low.h>\n#include "../util/low.h"\n#include "mid.h"\n',
            # Breaches, one per form.
            "model/trace/quoted.cpp": '#include "whatif/high.h"\n',
            "model/trace/angled.cpp": "#include <whatif/high.h>\n",
            "model/trace/relative.cpp": '#include "../whatif/high.h"\n',
            "model/util/upward.cpp": '#include "../../widgets/shell/top.h"\n',
            "model/trace/inline.inl": '#include "whatif/high.h"\n',
            "model/trace/gui.hpp": "#include <QFont>\n",
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        problems = check(root)
        expected = ["model/trace/quoted.cpp", "model/trace/angled.cpp", "model/trace/relative.cpp",
                    "model/util/upward.cpp", "model/trace/inline.inl", "model/trace/gui.hpp"]
        missing = [e for e in expected if not any(p.startswith(e + ":") for p in problems)]
        extra = [p for p in problems if not any(p.startswith(e + ":") for e in expected)]
        for p in missing:
            print(f"self-test: not reported: {p}")
        for p in extra:
            print(f"self-test: reported wrongly: {p}")
        print(f"layering self-test: {len(missing)} missed, {len(extra)} wrong")
        return 1 if missing or extra else 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    problems = check(argv[1] if len(argv) > 1 else ".")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} include(s) against the layer order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
